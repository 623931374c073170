"""Every NetworkX function dispatched to gblas2d, timed beside NetworkX itself and
graphblas-algorithms.

Run on one process, then under ``mpiexec -n P`` for gblas2d at P ranks, then merge the two
into a markdown table::

    python benchmarks/bench_networkx.py --scale 14
    mpiexec -n 2 python benchmarks/bench_networkx.py --scale 14
    python benchmarks/bench_networkx.py --scale 14 --markdown networkx_scale14.md

The functions are those ``_nx_gblas2d.FUNCTIONS`` names (the backend's own list); the script
stops at once if one has no call here. The graph is ``rmat(scale, 8, symmetric=True)`` as an
undirected NetworkX graph, built the same on every rank, and the calls run on it or on graphs
made from it (``variants``). Each call runs as a NetworkX user writes it, ``nx.pagerank(G,
backend=...)``, and consumes what it returns (a generator's items are the work). The first
call converts the graph (NetworkX's cache of conversions is emptied before it); the repeat is
the best of ``--repeat`` calls after it, which reuse the conversion NetworkX caches on the
graph. NetworkX and graphblas-algorithms (backend ``graphblas``, only for the functions it
dispatches) run on one process only; under mpiexec only gblas2d runs, on every rank. Every
engine runs one thread: NetworkX's scipy calls and SuiteSparse at one thread, gblas2d at
``GBLAS2D_THREADS=1`` a rank, unless the environment sets them. Results are compared with
NetworkX's (``same``). Rank 0 prints a line a function and writes
``benchmarks/results/networkx_<P>ranks_scale<S>.json``.
"""

import os

# One thread for every engine, set before numpy, SuiteSparse and gblas2d load: NetworkX's
# scipy calls (OpenBLAS), SuiteSparse (OpenMP) and gblas2d's SuiteSparse calls (a rank).
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("GBLAS2D_THREADS", "1")

import argparse
import importlib.metadata
import json
import platform
import time
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import graphblas
import networkx as nx
import numpy as np
import scipy.sparse.linalg
from _common import write_json

import gblas2d as gb
from _nx_gblas2d import FUNCTIONS
from gblas2d.local.backends import threads_per_rank

RESULTS = Path(__file__).resolve().parent / "results"
LABELS = {None: "networkx", "graphblas": "graphblas", "gblas2d": "gblas2d"}

# what each graph label in the table stands for
GRAPHS = {
    "G": "the undirected R-MAT graph",
    "D": "a DiGraph of G's edges: u -> v (u < v) where u + v is even, v -> u where it is odd, "
         "both where u + v is a multiple of 3",
    "W": "G with integer weights 1 + (u + v) % 7",
    "B": "the bipartite graph of G's edges joining an even and an odd node",
    "S": "the largest connected component of the subgraph induced by G's {small} nodes of "
         "highest degree, for the functions whose NetworkX cost grows with the pairs of nodes "
         "(all pairs, every non-edge, pairs two hops apart, a dense solve)",
    "C": "G's largest connected component",
    "gen": "no input graph: a generator, sized like G (gblas2d returns its own graph, whose "
           "NetworkX graph is built when first read, outside the time)",
}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", type=int, default=14)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--bc-k", type=int, default=32, help="betweenness: sampled sources")
    p.add_argument("--small", type=int, default=200,
                   help="nodes of the subgraph S that the all-pairs functions run on")
    p.add_argument("--only", nargs="+", choices=FUNCTIONS, metavar="NAME",
                   help="run these functions only")
    p.add_argument("--markdown", metavar="FILE",
                   help="run nothing: merge the 1- and 2-rank results at --scale into a "
                        "markdown table in FILE")
    return p.parse_args(argv)


def graph(scale):
    """The undirected NetworkX graph of ``rmat(scale, 8)``, the same on every rank."""
    A = gb.generators.rmat(scale, 8, symmetric=True, seed=1)
    rows, cols, _ = A.to_coo()
    G = nx.Graph()
    G.add_nodes_from(range(A.nrows))
    keep = rows < cols
    G.add_edges_from(zip(rows[keep].tolist(), cols[keep].tolist(), strict=True))
    return G


