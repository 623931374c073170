"""NetworkX calls dispatched to gblas2d beside NetworkX itself and graphblas-algorithms.

Run on one process, then under ``mpiexec -n P`` for gblas2d at P ranks::

    python benchmarks/bench_networkx.py --scale 14
    mpiexec -n 2 python benchmarks/bench_networkx.py --scale 14

The graph is ``rmat(scale, 8, symmetric=True)`` as an undirected NetworkX graph, built the
same on every rank. Each call runs as a NetworkX user writes it, ``nx.pagerank(G,
backend=...)``: a first call converts G and NetworkX caches the conversion on it
(``cache_converted_graphs``); the time is the best of ``--repeat`` calls after that one, and
``convert_s`` is the first call's extra time. NetworkX and graphblas-algorithms (backend
``graphblas``, SuiteSparse at one thread) run on one process only; under mpiexec only gblas2d
runs, on every rank. Results are compared with NetworkX's (``same``). Rank 0 prints a table
and writes ``benchmarks/results/networkx_<P>ranks_scale<S>.json``.
"""

import argparse
import platform
import time
from pathlib import Path

import networkx as nx
import numpy as np
from _common import write_json

import gblas2d as gb

RESULTS = Path(__file__).resolve().parent / "results"


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", type=int, default=14)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--bc-k", type=int, default=32, help="betweenness: sampled sources")
    p.add_argument("--only", nargs="+", help="run these calls only")
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


def calls(G, args):
    source = max(G.degree, key=lambda item: item[1])[0]
    return {
        "pagerank": lambda b: nx.pagerank(G, backend=b),
        "number_connected_components": lambda b: nx.number_connected_components(G, backend=b),
        "single_source_shortest_path_length":
            lambda b: nx.single_source_shortest_path_length(G, source, backend=b),
        "bfs_layers": lambda b: [sorted(layer) for layer in nx.bfs_layers(G, source, backend=b)],
        "betweenness_centrality":
            lambda b: nx.betweenness_centrality(G, k=args.bc_k, seed=1, backend=b),
        "triangles": lambda b: nx.triangles(G, backend=b),
        "average_clustering": lambda b: nx.average_clustering(G, backend=b),
        "transitivity": lambda b: nx.transitivity(G, backend=b),
        "k_truss": lambda b: sorted(as_networkx(nx.k_truss(G, 5, backend=b)).edges()),
        "degree_centrality": lambda b: nx.degree_centrality(G, backend=b),
    }


def as_networkx(graph):
    """graphblas-algorithms returns a graph of its own type, which converts."""
    return graph.to_networkx() if hasattr(graph, "to_networkx") else graph


def same(a, b):
    """Whether two results agree (floats to 1e-6, as NetworkX's own tests compare)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.isclose(a[k], b[k], rtol=1e-6, atol=1e-9)
                                            for k in a)
    if isinstance(a, float):
        return bool(np.isclose(a, b, rtol=1e-6))
    return a == b


def timed(run, repeat, barrier):
    """(first call's seconds, best of ``repeat`` later calls, the result)."""
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


def main(argv=None):
    args = parse_args(argv)
    nx.config.warnings_to_ignore.add("cache")
    grid = gb.default_grid()
    comm = grid.comm
    G = graph(args.scale)
    backends = ["gblas2d"] if grid.nprocs > 1 else [None, "graphblas", "gblas2d"]
    if grid.nprocs == 1:
        import graphblas

        graphblas.ss.config["nthreads"] = 1
    rows = []
    for name, run in calls(G, args).items():
        if args.only and name not in args.only:
            continue
        row, reference = {"call": name}, None
        for backend in backends:
            label = backend or "networkx"
            try:
                first, best, result = timed(lambda b=backend, r=run: r(b), args.repeat,
                                            comm.barrier)
            except NotImplementedError:
                row[label] = None
                continue
            best = float(comm.allreduce(np.array([best]), "max")[0])
            row[label] = {"seconds": best, "convert_s": max(first - best, 0.0)}
            if backend is None:
                reference = result
            elif reference is not None:
                row[label]["same"] = bool(same(reference, result))
        rows.append(row)
        if comm.rank == 0:
            cells = "  ".join(
                f"{k} {v['seconds'] * 1e3:8.1f} ms (first "
                f"{(v['seconds'] + v['convert_s']) * 1e3:.1f})" if v else f"{k} -"
                for k, v in row.items() if k != "call")
            print(f"{name:36s} {cells}", flush=True)
    report = {"benchmark": "networkx dispatch", "ranks": grid.nprocs, "scale": args.scale,
              "nodes": G.number_of_nodes(), "edges": G.number_of_edges(),
              "repeat": args.repeat, "networkx": nx.__version__,
              "python": platform.python_version(), "rows": rows}
    if comm.rank == 0:
        write_json(RESULTS / f"networkx_{grid.nprocs}ranks_scale{args.scale}.json", report)


if __name__ == "__main__":
    main()
