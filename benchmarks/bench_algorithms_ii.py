"""Algorithms II on an RMAT graph: fused versus unfused probabilistic BFS, influence
maximization, matching, label propagation and betweenness, beside python-graphblas and networkx.

Run unchanged on one process or under ``mpiexec -n P``::

    python benchmarks/bench_algorithms_ii.py --scale 14
    mpiexec -n 2 python benchmarks/bench_algorithms_ii.py --scale 14
    python benchmarks/bench_algorithms_ii.py --quick          # scale 10, few colors

The graph is ``rmat(scale, 16, symmetric=True)``, the same at any P; matching reads it with
weights uniform on [0, 1) (symmetrized with max), everything else its pattern.

* ``fused_bpt``: for each color count (``--colors``, 64 to 1024 by default) one traversal from
  random sources at edge probability ``--probability``. Edge visits of the fused run and of the
  unfused one (each color alone) come from the fused run's counts; the unfused baseline
  (``fused=False``: one frontier column per color, one product per level, the same samples)
  is also timed up to ``--unfused-max`` colors.
* ``influence_maximization``: ``--seeds`` seeds from ``--samples`` RRR sets.
* ``bfs_levels`` from a batch of ``--bc-sources`` sources with edges (one n x k frontier), on
  the R-MAT graph and on a 2D mesh of ``--mesh`` rows and columns: gblas2d, then the same code
  on python-graphblas objects with one SuiteSparse thread.
* ``max_weight_matching``, ``label_propagation`` (``--cdlp-iter`` iterations) and
  ``betweenness_centrality`` (a batch of ``--bc-sources`` sources): gblas2d, then the same code
  on python-graphblas objects with one SuiteSparse thread (rank 0 alone, the others sleep),
  and networkx (on a graph of scale ``--nx-scale``, with gblas2d timed again beside it):
  the exact ``max_weight_matching`` (its weight gives the approximation ratio),
  ``label_propagation_communities`` (semi-synchronous, other semantics: a time reference
  only) and ``betweenness_centrality_subset`` from the same sources.

Every time is the best of ``--repeat`` calls after a warm-up, each started after a barrier and
taken as the slowest rank. Rank 0 prints a table and writes
``benchmarks/results/algorithms_ii_<P>ranks_scale<S>.json``.
"""

import argparse
import os
import platform
import sys
from pathlib import Path

import numpy as np
from _common import idle_wait, time_collective, time_local, write_json
from gblas2d.algorithms import (
    betweenness_centrality,
    bfs_levels,
    fused_bpt,
    influence_maximization,
    label_propagation,
    max_weight_matching,
)

import gblas2d as gb

RESULTS = Path(__file__).resolve().parent / "results"


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", type=int, default=14)
    p.add_argument("--colors", type=int, nargs="+", default=[64, 128, 256, 512, 1024])
    p.add_argument("--probability", type=float, default=0.05)
    p.add_argument("--unfused-max", type=int, default=256)
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--samples", type=int, default=1024)
    p.add_argument("--cdlp-iter", type=int, default=10)
    p.add_argument("--bc-sources", type=int, default=64,
                   help="sources of the betweenness batch and of the multi-source BFS")
    p.add_argument("--mesh", type=int, nargs=2, default=[100, 200],
                   help="rows and columns of the 2D mesh of the multi-source BFS")
    p.add_argument("--nx-scale", type=int, default=10)
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="scale 10, colors 64 and 128, repeat 1")
    p.add_argument("--output", type=Path)
    args = p.parse_args(argv)
    if args.quick:
        args.scale, args.colors, args.repeat, args.nx_scale = 10, [64, 128], 1, 8
    return args


def best_time(comm, run, repeat):
    """Collective. Warm-up call (its result returned), then the best of ``repeat`` timed calls."""
    result = run()
    return min(time_collective(comm, run, repeat)[0]), result


def on_rank0(comm, run):
    """Collective. ``run()`` on rank 0 while the other ranks sleep; its result on rank 0."""
    result = run() if comm.rank == 0 else None
    idle_wait(comm)
    return result


def _best_of(run, repeat):
    """(best seconds, result) of ``repeat`` timed calls after a warm-up, in this process."""
    best, _, _, result = time_local(run, repeat)
    return best, result