def induced(G, nodes):
    """The subgraph of ``G`` induced by ``nodes``, as a graph of its own in G's node order
    (NetworkX's subgraph view iterates a set: its order is not G's)."""
    keep = set(nodes)
    H = G.__class__()
    H.add_nodes_from(v for v in G if v in keep)
    H.add_edges_from((u, v) for u, v in G.edges(H) if v in keep)
    return H


def variants(G, small):
    """The graphs of ``GRAPHS`` by label, each made by a fixed rule from ``G``."""
    D, W, B = nx.DiGraph(), nx.Graph(), nx.Graph()
    for H in (D, W, B):
        H.add_nodes_from(G)
    for u, v in G.edges():
        u, v = min(u, v), max(u, v)
        if (u + v) % 3 == 0:
            D.add_edges_from([(u, v), (v, u)])
        else:
            D.add_edge(*((u, v) if (u + v) % 2 == 0 else (v, u)))
        W.add_edge(u, v, weight=1 + (u + v) % 7)
        if (u + v) % 2:
            B.add_edge(u, v)
    # a stable sort: ties keep G's order
    top = induced(G, sorted(G, key=lambda v: -G.degree[v])[:small])
    S = induced(G, max(nx.connected_components(top), key=len))
    C = induced(G, max(nx.connected_components(G), key=len))
    return {"G": G, "D": D, "W": W, "B": B, "S": S, "C": C}


def katz_alpha(G):
    """Half of 1 / the spectral radius of ``G``, where Katz's series converges fast, to two
    digits so that every rank passes the same number (ARPACK from a fixed start)."""
    A = nx.to_scipy_sparse_array(G, dtype=np.float64)
    radius = scipy.sparse.linalg.eigsh(A, k=1, which="LA", v0=np.ones(A.shape[0]))[0][0]
    return float(f"{0.5 / radius:.2g}")


class Call(NamedTuple):
    """One function's call: the graph it reads, ``run(backend)`` and how its result is
    compared with NetworkX's (``agree``; ``checks_validity``: whether it is a valid answer
    rather than NetworkX's own, where NetworkX's is one of many)."""

    graph: str
    run: object
    agree: object = None
    checks_validity: bool = False


