"""All algorithms x graphs x engines across P in one command: one JSON and three PNG plots.

::

    python benchmarks/harness.py --scale 16 --ranks 1 2 4
    python benchmarks/harness.py --plot-only benchmarks/results/harness_scale16.json

Launches ``bench_algorithms.py`` once per P (P=1 as a plain process, P>1 under the
``mpiexec`` next to ``sys.executable``), one launch after the other. The peers (SuiteSparse at
its default thread count and at one thread, graphblas-algorithms, scipy, networkx) run only in
the launch of the smallest P; the others pass ``--no-peers``. The per-P JSON files
``results/algorithms_<P>ranks_scale<S>.json`` are combined into ``results/harness_scale<S>.json``
(every per-P report, the wall time of each launch, and a summary per graph, algorithm and P),
and three plots are drawn from that summary:

* ``harness_scale<S>_ratio.png``: gblas2d seconds / SuiteSparse one-thread seconds per
  algorithm, bars for each P.
* ``harness_scale<S>_teps.png``: BFS TEPS versus P for gblas2d, with SuiteSparse and scipy
  (one process, measured once) as horizontal lines.
* ``harness_scale<S>_comm.png``: bytes received per call by the busiest rank versus P, per
  algorithm, with a line proportional to 1/sqrt(P) through the P=2 point.

A markdown table of the same figures is printed at the end, also with ``--plot-only``. Wall
seconds on a shared machine: when P exceeds the cores, ranks share cores and the figures for that
P measure oversubscription as much as the engine; the plots say so.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _common import write_json

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ROOTED = ("bfs_levels", "bfs_parents", "sssp_bellman_ford", "sssp_delta_stepping")
# the peer the time ratios are taken against: one core, as one gblas2d rank
BASELINE = "graphblas_1t"
GRAPH_LABELS = {"rmat": "RMAT", "erdos_renyi": "Erdős–Rényi"}
MIB = 2.0**20


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scale", type=int, default=16)
    p.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 4], help="values of P")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--roots", type=int, default=4)
    p.add_argument("--timeout", type=float, default=1800, help="seconds per launch")
    p.add_argument("--plot-only", metavar="FILE", type=Path,
                   help="redraw the plots and the table from a combined JSON; run nothing")
    args = p.parse_args(argv)
    args.ranks = sorted(set(args.ranks))
    if args.ranks[0] < 1:
        p.error(f"--ranks must be positive, got {args.ranks}")
    return args


# ---- running ----

def mpiexec():
    found = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
        shutil.which("mpiexec")
    if found is None:
        sys.exit("mpiexec not found: install the 'mpich' extra (pip install -e '.[test]')")
    return found


def launch(nprocs, args, peers):
    """Run bench_algorithms.py at P = ``nprocs``; its output streams through. Returns the
    launch's record and its JSON report."""
    out = RESULTS / f"algorithms_{nprocs}ranks_scale{args.scale}.json"
    cmd = [sys.executable, str(HERE / "bench_algorithms.py"), "--scale", str(args.scale),
           "--repeat", str(args.repeat), "--roots", str(args.roots), "--output", str(out)]
    if not peers:
        cmd.append("--no-peers")
    if nprocs > 1:
        cmd = [mpiexec(), "-n", str(nprocs), *cmd]
    print(f"\n=== P={nprocs}: {' '.join(cmd)}", flush=True)
    load = os.getloadavg()
    start = time.perf_counter()
    try:
        subprocess.run(cmd, check=True, timeout=args.timeout)
    except subprocess.CalledProcessError as exc:
        sys.exit(f"P={nprocs} failed with exit code {exc.returncode}")
    except subprocess.TimeoutExpired:
        sys.exit(f"P={nprocs} ran past --timeout {args.timeout:.0f} s")
    wall = time.perf_counter() - start
    print(f"=== P={nprocs} took {wall:.0f} s", flush=True)
    record = {"nprocs": nprocs, "command": cmd, "wall_seconds": wall, "peers": peers,
              "loadavg_before": load, "loadavg_after": os.getloadavg(),
              "json": str(out.relative_to(HERE.parent))}
    return record, json.loads(out.read_text())


