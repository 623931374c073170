"""``gblas2d run FILE:FUNCTION`` with the user's own parameters (``--param NAME=VALUE``) and a
generated graph with random weights (``--weights uniform``), issue 44."""

import json
import textwrap

import numpy as np
import pytest
from test_cli import KARATE, gblas2d

import gblas2d as gb

CODE = textwrap.dedent('''\
    def params(A, k, scale=1.0, mode="slow", sources=()):
        """A number that shows every parameter it was given, and its type."""
        assert isinstance(k, int) and isinstance(scale, float)
        return k * 1000 + len(sources) * 100 + (10 if mode == "fast" else 0) + scale


    def same(A):
        return A
''')


@pytest.fixture
def code(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(CODE)
    return path


def test_params_come_by_keyword_typed_as_python_literals(command, code):
    status, out, err = command("run", f"{code}:params", "--graph", KARATE, "--param", "k=4",
                               "--param", "mode=fast", "--param", "sources=[1, 5, 9]",
                               "--param", "scale=0.5", "--json", "-")
    assert status == 0, err
    report = json.loads(out)
    assert report["figures"] == {"result": "number", "value": 4310.5}
    assert report["options"]["params"] == {"k": 4, "mode": "fast", "sources": [1, 5, 9],
                                           "scale": 0.5}
    # a function of the user's own is not run beforehand: it may count on being called once
    assert report["seconds"]["setup"] is None and "setup:" not in err
    # the defaults hold where no --param is given
    status, out, err = command("run", f"{code}:params", "--graph", KARATE, "--param", "k=2")
    assert status == 0, err
    assert "returned 2001" in out


@pytest.mark.parametrize("args,message", [
    (["--param", "nope=1"], "--param nope does not apply to {code}:params (it has no parameter "
                            "nope)"),
    (["--param", "k=1", "--param", "k=2"], "--param k is given twice"),
    (["--param", "k=1", "--param", "source=2", "--source", "3"],
     "--param source and --source both give source"),
    (["--param", "3=4"], "must look like NAME=VALUE with NAME a Python identifier, got '3=4'"),
    ([], "cannot be called as params(A): missing a required argument: 'k'"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_params_are_usage_errors(command, code, args, message):
    status, _, err = command("run", f"{code}:params", "--graph", KARATE, *args)
    assert status == 2
    assert message.format(code=code) in err


def test_a_built_in_algorithm_refuses_params(command):
    status, _, err = command("run", "pagerank", "--graph", KARATE, "--param", "k=1")
    assert status == 2
    assert "--param passes parameters to a function of your own (FILE.py:FUNCTION)" in err


@pytest.mark.parametrize("nprocs", [1, 2])
def test_generated_weights_are_seeded_and_the_same_at_any_rank_count(tmp_path, code, nprocs):
    out = tmp_path / "weighted.npz"
    done = gblas2d("run", f"{code}:same", "--graph", "kron:6:4", "--weights", "uniform",
                   "--seed", 9, "--output", out, nprocs=nprocs)
    assert done.returncode == 0, done.stdout + done.stderr
    got = gb.io.load(out)
    expected = gb.generators.rmat(6, 4, seed=9, symmetric=True, weights="uniform")
    assert got.isequal(expected)
    weights = got.to_coo()[2]
    assert got.dtype.name == "FP64" and len(np.unique(weights)) > got.nvals // 4
    assert 0 <= weights.min() and weights.max() < 1


def test_weights_one_and_weights_of_a_file(command, code, tmp_path):
    # sssp on unit weights: its distances are the BFS levels, which --check confirms
    status, out, err = command("run", "sssp", "--graph", "kron:6", "--weights", "one",
                               "--check", "--output", tmp_path / "d.csv")
    assert status == 0, err
    assert "check: OK" in out
    distances = [float(line.split(",")[1]) for line in
                 (tmp_path / "d.csv").read_text().splitlines()[1:]]
    assert distances and all(d == int(d) for d in distances)
    status, _, err = command("run", f"{code}:same", "--graph", KARATE, "--weights", "uniform")
    assert status == 2
    assert f"--weights gives a generated graph its weights; {KARATE} has its own" in err
