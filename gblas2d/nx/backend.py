"""The ``networkx.backends`` entry point: ``BackendInterface``, ``can_run`` and ``should_run``."""

import inspect

import networkx as nx

from . import (
    assortativity,
    bipartite,
    centrality,
    classes,
    cluster,
    components,
    cores,
    cuts,
    distance_measures,
    generators,
    link_analysis,
    link_prediction,
    paths,
    regular,
    sets,
    shortest_paths,
    structure,
    traversal,
)
from .checks import reason
from .classes import on_gblas2d_graphs
from .graph import convert_from_nx, convert_to_nx

__all__ = ["BREAK_EVEN_EDGES", "BackendInterface", "break_even_edges", "can_run",
           "should_run"]


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
    return reason(name, bound.arguments) or True


# From how many edges a call here (its graph's conversion cached, as NetworkX caches it) beats
# NetworkX's own, by function, measured on R-MAT graphs at one thread
# (benchmarks/bench_nx_break_even.py, results/nx_break_even.json); any other function waits
# for the largest of them. A first call, which converts, gains later: connected components and
# BFS lengths not even at 114,241 edges.
BREAK_EVEN_EDGES = {"average_clustering": 1_304, "triangles": 2_838, "pagerank": 12_785,
                    "single_source_shortest_path_length": 12_785,
                    "number_connected_components": 26_700}


def break_even_edges(name):
    """The fewest edges from which ``should_run`` lets an automatic dispatch of ``name`` run
    here."""
    return BREAK_EVEN_EDGES.get(name, max(BREAK_EVEN_EDGES.values()))


def should_run(name, args, kwargs):
    """Whether NetworkX, choosing a backend itself (``backend_priority``), should run ``name``
    here: not on a graph of fewer edges than ``break_even_edges(name)``, where NetworkX is
    faster. NetworkX asks only when it chooses: ``backend="gblas2d"`` runs here at any size.
    Every rank holds the same graph, so every rank answers alike."""
    graph = next((a for a in (*args, *kwargs.values()) if isinstance(a, nx.Graph)), None)
    least = break_even_edges(name)
    if graph is None or graph.number_of_edges() >= least:
        return True
    return f"the graph has {graph.number_of_edges()} edges, fewer than the {least} from " \
        f"which gblas2d's {name} is faster than NetworkX's"