def summarize(runs, peers_at):
    """graph -> algorithm -> {"gblas2d": {P: figures}, "peers": {engine: figures}}, for the
    graphs of the main scale that every run holds."""
    common = set.intersection(*(set(r["graphs"]) for r in runs.values()))
    scale = runs[peers_at]["scale"]
    summary = {}
    for gname, graph in runs[peers_at]["graphs"].items():
        if gname not in common or graph["scale"] != scale:
            continue
        per_alg = {}
        for name, engines in graph["algorithms"].items():
            mine = {}
            for nprocs, report in runs.items():
                g = report["graphs"][gname]["algorithms"][name]["gblas2d"]
                mine[nprocs] = {k: g.get(k) for k in ("seconds", "cpu_seconds", "teps",
                                                      "bytes_received_max", "iterations")}
            peers = {e: {k: v.get(k) for k in ("seconds", "cpu_seconds", "teps", "agrees")}
                     for e, v in engines.items() if e != "gblas2d"}
            per_alg[name] = {"gblas2d": mine, "peers": peers}
        summary[gname] = {"kind": graph["kind"], "n": graph["n"], "nvals": graph["nvals"],
                          "algorithms": per_alg}
    return summary


def run_all(args):
    cpus = os.cpu_count()
    start = time.perf_counter()
    launches, runs = [], {}
    for nprocs in args.ranks:
        record, report = launch(nprocs, args, peers=nprocs == args.ranks[0])
        launches.append(record)
        runs[nprocs] = report
    combined = {
        "benchmark": "harness", "scale": args.scale, "ranks": args.ranks,
        "repeat": args.repeat, "roots": args.roots, "cpus": cpus,
        "oversubscribed": [p for p in args.ranks if p > cpus],
        "peers_measured_at": args.ranks[0], "baseline": BASELINE,
        "command": [Path(sys.executable).name, *sys.argv],
        "total_seconds": time.perf_counter() - start, "launches": launches,
        "mismatches": [m for r in runs.values() for m in r["mismatches"]],
        "summary": summarize(runs, args.ranks[0]),
        "runs": {str(p): r for p, r in runs.items()},
    }
    path = RESULTS / f"harness_scale{args.scale}.json"
    write_json(path, combined)
    print(f"\nwrote {path} ({combined['total_seconds']:.0f} s in all)", flush=True)
    return path, combined


# ---- reading the summary ----

def by_ranks(combined):
    """The summary with P as int keys (JSON keeps them as strings)."""
    out = {}
    for gname, graph in combined["summary"].items():
        algs = {name: {"gblas2d": {int(p): f for p, f in a["gblas2d"].items()},
                       "peers": a["peers"]} for name, a in graph["algorithms"].items()}
        out[gname] = {**graph, "algorithms": algs}
    return out


def ratio(alg, nprocs, key="seconds"):
    """gblas2d at P over the baseline; ``key="cpu_seconds"``: CPU summed over the ranks over
    the baseline's CPU, which other processes on the machine inflate much less than wall
    time (MPI's busy polling of a waiting rank counts, though)."""
    base = alg["peers"].get(BASELINE)
    return alg["gblas2d"][nprocs][key] / base[key] if base else None


def caveat(combined):
    over = combined["oversubscribed"]
    text = (f"wall seconds on {combined['cpus']} cores; "
            f"peers timed once, in the P={combined['peers_measured_at']} run")
    if over:
        text += f"; P={','.join(map(str, over))} oversubscribed (more ranks than cores)"
    return text


# ---- plots ----

def pyplot():
    try:
        import matplotlib
    except ImportError:
        sys.exit("the plots need matplotlib: pip install -e '.[bench]'")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def graph_title(graph):
    return (f"{GRAPH_LABELS.get(graph['kind'], graph['kind'])} "
            f"(n={graph['n']:,}, nvals={graph['nvals']:,})")


