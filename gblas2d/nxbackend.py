"""The NetworkX backend "gblas2d": ``nx.pagerank(G, backend="gblas2d")`` runs on the grid.

NetworkX (3.2+) finds this backend through the ``networkx.backends`` entry point
(``BackendInterface``) and dispatches a call to it when ``backend="gblas2d"`` is given or
``nx.config.backend_priority`` names it. The call then runs in three steps::

    can_run(name, args, kwargs)     False, or a reason, for arguments gblas2d cannot honour
    convert_from_nx(G, ...)         G -> Gblas2dGraph: a gblas2d Matrix and the node list
    BackendInterface.<name>(...)    the algorithm on the Matrix; a dict keyed by G's nodes
                                    (or what NetworkX returns: a number, lists, a graph)

Under ``mpiexec -n P`` every rank holds the NetworkX graph the script built; rank r converts
only edges r, r + P, r + 2P, ... of ``G.edges()`` and ``Matrix.from_coo(distributed=True)``
sends each entry to the rank that owns it, so no rank builds the whole matrix. Results are
gathered to every rank, so each rank gets the same dict. A backend call is collective: every
rank must make it, and it does all its work at the call (the iterators NetworkX returns lazily,
bfs_edges' and bfs_layers', come back computed).

The conversion is a thin layer, as in graphblas-algorithms: the algorithms in
``gblas2d.algorithms`` take and return Matrix/Vector objects and know nothing of NetworkX; the
functions here check NetworkX's arguments, map node keys to indices and back, and re-raise
gblas2d errors as NetworkX's exception types.
"""

import inspect
import itertools
import math
import numbers

import networkx as nx
import numpy as np

import gblas2d as gb
from gblas2d import algorithms as alg
from gblas2d import exceptions

__all__ = ["BackendInterface", "Gblas2dGraph", "can_run", "convert_from_nx", "convert_to_nx",
           "should_run"]


class Gblas2dGraph:
    """A NetworkX graph converted for gblas2d: the adjacency Matrix (``A[i, j]``: edge i -> j,
    symmetric for an undirected graph) and the node keys of its rows, in ``G``'s node order.

    ``graph`` is the NetworkX graph itself, which every rank holds; ``weight`` names the edge
    attribute the values came from (None: every value is 1). A graph computed here (a k-truss)
    is a ``subgraph`` of ``graph``: its edges are those of ``graph`` that ``matrix`` holds, and
    ``convert_to_nx`` makes it a NetworkX graph before it is returned (the functions here read
    ``graph`` as their input's).
    """

    __networkx_backend__ = "gblas2d"

    def __init__(self, graph, matrix, weight=None, *, subgraph=False):
        self.graph = graph
        self.matrix = matrix
        self.weight = weight
        self.subgraph = subgraph
        self.nodes = list(graph)

    def __len__(self):
        return len(self.nodes)

    def is_directed(self):
        return self.graph.is_directed()

    def is_multigraph(self):
        return False

    def index_of(self, node):
        """The row of ``node``; nx.NodeNotFound if it is not in the graph."""
        if node not in self.graph:
            raise nx.NodeNotFound(f"Source {node} is not in G")
        return _index(self)[node]

    def to_dict(self, vector):
        """Collective. ``{node: value}`` for the entries of ``vector``, the same on every rank."""
        indices, values = vector.to_coo()
        nodes = self.nodes
        return {nodes[i]: v for i, v in zip(indices.tolist(), values.tolist(), strict=True)}


def _index(G):
    """The node -> row dict of ``G``, built at the first lookup and kept on ``G``."""
    if not hasattr(G, "_index"):
        G._index = {node: i for i, node in enumerate(G.nodes)}
    return G._index


# ---- conversion ----

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
    G = Gblas2dGraph(graph, A, weight)
    G._index = index
    return G


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
    index = _index(G)
    H = G.graph.copy()
    H.remove_edges_from([(u, v) for u, v in G.graph.edges()
                         if (index[u], index[v]) not in kept])
    H.remove_nodes_from([v for i, v in enumerate(G.nodes) if i not in touched])
    return H


# ---- the functions dispatched, named and parametrized as in NetworkX ----

def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None,
             weight="weight", dangling=None):
    """Collective. nx.pagerank: ``algorithms.pagerank`` (the LDBC Graphalytics variant, which
    spreads the rank of dangling nodes uniformly as NetworkX does) when the edge weights are
    equal, ``_weighted_pagerank`` otherwise. NetworkX stops when the L1 change is below
    ``N * tol``, and so do both."""
    _refuse(_pagerank_reason(alpha, personalization, max_iter, nstart, dangling))
    n = len(G)
    if n == 0:
        return {}
    A = G.matrix
    weighted = G.weight is not None and A.nvals and \
        A.reduce_scalar(gb.monoid.min).new().value != A.reduce_scalar(gb.monoid.max).new().value
    try:
        if weighted:
            ranks = _weighted_pagerank(A, alpha, n * tol, max_iter)
        else:
            ranks = alg.pagerank(A, alpha, tol=n * tol, max_iter=max_iter)
    except exceptions.ConvergenceFailure as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    return G.to_dict(ranks)