class BackendInterface:
    """The ``networkx.backends`` entry point: conversions, ``can_run``/``should_run`` and one
    attribute per function dispatched, grouped by the module that holds it. A function that
    takes a graph is ``on_gblas2d_graphs``: it takes the graphs of ``classes`` too, which
    NetworkX passes unconverted."""

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)
    can_run = staticmethod(can_run)
    should_run = staticmethod(should_run)

    # classes.py: nx.Graph(backend="gblas2d"), nx.DiGraph(backend="gblas2d")
    graph__new__ = staticmethod(classes.graph__new__)
    digraph__new__ = staticmethod(classes.digraph__new__)

    # traversal.py
    ancestors = on_gblas2d_graphs(traversal.ancestors)
    bfs_edges = on_gblas2d_graphs(traversal.bfs_edges)
    bfs_layers = on_gblas2d_graphs(traversal.bfs_layers)
    bfs_predecessors = on_gblas2d_graphs(traversal.bfs_predecessors)
    bfs_successors = on_gblas2d_graphs(traversal.bfs_successors)
    bfs_tree = on_gblas2d_graphs(traversal.bfs_tree)
    descendants = on_gblas2d_graphs(traversal.descendants)
    descendants_at_distance = on_gblas2d_graphs(traversal.descendants_at_distance)

    # shortest_paths.py
    all_pairs_shortest_path_length = \
        on_gblas2d_graphs(shortest_paths.all_pairs_shortest_path_length)
    has_path = on_gblas2d_graphs(shortest_paths.has_path)
    shortest_path_length = on_gblas2d_graphs(shortest_paths.shortest_path_length)
    single_source_bellman_ford_path_length = \
        on_gblas2d_graphs(shortest_paths.single_source_bellman_ford_path_length)
    single_source_dijkstra_path_length = \
        on_gblas2d_graphs(shortest_paths.single_source_dijkstra_path_length)
    single_source_shortest_path_length = \
        on_gblas2d_graphs(shortest_paths.single_source_shortest_path_length)
    single_target_shortest_path_length = \
        on_gblas2d_graphs(shortest_paths.single_target_shortest_path_length)

    # paths.py
    all_pairs_shortest_path = on_gblas2d_graphs(paths.all_pairs_shortest_path)
    bidirectional_shortest_path = on_gblas2d_graphs(paths.bidirectional_shortest_path)
    predecessor = on_gblas2d_graphs(paths.predecessor)
    single_source_shortest_path = on_gblas2d_graphs(paths.single_source_shortest_path)
    single_target_shortest_path = on_gblas2d_graphs(paths.single_target_shortest_path)

    # distance_measures.py
    average_shortest_path_length = on_gblas2d_graphs(distance_measures.average_shortest_path_length)
    barycenter = on_gblas2d_graphs(distance_measures.barycenter)
    center = on_gblas2d_graphs(distance_measures.center)
    diameter = on_gblas2d_graphs(distance_measures.diameter)
    eccentricity = on_gblas2d_graphs(distance_measures.eccentricity)
    efficiency = on_gblas2d_graphs(distance_measures.efficiency)
    global_efficiency = on_gblas2d_graphs(distance_measures.global_efficiency)
    local_efficiency = on_gblas2d_graphs(distance_measures.local_efficiency)
    periphery = on_gblas2d_graphs(distance_measures.periphery)
    radius = on_gblas2d_graphs(distance_measures.radius)
    wiener_index = on_gblas2d_graphs(distance_measures.wiener_index)

    # components.py
    connected_components = on_gblas2d_graphs(components.connected_components)
    is_connected = on_gblas2d_graphs(components.is_connected)
    is_semiconnected = on_gblas2d_graphs(components.is_semiconnected)
    is_strongly_connected = on_gblas2d_graphs(components.is_strongly_connected)
    is_weakly_connected = on_gblas2d_graphs(components.is_weakly_connected)
    node_connected_component = on_gblas2d_graphs(components.node_connected_component)
    number_connected_components = on_gblas2d_graphs(components.number_connected_components)
    number_strongly_connected_components = \
        on_gblas2d_graphs(components.number_strongly_connected_components)
    number_weakly_connected_components = \
        on_gblas2d_graphs(components.number_weakly_connected_components)
    strongly_connected_components = on_gblas2d_graphs(components.strongly_connected_components)
    weakly_connected_components = on_gblas2d_graphs(components.weakly_connected_components)

    # link_analysis.py
    hits = on_gblas2d_graphs(link_analysis.hits)
    pagerank = on_gblas2d_graphs(link_analysis.pagerank)

    # link_prediction.py
    adamic_adar_index = on_gblas2d_graphs(link_prediction.adamic_adar_index)
    jaccard_coefficient = on_gblas2d_graphs(link_prediction.jaccard_coefficient)
    preferential_attachment = on_gblas2d_graphs(link_prediction.preferential_attachment)
    resource_allocation_index = on_gblas2d_graphs(link_prediction.resource_allocation_index)

    # centrality.py
    betweenness_centrality = on_gblas2d_graphs(centrality.betweenness_centrality)
    closeness_centrality = on_gblas2d_graphs(centrality.closeness_centrality)
    degree_centrality = on_gblas2d_graphs(centrality.degree_centrality)
    edge_betweenness_centrality = on_gblas2d_graphs(centrality.edge_betweenness_centrality)
    eigenvector_centrality = on_gblas2d_graphs(centrality.eigenvector_centrality)
    eigenvector_centrality_numpy = on_gblas2d_graphs(centrality.eigenvector_centrality_numpy)
    harmonic_centrality = on_gblas2d_graphs(centrality.harmonic_centrality)
    in_degree_centrality = on_gblas2d_graphs(centrality.in_degree_centrality)
    katz_centrality = on_gblas2d_graphs(centrality.katz_centrality)
    katz_centrality_numpy = on_gblas2d_graphs(centrality.katz_centrality_numpy)
    out_degree_centrality = on_gblas2d_graphs(centrality.out_degree_centrality)

    # cluster.py
    average_clustering = on_gblas2d_graphs(cluster.average_clustering)
    clustering = on_gblas2d_graphs(cluster.clustering)
    generalized_degree = on_gblas2d_graphs(cluster.generalized_degree)
    square_clustering = on_gblas2d_graphs(cluster.square_clustering)
    transitivity = on_gblas2d_graphs(cluster.transitivity)
    triangles = on_gblas2d_graphs(cluster.triangles)

    # cores.py
    core_number = on_gblas2d_graphs(cores.core_number)
    k_core = on_gblas2d_graphs(cores.k_core)
    k_corona = on_gblas2d_graphs(cores.k_corona)
    k_crust = on_gblas2d_graphs(cores.k_crust)
    k_shell = on_gblas2d_graphs(cores.k_shell)
    k_truss = on_gblas2d_graphs(cores.k_truss)
    onion_layers = on_gblas2d_graphs(cores.onion_layers)

    # structure.py
    is_isolate = on_gblas2d_graphs(structure.is_isolate)
    isolates = on_gblas2d_graphs(structure.isolates)
    number_of_isolates = on_gblas2d_graphs(structure.number_of_isolates)
    number_of_selfloops = on_gblas2d_graphs(structure.number_of_selfloops)
    overall_reciprocity = on_gblas2d_graphs(structure.overall_reciprocity)
    reciprocity = on_gblas2d_graphs(structure.reciprocity)

    # regular.py
    is_eulerian = on_gblas2d_graphs(regular.is_eulerian)
    is_k_regular = on_gblas2d_graphs(regular.is_k_regular)
    is_regular = on_gblas2d_graphs(regular.is_regular)

    # cuts.py
    boundary_expansion = on_gblas2d_graphs(cuts.boundary_expansion)
    conductance = on_gblas2d_graphs(cuts.conductance)
    cut_size = on_gblas2d_graphs(cuts.cut_size)
    edge_expansion = on_gblas2d_graphs(cuts.edge_expansion)
    mixing_expansion = on_gblas2d_graphs(cuts.mixing_expansion)
    node_expansion = on_gblas2d_graphs(cuts.node_expansion)
    normalized_cut_size = on_gblas2d_graphs(cuts.normalized_cut_size)
    volume = on_gblas2d_graphs(cuts.volume)

    # assortativity.py
    average_degree_connectivity = on_gblas2d_graphs(assortativity.average_degree_connectivity)
    average_neighbor_degree = on_gblas2d_graphs(assortativity.average_neighbor_degree)

    # bipartite.py
    color = on_gblas2d_graphs(bipartite.color)
    is_bipartite = on_gblas2d_graphs(bipartite.is_bipartite)

    # generators.py
    circular_ladder_graph = staticmethod(generators.circular_ladder_graph)
    complete_graph = staticmethod(generators.complete_graph)
    cycle_graph = staticmethod(generators.cycle_graph)
    empty_graph = staticmethod(generators.empty_graph)
    grid_2d_graph = staticmethod(generators.grid_2d_graph)
    ladder_graph = staticmethod(generators.ladder_graph)
    null_graph = staticmethod(generators.null_graph)
    path_graph = staticmethod(generators.path_graph)
    star_graph = staticmethod(generators.star_graph)
    trivial_graph = staticmethod(generators.trivial_graph)
    wheel_graph = staticmethod(generators.wheel_graph)

    # sets.py
    dominating_set = on_gblas2d_graphs(sets.dominating_set)
    is_dominating_set = on_gblas2d_graphs(sets.is_dominating_set)
    maximal_independent_set = on_gblas2d_graphs(sets.maximal_independent_set)