def plot_ratio(plt, combined, summary, path):
    from matplotlib.ticker import FormatStrFormatter

    ranks = combined["ranks"]
    fig, axes = plt.subplots(len(summary), 1, figsize=(11, 4.2 * len(summary)), squeeze=False)
    width = 0.8 / len(ranks)
    for ax, graph in zip(axes[:, 0], summary.values(), strict=True):
        names = list(graph["algorithms"])
        for k, nprocs in enumerate(ranks):
            values = [ratio(graph["algorithms"][a], nprocs) or 0.0 for a in names]
            xs = [i + (k - (len(ranks) - 1) / 2) * width for i in range(len(names))]
            over = nprocs in combined["oversubscribed"]
            bars = ax.bar(xs, values, width, hatch="//" if over else None,
                          label=f"P={nprocs}" + (" (oversubscribed)" if over else ""))
            ax.bar_label(bars, fmt="%.1f", fontsize=7, padding=1)
            cpu = [ratio(graph["algorithms"][a], nprocs, "cpu_seconds") for a in names]
            ax.scatter(xs, [c or float("nan") for c in cpu], marker="_", s=120, color="black",
                       zorder=3, label="CPU ratio (CPU summed over ranks)" if k == 0 else None)
        ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
        # log: a ratio of 0.5 and one of 2 lie equally far from parity
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.set_xticks(range(len(names)), [a.replace("_", "\n", 1) for a in names], fontsize=8)
        ax.set_ylabel("gblas2d s / SuiteSparse 1-thread s")
        ax.set_title(graph_title(graph), fontsize=10)
        # headroom above the tallest mark for the legend
        ax.set_ylim(top=ax.get_ylim()[1] * 4)
        ax.legend(fontsize=8, loc="upper left", ncol=4)
    fig.suptitle(f"Time ratio to SuiteSparse:GraphBLAS at one thread (lower is better; 1 = parity)"
                 f", scale {combined['scale']}\n{caveat(combined)}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_teps(plt, combined, summary, path):
    ranks = combined["ranks"]
    fig, axes = plt.subplots(1, len(summary), figsize=(6 * len(summary), 5.4), squeeze=False)
    peers = (("graphblas_1t", "SuiteSparse 1 thread", "--"),
             ("graphblas", "SuiteSparse default threads", ":"), ("scipy", "scipy csgraph", "-."))
    for ax, graph in zip(axes[0], summary.values(), strict=True):
        for i, name in enumerate(("bfs_levels", "bfs_parents")):
            alg = graph["algorithms"].get(name)
            if alg is None:
                continue
            color = f"C{i}"
            ax.plot(ranks, [alg["gblas2d"][p]["teps"] for p in ranks], "o-", color=color,
                    label=f"gblas2d {name}")
            for engine, label, style in peers:
                # scipy's breadth_first_order serves both BFS variants: draw it once
                if engine in alg["peers"] and not (engine == "scipy" and name != "bfs_levels"):
                    ax.axhline(alg["peers"][engine]["teps"], color="gray" if engine == "scipy"
                               else color, linestyle=style, linewidth=1,
                               label=label + ("" if engine == "scipy" else f" {name}"))
        for p in combined["oversubscribed"]:
            ax.axvspan(p / 1.15, p * 1.15, color="red", alpha=0.08)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(ranks, [str(p) for p in ranks])
        ax.set_xlabel("P (MPI ranks)" + (" — shaded: oversubscribed"
                                         if combined["oversubscribed"] else ""))
        ax.set_ylabel("TEPS (harmonic mean over roots)")
        ax.set_title(graph_title(graph), fontsize=10)
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="lower center", ncol=4, fontsize=8)
    fig.suptitle(f"BFS traversed edges per second, scale {combined['scale']} (higher is better)"
                 f"\n{caveat(combined)}", fontsize=10)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_comm(plt, combined, summary, path):
    ranks = [p for p in combined["ranks"] if p > 1]
    first = next(iter(summary.values()))
    names = list(first["algorithms"])
    ncols = 4
    nrows = -(-(len(names) + 1) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.4 * ncols, 3.0 * nrows), squeeze=False)
    for ax, name in zip(axes.flat, names, strict=False):
        for i, graph in enumerate(summary.values()):
            mib = [graph["algorithms"][name]["gblas2d"][p]["bytes_received_max"] / MIB
                   for p in ranks]
            color = f"C{i}"
            label = GRAPH_LABELS.get(graph["kind"], graph["kind"])
            ax.plot(ranks, mib, "o-", color=color, label=label)
            if 2 in ranks:
                anchor = mib[ranks.index(2)]
                ax.plot(ranks, [anchor * (2 / p) ** 0.5 for p in ranks], ":", color=color,
                        label=f"{label}: ∝ 1/sqrt(P) through its P=2 point")
        ax.set_xscale("log", base=2)
        ax.set_xticks(ranks, [str(p) for p in ranks])
        ax.set_ylim(bottom=0)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("P", fontsize=8)
        ax.set_ylabel("MiB received / rank / call", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in axes.flat[len(names):]:
        ax.axis("off")
    notes = axes.flat[-1]
    notes.legend(*axes.flat[0].get_legend_handles_labels(), loc="upper left", fontsize=7)
    grids = ", ".join(f"P={r}: {combined['runs'][str(r)]['grid']}" for r in ranks)
    notes.text(0, 0.55, "Solid: bytes received per call by the\nbusiest rank "
               f"(gblas2d.recording).\nP=1 moves nothing. Grids: {grids}.\n\nDotted: the "
               "n/sqrt(P) per-rank volume of\nsquare 2D grids, drawn through the\nmeasured "
               "P=2 point: a reference slope,\nnot a prediction. One dense product\nsends the "
               "busiest rank of an R x C grid\nabout n(R+C-1)/P (n(C-1)/P if R=1):\nn/2 at 1x2,"
               " 3n/4 at 2x2, ~2n/sqrt(P)\non square grids.", fontsize=7, va="top",
               transform=notes.transAxes)
    fig.suptitle(f"Communication volume per rank versus P, scale {combined['scale']}",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_all(path, combined):
    plt = pyplot()
    summary = by_ranks(combined)
    stem = path.with_suffix("")
    written = []
    for suffix, draw in (("ratio", plot_ratio), ("teps", plot_teps), ("comm", plot_comm)):
        if suffix == "comm" and not any(p > 1 for p in combined["ranks"]):
            continue
        out = Path(f"{stem}_{suffix}.png")
        draw(plt, combined, summary, out)
        written.append(out)
    print("wrote " + ", ".join(str(w) for w in written))


# ---- table ----

def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def markdown(combined):
    """The figures of the summary as markdown tables, per graph."""
    ranks = combined["ranks"]
    lines = [f"Scale {combined['scale']}; {caveat(combined)}; total "
             f"{combined['total_seconds']:.0f} s ("
             + ", ".join(f"P={r['nprocs']} {r['wall_seconds']:.0f} s"
                         for r in combined["launches"]) + ")."]
    for graph in by_ranks(combined).values():
        algs = graph["algorithms"]
        lines += ["", f"{graph_title(graph)}:", "",
                  "| algorithm | SuiteSparse 1 thr s | "
                  + " | ".join(f"P={p} s" for p in ranks) + " | "
                  + " | ".join(f"ratio P={p}" for p in ranks) + " | "
                  + " | ".join(f"CPU ratio P={p}" for p in ranks) + " |",
                  "|---|" + "---:|" * (1 + 3 * len(ranks))]
        for name, alg in algs.items():
            base = alg["peers"].get(BASELINE)
            lines.append(f"| {name} | {fmt(base and base['seconds'], '.4f')} | "
                         + " | ".join(f"{alg['gblas2d'][p]['seconds']:.4f}" for p in ranks)
                         + " | " + " | ".join(fmt(ratio(alg, p), ".2f") for p in ranks)
                         + " | " + " | ".join(fmt(ratio(alg, p, "cpu_seconds"), ".2f")
                                              for p in ranks) + " |")
        others = ("graphblas", "graphblas_algorithms", "scipy", "networkx")
        lines += ["", "| seconds, other peers | SuiteSparse default threads | "
                  "graphblas-algorithms | scipy | networkx |", "|---|" + "---:|" * len(others)]
        for name, alg in algs.items():
            lines.append(f"| {name} | " + " | ".join(
                fmt(alg["peers"].get(e, {}).get("seconds"), ".4f") for e in others) + " |")
        rooted = [n for n in ROOTED if n in algs]
        if rooted:
            peer_cols = ("graphblas_1t", "graphblas", "scipy")
            lines += ["", "| TEPS | " + " | ".join(f"gblas2d P={p}" for p in ranks)
                      + " | SuiteSparse 1 thr | SuiteSparse default | scipy |",
                      "|---|" + "---:|" * (len(ranks) + len(peer_cols))]
            for name in rooted:
                alg = algs[name]
                peers = [alg["peers"].get(e, {}).get("teps") for e in peer_cols]
                lines.append(f"| {name} | "
                             + " | ".join(fmt(alg["gblas2d"][p]["teps"], ".3g") for p in ranks)
                             + " | " + " | ".join(fmt(t, ".3g") for t in peers) + " |")
        multi = [p for p in ranks if p > 1]
        if multi:
            lines += ["", "| MiB received / rank | " + " | ".join(f"P={p}" for p in multi)
                      + (f" | P={multi[-1]} / P={multi[0]} |" if len(multi) > 1 else ""),
                      "|---|" + "---:|" * (len(multi) + (len(multi) > 1))]
            for name, alg in algs.items():
                mib = [alg["gblas2d"][p]["bytes_received_max"] / MIB for p in multi]
                lines.append(f"| {name} | " + " | ".join(f"{m:.2f}" for m in mib)
                             + (f" | {mib[-1] / mib[0]:.2f} |" if len(multi) > 1 and mib[0]
                                else " |"))
    if combined["mismatches"]:
        lines += ["", f"**{len(combined['mismatches'])} mismatches**: see the JSON."]
    return "\n".join(lines)


def main(argv=None):
    args = parse_args(argv)
    if args.plot_only:
        path, combined = args.plot_only, json.loads(args.plot_only.read_text())
    else:
        path, combined = run_all(args)
    plot_all(path, combined)
    print(markdown(combined))


if __name__ == "__main__":
    main()
