"""Community detection by label propagation, with the LDBC Graphalytics CDLP semantics.

Every vertex starts with its own id as label. In each of ``max_iter`` synchronous rounds every
vertex takes the most frequent label among its neighbours, the smallest such label on a tie; a
vertex without neighbours keeps its label. In a directed graph in- and out-neighbours both
count, so a neighbour linked both ways counts twice. Edge weights and self loops are ignored
(a vertex is not its own neighbour, as in LAGraph, which deletes self edges before CDLP) and a
duplicate edge is one edge (both engines combine duplicates when a Matrix is built).

The mode is not a monoid, so each round counts (vertex, label) pairs first and takes a row-wise
argmax after. With S = pattern(A) + pattern(A)^T (entries 1, or 2 for an edge both ways; a
symmetric A gives 2 everywhere, which doubles every count and changes no argmax), B = 2^s the
smallest power of two >= n and mask = B - 1::

    f = (0, 1, ..., n-1)
    repeat max_iter times (or until f no longer changes, a fixed point):
        L(u, f(u)) = B                     one entry per vertex: its label, weighted B
        C = S plus.times L                 C(v, l) = B * (neighbour slots of v labelled l)
        K(v, l) = C(v, l) + mask - l       count in the high bits, smaller label = larger key
        m = max_l K(v, l)                  row-wise argmax, packed
        f<m> = (m & mask) ^ mask           unpack the label; vertices without neighbours keep f

``C`` is the paper's "2.5D" reduction: gblas2d's mxm multiplies each block locally, sends the
partial (vertex, label) counts along the grid row to the rank owning that label column, where
they are added, and ``reduce_rowwise`` then folds each vertex's keys to its owner. A count is at
most 2(n - 1), so K < 2n * B <= 4n^2: INT64 keys hold for n <= 2^30 (larger n is refused).

References: LDBC Graphalytics benchmark specification, "Community detection using label
propagation" (CDLP); U. N. Raghavan, R. Albert, S. Kumara, "Near linear time algorithm to
detect community structures in large-scale networks", Phys. Rev. E 76, 036106 (2007);
G. M. Slota, J. Mandulak, "Scaling Distributed Graph Processing to Hundreds of GPUs"
(HPCGraph-GPU, ICPP 2025), "2.5D processing" of label propagation; LAGraph's LAGraph_cdlp.

Cost per iteration, with P = R x C ranks: one mxm (O(nnz/P) multiply-adds; L's n entries
replicated along grid columns, O(n/C) words per rank; partial counts folded along grid rows,
at most O(nnz/P) words per rank), two element-wise passes and one row reduction over C's
entries (O(nnz/P) work, O(n/R) words), O(n/P) vector work, and the build of L from the labels
(``from_vectors``: each rank sends its own n/P (vertex, label) pairs to their owners).
"""


from gblas2d import exceptions

from ._engine import check_count, engine
from .graph import as_graph

__all__ = ["label_propagation"]

MAX_VERTICES = 2**30


def label_propagation(A, max_iter=10):
    """Community label of every vertex after ``max_iter`` rounds of CDLP (LDBC Graphalytics).

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects, with the same
    labels.

    Parameters
    ----------
    A : Matrix or Graph
        Square adjacency matrix (``A[i, j]``: edge i -> j); only its off-diagonal pattern is
        used. A directed graph counts in- and out-neighbours; give an undirected graph as a
        symmetric matrix.
    max_iter : int
        Number of synchronous rounds, >= 0 (10 by default, the value many LDBC Graphalytics
        runs use). It stops sooner at a fixed point, which gives the same labels.

    Returns
    -------
    Vector (INT64) with a label (a vertex id) for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 0, 1, 3, 3, 4], [1, 2, 2, 4, 5, 5], nrows=7, ncols=7)
    >>> label_propagation(A).to_dense()  # two triangles and an isolated vertex
    array([0, 0, 0, 3, 3, 3, 6])
    """
    G = as_graph(A, "label_propagation")
    A, ns = G.A, engine(G.A)
    max_iter = check_count(max_iter, "max_iter", 0, "a non-negative integer")
    n = A.nrows
    if n > MAX_VERTICES:
        raise exceptions.InvalidValue(
            f"label_propagation packs (count, label) into INT64 keys and supports up to "
            f"2**30 vertices, got Matrix.nrows (={n})")
    big = 1 << max(n - 1, 0).bit_length()
    mask = big - 1
    # O = offdiag(A)
    O = A.select(ns.select.offdiag).new()
    # O = 1 at every entry (INT64), weights dropped
    O = O.apply(ns.unary.one).new(ns.dtypes.INT64)
    # S = O + O^T: 1 for an edge one way, 2 for an edge both ways
    S = O.ewise_add(O.T.new(), ns.binary.plus).new()
    # u = f = (0, 1, ..., n-1)
    u = ns.Vector.from_scalar(0, n, ns.dtypes.INT64).apply(ns.indexunary.rowindex, 0).new()
    f = u.dup()
    for _ in range(max_iter):
        with ns.iteration():
            # L(u, f(u)) = B for every vertex u (built from the vectors' pieces)
            L = ns.from_vectors(u, f, big, ns.dtypes.INT64, nrows=n, ncols=n)
            # C = S plus.times L
            C = S.mxm(L, ns.semiring.plus_times).new()
            # T(v, l) = l - mask
            T = C.apply(ns.indexunary.colindex, -mask).new()
            # K = C - T = B * count + (mask - l)
            K = C.ewise_mult(T, ns.binary.minus).new()
            # m(v) = max_l K(v, l)
            m = K.reduce_rowwise(ns.monoid.max).new()
            # h = m & mask = mask - (the winning label)
            h = m.apply(ns.binary.band, mask).new()
            # h = h ^ mask = the winning label
            h << h.apply(ns.binary.bxor, mask)
            # g = h where v has neighbours, f elsewhere
            g = h.ewise_add(f, ns.binary.first).new()
            if g.isequal(f):
                break
            f = g
    return f
