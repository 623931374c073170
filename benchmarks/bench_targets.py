"""The layers issue's one-process targets, timed interleaved: gblas2d and python-graphblas
(SuiteSparse), one thread each, run the same algorithm code (``gblas2d.algorithms``, as
``bench_algorithms.py`` calls it) on the same graph, one call after the other, ``--rounds``
times. The ratio is gblas2d's best over SuiteSparse's best. Interleaving puts both engines in
the same seconds of a noisy machine, where ``bench_algorithms.py`` times one engine's calls
minutes after the other's.

    GBLAS2D_THREADS=1 python benchmarks/bench_targets.py --scale 18 --rounds 5

Every result is checked against the other engine's (the same values; PageRank and distances
within 1e-9 relative). Results go to ``benchmarks/results/targets_scale<S>.json``.
"""

import argparse
import os
import time
from functools import partial
from pathlib import Path

import graphblas as grb
import numpy as np
from _common import write_json
from bench_algorithms import ALGORITHMS, ROOTED, WEIGHTED, algorithm_calls

import gblas2d as gb
from gblas2d.io.generators import erdos_renyi, rmat

RESULTS = Path(__file__).resolve().parent / "results"
TOL = 1e-4


def graphs(scale, seed):
    """(name, gblas2d W and A, python-graphblas W and A, roots) of R-MAT and Erdős–Rényi at
    ``scale``, built as bench_algorithms.py builds them."""
    for kind in ("rmat", "erdos_renyi"):
        raw = rmat(scale, 16, seed=seed, symmetric=True, weights="uniform") if kind == "rmat" \
            else erdos_renyi(1 << scale, 16 << scale, seed=seed, symmetric=True,
                             weights="uniform")
        W = raw.apply(gb.binary.minus, left=1.0).new()
        A = W.apply(gb.unary.one).new()
        rows, cols, weights = W.to_coo()
        rows, cols = rows.astype(np.int64), cols.astype(np.int64)
        GW = grb.Matrix.from_coo(rows, cols, weights, nrows=W.nrows, ncols=W.ncols)
        GA = grb.Matrix.from_coo(rows, cols, 1.0, nrows=W.nrows, ncols=W.ncols)
        degree = np.bincount(rows, minlength=W.nrows)
        root = int(np.random.default_rng([seed, 3]).choice(np.flatnonzero(degree)))
        yield f"{kind}_s{scale}", (W, A), (GW, GA), root


def dense(result):
    """A result as a numpy array, missing entries NaN."""
    idx, vals = result.to_coo()
    out = np.full(result.size, np.nan)
    out[np.asarray(idx, dtype=np.int64)] = vals
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=18)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    grb.ss.config["nthreads"] = 1
    calls = algorithm_calls(TOL)
    report = {"benchmark": "targets", "scale": args.scale, "rounds": args.rounds,
              "threads": {"gblas2d": os.environ.get("GBLAS2D_THREADS", "default"),
                          "python_graphblas": 1}, "graphs": {}}
    print(f"gblas2d / SuiteSparse, one thread each, best of {args.rounds} interleaved rounds")
    for name, ours, theirs, root in graphs(args.scale, args.seed):
        rows = report["graphs"][name] = {}
        for algorithm in ALGORITHMS:
            pick = 0 if algorithm in WEIGHTED else 1
            source = root if algorithm in ROOTED else None
            engines = [partial(calls[algorithm], ours[pick], source),
                       partial(calls[algorithm], theirs[pick], source)]
            results = [run() for run in engines]  # warm-up, and the results compared
            a, b = dense(results[0]), dense(results[1])
            agree = bool(np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True)) \
                if algorithm in ("pagerank", *WEIGHTED) else bool(np.array_equal(
                    a, b, equal_nan=True))
            seconds = [[], []]
            for _ in range(args.rounds):
                for k, run in enumerate(engines):
                    start = time.perf_counter()
                    run()
                    seconds[k].append(time.perf_counter() - start)
            ratio = min(seconds[0]) / min(seconds[1])
            rows[algorithm] = {"gblas2d": seconds[0], "graphblas_1t": seconds[1],
                               "ratio": ratio, "agrees": agree}
            print(f"{name:<18}{algorithm:<22}{min(seconds[0]):9.4f} s{min(seconds[1]):9.4f} s"
                  f"{ratio:7.2f}  {'agrees' if agree else 'DIFFERS'}", flush=True)
    path = RESULTS / f"targets_scale{args.scale}.json"
    write_json(path, report)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
