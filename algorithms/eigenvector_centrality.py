"""Eigenvector centrality by power iteration, with NetworkX's iteration, stopping rule and
normalization.

A vertex is central when central vertices point to it: x is the principal left eigenvector of
the adjacency matrix, x A = lambda x (A^T x for the in-edges). NetworkX iterates with A + I,
whose principal eigenvector is the same, so that a bipartite or periodic graph (eigenvalues
lambda and -lambda) still converges. From x_0 = 1/n (or the given start scaled to sum 1)::

    x' = x + x plus.times A                 (A + I)^T x
    x' /= ||x'||_2                          (left as it is if the norm is zero)
    err = sum |x' - x|

stopping when err < n * tol (NetworkX's rule: tol per vertex). Edge weights are used as they
are. The eigenvector is unique (up to scale) when the graph is strongly connected; otherwise
the result depends on the start, as NetworkX's does.

References: P. Bonacich, "Power and centrality: a family of measures", American Journal of
Sociology 92(5), 1987; NetworkX's ``eigenvector_centrality``; graphblas-algorithms'
``eigenvector_centrality``.

Cost per iteration: one dense vxm (O(nnz/P) work, O(n/R + n/C) words per rank) and O(n/P)
element-wise work with two scalar reductions (the norm and the error). The iterations grow as
1 / log((lambda_1 + 1) / |lambda_2 + 1|).
"""

from gblas2d import exceptions

from ._engine import check_count, engine
from .graph import as_graph

__all__ = ["eigenvector_centrality"]


def eigenvector_centrality(A, tol=1e-6, max_iter=100, *, nstart=None):
    """Eigenvector centrality of every vertex of the directed graph ``A`` (``A[i, j]``: edge
    i -> j; a vertex is central when central vertices point to it).

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square adjacency matrix; its values are the edge weights.
    tol : float
        Stop when the L1 change falls below ``n * tol``.
    max_iter : int
        Iteration cap; reaching it without meeting the tolerance raises ConvergenceFailure.
    nstart : Vector, optional
        Starting values (0 for a vertex without an entry), not all zero; 1 by default.

    Returns
    -------
    Vector (FP64) of unit 2-norm with an entry for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], 1.0, nrows=3, ncols=3)
    >>> eigenvector_centrality(A, tol=1e-9).to_dense().round(4)
    array([0.5   , 0.7071, 0.5   ])
    """
    G = as_graph(A, "eigenvector_centrality")
    A, ns = G.A, engine(G.A)
    max_iter = check_count(max_iter, "max_iter", 1, "a positive integer")
    if not tol > 0:
        raise exceptions.InvalidValue(f"tol (={tol}) must be positive")
    n, fp64 = A.nrows, ns.dtypes.FP64
    if nstart is not None and nstart.size != n:
        raise exceptions.DimensionMismatch(
            f"nstart.size (={nstart.size}) must equal Matrix.nrows (={n})")
    if n == 0:
        return ns.Vector(fp64, 0)
    # x = nstart / sum(nstart), 1/n by default
    x = ns.Vector.from_scalar(0.0 if nstart is not None else 1.0, n, fp64)
    if nstart is not None:
        x(accum=ns.binary.plus) << nstart
    total = x.reduce().value
    if not total:
        raise exceptions.InvalidValue("nstart must not sum to zero")
    x = x.apply(ns.binary.truediv, right=total).new()
    for _ in range(max_iter):
        # x' = x + x plus.times A
        x_next = x.dup()
        x_next(accum=ns.binary.plus) << x.vxm(A, ns.semiring.plus_times[fp64])
        # x' /= ||x'||_2
        norm = x_next.ewise_mult(x_next, ns.binary.times).new().reduce().value ** 0.5
        x_next = x_next.apply(ns.binary.truediv, right=norm or 1.0).new()
        # err = sum |x' - x|
        err = x_next.ewise_mult(x, ns.binary.minus).new().apply(ns.unary.abs).new().reduce()
        x = x_next
        if err.value < n * tol:
            return x
    raise exceptions.ConvergenceFailure(
        f"eigenvector_centrality did not reach tol={tol} in {max_iter} iterations (last "
        f"change {err.value:.3g})")
