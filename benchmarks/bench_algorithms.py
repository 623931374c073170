"""Graph algorithms on RMAT and Erdos-Renyi graphs: gblas2d beside SuiteSparse, scipy, networkx.

Run unchanged on one process or under ``mpiexec -n P``::

    python benchmarks/bench_algorithms.py --scale 18
    mpiexec -n 2 python benchmarks/bench_algorithms.py --scale 18
    python benchmarks/bench_algorithms.py --quick        # scale 12, repeat 1

Graphs, the same at any P: ``rmat(scale, 16, symmetric=True)`` (Graph 500) and
``erdos_renyi(n, m, symmetric=True)`` with the same n and the same number m of undirected edges
(nvals(RMAT) / 2). Each is drawn once with ``weights="uniform"`` (uniform on [0, 1)) and its
weights mapped to ``1 - w``, uniform on (0, 1], for SSSP; BFS, PageRank and connected components
run on its pattern (every entry 1.0).

Algorithms (``gblas2d.algorithms``): bfs_levels and bfs_parents, pagerank (graphalytics variant,
damping 0.85, stop when the L1 change < ``--tol``), connected_components with ``fastsv`` and
``label_propagation``, sssp with ``bellman_ford`` and ``delta_stepping`` (delta: the mean
weight). BFS and SSSP start from ``--roots`` random roots of degree >= 1, the same at any P.

Engines:

* ``gblas2d`` at the P of the run. A warm-up call under ``gb.recording()`` and ``gb.trace()``
  (bytes received per rank, the most over ranks; products per call, which give the
  iterations), then ``--repeat`` calls each started after a barrier and timed as the slowest
  rank; the best is reported. CPU seconds are summed over the ranks.
* ``graphblas`` / ``graphblas_1t``: the same algorithm code on python-graphblas objects, rank 0
  only while the other ranks sleep (a non-blocking barrier, so they take no core), with
  SuiteSparse's default thread count and with one thread.
* ``graphblas_algorithms`` (one thread): its BFS levels, BFS parents (the private
  ``_bfs._bfs_parent``), PageRank and Bellman-Ford. It has no component labelling.
* ``scipy``: ``scipy.sparse.csgraph`` breadth_first_order (for both BFS), connected_components,
  dijkstra (for both SSSP).
* ``networkx``: ``networkx.pagerank`` (scipy inside), on the main graphs when ``--nx-scale`` >=
  ``--scale``, else on graphs of scale ``--nx-scale`` where gblas2d's pagerank runs beside it.

Each peer is warmed up once and timed ``--repeat`` times, and its result is checked against
gblas2d's: levels, components and min-rule parents equal; scipy's parents (first found) give
the same tree depths; distances within a relative 1e-12; PageRank within an L1 distance of
2 d/(1-d) tol, the bound that stopping at tol leaves each result from the true ranks. A
mismatch is printed loudly and recorded in the JSON. gblas2d's parent trees also go through the
Graph 500 checks of ``validate_bfs_tree`` (untimed).

Per (graph, algorithm, engine): seconds (mean over roots of the best per root), CPU seconds,
the ratio gblas2d seconds / engine seconds, TEPS for BFS and SSSP (edges of the searched
component, i.e. the sum of its vertices' degrees / 2, over seconds; the harmonic mean over
roots, as Graph 500). Rank 0 prints a table and writes JSON to
``benchmarks/results/algorithms_<P>ranks_scale<S>.json`` (temporary file, then renamed).
"""

import argparse
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from _common import (
    idle_wait,
    peak_rss_mib,
    profile_one,
    slowest,
    time_collective,
    time_local,
    write_json,
)
from gblas2d.algorithms import (
    bfs_levels,
    bfs_parents,
    connected_components,
    pagerank,
    sssp,
    validate_bfs_tree,
)
from scipy.sparse import csgraph

import gblas2d as gb
from gblas2d.io.generators import erdos_renyi, rmat

