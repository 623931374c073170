"""Timing and output helpers shared by the benchmark scripts (imported as ``_common``: the
scripts run as ``python benchmarks/<script>.py``, which puts this folder on ``sys.path``)."""

import cProfile
import ctypes
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


def trim():
    """Hand the heap's freed memory back to the system (glibc's ``malloc_trim``), so that
    resident memory counts what is live, not what the allocator keeps for reuse (which differs
    from rank to rank); nothing where there is no glibc."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def reset_peak():
    """Start the peak resident memory again from what the process holds now (Linux 4.0 and
    later: ``/proc/self/clear_refs``), so that ``peak_since_reset`` is the peak of what
    follows alone, not of the process's life; False where it cannot."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def peak_since_reset():
    """The peak resident memory since ``reset_peak`` (``VmHWM``), in bytes; ``peak()`` where
    /proc does not say."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return peak()


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
