"""Graphs that are gblas2d's from the start: ``nx.Graph(backend="gblas2d")`` and gblas2d in
``nx.config.backend_priority.classes`` (gblas2d/nx/classes.py).

Such a graph is an nx.Graph (or nx.DiGraph) in every way; NetworkX hands it unconverted to
gblas2d for the functions gblas2d dispatches, which convert it once and reuse the conversion
until a method of the graph mutates it. Results are compared with NetworkX's on a plain copy:
PageRank within NetworkX's stopping tolerance (an L1 change below n * tol), Dijkstra within
1e-12, the rest exactly. Conversions are counted by wrapping ``convert_from_nx``.
"""

import copy
import pickle

import networkx as nx
import pytest

import gblas2d.nx
from gblas2d.nx import classes, graph

B = "gblas2d"


@pytest.fixture(autouse=True)
def networkx_defaults():
    """NetworkX's defaults (the cache on, no fallback), whatever a test before changed."""
    with nx.config(cache_converted_graphs=True, fallback_to_nx=False,
                   warnings_to_ignore=set()):
        yield


@pytest.fixture
def conversions(monkeypatch):
    """The conversions made, as a list: "graph" for a graph's, or the edge attribute converted
    for a call that reads one (``Gblas2dGraph.adjacency``)."""
    made = []
    convert = graph.convert_from_nx

    def counted(G, edge_attrs=None, **kwargs):
        made.append(next(iter(edge_attrs)) if edge_attrs else "graph")
        return convert(G, edge_attrs, **kwargs)

    monkeypatch.setattr(classes, "convert_from_nx", counted)
    monkeypatch.setattr(graph, "convert_from_nx", counted)
    return made


def karate(**kwargs):
    """The karate club graph (with its "weight"s) as a gblas2d graph."""
    return nx.Graph(nx.karate_club_graph(), backend=B, **kwargs)


def close(got, want, tol):
    assert got.keys() == want.keys()
    assert max(abs(got[v] - want[v]) for v in want) <= tol


def test_made_by_backend_keyword_and_by_priority():
    G = nx.Graph([(0, 1), (1, 2)], name="g", backend=B)
    D = nx.DiGraph([("a", "b")], backend=B)
    assert type(G) is classes.Graph and type(D) is classes.DiGraph
    assert isinstance(G, nx.Graph) and isinstance(D, nx.DiGraph) and D.is_directed()
    assert G.__networkx_backend__ == D.__networkx_backend__ == B
    # nx.Graph.__init__ filled it, and dropped the backend keyword
    assert G.graph == {"name": "g"} and list(G.edges) == [(0, 1), (1, 2)]
    assert type(nx.Graph()) is nx.Graph
    # the classes themselves, made directly
    assert type(gblas2d.nx.Graph()) is classes.Graph and gblas2d.nx.DiGraph().is_directed()
    with nx.config(backend_priority={"classes": [B]}):
        made = [nx.Graph(), nx.DiGraph(), nx.path_graph(4), nx.karate_club_graph()]
    assert [type(H) for H in made] == [classes.Graph, classes.DiGraph, classes.Graph,
                                      classes.Graph]
    assert nx.utils.graphs_equal(made[3], nx.karate_club_graph())
    with nx.config.backend_priority(classes=[B]):
        assert type(nx.DiGraph()) is classes.DiGraph
    assert type(nx.DiGraph()) is nx.DiGraph


def test_behaves_as_a_networkx_graph():
    G = karate()
    G.add_edge(0, 40, color="red")
    G.nodes[40]["club"] = "new"
    G.add_nodes_from([41, 42])
    G.remove_node(42)
    assert G.number_of_nodes() == 36 and G.number_of_edges() == 79
    assert G[0][40] == {"color": "red"} and G.nodes[40] == {"club": "new"}
    assert G.degree[40] == 1 and set(G[40]) == {0} and 41 in G
    plain = nx.Graph(G)
    assert type(plain) is nx.Graph and nx.utils.graphs_equal(plain, G)
    # copies, views and the other direction stay gblas2d's
    assert type(G.copy()) is type(G.subgraph([0, 1])) is type(G.edge_subgraph([(0, 1)])) \
        is classes.Graph
    assert type(G.to_directed()) is classes.DiGraph
    assert type(G.to_directed().to_undirected()) is classes.Graph
    assert nx.utils.graphs_equal(G.to_directed(), plain.to_directed())


