"""The GPU run's figures (issue 30): gblas2d's cupy backend beside its CPU backends and
python-graphblas, in one process, on one graph, result for result.

    python benchmarks/gpu/bench_gpu.py --backend cupy --scale 22 --out $OUT

* BFS: Graph 500 kernel 2 (``bfs_parents``) from ``--roots`` random roots of an R-MAT graph
  (edge factor 16, undirected); TEPS = the undirected edges of the root's component over the
  time, and their harmonic mean.
* PageRank (``pagerank``, 20 iterations) and FastSV (``connected_components``).
* The fused BPT (``fused_bpt``, p = 0.1) at 64 and 1,024 colors, and single-color traversals
  (one per source, ``--singles`` of them, timed and scaled to 1,024: labelled so).
* The scale model's one-process costs on the device (``model``): the BFS of
  ``bench_model.py``'s graph (R-MAT ``--model-scale`` and its highest-degree vertex) traced on
  ``--backend``, as ``gblas2d.model.timing.measure_local`` gives them for the CPU; ``bench_model.py
  --local gpu.json`` projects the device to many ranks from them.

Engines: gblas2d with ``--backend`` (cupy on a GPU; ``array`` rehearses the same kernels on
the host), gblas2d with SuiteSparse kernels, and python-graphblas, both with ``--threads``
threads. Every engine's answer is checked against python-graphblas's. Writes gpu.json and
gpu.png under ``--out``.
"""

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", default="cupy", choices=["cupy", "array"])
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--bpt-scale", type=int, default=18)
    p.add_argument("--roots", type=int, default=16)
    p.add_argument("--singles", type=int, default=16)
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--model-scale", type=int, default=20)
    p.add_argument("--only", default="bfs,pagerank,fastsv,bpt,model",
                   help="the parts to run, of bfs, pagerank, fastsv, bpt, triangles (on the "
                        "BPT's graph), model (the scale model's costs on the device)")
    p.add_argument("--engines", default="graphblas,device,suitesparse",
                   help="the engines, of graphblas (always run first: the reference), device "
                        "(gblas2d on --backend), suitesparse")
    p.add_argument("--colors", default="64,1024", help="the fused BPT's color counts")
    p.add_argument("--profile", action="store_true",
                   help="write the profiles of one BFS and one 1,024-color BPT on --backend "
                        "to profile_bfs.txt and profile_bpt.txt")
    p.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "benchmarks/results")))
    return p.parse_args(argv)


def device_name(backend):
    if backend != "cupy":
        return f"host ({platform.processor() or platform.machine()}, no GPU: rehearsal)"
    import cupy

    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    return props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])


def sync(backend):
    if backend == "cupy":
        import cupy

        cupy.cuda.get_current_stream().synchronize()


def timed(run, repeat, backend=None):
    """Best of ``repeat`` timed calls after one warm-up; returns (seconds, warm-up result)."""
    result = run()
    best = float("inf")
    for _ in range(repeat):
        sync(backend)
        start = time.perf_counter()
        run()
        sync(backend)
        best = min(best, time.perf_counter() - start)
    return best, result


def graphs(gb, grb, scale, seed):
    """An undirected R-MAT graph (edge factor 16) for gblas2d and python-graphblas, and its
    degrees. One process: the block is the whole matrix, imported by its CSR."""
    A = gb.generators.rmat(scale, 16, seed=seed, symmetric=True)
    ptr, cols, vals = A.block.csr
    G = grb.Matrix.ss.import_csr(nrows=A.nrows, ncols=A.ncols, indptr=ptr, col_indices=cols,
                                 values=vals, sorted_cols=True)
    return A, G, np.diff(ptr)


