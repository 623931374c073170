"""The ``gblas2d`` command end to end, as a user runs it: one process and ``mpiexec -n 4``.

Most cases are a subprocess; its exit code, rank 0's output and the files it writes are checked.
Cases that need no separate process (usage errors, help, output formats on a small graph) call
``main`` in this one.
"""

import importlib
import importlib.metadata
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.io
from scipy.sparse import csgraph

from gblas2d.cli.algorithms import ALGORITHMS
from gblas2d.cli.progress import Progress

ROOT = Path(__file__).resolve().parents[2]
KARATE = ROOT / "tests/data/lagraph/karate.mtx"
MANGLED = ROOT / "tests/data/lagraph/mangled3.mtx"
ENV = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
ENV.pop("GBLAS2D_GRID", None)
ENV.pop("GBLAS2D_TEST_MPI", None)


def gblas2d(*args, nprocs=1, timeout=240):
    cmd = [sys.executable, "-m", "gblas2d", *map(str, args)]
    if nprocs > 1:
        mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
            shutil.which("mpiexec")
        assert mpiexec, "mpiexec not found: install the 'mpich' extra"
        cmd = [mpiexec, "-n", str(nprocs), *cmd]
    return subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, text=True,
                          timeout=timeout)


def read_result(path):
    data = np.loadtxt(path, ndmin=2)
    return data[:, 0].astype(np.int64), data[:, 1]


KARATE_LEVELS = csgraph.shortest_path(scipy.io.mmread(KARATE), unweighted=True, indices=0)


@pytest.mark.parametrize("nprocs", [1, 4])
def test_run_writes_checked_results(tmp_path, nprocs):
    out, summary, plot = tmp_path / "levels.tsv", tmp_path / "summary.json", tmp_path / "t.png"
    done = gblas2d("run", "bfs_levels", "--graph", KARATE, "--source", 0, "--check",
                   "--trace", "--output", out, "--json", summary, "--plot", plot,
                   nprocs=nprocs)
    assert done.returncode == 0, done.stderr
    assert "check: OK" in done.stdout
    want = KARATE_LEVELS
    # --trace prints one row per level's product (the last finds nothing), once: rank 0 only
    assert done.stdout.count("any_pair") == want.max() + 1
    # then one row per level over every rank, after the row of the calls before the first
    # level at more than one rank
    rows = iteration_rows(done.stdout)
    assert [r[0] for r in rows] == ["-"] * (nprocs > 1) + \
        [str(k) for k in range(int(want.max()) + 1)]
    idx, levels = read_result(out)
    np.testing.assert_array_equal(idx, np.arange(34))
    np.testing.assert_array_equal(levels, want)
    report = json.loads(summary.read_text())
    assert report["processes"] == nprocs and report["check"]["verdict"] == "OK"
    assert len(report["trace"]) == report["iterations"] == want.max() + 1
    # the same rows in the JSON: each level's frontier, its bytes over the ranks
    levels_rows = [r for r in report["trace_iterations"] if r["iteration"] is not None]
    assert [r["frontier"] for r in levels_rows] == \
        [e["frontier_nvals"] for e in report["trace"]] == [1, 16, 9, 8]
    groups = {"world", "row", "col", "transpose"} if nprocs == 4 else set()
    assert all(set(r["bytes"]) == groups for r in levels_rows)
    assert all(b["max"] >= b["mean"] >= 0 for r in levels_rows for b in r["bytes"].values())
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {plot}" in done.stdout
    # the temporary files were renamed over the targets, nothing else is left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["levels.tsv", "summary.json",
                                                           "t.png"]


def iteration_rows(stdout):
    """The rows of the per-iteration table of --trace, split at blanks, under its header."""
    lines = stdout.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("iteration ")) + 1
    return [line.split() for line in lines[start:] if re.match(r"(-|\d+) ", line)]


def test_plot_is_refused_before_any_work(command, tmp_path, monkeypatch):
    for args, message in [
            (["--plot", "-"], "--plot writes a PNG file, not standard output"),
            (["--plot", tmp_path / "a", "--json", tmp_path / "a"],
             "--plot and --json name the same file"),
            (["--plot", tmp_path / "none" / "a.png"], "--plot: cannot write")]:
        code, out, err = command("run", "bfs_levels", "--graph", KARATE, *args)
        assert code == 2 and out == "" and message in err, err
    monkeypatch.setattr("gblas2d.cli.run.find_spec", lambda name: None)
    code, out, err = command("run", "bfs_levels", "--graph", KARATE, "--plot", tmp_path / "a")
    assert code == 2 and "pip install 'gblas2d[plot]'" in err and out == ""


@pytest.mark.parametrize("algorithm,options", [
    ("bfs_parents", []), ("pagerank", ["--method", "gap"]),
    ("connected_components", ["--method", "label_propagation"]),
    ("sssp", ["--method", "delta_stepping"]),
])
def test_every_algorithm_checks_out_on_a_generated_graph(command, algorithm, options):
    code, out, err = command("run", algorithm, "--graph", "kron:9:8", *options, "--check")
    assert code == 0, out + err
    assert "check: OK" in out


def test_components_of_a_mesh_at_four_ranks():
    done = gblas2d("run", "connected_components", "--graph", "grid:12:9", "--check", nprocs=4)
    assert done.returncode == 0, done.stderr
    assert "1 components, the largest has 108 vertices" in done.stdout
    assert "check: OK" in done.stdout
    assert done.stdout.count("connected_components:") == 1


@pytest.mark.parametrize("nprocs", [1, 4])
def test_graph500_passes_validation(nprocs):
    done = gblas2d("graph500", "--scale", 8, "--roots", 4, "--quiet", nprocs=nprocs)
    assert done.returncode == 0, done.stdout + done.stderr
    fields = dict(line.split(":", 1) for line in done.stdout.splitlines() if ":" in line)
    assert int(fields["NBFS"]) == 4
    assert int(fields["num_mpi_processes"]) == nprocs
    assert float(fields["bfs_harmonic_mean_TEPS"]) > 0
    assert "validation: 4 of 4 trees passed" in done.stdout


def test_info_reports_blocks_per_rank():
    done = gblas2d("info", "--graph", KARATE, "--grid", "2x2", nprocs=4)
    assert done.returncode == 0, done.stderr
    assert "vertices 34 x 34, entries 156" in done.stdout
    assert "symmetric True" in done.stdout
    counts = [int(line.rsplit(",", 1)[1].split()[0]) for line in done.stdout.splitlines()
              if line.strip().startswith("rank ")]
    assert len(counts) == 4 and sum(counts) == 156