def test_pickles_without_its_conversion():
    G = karate()
    want = nx.pagerank(G)
    assert G.__networkx_cache__["backends"][B]
    for again in (pickle.loads(pickle.dumps(G)), copy.deepcopy(G)):
        assert type(again) is classes.Graph and nx.utils.graphs_equal(again, G)
        assert again.__networkx_cache__ == {}
        assert nx.pagerank(again) == want
    # the original keeps its conversion
    assert G.__networkx_cache__["backends"][B]


@pytest.mark.parametrize("directed", [False, True])
def test_dispatched_functions_run_on_gblas2d_and_equal_networkx(directed, conversions):
    plain = nx.karate_club_graph()
    if directed:
        plain = nx.DiGraph((u, v, d) for u, v, d in plain.edges(data=True) if (u + v) % 3)
    G = (nx.DiGraph if directed else nx.Graph)(plain, backend=B)
    components = nx.weakly_connected_components if directed else nx.connected_components
    close(nx.pagerank(G), nx.pagerank(plain), len(plain) * 1e-6)
    assert list(nx.bfs_edges(G, 0)) == list(nx.bfs_edges(plain, 0))
    assert list(components(G)) == list(components(plain))
    close(nx.single_source_dijkstra_path_length(G, 0), nx.single_source_dijkstra_path_length(
        plain, 0), 1e-12)
    if not directed:
        assert nx.triangles(G) == nx.triangles(plain)
    # all made here: one conversion of the graph, and its weights at each call reading them
    assert conversions == ["graph", "weight", "weight"]


def test_a_second_call_converts_no_more(conversions):
    G = karate()
    first = nx.triangles(G)
    assert conversions == ["graph"]
    assert nx.triangles(G) == first and nx.number_connected_components(G) == 1
    assert list(nx.bfs_layers(G, 0)) == list(nx.bfs_layers(nx.karate_club_graph(), 0))
    assert conversions == ["graph"]
    assert G.__networkx_cache__["backends"][B]
    # no NetworkX note of a reused conversion: warnings are errors here, and none is ignored
    assert nx.number_connected_components(G) == 1


def test_a_mutation_invalidates_the_conversion(conversions):
    G = karate()
    assert nx.number_connected_components(G) == 1
    G.add_edge(100, 101)
    # NetworkX's methods clear the cache; the next call converts the mutated graph
    assert G.__networkx_cache__ == {}
    assert nx.number_connected_components(G) == 2
    G.remove_edges_from([(0, 1), (0, 2)])
    assert nx.triangles(G) == nx.triangles(nx.Graph(G)) != nx.triangles(nx.karate_club_graph())
    assert conversions == ["graph", "graph", "graph"]


def test_weights_are_read_at_every_call(conversions):
    """Edge values can change without a method (``G[u][v][key] = val``, which clears no
    cache), so a call that reads them reads them from the graph, even from a kept conversion;
    NetworkX's test of all_pairs_dijkstra_path_length does exactly this."""
    G = nx.cycle_graph(7, create_using=nx.Graph(backend=B))
    assert type(G) is classes.Graph
    assert nx.single_source_dijkstra_path_length(G, 0)[3] == 3
    G[1][2]["weight"] = 10
    assert nx.single_source_dijkstra_path_length(G, 0)[3] == 4
    want = dict(nx.all_pairs_dijkstra_path_length(nx.Graph(G)))
    with nx.config(fallback_to_nx=True):
        assert dict(nx.all_pairs_dijkstra_path_length(G)) == want
    G.add_edge(0, 3, weight=0.5)
    assert nx.single_source_dijkstra_path_length(G, 0)[3] == 0.5
    assert conversions[:3] == ["graph", "weight", "weight"] and conversions.count("graph") == 2


