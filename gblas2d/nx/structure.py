"""Structure read from degrees and one product: isolates, reciprocity, self loops, and the
degrees the other modules share."""

import networkx as nx

import gblas2d as gb

__all__ = ["degrees", "is_isolate", "isolated", "isolates", "number_of_isolates",
           "number_of_selfloops", "overall_reciprocity", "reciprocity"]


def degrees(G, direction="out", weight=None):
    """Collective. NetworkX's degree of every node as a Vector (0 for none): ``G.degree`` of
    an undirected graph (a self loop twice), ``G.out_degree``, ``G.in_degree`` or ``G.degree``
    (``direction`` "out", "in", "in+out") of a DiGraph; the sums of the edge attribute
    ``weight`` (1 where an edge lacks it) or, for None, the numbers of edges::

        d = 0;  d += A plus 1 (out);  d += 1 plus A (in);  d += diag(A) (undirected)
    """
    A = G.adjacency(weight)
    d = gb.Vector.from_scalar(0, len(G), A.dtype)
    if direction in ("out", "in+out"):
        # d += A plus 1
        d(accum=gb.binary.plus) << A.reduce_rowwise(gb.monoid.plus)
    if direction in ("in", "in+out"):
        # d += 1 plus A
        d(accum=gb.binary.plus) << A.reduce_columnwise(gb.monoid.plus)
    if not G.is_directed():
        # d += diag(A): NetworkX counts a self loop twice in an undirected degree
        d(accum=gb.binary.plus) << A.select(gb.select.diag).new().reduce_rowwise(gb.monoid.plus)
    return d


def number_of_selfloops(G):
    """Collective. nx.number_of_selfloops: ``nvals(diag(A))``."""
    return G.matrix.select(gb.select.diag).new().nvals


def isolates(G):
    """Collective. nx.isolates: the nodes without an edge in or out, in G's order, computed
    at the call::

        t = (A any.pair 1) + (1 any.pair A)        the nodes an edge touches
        isolates = 1<!t>
    """
    return iter(G.to_dict(isolated(G)))


def number_of_isolates(G):
    """Collective. nx.number_of_isolates."""
    return isolated(G).nvals


def is_isolate(G, n):
    """Collective. nx.is_isolate (KeyError for a node not in G, as NetworkX's degree)."""
    i = G.index[n]
    return isolated(G).get(i) is not None


def isolated(G):
    """Collective. The BOOL Vector true at the isolated nodes."""
    A, n = G.matrix, len(G)
    ones = gb.Vector.from_scalar(True, n, gb.dtypes.BOOL)
    any_pair = gb.semiring.any_pair[gb.dtypes.BOOL]
    # t = (A any.pair 1) + (1 any.pair A)
    touched = A.mxv(ones, any_pair).new()
    touched(accum=gb.binary.lor) << ones.vxm(A, any_pair)
    # isolates = 1<!t>
    return ones.dup(mask=~touched.S)


def reciprocity(G, nodes=None):
    """Collective. nx.reciprocity of a DiGraph: ``overall_reciprocity`` (nodes None), or for
    each node 2 |pred & succ| / (|pred| + |succ|)::

        r = (A .* A^T) plus.pair 1                 |pred & succ|
        t = (A plus.pair 1) + (1 plus.pair A)      |succ| + |pred|

    (None where t is 0, NetworkXError for one such node, as NetworkX).
    """
    _directed_only(G)
    if nodes is None:
        return overall_reciprocity(G)
    A, n = G.matrix, len(G)
    ones = gb.Vector.from_scalar(1, n, gb.dtypes.INT64)
    plus_pair = gb.semiring.plus_pair[gb.dtypes.INT64]
    # r = (A .* A^T) plus.pair 1
    both = G.to_dict(A.ewise_mult(G.reverse_matrix, gb.binary.pair).new().mxv(ones, plus_pair))
    # t = (A plus.pair 1) + (1 plus.pair A)
    total = A.mxv(ones, plus_pair).new()
    total(accum=gb.binary.plus) << ones.vxm(A, plus_pair)
    total = G.to_dict(total)
    values = {v: 2 * both.get(v, 0) / total[v] if v in total else None for v in G.nodes}
    if nodes in G.graph:
        if values[nodes] is None:
            raise nx.NetworkXError("Not defined for isolated nodes.")
        return values[nodes]
    return {v: values[v] for v in G.graph.nbunch_iter(nodes)}


def overall_reciprocity(G):
    """Collective. nx.overall_reciprocity of a DiGraph: the share of edges whose reverse is an
    edge too, self loops left out::

        overlap = nvals(offdiag(A .* A^T));   overall = overlap / nvals(A)
    """
    _directed_only(G)
    A = G.matrix
    if A.nvals == 0:
        raise nx.NetworkXError("Not defined for empty graphs")
    # overlap = nvals(offdiag(A .* A^T))
    overlap = A.ewise_mult(G.reverse_matrix, gb.binary.pair).new() \
        .select(gb.select.offdiag).new().nvals
    return overlap / A.nvals


def _directed_only(G):
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
