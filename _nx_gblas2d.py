"""What NetworkX learns about the gblas2d backend when it starts (``networkx.backend_info``).

A top-level module of its own, so that ``import networkx`` reads it without importing gblas2d;
the backend itself (the package ``gblas2d.nx``) loads at the first call dispatched to it.
"""

FUNCTIONS = (
    "adamic_adar_index", "all_pairs_shortest_path", "all_pairs_shortest_path_length", "ancestors",
    "average_clustering", "average_degree_connectivity", "average_neighbor_degree",
    "average_shortest_path_length", "barycenter", "betweenness_centrality", "bfs_edges",
    "bfs_layers", "bfs_predecessors", "bfs_successors", "bfs_tree", "bidirectional_shortest_path",
    "boundary_expansion", "center", "circular_ladder_graph", "closeness_centrality", "clustering",
    "color", "complete_graph", "conductance", "connected_components", "core_number", "cut_size",
    "cycle_graph", "degree_centrality", "descendants", "descendants_at_distance", "diameter",
    "dominating_set", "eccentricity", "edge_betweenness_centrality", "edge_expansion",
    "efficiency", "eigenvector_centrality", "eigenvector_centrality_numpy", "empty_graph",
    "generalized_degree", "global_efficiency", "grid_2d_graph", "harmonic_centrality", "has_path",
    "hits", "in_degree_centrality", "is_bipartite", "is_connected", "is_dominating_set",
    "is_eulerian", "is_isolate", "is_k_regular", "is_regular", "is_semiconnected",
    "is_strongly_connected", "is_weakly_connected", "isolates", "jaccard_coefficient", "k_core",
    "k_corona", "k_crust", "k_shell", "k_truss", "katz_centrality", "katz_centrality_numpy",
    "ladder_graph", "local_efficiency", "maximal_independent_set", "mixing_expansion",
    "node_connected_component", "node_expansion", "normalized_cut_size", "null_graph",
    "number_connected_components", "number_of_isolates", "number_of_selfloops",
    "number_strongly_connected_components", "number_weakly_connected_components", "onion_layers",
    "out_degree_centrality", "overall_reciprocity", "pagerank", "path_graph", "periphery",
    "predecessor", "preferential_attachment", "radius", "reciprocity", "resource_allocation_index",
    "shortest_path_length", "single_source_bellman_ford_path_length",
    "single_source_dijkstra_path_length", "single_source_shortest_path",
    "single_source_shortest_path_length", "single_target_shortest_path",
    "single_target_shortest_path_length", "square_clustering", "star_graph",
    "strongly_connected_components", "transitivity", "triangles", "trivial_graph", "volume",
    "weakly_connected_components", "wheel_graph", "wiener_index",
)

BFS_ORDER = ("Yields NetworkX's order exactly (the neighbour order of G, or sort_neighbors'); "
             "computed at the call, not lazily.")
LINK = ("One masked product over the pairs asked for; ebunch=None scores every non-edge in "
        "nx.non_edges' order. Computed at the call, not lazily.")
GENERATED = ("Made as a gblas2d matrix on the grid (each rank passes its share of the edges); "
             "create_using None, nx.Graph or nx.DiGraph. The NetworkX graph is built only when "
             "asked for.")
DISTANCES = "Batched searches (256 sources a product), each batch reduced by rows."
PATHS = ("NetworkX's paths in its order, from the breadth-first search in NetworkX's order; "
         "computed at the call.")
