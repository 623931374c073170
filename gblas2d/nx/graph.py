"""The converted graph (``Gblas2dGraph``) and the conversions NetworkX calls.

``convert_from_nx`` turns a NetworkX Graph or DiGraph into a gblas2d Matrix and its node list;
``convert_to_nx`` turns a computed subgraph back into a NetworkX graph. The helpers of
``Gblas2dGraph`` map node keys to rows and back; the dispatched functions (the other modules of
this package) read nothing else of the conversion.
"""

import itertools

import networkx as nx
import numpy as np

import gblas2d as gb

__all__ = ["Gblas2dGraph", "convert_from_nx", "convert_to_nx"]


class Gblas2dGraph:
    """A NetworkX graph converted for gblas2d: the adjacency Matrix (``A[i, j]``: edge i -> j,
    symmetric for an undirected graph) and the node keys of its rows, in ``G``'s node order.

    ``graph`` is the NetworkX graph itself, which every rank holds; ``weight`` names the edge
    attribute the values came from (None: every value is 1), and the functions that read values
    take them from ``adjacency(weight)``. A graph computed here (a k-truss) is a ``subgraph`` of
    ``graph``: its edges are those of ``graph`` that ``matrix`` holds, and ``convert_to_nx``
    makes it a NetworkX graph before it is returned (the functions here read ``graph`` as their
    input's). A generated graph (``generated``) has only its matrix and node keys; its NetworkX
    graph is built from them at the first use of ``graph``.
    """

    __networkx_backend__ = "gblas2d"

    def __init__(self, graph, matrix, weight=None, *, subgraph=False, index=None):
        self._graph = graph
        self.matrix = matrix
        self.weight = weight
        self.subgraph = subgraph
        self.nodes = list(graph)
        self._directed = graph.is_directed()
        self._index = index
        self._reverse = None
        self._weighted = {}

    @classmethod
    def generated(cls, nodes, matrix, directed):
        """A graph made here from its adjacency ``matrix`` (symmetric unless ``directed``) and
        the node keys of its rows, with no NetworkX graph yet."""
        G = cls.__new__(cls)
        G._graph, G.matrix, G.weight, G.subgraph = None, matrix, None, False
        G.nodes, G._directed, G._index, G._reverse = list(nodes), directed, None, None
        G._weighted = {}
        return G

    @property
    def graph(self):
        """The NetworkX graph; collective at the first use for a generated graph: a Graph or
        DiGraph of ``nodes`` with the edges of ``matrix`` in row order."""
        if self._graph is None:
            H = nx.DiGraph() if self._directed else nx.Graph()
            H.add_nodes_from(self.nodes)
            rows, cols, _ = self.matrix.to_coo()
            nodes = self.nodes
            H.add_edges_from((nodes[i], nodes[j])
                             for i, j in zip(rows.tolist(), cols.tolist(), strict=True))
            self._graph = H
        return self._graph

    def __len__(self):
        return len(self.nodes)

    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return False

    @property
    def index(self):
        """The node -> row dict, built at the first lookup and kept."""
        if self._index is None:
            self._index = {node: i for i, node in enumerate(self.nodes)}
        return self._index

    @property
    def reverse_matrix(self):
        """Collective at the first use. The adjacency of the reversed graph (``A^T``; ``A``
        itself for an undirected graph), formed once and kept."""
        if self._reverse is None:
            self._reverse = self.matrix.T.new() if self.is_directed() else self.matrix
        return self._reverse

    def adjacency(self, weight):
        """Collective at the first use of an attribute. The adjacency valued by the edge
        attribute ``weight`` (1 where an edge lacks it), or 1 at every edge for None.

        A function that reads edge values asks here rather than reading ``matrix``: NetworkX's
        cache may hand it a conversion made for another call, one holding an attribute where
        this call asks for none, or one made to preserve every attribute (k_truss and the
        k-core family ask for that), which holds none: they read attributes from ``graph``.
        """
        if weight == self.weight:
            return self.matrix
        if weight not in self._weighted:
            self._weighted[weight] = \
                self.matrix.apply(gb.unary.one).new(gb.dtypes.INT64) if weight is None \
                else convert_from_nx(self.graph, edge_attrs={weight: 1}).matrix
        return self._weighted[weight]

    def forget_values(self):
        """Drop the adjacencies ``adjacency`` has read from edge attributes, so that the next
        asks ``graph`` again: a conversion kept across calls (``classes.converted``) must see
        values set around the graph's methods (``G[u][v]["weight"] = w``)."""
        self._weighted.clear()

    def index_of(self, node, what="Source"):
        """The row of ``node``; nx.NodeNotFound ("Source ... is not in G") if it is not in the
        graph."""
        if node not in self.graph:
            raise nx.NodeNotFound(f"{what} {node} is not in G")
        return self.index[node]

    def to_dict(self, vector):
        """Collective. ``{node: value}`` for the entries of ``vector``, the same on every rank."""
        indices, values = vector.to_coo()
        nodes = self.nodes
        return {nodes[i]: v for i, v in zip(indices.tolist(), values.tolist(), strict=True)}

    def to_set(self, vector):
        """Collective. The nodes of the entries of ``vector``."""
        nodes = self.nodes
        return {nodes[i] for i in vector.to_coo()[0].tolist()}

    def vector(self, values, dtype=gb.dtypes.FP64):
        """Collective. The Vector of ``{node: value}`` (every rank passes the same dict)."""
        index = self.index
        keys = np.array([index[v] for v in values], np.int64)
        return gb.Vector.from_coo(keys, np.array(list(values.values())), dtype, size=len(self))

    def indicator(self, nodes):
        """Collective. The BOOL Vector true at ``nodes`` (every rank passes the same ones)."""
        index = self.index
        keys = np.array([index[v] for v in nodes], np.int64)
        return gb.Vector.from_coo(keys, True, gb.dtypes.BOOL, size=len(self))

    def at_nodes(self, values, nodes):
        """NetworkX's ``nodes`` argument on ``{node: value}``: all of it (None), one node's
        value, or a dict of the nodes ``graph.nbunch_iter(nodes)`` gives, in its order."""
        if nodes is None:
            return values
        if nodes in self.graph:
            return values[nodes]
        return {v: values[v] for v in self.graph.nbunch_iter(nodes)}


