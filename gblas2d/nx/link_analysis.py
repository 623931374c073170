"""Link analysis: nx.pagerank and nx.hits."""

import math

import networkx as nx

import gblas2d as gb
from gblas2d import algorithms as alg
from gblas2d import exceptions

from .checks import pagerank_reason, refuse

__all__ = ["hits", "pagerank"]


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None,
             weight="weight", dangling=None):
    """Collective. nx.pagerank: ``algorithms.pagerank`` (the LDBC Graphalytics variant, which
    spreads the rank of dangling nodes uniformly as NetworkX does) when the edge weights are
    equal, ``_weighted_pagerank`` otherwise. NetworkX stops when the L1 change is below
    ``N * tol``, and so do both."""
    refuse(pagerank_reason(alpha, personalization, max_iter, nstart, dangling))
    n = len(G)
    if n == 0:
        return {}
    A = G.adjacency(weight)
    weighted = weight is not None and A.nvals and \
        A.reduce_scalar(gb.monoid.min).new().value != A.reduce_scalar(gb.monoid.max).new().value
    try:
        if weighted:
            ranks = _weighted_pagerank(A, alpha, n * tol, max_iter)
        else:
            ranks = alg.pagerank(A, alpha, tol=n * tol, max_iter=max_iter)
    except exceptions.ConvergenceFailure as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    return G.to_dict(ranks)


def _weighted_pagerank(A, damping, tol, max_iter):
    """Collective. ``algorithms.pagerank`` with the rank a vertex sends split in proportion to
    the (positive) weights of its out-edges, as NetworkX does::

        s = A plus.reduce rowwise                 out-weight of each vertex
        w = r ./ (s / d)                          rank sent per unit of weight
        r' = (1 - d)/n + d/n * sum(r<!s>)         teleport and dangling share
        r' += w plus.times A
    """
    n = A.nrows
    fp64 = gb.dtypes.FP64
    # s = A plus.reduce rowwise
    out_weight = A.reduce_rowwise(gb.monoid.plus).new(fp64)
    # s / d, infinite at dangling vertices so that w is zero there
    scaled_out = gb.Vector.from_scalar(math.inf, n, fp64)
    scaled_out(out_weight.S) << out_weight.apply(gb.binary.truediv, right=damping)
    r = gb.Vector.from_scalar(1.0 / n, n, fp64)
    for _ in range(max_iter):
        # w = r ./ (s / d)
        w = r.ewise_mult(scaled_out, gb.binary.truediv).new()
        # dangling = sum(r<!s>)
        dangling = r.dup(mask=~out_weight.S).reduce(allow_empty=False).value
        # r' = (1 - d)/n + d/n * dangling
        r_next = gb.Vector.from_scalar((1 - damping + damping * dangling) / n, n, fp64)
        # r' += w plus.times A
        r_next(accum=gb.binary.plus) << w.vxm(A, gb.semiring.plus_times)
        # err = sum |r' - r|
        err = r_next.ewise_mult(r, gb.binary.minus).new().apply(gb.unary.abs).new().reduce().value
        if err < tol:
            return r_next
        r = r_next
    raise exceptions.ConvergenceFailure(f"pagerank did not reach tol={tol} in {max_iter} "
                                        "iterations")




def hits(G, max_iter=100, tol=1.0e-8, nstart=None, normalized=True):
    """Collective. nx.hits from ``algorithms.hits``: power iteration to ``tol``, where
    NetworkX finds the singular vector with ARPACK (they agree where it is unique)."""
    if len(G) == 0:
        return {}, {}
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    start = None if nstart is None else G.vector(nstart)
    try:
        # NetworkX's hits reads the "weight" attribute, 1 where an edge has none
        hubs, authorities = alg.hits(G.adjacency("weight"), tol, max_iter, nstart=start,
                                     normalized=normalized)
    except exceptions.ConvergenceFailure as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    return G.to_dict(hubs), G.to_dict(authorities)
