"""One process needs no MPI (issue 44): without a launcher, gblas2d runs without importing
mpi4py, so a machine with no MPI library (mpi4py missing, or present and unable to load one)
runs it; under a launcher of several processes, a missing MPI is a clear ImportError.

Each case runs in a child process, whose environment holds no launcher's variables."""

import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

from gblas2d.distributed.comm import launched_size

pytestmark = pytest.mark.serial_only

# mpi4py cannot be imported at all: as on a machine where it was never installed
NO_MPI4PY = """
import sys
class _NoMpi4py:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "mpi4py":
            raise ImportError("No module named 'mpi4py' (hidden by the test)")
sys.meta_path.insert(0, _NoMpi4py())
"""

# a BFS and a product with a scalar user op, then whether MPI was ever imported
WORK = """
import sys
import numpy as np
import gblas2d as gb
from gblas2d.algorithms import bfs_levels
rows, cols = np.array(ROWS), np.array(COLS)
A = gb.Matrix.from_coo(rows, cols, 1.0, nrows=N, ncols=N)
levels = bfs_levels(A, 0).to_dense(-1)
print(" ".join(map(str, levels.tolist())))
print("mpi4py.MPI" in sys.modules, gb.default_grid().nprocs)
"""

N = 12
ROWS = [0, 1, 1, 2, 3, 4, 5, 6, 7, 9, 10]
COLS = [1, 2, 3, 4, 5, 6, 7, 8, 8, 10, 11]


def child_env(**extra):
    """This environment less every launcher's variables (pytest may itself run under one)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PMI_", "PMIX_", "OMPI_", "MV2_", "SLURM_", "JSM_", "MPI_",
                                "HYDRA_", "GBLAS2D_MPI"))}
    env.update(extra)
    return env


def run_child(prelude, env):
    code = f"{prelude}\nROWS, COLS, N = {ROWS!r}, {COLS!r}, {N}\n{WORK}"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)


def expected_levels():
    A = sp.coo_matrix((np.ones(len(ROWS)), (ROWS, COLS)), shape=(N, N))
    hops = shortest_path(A, unweighted=True, indices=0)
    return [int(h) if np.isfinite(h) else -1 for h in hops]


@pytest.mark.parametrize(("environ", "size"), [
    ({}, 1),
    ({"PMI_SIZE": "4", "PMI_RANK": "2"}, 4),
    ({"OMPI_COMM_WORLD_SIZE": "3"}, 3),
    ({"MV2_COMM_WORLD_SIZE": "1"}, 1),
    ({"SLURM_STEP_NUM_TASKS": "8"}, 8),
    ({"JSM_NAMESPACE_SIZE": "6"}, 6),
    ({"PMIX_RANK": "0"}, None),
])
def test_the_launchers_size_is_read_from_the_environment(environ, size):
    assert launched_size(environ) == size


@pytest.mark.parametrize("how", ["mpi4py missing", "no MPI library"])
def test_one_process_runs_without_mpi(how):
    prelude = NO_MPI4PY if how == "mpi4py missing" else ""
    # mpi4py looks for the MPI library this names, which does not exist
    env = child_env(MPI4PY_LIBMPI="/nonexistent/libmpi.so.12")
    done = run_child(prelude, env)
    assert done.returncode == 0, done.stderr
    levels, state = done.stdout.splitlines()
    assert [int(t) for t in levels.split()] == expected_levels()
    assert state == "False 1"


def test_a_launched_job_without_mpi_says_why():
    done = run_child(NO_MPI4PY, child_env(PMI_SIZE="2", PMI_RANK="0"))
    assert done.returncode != 0
    assert "ImportError: gblas2d: launched as 2 processes, but mpi4py cannot load an MPI " \
        "library" in done.stderr


def test_gblas2d_mpi_asks_for_mpi_where_no_launcher_is_seen():
    done = run_child("", child_env(GBLAS2D_MPI="1", MPI4PY_LIBMPI="/nonexistent/libmpi.so.12"))
    assert done.returncode != 0
    assert "gblas2d: GBLAS2D_MPI asks for MPI, but mpi4py cannot load" in done.stderr


def test_the_command_runs_and_refuses_without_mpi():
    env = child_env()
    command = NO_MPI4PY + "from gblas2d.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    done = subprocess.run([sys.executable, "-c", command, "--scale", "5", "--quiet"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "reached" in done.stdout
    # a usage error is printed by the first rank, which one process is without asking MPI
    done = subprocess.run([sys.executable, "-c", command, "run", "no_such_algorithm",
                           "--graph", "kron:4"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert "invalid choice: 'no_such_algorithm'" in done.stderr
