"""The checked mode's deadline (GBLAS2D_DEBUG, issue 46): a rank that raised, skipped a gblas2d
call and waits in a collective of its own leaves the others waiting in that call's world step.
Past GBLAS2D_DEBUG_TIMEOUT seconds they say where each rank is and the job is aborted, instead
of hanging. Launched here at 4 ranks (not under the MPI suites: it starts mpiexec itself)."""

import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""\
    import gblas2d as gb
    from mpi4py import MPI

    theirs = MPI.COMM_WORLD.Dup()  # the user's own communicator
    # the ranks start together: on a loaded machine one may finish its imports seconds after
    # the others, which the deadline would report as a wait in the grid's first step
    theirs.Barrier()
    rank = gb.default_grid().rank
    try:
        if rank == 1:
            raise KeyError("a mistake of rank 1's own")
        v = gb.Vector.from_coo([0, 1], [1.0, 2.0], size=16)
    except KeyError:
        pass
    theirs.Barrier()
    print(rank, "went on", flush=True)
""")


@pytest.mark.serial_only
def test_a_rank_that_skipped_a_call_is_reported_and_the_job_aborted(tmp_path):
    script = tmp_path / "skip.py"
    script.write_text(SCRIPT)
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
        shutil.which("mpiexec")
    env = dict(os.environ, GBLAS2D_DEBUG="1", GBLAS2D_DEBUG_TIMEOUT="2", OMP_NUM_THREADS="1",
               PYTHONPATH=str(ROOT))
    env.pop("GBLAS2D_GRID", None)
    start = time.monotonic()
    done = subprocess.run([mpiexec, "-n", "4", sys.executable, str(script)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert time.monotonic() - start < 100
    assert done.returncode != 0, done.stdout + done.stderr
    assert "went on" not in done.stdout
    lines = done.stderr.splitlines()
    first = "gblas2d: ranks waited more than 2 s for the others (GBLAS2D_DEBUG); where each " \
            "rank is:"
    assert first in lines, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    head = lines.index(first)
    report = lines[head + 1:head + 6]
    waiting = re.compile(r"  rank (\d): in Vector\.from_coo at skip\.py:12, waiting \d+ s in "
                         r"a world step \(its collective number \d+\)")
    for rank in (0, 2, 3):
        assert waiting.fullmatch(report[rank]) and report[rank][7] == str(rank), report
    assert report[1] == "  rank 1: no report: not waiting in a gblas2d call (it skipped one, " \
                        "or waits or works elsewhere)"
    assert report[4] == "gblas2d: aborting the job"