@pytest.mark.parametrize("args,message", [
    (["run", "bfs_levels", "--graph", "missing.mtx"], "graph file not found: missing.mtx"),
    (["run", "bfs_levels", "--graph", "kron:x"], "must be integers"),
    (["run", "bfs_levels", "--graph", "kron:6", "--source", 999], "out of range"),
    (["run", "pagerank", "--graph", "kron:6", "--method", "fastsv"], "not a method"),
    # the reader's message names the path, once
    (["run", "bfs_levels", "--graph", MANGLED], f"error: {MANGLED}: line 1: unknown field"),
    (["run", "nosuch", "--graph", "kron:6"], "invalid choice"),
    (["run", "bfs_levels", "--graph", "kron:6", "--grid", "2by2"], "must look like 2x3"),
    (["run", "bfs_levels", "--graph", "kron:6", "--grid", "2x2"], "does not match 1 processes"),
    (["run", "bfs_levels", "--graph", "er:0:5"], "n (=0) must be >= 1"),
    (["graph500", "--scale", 5, "--roots", 0], "must be at least 1"),
    (["graph500", "--scale", 0], "no vertex with an edge"),
])
def test_bad_input_is_one_line_and_exit_code_2(command, args, message):
    code, _, err = command(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("args", [["--graph", MANGLED], ["--graph", "kron:6", "--grid", "3x3"],
                                  ["--graph", "kron:6", "--damping", 0.5],
                                  ["--graph", "kron:6", "--seed", -1]],
                         ids=["mangled-file", "grid-mismatch", "option-not-read", "argparse"])
def test_bad_input_under_mpiexec_exits_2_on_every_rank(args):
    done = gblas2d("run", "bfs_levels", *args, nprocs=2)
    assert done.returncode == 2
    # only rank 0 prints the error, in one line
    assert done.stderr.count("gblas2d: error:") == 1, done.stderr
    assert "usage:" not in done.stderr


def test_write_failure_is_reported(command):
    code, _, err = command("run", "bfs_levels", "--graph", "kron:6", "--output",
                           "/nonexistent/x.tsv")
    assert code == 2
    assert "cannot write /nonexistent/x.tsv" in err


@pytest.mark.parametrize("algorithm", ["bfs_parents", "connected_components"])
def test_relabeled_run_answers_in_the_input_labels(tmp_path, algorithm):
    plain, relabeled = tmp_path / "plain.tsv", tmp_path / "relabeled.tsv"
    source = ["--source", 5] if algorithm == "bfs_parents" else []
    for out, extra in ((plain, []), (relabeled, ["--relabel"])):
        done = gblas2d("run", algorithm, "--graph", "grid:9:7", *source, "--check",
                       "--output", out, *extra, nprocs=2)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "check: OK" in done.stdout
    # components are labelled by their smallest input id either way; parent trees may differ
    # (ties go to the smallest id in the relabeled graph) but both passed validation above
    if algorithm == "connected_components":
        np.testing.assert_array_equal(read_result(plain)[1], read_result(relabeled)[1])


def test_an_algorithm_without_an_answer_exits_1(command):
    code, _, err = command("run", "pagerank", "--graph", "kron:8", "--max-iter", 2)
    assert code == 1
    assert "pagerank did not reach tol=0.0001 in 2 iterations" in err


@pytest.mark.parametrize("who_sees_it", ["rank 0", "the other ranks"])
def test_a_file_some_ranks_cannot_see_fails_on_all_of_them(tmp_path, who_sees_it):
    """A relative path under different working directories: ranks that see the file and
    ranks that do not must end alike (one line, exit code 2), not wait for each other."""
    seen, unseen = tmp_path / "seen", tmp_path / "unseen"
    seen.mkdir()
    unseen.mkdir()
    shutil.copy(KARATE, seen / "g.mtx")
    first, rest = (seen, unseen) if who_sees_it == "rank 0" else (unseen, seen)
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
        shutil.which("mpiexec")
    command = [sys.executable, "-m", "gblas2d", "run", "bfs_levels", "--graph", "g.mtx"]
    done = subprocess.run([mpiexec, "-n", "1", "-wdir", str(first), *command, ":",
                           "-n", "3", "-wdir", str(rest), *command],
                          env=dict(ENV, PYTHONPATH=str(ROOT)), capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    lacking = "ranks 1, 2 and 3" if who_sees_it == "rank 0" else "rank 0"
    assert lines == [f"gblas2d: error: graph file not found: g.mtx (on {lacking} of 4; the "
                     "others had no such error)"], done.stderr


# The rank under test loads what the command loads, then may map only a little more.
LIMITED = textwrap.dedent("""\
    import resource, sys
    import mpi4py.MPI
    import suitesparse_graphblas
    import gblas2d.cli
    from gblas2d.local.backends import compiled
    if compiled.available():
        compiled.load()
    status = open("/proc/self/status").read().split("VmSize:")[1]
    limit = int(status.split()[0]) * 1024 + (24 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.exit(gblas2d.cli.main(sys.argv[1:]))
""")


def test_one_rank_out_of_memory_is_one_line_and_exit_code_2(tmp_path):
    """One rank of four under an address-space limit (``ulimit -v``) runs out of memory while
    the graph is built: every rank ends with the same MemoryError, and the command prints
    one line naming the rank and the size, with exit code 2 (issue 46: 195 lines, three
    tracebacks and MPI_Abort before)."""
    limited = tmp_path / "limited.py"
    limited.write_text(LIMITED)
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
        shutil.which("mpiexec")
    command = ["run", "bfs_levels", "--graph", "kron:16", "--quiet"]
    done = subprocess.run([mpiexec, "-n", "3", sys.executable, "-m", "gblas2d", *command, ":",
                           "-n", "1", sys.executable, str(limited), *command], cwd=ROOT,
                          env=dict(ENV, PYTHONPATH=str(ROOT)), capture_output=True, text=True,
                          timeout=240)
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2, lines
    assert len(lines) == 1 and re.fullmatch(
        r"gblas2d: error: out of memory: rank 3: Unable to allocate [\d.]+ MiB for an array "
        r"with shape \([\d, ]+\) and data type \w+", lines[0]), lines


@pytest.mark.parametrize("nprocs", [1, 2])
def test_an_unwritable_output_is_found_before_the_run(tmp_path, nprocs):
    for target, what in ((tmp_path / "missing" / "out.tsv", "no directory"),
                         (tmp_path, "it is a directory")):
        done = gblas2d("run", "bfs_levels", "--graph", "kron:8", "--output", target,
                       nprocs=nprocs)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stdout == "", "the graph was loaded before the output was checked"
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and what in lines[0], done.stderr


def test_a_user_script_failing_on_one_rank_ends_the_job_under_python_m_mpi4py(tmp_path):
    """What docs/getting-started.md tells users: a script whose own code raises on one rank
    (the others wait in the next collective) ends the whole job when run as
    ``python -m mpi4py script.py``; it does not hang."""
    script = tmp_path / "user.py"
    script.write_text(textwrap.dedent("""
        import gblas2d as gb
        v = gb.Vector.from_coo([0, 5], [1.0, 2.0], size=8)
        if gb.default_grid().rank == 1:
            raise ValueError("only rank 1 fails")
        print(v.reduce().new().value)   # the other ranks wait for rank 1 here
    """))
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
        shutil.which("mpiexec")
    done = subprocess.run([mpiexec, "-n", "2", sys.executable, "-m", "mpi4py", str(script)],
                          cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "ValueError: only rank 1 fails" in done.stderr


def test_an_edge_list_read_as_undirected(tmp_path):
    """Graphalytics gives undirected graphs as edge lists with each edge once: --undirected
    reads each line both ways."""
    edges = tmp_path / "path.txt"
    edges.write_text("0 1\n1 2\n2 3\n")
    directed = gblas2d("run", "bfs_levels", "--graph", edges, "--source", 3, "--check")
    undirected = gblas2d("run", "bfs_levels", "--graph", edges, "--source", 3, "--check",
                         "--undirected", nprocs=2)
    assert directed.returncode == undirected.returncode == 0, directed.stderr + \
        undirected.stderr
    assert "reached 1 vertices" in directed.stdout
    assert "reached 4 vertices" in undirected.stdout and "check: OK" in undirected.stdout
    refused = gblas2d("run", "bfs_levels", "--graph", "kron:6", "--undirected")
    assert refused.returncode == 2 and "--undirected reads edge lists" in refused.stderr


def test_pagerank_runs_a_fixed_number_of_iterations():
    # Graphalytics' num-iterations: two iterations answer where --max-iter 2 does not.
    done = gblas2d("run", "pagerank", "--graph", "kron:8", "--iterations", 2, "--check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check: OK (ranks against 2 dense power iterations)" in done.stdout


def test_shortest_paths_on_a_pattern_file_use_unit_weights():
    done = gblas2d("run", "sssp", "--graph", KARATE, "--source", 0, "--method",
                   "delta_stepping", "--delta", 2, "--check")
    assert done.returncode == 0, done.stderr
    assert "check: OK" in done.stdout


# ------------------------------------------------ fused_bpt, influence, matching, CDLP, BC


def summary_of(done, algorithm):
    """The summary line of a run: the text after '<algorithm>...: <seconds> s; '."""
    line = next(line for line in done.stdout.splitlines() if line.startswith(algorithm))
    return line.split(" s; ", 1)[1]


def check_file(algorithm, idx, values, summary):
    """What each algorithm's --output holds, against its own summary line."""
    if algorithm == "fused_bpt":
        # RRR sets holding each vertex: 1 to --colors, vertices in none left out
        assert np.all((values >= 1) & (values <= 70))
        mean = float(summary.split("RRR sets of ")[1].split()[0])
        assert values.sum() / 70 == pytest.approx(mean, abs=0.05)
    elif algorithm == "max_weight_matching":
        # mate[mate[u]] = u, never u itself; two lines per matched edge
        mate = dict(zip(idx.tolist(), values.astype(np.int64).tolist(), strict=True))
        assert all(mate[v] == u and u != v for u, v in mate.items())
        assert len(mate) == 2 * int(summary.split()[0])
    else:
        # a label, a vertex id, for every vertex
        np.testing.assert_array_equal(idx, np.arange(256))
        assert np.all((values >= 0) & (values < 256))
        assert len(np.unique(values)) == int(summary.split()[0])


@pytest.mark.parametrize("algorithm,options", [
    ("fused_bpt", ["--colors", 70, "--probability", 0.3, "--trace"]),
    ("max_weight_matching", []),
    ("label_propagation", []),
])
def test_new_algorithms_check_out_and_agree_at_one_and_four_ranks(tmp_path, algorithm,
                                                                   options):
    outputs = []
    for nprocs in (1, 4):
        out = tmp_path / f"{nprocs}.tsv"
        done = gblas2d("run", algorithm, "--graph", "kron:8", *options, "--check",
                       "--output", out, nprocs=nprocs)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "check: OK" in done.stdout
        check_file(algorithm, *read_result(out), summary_of(done, algorithm))
        outputs.append(out.read_text())
    assert outputs[0] == outputs[1]
    if algorithm == "fused_bpt":
        # --trace: one mxm per level, printed once
        assert done.stdout.count(" mxm ") == int(summary_of(done, algorithm).split()[2])


def test_certain_edges_put_every_vertex_in_every_rrr_set(tmp_path):
    out = tmp_path / "rrr.tsv"
    done = gblas2d("run", "fused_bpt", "--graph", "grid:6:6", "--colors", 5, "--probability",
                   1, "--check", "--output", out)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check: OK" in done.stdout
    idx, counts = read_result(out)
    np.testing.assert_array_equal(idx, np.arange(36))
    np.testing.assert_array_equal(counts, 5)


def test_influence_maximization_writes_the_seeds_in_order(tmp_path):
    out = tmp_path / "seeds.tsv"
    done = gblas2d("run", "influence_maximization", "--graph", "grid:6:6", "--seeds", 4,
                   "--samples", 300, "--probability", 0.3, "--check", "--output", out)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check: OK" in done.stdout
    summary = summary_of(done, "influence_maximization")
    seeds = [int(s) for s in summary.split(";")[0].split()[1:]]
    assert "(300 samples)" in summary
    idx, order = read_result(out)
    np.testing.assert_array_equal(np.sort(order), np.arange(4))
    assert idx[np.argsort(order)].tolist() == seeds


@pytest.mark.parametrize("options", [[], ["--source", 5]])
def test_betweenness_against_networkx(tmp_path, options):
    out = tmp_path / "bc.tsv"
    done = gblas2d("run", "betweenness_centrality", "--graph", "grid:6:6", *options, "--check",
                   "--output", out)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check: OK" in done.stdout
    assert ("from vertex 5" in done.stdout) == bool(options)
    idx, values = read_result(out)
    np.testing.assert_array_equal(idx, np.arange(36))
    top, at = summary_of(done, "betweenness_centrality").split()[2::3]
    assert values.max() == pytest.approx(float(top), rel=1e-5) and values.argmax() == int(at)


def test_relabeled_matching_and_betweenness_answer_in_the_input_labels(tmp_path):
    results = {}
    for algorithm, extra in (("max_weight_matching", []),
                             ("betweenness_centrality", ["--source", 5])):
        for relabel in ([], ["--relabel"]):
            out = tmp_path / f"{algorithm}{len(relabel)}.tsv"
            done = gblas2d("run", algorithm, "--graph", "grid:7:5", *extra, *relabel, "--check",
                           "--output", out)
            assert done.returncode == 0, done.stdout + done.stderr
            assert "check: OK" in done.stdout
            results[algorithm, len(relabel)] = read_result(out)
    # a matching may differ (ties fall to other ids), but both passed the check; betweenness
    # does not depend on the labels
    np.testing.assert_allclose(results["betweenness_centrality", 0][1],
                               results["betweenness_centrality", 1][1], rtol=1e-12)


@pytest.mark.parametrize("args,message", [
    (["fused_bpt", "--probability", 2], "--probability must be a number in [0, 1] or 'weight'"),
    (["fused_bpt", "--probability", "weights"], "got 'weights'"),
    (["fused_bpt", "--colors", 0], "--colors must be at least 1, got 0"),
    (["influence_maximization", "--samples", 0], "--samples must be at least 1, got 0"),
    (["influence_maximization", "--seeds", 65], "--seeds (=65) must not exceed"),
    (["label_propagation", "--max-iter", -1], "--max-iter must be at least 0, got -1"),
    (["fused_bpt", "--relabel"], "--relabel is not supported by fused_bpt"),
    (["label_propagation", "--relabel"], "--relabel is not supported by label_propagation"),
    (["max_weight_matching", "--method", "greedy"], "(choices: none)"),
])
def test_bad_options_of_the_new_algorithms(command, args, message):
    code, _, err = command("run", *args, "--graph", "kron:6")
    assert code == 2
    assert len(err.splitlines()) == 1
    assert err.startswith("gblas2d: error: ")
    assert message in err


@pytest.mark.parametrize("nprocs,signum", [(1, signal.SIGINT), (4, signal.SIGINT),
                                           (1, signal.SIGTERM)])
def test_an_interrupt_ends_the_run_with_one_line(tmp_path, nprocs, signum):
    """Ctrl-C (SIGINT to the launcher, which passes it to every rank) or SIGTERM: at most one
    line, no traceback, exit code 128 + the signal, and no temporary file beside the output."""
    out = tmp_path / "ranks.tsv"
    cmd = [sys.executable, "-m", "gblas2d", "run", "pagerank", "--graph", "kron:14",
           "--iterations", "1000000", "--output", str(out)]
    if nprocs > 1:
        mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
            shutil.which("mpiexec")
        cmd = [mpiexec, "-n", str(nprocs), *cmd]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        # The graph line comes once the graph is built: the run is then under way.
        assert proc.stdout.readline().startswith("graph kron:14")
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    line = f"gblas2d: interrupted ({signal.Signals(signum).name})"
    if nprocs == 1:
        assert proc.returncode == 128 + signum, err
        assert err.strip() == line
    else:
        # Every rank leaves with 128 + the signal, and the launcher ends any rank the signal
        # found blocked in a collective the others had left (its exit code may then be the
        # launcher's own kill); rank 0 says it, unless it was that rank.
        assert proc.returncode != 0, err
        assert err.strip() in (line, ""), err
    assert list(tmp_path.iterdir()) == []


def test_a_signal_during_the_write_leaves_no_temporary_file(tmp_path):
    script = textwrap.dedent("""
        import os, signal, sys
        from gblas2d.cli import Interrupted
        from gblas2d.io.graphio import write_atomically

        def interrupt(signum, frame):
            raise Interrupted(signum)

        signal.signal(signal.SIGTERM, interrupt)

        def write(f):
            f.write(b"half of it")
            os.kill(os.getpid(), signal.SIGTERM)
            f.write(b"the rest")

        try:
            write_atomically(sys.argv[1], write, compress=False)
        except Interrupted:
            sys.exit(143)
    """)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out.tsv")],
                          cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)
    assert done.returncode == 143, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_temporaries_of_killed_runs_are_removed_by_the_next_write(tmp_path):
    """kill -9 runs no cleanup: the next write of the same output removes the temporaries
    whose process is gone, and keeps those of a live one."""
    from gblas2d.io.graphio import _temporary_name, write_atomically

    out = tmp_path / "out.tsv"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = Path(_temporary_name(out, int(gone)))
    live = Path(_temporary_name(out, os.getpid()))
    stale.write_bytes(b"left by a killed run")
    live.write_bytes(b"being written")
    write_atomically(out, lambda f: f.write(b"done"), compress=False)
    assert out.read_bytes() == b"done"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, out.name])


def test_the_next_run_names_the_temporary_of_a_killed_one(command, tmp_path):
    """A job killed while rank 0 wrote --output (kill -9, or a Ctrl-C whose launcher ended a
    rank blocked in MPI) leaves its temporary beside it: the next run removes it and says so."""
    from gblas2d.io.graphio import _temporary_name

    out = tmp_path / "levels.csv"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = Path(_temporary_name(out, int(gone)))
    stale.write_bytes(b"vertex,level\n0,")
    code, stdout, err = command("run", "bfs_levels", "--graph", KARATE, "--output", out)
    assert code == 0, err
    assert f"removed {stale.name}: the temporary file of a write of {out} by process {gone} " \
        "of this host, which was killed before it finished" in stdout.splitlines()
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


# ------------------------------------------------------------ LDBC Graphalytics .v / .e pairs

# Non-contiguous ids, one above 2**53 (a float64 column would round it), one isolated vertex.
GA_IDS = [10, 30, 31, 99, 500, 7000, 2**40, 2**62 + 1]
GA_EDGES = [(10, 30), (30, 31), (31, 10), (31, 500), (500, 7000), (7000, 2**40),
            (2**40, 2**62 + 1), (10, 7000)]


def write_graphalytics(folder, name, edges, ids, directed):
    """NAME.v, NAME.e and, unless ``directed`` is None, NAME.properties; returns NAME.v."""
    (folder / f"{name}.v").write_text("".join(f"{i}\n" for i in ids))
    (folder / f"{name}.e").write_text("".join(f"{a} {b}\n" for a, b in edges))
    if directed is not None:
        (folder / f"{name}.properties").write_text(
            f"graph.{name}.directed = {str(directed).lower()}\n")
    return folder / f"{name}.v"


def read_by_id(path, kind):
    """{vertex: value} of an --output file, both columns read exactly."""
    rows = (line.split() for line in path.read_text().splitlines())
    return {int(v): kind(x) for v, x in rows}


@pytest.mark.parametrize("directed,nprocs", [(True, 1), (False, 2)])
def test_a_graphalytics_graph_answers_by_its_vertex_ids(tmp_path, directed, nprocs):
    graph = write_graphalytics(tmp_path, "g", GA_EDGES, GA_IDS, directed)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(GA_IDS)
    G.add_edges_from(GA_EDGES)
    levels, ranks, parents = tmp_path / "levels", tmp_path / "ranks", tmp_path / "parents"
    for algorithm, *options in (
            ("bfs_levels", "--source", 31, "--check", "--output", levels),
            ("pagerank", "--tol", 1e-9, "--max-iter", 300, "--output", ranks),
            ("bfs_parents", "--source", 31, "--relabel", "--output", parents)):
        done = gblas2d("run", algorithm, "--graph", graph, *options, nprocs=nprocs)
        assert done.returncode == 0, done.stdout + done.stderr
        assert algorithm != "bfs_levels" or "from vertex 31" in done.stdout
    want = nx.single_source_shortest_path_length(G, 31)
    assert read_by_id(levels, int) == want
    # networkx spreads the rank of vertices without out-edges evenly, as Graphalytics does
    ranks = read_by_id(ranks, float)
    expected = nx.pagerank(G, alpha=0.85, tol=1e-12, weight=None)
    assert ranks == pytest.approx(expected, abs=1e-7)
    # parents are ids too, each one level up along an edge (relabeling picks its own tree)
    tree = read_by_id(parents, int)
    assert tree.keys() == want.keys() and tree[31] == 31
    assert all(G.has_edge(p, v) and want[p] == want[v] - 1 for v, p in tree.items() if v != 31)


def test_a_graphalytics_source_and_direction_are_checked(tmp_path):
    graph = write_graphalytics(tmp_path, "d", GA_EDGES, GA_IDS, True)
    # 3 is an index of the graph, not an id
    done = gblas2d("run", "bfs_levels", "--graph", graph, "--source", 3, nprocs=2)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("gblas2d: error:") == 1, done.stderr
    assert f"--source 3 is not a vertex of {graph}" in done.stderr
    refused = gblas2d("run", "bfs_levels", "--graph", graph.with_suffix(".properties"),
                      "--undirected")
    assert refused.returncode == 2 and "the graph is directed" in refused.stderr
    # without .properties: directed, as an edge list, unless --undirected says otherwise
    bare = write_graphalytics(tmp_path, "bare", [(1, 2)], [1, 2], None)
    for extra, reached in (([], 1), (["--undirected"], 2)):
        done = gblas2d("run", "bfs_levels", "--graph", bare.with_suffix(".e"), "--source", 2,
                       *extra)
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"reached {reached} vertices" in done.stdout


# ------------------------------------------------------------------- help, options, output


def options_without_help(text):
    """The option lines of a help text that no help follows: on the line, or on the next,
    indented further (argparse's place for it after a long option)."""
    lines = text.splitlines()
    return [line for line, following in zip(lines, lines[1:] + [""], strict=True)
            if line.startswith("  -") and not re.search(r"\S {2,}\S", line)
            and not following.startswith(" " * 6)]


def test_help_explains_every_option_and_lists_the_methods(command):
    for sub in ([], ["demo"], ["run"], ["graph500"], ["info"]):
        code, out, _ = command(*sub, "--help")
        assert code == 0
        assert options_without_help(out) == [], sub
        assert "``" not in out
    flat = " ".join(command("run", "--help")[1].split())
    for name, spec in ALGORITHMS.items():
        if spec.methods:
            assert f"{name}: {spec.methods[0]} (default), {', '.join(spec.methods[1:])}" in flat
    assert "--damping DAMPING pagerank: the damping factor, in [0, 1) (default 0.85)" in flat
    code, out, _ = command("--version")
    assert code == 0 and out == f"gblas2d {importlib.metadata.version('gblas2d')}\n"


@pytest.mark.parametrize("args,message", [
    (["pagerank", "--source", 3], "--source does not apply to pagerank (it reads --method, "),
    (["bfs_levels", "--damping", 0.5], "--damping does not apply to bfs_levels (it reads "
                                       "--source)"),
    (["max_weight_matching", "--seeds", 3], "(it reads none of the algorithm options)"),
    (["sssp", "--delta", 2], "--delta applies to sssp only with --method delta_stepping"),
    (["pagerank", "--iterations", 3, "--tol", 1e-6], "--tol applies to pagerank only without "
                                                     "--iterations"),
    (["pagerank", "--damping", 1], "--damping must be in [0, 1), got 1.0"),
    (["bfs_levels", "--json", "/nonexistent/s.json"], "--json: cannot write /nonexistent/s.json"),
    (["bfs_levels", "--output", "-", "--json", "-"], "cannot both write to standard output"),
    (["bfs_levels", "--output", "r.json", "--json", "r.json"], "name the same file"),
], ids=lambda v: " ".join(map(str, v)) if isinstance(v, list) else None)
def test_options_that_do_not_apply_are_refused_before_the_run(command, args, message):
    code, out, err = command("run", *args, "--graph", "kron:6")
    assert code == 2
    assert out == "", "the graph was loaded before the options were checked"
    assert err.count("\n") == 1 and err.startswith("gblas2d: error: ")
    assert message in err


@pytest.mark.parametrize("args,message", [
    (["graph500", "--scale", -1], "argument --scale: must be between 0 and 62, got -1"),
    (["graph500", "--scale", "x"], "argument --scale: invalid integer value: 'x'"),
    (["graph500", "--scale", 8, "--edge-factor", 0], "argument --edge-factor: must be at least 1"),
    (["run", "bfs_levels", "--graph", "kron:6", "--seed", -1], "argument --seed: must be at"),
    (["run", "bfs_levels"], "the following arguments are required: --graph"),
    (["run", "bfs_levels", "--graph", "kron:70"], "graph 'kron:70': SCALE must be at most 62"),
])
def test_bad_numbers_are_one_line_usage_errors(command, args, message):
    code, out, err = command(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("gblas2d: error: ")
    assert message in err and "Traceback" not in err


def test_a_bad_grid_variable_is_named_as_such(command, monkeypatch):
    for value, message in (("abc", "GBLAS2D_GRID: must look like 2x3, got 'abc'"),
                           ("3x3", "GBLAS2D_GRID: grid shape 3x3 does not match 1 processes")):
        monkeypatch.setenv("GBLAS2D_GRID", value)
        code, _, err = command("run", "bfs_levels", "--graph", "kron:4")
        assert code == 2 and err == f"gblas2d: error: {message}\n"
    # --grid comes first: the variable is not read
    code, out, _ = command("run", "bfs_levels", "--graph", "kron:4", "--grid", "1x1")
    assert code == 0 and "grid 1x1" in out


def read_csv(path):
    header, *rows = path.read_text().splitlines()
    assert header == "vertex,level"
    return np.array([[float(x) for x in row.split(",")] for row in rows]).T


def read_json(path):
    data = json.loads(path.read_text())
    assert list(data) == ["vertex", "level"]
    return data["vertex"], data["level"]


def read_mtx(path):
    column = scipy.io.mmread(path)
    assert column.shape == (34, 1)
    return column.row, column.data


def read_npz(path):
    with np.load(path) as data:
        return data["indices"], data["values"]


@pytest.mark.parametrize("name,read", [
    ("levels.csv", read_csv), ("levels.json", read_json), ("levels.mtx", read_mtx),
    ("levels.npz", read_npz), ("levels.txt", read_result), ("-", None),
])
def test_the_output_format_follows_the_extension(command, tmp_path, name, read):
    code, out, err = command("run", "bfs_levels", "--graph", KARATE, "--source", 0,
                             "--output", name if name == "-" else tmp_path / name)
    assert code == 0, err
    if name == "-":
        # the result alone on standard output, the report on standard error
        idx, levels = read_result(io.StringIO(out))
        assert "bfs_levels from vertex 0" in err
    else:
        idx, levels = read(tmp_path / name)
        assert f"wrote {tmp_path / name}" in out
    np.testing.assert_array_equal(idx, np.arange(34))
    np.testing.assert_array_equal(levels, KARATE_LEVELS)


def test_graphalytics_ids_stay_exact_in_csv_and_json(command, tmp_path):
    graph = write_graphalytics(tmp_path, "g", GA_EDGES, GA_IDS, True)
    want = nx.single_source_shortest_path_length(nx.DiGraph(GA_EDGES), 31)
    csv, js = tmp_path / "levels.csv", tmp_path / "levels.json"
    for out in (csv, js):
        code, _, err = command("run", "bfs_levels", "--graph", graph, "--source", 31,
                               "--output", out)
        assert code == 0, err
    rows = [line.split(",") for line in csv.read_text().splitlines()[1:]]
    assert {int(v): int(x) for v, x in rows} == want
    data = json.loads(js.read_text())
    assert dict(zip(data["vertex"], data["level"], strict=True)) == want
    # a Matrix Market file numbers vertices 1 to n: no place for the ids, found before the run
    code, out, err = command("run", "bfs_levels", "--graph", graph, "--source", 31, "--output",
                             tmp_path / "levels.mtx")
    assert code == 2 and out == "" and "not by the ids of" in err


def test_json_summary_of_a_checked_run(command, tmp_path):
    summary = tmp_path / "run.json"
    args = ["run", "bfs_levels", "--graph", KARATE, "--source", 0, "--check", "--trace",
            "--json", summary]
    code, out, err = command(*args)
    assert code == 0
    # no terminal: no progress display, nothing on standard error
    assert err == ""
    report = json.loads(summary.read_text())
    assert report["command"] == ["gblas2d", *map(str, args)]
    assert report["graph"] == {"spec": str(KARATE), "n": 34, "nvals": 156}
    assert report["grid"] == [1, 1] and report["algorithm"] == "bfs_levels"
    assert report["options"] == {"source": 0, "seed": 1, "relabel": False, "undirected": False}
    assert all(report["seconds"][k] > 0 for k in ("load", "setup", "run", "check"))
    # the one-time setup, timed apart: the trace holds the timed run's levels alone
    assert f"setup: {report['seconds']['setup']:.4f} s (bfs_levels once" in out
    levels = int(KARATE_LEVELS.max()) + 1
    assert report["iterations"] == len(report["trace"]) == levels
    assert {e["semiring"] for e in report["trace"]} == {"any_pair"}
    assert report["figures"] == {"reached": 34, "levels": levels}
    assert f" s; {report['summary']}\n" in out
    assert report["check"]["verdict"] == "OK" and report["exit_code"] == 0
    # to standard output: the JSON alone, with the options' defaults filled in
    code, out, err = command("run", "pagerank", "--graph", "kron:6", "--json", "-")
    assert code == 0 and "pagerank: " in err
    report = json.loads(out)
    assert report["options"] == {"method": "graphalytics", "damping": 0.85, "tol": 1e-4,
                                 "max_iter": 100, "iterations": None, "seed": 1,
                                 "relabel": False, "undirected": False}
    assert 1 <= report["iterations"] <= 100 and "trace" not in report
    assert report["check"] is None and report["seconds"]["check"] is None


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_is_drawn_on_a_terminal_only(command, monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, _, _ = command("run", "bfs_levels", "--graph", KARATE, "--check")
    assert code == 0
    drawn = terminal.getvalue()
    assert "loading" in drawn and "checking against the reference" in drawn
    # erased when done: the display's last act is to clear its line
    assert drawn.endswith("\x1b[2K")
    terminal.seek(0)
    terminal.truncate()
    command("run", "bfs_levels", "--graph", KARATE, "--check", "--quiet")
    with Progress("BFS", 3, False) as bar:
        bar.step()
    assert terminal.getvalue() == ""
    # a known length: a bar and its count
    with Progress("BFS", 3, True) as bar:
        for _ in range(3):
            bar.step()
    assert "3/3" in terminal.getvalue()


def test_a_reader_that_leaves_early_ends_the_run_quietly():
    """``gblas2d run ... --output - | head -1``: no BrokenPipeError, exit code 141."""
    cmd = [sys.executable, "-m", "gblas2d", "run", "bfs_levels", "--graph", "kron:14",
           "--output", "-"]
    with subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        try:
            # 16384 result lines, more than a pipe holds: the writer meets the closed end
            assert proc.stdout.readline().strip()
            proc.stdout.close()
            err = proc.stderr.read()
            proc.wait(timeout=120)
        finally:
            proc.kill()
    assert proc.returncode == 141, err
    assert "Traceback" not in err and "Broken" not in err
    assert "bfs_levels from vertex" in err


def test_the_mxv_benchmark_writes_new_runs_where_git_ignores_them(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    bench = importlib.import_module("bench_mxv")
    assert bench.parse_args([]).output is None
    path = bench.default_output(2)
    assert (ROOT / "benchmarks" / "results") not in path.parents
    ignored = subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=ROOT)
    assert ignored.returncode == 0, f"{path} is not ignored by git"


@pytest.mark.parametrize("nprocs", [1, 2])
def test_an_edge_list_with_label_ids_answers_by_them(tmp_path, nprocs):
    """Ids far beyond the vertex count are relabeled 0..n-1 and written back (issue 28). A
    declared 10^12 x 10^12 matrix with one entry is held hypersparse: BFS runs on it. What no
    machine holds (PageRank's dense vectors of 10^12 ranks) is one line and exit code 2 on
    every rank count, not a traceback."""
    huge = 2**32 + 1
    graph = tmp_path / "labels.txt"
    graph.write_text(f"5 {huge}\n{huge} 9\n9 5\n")
    levels = tmp_path / "levels.csv"
    done = gblas2d("run", "bfs_levels", "--graph", graph, "--source", huge, "--output", levels,
                   nprocs=nprocs)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "n=3" in done.stdout and f"from vertex {huge}" in done.stdout
    assert levels.read_text().splitlines()[1:] == ["5,2", "9,1", f"{huge},0"]
    declared = tmp_path / "declared.mtx"
    declared.write_text("%%MatrixMarket matrix coordinate pattern general\n"
                        "1000000000000 1000000000000 2\n1 2\n999999999999 1000000000000\n")
    done = gblas2d("run", "bfs_levels", "--graph", declared, "--source", 999999999998,
                   "--output", levels, nprocs=nprocs)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "n=1000000000000" in done.stdout and "reached 2 vertices" in done.stdout
    assert levels.read_text().splitlines()[1:] == ["999999999998,0", "999999999999,1"]
    # The default source, the vertex of largest out-degree (the smallest of a tie), is found
    # in O(entries / P) as well: no vector of n (issue 46).
    done = gblas2d("run", "sssp", "--graph", declared, nprocs=nprocs)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "sssp from vertex 0:" in done.stdout and "reached 2 vertices" in done.stdout
    done = gblas2d("run", "pagerank", "--graph", declared, nprocs=nprocs)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("gblas2d: error: out of memory") and \
        len(done.stderr.strip().splitlines()) == 1, done.stderr


# ------------------------------------------------------------------- user code: FILE:FUNCTION

USER_CODE = textwrap.dedent('''\
    """Functions for gblas2d run FILE:FUNCTION, written with the public API."""
    import gblas2d as gb
    from gblas2d import binary, semiring
    from helper import OFFSET

    LIMIT = 3


    def core_numbers(A):
        n = A.nrows
        core = gb.Vector("INT64", n)
        alive = gb.Vector.from_scalar(True, n)
        k = 0
        while alive.nvals:
            degree = gb.Vector.from_scalar(0, n, dtype="INT64").dup(mask=alive.S)
            degree(mask=alive.S, accum=binary.plus) << A.mxv(alive, semiring.plus_pair)
            peel = degree.select("<=", k).new()
            if peel.nvals == 0:
                k += 1
                continue
            core(mask=peel.S) << k
            alive(mask=~peel.S, replace=True) << alive
        return core


    def options(A, source, max_iter=7, seed=0):
        return source + 100 * max_iter + 10000 * seed


    def square(A):
        return A.mxm(A, semiring.plus_pair).new()


    def entries(A):
        return gb.Scalar.from_value(A.nvals + OFFSET)


    def fails(A):
        grid = gb.default_grid()
        if grid.rank == grid.nprocs - 1:
            raise ValueError("no core here")
        return A.reduce_rowwise().new()


    def mismatch(A):
        return A.mxv(gb.Vector.from_scalar(1, A.ncols + 1), semiring.plus_pair).new()


    def nothing(A):
        pass


    def lazy(A):
        return A.reduce_rowwise()


    def short(A):
        return gb.Vector("INT64", 3)


    def by_rank(A):
        return gb.default_grid().rank
''')
# the line of the file that fails()'s exception is raised at
FAILS_AT = USER_CODE.splitlines().index('        raise ValueError("no core here")') + 1
KARATE_CORES = nx.core_number(nx.from_scipy_sparse_array(scipy.io.mmread(KARATE)))


@pytest.fixture
def user_code(tmp_path, monkeypatch):
    """kcore.py (USER_CODE) and the helper.py it imports, in a folder of their own; sys.path and
    the modules the command adds when it runs one in this process are put back afterwards."""
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "kcore.py").write_text(USER_CODE)
    (folder / "helper.py").write_text("OFFSET = 1000\n")
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = set(sys.modules)
    yield folder / "kcore.py"
    for name in set(sys.modules) - before:
        del sys.modules[name]


def trace_rows(stdout):
    """The rows of the --trace table: '<k>  <op> ...' under its header."""
    return [line for line in stdout.splitlines() if re.match(r"\s+\d+\s+(mxv|vxm|mxm)\s", line)]


@pytest.mark.parametrize("nprocs", [1, 2])
def test_user_code_runs_as_a_built_in_algorithm(tmp_path, user_code, nprocs):
    """A k-core written with the public API, at one rank and under mpiexec (every rank calls
    it): its Vector written by --output, its figures and trace in --json, its products in
    --trace, its trace drawn by --plot, as for a built-in algorithm."""
    out, summary, plot = tmp_path / "cores.csv", tmp_path / "run.json", tmp_path / "t.png"
    target = f"{user_code}:core_numbers"
    done = gblas2d("run", target, "--graph", KARATE, "--output", out, "--json", summary,
                   "--trace", "--plot", plot, nprocs=nprocs)
    assert done.returncode == 0, done.stdout + done.stderr
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # rank 0 alone reports
    line = f"{target}: "
    assert done.stdout.count(line) == 1, done.stdout
    assert "returned a Vector: 34 values (INT64), min 1, max 4" in done.stdout
    header, *rows = out.read_text().splitlines()
    assert header == "vertex,core_numbers"
    assert {int(v): int(c) for v, c in (row.split(",") for row in rows)} == KARATE_CORES
    report = json.loads(summary.read_text())
    assert report["algorithm"] == target and report["processes"] == nprocs
    assert report["figures"] == {"result": "Vector", "dtype": "INT64", "values": 34, "min": 1,
                                 "max": 4}
    assert report["summary"] == "returned a Vector: 34 values (INT64), min 1, max 4"
    assert report["options"] == {"seed": 1, "relabel": False, "undirected": False}
    assert report["iterations"] is None and report["check"] is None
    assert report["exit_code"] == 0 and report["output"] == str(out)
    # one degree product per peeling round: traced in the JSON and printed once
    assert len(report["trace"]) == len(trace_rows(done.stdout)) > 4
    assert {(e["op"], e["semiring"]) for e in report["trace"]} == {("mxv", "plus_pair")}
    assert report["seconds"]["run"] > 0


def test_user_code_takes_the_options_given(command, user_code):
    """Each option given comes by keyword (--source as a vertex index), seed= when the
    function names it; an option not given is not passed, so the function's default holds."""
    target = f"{user_code}:options"
    code, out, err = command("run", target, "--graph", KARATE, "--source", 3, "--max-iter", 5,
                             "--seed", 7, "--json", "-")
    assert code == 0, err
    report = json.loads(out)
    assert report["figures"] == {"result": "number", "value": 3 + 500 + 70000}
    assert report["options"] == {"source": 3, "max_iter": 5, "seed": 7, "relabel": False,
                                 "undirected": False}
    assert f"{target} from vertex 3: " in err and "returned 70503" in err
    code, out, err = command("run", target, "--graph", KARATE, "--source", 2)
    assert code == 0, err
    assert "returned 10702" in out


def test_user_code_returns_a_matrix_or_a_number(command, user_code, tmp_path):
    import gblas2d as gb

    M = scipy.io.mmread(KARATE).tocsr().astype(np.int64)
    want = (M @ M).toarray()
    written = []
    for name in ("square.mtx", "square.npz"):
        code, out, err = command("run", f"{user_code}:square", "--graph", KARATE, "--output",
                                 tmp_path / name)
        assert code == 0, err
        assert "returned a 34 x 34 Matrix: 698 entries (INT64)" in out
        written.append(gb.io.load(tmp_path / name) if name.endswith(".npz")
                       else gb.io.mmread(tmp_path / name))
    np.testing.assert_array_equal(gb.io.to_scipy_sparse(written[0]).toarray(), want)
    assert written[0].isequal(written[1])
    code, out, err = command("run", f"{user_code}:square", "--graph", KARATE, "--output",
                             tmp_path / "square.csv")
    assert code == 2 and "a Matrix is written to a .mtx (Matrix Market) or .npz" in err
    # a gblas2d Scalar, a number built with the helper module beside the file
    code, out, err = command("run", f"{user_code}:entries", "--graph", KARATE, "--json", "-")
    assert code == 0, err
    assert json.loads(out)["figures"] == {"result": "number", "value": 1156}
    assert f"{user_code}:entries: " in err and "; returned 1156" in err
    # a number has no value per vertex: refused once it is known, after the summary line
    code, out, err = command("run", f"{user_code}:entries", "--graph", KARATE, "--output",
                             tmp_path / "n.csv")
    assert code == 2 and "returned 1156" in out
    assert err == (f"gblas2d: error: --output {tmp_path / 'n.csv'}: {user_code}:entries "
                   "returned 1156, a number: no value per vertex to write (the summary line "
                   "and --json show it)\n")
    assert not (tmp_path / "n.csv").exists()


# (function or file, options, message, found before the graph is loaded)
USER_CODE_ERRORS = [
    ("missing.py:f", [], "cannot load {folder}/missing.py: no such file", True),
    ("kcore.py:nosuch", [], "kcore.py has no function 'nosuch' (its functions: by_rank, "
                            "core_numbers, entries, fails, lazy, mismatch, nothing, options, "
                            "short, square)", True),
    ("kcore.py:LIMIT", [], "kcore.py:LIMIT is not a function: it is an int (3)", True),
    ("kcore.py:core_numbers", ["--damping", 0.5], "--damping does not apply to "
                                                  "{folder}/kcore.py:core_numbers (it has no "
                                                  "parameter damping)", True),
    ("kcore.py:options", [], "kcore.py:options cannot be called as options(A, seed=...): "
                             "missing a required argument: 'source'", True),
    ("kcore.py:core_numbers", ["--check"], "--check compares the built-in algorithms with a "
                                           "reference", True),
    ("kcore.py:core_numbers", ["--relabel"], "--relabel is not supported by", True),
    ("syntax.py:f", [], "cannot load {folder}/syntax.py: SyntaxError: '(' was never closed",
     True),
    ("imports.py:f", [], "cannot load {folder}/imports.py: ModuleNotFoundError: No module "
                         "named 'no_such_module_here' ({folder}/imports.py, line 2)", True),
    ("kcore.py:fails", [], f"kcore.py:fails raised ValueError: no core here "
                           f"({{folder}}/kcore.py, line {FAILS_AT})", False),
    ("kcore.py:mismatch", [], "kcore.py:mismatch raised DimensionMismatch: Matrix.ncols (=34) "
                              "must equal Vector.size (=35)", False),
    ("kcore.py:nothing", [], "kcore.py:nothing returned None; it must return a gblas2d Vector "
                             "(one value per vertex), a Matrix or a number", False),
    ("kcore.py:lazy", [], "kcore.py:lazy returned a gblas2d.VectorExpression (an expression: "
                          "compute it with .new())", False),
    ("kcore.py:short", [], "kcore.py:short returned a Vector of size 3, not one value per "
                           "vertex (the graph has 34)", False),
]


@pytest.mark.parametrize("target,options,message,before", USER_CODE_ERRORS,
                         ids=[f"{t} {' '.join(map(str, o))}".strip()
                              for t, o, _, _ in USER_CODE_ERRORS])
def test_user_code_errors_are_one_line_and_exit_code_2(command, user_code, target, options,
                                                       message, before):
    folder = user_code.parent
    (folder / "syntax.py").write_text("def f(A:\n")
    (folder / "imports.py").write_text("import gblas2d\nimport no_such_module_here\n")
    code, out, err = command("run", f"{folder}/{target}", "--graph", KARATE, *options)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("gblas2d: error: "), err
    assert message.format(folder=folder) in err
    assert (out == "") == before, "the graph is loaded after the code and its options"


@pytest.mark.parametrize("target,message", [
    ("kcore.py", "invalid choice: 'kcore.py' (choose from betweenness_centrality"),
    ("kcore.py", "or FILE.py:FUNCTION; name the function too, kcore.py:FUNCTION)"),
    ("kcore.py:", "'kcore.py:': expected FILE.py:FUNCTION"),
    ("kcore.py:2cores", "'kcore.py:2cores': expected FILE.py:FUNCTION"),
])
def test_a_malformed_target_is_a_usage_error(command, target, message):
    code, out, err = command("run", target, "--graph", KARATE)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("gblas2d: error: argument ALGO: ")
    assert message in err


@pytest.mark.parametrize("function,message", [
    # the last rank raises while rank 0 waits in a collective: rank 0 reports that rank's
    # exception and line, and neither waits for the other
    ("fails", f"kcore.py:fails raised ValueError: no core here ({{code}}, line {FAILS_AT})"),
    ("by_rank", "kcore.py:by_rank returned different results on different ranks: rank 0 the "
                "number 0, rank 1 the number 1"),
])
def test_user_code_errors_agree_across_ranks(user_code, function, message):
    done = gblas2d("run", f"{user_code}:{function}", "--graph", KARATE, nprocs=2)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gblas2d: error: "), done.stderr
    assert message.format(code=user_code) in lines[0]
    assert "Traceback" not in done.stderr
