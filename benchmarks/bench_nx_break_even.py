"""Where the NetworkX backend starts to gain: NetworkX against ``backend="gblas2d"`` on R-MAT
graphs from a few dozen to thousands of edges, one process, one thread.

    python benchmarks/bench_nx_break_even.py --scales 4 6 8 10 12 14

For each graph and function: NetworkX's time, and gblas2d's first call (the conversion of the
graph included, as an automatic dispatch pays it once per graph) and repeat call (the
conversion cached on the graph), each the best of ``--repeat``. ``should_run``
(gblas2d/nx/backend.py) declines the graphs below the smallest edge count from which every
function's repeat call wins. Writes ``benchmarks/results/nx_break_even.json``.
"""

import argparse
import os
import time
from pathlib import Path

import networkx as nx
from _common import write_json
from bench_networkx import graph

RESULTS = Path(__file__).resolve().parent / "results"

CALLS = {
    "pagerank": lambda G, s, b: nx.pagerank(G, backend=b),
    "number_connected_components":
        lambda G, s, b: nx.number_connected_components(G, backend=b),
    "single_source_shortest_path_length":
        lambda G, s, b: nx.single_source_shortest_path_length(G, s, backend=b),
    "triangles": lambda G, s, b: nx.triangles(G, backend=b),
    "average_clustering": lambda G, s, b: nx.average_clustering(G, backend=b),
}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scales", type=int, nargs="+", default=[4, 6, 8, 9, 10, 11, 12, 13, 14])
    p.add_argument("--repeat", type=int, default=5)
    return p.parse_args(argv)


def best(run, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(G, source, call, repeat):
    """NetworkX's seconds, and gblas2d's first (conversion included) and repeat calls."""
    networkx_s = best(lambda: call(G, source, None), repeat)

    def first():
        # a fresh copy: nothing converted is cached on it yet
        H = G.copy()
        start = time.perf_counter()
        call(H, source, "gblas2d")
        return time.perf_counter() - start

    first_s = min(first() for _ in range(repeat))
    call(G, source, "gblas2d")
    return networkx_s, first_s, best(lambda: call(G, source, "gblas2d"), repeat)


def main(argv=None):
    args = parse_args(argv)
    nx.config.warnings_to_ignore.add("cache")
    rows = []
    for scale in args.scales:
        G = graph(scale)
        source = max(G.degree, key=lambda item: item[1])[0]
        for name, call in CALLS.items():
            networkx_s, first_s, repeat_s = measure(G, source, call, args.repeat)
            rows.append({"scale": scale, "nodes": G.number_of_nodes(),
                         "edges": G.number_of_edges(), "call": name, "networkx_s": networkx_s,
                         "gblas2d_first_s": first_s, "gblas2d_repeat_s": repeat_s})
            print(f"{scale:>3} {G.number_of_edges():>8} {name:<22} nx {networkx_s * 1e3:9.3f} ms"
                  f"   gblas2d first {first_s * 1e3:9.3f} ms  repeat {repeat_s * 1e3:9.3f} ms",
                  flush=True)
    edges = sorted({r["edges"] for r in rows})

    def wins(key, call):
        """The smallest edge count from which gblas2d's ``key`` beats NetworkX's time for
        ``call`` on every larger graph, or None."""
        mine = [r for r in rows if r["call"] == call]
        for m in edges:
            if all(r[key] <= r["networkx_s"] for r in mine if r["edges"] >= m):
                return m
        return None

    report = {"threads": {"gblas2d": os.environ.get("GBLAS2D_THREADS", "default"),
                          "networkx": 1},
              "rows": rows,
              "break_even_edges": {call: {"repeat": wins("gblas2d_repeat_s", call),
                                          "first": wins("gblas2d_first_s", call)}
                                   for call in CALLS}}
    for call, found in report["break_even_edges"].items():
        print(f"break-even edges, {call}: repeat {found['repeat']}, first {found['first']}")
    write_json(RESULTS / "nx_break_even.json", report)


if __name__ == "__main__":
    main()