def _weighted_pagerank(A, damping, tol, max_iter):
    """Collective. ``algorithms.pagerank`` with the rank a vertex sends split in proportion to
    the (positive) weights of its out-edges, as NetworkX does::

        s = A plus.reduce rowwise                 out-weight of each vertex
        w = r ./ (s / d)                          rank sent per unit of weight
        r' = (1 - d)/n + d/n * sum(r<!s>)         teleport and dangling share
        r' += w plus.times A
    """
    n = A.nrows
    fp64 = gb.dtypes.FP64
    # s = A plus.reduce rowwise
    out_weight = A.reduce_rowwise(gb.monoid.plus).new(fp64)
    # s / d, infinite at dangling vertices so that w is zero there
    scaled_out = gb.Vector.from_scalar(math.inf, n, fp64)
    scaled_out(out_weight.S) << out_weight.apply(gb.binary.truediv, right=damping)
    r = gb.Vector.from_scalar(1.0 / n, n, fp64)
    for _ in range(max_iter):
        # w = r ./ (s / d)
        w = r.ewise_mult(scaled_out, gb.binary.truediv).new()
        # dangling = sum(r<!s>)
        dangling = r.dup(mask=~out_weight.S).reduce(allow_empty=False).value
        # r' = (1 - d)/n + d/n * dangling
        r_next = gb.Vector.from_scalar((1 - damping + damping * dangling) / n, n, fp64)
        # r' += w plus.times A
        r_next(accum=gb.binary.plus) << w.vxm(A, gb.semiring.plus_times)
        # err = sum |r' - r|
        err = r_next.ewise_mult(r, gb.binary.minus).new().apply(gb.unary.abs).new().reduce().value
        if err < tol:
            return r_next
        r = r_next
    raise exceptions.ConvergenceFailure(f"pagerank did not reach tol={tol} in {max_iter} "
                                        "iterations")


def single_source_shortest_path_length(G, source, cutoff=None):
    """Collective. nx.single_source_shortest_path_length from ``algorithms.bfs_levels``."""
    levels = G.to_dict(alg.bfs_levels(G.matrix, G.index_of(source)))
    return levels if cutoff is None else {v: d for v, d in levels.items() if d <= cutoff}


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    """Collective. nx.single_source_bellman_ford_path_length from ``algorithms.sssp``."""
    _refuse(_weight_reason(weight))
    s = G.index_of(source)
    try:
        return G.to_dict(alg.sssp(G.matrix, s, "bellman_ford"))
    except alg.NegativeCycleError as exc:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from exc


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """Collective. nx.single_source_dijkstra_path_length by delta-stepping
    (``algorithms.sssp``); negative weights raise ValueError."""
    _refuse(_weight_reason(weight))
    s = G.index_of(source)
    try:
        dist = G.to_dict(alg.sssp(G.matrix, s, "delta_stepping"))
    except exceptions.InvalidValue as exc:
        raise ValueError(f"Contradictory paths found: negative weights? ({exc})") from exc
    return dist if cutoff is None else {v: d for v, d in dist.items() if d <= cutoff}


def _components(G, labels=None):
    """Collective. The components of ``G`` (weak ones for a DiGraph, or those ``labels`` gives)
    as lists of node keys, ordered by their first node in ``G``'s node order (NetworkX's order
    for the connected and weak components)."""
    if labels is None:
        labels = alg.connected_components(G.matrix)
    indices, labels = labels.to_coo()
    if len(labels) == 0:
        return []
    order = np.argsort(labels, kind="stable")
    bounds = np.flatnonzero(np.diff(labels[order])) + 1
    nodes = G.nodes
    return [[nodes[i] for i in part.tolist()] for part in np.split(indices[order], bounds)]


def connected_components(G):
    """Collective. nx.connected_components from ``algorithms.connected_components``."""
    return (set(part) for part in _components(G))


def number_connected_components(G):
    """Collective. nx.number_connected_components."""
    return len(_components(G))


def is_connected(G):
    """Collective. nx.is_connected; the null graph raises NetworkXPointlessConcept."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return len(_components(G)) == 1


def weakly_connected_components(G):
    """Collective. nx.weakly_connected_components: the components of the symmetrized graph."""
    return (set(part) for part in _components(G))


def number_weakly_connected_components(G):
    """Collective. nx.number_weakly_connected_components."""
    return len(_components(G))


def is_weakly_connected(G):
    """Collective. nx.is_weakly_connected; the null graph raises NetworkXPointlessConcept."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept(
            "Connectivity is undefined for the null graph.")
    return len(_components(G)) == 1


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False,
                           seed=None):
    """Collective. nx.betweenness_centrality (unweighted, endpoints excluded) from
    ``algorithms.betweenness_centrality``, rescaled as NetworkX's ``_rescale``.

    With ``k`` the sources are ``seed.sample(list(G), k)``, NetworkX's own sample; rank 0 draws
    it and every rank uses rank 0's, so ``seed=None`` agrees across ranks too.
    """
    _refuse(_betweenness_reason(k, len(G), weight, endpoints))
    n = len(G)
    if n == 0:
        return {}
    if k == n:
        k = None
    A = G.matrix
    sampled = None
    if k is not None:
        comm = A.grid.comm
        sampled = comm.bcast_object(seed.sample(G.nodes, k) if A.grid.rank == 0 else None)
    sources = None if sampled is None else [G.index_of(v) for v in sampled]
    # the sum over ordered pairs (s, t), s among the sources, as NetworkX counts before rescaling
    raw = G.to_dict(alg.betweenness_centrality(A, sources, directed=True))
    return _rescale(raw, n, normalized, G.is_directed(), sampled)


