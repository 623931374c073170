"""The ``networkx.backends`` entry point: ``BackendInterface``, ``can_run`` and ``should_run``."""

import inspect

import networkx as nx

from . import (
    assortativity,
    bipartite,
    centrality,
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
    attribute per function dispatched, grouped by the module that holds it."""

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)
    can_run = staticmethod(can_run)
    should_run = staticmethod(should_run)

    # traversal.py
    ancestors = staticmethod(traversal.ancestors)
    bfs_edges = staticmethod(traversal.bfs_edges)
    bfs_layers = staticmethod(traversal.bfs_layers)
    bfs_predecessors = staticmethod(traversal.bfs_predecessors)
    bfs_successors = staticmethod(traversal.bfs_successors)
    bfs_tree = staticmethod(traversal.bfs_tree)
    descendants = staticmethod(traversal.descendants)
    descendants_at_distance = staticmethod(traversal.descendants_at_distance)

    # shortest_paths.py
    all_pairs_shortest_path_length = staticmethod(shortest_paths.all_pairs_shortest_path_length)
    has_path = staticmethod(shortest_paths.has_path)
    shortest_path_length = staticmethod(shortest_paths.shortest_path_length)
    single_source_bellman_ford_path_length = \
        staticmethod(shortest_paths.single_source_bellman_ford_path_length)
    single_source_dijkstra_path_length = \
        staticmethod(shortest_paths.single_source_dijkstra_path_length)
    single_source_shortest_path_length = \
        staticmethod(shortest_paths.single_source_shortest_path_length)
    single_target_shortest_path_length = \
        staticmethod(shortest_paths.single_target_shortest_path_length)

    # paths.py
    all_pairs_shortest_path = staticmethod(paths.all_pairs_shortest_path)
    bidirectional_shortest_path = staticmethod(paths.bidirectional_shortest_path)
    predecessor = staticmethod(paths.predecessor)
    single_source_shortest_path = staticmethod(paths.single_source_shortest_path)
    single_target_shortest_path = staticmethod(paths.single_target_shortest_path)

    # distance_measures.py
    average_shortest_path_length = staticmethod(distance_measures.average_shortest_path_length)
    barycenter = staticmethod(distance_measures.barycenter)
    center = staticmethod(distance_measures.center)
    diameter = staticmethod(distance_measures.diameter)
    eccentricity = staticmethod(distance_measures.eccentricity)
    efficiency = staticmethod(distance_measures.efficiency)
    global_efficiency = staticmethod(distance_measures.global_efficiency)
    local_efficiency = staticmethod(distance_measures.local_efficiency)
    periphery = staticmethod(distance_measures.periphery)
    radius = staticmethod(distance_measures.radius)
    wiener_index = staticmethod(distance_measures.wiener_index)

    # components.py
    connected_components = staticmethod(components.connected_components)
    is_connected = staticmethod(components.is_connected)
    is_semiconnected = staticmethod(components.is_semiconnected)
    is_strongly_connected = staticmethod(components.is_strongly_connected)
    is_weakly_connected = staticmethod(components.is_weakly_connected)
    node_connected_component = staticmethod(components.node_connected_component)
    number_connected_components = staticmethod(components.number_connected_components)
    number_strongly_connected_components = \
        staticmethod(components.number_strongly_connected_components)
    number_weakly_connected_components = \
        staticmethod(components.number_weakly_connected_components)
    strongly_connected_components = staticmethod(components.strongly_connected_components)
    weakly_connected_components = staticmethod(components.weakly_connected_components)

    # link_analysis.py
    hits = staticmethod(link_analysis.hits)
    pagerank = staticmethod(link_analysis.pagerank)

    # link_prediction.py
    adamic_adar_index = staticmethod(link_prediction.adamic_adar_index)
    jaccard_coefficient = staticmethod(link_prediction.jaccard_coefficient)
    preferential_attachment = staticmethod(link_prediction.preferential_attachment)
    resource_allocation_index = staticmethod(link_prediction.resource_allocation_index)

    # centrality.py
    betweenness_centrality = staticmethod(centrality.betweenness_centrality)
    closeness_centrality = staticmethod(centrality.closeness_centrality)
    degree_centrality = staticmethod(centrality.degree_centrality)
    edge_betweenness_centrality = staticmethod(centrality.edge_betweenness_centrality)
    eigenvector_centrality = staticmethod(centrality.eigenvector_centrality)
    eigenvector_centrality_numpy = staticmethod(centrality.eigenvector_centrality_numpy)
    harmonic_centrality = staticmethod(centrality.harmonic_centrality)
    in_degree_centrality = staticmethod(centrality.in_degree_centrality)
    katz_centrality = staticmethod(centrality.katz_centrality)
    katz_centrality_numpy = staticmethod(centrality.katz_centrality_numpy)
    out_degree_centrality = staticmethod(centrality.out_degree_centrality)

    # cluster.py
    average_clustering = staticmethod(cluster.average_clustering)
    clustering = staticmethod(cluster.clustering)
    generalized_degree = staticmethod(cluster.generalized_degree)
    square_clustering = staticmethod(cluster.square_clustering)
    transitivity = staticmethod(cluster.transitivity)
    triangles = staticmethod(cluster.triangles)

    # cores.py
    core_number = staticmethod(cores.core_number)
    k_core = staticmethod(cores.k_core)
    k_corona = staticmethod(cores.k_corona)
    k_crust = staticmethod(cores.k_crust)
    k_shell = staticmethod(cores.k_shell)
    k_truss = staticmethod(cores.k_truss)
    onion_layers = staticmethod(cores.onion_layers)

    # structure.py
    is_isolate = staticmethod(structure.is_isolate)
    isolates = staticmethod(structure.isolates)
    number_of_isolates = staticmethod(structure.number_of_isolates)
    number_of_selfloops = staticmethod(structure.number_of_selfloops)
    overall_reciprocity = staticmethod(structure.overall_reciprocity)
    reciprocity = staticmethod(structure.reciprocity)

    # regular.py
    is_eulerian = staticmethod(regular.is_eulerian)
    is_k_regular = staticmethod(regular.is_k_regular)
    is_regular = staticmethod(regular.is_regular)

    # cuts.py
    boundary_expansion = staticmethod(cuts.boundary_expansion)
    conductance = staticmethod(cuts.conductance)
    cut_size = staticmethod(cuts.cut_size)
    edge_expansion = staticmethod(cuts.edge_expansion)
    mixing_expansion = staticmethod(cuts.mixing_expansion)
    node_expansion = staticmethod(cuts.node_expansion)
    normalized_cut_size = staticmethod(cuts.normalized_cut_size)
    volume = staticmethod(cuts.volume)

    # assortativity.py
    average_degree_connectivity = staticmethod(assortativity.average_degree_connectivity)
    average_neighbor_degree = staticmethod(assortativity.average_neighbor_degree)

    # bipartite.py
    color = staticmethod(bipartite.color)
    is_bipartite = staticmethod(bipartite.is_bipartite)

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
    dominating_set = staticmethod(sets.dominating_set)
    is_dominating_set = staticmethod(sets.is_dominating_set)
    maximal_independent_set = staticmethod(sets.maximal_independent_set)