ALGORITHMS = ("bfs_levels", "bfs_parents", "pagerank", "cc_fastsv", "cc_label_propagation",
              "sssp_bellman_ford", "sssp_delta_stepping")
ROOTED = {"bfs_levels", "bfs_parents", "sssp_bellman_ford", "sssp_delta_stepping"}
WEIGHTED = {"sssp_bellman_ford", "sssp_delta_stepping"}
# to_dense fill for the vertices a result leaves out (absent: every vertex has a value)
FILL = {"bfs_levels": -1, "bfs_parents": -1, "sssp_bellman_ford": np.inf,
        "sssp_delta_stepping": np.inf}
# products per call that are not iterations: pagerank's out-degree product
SETUP_PRODUCTS = {"pagerank": 1}
PEERS = ("graphblas", "graphblas_1t", "graphblas_algorithms", "scipy", "networkx")
DAMPING = 0.85
DISTANCE_RTOL = 1e-12


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scale", type=int, default=18)
    p.add_argument("--edge-factor", type=int, default=16)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--roots", type=int, default=4, help="BFS and SSSP roots per graph")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tol", type=float, default=1e-4, help="PageRank L1 stopping tolerance")
    p.add_argument("--nx-scale", type=int, default=16,
                   help="scale of networkx's PageRank graphs when below --scale")
    p.add_argument("--quick", action="store_true", help="scale 12, repeat 1")
    p.add_argument("--algorithms", default=",".join(ALGORITHMS),
                   help="comma-separated subset of " + ",".join(ALGORITHMS))
    p.add_argument("--no-peers", action="store_true", help="time gblas2d only")
    p.add_argument("--profile", choices=ALGORITHMS,
                   help="print rank 0's cProfile of one gblas2d call on the RMAT graph")
    p.add_argument("--output", default=None, help="JSON path (default benchmarks/results/"
                   "algorithms_<P>ranks_scale<S>.json)")
    args = p.parse_args(argv)
    if args.quick:
        args.scale, args.repeat = 12, 1
    args.algorithms = [a for a in args.algorithms.split(",") if a]
    unknown = set(args.algorithms) - set(ALGORITHMS)
    if unknown:
        p.error(f"unknown algorithms {sorted(unknown)}")
    return args


class Graph(NamedTuple):
    """One benchmark graph: what runs on it, and the data every rank holds for the peers."""

    name: str
    kind: str
    scale: int
    algorithms: list
    peers: list
    W: object        # gblas2d Matrix of weights in (0, 1]
    A: object        # its pattern, every entry 1.0
    coo: tuple       # (rows, cols, weights) of W, sorted by row then column
    degree: np.ndarray
    roots: list


class Run(NamedTuple):
    """A peer's algorithm: ``call(root)`` is timed; ``finish(raw, root)`` makes the numpy array
    compared with gblas2d's; ``agree`` overrides the algorithm's comparison."""

    call: Callable
    finish: Callable
    agree: Callable = None


def algorithm_calls(tol):
    """name -> f(M, root): the gblas2d.algorithms code, run on either engine's Matrix."""
    return {
        "bfs_levels": bfs_levels,
        "bfs_parents": bfs_parents,
        "pagerank": lambda M, _: pagerank(M, DAMPING, tol),
        "cc_fastsv": lambda M, _: connected_components(M, "fastsv"),
        "cc_label_propagation": lambda M, _: connected_components(M, "label_propagation"),
        "sssp_bellman_ford": lambda M, s: sssp(M, s, "bellman_ford"),
        "sssp_delta_stepping": lambda M, s: sssp(M, s, "delta_stepping"),
    }


# ---- comparisons: (mine, theirs) numpy arrays -> (agrees, details) ----

def same_values(mine, theirs):
    wrong = np.flatnonzero(mine != theirs)
    detail = {"differing": int(wrong.size)}
    if wrong.size:
        v = int(wrong[0])
        detail.update(first_vertex=v, gblas2d=mine[v].item(), peer=theirs[v].item())
    return not wrong.size, detail


