"""What the gblas2d backend cannot honour, in NetworkX's words: ``reason(name, arguments)``.

``can_run`` (``gblas2d.nx.backend``) asks ``reason`` before NetworkX converts a graph; the
dispatched functions call ``refuse`` with the same checks, so a direct call through
``BackendInterface`` refuses what ``can_run`` would.
"""

import numbers

import networkx as nx

from . import classes

__all__ = ["positive_weights", "reason", "refuse"]


def pagerank_reason(alpha, personalization, max_iter, nstart, dangling):
    for given, what in ((personalization, "personalization"), (nstart, "nstart"),
                        (dangling, "dangling")):
        if given is not None:
            return f"pagerank with {what} is not supported"
    if not (isinstance(alpha, numbers.Real) and 0 <= alpha < 1):
        return f"alpha (={alpha}) must lie in [0, 1)"
    if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral) or max_iter < 1:
        return f"max_iter (={max_iter}) must be a positive integer"
    return None


def weight_reason(weight):
    if not isinstance(weight, str):
        return "weight must name an edge attribute (functions and None are not supported)"
    return None


def betweenness_reason(k, n, weight, endpoints):
    if weight is not None:
        return "weighted betweenness is not supported"
    if endpoints:
        return "endpoints=True is not supported"
    if k is not None and (isinstance(k, bool) or not isinstance(k, numbers.Integral)
                          or not 1 <= k <= n):
        return f"k (={k}) must be an integer in [1, {n}]"
    return None


def clustering_reason(G, weight):
    if weight is not None:
        return "weighted clustering is not supported"
    return None


def square_clustering_reason(G):
    if G.is_directed():
        return "square_clustering of a directed graph is not supported"
    return None


def generator_reason(create_using, default=nx.Graph):
    if create_using not in (None, nx.Graph, nx.DiGraph):
        return "create_using must be None, nx.Graph or nx.DiGraph (graph instances, " \
            "multigraphs and other classes are not supported)"
    if create_using is None and default is not nx.Graph:
        return "default must be nx.Graph"
    return None


def class_reason(cls, made):
    # NetworkX calls nx.Graph.__new__ for its subclasses too; a gblas2d graph in their place
    # would lose the subclass (Python then skips its __init__)
    if cls not in made:
        return f"{cls.__name__} is a subclass of nx.{made[0].__name__}: gblas2d makes " \
            "nx.Graph and nx.DiGraph only, and a subclass keeps its own class"
    return None


def k_reason(k):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        return f"k (={k!r}) must be an integer"
    return None


def bfs_reason(depth_limit, sort_neighbors):
    if depth_limit is not None and (isinstance(depth_limit, bool)
                                    or not isinstance(depth_limit, numbers.Real)):
        return f"depth_limit (={depth_limit!r}) must be a number or None"
    if sort_neighbors is not None and not callable(sort_neighbors):
        return "sort_neighbors must be a function or None"
    return None


def hits_reason(G):
    if isinstance(G, nx.Graph) and G.number_of_edges() == 0:
        return "hits of a graph without edges is undefined (NetworkX's ARPACK raises)"
    if isinstance(G, nx.Graph) and not positive_weights(G, "weight"):
        return "hits needs positive numeric edge weights"
    return None


def seed_reason(seed):
    # py_random_state has made seed=None the global generator; any other seed asks for
    # NetworkX's own sequence of choices, which Luby's rounds do not reproduce
    if seed is not nx.utils.create_py_random_state(None):
        return "maximal_independent_set with a seed is not supported (NetworkX's answer for " \
            "a seed is its own sequence of random choices)"
    return None


def refuse(why):
    """NotImplementedError(why) unless ``why`` is None."""
    if why is not None:
        raise NotImplementedError(why)


def positive_weights(G, weight):
    """Whether every edge of the NetworkX graph ``G`` has a positive real ``weight``."""
    return all(isinstance(w, numbers.Real) and w > 0
               for _, _, w in G.edges(data=weight, default=1))


