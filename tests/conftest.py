"""Shared test settings.

Under ``mpiexec`` (the launcher in test_mpi_suites.py sets GBLAS2D_TEST_MPI=1) every rank must
draw the same hypothesis examples in the same order, or the ranks would call different
collectives: examples are derandomized, nothing is read from an example database, and no
timing-based check (deadline, health checks) may fail on one rank only.
"""

import compileall
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

UNDER_MPI = os.environ.get("GBLAS2D_TEST_MPI") == "1"
ROOT = Path(__file__).resolve().parents[1]

# The suite starts hundreds of Python processes: every mpiexec rank collects the suites again,
# and the CLI and the docs run commands. Where PYTHONDONTWRITEBYTECODE is set (the CI machine),
# none of them would find a module's bytecode, nor pytest's rewrite of a test file: collecting
# the three MPI suites took 6.8 s a rank, 3.4 s with the rewrites cached. The sessions write
# them, into the __pycache__ directories git ignores; ``_compile_sources`` writes the rest.
sys.dont_write_bytecode = False

# MPICH's shared-memory progress spins between yields of the core; the suites launch up to six
# ranks on two cores, where a spinning rank holds the core its peer needs. Yielding every 10
# polls (the default is 1,000) took the algorithm suite at 2x2 from 101 s to 61 s on 2 cores,
# and left it unchanged at 1x2. Every mpiexec the tests launch inherits it.
os.environ.setdefault("MPIR_CVAR_POSIX_POLL_FREQUENCY", "10")

settings.register_profile("serial", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# Four examples a property away from two ranks: the grids of four and six ranks share the two
# cores of a CI machine, and the same properties run eight examples at 1x2 and forty serially.
# (MPICH's launcher tells each rank the job's size in PMI_SIZE.)
_RANKS = int(os.environ.get("PMI_SIZE", "2"))
settings.register_profile("mpi", max_examples=8 if _RANKS <= 2 else 4, deadline=None,
                          derandomize=True, database=None, suppress_health_check=list(HealthCheck),
                          print_blob=False)
settings.load_profile("mpi" if UNDER_MPI else "serial")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Under mpiexec every rank is its own pytest session, and sessions sharing pytest's default
    temporary root remove each other's numbered directories while listing them: each rank gets a
    root of its own, removed when it ends. The session's first process compiles the sources."""
    if not UNDER_MPI and not hasattr(config, "workerinput"):
        _compile_sources()
    if UNDER_MPI and config.option.basetemp is None:
        root = tempfile.mkdtemp(prefix="gblas2d-pytest-")
        config.option.basetemp = root
        config.add_cleanup(lambda: shutil.rmtree(root, ignore_errors=True))


def _compile_sources():
    """Write the bytecode of the project's own modules once, before the suite launches its
    hundreds of Python processes (the CLI's runs, the docs' transcripts, mpiexec's ranks).
    Where PYTHONDONTWRITEBYTECODE is set, as on the CI machine, an editable install's modules
    are never cached, and each process compiled the ~130 it imports again: 0.5 s of a 1.9 s
    ``gblas2d run`` on karate, 127 -> 84 s of the docs' transcripts run one after another."""
    for name in ("gblas2d", "algorithms", "semirings"):
        compileall.compile_dir(ROOT / name, quiet=1)
    compileall.compile_file(ROOT / "_nx_gblas2d.py", quiet=1)


def pytest_collection_modifyitems(config, items):
    """The MPI suites (tests/test_mpi_suites.py, the longest file by far) are handed out first,
    so that the other files run on the other workers beside them rather than after them."""
    items.sort(key=lambda item: item.fspath.basename != "test_mpi_suites.py")
