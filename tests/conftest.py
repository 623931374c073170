"""Shared test settings.

Under ``mpiexec`` (the launcher in test_mpi_suites.py sets GBLAS2D_TEST_MPI=1) every rank must
draw the same hypothesis examples in the same order, or the ranks would call different
collectives: examples are derandomized, nothing is read from an example database, and no
timing-based check (deadline, health checks) may fail on one rank only.
"""

import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

UNDER_MPI = os.environ.get("GBLAS2D_TEST_MPI") == "1"

settings.register_profile("serial", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("mpi", max_examples=8, deadline=None, derandomize=True,
                          database=None, suppress_health_check=list(HealthCheck),
                          print_blob=False)
settings.load_profile("mpi" if UNDER_MPI else "serial")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Under mpiexec every rank is its own pytest session, and sessions sharing pytest's default
    temporary root remove each other's numbered directories while listing them: each rank gets a
    root of its own, removed when it ends."""
    if UNDER_MPI and config.option.basetemp is None:
        root = tempfile.mkdtemp(prefix="gblas2d-pytest-")
        config.option.basetemp = root
        config.add_cleanup(lambda: shutil.rmtree(root, ignore_errors=True))