CUT = "Products with the indicator vectors of S and T (the complement of S for T=None)."
NOTES = {
    "all_pairs_shortest_path_length": "Batched searches (256 sources a product); computed at "
                                      "the call, not lazily.",
    "average_clustering": "weight=None only.",
    "betweenness_centrality": "Unweighted only (weight=None) and endpoints=False; k and seed "
                              "sample the same sources as NetworkX.",
    "bfs_edges": BFS_ORDER,
    "bfs_layers": BFS_ORDER + " Under mpiexec the first layer's order is rank 0's.",
    "bfs_tree": BFS_ORDER,
    "bfs_predecessors": BFS_ORDER,
    "bfs_successors": BFS_ORDER,
    "closeness_centrality": "Unweighted only (distance=None); batched searches along the "
                            "reversed edges.",
    "clustering": "weight=None only (weighted clustering falls back); a DiGraph's is "
                  "Fagiolo's, as NetworkX's, from diag(S^3) with S = A + A^T.",
    "color": "Breadth-first search from every component at once; the sides are the parities "
             "of the levels.",
    "edge_betweenness_centrality": "Unweighted only (weight=None); Brandes' walk back adds "
                                   "one masked product per level. k and seed sample the same "
                                   "sources as NetworkX.",
    "is_bipartite": "Breadth-first search from every component at once, then one product "
                    "checks that no edge joins two nodes at levels of the same parity.",
    "square_clustering": "Undirected only; the common neighbours of every pair two hops "
                         "apart in one product (memory grows with the squared hub degrees).",
    **{name: GENERATED for name in (
        "circular_ladder_graph", "complete_graph", "cycle_graph", "empty_graph",
        "grid_2d_graph", "ladder_graph", "null_graph", "path_graph", "star_graph",
        "trivial_graph", "wheel_graph")},
    "dominating_set": "Undirected only: a maximal independent set (Luby's) containing "
                      "start_with, which dominates; another set than NetworkX's greedy one.",
    "eigenvector_centrality_numpy": "Power iteration with A + I run to 1e-13 per node in "
                                    "place of ARPACK (max_iter and tol are ARPACK's and do "
                                    "not apply); falls back where it does not converge.",
    "harmonic_centrality": "Unweighted only (distance=None); batched searches along the "
                           "reversed edges.",
    "hits": "Power iteration in place of ARPACK's SVD (the same answer where the top "
            "singular value is simple); positive edge weights; at least one edge.",
    "jaccard_coefficient": LINK,
    "adamic_adar_index": LINK,
    "resource_allocation_index": LINK,
    "preferential_attachment": LINK,
    "k_corona": "Neighbours counted with one product over the core numbers.",
    "k_truss": "LAGraph's k-truss; k must be an integer.",
    "katz_centrality_numpy": "The Katz series run to 1e-13 per node in place of a dense "
                             "solve; falls back where it does not converge (alpha near or "
                             "above 1 / spectral radius).",
    "maximal_independent_set": "Luby's algorithm with hashed keys; seed must be None (a "
                               "given seed asks for NetworkX's own random sequence).",
    "average_degree_connectivity": "One product of the neighbour matrix with the target "
                                   "degrees; the sums per degree in G's node order.",
    "average_neighbor_degree": "One product of the neighbour matrix (A, A^T or both) with the "
                               "target degrees, over the weighted source degrees.",
    **{name: CUT for name in ("conductance", "edge_expansion", "normalized_cut_size")},
    **{name: CUT + " A DiGraph with T=None raises NetworkX's TypeError, as NetworkX."
       for name in ("cut_size", "mixing_expansion")},
    "onion_layers": "Peeling as for core numbers, one masked product a layer; undirected, no "
                    "self loops (as NetworkX).",
    "shortest_path_length": "Unweighted only (weight=None); all pairs by batched searches.",
    **{name: DISTANCES + " Unweighted only (weight=None); no e or sp (usebounds gives the "
       "same answer)." for name in ("eccentricity", "diameter", "radius", "center",
                                    "periphery")},
    "barycenter": DISTANCES + " Unweighted only; no attr or sp.",
    "average_shortest_path_length": DISTANCES + " Unweighted only (weight=None).",
    "wiener_index": DISTANCES + " Unweighted only (weight=None).",
    "global_efficiency": DISTANCES,
    "local_efficiency": "Batched searches in each neighbourhood's subgraph D A D.",
    **{name: PATHS for name in ("single_source_shortest_path", "single_target_shortest_path",
                                "all_pairs_shortest_path", "predecessor")},
    "bidirectional_shortest_path": "A shortest path (NetworkX's single-source one); where "
                                   "several are shortest it may differ from NetworkX's.",
    "pagerank": "No personalization, nstart or dangling; edge weights must be positive.",
    "single_source_dijkstra_path_length": "Delta-stepping; weight must name an attribute.",
    "single_source_bellman_ford_path_length": "weight must name an attribute.",
}


def get_info():
    """The ``networkx.backend_info`` entry point: the backend's name and functions."""
    return {
        "backend_name": "gblas2d",
        "project": "gblas2d",
        "package": "gblas2d",
        "short_summary": "GraphBLAS-style engine over a 2D grid of MPI ranks.",
        "default_config": {},
        "functions": {name: {"additional_docs": NOTES[name]} if name in NOTES else {}
                      for name in FUNCTIONS},
    }