def close_distances(mine, theirs):
    reached = np.isfinite(mine)
    apart = int(np.count_nonzero(reached != np.isfinite(theirs)))
    rel = float(np.max(np.abs(mine[reached] - theirs[reached]) / np.maximum(mine[reached], 1e-300),
                       initial=0.0)) if not apart else None
    return not apart and rel <= DISTANCE_RTOL, {"reached_differ": apart, "max_rel_diff": rel}


def close_ranks(tol):
    # a damping-d contraction stopped at an L1 step below tol lies within d/(1-d) tol of the
    # true ranks; two such results lie within twice that of each other
    bound = 2 * DAMPING / (1 - DAMPING) * tol

    def agree(mine, theirs):
        diff = np.abs(mine - theirs)
        return float(diff.sum()) <= bound, {"l1_diff": float(diff.sum()),
                                            "max_abs_diff": float(diff.max(initial=0.0)),
                                            "l1_bound": bound}
    return agree


def tree_depth(parents):
    """Depth of every vertex in the tree ``parents`` (the root its own parent, -1 outside it);
    -1 for vertices outside the tree or on a cycle."""
    depth = np.where(parents == np.arange(len(parents)), 0, -1)
    todo = np.flatnonzero((parents >= 0) & (depth < 0))
    while todo.size:
        ready = depth[parents[todo]] >= 0
        if not ready.any():
            break
        depth[todo[ready]] = depth[parents[todo[ready]]] + 1
        todo = todo[~ready]
    return depth


def same_tree_depth(mine, theirs):
    return same_values(tree_depth(mine), tree_depth(theirs))


def default_agree(name, tol):
    if name == "pagerank":
        return close_ranks(tol)
    return close_distances if name in WEIGHTED else same_values


# ---- graphs ----

def build_graph(comm, name, kind, scale, args, nedges, algorithms, peers):
    """Collective. The graph, its COO and degrees on every rank, and its roots."""
    comm.barrier()
    start = time.perf_counter()
    if kind == "rmat":
        raw = rmat(scale, args.edge_factor, seed=args.seed, symmetric=True, weights="uniform")
    else:
        raw = erdos_renyi(1 << scale, nedges, seed=args.seed, symmetric=True, weights="uniform")
    # 1 - w maps the generators' [0, 1) onto (0, 1]: no zero-weight edge
    W = raw.apply(gb.binary.minus, left=1.0).new()
    A = W.apply(gb.unary.one).new()
    build = slowest(comm, time.perf_counter() - start)
    del raw
    # every rank receives the whole graph; only rank 0 uses it for the peers
    rows, cols, weights = W.to_coo()
    rows, cols = rows.astype(np.int64), cols.astype(np.int64)
    degree = np.bincount(rows, minlength=W.nrows)
    rng = np.random.default_rng([args.seed, 3])
    roots = sorted(int(r) for r in rng.choice(np.flatnonzero(degree), args.roots, replace=False))
    graph = Graph(name, kind, scale, algorithms, peers, W, A, (rows, cols, weights), degree,
                  roots if ROOTED & set(algorithms) else [])
    return graph, build


def graph_plan(args):
    """(name, kind, scale, algorithms, peers) of every graph, RMAT before ER of its scale."""
    peers = [] if args.no_peers else [p for p in PEERS if p != "networkx"]
    nx_scale = min(args.nx_scale, args.scale)
    if nx_scale == args.scale and not args.no_peers:
        peers.append("networkx")
    plan = [(f"{kind}_s{args.scale}", kind, args.scale, args.algorithms, peers)
            for kind in ("rmat", "erdos_renyi")]
    if nx_scale < args.scale and "pagerank" in args.algorithms and not args.no_peers:
        plan += [(f"{kind}_s{nx_scale}", kind, nx_scale, ["pagerank"], ["networkx"])
                 for kind in ("rmat", "erdos_renyi")]
    return plan


# ---- gblas2d side (collective) ----

