"""PageRank by power iteration, with the LDBC Graphalytics treatment of dangling vertices.

With n vertices, damping d, out-degrees d_out and D the dangling vertices (no out-edge)::

    r_0 = 1/n
    r_{k+1}(v) = (1 - d)/n + d/n * sum_{u in D} r_k(u) + d * sum_{u -> v} r_k(u) / d_out(u)

stopping when ||r_{k+1} - r_k||_1 < tol. The GAP / LAGraph variant (``variant="gap"``) drops
the dangling term, so rank leaks out of dangling vertices and the ranks need not sum to one.
Edge weights are ignored; duplicate edges count once (they are combined on construction).

In the engine each iteration is::

    w = r ./ (d_out / d)                   rank each vertex sends along each out-edge
    r' = (1 - d)/n + d/n * sum(r<D>)      teleport and dangling share, the same everywhere
    r' += w plus.first A                   what arrives along the in-edges
    err = sum |r' - r|

References: LDBC Graphalytics benchmark specification (PageRank); LAGraph's LAGr_PageRank and
LAGr_PageRankGAP; Page, Brin, Motwani, Winograd (1999).

Cost per iteration: one dense vxm (O(nnz/P) work, O(n/R + n/C) words per rank) and O(n/P)
element-wise work with two scalar reductions (the dangling share and the error).
"""

import math

from gblas2d import exceptions

from ._engine import engine
from .graph import as_graph

__all__ = ["pagerank"]

VARIANTS = ("graphalytics", "gap")


def pagerank(A, damping=0.85, tol=1e-4, max_iter=100, *, variant="graphalytics",
             iterations=None):
    """PageRank of every vertex of the directed graph ``A`` (``A[i, j]``: edge i -> j).

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph (whose cached out-degrees it uses)
        Square adjacency matrix; only its pattern is used.
    damping : float
        Probability of following an edge, in [0, 1).
    tol : float
        Stop when the L1 change of the ranks falls below ``tol``.
    max_iter : int
        Iteration cap; reaching it without meeting ``tol`` raises ConvergenceFailure.
    variant : {"graphalytics", "gap"}
        Dangling vertices spread their rank over all vertices (LDBC Graphalytics, as networkx)
        or lose it (GAP, LAGraph's PageRankGAP).
    iterations : int, optional
        Run exactly this many iterations and return, with no convergence check (LDBC
        Graphalytics runs a fixed ``num-iterations``); ``tol`` and ``max_iter`` are then
        unused.

    Returns
    -------
    Vector (FP64) with a rank for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 2], [1, 2, 0], nrows=3, ncols=3)
    >>> pagerank(A).to_dense().round(4)
    array([0.3333, 0.3333, 0.3333])
    """
    G = as_graph(A, "pagerank")
    A, ns = G.A, engine(G.A)
    if not 0 <= damping < 1:
        raise exceptions.InvalidValue(f"damping (={damping}) must lie in [0, 1)")
    if not tol > 0:
        raise exceptions.InvalidValue(f"tol (={tol}) must be positive")
    if int(max_iter) != max_iter or max_iter < 1:
        raise exceptions.InvalidValue(f"max_iter (={max_iter}) must be a positive integer")
    if variant not in VARIANTS:
        raise exceptions.InvalidValue(f"variant must be one of {VARIANTS}, got {variant!r}")
    if iterations is not None and (isinstance(iterations, bool) or int(iterations) != iterations
                                   or iterations < 0):
        raise exceptions.InvalidValue(f"iterations (={iterations}) must be a non-negative "
                                      "integer")
    n = A.nrows
    fp64 = ns.dtypes.FP64
    if n == 0:
        return ns.Vector(fp64, 0)
    # d_out = A plus.pair 1 (kept on the Graph)
    out_degree = G.out_degree.dup(fp64)
    # d_out / d, infinite at dangling vertices so that w is dense and zero there
    scaled_out = ns.Vector.from_scalar(math.inf, n, fp64)
    scaled_out(out_degree.S) << out_degree.apply(ns.binary.truediv, right=damping)
    r = ns.Vector.from_scalar(1.0 / n, n, fp64)
    w = ns.Vector(fp64, n)
    for _ in range(int(max_iter if iterations is None else iterations)):
        with ns.iteration():
            # w = r ./ (d_out / d)
            w << r.ewise_mult(scaled_out, ns.binary.truediv)
            # dangling = sum(r<!d_out>), 0 when every vertex has an out-edge
            dangling = 0.0 if variant == "gap" else r.dup(mask=~out_degree.S).reduce(
                allow_empty=False).value
            # r' = (1 - d)/n + d/n * dangling
            r_next = ns.Vector.from_scalar((1 - damping + damping * dangling) / n, n, fp64)
            # r' += w plus.first A
            r_next(accum=ns.binary.plus) << w.vxm(A, ns.semiring.plus_first)
            if iterations is None:
                # err = sum |r' - r|, checked unless the iterations are fixed
                err = r_next.ewise_mult(r, ns.binary.minus).new().apply(ns.unary.abs).new().reduce()
                if err.value < tol:
                    return r_next
            r = r_next
    if iterations is not None:
        return r
    raise exceptions.ConvergenceFailure(
        f"pagerank did not reach tol={tol} in {max_iter} iterations (last change "
        f"{err.value:.3g})")
