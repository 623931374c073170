"""``engine(A)``, the namespace algorithm code uses, is a public API (issue 44): the same members
on both engines, each operation with one signature (``from_vectors``'s is
``Matrix.from_vectors``'s) and a docstring, all listed in docs/engine.md, and the same answers and
errors on gblas2d and python-graphblas objects."""

import inspect
import re
from pathlib import Path

import graphblas as G
import pytest
from gblas2d.algorithms import engine
from gblas2d.semirings import binary

import gblas2d as gb
from gblas2d import exceptions

OURS, THEIRS = engine(gb.Vector(int, 1)), engine(G.Vector(int, 1))
PAGE = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
OPERATIONS = sorted(name for name, member in vars(OURS).items() if inspect.isfunction(member))


def test_both_engines_have_the_same_members():
    assert set(vars(OURS)) == set(vars(THEIRS))
    assert {"agg", "Scalar", "io", "operator", "gather", "scatter", "from_vectors",
            "min_secondi", "mxm_indexed", "popcount", "random", "random_vector",
            "iteration"} <= set(vars(OURS))
    assert (OURS.agg, OURS.Scalar, OURS.io) == (gb.agg, gb.Scalar, gb.io)
    assert (THEIRS.agg, THEIRS.Scalar, THEIRS.io) == (G.agg, G.Scalar, G.io)


@pytest.mark.parametrize("name", OPERATIONS)
def test_each_operation_has_one_signature_and_a_docstring(name):
    ours, theirs = getattr(OURS, name), getattr(THEIRS, name)
    assert inspect.signature(ours) == inspect.signature(theirs)
    assert inspect.getdoc(ours) and inspect.getdoc(theirs)


def test_from_vectors_takes_the_arguments_of_matrix_from_vectors():
    assert inspect.signature(OURS.from_vectors) == inspect.signature(gb.Matrix.from_vectors)


def test_the_page_lists_every_member():
    # the names in the first column of the table's rows
    cells = [line.split("|")[1] for line in PAGE.read_text().splitlines()
             if line.startswith("| `")]
    listed = {name for cell in cells for name in re.findall(r"`(\w+)", cell)}
    assert listed == set(vars(OURS)) - {"name"}


def test_operator_gives_each_engine_its_op():
    lesser = binary.register_anonymous(lambda x, y: x if x < y else y, name="lesser")
    assert OURS.operator(lesser) is lesser
    assert THEIRS.operator(gb.binary.plus) is G.binary.plus
    assert THEIRS.operator(lesser) is lesser.to_graphblas()
    for ns in (OURS, THEIRS):
        with pytest.raises(TypeError, match="operator expects a gblas2d op, got BinaryOp"):
            ns.operator(G.binary.plus)


def test_from_vectors_builds_the_same_matrix_on_both_engines():
    built = []
    for lib in (gb, G):
        ns = engine(lib.Vector(int, 1))
        rows = lib.Vector.from_coo([0, 2, 3], [4, 1, 4], size=5)
        cols = lib.Vector.from_coo([0, 2, 3], [0, 3, 2], size=5)
        values = lib.Vector.from_coo([0, 2, 3], [1.5, 2.5, 3.5], size=5)
        M = ns.from_vectors(rows, cols, values, nrows=5, ncols=4)
        built.append((M.dtype.name, *(a.tolist() for a in M.to_coo())))
        ones = ns.from_vectors(rows, cols, True, ns.dtypes.BOOL, nrows=5, ncols=4)
        built.append((ones.dtype.name, *(a.tolist() for a in ones.to_coo())))
    assert built[0] == built[2] and built[1] == built[3]
    assert built[0] == ("FP64", [1, 4, 4], [3, 0, 2], [2.5, 1.5, 3.5])


CALLS = {
    "gather out of range": lambda lib, ns: ns.gather(
        lib.Vector.from_coo([0, 1], [5, 6], size=3), lib.Vector.from_coo([0, 1], [1, 7], size=2)),
    "gather by floats": lambda lib, ns: ns.gather(
        lib.Vector.from_coo([0], [5], size=3), lib.Vector.from_coo([0], [1.0], size=1)),
    "scatter out of range": lambda lib, ns: ns.scatter(
        lib.Vector.from_coo([0, 1], [5, 6], size=2), lib.Vector.from_coo([0, 1], [1, 9], size=2),
        4),
    "scatter sizes": lambda lib, ns: ns.scatter(
        lib.Vector.from_coo([0], [5], size=3), lib.Vector.from_coo([0], [1], size=2)),
    "from_vectors positions": lambda lib, ns: ns.from_vectors(
        lib.Vector.from_coo([0, 1], [0, 1], size=3), lib.Vector.from_coo([0, 2], [1, 1], size=3),
        nrows=3, ncols=3),
    "from_vectors floats": lambda lib, ns: ns.from_vectors(
        lib.Vector.from_coo([0], [0.0], size=3), lib.Vector.from_coo([0], [1], size=3),
        nrows=3, ncols=3),
}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_the_operations_raise_the_same_errors_on_both_engines(call):
    raised = []
    for lib in (gb, G):
        with pytest.raises((exceptions.GraphblasException, TypeError)) as exc:
            CALLS[call](lib, engine(lib.Vector(int, 1)))
        raised.append((type(exc.value).__name__, str(exc.value)))
    assert raised[0] == raised[1]


def test_scatter_and_gather_agree_on_both_engines():
    answers = []
    for lib in (gb, G):
        ns = engine(lib.Vector(int, 1))
        v = lib.Vector.from_coo([0, 1, 3, 4], [7, 2, 9, 4], size=6)
        index = lib.Vector.from_coo([0, 1, 3, 4], [2, 2, 0, 5], size=6)
        folded = ns.scatter(v, index, 6, ns.monoid.min)
        default = ns.scatter(v, index)
        got = ns.gather(v, index)
        answers.append([a.tolist() for obj in (folded, default, got) for a in obj.to_coo()])
    assert answers[0][:2] == answers[1][:2] == [[0, 2, 5], [9, 2, 4]]
    assert answers[0][4:] == answers[1][4:] == [[3], [7]]
    # any may keep either of the values meeting at 2
    assert answers[0][2] == answers[1][2] == [0, 2, 5] and answers[0][3][1] in (7, 2)