def time_gblas2d(comm, run, repeat):
    """Collective. A warm-up call under recording and trace, then ``repeat`` timed calls."""
    comm.barrier()
    with gb.recording() as rec, gb.trace() as events:
        start = time.perf_counter()
        result = run()
        warm = time.perf_counter() - start
    received, sent = comm.allreduce(np.array([rec.bytes(), rec.bytes(direction="sent")],
                                             dtype=np.int64), "max")
    times, cpu_max, cpu_sum = time_collective(comm, run, repeat)
    return {
        "seconds": min(times), "seconds_all": times, "warmup_seconds": slowest(comm, warm),
        "cpu_seconds": min(cpu_sum), "cpu_seconds_busiest_rank": min(cpu_max),
        "bytes_received_max": int(received), "bytes_sent_max": int(sent),
        "products": len(events),
        # rank 0's share of the warm-up spent in mxv/vxm/mxm (the rest: element-wise work)
        "product_share_warmup": sum(e["seconds"] for e in events) / warm,
    }, result


def gblas2d_side(comm, graph, calls, repeat):
    """Collective. Figures per algorithm (a list over roots); rank 0 also gets the dense
    results, keyed by (algorithm, root)."""
    figures, dense = {}, {}
    for name in graph.algorithms:
        M = graph.W if name in WEIGHTED else graph.A
        figures[name] = []
        for root in graph.roots if name in ROOTED else [None]:
            fig, result = time_gblas2d(comm, partial(calls[name], M, root), repeat)
            fig["root"] = root
            fig["iterations"] = fig["products"] - SETUP_PRODUCTS.get(name, 0)
            values = result.to_dense(fill_value=FILL.get(name))
            if name == "bfs_parents":
                fig["graph500_failures"] = list(validate_bfs_tree(graph.A, root, result).failures)
            if comm.rank == 0:
                dense[name, root] = values
                print(f"  {graph.name} {name} root={root} gblas2d {fig['seconds']:.4f} s",
                      flush=True)
            figures[name].append(fig)
    return figures, dense


# ---- peers (rank 0 only) ----

def vector_dense(fill):
    return lambda v, _: v.to_dense(fill_value=fill)


def smallest_label(labels):
    """Relabel components by their smallest vertex id (gblas2d's labels)."""
    first = np.full(labels.max(initial=0) + 1, len(labels), dtype=np.int64)
    np.minimum.at(first, labels, np.arange(len(labels)))
    return first[labels]


def scipy_parents(pred, root):
    parents = pred.astype(np.int64)
    parents[parents < 0] = -1
    parents[root] = root
    return parents


def scipy_runs(graph, n):
    _, cols, weights = graph.coo
    indptr = np.concatenate([[0], np.cumsum(graph.degree)])
    A = sp.csr_array((np.ones(len(cols)), cols, indptr), shape=(n, n))
    W = sp.csr_array((weights, cols, indptr), shape=(n, n))

    def bfs(s):
        return csgraph.breadth_first_order(A, s, directed=True, return_predecessors=True)[1]

    def components(_):
        return csgraph.connected_components(A, directed=False)[1]

    def dijkstra(s):
        return csgraph.dijkstra(W, directed=True, indices=s)

    return {
        "bfs_levels": Run(bfs, lambda pred, s: tree_depth(scipy_parents(pred, s))),
        "bfs_parents": Run(bfs, scipy_parents, same_tree_depth),
        "cc_fastsv": Run(components, lambda labels, _: smallest_label(labels)),
        "cc_label_propagation": Run(components, lambda labels, _: smallest_label(labels)),
        "sssp_bellman_ford": Run(dijkstra, lambda d, _: d),
        "sssp_delta_stepping": Run(dijkstra, lambda d, _: d),
    }