def _rescale(betweenness, n, normalized, directed, sampled):
    """NetworkX's rescaling with endpoints excluded: by the number of (s, t) pairs counted,
    and with sampling the sources apart from the other nodes (a source is never its own t)."""
    N = n - 1
    if N < 2:
        return betweenness
    correction = 1 if directed else 2
    if sampled is None:
        scale = 1 / (N * (N - 1)) if normalized else 1 / correction
        return {v: b * scale for v, b in betweenness.items()}
    k = len(sampled)
    if normalized:
        scale_source = 1 / ((k - 1) * (N - 1)) if k > 1 else math.nan
        scale_other = 1 / (k * (N - 1))
    else:
        scale_source = N / ((k - 1) * correction) if k > 1 else math.nan
        scale_other = N / (k * correction)
    sampled = set(sampled)
    return {v: b * (scale_source if v in sampled else scale_other)
            for v, b in betweenness.items()}


def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """Collective. nx.bfs_edges in NetworkX's order (``_bfs_in_order``), computed at the call
    and returned as an iterator of (parent, child) pairs."""
    layers, parents = _bfs_in_order(G, [_bfs_source(G, source)],
                                    _neighbor_order(G, reverse, sort_neighbors), depth_limit)
    nodes = G.nodes
    return iter([(nodes[p], nodes[v]) for layer, above in zip(layers[1:], parents, strict=True)
                 for p, v in zip(above.tolist(), layer.tolist(), strict=True)])


def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """Collective. nx.bfs_tree: the DiGraph of ``bfs_edges``, built as NetworkX builds it."""
    T = nx.DiGraph()
    T.add_node(source)
    T.add_edges_from(bfs_edges(G, source, reverse, depth_limit, sort_neighbors))
    return T


def bfs_layers(G, sources):
    """Collective. nx.bfs_layers, each layer in NetworkX's order (``_bfs_in_order``), computed
    at the call and returned as an iterator of lists.

    The first layer is ``list(set(sources))`` as in NetworkX; the order of a set of str keys
    differs between processes (hash randomization), so under mpiexec every rank takes rank 0's.
    """
    graph = G.graph
    if sources in graph:
        sources = [sources]
    first = list(set(sources))
    for node in first:
        if node not in graph:
            raise nx.NetworkXError(f"The node {node} is not in the graph.")
    if not first:
        return iter([])
    # the set's order of str keys is each process's own: rank 0's for all
    first = G.matrix.grid.comm.bcast_object(first)
    index = _index(G)
    layers, _ = _bfs_in_order(G, [index[v] for v in first], _neighbor_order(G, False, None))
    nodes = G.nodes
    return iter([[nodes[v] for v in layer.tolist()] for layer in layers])


def _bfs_source(G, source):
    """The row of ``source``, or NetworkX's error for a missing one."""
    if source not in G.graph:
        kind = "digraph" if G.is_directed() else "graph"
        raise nx.NetworkXError(f"The node {source} is not in the {kind}.")
    return _index(G)[source]


def _neighbor_order(G, reverse, sort_neighbors):
    """Collective. O(u, v) = the place of v in the order NetworkX's BFS visits u's neighbours:
    ``G[u]`` (its predecessors with ``reverse`` in a DiGraph), passed through ``sort_neighbors``
    when given; a node listed twice keeps its first place. Rank r reads nodes r, r + P, ...;
    an error there (in ``sort_neighbors``) is raised on every rank."""
    graph = G.graph
    neighbors = graph.pred if reverse and graph.is_directed() else graph.adj
    index, n, grid = _index(G), len(G), G.matrix.grid
    rows, cols, places = [], [], []
    with grid.comm.agreed():
        for u in itertools.islice(graph, grid.rank, None, grid.nprocs):
            listed = iter(neighbors[u])
            if sort_neighbors is not None:
                listed = sort_neighbors(listed)
            for place, v in enumerate(listed):
                rows.append(index[u])
                cols.append(index[v])
                places.append(place)
    return gb.Matrix.from_coo(np.array(rows, np.int64), np.array(cols, np.int64),
                              np.array(places, np.int64), gb.dtypes.INT64, nrows=n, ncols=n,
                              dup_op=gb.binary.min, distributed=True, grid=grid)


