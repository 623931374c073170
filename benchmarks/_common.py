"""Timing and output helpers shared by the benchmark scripts (imported as ``_common``: the
scripts run as ``python benchmarks/<script>.py``, which puts this folder on ``sys.path``)."""

import cProfile
import json
import os
import pstats
import resource
import sys

# The timing helpers live in the package, where a user's script reaches them too
from gblas2d.timing import idle_wait, slowest, time_collective, time_local  # noqa: F401


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