def graphblas_algorithms_runs(grb_A, grb_W, tol, notes):
    try:
        import graphblas_algorithms as ga
        from graphblas_algorithms.algorithms._bfs import _bfs_parent
    except ImportError as exc:
        notes.append(f"graphblas-algorithms not importable ({exc}): skipped")
        return None
    GA, GW = ga.Graph(grb_A), ga.Graph(grb_W)
    n = grb_A.nrows
    return {
        "bfs_levels": Run(partial(ga.single_source_shortest_path_length, GA), vector_dense(-1)),
        "bfs_parents": Run(partial(_bfs_parent, GA), vector_dense(-1)),
        # it stops when the L1 change < n * tol
        "pagerank": Run(lambda _: ga.pagerank(GA, DAMPING, tol=tol / n), vector_dense(None)),
        "sssp_bellman_ford": Run(partial(ga.single_source_bellman_ford_path_length, GW),
                                 vector_dense(np.inf)),
    }


def networkx_runs(graph, n, tol):
    import networkx as nx

    rows, cols, _ = graph.coo
    G = nx.from_scipy_sparse_array(sp.csr_array((np.ones(len(cols)), (rows, cols)),
                                                shape=(n, n)))

    def ranks(pr, _):
        return np.fromiter((pr[v] for v in range(n)), np.float64, n)

    # networkx stops when the L1 change < n * tol
    return {"pagerank": Run(lambda _: nx.pagerank(G, DAMPING, tol=tol / n, backend="networkx"),
                            ranks)}


def peer_engines(graph, calls, tol, notes):
    """Yield (engine, {algorithm: Run}) for each peer of ``graph``, after setting SuiteSparse's
    thread count for it (restored to the default after the SuiteSparse engines)."""
    n = graph.W.nrows
    if "graphblas" in graph.peers:
        import graphblas as grb

        rows, cols, weights = graph.coo
        A = grb.Matrix.from_coo(rows, cols, 1.0, nrows=n, ncols=n)
        W = grb.Matrix.from_coo(rows, cols, weights, nrows=n, ncols=n)
        same_code = {name: Run(partial(calls[name], W if name in WEIGHTED else A),
                               vector_dense(FILL.get(name))) for name in ALGORITHMS}
        default = grb.ss.config["nthreads"]
        # Under mpiexec gblas2d lowers the global count to each rank's share; the peer runs on
        # rank 0 alone, with every core.
        grb.ss.config["nthreads"] = len(os.sched_getaffinity(0))
        yield "graphblas", same_code
        grb.ss.config["nthreads"] = 1
        yield "graphblas_1t", same_code
        runs = graphblas_algorithms_runs(A, W, tol, notes)
        if runs is not None:
            yield "graphblas_algorithms", runs
        grb.ss.config["nthreads"] = default
    if "scipy" in graph.peers:
        yield "scipy", scipy_runs(graph, n)
    if "networkx" in graph.peers:
        try:
            yield "networkx", networkx_runs(graph, n, tol)
        except ImportError as exc:
            notes.append(f"networkx not importable ({exc}): skipped")


def peer_side(graph, calls, args, mine, notes, mismatches):
    """Time every peer of ``graph`` on this process and check it against gblas2d's results
    ``mine``. Returns engine -> algorithm -> figures per root."""
    out = {}
    for engine, runs in peer_engines(graph, calls, args.tol, notes):
        for name in graph.algorithms:
            if name not in runs:
                continue
            run = runs[name]
            agree = run.agree or default_agree(name, args.tol)
            figures = []
            for root in graph.roots if name in ROOTED else [None]:
                best, times, cpu, raw = time_local(partial(run.call, root), args.repeat)
                ok, detail = agree(mine[name, root], run.finish(raw, root))
                figures.append({"root": root, "seconds": best, "seconds_all": times,
                                "cpu_seconds": cpu, "agrees": bool(ok), "check": detail})
                if not ok:
                    mismatch = {"graph": graph.name, "algorithm": name, "engine": engine,
                                "root": root, **detail}
                    mismatches.append(mismatch)
                    print(f"!!! MISMATCH {mismatch}", flush=True)
                    print(f"!!! MISMATCH {mismatch}", file=sys.stderr, flush=True)
            print(f"  {graph.name} {name} {engine} {np.mean([f['seconds'] for f in figures]):.4f}"
                  f" s", flush=True)
            out.setdefault(engine, {})[name] = figures
    return out