def _redefines_adjacency(G):
    """Whether G's class answers adjacency differently from the NetworkX class it extends
    (NetworkX's own _AntiGraph reads its stored edges as their complement)."""
    base = nx.DiGraph if G.is_directed() else nx.Graph
    return any(getattr(type(G), attr) is not getattr(base, attr)
               for attr in ("adj", "__getitem__", "neighbors", "degree"))


def reason(name, a):
    """None, or why gblas2d cannot run ``name`` with the bound arguments ``a`` (a dict of
    every parameter, defaults applied; ``a["G"]`` a NetworkX graph or a converted one)."""
    if name in CLASSES:
        return class_reason(a["cls"], CLASSES[name])
    if name in GENERATORS:
        if name == "circular_ladder_graph" and not (isinstance(a["n"], numbers.Integral)
                                                    and a["n"] >= 1):
            return "circular_ladder_graph needs an integer n >= 1"
        return generator_reason(a.get("create_using"), a.get("default", nx.Graph))
    G = a["G"]
    if G.is_multigraph():
        return "multigraphs are not supported"
    if isinstance(G, nx.Graph) and _redefines_adjacency(G):
        return f"{type(G).__name__} redefines its adjacency (a view such as a complement): " \
            "the conversion reads the stored edges"
    if name == "pagerank":
        why = pagerank_reason(a["alpha"], a["personalization"], a["max_iter"], a["nstart"],
                              a["dangling"])
        if why is None and a["weight"] is not None and isinstance(G, nx.Graph) and \
                not positive_weights(G, a["weight"]):
            why = "pagerank needs positive numeric edge weights"
        return why
    if name in ("single_source_bellman_ford_path_length", "single_source_dijkstra_path_length"):
        return weight_reason(a["weight"])
    if name == "betweenness_centrality":
        return betweenness_reason(a["k"], len(G), a["weight"], a["endpoints"])
    if name == "edge_betweenness_centrality":
        return betweenness_reason(a["k"], len(G), a["weight"], False)
    if name in ("clustering", "average_clustering"):
        return clustering_reason(G, a["weight"])
    if name == "square_clustering":
        return square_clustering_reason(G)
    if name == "k_truss":
        return k_reason(a["k"])
    if name in BFS_FUNCTIONS:
        return bfs_reason(a.get("depth_limit"), a.get("sort_neighbors"))
    if name == "shortest_path_length" and a["weight"] is not None:
        return "weighted shortest_path_length is not supported"
    if name == "dominating_set" and G.is_directed():
        return "dominating_set of a directed graph is not supported"
    if name in ("closeness_centrality", "harmonic_centrality") and a["distance"] is not None:
        return f"{name} with distance is not supported"
    if name == "hits":
        return hits_reason(G)
    if name == "maximal_independent_set":
        return seed_reason(a["seed"])
    if name in DISTANCE_MEASURES:
        return distance_reason(name, a)
    return None


def distance_reason(name, a):
    """Why a distance measure cannot run: weights, or distances the caller has computed."""
    if a.get("weight") is not None:
        return f"weighted {name} is not supported"
    for given in ("e", "sp", "attr"):
        if a.get(given) is not None:
            return f"{name} with {given} is not supported"
    return None


# the classes whose construction NetworkX dispatches, by dispatch name, and gblas2d's own
CLASSES = {"graph__new__": (nx.Graph, classes.Graph),
           "digraph__new__": (nx.DiGraph, classes.DiGraph)}
GENERATORS = ("circular_ladder_graph", "complete_graph", "cycle_graph", "empty_graph",
              "grid_2d_graph", "ladder_graph", "null_graph", "path_graph", "star_graph",
              "trivial_graph", "wheel_graph")
DISTANCE_MEASURES = ("average_shortest_path_length", "barycenter", "center", "diameter",
                     "eccentricity", "periphery", "radius", "wiener_index")
BFS_FUNCTIONS = ("bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors")
