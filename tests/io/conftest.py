"""Fixtures of the io suite."""

import shutil
import tempfile
from pathlib import Path

import pytest

import gblas2d as gb


@pytest.fixture
def shared_dir():
    """A scratch directory every rank agrees on: rank 0 makes it and sends its name (pytest's
    tmp_path differs from rank to rank under mpiexec)."""
    comm = gb.default_grid().comm
    made = tempfile.mkdtemp(prefix="gblas2d-io-") if comm.rank == 0 else None
    path = Path(comm.bcast_object(made))
    yield path
    comm.barrier()
    if comm.rank == 0:
        shutil.rmtree(path)
