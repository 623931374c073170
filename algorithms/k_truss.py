"""The k-truss of an undirected graph: its largest subgraph in which every edge lies on at least
k - 2 triangles of the subgraph.

S is the pattern of A without the diagonal (self loops are ignored). The support of an edge
(i, j) is the number of triangles through it, the common neighbours of i and j, which
``C<S> = S plus.pair S`` gives for every edge of S at once (an edge on no triangle gets no
entry). Dropping the edges of too little support lowers the support of others, so LAGraph's
LAGraph_KTruss repeats until no edge goes::

    S = pattern(A) without the diagonal
    repeat
        C<S> = S plus.pair S                 the support of every edge left
        S'   = pattern(select(C >= k - 2))   the edges on at least k - 2 triangles
    until nvals(S') = nvals(S)               then C is the k-truss

LAGraph keeps C (UINT32) as the next S; here the next S is a BOOL pattern, so the products
move one byte a value, and the supports of a round are dropped before the next product.

The result holds each edge of the truss both ways, valued by its support in the truss, so
sum(C) / 6 counts the truss's triangles. The k-truss is unique (the union of two subgraphs in
which every edge has support k - 2 has the same property), so the order of the deletions does
not matter: NetworkX's k_truss, which deletes edges in passes over the vertices, finds the same
edges.

References: J. Cohen, "Trusses: cohesive subgraphs for social network analysis", 2005;
T. A. Davis, "Graph algorithms via SuiteSparse:GraphBLAS: triangle counting and K-truss",
HPEC 2018; LAGraph's LAGraph_KTruss (experimental).

Cost per iteration: one masked mxm, whose work grows with the paths i - m - j it forms (about
sum_m d(m)^2 over the edges left, as triangle_count's burkhardt method), and one select (local,
no communication). On gblas2d at several ranks the product runs as SUMMA stages
(O(nnz/R + nnz/C) words per rank), each inside the rank's block of the mask. Once: the symmetry
check (one transpose, an all-to-all of O(nnz/P) words). The number of iterations is at most
the number of edges dropped plus one; a few on most graphs.
"""



from ._engine import check_count, engine
from .graph import as_graph
from .triangle_count import _symmetric_pattern

__all__ = ["k_truss"]


def k_truss(A, k):
    """The k-truss of the undirected graph ``A``, each edge valued by its support.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Symmetric adjacency matrix; only its pattern is used and self loops are ignored.
    k : int
        At least 3 (as LAGraph): every edge of the 2-truss is every edge of A.

    Returns
    -------
    Matrix (INT64), symmetric with an empty diagonal: C(i, j) is the number of triangles of
    the k-truss through the edge (i, j), at least k - 2. Vertices of no edge of the truss have
    empty rows.

    Examples
    --------
    >>> import gblas2d as gb
    >>> rows, cols = [0, 1, 1, 2, 2, 0, 2, 3], [1, 0, 2, 1, 0, 2, 3, 2]
    >>> A = gb.Matrix.from_coo(rows, cols, 1, nrows=4, ncols=4)
    >>> C = k_truss(A, 3)
    >>> C.nvals, C.reduce_rowwise().new().to_dense(0)
    (6, array([2, 2, 2, 0]))
    """
    G = as_graph(A, "k_truss")
    A, ns = G.A, engine(G.A)
    k = check_count(k, "k", 3, "at least 3")
    plus_pair = ns.semiring.plus_pair[ns.dtypes.INT64]
    # S = pattern(A) without self loops
    S = _symmetric_pattern(ns, A, "k_truss")
    while True:
        # C<S> = S plus.pair S
        C = S.mxm(S, plus_pair).new(mask=S.S)
        # S' = pattern(select(C >= k - 2))
        S_next = C.select(ns.select.valuege, k - 2).new(ns.dtypes.BOOL)
        if S_next.nvals == S.nvals:
            return C
        # the supports die before the next product is formed
        del C
        S = S_next
