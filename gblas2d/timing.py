"""Timing gblas2d fairly, beside python-graphblas or anything else: the benchmarks' own helpers.

On a shared machine one timing says little: with the default threads (every core, for a single
process, on both engines) best-of-5 timings swung 3-10x, pinned to one thread each they were
stable. ``compare`` times several engines as the benchmarks in ``benchmarks/`` do
(docs/getting-started.md, "Timing"):

* the same threads on both sides: SuiteSparse's, which gblas2d's local kernels and
  python-graphblas share in one process, and the BLAS and OpenMP pools (threadpoolctl);
* interleaved: one call of each engine in turn, the order rotated every round, so that a burst
  of load elsewhere falls on both, not on whichever ran second;
* a warm-up call each, then the best of several (the least disturbed), with every call kept;
* under ``mpiexec``, every call started after a barrier and timed as the slowest rank's.

>>> import gblas2d as gb, graphblas
>>> ours = gb.Vector.from_dense(np.arange(1000.0))
>>> theirs = graphblas.Vector.from_dense(np.arange(1000.0))
>>> timings = compare({"gblas2d": lambda: ours.reduce().new(),
...                    "graphblas": lambda: theirs.reduce().new()}, repeat=3)
>>> sorted(timings), len(timings["gblas2d"].times)
(['gblas2d', 'graphblas'], 3)
"""

import os
import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

__all__ = ["Timing", "compare", "idle_wait", "slowest", "thread_count", "time_collective",
           "time_local"]


@dataclass(frozen=True)
class Timing:
    """The timed calls of one engine: ``best`` (the least, seconds), ``median``, every call's
    seconds in order (``times``), and the threads they ran with."""

    best: float
    median: float
    times: tuple
    threads: int


def compare(runs, *, threads=1, repeat=5, warmup=1, grid=None):
    """Time each callable of ``runs`` interleaved with the others, at ``threads`` threads.
    Collective (over ``grid``'s ranks) where it has several.

    Parameters
    ----------
    runs : dict of str to callable
        What to time, by name; each is called with no arguments (a gblas2d one calls collective
        operations: every rank calls ``compare`` alike).
    threads : int
        SuiteSparse's threads and the BLAS and OpenMP pools' limit during the calls, each rank's
        (``thread_count``); restored afterwards.
    repeat : int
        Timed calls of each.
    warmup : int
        Untimed calls of each first (libraries loaded, caches built, numba compiled).
    grid : Grid, optional
        Whose ranks start each call together and report the slowest; default the default grid.

    Returns
    -------
    dict of str to Timing
        In the order of ``runs``.

    Raises
    ------
    ValueError
        If ``repeat`` or ``threads`` is below 1, or ``GBLAS2D_THREADS`` fixes another count.
    """
    from .distributed.grid import default_grid

    if repeat < 1 or warmup < 0:
        raise ValueError(f"repeat (={repeat}) must be at least 1 and warmup (={warmup}) at "
                         "least 0")
    comm = (grid or default_grid()).comm
    names = list(runs)
    times = {name: [] for name in names}
    with thread_count(threads):
        for _ in range(warmup):
            for name in names:
                runs[name]()
        for k in range(repeat):
            # rotated each round: no engine is always first after the others' work
            for name in names[k % len(names):] + names[:k % len(names)]:
                times[name].append(time_collective(comm, runs[name], 1)[0][0])
    return {name: Timing(min(t), float(np.median(t)), tuple(t), threads)
            for name, t in times.items()}


@contextmanager
def thread_count(count):
    """``with thread_count(1): ...``: SuiteSparse's threads (python-graphblas's setting, which
    gblas2d's kernels read in one process) and the BLAS and OpenMP pools at ``count`` inside
    the block, as ``compare`` sets them, for timings of your own."""
    import graphblas
    from threadpoolctl import threadpool_limits

    if count < 1:
        raise ValueError(f"threads (={count}) must be at least 1")
    fixed = os.environ.get("GBLAS2D_THREADS")
    if fixed and int(fixed) != count:
        raise ValueError(f"GBLAS2D_THREADS={fixed} gives gblas2d's kernels their own thread "
                         f"count; unset it to time both engines at threads={count}")
    before = graphblas.ss.config["nthreads"]
    graphblas.ss.config["nthreads"] = count
    try:
        with threadpool_limits(limits=count):
            yield
    finally:
        graphblas.ss.config["nthreads"] = before


def slowest(comm, seconds):
    """Collective. The largest value of ``seconds`` over the ranks of ``comm``."""
    return float(comm.allreduce(np.array([seconds], dtype=np.float64), "max")[0])


def idle_wait(comm):
    """Collective. A barrier that sleeps instead of spinning, so that a waiting rank frees its
    core (for the rank that runs a peer engine alone while the others wait)."""
    if comm.size == 1:
        return
    request = comm.mpi.Ibarrier()
    while not request.Test():
        time.sleep(0.005)


def time_collective(comm, run, repeat):
    """Collective. ``repeat`` calls of ``run``, each started after a barrier. Returns three
    lists, one entry per call: wall seconds of the slowest rank, CPU seconds of the busiest
    rank, CPU seconds summed over the ranks."""
    times, cpu_max, cpu_sum = [], [], []
    for _ in range(repeat):
        comm.barrier()
        start, cpu = time.perf_counter(), time.process_time()
        run()
        cpu = time.process_time() - cpu
        times.append(slowest(comm, time.perf_counter() - start))
        cpu_max.append(slowest(comm, cpu))
        cpu_sum.append(float(comm.allreduce(np.array([cpu]), "sum")[0]))
    return times, cpu_max, cpu_sum


def time_local(run, repeat):
    """One process: a warm-up call, then ``repeat`` timed calls. Returns the best wall seconds,
    every call's wall seconds, the best CPU seconds (all threads) and the warm-up's result."""
    result = run()
    times, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        run()
        cpus.append(time.process_time() - cpu)
        times.append(time.perf_counter() - start)
    return min(times), times, min(cpus), result