def _bfs_in_order(G, first, O, depth_limit=None):
    """Collective. The layers of a breadth-first search from the rows ``first`` (in order),
    each in the order NetworkX's queue reaches it, and each later layer's parents.

    NetworkX visits a layer in order and each vertex's neighbours in the order of O, so a new
    vertex v comes after every vertex whose first parent comes earlier in the layer, and after
    the earlier neighbours of the same parent: the key p(u) * n + O(u, v), least over the
    parents u, orders the next layer. This is ``bfs_parents`` with that key in place of the
    parent's id::

        q(u)      = p(u) * n          p(u): u's place in the current layer
        k<!seen>  = q min.plus O      the least key of each newly reached vertex
        layer'    = the reached vertices by k;  parent = layer[k // n]
        seen<k>   = true

    ``depth_limit`` (None: n) bounds the layers after the first, as in NetworkX.
    """
    n = len(G)
    limit = n if depth_limit is None else depth_limit
    int64 = gb.dtypes.INT64
    layer = np.asarray(first, np.int64)
    layers, parents = [layer], []
    # seen = the first layer
    seen = gb.Vector.from_coo(layer, True, gb.dtypes.BOOL, size=n)
    depth = 0
    while depth < limit:
        # q(layer[p]) = p * n
        q = gb.Vector.from_coo(layer, np.arange(len(layer), dtype=np.int64) * n, int64, size=n)
        # k<!seen> = q min.plus O
        key = gb.Vector(int64, n)
        key(~seen.S, replace=True) << q.vxm(O, gb.semiring.min_plus)
        reached, keys = key.to_coo()
        if len(reached) == 0:
            break
        order = np.argsort(keys)
        parents.append(layer[keys[order] // n])
        layer = reached[order].astype(np.int64)
        layers.append(layer)
        # seen<k> = true
        seen(key.S) << True
        depth += 1
    return layers, parents


def triangles(G, nodes=None):
    """Collective. nx.triangles from ``algorithms.triangles``; ``nodes`` as NetworkX reads it
    (one node: its count; an iterable: a dict of those in G, in its order)."""
    return _at_nodes(G, G.to_dict(alg.triangles(G.matrix)), nodes)


def clustering(G, nodes=None, weight=None):
    """Collective. nx.clustering of an undirected graph without weights, from
    ``algorithms.local_clustering_coefficient`` (Graphalytics' LCC, which is NetworkX's on a
    symmetric matrix); 0, an int, where no triangle closes, as NetworkX."""
    _refuse(_clustering_reason(G, weight))
    lcc = G.to_dict(alg.local_clustering_coefficient(G.matrix))
    return _at_nodes(G, {v: c or 0 for v, c in lcc.items()}, nodes)


def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    """Collective. nx.average_clustering: NetworkX's sum over ``clustering``, in its order."""
    c = clustering(G, nodes, weight).values()
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def transitivity(G):
    """Collective. nx.transitivity, self loops ignored::

        closed = sum(C), C<E> = E plus.pair E     the paths v -> w -> u closed by v -> u
        triads = sum d .* (d - 1), d = E plus.pair 1
        transitivity = closed / triads             (0 when closed is 0)

    E is the pattern of A without the diagonal. For an undirected graph closed is 6 times
    ``algorithms.triangle_count``, which counts each triangle once and is used instead.
    """
    if len(G) == 0:
        return 0
    A, int64 = G.matrix, gb.dtypes.INT64
    plus_pair = gb.semiring.plus_pair[int64]
    # E = pattern(A) without self loops
    E = A.select(gb.select.offdiag).new(gb.dtypes.BOOL)
    if G.is_directed():
        # closed = sum(C), C<E> = E plus.pair E
        closed = E.mxm(E, plus_pair).new(mask=E.S).reduce_scalar().new().value or 0
    else:
        closed = 6 * alg.triangle_count(A)
    # d = E plus.pair 1
    d = E.mxv(gb.Vector.from_scalar(1, len(G), int64), plus_pair).new()
    # triads = sum d .* (d - 1)
    triads = d.ewise_mult(d.apply(gb.binary.minus, right=1).new(), gb.binary.times).new() \
        .reduce().value
    return 0 if closed == 0 else int(closed) / int(triads)


def _at_nodes(G, values, nodes):
    """NetworkX's ``nodes`` argument on ``{node: value}``: all of it (None), one node's value,
    or a dict of the nodes ``G.graph.nbunch_iter(nodes)`` gives, in its order."""
    if nodes is None:
        return values
    if nodes in G.graph:
        return values[nodes]
    return {v: values[v] for v in G.graph.nbunch_iter(nodes)}


def k_truss(G, k):
    """Collective. nx.k_truss from ``algorithms.k_truss``, as NetworkX returns it: G's subgraph
    (attributes kept) of the truss's edges and the nodes they touch. For k <= 2 every edge is
    in the truss. Self loops raise NetworkXNotImplemented, as in NetworkX."""
    _refuse(_k_reason(k))
    A = G.matrix
    _no_self_loops(A)
    truss = alg.k_truss(A, k) if k >= 3 else A
    return convert_to_nx(Gblas2dGraph(G.graph, truss, subgraph=True))


def _no_self_loops(A):
    """Collective. NetworkX's NetworkXNotImplemented for a graph with self loops."""
    if A.select(gb.select.diag).new().nvals:
        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")


def degree_centrality(G):
    """Collective. nx.degree_centrality: NetworkX's degree (in + out; a self loop counted
    twice) over n - 1::

        d  = A plus.pair 1            out-degree (the degree, undirected)
        d += 1 plus.pair B            B = A: the in-degree; undirected, B = diag(A): loops again
    """
    A, plus_pair = G.matrix, gb.semiring.plus_pair[gb.dtypes.INT64]
    # d = A plus.pair 1
    d = A.mxv(_ones(A), plus_pair).new()
    B = A if G.is_directed() else A.select(gb.select.diag).new()
    # d += 1 plus.pair B
    d(accum=gb.binary.plus) << _ones(A).vxm(B, plus_pair)
    return _per_other_node(G, d)


def in_degree_centrality(G):
    """Collective. nx.in_degree_centrality: ``d = 1 plus.pair A`` over n - 1."""
    A = G.matrix
    # d = 1 plus.pair A
    d = _ones(A).vxm(A, gb.semiring.plus_pair[gb.dtypes.INT64]).new()
    return _per_other_node(G, d)


def out_degree_centrality(G):
    """Collective. nx.out_degree_centrality: ``d = A plus.pair 1`` over n - 1."""
    A = G.matrix
    # d = A plus.pair 1
    d = A.mxv(_ones(A), gb.semiring.plus_pair[gb.dtypes.INT64]).new()
    return _per_other_node(G, d)


def _ones(A):
    return gb.Vector.from_scalar(1, A.nrows, gb.dtypes.INT64)


def _per_other_node(G, d):
    """Collective. ``{node: d * (1 / (n - 1))}``, as NetworkX scales (1 for every node when
    n <= 1)."""
    n = len(G)
    if n <= 1:
        return {v: 1 for v in G.nodes}
    # c = 0, c<d> = d * (1 / (n - 1))
    c = gb.Vector.from_scalar(0.0, n, gb.dtypes.FP64)
    c(d.S) << d.apply(gb.binary.times, right=1.0 / (n - 1.0))
    return G.to_dict(c)


# ---- strongly connected components ----

def strongly_connected_components(G):
    """Collective. nx.strongly_connected_components from
    ``algorithms.strongly_connected_components``, sinks first as Tarjan's order (what
    nx.condensation numbers its nodes by): each component after every one it reaches."""
    labels = alg.strongly_connected_components(G.matrix)
    parts = _components(G, labels)
    depth = _depth_below(G, labels)
    index = _index(G)
    return (set(part) for part in sorted(parts, key=lambda part: depth[index[part[0]]]))


def _depth_below(G, labels):
    """Collective. The length of the longest path from each component of ``labels`` (each
    vertex labelled by its component's smallest vertex) to a sink of the condensation, by
    peeling the sinks::

        L(i, label(i)) = 1;  K = offdiag(L^T any.pair A any.pair L)    the condensation
        r = the components;  repeat until r is empty:
            s = r<!(K any.pair r)>                                      no edge into r
            depth<s> = k;  r<!s>

    as an array indexed by component label."""
    n, grid = len(G), G.matrix.grid
    rows, comp = labels.to_coo()
    # L(i, label(i)) = 1, rank r giving vertices r, r + P, ...
    share = slice(grid.rank, None, grid.nprocs)
    L = gb.Matrix.from_coo(rows[share], comp[share], True, gb.dtypes.BOOL, nrows=n, ncols=n,
                           distributed=True, grid=grid)
    any_pair = gb.semiring.any_pair[gb.dtypes.BOOL]
    # K = offdiag(L^T any.pair A any.pair L)
    K = L.T.new().mxm(G.matrix.mxm(L, any_pair).new(), any_pair).new() \
        .select(gb.select.offdiag).new()
    remaining = gb.Vector.from_coo(np.unique(comp), True, gb.dtypes.BOOL, size=n)
    depth = np.zeros(n, np.int64)
    level = 0
    while remaining.nvals:
        # s = r<!(K any.pair r)>
        above = K.mxv(remaining, any_pair).new(mask=remaining.S)
        sinks = remaining.dup(mask=~above.S)
        depth[sinks.to_coo()[0]] = level
        remaining = remaining.dup(mask=above.S)
        level += 1
    return depth


def number_strongly_connected_components(G):
    """Collective. nx.number_strongly_connected_components."""
    return len(_components(G, alg.strongly_connected_components(G.matrix)))


def is_strongly_connected(G):
    """Collective. nx.is_strongly_connected; the null graph raises NetworkXPointlessConcept."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return _one_component(alg.strongly_connected_components(G.matrix))


def _one_component(labels):
    """Collective. Whether every vertex has the label 0 (of the component of vertex 0)."""
    return labels.reduce(gb.monoid.max).new().value == 0


# ---- cores ----

def core_number(G):
    """Collective. nx.core_number from ``algorithms.core_number`` (a DiGraph's degree is
    in + out, as NetworkX's); self loops raise NetworkXNotImplemented, as in NetworkX."""
    return _cores(G)


def _cores(G):
    """Collective. ``core_number`` under a name the k_* functions' ``core_number`` argument
    does not hide."""
    A = G.matrix
    _no_self_loops(A)
    return G.to_dict(alg.core_number(A if G.is_directed() else alg.Graph(A, "undirected")))


def _core_subgraph(G, keep, k, core):
    """NetworkX's ``_core_subgraph``: G's subgraph (attributes kept) of the nodes ``keep``
    accepts, with the core numbers computed here unless given, and k their largest by
    default."""
    if core is None:
        core = _cores(G)
    if k is None:
        k = max(core.values())
    return G.graph.subgraph([v for v in core if keep(v, k, core)]).copy()


def k_core(G, k=None, core_number=None):
    """Collective. nx.k_core: the nodes of core number at least k."""
    return _core_subgraph(G, lambda v, k, c: c[v] >= k, k, core_number)


def k_shell(G, k=None, core_number=None):
    """Collective. nx.k_shell: the nodes of core number k."""
    return _core_subgraph(G, lambda v, k, c: c[v] == k, k, core_number)


def k_crust(G, k=None, core_number=None):
    """Collective. nx.k_crust: the nodes of core number at most k (by default one less than
    the largest)."""
    core = _cores(G) if core_number is None else core_number
    if k is None:
        k = max(core.values()) - 1
    return _core_subgraph(G, lambda v, k, c: c[v] <= k, k, core)


def k_corona(G, k, core_number=None):
    """Collective. nx.k_corona: the nodes of core number k with exactly k neighbours (G[v],
    the successors in a DiGraph) of core number at least k::

        h = 1 at the nodes of core number >= k
        t = A plus.pair h                    each node's neighbours in the k-core
    """
    core = _cores(G) if core_number is None else core_number
    index, n = _index(G), len(G)
    # h = 1 at the nodes of core number >= k
    high = np.array([index[v] for v, c in core.items() if c >= k], np.int64)
    h = gb.Vector.from_coo(high, True, gb.dtypes.BOOL, size=n)
    # t = A plus.pair h
    inside = G.to_dict(G.matrix.mxv(h, gb.semiring.plus_pair[gb.dtypes.INT64]))
    return _core_subgraph(G, lambda v, k, c: c[v] == k and inside.get(v, 0) == k, k, core)


# ---- link analysis and centralities ----

def hits(G, max_iter=100, tol=1.0e-8, nstart=None, normalized=True):
    """Collective. nx.hits from ``algorithms.hits``: power iteration to ``tol``, where
    NetworkX finds the singular vector with ARPACK (they agree where it is unique)."""
    if len(G) == 0:
        return {}, {}
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    start = None if nstart is None else _vector(G, nstart)
    try:
        hubs, authorities = alg.hits(G.matrix, tol, max_iter, nstart=start,
                                     normalized=normalized)
    except exceptions.ConvergenceFailure as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    return G.to_dict(hubs), G.to_dict(authorities)


def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6, nstart=None,
                    normalized=True, weight=None):
    """Collective. nx.katz_centrality from ``algorithms.katz_centrality``: NetworkX's
    iteration, stopping rule and normalization."""
    if len(G) == 0:
        return {}
    b = _katz_beta(G, beta)
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    start = None if nstart is None else _vector(G, nstart)
    try:
        x = alg.katz_centrality(G.matrix, alpha, b, tol, max_iter, nstart=start,
                                normalized=normalized)
    except exceptions.ConvergenceFailure as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    return G.to_dict(x)


def katz_centrality_numpy(G, alpha=0.1, beta=1.0, normalized=True, weight=None):
    """Collective. nx.katz_centrality_numpy, which solves (I - alpha A^T) x = beta exactly:
    ``algorithms.katz_centrality`` run to ``EXACT_TOL``, scaled as NetworkX (by the norm,
    signed as the sum). Where the series does not converge in ``EXACT_MAX_ITER`` steps (alpha
    near or above 1 / spectral radius) it raises NotImplementedError, and NetworkX's own
    solve runs instead."""
    if len(G) == 0:
        return {}
    if isinstance(beta, dict):
        if set(beta) != set(G.graph):
            raise nx.NetworkXError("beta dictionary must have a value for every node")
        order, scale = list(beta), max(map(abs, beta.values()))
    else:
        try:
            scale = abs(float(beta))
        except (TypeError, ValueError) as err:
            raise nx.NetworkXError("beta must be a number") from err
        order = G.nodes
    try:
        x = alg.katz_centrality(G.matrix, alpha, _katz_beta(G, beta),
                                EXACT_TOL * max(scale, 1.0), EXACT_MAX_ITER, normalized=False)
    except exceptions.ConvergenceFailure as exc:
        raise NotImplementedError(f"katz_centrality_numpy: the series does not converge in "
                                  f"{EXACT_MAX_ITER} steps ({exc})") from exc
    return _signed_unit(G.to_dict(x), order, normalized)


def _katz_beta(G, beta):
    """NetworkX's beta: a number, or a dict with a value for every node (then a Vector)."""
    try:
        return float(beta)
    except (TypeError, ValueError, AttributeError) as err:
        if set(beta) != set(G.graph):
            raise nx.NetworkXError("beta dictionary must have a value for every node") from err
    return _vector(G, beta)


def eigenvector_centrality(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None):
    """Collective. nx.eigenvector_centrality from ``algorithms.eigenvector_centrality``:
    NetworkX's iteration with A + I, its stopping rule and normalization, in the order of
    ``nstart``'s keys when it is given (as NetworkX's dict)."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if nstart is not None:
        if all(v == 0 for v in nstart.values()):
            raise nx.NetworkXError("initial vector cannot have all zero values")
        if sum(nstart.values()) == 0:
            raise ZeroDivisionError("division by zero")
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    start = None if nstart is None else _vector(G, nstart)
    try:
        x = G.to_dict(alg.eigenvector_centrality(G.matrix, tol, max_iter, nstart=start))
    except exceptions.ConvergenceFailure as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    return x if nstart is None else {v: x[v] for v in nstart}


def eigenvector_centrality_numpy(G, weight=None, max_iter=50, tol=0):
    """Collective. nx.eigenvector_centrality_numpy, for which NetworkX asks ARPACK for the
    eigenvector: ``algorithms.eigenvector_centrality`` run to ``EXACT_TOL`` (ARPACK's
    ``max_iter`` and ``tol`` do not apply to it), scaled as NetworkX. A graph that is not
    (strongly) connected raises AmbiguousSolution, as in NetworkX; where the iteration does not
    converge in ``EXACT_MAX_ITER`` steps it raises NotImplementedError, and NetworkX's own
    ARPACK call runs instead."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    labels = alg.strongly_connected_components(G.matrix) if G.is_directed() else \
        alg.connected_components(G.matrix)
    if not _one_component(labels):
        raise nx.AmbiguousSolution("`eigenvector_centrality_numpy` does not give consistent "
                                   "results for disconnected graphs")
    try:
        x = alg.eigenvector_centrality(G.matrix, EXACT_TOL, EXACT_MAX_ITER)
    except exceptions.ConvergenceFailure as exc:
        raise NotImplementedError(f"eigenvector_centrality_numpy: the power iteration does not "
                                  f"converge in {EXACT_MAX_ITER} steps ({exc})") from exc
    return _signed_unit(G.to_dict(x), G.nodes, True)


# the _numpy forms' stopping rule: an L1 change below n * EXACT_TOL (times the largest |beta|
# for Katz), within rounding of the exact answer for the ratios of convergence they accept
EXACT_TOL = 1e-13
EXACT_MAX_ITER = 2000


def _signed_unit(values, order, normalized):
    """``{v: values[v] / norm}`` in ``order``, norm the 2-norm signed as the sum (NetworkX's
    scaling of the _numpy forms), or 1 unless ``normalized``."""
    norm = math.copysign(math.hypot(*values.values()), sum(values.values())) \
        if normalized else 1
    return {v: values[v] / norm for v in order}


def _vector(G, values):
    """Collective. The FP64 Vector of ``{node: value}`` (every rank passes the same dict)."""
    index = _index(G)
    keys = np.array([index[v] for v in values], np.int64)
    return gb.Vector.from_coo(keys, np.array(list(values.values()), np.float64),
                              gb.dtypes.FP64, size=len(G))


# ---- independent sets ----

def maximal_independent_set(G, nodes=None, seed=None):
    """Collective. nx.maximal_independent_set from ``algorithms.maximal_independent_set``
    (Luby's), to NetworkX's contract: independent, maximal, containing ``nodes``, whose
    order leads the list (rank 0's order of the set under mpiexec); the other members follow
    in G's node order. The hash seed is drawn from ``seed`` (the global generator: can_run
    refuses a given seed) on rank 0."""
    graph, A = G.graph, G.matrix
    comm = A.grid.comm
    include = None
    if not nodes:
        if len(G) == 0:
            raise IndexError("Cannot choose from an empty sequence")
        nodes = []
    else:
        nodes = set(nodes)
        if not nodes.issubset(graph):
            raise nx.NetworkXUnfeasible(f"{nodes} is not a subset of the nodes of G")
        index = _index(G)
        include = gb.Vector.from_coo(np.array([index[v] for v in nodes], np.int64), True,
                                     gb.dtypes.BOOL, size=len(G))
    hash_seed = comm.bcast_object(seed.getrandbits(32) if A.grid.rank == 0 else None)
    try:
        chosen = alg.maximal_independent_set(alg.Graph(A, "undirected"), hash_seed,
                                             include=include)
    except exceptions.InvalidValue as exc:
        raise nx.NetworkXUnfeasible(f"{nodes} is not an independent set of G") from exc
    first = comm.bcast_object(list(nodes))
    given = set(first)
    return first + [v for v in G.to_dict(chosen) if v not in given]


# ---- what can run ----

def _pagerank_reason(alpha, personalization, max_iter, nstart, dangling):
    for given, what in ((personalization, "personalization"), (nstart, "nstart"),
                        (dangling, "dangling")):
        if given is not None:
            return f"pagerank with {what} is not supported"
    if not (isinstance(alpha, numbers.Real) and 0 <= alpha < 1):
        return f"alpha (={alpha}) must lie in [0, 1)"
    if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral) or max_iter < 1:
        return f"max_iter (={max_iter}) must be a positive integer"
    return None


def _weight_reason(weight):
    if not isinstance(weight, str):
        return "weight must name an edge attribute (functions and None are not supported)"
    return None


def _betweenness_reason(k, n, weight, endpoints):
    if weight is not None:
        return "weighted betweenness is not supported"
    if endpoints:
        return "endpoints=True is not supported"
    if k is not None and (isinstance(k, bool) or not isinstance(k, numbers.Integral)
                          or not 1 <= k <= n):
        return f"k (={k}) must be an integer in [1, {n}]"
    return None


def _clustering_reason(G, weight):
    if G.is_directed():
        return "clustering of a directed graph (Fagiolo's) is not supported"
    if weight is not None:
        return "weighted clustering is not supported"
    return None


def _k_reason(k):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        return f"k (={k!r}) must be an integer"
    return None


def _bfs_reason(depth_limit, sort_neighbors):
    if depth_limit is not None and (isinstance(depth_limit, bool)
                                    or not isinstance(depth_limit, numbers.Real)):
        return f"depth_limit (={depth_limit!r}) must be a number or None"
    if sort_neighbors is not None and not callable(sort_neighbors):
        return "sort_neighbors must be a function or None"
    return None


def _hits_reason(G):
    if isinstance(G, nx.Graph) and G.number_of_edges() == 0:
        return "hits of a graph without edges is undefined (NetworkX's ARPACK raises)"
    if isinstance(G, nx.Graph) and not _positive_weights(G, "weight"):
        return "hits needs positive numeric edge weights"
    return None


def _seed_reason(seed):
    # py_random_state has made seed=None the global generator; any other seed asks for
    # NetworkX's own sequence of choices, which Luby's rounds do not reproduce
    if seed is not nx.utils.create_py_random_state(None):
        return "maximal_independent_set with a seed is not supported (NetworkX's answer for " \
            "a seed is its own sequence of random choices)"
    return None


def _refuse(reason):
    if reason is not None:
        raise NotImplementedError(reason)


def _positive_weights(G, weight):
    """Whether every edge of the NetworkX graph ``G`` has a positive real ``weight``."""
    return all(isinstance(w, numbers.Real) and w > 0
               for _, _, w in G.edges(data=weight, default=1))


def can_run(name, args, kwargs):
    """True, or the reason gblas2d cannot run ``name`` with these arguments (NetworkX then
    falls back to another backend, or raises NotImplementedError with ``backend="gblas2d"``)."""
    func = getattr(BackendInterface, name, None)
    if func is None:
        return f"{name} is not implemented by the gblas2d backend"
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
    except TypeError as exc:
        return str(exc)
    bound.apply_defaults()
    a = bound.arguments
    G = a["G"]
    if G.is_multigraph():
        return "multigraphs are not supported"
    if name == "pagerank":
        reason = _pagerank_reason(a["alpha"], a["personalization"], a["max_iter"], a["nstart"],
                                  a["dangling"])
        if reason is None and a["weight"] is not None and isinstance(G, nx.Graph) and \
                not _positive_weights(G, a["weight"]):
            reason = "pagerank needs positive numeric edge weights"
    elif name in ("single_source_bellman_ford_path_length",
                  "single_source_dijkstra_path_length"):
        reason = _weight_reason(a["weight"])
    elif name == "betweenness_centrality":
        reason = _betweenness_reason(a["k"], len(G), a["weight"], a["endpoints"])
    elif name in ("clustering", "average_clustering"):
        reason = _clustering_reason(G, a["weight"])
    elif name == "k_truss":
        reason = _k_reason(a["k"])
    elif name in ("bfs_edges", "bfs_tree"):
        reason = _bfs_reason(a["depth_limit"], a["sort_neighbors"])
    elif name == "hits":
        reason = _hits_reason(G)
    elif name == "maximal_independent_set":
        reason = _seed_reason(a["seed"])
    else:
        reason = None
    return reason or True


def should_run(name, args, kwargs):
    """Always: a user who names gblas2d, or puts it in backend_priority, asks for the grid."""
    return True


class BackendInterface:
    """The ``networkx.backends`` entry point: conversions, ``can_run``/``should_run`` and one
    attribute per function dispatched."""

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)
    can_run = staticmethod(can_run)
    should_run = staticmethod(should_run)

    average_clustering = staticmethod(average_clustering)
    betweenness_centrality = staticmethod(betweenness_centrality)
    bfs_edges = staticmethod(bfs_edges)
    bfs_layers = staticmethod(bfs_layers)
    bfs_tree = staticmethod(bfs_tree)
    clustering = staticmethod(clustering)
    connected_components = staticmethod(connected_components)
    core_number = staticmethod(core_number)
    degree_centrality = staticmethod(degree_centrality)
    eigenvector_centrality = staticmethod(eigenvector_centrality)
    eigenvector_centrality_numpy = staticmethod(eigenvector_centrality_numpy)
    hits = staticmethod(hits)
    in_degree_centrality = staticmethod(in_degree_centrality)
    is_connected = staticmethod(is_connected)
    is_strongly_connected = staticmethod(is_strongly_connected)
    is_weakly_connected = staticmethod(is_weakly_connected)
    k_core = staticmethod(k_core)
    k_corona = staticmethod(k_corona)
    k_crust = staticmethod(k_crust)
    k_shell = staticmethod(k_shell)
    k_truss = staticmethod(k_truss)
    katz_centrality = staticmethod(katz_centrality)
    katz_centrality_numpy = staticmethod(katz_centrality_numpy)
    maximal_independent_set = staticmethod(maximal_independent_set)
    number_connected_components = staticmethod(number_connected_components)
    number_strongly_connected_components = staticmethod(number_strongly_connected_components)
    number_weakly_connected_components = staticmethod(number_weakly_connected_components)
    out_degree_centrality = staticmethod(out_degree_centrality)
    pagerank = staticmethod(pagerank)
    single_source_bellman_ford_path_length = staticmethod(single_source_bellman_ford_path_length)
    single_source_dijkstra_path_length = staticmethod(single_source_dijkstra_path_length)
    single_source_shortest_path_length = staticmethod(single_source_shortest_path_length)
    strongly_connected_components = staticmethod(strongly_connected_components)
    transitivity = staticmethod(transitivity)
    triangles = staticmethod(triangles)
    weakly_connected_components = staticmethod(weakly_connected_components)