# ---- report ----

def summarize(figures, edges):
    """Mean seconds and CPU over roots, TEPS as the harmonic mean over roots."""
    out = {"seconds": float(np.mean([f["seconds"] for f in figures])),
           "cpu_seconds": float(np.mean([f["cpu_seconds"] for f in figures])),
           "per_root": figures}
    if edges is not None:
        seconds_per_edge = [f["seconds"] / e for f, e in zip(figures, edges, strict=True)]
        out["teps"] = len(figures) / sum(seconds_per_edge)
    return out


def graph_report(graph, build, load, gfig, peers, mine):
    n = graph.W.nrows
    edges = None
    if graph.roots and "bfs_levels" in graph.algorithms:
        edges = [int(graph.degree[mine["bfs_levels", r] >= 0].sum()) // 2 for r in graph.roots]
    algs = {}
    for name in graph.algorithms:
        rooted_edges = edges if name in ROOTED else None
        g = summarize(gfig[name], rooted_edges)
        g["bytes_received_max"] = float(np.mean([f["bytes_received_max"] for f in gfig[name]]))
        g["iterations"] = [f["iterations"] for f in gfig[name]]
        g["product_share_warmup"] = float(np.mean([f["product_share_warmup"]
                                                   for f in gfig[name]]))
        if name == "bfs_parents":
            g["graph500_valid"] = not any(f["graph500_failures"] for f in gfig[name])
        engines = {"gblas2d": g}
        for engine, by_alg in peers.items():
            if name in by_alg:
                e = summarize(by_alg[name], rooted_edges)
                e["ratio"] = g["seconds"] / e["seconds"]
                e["agrees"] = all(f["agrees"] for f in by_alg[name])
                engines[engine] = e
        algs[name] = engines
    return {"kind": graph.kind, "scale": graph.scale, "n": n, "nvals": graph.W.nvals,
            "undirected_edges": graph.W.nvals // 2, "build_seconds": build,
            # other processes on the machine skew the figures: how busy it was at the start
            "loadavg_at_start": load,
            "roots": graph.roots, "component_edges": edges, "algorithms": algs}


def table(report):
    lines = [f"P={report['nprocs']} grid={report['grid']} repeat={report['repeat']} "
             f"tol={report['tol']} peak RSS/rank {report['peak_rss_mib']:.0f} MiB"]

    def fmt(value, spec, width):
        return f"{value:>{width}{spec}}" if value is not None else f"{'-':>{width}}"

    for gname, g in report["graphs"].items():
        lines += ["", f"{gname}: n={g['n']:,} nvals={g['nvals']:,} build {g['build_seconds']:.2f}"
                  f" s roots={g['roots']} load {g['loadavg_at_start'][0]:.2f}",
                  f"{'algorithm':<22}{'engine':<22}{'seconds':>10}{'CPU s':>10}{'gblas2d/x':>10}"
                  f"{'TEPS':>10}{'recv MiB':>10}{'iters':>8}{'prod %':>7}  agrees"]
        for name, engines in g["algorithms"].items():
            for k, (engine, e) in enumerate(engines.items()):
                iters = e.get("iterations")
                iters = None if iters is None else (
                    f"{min(iters)}" if min(iters) == max(iters) else f"{min(iters)}-{max(iters)}")
                recv = e.get("bytes_received_max")
                share = e.get("product_share_warmup")
                agrees = e.get("agrees", e.get("graph500_valid"))
                agrees = "" if agrees is None else ("yes" if agrees else "NO  <<<<<<")
                lines.append(
                    f"{name if k == 0 else '':<22}{engine:<22}{e['seconds']:>10.4f}"
                    f"{e['cpu_seconds']:>10.4f}{fmt(e.get('ratio'), '.2f', 10)}"
                    f"{fmt(e.get('teps'), '.3g', 10)}"
                    f"{fmt(None if recv is None else recv / 2**20, '.2f', 10)}"
                    f"{fmt(iters, '', 8)}{fmt(None if share is None else 100 * share, '.0f', 7)}"
                    f"  {agrees}")
    if report["notes"]:
        lines += ["", *(f"note: {note}" for note in report["notes"])]
    if report["mismatches"]:
        lines += ["", f"!!! {len(report['mismatches'])} MISMATCHES (see 'mismatches' in the "
                  "JSON):", *(f"!!! {m}" for m in report["mismatches"])]
    return "\n".join(lines)


def versions():
    out = {"python": platform.python_version(), "numpy": np.__version__}
    for module in ("scipy", "graphblas", "graphblas_algorithms", "networkx", "mpi4py"):
        try:
            out[module] = __import__(module).__version__
        except ImportError:
            out[module] = None
    if out["graphblas"] is not None:
        import graphblas

        out["suitesparse_graphblas_default_nthreads"] = graphblas.ss.config["nthreads"]
    return out


def source_state():
    """The commit and the files changed since it, as figures depend on the engine's code."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, check=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain"], cwd=root,
                                 capture_output=True, text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return None
    return {"commit": commit, "changed": [line[3:] for line in changed]}


def main(argv=None):
    args = parse_args(argv)
    grid = gb.default_grid()
    comm = grid.comm
    calls = algorithm_calls(args.tol)
    notes, mismatches, graphs = [], [], {}
    if not args.no_peers:
        notes.append("graphblas-algorithms has no component labelling (only is_connected and "
                     "node_connected_component) and no delta-stepping: compared on BFS, "
                     "PageRank and Bellman-Ford only")
    load_before = os.getloadavg()
    undirected = {}
    for name, kind, scale, algorithms, peers in graph_plan(args):
        load = os.getloadavg()
        graph, build = build_graph(comm, name, kind, scale, args, undirected.get(scale),
                                   algorithms, peers)
        undirected.setdefault(scale, graph.W.nvals // 2)
        if comm.rank == 0:
            print(f"{name}: n={graph.W.nrows} nvals={graph.W.nvals} build {build:.2f} s",
                  flush=True)
        gfig, mine = gblas2d_side(comm, graph, calls, args.repeat)
        if args.profile in algorithms and kind == "rmat" and scale == args.scale:
            M = graph.W if args.profile in WEIGHTED else graph.A
            profile_one(comm, partial(calls[args.profile], M, graph.roots[0] if graph.roots
                                      else None), top=30)
        peer_figures, failure = {}, None
        if comm.rank == 0 and peers:
            try:
                peer_figures = peer_side(graph, calls, args, mine, notes, mismatches)
            except Exception as exc:  # re-raised after the barrier, so no rank is left waiting
                failure = exc
        idle_wait(comm)
        comm.settle(failure)
        if comm.rank == 0:
            graphs[name] = graph_report(graph, build, load, gfig, peer_figures, mine)
        del graph, mine
    report = {
        "benchmark": "algorithms", "nprocs": grid.nprocs, "grid": f"{grid.nrows}x{grid.ncols}",
        "scale": args.scale, "edge_factor": args.edge_factor, "seed": args.seed,
        "repeat": args.repeat, "roots": args.roots, "tol": args.tol, "damping": DAMPING,
        "nx_scale": min(args.nx_scale, args.scale),
        "weights": "1 - w, w uniform on [0, 1) from the generator: uniform on (0, 1]",
        "teps_edges": "sum of the degrees of the vertices the BFS reaches, / 2",
        "graphs": graphs, "notes": list(dict.fromkeys(notes)), "mismatches": mismatches,
        "peak_rss_mib": float(comm.allreduce(np.array([peak_rss_mib()]), "max")[0]),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "loadavg_before": load_before, "loadavg_after": os.getloadavg()},
        "versions": versions(), "source": source_state(),
    }
    if comm.rank == 0:
        print(table(report))
        path = Path(args.output or Path(__file__).resolve().parent / "results" /
                    f"algorithms_{grid.nprocs}ranks_scale{args.scale}.json")
        write_json(path, report)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