def graphs(scale, seed):
    """The pattern graph and the weighted one (uniform weights, max-symmetrized)."""
    A = gb.generators.rmat(scale, 16, symmetric=True, seed=seed)
    W = gb.generators.rmat(scale, 16, symmetric=True, seed=seed, weights="uniform")
    return A, W


def bpt_rows(comm, A, args):
    rng = np.random.default_rng(args.seed)
    rows = []
    for k in args.colors:
        sources = rng.integers(0, A.nrows, k).tolist()
        t_fused, r = best_time(
            comm, lambda s=sources: fused_bpt(A, s, args.probability, args.seed), args.repeat)
        row = {"colors": k, "fused_s": t_fused, "edges_fused": r.edges_fused,
               "edges_unfused": r.edges_unfused, "levels": r.levels,
               "work_saving": r.edges_unfused / max(r.edges_fused, 1),
               "rrr_entries": r.rrr.nvals}
        if k <= args.unfused_max:
            t_unfused, u = best_time(
                comm, lambda s=sources: fused_bpt(A, s, args.probability, args.seed,
                                                  fused=False), args.repeat)
            row["unfused_s"] = t_unfused
            row["time_saving"] = t_unfused / t_fused
            row["same_sets"] = bool(r.rrr.isequal(u.rrr))
        rows.append(row)
    return rows


def peer_rows(comm, A, W, args):
    """gblas2d beside the same code on python-graphblas (one thread) for the three LA peers."""
    import graphblas as grb

    rng = np.random.default_rng(args.seed + 1)
    sources = rng.choice(A.nrows, args.bc_sources, replace=False).tolist()
    # the multi-source BFS starts from vertices with edges (an R-MAT graph has many without)
    linked = A.reduce_rowwise(gb.agg.count).new().to_coo()[0]
    bfs_sources = rng.choice(linked, min(args.bc_sources, len(linked)), replace=False).tolist()
    mesh = gb.generators.grid_graph(*args.mesh)
    mesh_sources = rng.choice(mesh.nrows, args.bc_sources, replace=False).tolist()
    calls = {
        f"bfs_levels, {len(bfs_sources)} sources": (A, lambda M: bfs_levels(M, bfs_sources)),
        f"the same, mesh {args.mesh[0]}x{args.mesh[1]}": (
            mesh, lambda M: bfs_levels(M, mesh_sources)),
        "max_weight_matching": (W, max_weight_matching),
        "label_propagation": (A, lambda M: label_propagation(M, max_iter=args.cdlp_iter)),
        "betweenness_centrality": (A, lambda M: betweenness_centrality(M, sources)),
        "influence_maximization": (A, lambda M: influence_maximization(
            M, args.seeds, samples=args.samples, probability=args.probability,
            seed=args.seed)),
    }
    rows = []
    for name, (M, call) in calls.items():
        mine, result = best_time(comm, lambda M=M, call=call: call(M), args.repeat)
        row = {"algorithm": name, "gblas2d_s": mine}
        if name == "influence_maximization":
            row["spread"], row["seeds"] = result.spread, result.seeds
        else:
            on_grb = gb.io.to_graphblas(M)

            def peer(call=call, on_grb=on_grb):
                default = grb.ss.config["nthreads"]
                grb.ss.config["nthreads"] = 1
                try:
                    return _best_of(lambda: call(on_grb), args.repeat)
                finally:
                    grb.ss.config["nthreads"] = default

            theirs = on_rank0(comm, peer)
            mine_coo = result.to_coo()  # collective: every rank reads it back
            if comm.rank == 0:
                row["graphblas_1t_s"] = theirs[0]
                row["ratio"] = mine / theirs[0]
                row["same_result"] = bool(_same(mine_coo, theirs[1].to_coo()))
        rows.append(row)
    return rows


def _same(mine, theirs):
    """Two results' ``to_coo()``: the same indices, values within 1e-9."""
    return all(np.array_equal(i, j) for i, j in zip(mine[:-1], theirs[:-1], strict=True)) \
        and np.allclose(mine[-1], theirs[-1], rtol=1e-9, atol=0)