def test_without_the_cache_every_call_converts(conversions):
    G = karate()
    with nx.config(cache_converted_graphs=False):
        nx.triangles(G)
        nx.triangles(G)
    G.__networkx_cache__ = None
    nx.triangles(G)
    assert conversions == ["graph"] * 3


def test_a_view_is_converted_at_every_call(conversions):
    """A view is not told of its graph's mutations: it keeps no conversion."""
    G = karate()
    view = G.subgraph(range(10))
    assert nx.triangles(view) == nx.triangles(nx.Graph(view))
    G.remove_edge(0, 1)
    assert nx.triangles(view) == nx.triangles(nx.Graph(view))
    assert conversions == ["graph", "graph"]


def test_what_gblas2d_does_not_run_raises_unless_networkx_falls_back():
    """NetworkX 3.6 runs nothing of its own on a backend's graph unless fallback_to_nx: a
    function gblas2d lacks, a call can_run declines and a function that mutates its input
    raise NotImplementedError; with fallback_to_nx, NetworkX runs them on the graph itself,
    which it "converts" to itself and caches, with its note at each reuse (here, the
    minimum_spanning_edges that minimum_spanning_tree calls)."""
    G = karate()
    plain = nx.karate_club_graph()
    with pytest.raises(NotImplementedError, match=r"not implemented by \['gblas2d'\]"):
        nx.minimum_spanning_tree(G)
    with pytest.raises(NotImplementedError, match=r"not implemented by \['gblas2d'\]"):
        nx.pagerank(G, personalization={0: 1})
    with pytest.raises(NotImplementedError, match="does not implement 'set_edge_attributes'"):
        nx.set_edge_attributes(G, 1, "weight")
    with nx.config(fallback_to_nx=True):
        with pytest.warns(UserWarning, match="saved to cache"):
            tree = nx.minimum_spanning_tree(G)
        assert type(tree) is classes.Graph
        assert sorted(tree.edges) == sorted(nx.minimum_spanning_tree(plain).edges)
        assert G.__networkx_cache__["backends"]["networkx"][True, True] is G
        nx.config.warnings_to_ignore.add("cache")
        assert nx.pagerank(G, personalization={0: 1}) == \
            nx.pagerank(plain, personalization={0: 1})
        close(nx.pagerank(G), nx.pagerank(plain), len(G) * 1e-6)
        nx.set_edge_attributes(G, 1, "weight")
    assert G.__networkx_cache__ == {}
    assert all(d == {"weight": 1} for _, _, d in G.edges(data=True))
    close(nx.pagerank(G), nx.pagerank(plain, weight=None), len(G) * 1e-6)
    # backend="networkx" runs NetworkX's own for one call, fallback or not
    assert nx.is_empty(G, backend="networkx") is False


def test_multigraphs_stay_networkx_graphs():
    with nx.config.backend_priority(classes=[B]):
        assert type(nx.MultiGraph()) is nx.MultiGraph
        assert type(nx.MultiDiGraph()) is nx.MultiDiGraph
    with pytest.raises(NotImplementedError,
                       match="'multigraph__new__' is not implemented by 'gblas2d'"):
        nx.MultiGraph(backend=B)


def test_subclasses_keep_their_class():
    class Mine(nx.Graph):
        pass

    why = gblas2d.nx.can_run("graph__new__", (Mine,), {})
    assert why == "Mine is a subclass of nx.Graph: gblas2d makes nx.Graph and nx.DiGraph " \
        "only, and a subclass keeps its own class"
    assert gblas2d.nx.can_run("digraph__new__", (nx.DiGraph, [(1, 2)]), {"name": "d"}) is True
    with nx.config.backend_priority(classes=[B]):
        assert type(Mine([(1, 2)])) is Mine
    with pytest.raises(NotImplementedError, match="for the given arguments"):
        Mine(backend=B)
