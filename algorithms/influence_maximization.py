"""Influence maximization by reverse influence sampling (IMM-style): k seeds that reach most.

Under the independent cascade model the expected number of vertices a seed set S activates is
n times the probability that S meets the reverse-reachable (RRR) set of a uniformly random
vertex. So: draw θ random roots, build their RRR sets with one fused traversal, and pick the k
vertices that cover the most sets, greedily (max-k-cover, a (1 - 1/e) approximation of the best
cover). R is the n x ceil(θ/64) bitmask matrix of ``fused_bpt``, ``a`` the word vector of sets
not yet covered::

    R = fused_bpt(A, roots).rrr                    R(v, w): the sets of word w that hold v
    a = all sets
    repeat k times:
        g = popcount(R bor.band diag(a)) +.rows    uncovered sets each vertex would cover
        s = argmax g<~S> (smallest id on ties)     a max, a select and a min over indices
        a = a band ~(e_s any.second R)             row s of R leaves the uncovered sets
    spread = n (θ - popcount(a)) / θ

Reference: Y. Tang, Y. Shi, X. Xiao, "Influence maximization in near-linear time: a martingale
approach", SIGMOD 2015 (IMM); C. Borgs, M. Brautbar, J. Chayes, B. Lucier, SODA 2014 (RRR sets).
IMM's adaptive choice of θ is replaced by the ``samples`` option.

Cost: one fused traversal (see fused_bpt); per seed one tall-and-skinny product with a
ceil(θ/64) x ceil(θ/64) diagonal, O(nnz(R) / P) work, and O(n/P) element-wise work.
"""

import numbers
from typing import NamedTuple

import numpy as np

from gblas2d import exceptions

from ._engine import engine
from .fused_bpt import _thresholds, fused_bpt
from .graph import as_graph

__all__ = ["InfluenceResult", "influence_maximization"]


class InfluenceResult(NamedTuple):
    """Seeds in the order chosen, and the estimated expected number of vertices they activate
    (their own included), n times the fraction of the ``samples`` RRR sets they cover."""

    seeds: list
    spread: float
    samples: int


def influence_maximization(A, k, *, samples=4096, probability=0.1, seed=0):
    """The k seed vertices that cover the most sampled RRR sets, chosen greedily.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects, with the same
    samples and seeds.

    Parameters
    ----------
    A : Matrix or Graph
        Square; ``A[u, v]`` is the edge u -> v (u can activate v).
    k : int
        How many seeds, at most the number of vertices.
    samples : int
        θ, the number of RRR sets (random roots, drawn from ``seed``).
    probability : float in [0, 1] or "weight"
        Edge activation probability, as in ``fused_bpt``.
    seed : int

    Returns
    -------
    InfluenceResult (seeds, spread, samples).

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 0, 0], [1, 2, 3], nrows=5, ncols=5)
    >>> influence_maximization(A, 1, probability=1.0).seeds
    [0]
    """
    G = as_graph(A, "influence_maximization")
    A, ns = G.A, engine(G.A)
    for name, value, low in (("k", k, 0), ("samples", samples, 1)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
        if value < low:
            raise exceptions.InvalidValue(f"{name} must be at least {low}, got {value}")
    if k > A.nrows:
        raise exceptions.InvalidValue(f"k (={k}) must not exceed the number of vertices "
                                      f"(={A.nrows})")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    if A.nrows == 0:
        _thresholds(ns, A, probability)  # still refuse a bad probability
        return InfluenceResult([], 0.0, samples)
    roots = np.random.default_rng(seed).integers(0, A.nrows, samples)
    # R = fused_bpt(A, roots).rrr
    R = fused_bpt(A, roots.tolist(), probability, seed).rrr
    # a = all sets (the last word holds only the sets that exist)
    words = np.full(R.ncols, 2**64 - 1, dtype=np.uint64)
    words[-1] >>= np.uint64(-samples % 64)
    a = ns.Vector.from_coo(np.arange(R.ncols), words, dtype=ns.dtypes.UINT64, size=R.ncols)
    chosen = ns.Vector(ns.dtypes.BOOL, A.nrows)
    zero = ns.Vector.from_scalar(0, A.nrows, ns.dtypes.INT64)
    seeds = []
    for _ in range(k):
        # g<~S> = popcount(R bor.band diag(a)) summed by row: uncovered sets per unchosen vertex
        g = ns.Vector(ns.dtypes.INT64, A.nrows)
        g(~chosen.S) << zero
        g(~chosen.S, accum=ns.binary.plus) << ns.popcount(
            R.mxm(a.diag(), ns.semiring.bor_band).new()).reduce_rowwise(ns.monoid.plus)
        # s = the smallest id among the vertices of the largest g
        best = g.reduce(ns.monoid.max).new().value
        top = g.select(ns.select.valueeq, best).new()
        s = int(top.apply(ns.indexunary.rowindex, 0).new().reduce(ns.monoid.min).new().value)
        seeds.append(s)
        e_s = ns.Vector.from_coo([s], [True], size=A.nrows)
        chosen(e_s.S) << e_s
        # a = a band ~(e_s any.second R)
        row = e_s.vxm(R, ns.semiring.any_second).new()
        covered = a.ewise_mult(row, ns.binary.band).new()
        a = a.ewise_add(covered, ns.binary.bxor).new()
    # sets still uncovered: the set bits of a (read through its diagonal matrix)
    left = int(ns.popcount(a.diag()).reduce_scalar(ns.monoid.plus).new().value or 0)
    return InfluenceResult(seeds, A.nrows * (samples - left) / samples, samples)