def main(argv=None):
    args = parse_args(argv)
    os.environ.setdefault("GBLAS2D_THREADS", str(args.threads))
    import graphblas as grb
    from gblas2d.algorithms import (
        bfs_parents,
        connected_components,
        fused_bpt,
        pagerank,
        triangle_count,
    )

    import gblas2d as gb
    from gblas2d import backends

    grb.ss.config["nthreads"] = args.threads
    report = {"device": device_name(args.backend), "backend": args.backend,
              "threads": {"gblas2d-suitesparse": args.threads,
                          "python-graphblas": args.threads,
                          f"gblas2d-{args.backend}": "one host thread driving the device"
                          if args.backend == "cupy" else 1},
              "scale": args.scale, "bpt_scale": args.bpt_scale, "results": {}}
    out_json = args.out / "gpu.json"
    parts = set(args.only.split(","))
    wanted = set(args.engines.split(",")) | {"graphblas"}

    def save():
        args.out.mkdir(parents=True, exist_ok=True)
        out_json.write_text(json.dumps(report, indent=1) + "\n")

    def chosen(engines):
        keys = ("graphblas", "device", "suitesparse")
        return [e for key, e in zip(keys, engines, strict=True) if key in wanted]

    def run_engines(engines, name, call, check, repeat=args.repeat):
        """Time ``call(M)`` on every engine; ``check(result, reference)`` against
        python-graphblas's result."""
        rows_out, reference = {}, None
        for label, backend, M in engines:
            if backend is not None:
                backends.set_backend(backend)
            try:
                seconds, result = timed(lambda M=M: call(M), repeat, backend)
            except Exception as err:  # a failing engine is reported, the others still run
                rows_out[label] = {"error": f"{type(err).__name__}: {err}"}
                print(f"{name:<16}{label:<24}FAILED {err}", flush=True)
                continue
            if backend is None:
                reference = result
            agrees = bool(check(result, reference))
            rows_out[label] = {"seconds": seconds, "agrees": agrees}
            print(f"{name:<16}{label:<24}{seconds:10.4f} s  agrees={agrees}", flush=True)
        report["results"][name] = rows_out
        save()
        return rows_out

    def close(result, reference, tol=1e-6):
        if reference is None:
            return True
        *a_idx, a_val = result.to_coo()
        *b_idx, b_val = reference.to_coo()
        return all(np.array_equal(a, b) for a, b in zip(a_idx, b_idx, strict=True)) and \
            np.allclose(a_val, b_val, atol=tol)

    def same_partition(result, reference):
        if reference is None:
            return True
        a, b = result.to_coo()[1], reference.to_coo()[1]
        return len(a) == len(b) and len(set(zip(a.tolist(), b.tolist(), strict=True))) == \
            len(set(b.tolist()))

    rng = np.random.default_rng(1)
    if "model" in parts:
        # first: some 15 seconds, which the BPT's long runs at the end would not leave
        report["model"] = model_costs(args)
        save()
    if parts & {"bfs", "pagerank", "fastsv"}:
        start = time.perf_counter()
        A, G, degree = graphs(gb, grb, args.scale, 1)
        report["graph"] = {"n": int(A.nrows), "stored_entries": int(A.nvals),
                           "generation_s": time.perf_counter() - start}
        print(f"R-MAT {args.scale}: {A.nrows} vertices, {A.nvals} stored entries", flush=True)
        roots = rng.choice(np.flatnonzero(degree), size=args.roots, replace=False).tolist()
        # python-graphblas first: the reference every other engine is checked against; then
        # the device, so its figures come before the time runs out
        engines = chosen([("python-graphblas", None, G),
                          (f"gblas2d-{args.backend}", args.backend, A),
                          ("gblas2d-suitesparse", "suitesparse", A)])
        if "bfs" in parts:
            report["results"]["bfs"] = graph500(engines, roots, degree, args.backend)
            save()
        if args.profile:
            backends.set_backend(args.backend)
            profile(lambda: bfs_parents(A, roots[0]), args.out / "profile_bfs.txt")
        if "pagerank" in parts:
            run_engines(engines, "pagerank", lambda M: pagerank(M, iterations=20), close)
        if "fastsv" in parts:
            run_engines(engines, "fastsv", lambda M: connected_components(M), same_partition)

    if parts & {"bpt", "triangles"}:
        # the fused BPT and triangle counting, on a smaller graph
        B, GB, b_degree = graphs(gb, grb, args.bpt_scale, 2)
        engines = chosen([("python-graphblas", None, GB),
                          (f"gblas2d-{args.backend}", args.backend, B),
                          ("gblas2d-suitesparse", "suitesparse", B)])
        sources = rng.choice(np.flatnonzero(b_degree), size=1024, replace=True).tolist()
    if "triangles" in parts:
        run_engines(engines, "triangles", triangle_count,
                    lambda mine, theirs: theirs is None or mine == theirs)
        if "device" in wanted:
            # the same count on the device by the mask's dot products, not the sparse
            # module's product of every wedge (``array.PAIR_BY_DOTS``)
            from gblas2d.local.backends import array

            want = triangle_count(GB)
            array.PAIR_BY_DOTS = True
            run_engines([engines[1]], "triangles_dots", triangle_count,
                        lambda mine, _: mine == want)
            array.PAIR_BY_DOTS = False
    if "bpt" in parts:

        def same_rrr(result, reference):
            return reference is None or close(result.rrr, reference.rrr, 0)

        colors = [int(k) for k in args.colors.split(",")]
        for k in colors:
            run_engines(engines, f"bpt_{k}",
                        lambda M, k=k: fused_bpt(M, sources[:k], 0.1, seed=3), same_rrr,
                        repeat=1)
        report["results"]["bpt_single_scaled"] = singles(
            engines, sources, args.singles, report["results"].get(f"bpt_{max(colors)}", {}),
            max(colors), args.backend)
        save()
        if args.profile:
            backends.set_backend(args.backend)
            profile(lambda: fused_bpt(B, sources[:max(colors)], 0.1, seed=3),
                    args.out / "profile_bpt.txt")
    if args.backend == "cupy":
        from gblas2d.distributed.comm import stats

        report["device_copies"] = [row for row in stats().summary() if row["group"] == "device"]
    save()
    plot(report, args.out / "gpu.png")
    return 0


