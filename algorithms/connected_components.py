"""Connected components of the symmetrized graph (weak components of a directed graph).

Both methods give each vertex the smallest vertex id of its component. S is the pattern of
A + A^T, formed once.

Min-label propagation (``method="label_propagation"``), with a frontier of changed labels::

    f = q = (0, 1, ..., n-1)
    repeat until q is empty:
        m = S min.second q                 smallest label among each vertex's changed neighbours
        q<m < f> = m                       the labels that drop ...
        f<q> = q                           ... are kept and become the next frontier

It takes O(diameter) iterations, but the tail iterations touch only the edges of vertices whose
label changed (HPCGraph, SYgraph).

FastSV (``method="fastsv"``) hooks trees onto smaller labels and then flattens them with
pointer jumping, converging in O(log n) iterations. f is a forest of stars at the top of every
iteration, so f is also each vertex's grandparent::

    f = (0, 1, ..., n-1)
    repeat until f does not change:
        mngp = S min.second f              smallest grandparent among the neighbours
        f'(f(u)) min= mngp(u)              stochastic hooking (a scatter with min)
        f' min= mngp                       aggressive hooking
        f' = pointer_jumping(f')           shortcutting to the roots (repeated gathers)

References: G. M. Slota, S. Rajamanickam, K. Madduri, "A case study of complex graph analysis in
distributed memory: implementation and optimization", IPDPS 2016 (HPCGraph); Y. Zhang, A. Azad,
Z. Hu, "FastSV: a distributed-memory connected component algorithm with fast convergence",
SIAM PP 2020; LAGraph's LAGr_ConnectedComponents.

Cost per iteration: label propagation, one sparse-frontier mxv (O(edges of the frontier)) and
O(n/P) element-wise work; FastSV, one dense mxv, one scatter and the gathers of pointer jumping
(each an all-to-all of O(n/P) words per rank; two suffice once the labels settle) and O(n/P)
element-wise work.
"""

from gblas2d import exceptions

from ._engine import engine
from .graph import as_graph
from .pointer_jumping import pointer_jumping

__all__ = ["connected_components"]

METHODS = ("fastsv", "label_propagation")


def connected_components(A, method="fastsv"):
    """Component label of every vertex: the smallest vertex id in its (weak) component.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects, where the gather
    and scatter of FastSV run as an extract and a ``from_coo`` with ``dup_op``.

    Parameters
    ----------
    A : Matrix or Graph (whose cached transpose it uses)
        Square adjacency matrix; only its pattern is used, and edge directions are ignored.
    method : {"fastsv", "label_propagation"}

    Returns
    -------
    Vector (INT64) with a label for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([1, 3], [2, 2], nrows=5, ncols=5)
    >>> connected_components(A).to_dense()
    array([0, 1, 1, 1, 4])
    """
    G = as_graph(A, "connected_components")
    A, ns = G.A, engine(G.A)
    if method not in METHODS:
        raise exceptions.InvalidValue(f"method must be one of {METHODS}, got {method!r}")
    # S = pattern(A + A^T)
    S = A.ewise_add(G.AT, ns.binary.any).new(ns.dtypes.BOOL)
    # f = (0, 1, ..., n-1)
    f = ns.Vector.from_scalar(0, A.nrows, ns.dtypes.INT64).apply(ns.indexunary.rowindex, 0).new()
    if method == "fastsv":
        return _fastsv(ns, S, f)
    return _label_propagation(ns, S, f)


def _label_propagation(ns, S, f):
    q = f.dup()
    while q.nvals:
        with ns.iteration():
            # m = S min.second q
            m = S.mxv(q, ns.semiring.min_second).new()
            # q<m < f> = m
            q(m.ewise_mult(f, ns.binary.lt).new().V, replace=True) << m
            # f<q> = q
            f(q.S) << q
    return f


def _fastsv(ns, S, f):
    n = f.size
    while True:
        with ns.iteration():
            # mngp = S min.second f
            mngp = S.mxv(f, ns.semiring.min_second).new()
            # f'(f(u)) min= mngp(u)
            hooked = f.dup()
            hooked(accum=ns.binary.min) << ns.scatter(mngp, f, n, ns.monoid.min)
            # f' min= mngp
            hooked(accum=ns.binary.min) << mngp
            # f' = the roots of the hooked forest
            hooked = pointer_jumping(hooked)
            if hooked.isequal(f):
                return f
            f = hooked
