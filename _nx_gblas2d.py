"""What NetworkX learns about the gblas2d backend when it starts (``networkx.backend_info``).

A top-level module of its own, so that ``import networkx`` reads it without importing gblas2d;
the backend itself (``gblas2d.nxbackend``) loads at the first call dispatched to it.
"""

FUNCTIONS = (
    "betweenness_centrality", "connected_components", "is_connected",
    "is_weakly_connected", "number_connected_components", "number_weakly_connected_components",
    "pagerank", "single_source_bellman_ford_path_length", "single_source_dijkstra_path_length",
    "single_source_shortest_path_length", "weakly_connected_components",
)

NOTES = {
    "betweenness_centrality": "Unweighted only (weight=None) and endpoints=False; k and seed "
                              "sample the same sources as NetworkX.",
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