def convert_from_nx(graph, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                    preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                    graph_name=None):
    """Collective. A NetworkX Graph or DiGraph as a ``Gblas2dGraph``.

    ``edge_attrs`` is NetworkX's ``{attribute: default}`` for the call; with one attribute its
    values (the default where an edge lacks it) become the matrix values, otherwise every edge
    has the value 1. Rank r reads edges r, r + P, ... of ``graph.edges()``. Multigraphs and
    node or graph attributes are not converted (NotImplementedError).
    """
    if isinstance(graph, Gblas2dGraph):
        return graph
    if graph.is_multigraph():
        raise NotImplementedError("the gblas2d backend does not convert multigraphs")
    if node_attrs:
        raise NotImplementedError("the gblas2d backend does not convert node attributes")
    if edge_attrs is not None and len(edge_attrs) > 1:
        raise NotImplementedError(f"the gblas2d backend converts one edge attribute, not "
                                  f"{len(edge_attrs)}")
    weight, default = next(iter(edge_attrs.items())) if edge_attrs else (None, 1)
    grid = gb.default_grid()
    index = {node: i for i, node in enumerate(graph)}
    n = len(index)
    # rank r: edges r, r + P, r + 2P, ...
    edges = graph.edges(data=weight, default=default) if weight else graph.edges()
    share = list(itertools.islice(edges, grid.rank, None, grid.nprocs))
    rows = np.fromiter((index[e[0]] for e in share), np.int64, len(share))
    cols = np.fromiter((index[e[1]] for e in share), np.int64, len(share))
    if weight:
        values = np.asarray([e[2] for e in share])
        # a bad value may sit in one rank's share only: every rank raises
        with grid.comm.agreed():
            if values.dtype != bool and not np.issubdtype(values.dtype, np.number):
                raise NotImplementedError(f"edge attribute {weight!r} has missing or "
                                          "non-numeric values")
        dtype = None
    else:
        values, dtype = np.asarray(1), gb.dtypes.INT64
    if not graph.is_directed():
        # both directions of each edge, a self loop once
        other = rows != cols
        rows, cols = np.concatenate([rows, cols[other]]), np.concatenate([cols, rows[other]])
        if weight:
            values = np.concatenate([values, values[other]])
    A = gb.Matrix.from_coo(rows, cols, values, dtype, nrows=n, ncols=n, distributed=True,
                        grid=grid)
    if not graph.is_directed():
        A.mark_symmetric()
    return Gblas2dGraph(graph, A, weight, index=index)


def convert_to_nx(obj, *, name=None):
    """The NetworkX graph of a ``Gblas2dGraph`` (collective for a computed subgraph); any other
    result (the dicts and numbers the functions here return) as it is."""
    if isinstance(obj, Gblas2dGraph):
        return _edge_subgraph(obj) if obj.subgraph else obj.graph
    return obj


def _edge_subgraph(G):
    """Collective. ``G.graph`` with only the edges ``G.matrix`` holds and the nodes they touch,
    every attribute kept: ``G.graph.copy()`` less the rest, so nodes and neighbours keep
    NetworkX's order (what nx.k_truss returns)."""
    rows, cols, _ = G.matrix.to_coo()
    rows, cols = rows.tolist(), cols.tolist()
    kept = set(zip(rows, cols, strict=True))
    touched = set(rows) | set(cols)
    index = G.index
    H = G.graph.copy()
    H.remove_edges_from([(u, v) for u, v in G.graph.edges()
                         if (index[u], index[v]) not in kept])
    H.remove_nodes_from([v for i, v in enumerate(G.nodes) if i not in touched])
    return H


