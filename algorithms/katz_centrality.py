"""Katz centrality by power iteration, with NetworkX's stopping rule and normalization.

A vertex is central when central vertices point to it, each step along a walk damped by
alpha, with beta given to every vertex: the solution of x = alpha A^T x + beta, the series
beta + alpha A^T beta + alpha^2 (A^T)^2 beta + ..., which converges when alpha is below
1 / (the spectral radius of A). From x_0 = 0 (or a given start)::

    x' = alpha * (x plus.times A) + beta      one more step of every walk
    err = sum |x' - x|

stopping when err < n * tol (NetworkX's rule: tol per vertex) and scaling x' to unit 2-norm
when ``normalized``. Edge weights are used as they are.

References: L. Katz, "A new status index derived from sociometric analysis", Psychometrika
18(1), 1953; NetworkX's ``katz_centrality``; graphblas-algorithms' ``katz_centrality``.

Cost per iteration: one dense vxm (O(nnz/P) work, O(n/R + n/C) words per rank) and O(n/P)
element-wise work with one scalar reduction (the error).
"""

import math

from gblas2d import exceptions

from ._engine import check_count, engine
from .graph import as_graph

__all__ = ["katz_centrality"]


def katz_centrality(A, alpha=0.1, beta=1.0, tol=1e-6, max_iter=1000, *, nstart=None,
                    normalized=True):
    """Katz centrality of every vertex of the directed graph ``A`` (``A[i, j]``: i -> j).

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square adjacency matrix; its values are the edge weights.
    alpha : float
        Damping of each step; the series converges for alpha < 1 / spectral radius.
    beta : float or Vector
        What every vertex gets, or a Vector of it, one entry for every vertex.
    tol : float
        Stop when the L1 change falls below ``n * tol``.
    max_iter : int
        Iteration cap; reaching it without meeting the tolerance raises ConvergenceFailure.
    nstart : Vector, optional
        Starting values (0 for a vertex without an entry); zero by default.
    normalized : bool
        Scale the result to unit 2-norm (unless it is zero).

    Returns
    -------
    Vector (FP64) with an entry for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], 1.0, nrows=3, ncols=3)
    >>> katz_centrality(A, 0.2).to_dense().round(4)
    array([0.5455, 0.6364, 0.5455])
    """
    G = as_graph(A, "katz_centrality")
    A, ns = G.A, engine(G.A)
    max_iter = check_count(max_iter, "max_iter", 1, "a positive integer")
    if not tol > 0:
        raise exceptions.InvalidValue(f"tol (={tol}) must be positive")
    n, fp64 = A.nrows, ns.dtypes.FP64
    for given, name in ((beta, "beta"), (nstart, "nstart")):
        if hasattr(given, "size") and given.size != n:
            raise exceptions.DimensionMismatch(
                f"{name}.size (={given.size}) must equal Matrix.nrows (={n})")
    if hasattr(beta, "size") and beta.nvals != n:
        raise exceptions.InvalidValue(f"beta must have an entry for every vertex, it has "
                                      f"{beta.nvals} of {n}")
    if n == 0:
        return ns.Vector(fp64, 0)
    # b = beta at every vertex
    b = beta.dup(fp64) if hasattr(beta, "size") else ns.Vector.from_scalar(float(beta), n, fp64)
    # x = 0, or nstart
    x = ns.Vector.from_scalar(0.0, n, fp64)
    if nstart is not None:
        x(accum=ns.binary.plus) << nstart
    for _ in range(max_iter):
        # x' = alpha * (x plus.times A) + beta
        x_next = b.dup()
        x_next(accum=ns.binary.plus) << x.vxm(A, ns.semiring.plus_times[fp64]).new() \
            .apply(ns.binary.times, right=alpha)
        # err = sum |x' - x|
        err = x_next.ewise_mult(x, ns.binary.minus).new().apply(ns.unary.abs).new().reduce()
        x = x_next
        if err.value < n * tol:
            break
        if not math.isfinite(err.value):
            raise exceptions.ConvergenceFailure(
                f"katz_centrality diverges: alpha (={alpha}) is above 1 / spectral radius")
    else:
        raise exceptions.ConvergenceFailure(
            f"katz_centrality did not reach tol={tol} in {max_iter} iterations (last change "
            f"{err.value:.3g}; alpha (={alpha}) may be above 1 / spectral radius)")
    if not normalized:
        return x
    # x /= ||x||_2, unless it is zero
    norm = x.ewise_mult(x, ns.binary.times).new().reduce().value ** 0.5
    return x.apply(ns.binary.truediv, right=norm or 1.0).new()
