"""HITS hubs and authorities by power iteration, normalized as NetworkX's ``hits``.

A good hub points to good authorities and a good authority is pointed to by good hubs: with
the (weighted) adjacency matrix A (``A[i, j]``: edge i -> j), the authorities a are the
principal eigenvector of A^T A (A's first right singular vector) and the hubs h = A a. Power
iteration from h_0 = 1/n (or the given start, scaled to sum 1), each vector scaled by its
largest entry as in NetworkX's pure-Python HITS::

    a = h plus.times A                  A^T h: what the hubs point to
    h' = A plus.times a                 A a: what points to the authorities
    h' /= max(h');  a /= max(a)
    err = sum |h' - h|

stopping when err < tol. Then the result is scaled to sum 1 (``normalized=True``) or, as
NetworkX's SVD-based ``hits`` returns it unnormalized, a to unit 2-norm and h = A a.
NetworkX computes the singular vector with ARPACK; the two agree where it is unique (the
largest singular value is simple), to about tol / (1 - (s2/s1)^2).

References: J. Kleinberg, "Authoritative sources in a hyperlinked environment", JACM 46(5),
1999; NetworkX's ``hits`` and ``_hits_python``; graphblas-algorithms' ``hits``.

Cost per iteration: one dense vxm and one dense mxv (O(nnz/P) work each, O(n/R + n/C) words
per rank), and O(n/P) element-wise work with three scalar reductions (two maxima, the error).
"""

from gblas2d import exceptions

from ._engine import check_count, engine
from .graph import as_graph

__all__ = ["hits"]


def hits(A, tol=1e-8, max_iter=100, *, nstart=None, normalized=True):
    """Hub and authority scores of every vertex of the directed graph ``A``.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square adjacency matrix with non-negative weights (``A[i, j]``: edge i -> j) and at
        least one entry.
    tol : float
        Stop when the L1 change of the hubs (each scaled to a largest entry of 1) is below.
    max_iter : int
        Iteration cap; reaching it without meeting ``tol`` raises ConvergenceFailure.
    nstart : Vector, optional
        Starting hub scores, one for every vertex, not summing to zero.
    normalized : bool
        Scale both results to sum 1; otherwise authorities of unit 2-norm and hubs A a.

    Returns
    -------
    (hubs, authorities): two Vectors (FP64) with an entry for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 0, 1], [1, 2, 2], 1.0, nrows=3, ncols=3)
    >>> hubs, authorities = hits(A)
    >>> hubs.to_dense().round(4), authorities.to_dense().round(4)
    (array([0.618, 0.382, 0.   ]), array([0.   , 0.382, 0.618]))
    """
    G = as_graph(A, "hits")
    A, ns = G.A, engine(G.A)
    max_iter = check_count(max_iter, "max_iter", 1, "a positive integer")
    if not tol > 0:
        raise exceptions.InvalidValue(f"tol (={tol}) must be positive")
    if A.nvals == 0:
        raise exceptions.InvalidValue("hits needs a Matrix with at least one entry")
    n, fp64 = A.nrows, ns.dtypes.FP64
    if nstart is not None and nstart.size != n:
        raise exceptions.DimensionMismatch(
            f"nstart.size (={nstart.size}) must equal Matrix.nrows (={n})")
    plus_times = ns.semiring.plus_times[fp64]
    # h = 1/n, or nstart / sum(nstart)
    h = ns.Vector.from_scalar(1.0 / n, n, fp64) if nstart is None else \
        _scaled(ns, _dense(ns, n, nstart), ns.monoid.plus, "nstart")
    for _ in range(max_iter):
        # a = h plus.times A, h' = A plus.times a (dense: 0 where nothing arrives)
        a = _dense(ns, n, h.vxm(A, plus_times))
        h_next = _dense(ns, n, A.mxv(a, plus_times))
        # h' /= max(h'), a /= max(a)
        h_next, a = _scaled(ns, h_next, ns.monoid.max), _scaled(ns, a, ns.monoid.max)
        # err = sum |h' - h|
        err = h_next.ewise_mult(h, ns.binary.minus).new().apply(ns.unary.abs).new().reduce()
        h = h_next
        if err.value < tol:
            break
    else:
        raise exceptions.ConvergenceFailure(
            f"hits did not reach tol={tol} in {max_iter} iterations (last change "
            f"{err.value:.3g})")
    if normalized:
        return _scaled(ns, h, ns.monoid.plus), _scaled(ns, a, ns.monoid.plus)
    # a /= ||a||_2, h = A plus.times a
    norm = a.ewise_mult(a, ns.binary.times).new().reduce().value ** 0.5
    a = a.apply(ns.binary.truediv, right=norm).new()
    return _dense(ns, n, A.mxv(a, plus_times)), a


def _dense(ns, n, v):
    """``v`` (a Vector or a product) as FP64 with a 0 wherever it has no entry."""
    out = ns.Vector.from_scalar(0.0, n, ns.dtypes.FP64)
    out(accum=ns.binary.plus) << v
    return out


def _scaled(ns, v, monoid, name=None):
    """``v / (monoid-reduce v)``; a zero reduction of a named input is InvalidValue."""
    total = v.reduce(monoid).value
    if name is not None and not total:
        raise exceptions.InvalidValue(f"{name} must not sum to zero")
    return v.apply(ns.binary.truediv, right=total).new()
