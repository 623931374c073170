"""Onion layers: the onion decomposition, which refines the core decomposition by numbering
the peeling waves.

Peeling as for core numbers, but every wave is a layer of its own: at each step the core k is
the largest smallest degree seen so far, every vertex left of degree at most k forms the next
layer, and removing it lowers its neighbours' degrees. Vertices of no edge form layer 1 on
their own. With S the multiplicity of the edges between two vertices (self loops ignored) and
d their degrees::

    d = S plus 1                            the degree of every vertex, 0 for none
    layer<d == 0> = 1;  d<d != 0>           the isolated vertices, if any
    k = 1;  l = 1 if none were isolated, else 2
    repeat until d is empty:
        k = max(k, min(d))
        p = d<d <= k>                       the next layer
        layer<p> = l;  d<!p>;  l += 1
        d -= S plus.first p                 one less per edge to a peeled vertex

For an undirected graph (a Graph of kind "undirected", A symmetric) S is the pattern of A;
otherwise S = pattern(A) + pattern(A)^T (degree = in + out), as in ``core_number``.

References: L. Hébert-Dufresne, J. A. Grochow, A. Allard, "Multi-scale structure and
topological anomaly detection via a new network statistic: The onion decomposition", 2016;
NetworkX's onion_layers, which peels the same way one vertex at a time.

Cost per layer: one masked mxv (O(edges of the layer) work, O(n/R + n/C) words per rank for a
dense layer), one min-reduction and O(n/P) element-wise work with a select. The number of
layers is at most n.
"""

from ._engine import engine
from .core_number import peeling_start
from .graph import as_graph

__all__ = ["onion_layers"]


def onion_layers(A):
    """Onion layer of every vertex (1 for the first).

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square adjacency matrix; only its off-diagonal pattern is used. A bare Matrix is a
        directed graph (degree = in + out); give an undirected graph as
        ``Graph(A, "undirected")`` with each edge stored both ways.

    Returns
    -------
    Vector (INT64) with a layer for every vertex.

    Examples
    --------
    >>> import gblas2d as gb
    >>> from gblas2d.algorithms import Graph
    >>> rows, cols = [0, 1, 1, 2, 2, 0, 2, 3], [1, 0, 2, 1, 0, 2, 3, 2]
    >>> A = gb.Matrix.from_coo(rows, cols, 1, nrows=5, ncols=5)
    >>> onion_layers(Graph(A, "undirected")).to_dense()  # a triangle, a pendant, an isolate
    array([3, 3, 3, 2, 1])
    """
    G = as_graph(A, "onion_layers")
    ns = engine(G.A)
    int64 = ns.dtypes.INT64
    S, d = peeling_start(G, ns)
    layers = ns.Vector(int64, G.A.nrows)
    # layer<d == 0> = 1, d<d != 0>
    isolated = d.select(ns.select.valueeq, 0).new()
    layers(isolated.S) << 1
    d = d.dup(mask=~isolated.S)
    k, layer = 1, 2 if isolated.nvals else 1
    while d.nvals:
        # k = max(k, min(d))
        k = max(k, int(d.reduce(ns.monoid.min).value))
        # p = d<d <= k>
        p = d.select(ns.select.valuele, k).new()
        # layer<p> = l, d<!p>
        layers(p.S) << layer
        d = d.dup(mask=~p.S)
        layer += 1
        # d -= S plus.first p
        d(accum=ns.binary.minus) << S.mxv(p, ns.semiring.plus_first[int64]).new(mask=d.S)
    return layers