def networkx_rows(comm, args):
    """gblas2d and networkx on the small graph (networkx on rank 0)."""
    import networkx as nx

    A, W = graphs(args.nx_scale, args.seed)
    sources = np.random.default_rng(args.seed + 1).choice(
        A.nrows, min(args.bc_sources, A.nrows), replace=False).tolist()
    r, c, w = W.to_coo()
    G = nx.Graph()
    G.add_nodes_from(range(W.nrows))
    G.add_weighted_edges_from(zip(r.tolist(), c.tolist(), w.tolist(), strict=True))
    runs = {
        "max_weight_matching": (lambda: max_weight_matching(W),
                                lambda: nx.max_weight_matching(G)),
        "label_propagation": (lambda: label_propagation(A, max_iter=args.cdlp_iter),
                              lambda: list(nx.community.label_propagation_communities(G))),
        "betweenness_centrality": (
            lambda: betweenness_centrality(A, sources),
            lambda: nx.betweenness_centrality_subset(G, sources, list(G), normalized=False)),
    }
    rows = []
    for name, (mine_call, nx_call) in runs.items():
        mine, result = best_time(comm, mine_call, args.repeat)
        mine_coo = result.to_coo()  # collective
        theirs = on_rank0(comm, lambda nx_call=nx_call: _best_of(nx_call, 1))
        row = {"algorithm": name, "scale": args.nx_scale, "gblas2d_s": mine}
        if comm.rank == 0:
            row["networkx_s"] = theirs[0]
            row["ratio"] = mine / theirs[0]
            if name == "max_weight_matching":
                idx, mate = mine_coo
                got = sum(G[int(u)][int(v)]["weight"] for u, v in zip(idx, mate, strict=True)
                          if u < v)
                best = sum(G[u][v]["weight"] for u, v in theirs[1])
                row["weight"], row["optimum"] = got, best
                row["weight_ratio"] = got / best
        rows.append(row)
    return rows


def print_table(report):
    print(f"\nRMAT scale {report['scale']}, P={report['ranks']}, edge probability "
          f"{report['probability']}")
    print(f"{'colors':>7} {'fused s':>9} {'unfused s':>10} {'time x':>7} {'edges fused':>12} "
          f"{'edges unfused':>14} {'work x':>7} {'levels':>6}")
    for row in report["fused_bpt"]:
        unfused = f"{row['unfused_s']:10.3f}" if "unfused_s" in row else f"{'-':>10}"
        saving = f"{row['time_saving']:7.2f}" if "time_saving" in row else f"{'-':>7}"
        print(f"{row['colors']:7d} {row['fused_s']:9.3f} {unfused} {saving} "
              f"{row['edges_fused']:12d} {row['edges_unfused']:14d} "
              f"{row['work_saving']:7.2f} {row['levels']:6d}")
    print(f"\n{'algorithm':<28} {'gblas2d s':>10} {'graphblas 1t s':>15} {'ratio':>7} "
          f"{'same':>5}")
    for row in report["peers"]:
        theirs = row.get("graphblas_1t_s")
        print(f"{row['algorithm']:<28} {row['gblas2d_s']:10.3f} "
              f"{'-' if theirs is None else f'{theirs:.3f}':>15} "
              f"{row.get('ratio', float('nan')):7.2f} {str(row.get('same_result', '-')):>5}")
    print(f"\nscale {report['networkx'][0]['scale']}: {'algorithm':<24} {'gblas2d s':>10} "
          f"{'networkx s':>11} {'ratio':>7}")
    for row in report["networkx"]:
        print(f"{'':9}{row['algorithm']:<24} {row['gblas2d_s']:10.3f} {row['networkx_s']:11.3f} "
              f"{row['ratio']:7.3f}")
    matching = next(r for r in report["networkx"] if r["algorithm"] == "max_weight_matching")
    print(f"matching weight {matching['weight']:.2f} of the optimum {matching['optimum']:.2f} "
          f"({matching['weight_ratio']:.3f})")


def main(argv=None):
    args = parse_args(argv)
    comm = gb.default_grid().comm
    A, W = graphs(args.scale, args.seed)
    report = {"scale": args.scale, "ranks": comm.size, "grid": list(gb.default_grid().shape),
              "n": A.nrows, "nvals": A.nvals, "probability": args.probability,
              "machine": {"python": sys.version.split()[0], "platform": platform.platform(),
                          "cpus": os.cpu_count(), "load": os.getloadavg()[0]}}
    report["fused_bpt"] = bpt_rows(comm, A, args)
    report["peers"] = peer_rows(comm, A, W, args)
    report["networkx"] = networkx_rows(comm, args)
    if comm.rank == 0:
        print_table(report)
        path = args.output or RESULTS / f"algorithms_ii_{comm.size}ranks_scale{args.scale}.json"
        write_json(path, report)
        print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