def calls(g, scale, args):
    """Every dispatched function's call, by name. ``g``: the graphs of ``variants``."""
    G, D, W, B, S, C = (g[k] for k in "GDWBSC")
    top = sorted(G, key=lambda v: -G.degree[v])
    # the source and a fixed second vertex: the two of highest degree
    s, t = top[0], top[1]
    half = set(range(G.number_of_nodes() // 2))
    active = [v for v in G if G.degree[v]]
    dominating = nx.dominating_set(G)
    n, m = G.number_of_nodes(), G.number_of_edges()
    rows = 2 ** (scale // 2)
    alpha, alpha_small = katz_alpha(G), katz_alpha(S)

    return {
        # traversal
        "ancestors": Call("D", lambda b: nx.ancestors(D, s, backend=b)),
        "bfs_edges": Call("G", lambda b: list(nx.bfs_edges(G, s, backend=b))),
        "bfs_layers": Call("G", lambda b: list(nx.bfs_layers(G, s, backend=b)),
                           by(layer_sets)),
        "bfs_predecessors": Call("G", lambda b: list(nx.bfs_predecessors(G, s, backend=b))),
        "bfs_successors": Call("G", lambda b: list(nx.bfs_successors(G, s, backend=b))),
        "bfs_tree": Call("G", lambda b: nx.bfs_tree(G, s, backend=b), by(graph_form)),
        "descendants": Call("D", lambda b: nx.descendants(D, s, backend=b)),
        "descendants_at_distance":
            Call("G", lambda b: nx.descendants_at_distance(G, s, 2, backend=b)),
        # shortest paths
        "all_pairs_shortest_path_length":
            Call("S", lambda b: dict(nx.all_pairs_shortest_path_length(S, backend=b))),
        "has_path": Call("G", lambda b: nx.has_path(G, s, t, backend=b)),
        "shortest_path_length": Call("G", lambda b: nx.shortest_path_length(G, s, t, backend=b)),
        "single_source_bellman_ford_path_length":
            Call("W", lambda b: nx.single_source_bellman_ford_path_length(W, s, backend=b)),
        "single_source_dijkstra_path_length":
            Call("W", lambda b: nx.single_source_dijkstra_path_length(W, s, backend=b)),
        "single_source_shortest_path_length":
            Call("G", lambda b: nx.single_source_shortest_path_length(G, s, backend=b)),
        "single_target_shortest_path_length":
            Call("D", lambda b: dict(nx.single_target_shortest_path_length(D, t, backend=b))),
        # paths
        "all_pairs_shortest_path":
            Call("S", lambda b: dict(nx.all_pairs_shortest_path(S, backend=b))),
        "bidirectional_shortest_path":
            Call("G", lambda b: nx.bidirectional_shortest_path(G, s, t, backend=b),
                 lambda ref, path: is_shortest_path(G, path, s, t, len(ref)), True),
        "predecessor": Call("G", lambda b: nx.predecessor(G, s, backend=b)),
        "single_source_shortest_path":
            Call("G", lambda b: nx.single_source_shortest_path(G, s, backend=b)),
        "single_target_shortest_path":
            Call("D", lambda b: nx.single_target_shortest_path(D, t, backend=b)),
        # distance measures
        "average_shortest_path_length":
            Call("S", lambda b: nx.average_shortest_path_length(S, backend=b)),
        "barycenter": Call("S", lambda b: nx.barycenter(S, backend=b)),
        "center": Call("S", lambda b: nx.center(S, backend=b)),
        "diameter": Call("S", lambda b: nx.diameter(S, backend=b)),
        "eccentricity": Call("S", lambda b: nx.eccentricity(S, backend=b)),
        "efficiency": Call("G", lambda b: nx.efficiency(G, s, t, backend=b)),
        "global_efficiency": Call("S", lambda b: nx.global_efficiency(S, backend=b)),
        "local_efficiency": Call("S", lambda b: nx.local_efficiency(S, backend=b)),
        "periphery": Call("S", lambda b: nx.periphery(S, backend=b)),
        "radius": Call("S", lambda b: nx.radius(S, backend=b)),
        "wiener_index": Call("S", lambda b: nx.wiener_index(S, backend=b)),
        # components
        "connected_components":
            Call("G", lambda b: list(nx.connected_components(G, backend=b)), by(unordered)),
        "is_connected": Call("G", lambda b: nx.is_connected(G, backend=b)),
        "is_semiconnected": Call("D", lambda b: nx.is_semiconnected(D, backend=b)),
        "is_strongly_connected": Call("D", lambda b: nx.is_strongly_connected(D, backend=b)),
        "is_weakly_connected": Call("D", lambda b: nx.is_weakly_connected(D, backend=b)),
        "node_connected_component":
            Call("G", lambda b: nx.node_connected_component(G, s, backend=b)),
        "number_connected_components":
            Call("G", lambda b: nx.number_connected_components(G, backend=b)),
        "number_strongly_connected_components":
            Call("D", lambda b: nx.number_strongly_connected_components(D, backend=b)),
        "number_weakly_connected_components":
            Call("D", lambda b: nx.number_weakly_connected_components(D, backend=b)),
        "strongly_connected_components":
            Call("D", lambda b: list(nx.strongly_connected_components(D, backend=b)),
                 by(unordered)),
        "weakly_connected_components":
            Call("D", lambda b: list(nx.weakly_connected_components(D, backend=b)),
                 by(unordered)),
        # link analysis
        "hits": Call("D", lambda b: nx.hits(D, backend=b)),
        "pagerank": Call("G", lambda b: nx.pagerank(G, backend=b)),
        # link prediction: ebunch=None scores every non-edge, all pairs
        "adamic_adar_index":
            Call("S", lambda b: list(nx.adamic_adar_index(S, backend=b)), by(scores)),
        "jaccard_coefficient":
            Call("S", lambda b: list(nx.jaccard_coefficient(S, backend=b)), by(scores)),
        "preferential_attachment":
            Call("S", lambda b: list(nx.preferential_attachment(S, backend=b)), by(scores)),
        "resource_allocation_index":
            Call("S", lambda b: list(nx.resource_allocation_index(S, backend=b)), by(scores)),
        # centrality
        "betweenness_centrality":
            Call("G", lambda b: nx.betweenness_centrality(G, k=args.bc_k, seed=1, backend=b)),
        "closeness_centrality": Call("S", lambda b: nx.closeness_centrality(S, backend=b)),
        "degree_centrality": Call("G", lambda b: nx.degree_centrality(G, backend=b)),
        "edge_betweenness_centrality":
            Call("G", lambda b: nx.edge_betweenness_centrality(G, k=args.bc_k, seed=1,
                                                               backend=b), by(edge_keys)),
        "eigenvector_centrality": Call("G", lambda b: nx.eigenvector_centrality(G, backend=b)),
        # NetworkX's raises AmbiguousSolution on a graph that is not connected
        "eigenvector_centrality_numpy":
            Call("C", lambda b: nx.eigenvector_centrality_numpy(C, backend=b)),
        "harmonic_centrality": Call("S", lambda b: nx.harmonic_centrality(S, backend=b)),
        "in_degree_centrality": Call("D", lambda b: nx.in_degree_centrality(D, backend=b)),
        "katz_centrality": Call("G", lambda b: nx.katz_centrality(G, alpha, backend=b)),
        # NetworkX solves a dense n x n system
        "katz_centrality_numpy":
            Call("S", lambda b: nx.katz_centrality_numpy(S, alpha_small, backend=b)),
        "out_degree_centrality": Call("D", lambda b: nx.out_degree_centrality(D, backend=b)),
        # clustering
        "average_clustering": Call("G", lambda b: nx.average_clustering(G, backend=b)),
        "clustering": Call("G", lambda b: nx.clustering(G, backend=b)),
        "generalized_degree": Call("G", lambda b: nx.generalized_degree(G, backend=b)),
        # NetworkX intersects two neighbourhoods for every pair two hops apart: 2e7 pairs at
        # scale 14, 1.6e8 at 16
        "square_clustering": Call("S", lambda b: nx.square_clustering(S, backend=b)),
        "transitivity": Call("G", lambda b: nx.transitivity(G, backend=b)),
        "triangles": Call("G", lambda b: nx.triangles(G, backend=b)),
        # cores
        "core_number": Call("G", lambda b: nx.core_number(G, backend=b)),
        "k_core": Call("G", lambda b: nx.k_core(G, backend=b), by(graph_form)),
        "k_corona": Call("G", lambda b: nx.k_corona(G, 5, backend=b), by(graph_form)),
        "k_crust": Call("G", lambda b: nx.k_crust(G, backend=b), by(graph_form)),
        "k_shell": Call("G", lambda b: nx.k_shell(G, backend=b), by(graph_form)),
        "k_truss": Call("G", lambda b: nx.k_truss(G, 5, backend=b), by(graph_form)),
        "onion_layers": Call("G", lambda b: nx.onion_layers(G, backend=b)),
        # structure
        "is_isolate": Call("G", lambda b: nx.is_isolate(G, t, backend=b)),
        "isolates": Call("G", lambda b: list(nx.isolates(G, backend=b))),
        "number_of_isolates": Call("G", lambda b: nx.number_of_isolates(G, backend=b)),
        "number_of_selfloops": Call("G", lambda b: nx.number_of_selfloops(G, backend=b)),
        "overall_reciprocity": Call("D", lambda b: nx.overall_reciprocity(D, backend=b)),
        # each node's; NetworkX raises for a node without edges
        "reciprocity": Call("D", lambda b: nx.reciprocity(D, active, backend=b)),
        # regularity
        "is_eulerian": Call("G", lambda b: nx.is_eulerian(G, backend=b)),
        "is_k_regular": Call("G", lambda b: nx.is_k_regular(G, 8, backend=b)),
        "is_regular": Call("G", lambda b: nx.is_regular(G, backend=b)),
        # cuts: the set is the first half of the nodes, T=None its complement
        "boundary_expansion": Call("G", lambda b: nx.boundary_expansion(G, half, backend=b)),
        "conductance": Call("G", lambda b: nx.conductance(G, half, backend=b)),
        "cut_size": Call("G", lambda b: nx.cut_size(G, half, backend=b)),
        "edge_expansion": Call("G", lambda b: nx.edge_expansion(G, half, backend=b)),
        "mixing_expansion": Call("G", lambda b: nx.mixing_expansion(G, half, backend=b)),
        "node_expansion": Call("G", lambda b: nx.node_expansion(G, half, backend=b)),
        "normalized_cut_size": Call("G", lambda b: nx.normalized_cut_size(G, half, backend=b)),
        "volume": Call("G", lambda b: nx.volume(G, half, backend=b)),
        # assortativity
        "average_degree_connectivity":
            Call("G", lambda b: nx.average_degree_connectivity(G, backend=b)),
        "average_neighbor_degree": Call("G", lambda b: nx.average_neighbor_degree(G, backend=b)),
        # bipartite
        "color": Call("B", lambda b: nx.bipartite.color(B, backend=b)),
        "is_bipartite": Call("B", lambda b: nx.is_bipartite(B, backend=b)),
        # sets: gblas2d declines a seed (NetworkX's answer for one is its own sequence of
        # random choices), so maximal_independent_set runs without, as its default
        "dominating_set": Call("G", lambda b: nx.dominating_set(G, backend=b),
                               lambda ref, found: nx.is_dominating_set(G, found), True),
        "is_dominating_set": Call("G", lambda b: nx.is_dominating_set(G, dominating, backend=b)),
        "maximal_independent_set":
            Call("G", lambda b: nx.maximal_independent_set(G, backend=b),
                 lambda ref, found: is_maximal_independent(G, found), True),
        # generators, sized like G: n nodes, or about m edges for the complete graph
        "circular_ladder_graph":
            Call("gen", lambda b: nx.circular_ladder_graph(n // 2, backend=b), by(graph_form)),
        "complete_graph": Call("gen", lambda b: nx.complete_graph(round((2 * m) ** 0.5),
                                                                backend=b), by(graph_form)),
        "cycle_graph": Call("gen", lambda b: nx.cycle_graph(n, backend=b), by(graph_form)),
        "empty_graph": Call("gen", lambda b: nx.empty_graph(n, backend=b), by(graph_form)),
        "grid_2d_graph":
            Call("gen", lambda b: nx.grid_2d_graph(rows, n // rows, backend=b), by(graph_form)),
        "ladder_graph": Call("gen", lambda b: nx.ladder_graph(n // 2, backend=b), by(graph_form)),
        "null_graph": Call("gen", lambda b: nx.null_graph(backend=b), by(graph_form)),
        "path_graph": Call("gen", lambda b: nx.path_graph(n, backend=b), by(graph_form)),
        "star_graph": Call("gen", lambda b: nx.star_graph(n - 1, backend=b), by(graph_form)),
        "trivial_graph": Call("gen", lambda b: nx.trivial_graph(backend=b), by(graph_form)),
        "wheel_graph": Call("gen", lambda b: nx.wheel_graph(n, backend=b), by(graph_form)),
    }


def as_networkx(result):
    """A backend's own graph as NetworkX's, converted by that backend; anything else as is."""
    backend = getattr(result, "__networkx_backend__", "networkx")
    if backend == "networkx":
        return result
    return nx.utils.backends.backends[backend].load().convert_to_nx(result)


def graph_form(result):
    """A graph as its nodes and edges, each edge a frozenset where the graph is undirected."""
    H = as_networkx(result)
    edge = tuple if H.is_directed() else frozenset
    return set(H), {edge(e) for e in H.edges()}


def layer_sets(layers):
    """BFS layers in order, each a set: NetworkX's order within a layer is its own."""
    return [set(layer) for layer in layers]


def unordered(parts):
    """A list of node sets whose order NetworkX does not define, as a set of sets."""
    return {frozenset(part) for part in parts}


def scores(triples):
    """Link prediction's (u, v, score) as {pair: score}: any order, either way round."""
    return {frozenset((u, v)): p for u, v, p in triples}


def edge_keys(values):
    """{edge: value} of an undirected graph, each edge either way round."""
    return {frozenset(e): value for e, value in values.items()}


def by(form):
    """Agreement of two results once both are put in ``form``."""
    return lambda reference, result: same(form(reference), form(result))


def same(a, b):
    """Whether two results agree: floats to 1e-6 (as NetworkX's own tests compare), mappings
    (graphblas-algorithms returns its own) by keys and values in any order, lists and tuples
    in order, anything else by ``==``."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) or isinstance(b, float):
        return bool(np.isclose(a, b, rtol=1e-6, atol=1e-9))
    return bool(a == b)


def is_shortest_path(G, path, source, target, length):
    """Whether ``path`` runs from ``source`` to ``target`` along edges of ``G`` in
    ``length`` nodes (NetworkX's path has that many; several paths may be shortest)."""
    return (len(path) == length and path[0] == source and path[-1] == target
            and all(G.has_edge(u, v) for u, v in zip(path, path[1:], strict=False)))


def is_maximal_independent(G, nodes):
    """Whether no edge of ``G`` joins two of ``nodes`` and every other node has a neighbour
    among them."""
    chosen = set(nodes)
    independent = all(chosen.isdisjoint(G[v]) for v in chosen)
    return independent and all(v in chosen or not chosen.isdisjoint(G[v]) for v in G)


def timed(run, repeat, barrier):
    """(first call's seconds, best of ``repeat`` later calls, the first call's result)."""
    barrier()
    start = time.perf_counter()
    result = run()
    first = time.perf_counter() - start
    best = np.inf
    for _ in range(repeat):
        barrier()
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return first, best, result


def measure(call, backend, graphs, repeat, comm):
    """Collective. ``call`` on ``backend``: a row cell and the result (None where it raised);
    the cell is None where the backend declines the call (NotImplementedError)."""
    # each function's first call converts its graph, as on a graph no call has converted yet
    for H in graphs.values():
        H.__networkx_cache__.clear()
    try:
        first, best, result = timed(lambda: call.run(backend), repeat, comm.barrier)
    except NotImplementedError:
        return None, None
    except Exception as exc:  # a failing function is a row of the table, not the run's end
        return {"error": f"{type(exc).__name__}: {exc}"}, None
    first, best = comm.allreduce(np.array([first, best]), "max").tolist()
    return {"first_s": first, "seconds": best}, result


def installed(package):
    """``package``'s version, or "not installed"."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def threads():
    """The threads each engine ran with."""
    return {"networkx": 1, "openblas": int(os.environ["OPENBLAS_NUM_THREADS"]),
            "graphblas": graphblas.ss.config["nthreads"],
            "gblas2d_per_rank": threads_per_rank()}


def main(argv=None):
    args = parse_args(argv)
    if args.markdown:
        write_markdown(args.scale, Path(args.markdown))
        return
    nx.config.warnings_to_ignore.add("cache")
    grid = gb.default_grid()
    comm = grid.comm
    G = graph(args.scale)
    graphs = variants(G, args.small)
    table = calls(graphs, args.scale, args)
    if missing := set(FUNCTIONS) - set(table):
        raise SystemExit(f"bench_networkx.py has no call for {sorted(missing)}, which gblas2d "
                         "dispatches: add one to calls()")
    if extra := set(table) - set(FUNCTIONS):
        raise SystemExit(f"bench_networkx.py calls {sorted(extra)}, which gblas2d does not "
                         "dispatch")
    backends = ["gblas2d"] if grid.nprocs > 1 else [None, "graphblas", "gblas2d"]
    # graphblas-algorithms runs the functions it dispatches, where it is installed
    graphblas_functions = nx.utils.backends.backend_info.get("graphblas", {}).get("functions", ())
    if grid.nprocs == 1:
        graphblas.ss.config["nthreads"] = 1
    rows = []
    for name in args.only or FUNCTIONS:
        call = table[name]
        row = {"call": name, "graph": call.graph,
               "compared": "valid" if call.checks_validity else "equal"}
        reference = None
        for backend in backends:
            label = LABELS[backend]
            if backend == "graphblas" and name not in graphblas_functions:
                row[label] = None
                continue
            row[label], result = measure(call, backend, graphs, args.repeat, comm)
            if backend is None:
                reference = result
            elif row[label] and "error" not in row[label] and reference is not None:
                row[label]["same"] = bool((call.agree or same)(reference, result))
        rows.append(row)
        if comm.rank == 0:
            print(f"{name:40s} {call.graph} {progress(row)}", flush=True)
    report = {"benchmark": "networkx dispatch", "ranks": grid.nprocs, "scale": args.scale,
              "nodes": G.number_of_nodes(), "edges": G.number_of_edges(),
              "small": args.small,
              "graphs": {k: [H.number_of_nodes(), H.number_of_edges()]
                         for k, H in graphs.items()},
              "repeat": args.repeat, "threads": threads(),
              "graphblas_algorithms": installed("graphblas-algorithms"),
              "networkx": nx.__version__, "python": platform.python_version(), "rows": rows}
    if comm.rank == 0:
        write_json(RESULTS / f"networkx_{grid.nprocs}ranks_scale{args.scale}.json", report)


def progress(row):
    """A row as one printed line: each engine's first and repeat call in ms."""
    cells = []
    for label in LABELS.values():
        if label not in row:
            continue
        cell = row[label]
        if cell is None:
            cells.append(f"{label} -")
        elif "error" in cell:
            cells.append(f"{label} {cell['error'].split(':')[0]}")
        else:
            mark = {True: "", False: " differs"}[cell.get("same", True)]
            cells.append(f"{label} {cell['first_s'] * 1e3:.1f}/{cell['seconds'] * 1e3:.1f} "
                         f"ms{mark}")
    return "  ".join(cells)


def seconds(cell, first=True):
    """A table cell: "first / repeat" seconds, the repeat alone, "-" (not run) or the error."""
    if cell is None:
        return "-"
    if "error" in cell:
        return cell["error"].split(":")[0]
    repeat = f"{cell['seconds']:.3g}"
    return f"{cell['first_s']:.3g} / {repeat}" if first else repeat


def write_markdown(scale, path):
    """The 1- and 2-rank results at ``scale`` as one markdown table in ``path``."""
    one, two = (json.loads((RESULTS / f"networkx_{p}ranks_scale{scale}.json").read_text())
                for p in (1, 2))
    at_two = {row["call"]: row for row in two["rows"]}
    t = one["threads"]
    lines = [
        f"R-MAT scale {scale}: {one['nodes']} nodes, {one['edges']} edges; seconds, the first "
        f"call (which converts the graph) / the best of {one['repeat']} later calls (NetworkX: "
        f"the best of those alone). Threads: NetworkX {t['networkx']} (OpenBLAS "
        f"{t['openblas']}), graphblas-algorithms SuiteSparse nthreads={t['graphblas']}, "
        f"gblas2d GBLAS2D_THREADS={t['gblas2d_per_rank']} a rank (2 ranks: "
        f"{two['threads']['gblas2d_per_rank']}). NetworkX {one['networkx']}, "
        f"graphblas-algorithms {one['graphblas_algorithms']}, Python {one['python']}.",
        "",
        "Graphs:",
        "",
        *(f"- {k}" + (" ({} nodes, {} edges)".format(*one["graphs"][k])
                      if k in one["graphs"] else "") + f": {what.format(small=one['small'])}"
          for k, what in GRAPHS.items()),
        "",
        "`same`: gblas2d's result (1 rank) equals NetworkX's, or is a valid answer (`valid`) "
        "where NetworkX's is one of several; (differs) marks a graphblas-algorithms result "
        "that does not; `-`: not dispatched there or declined; an exception's name where the "
        "call raised.",
        "",
        "| function | graph | NetworkX s | graphblas-algorithms s first / repeat | gblas2d 1 "
        "rank first / repeat | gblas2d 2 ranks first / repeat | same |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for row in one["rows"]:
        name = row["call"]
        ga = row.get("graphblas")
        differs = " (differs)" if ga and ga.get("same") is False else ""
        mine = row.get("gblas2d") or {}
        verdict = {"equal": ("yes", "no"), "valid": ("valid", "invalid")}[row["compared"]]
        agreed = "-" if "same" not in mine else verdict[0] if mine["same"] else verdict[1]
        lines.append(f"| `{name}` | {row['graph']} | {seconds(row['networkx'], False)} | "
                     f"{seconds(ga)}{differs} | {seconds(row['gblas2d'])} | "
                     f"{seconds(at_two.get(name, {}).get('gblas2d'))} | {agreed} |")
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
