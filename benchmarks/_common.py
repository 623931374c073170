"""Timing and output helpers shared by the benchmark scripts (imported as ``_common``: the
scripts run as ``python benchmarks/<script>.py``, which puts this folder on ``sys.path``)."""

import cProfile
import json
import os
import pstats
import resource
import sys
import time

import numpy as np


def resident():
    """This process's resident memory now, in bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def peak():
    """This process's peak resident memory so far, in bytes (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def outside_mpi_env():
    """The environment without the MPI launcher's variables: a child process started with it
    runs on its own, not as a rank of this job."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PMI_", "MPI_", "HYDRA_"))}


def peak_rss_mib():
    """This process's peak resident set size (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def slowest(comm, seconds):
    """Collective. The largest value of ``seconds`` over the ranks."""
    return float(comm.allreduce(np.array([seconds], dtype=np.float64), "max")[0])


def idle_wait(comm):
    """Collective. A barrier that sleeps instead of spinning, so a waiting rank frees its core."""
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


def profile_one(comm, run, sort="cumulative", top=25):
    """Collective. cProfile of one call on every rank; rank 0 prints its top functions."""
    profiler = cProfile.Profile()
    comm.barrier()
    profiler.enable()
    run()
    profiler.disable()
    if comm.rank == 0:
        pstats.Stats(profiler, stream=sys.stdout).sort_stats(sort).print_stats(top)


def write_json(path, report):
    """Write ``report`` to ``path`` through a temporary file, so a reader never sees half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(report, indent=1) + "\n")
    os.replace(tmp, path)
