"""Graph algorithms written with the public gblas2d API only (installed as gblas2d.algorithms).

Each algorithm takes and returns Matrix/Vector objects and runs unchanged at any rank count. It
finds its engine from its input, so the same call also runs on python-graphblas objects::

    from gblas2d.algorithms import bfs_levels
    bfs_levels(gblas2d_matrix, 0)      # distributed over the MPI ranks
    bfs_levels(graphblas_matrix, 0)    # SuiteSparse:GraphBLAS in this process

None of them imports mpi4py or cupy (tests/semirings/test_layering.py checks this).

``engine(A)`` is how they find their engine, and how a user's own algorithm can too: the
namespace of the engine that ``A`` belongs to (``Vector``, ``Matrix``, ``semiring``, ...), so
that workspace objects are made where the input lives; docs/engine.md lists its members.
"""

from ._engine import engine
from .betweenness_centrality import betweenness_centrality, edge_betweenness_centrality
from .bfs_levels import bfs_levels
from .bfs_parents import bfs_parents
from .bipartite import bipartite_sides
from .connected_components import connected_components
from .core_number import core_number
from .eigenvector_centrality import eigenvector_centrality
from .fused_bpt import BPTResult, fused_bpt
from .graph import Graph
from .hits import hits
from .influence_maximization import InfluenceResult, influence_maximization
from .k_truss import k_truss
from .katz_centrality import katz_centrality
from .label_propagation import label_propagation
from .link_prediction import link_prediction
from .local_clustering_coefficient import local_clustering_coefficient
from .max_weight_matching import max_weight_matching
from .maximal_independent_set import maximal_independent_set
from .onion_layers import onion_layers
from .pagerank import pagerank
from .pointer_jumping import pointer_jumping
from .square_clustering import square_clustering
from .sssp import NegativeCycleError, sssp
from .strongly_connected_components import strongly_connected_components
from .triangle_count import triangle_count, triangles
from .validate_bfs_tree import BFSTreeCheck, validate_bfs_tree

__all__ = [
    "BFSTreeCheck", "BPTResult", "Graph", "InfluenceResult", "NegativeCycleError",
    "betweenness_centrality", "bfs_levels", "bfs_parents", "bipartite_sides",
    "connected_components", "core_number", "edge_betweenness_centrality", "engine",
    "eigenvector_centrality", "fused_bpt", "hits", "influence_maximization", "k_truss",
    "katz_centrality", "label_propagation", "link_prediction", "local_clustering_coefficient",
    "max_weight_matching", "maximal_independent_set", "onion_layers", "pagerank",
    "pointer_jumping",
    "square_clustering", "sssp",
    "strongly_connected_components", "triangle_count", "triangles", "validate_bfs_tree",
]
