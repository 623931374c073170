"""Strongly connected components of a directed graph, by trimming and coloring.

Each vertex is labelled with the smallest vertex id of its strongly connected component (SCC).
Every round works on the vertices not labelled yet (c holds their ids) and labels at least one
SCC. A vertex with no in-edge or no out-edge among them is an SCC alone (trimming). The rest
are colored: each takes the smallest id that reaches it, by min-label propagation along the
out-edges. A vertex whose color is its own id is a root, the smallest id of its SCC, and the
SCC of root r is the vertices of color r that reach r, found by one search backwards from all
roots at once::

    repeat until c is empty:
        o<c> = A any.pair c;  i<c> = c any.pair A    out- and in-neighbours left
        label<c, !(o and i)> = c;  c<!(o and i)>     trim: SCCs of one vertex
        f = q = c                                    colors: min-label propagation
        repeat until q is empty:
            m<f> = q min.first A                     smallest color arriving
            q<m < f> = m;  f<q> = q
        q = s = f<f == c>                            the roots, by their colors
        repeat until q is empty:
            m<!s> = A max.second q                   largest color of a found successor
            q<m == f> = m;  s<q> = q                 same color: in the root's SCC
        label<s> = s;  c<!s>

The backward search needs no per-color bookkeeping: an out-neighbour w of v is reached from v,
so its color is at most v's, and the largest color among v's found successors equals v's
exactly when one of them is in v's color class.

References: S. Orzan, "On distributed verification and verified distribution", PhD thesis,
2004 (coloring); G. M. Slota, S. Rajamanickam, K. Madduri, "BFS and coloring-based parallel
algorithms for strongly connected components and related problems", IPDPS 2014 (Multistep,
with trimming); W. McLendon et al., "Finding strongly connected components in distributed
graphs", JPDC 2005.

Cost per round: two masked products for the trim, then one sparse-frontier vxm per coloring
step and one mxv per backward step (O(edges of the frontier) each, O(n/R + n/C) words per rank
for a dense frontier) and O(n/P) element-wise work per step. The coloring takes up to the
longest shortest path among the vertices left; the number of rounds is at most the number of
SCCs and is small when the vertex ids are scattered, but a path whose ids decrease along the
edges is labelled one vertex per round.
"""

from ._engine import engine
from .graph import as_graph

__all__ = ["strongly_connected_components"]


def strongly_connected_components(A):
    """Label of every vertex: the smallest vertex id of its strongly connected component.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph (whose cached transpose it uses)
        Square adjacency matrix (``A[i, j]``: edge i -> j); only its pattern is used.

    Returns
    -------
    Vector (INT64) with a label for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 2, 2], [1, 2, 0, 3], nrows=4, ncols=4)
    >>> strongly_connected_components(A).to_dense()
    array([0, 0, 0, 3])
    """
    G = as_graph(A, "strongly_connected_components")
    A, ns = G.A, engine(G.A)
    int64 = ns.dtypes.INT64
    any_pair, min_first = ns.semiring.any_pair[int64], ns.semiring.min_first[int64]
    # c = (0, 1, ..., n-1)
    c = ns.Vector.from_scalar(0, A.nrows, int64).apply(ns.indexunary.rowindex, 0).new()
    label = ns.Vector(int64, A.nrows)
    while c.nvals:
        with ns.iteration():
            # o<c> = A any.pair c, i<c> = A^T any.pair c
            out_left = A.mxv(c, any_pair).new(mask=c.S)
            in_left = G.AT.mxv(c, any_pair).new(mask=c.S)
            both = out_left.ewise_mult(in_left, ns.binary.pair).new()
            # label<c, !(o and i)> = c, c<o and i>
            trimmed = c.dup(mask=~both.S)
            label(trimmed.S) << trimmed
            c = c.dup(mask=both.S)
            f = _colors(ns, A, c, min_first)
            # s = f<f == c>: the roots, valued by their own ids
            s = f.dup(mask=f.ewise_mult(c, ns.binary.eq).new().V)
            q = s
            while q.nvals:
                # m<!s> = A max.second q
                m = A.mxv(q, ns.semiring.max_second[int64]).new(mask=~s.S)
                # q<m == f> = m, s<q> = q
                q = m.dup(mask=m.ewise_mult(f, ns.binary.eq).new().V)
                s(q.S) << q
            # label<s> = s, c<!s>
            label(s.S) << s
            c = c.dup(mask=~s.S)
    return label


def _colors(ns, A, c, min_first):
    """The smallest id in ``c`` that reaches each vertex of ``c`` along edges within ``c``
    (min-label propagation with a frontier of changed colors)."""
    f = c.dup()
    q = c.dup()
    while q.nvals:
        # m<f> = q min.first A
        m = q.vxm(A, min_first).new(mask=f.S)
        # q<m < f> = m, f<q> = q
        q(m.ewise_mult(f, ns.binary.lt).new().V, replace=True) << m
        f(q.S) << q
    return f