def model_costs(args):
    """The scale model's ``Local`` on the device backend, for the graph and source that
    ``bench_model.py --scale`` uses (its own functions make them)."""
    import dataclasses

    from gblas2d import backends
    from gblas2d.model.timing import measure_local

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import bench_model

    backends.set_backend(args.backend)
    A, source = bench_model.graph(args.model_scale)
    levels = bench_model.levels_of(A, source)
    local = measure_local(A, source, bench_model.counts(A, levels, (1, 1)), repeats=5)
    print(f"model         R-MAT {args.model_scale} BFS from {source} on {args.backend}: "
          f"{local.measured * 1e3:.2f} ms, rates "
          f"{' '.join(f'{r:.3g}' for r in local.rates if r is not None)} edges/s", flush=True)
    return {"scale": args.model_scale, "source": source, "backend": args.backend,
            "local": dataclasses.asdict(local), "rates": list(local.rates)}


def graph500(engines, roots, degree, backend_of_device):
    """Graph 500 kernel 2 on each engine: BFS parent trees from ``roots``, the first two
    validated; TEPS and their harmonic mean."""
    from gblas2d.algorithms import bfs_parents, validate_bfs_tree

    from gblas2d import backends

    bfs = {}
    for label, backend, M in engines:
        if backend is not None:
            backends.set_backend(backend)
        times, edges, valid = [], [], True
        try:
            bfs_parents(M, roots[0])
            for i, root in enumerate(roots):
                sync(backend)
                t0 = time.perf_counter()
                parents = bfs_parents(M, root)
                sync(backend)
                times.append(time.perf_counter() - t0)
                edges.append(degree[parents.to_coo()[0]].sum() / 2)
                if i < 2:
                    valid &= bool(validate_bfs_tree(M, root, parents))
        except Exception as err:
            bfs[label] = {"error": f"{type(err).__name__}: {err}"}
            print(f"{'BFS':<14}{label:<24}FAILED {err}", flush=True)
            continue
        teps = np.array(edges) / np.array(times)
        hm = len(teps) / np.sum(1.0 / teps)
        bfs[label] = {"harmonic_mean_TEPS": hm, "seconds_per_root": times,
                      "valid_first_two": valid}
        print(f"{'BFS':<14}{label:<24}{hm / 1e9:10.3f} GTEPS  valid={valid}", flush=True)
    return bfs


def singles(engines, sources, count, fused_rows, colors, backend_of_device):
    """Single-color traversals (one BFS each), ``count`` of them timed, scaled to ``colors``,
    beside the fused traversal of ``colors`` colors (``fused_rows``)."""
    from gblas2d.algorithms import fused_bpt

    from gblas2d import backends

    out = {}
    for label, backend, M in engines:
        if backend is not None:
            backends.set_backend(backend)
        try:
            fused_bpt(M, sources[:1], 0.1, seed=3)
            sync(backend)
            t0 = time.perf_counter()
            for s in sources[:count]:
                fused_bpt(M, [s], 0.1, seed=3)
            sync(backend)
            each = (time.perf_counter() - t0) / count
        except Exception as err:
            out[label] = {"error": f"{type(err).__name__}: {err}"}
            continue
        fused = fused_rows.get(label, {}).get("seconds")
        out[label] = {"seconds_each": each, "measured": count,
                      f"seconds_{colors}_scaled": each * colors,
                      f"fused_{colors}_speedup": each * colors / fused if fused else None}
        print(f"{'1 color':<14}{label:<24}{each:10.4f} s each, x{colors} = {each * colors:.3f}"
              f" s (scaled from {count}); fused speedup "
              f"{out[label][f'fused_{colors}_speedup']}", flush=True)
    return out


def profile(run, path):
    """cProfile of one call, the 30 functions of most own time, to ``path``."""
    import cProfile
    import io
    import pstats

    run()
    prof = cProfile.Profile()
    prof.enable()
    run()
    prof.disable()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(30)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.getvalue())
    print(text.getvalue()[:6000], flush=True)


def plot(report, path):
    """Seconds of each engine per algorithm (BFS: mean seconds per root), log scale."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no PNG", file=sys.stderr)
        return
    results = report["results"]
    names = [n for n in ("bfs", "pagerank", "fastsv", "triangles", "bpt_64", "bpt_1024")
             if n in results]
    labels = sorted({label for n in names for label in results.get(n, {})})
    if not labels:
        return  # nothing timed (``--only model``)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / max(len(labels), 1)
    for k, label in enumerate(labels):
        values = []
        for n in names:
            row = results.get(n, {}).get(label, {})
            if n == "bfs":
                values.append(np.mean(row["seconds_per_root"]) if "seconds_per_root" in row
                              else np.nan)
            else:
                values.append(row.get("seconds", np.nan))
        ax.bar(np.arange(len(names)) + k * width, values, width, label=label)
    ax.set_xticks(np.arange(len(names)) + width * (len(labels) - 1) / 2, names)
    ax.set_yscale("log")
    ax.set_ylabel("seconds (lower is better)")
    ax.set_title(f"{report['device']}: R-MAT {report['scale']} (BPT: R-MAT "
                 f"{report['bpt_scale']})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    sys.exit(main())
