"""Run the engine, algorithm and I/O suites under ``mpiexec -n P`` (grids 1x2 and 2x2; the
engine and I/O suites also at 2x1, the engine suite at 2x3), each under a timeout. 2x1 is the
grid where a product's blocks hold whole rows, so mxm pushes the mask into the local kernel: an
engine matter, which the algorithms (built on the engine, public API only) meet at 1x2 and 2x2
already, and the 8-minute budget of the whole suite keeps them there. 2x3 is the uneven grid,
whose ownership arithmetic the engine's tests check (six ranks share the machine's two cores,
so the algorithms run at up to four). Away from 1x2 the engine suite leaves out the tests of
the python-graphblas surface (operators, aggregators, display, the names published code uses,
the timing helpers, ...): they meet the grid only through the products and writes the other
engine tests check at every grid, and they run at 1 rank and 1x2 (48 s of the 2x2 run on 2
cores, where they ran until the suite outgrew its budget).

The algorithm suite runs once more on the array backend (GBLAS2D_BACKEND=array: the kernels a GPU
runs through cupy, here on numpy) at 1x2, less the memory bound, whose constants are
SuiteSparse's (its workspace is not Python memory); BFS, PageRank, FastSV and the fused BPT run
on it at every grid in the engine suite (tests/engine/test_array_backend.py), and the property
tests at 1 rank, 1x2 and 2x2. More grids would add a minute to the suite's ten.

A deadlock is a failure, not a hang: the subprocess is killed at the timeout. Each rank runs the
same pytest session; the distributed tests agree on their verdicts, so every rank passes or
fails together and mpiexec's exit code is the verdict.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUITES = ["tests/engine", "tests/algorithms", "tests/io"]
SURFACE = ["test_python_semantics", "test_compat_surface", "test_lazy_infix", "test_agg",
           "test_scalar_surface", "test_numpy_ops", "test_display", "test_recorder",
           "test_dropin", "test_fair_timing"]
GRID_ENGINE = ["tests/engine", *(f"--ignore=tests/engine/{name}.py" for name in SURFACE)]
TIMEOUT = int(os.environ.get("GBLAS2D_MPI_TIMEOUT", "420"))


def mpiexec():
    found = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
        shutil.which("mpiexec")
    if found is None:
        pytest.fail("mpiexec not found: install the 'mpich' extra (pip install -e '.[test]')")
    return found


@pytest.mark.mpi
@pytest.mark.parametrize(("nprocs", "grid", "suites"), [(2, "1x2", SUITES),
                                                     (2, "2x1", [*GRID_ENGINE, "tests/io"]),
                                                     (4, "2x2", [*GRID_ENGINE,
                                                                 "tests/algorithms",
                                                                 "tests/io"]),
                                                     (6, "2x3", GRID_ENGINE)])
def test_engine_under_mpiexec(nprocs, grid, suites):
    _run_suites(nprocs, grid, suites, {})


@pytest.mark.mpi
@pytest.mark.parametrize(("nprocs", "grid"), [(2, "1x2")])
def test_algorithms_on_the_array_backend(nprocs, grid):
    _run_suites(nprocs, grid, ["tests/algorithms", "--deselect",
                               "tests/algorithms/test_memory_bound.py"],
                {"GBLAS2D_BACKEND": "array"})


def _run_suites(nprocs, grid, suites, extra_env):
    env = dict(os.environ, GBLAS2D_TEST_MPI="1", GBLAS2D_GRID=grid, PYTHONHASHSEED="0",
               OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", **extra_env)
    cmd = [mpiexec(), "-n", str(nprocs), sys.executable, "-m", "pytest", *suites, "-q",
           "-p", "no:cacheprovider", "-n", "0", "-x", "-m", "not serial_only"]
    try:
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"")[-4000:] if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        pytest.fail(f"mpiexec -n {nprocs} timed out after {TIMEOUT}s (deadlock?)\n{out[-4000:]}")
    assert done.returncode == 0, \
        f"mpiexec -n {nprocs} failed:\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}"
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed and int(passed.group(1)) > 0, f"no test ran under mpiexec:\n{done.stdout}"
