"""``gblas2d.timing`` (issue 44): the benchmarks' timing helpers, public. ``compare`` calls the
engines interleaved, the order rotated every round, at the thread count asked for on both
sides, and reports every call; the benchmark scripts use the same functions."""

import importlib.util
from pathlib import Path

import graphblas
import numpy as np
import pytest

import gblas2d as gb
from gblas2d import timing

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_engines_are_called_interleaved_and_the_order_rotates():
    calls = []
    runs = {name: (lambda name=name: calls.append(name)) for name in ("a", "b", "c")}
    timings = timing.compare(runs, repeat=4, warmup=1)
    # the warm-up round, then rounds starting with a, b, c, a
    assert calls == ["a", "b", "c", "a", "b", "c", "b", "c", "a", "c", "a", "b", "a", "b", "c"]
    assert list(timings) == ["a", "b", "c"]
    for t in timings.values():
        assert len(t.times) == 4 and t.best == min(t.times) and t.threads == 1
        assert t.best <= t.median <= max(t.times)


@pytest.mark.parametrize("count", [1, 2])
def test_both_engines_run_at_the_thread_count_asked_for(count):
    before = graphblas.ss.config["nthreads"]
    seen = []
    ours = gb.Vector.from_dense(np.arange(100.0))
    theirs = graphblas.Vector.from_dense(np.arange(100.0))
    timing.compare({"gblas2d": lambda: seen.append(graphblas.ss.config["nthreads"]) or
                    ours.reduce().new(),
                    "graphblas": lambda: seen.append(graphblas.ss.config["nthreads"]) or
                    theirs.reduce().new()}, threads=count, repeat=2)
    assert seen == [count] * 6
    assert graphblas.ss.config["nthreads"] == before


def test_a_fixed_gblas2d_thread_count_that_differs_is_refused(monkeypatch):
    monkeypatch.setenv("GBLAS2D_THREADS", "3")
    with pytest.raises(ValueError, match="GBLAS2D_THREADS=3 gives gblas2d's kernels"):
        timing.compare({"a": lambda: None}, threads=1)
    with pytest.raises(ValueError, match="repeat"):
        timing.compare({"a": lambda: None}, repeat=0)


def test_the_benchmarks_time_with_the_same_helpers():
    spec = importlib.util.spec_from_file_location("_common", BENCHMARKS / "_common.py")
    common = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(common)
    for name in ("time_collective", "time_local", "slowest", "idle_wait"):
        assert getattr(common, name) is getattr(timing, name)
