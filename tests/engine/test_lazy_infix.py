"""Lazy objects as python-graphblas has them, against python-graphblas itself: ``x @ y`` and
``x | y`` waiting for an operator (chains included), ``gb.config``'s autocompute switch,
``input_mask=`` of an extract, ``select`` by a mask, pairs of Scalars, and the left side of
``<<`` refusing to be a value.

Each case runs the same text on python-graphblas objects and on gblas2d copies of them and
compares what comes back (gathered, so the same on every rank), or the exception's class.
"""

import os

import graphblas as G
import numpy as np
import pytest

import gblas2d as gb

UNDER_MPI = os.environ.get("GBLAS2D_TEST_MPI") == "1"


def sample(cases):
    """The cases, or under MPI (oversubscribed) every sixth: what a case checks of the
    collectives is alike in all of them, and every one runs at one process."""
    return cases[::6] if UNDER_MPI else cases


def coo(obj):
    """Every array ``to_coo`` gives, as lists (a Scalar: its value)."""
    if not hasattr(obj, "to_coo"):
        return obj.value
    return [np.asarray(a).tolist() for a in obj.to_coo()]


def names(L):
    v = L.Vector.from_coo([0, 1, 3, 6], [1, 2, 3, 4], size=7)
    u = L.Vector.from_coo([1, 2, 3], [5, 1, 2], size=7)
    A = L.Matrix.from_coo([0, 0, 1, 3, 4, 6, 6, 2], [1, 3, 2, 3, 0, 5, 6, 4],
                          [1, 2, 3, 4, 5, 6, 7, 8], nrows=7, ncols=7)
    M = L.Matrix.from_coo([0, 1, 3, 6, 2], [3, 2, 3, 6, 0], [1, 0, 1, 1, 1], nrows=7, ncols=7)
    D0 = L.Vector.from_scalar(0, 7).diag()
    b = L.Vector.from_coo([0, 2, 5], [True, False, True], size=7)
    s, t = L.Scalar.from_value(2), L.Scalar(int)
    return dict(L=L, v=v, u=u, A=A, M=M, D0=D0, b=b, s=s, t=t, m=M[3, :].new(), coo=coo)


def outcome(text, L, autocompute):
    """What evaluating ``text`` gives (its entries) or raises (the exception's class name)."""
    env = names(L)
    with L.config.set(autocompute=autocompute):
        try:
            return coo(eval(text, env))
        except Exception as exc:
            return type(exc).__name__


def same(text, autocompute=True):
    theirs = outcome(text, G, autocompute)
    ours = outcome(text, gb, autocompute)
    assert ours == theirs, (text, ours, theirs)
    return ours


# ---- x @ y waits for a semiring; in a chain the inner pair takes the same one ----
CHAINS = ["(v @ A).new()", "(A @ v).new()", "(A @ A).new()", "(v @ u).new()",
          "L.semiring.min_plus(v @ A).new()", "L.semiring.max_times(A @ A.T).new()",
          "L.semiring.plus_plus(v @ (v @ D0)).new()", "L.semiring.plus_plus(D0 @ v @ v).new()",
          "L.semiring.min_plus(A @ A @ v).new()", "L.semiring.plus_plus(v @ D0 @ D0).new()",
          "L.semiring.max_plus(A.T @ (A @ u)).new()", "(v @ A).nvals", "(v @ u).value",
          "(v @ A).dtype.name", "L.semiring.min_plus(v @ A, 1)", "L.binary.plus(v @ A)",
          "v @ L.Matrix(int, 3, 3)", "v @ s"]


@pytest.mark.parametrize("text", sample(CHAINS))
def test_matmul_waits_for_its_semiring(text):
    same(text)


# ---- x | y and x & y: an operator, or BOOL operands, or an error ----
PAIRS = ["L.monoid.plus(v | u).new()", "L.binary.minus(v | u, left_default=0, "
         "right_default=10).new()", "L.monoid.times(v & u & v).new()", "(b | b).new()",
         "(b & b).nvals", "(v | u).new()", "v.ewise_add(u & v)", "v | A", "A | v[:6].new()",
         "L.binary.plus(v | A).new()", "L.binary.plus(s | t | 0).new()",
         "L.monoid.max(1 | s).new()", "L.binary.times(s & 3).new()", "(s | t).new()",
         "s | v", "v.ewise_add(A[0, 1])", "v.ewise_mult(s)", "A.ewise_add(A.T).new()",
         "v.ewise_mult(A[0, :]).new()", "A.ewise_union(v, L.binary.minus, 0, 0).new()",
         "A.ewise_add(L.Matrix(int, 7, 6))", "v.ewise_add(L.Vector(int, 6))",
         "L.unary.abs(v - u).new()", "L.binary.times(v + u, 2).new()",
         "L.binary.floordiv(-A, 3).new()"]


@pytest.mark.parametrize("text", sample(PAIRS))
def test_ewise_pairs_wait_for_their_operator(text):
    same(text)


# python-graphblas compiles its numpy.mod with numba on first use, on every rank: at one
# process only
@pytest.mark.serial_only
@pytest.mark.parametrize("text", ["divmod(A, 3)[0].new()", "divmod(-A, 3)[1].new()",
                                  "divmod(7, v)[1].new()"])
def test_divmod(text):
    same(text)


# ---- autocompute off: a lazy object used as a value is a TypeError, .new() works ----
AUTOCOMPUTE_OFF = ["(v + u).nvals", "A[1, 2].value", "int(A.reduce_scalar())",
                   "A.reduce_scalar() == 47", "A.ewise_mult(A + A)", "A.mxv(A @ v)",
                   "(A + A) == A", "v.ewise_add(v @ A)", "A[1, 2].new()",
                   "A.reduce_scalar().new()", "(v @ A).new()", "L.semiring.min_plus(v @ A).new()",
                   "v.select(v > 2).new()", "L.semiring.min_plus(v @ A).new(mask=u.S)"]


@pytest.mark.parametrize("text", sample(AUTOCOMPUTE_OFF))
def test_autocompute_off(text):
    same(text, autocompute=False)


def test_in_place_accumulates_a_lazy_operand_without_computing_it():
    def run(L):
        env = names(L)
        v = env["v"]
        with L.config.set(autocompute=False):
            v += v + v
            v(accum=L.binary.times) << v.apply(L.unary.abs)
        return coo(v)

    assert run(gb) == run(G)


def test_config_restores_and_refuses_unknown_keys():
    assert gb.config.get("autocompute") is True
    with gb.config.set(autocompute=False):
        assert gb.config.get("autocompute") is False
    assert gb.config.get("autocompute") is True
    with pytest.raises(KeyError):
        gb.config.set(no_such_key=1)


# ---- input_mask=: a mask on an extract's input ----
INPUT_MASK = ["A[3, [0, 3, 5]].new(input_mask=M.S)", "A[3, :].new(input_mask=~M.S)",
              "A[[0, 3, 6], 3].new(input_mask=M.V)", "A[[6, 0, 1], [3, 2, 6]].new(input_mask=M.S)",
              "A[3, [1, 3]].new(input_mask=m.S)", "A.T[[3, 2], 0].new(input_mask=M.T.new().S)",
              "A[0, [0, 1]].new(input_mask=M.S, mask=m.S)", "A[1, 2].new(input_mask=M.S)",
              "A[[1], [2]].new(input_mask=m.S)", "A[3, [1, 3]].new(input_mask=v.S)",
              "v[[6, 0, 3]].new(input_mask=b.V)", "v[[6, 0, 3]].new(input_mask=M.S)",
              "v.dup()(input_mask=b.S) << v.apply(L.unary.ainv)"]


@pytest.mark.parametrize("text", sample(INPUT_MASK))
def test_input_mask(text):
    same(text)


def test_input_mask_through_an_updater():
    def run(L):
        env = names(L)
        A, M, v = env["A"], env["M"], env["v"]
        w = v.dup()
        w(input_mask=~M.S, accum=L.binary.plus) << A[:, 3]
        return coo(w)

    assert run(gb) == run(G)


# ---- select by a mask or a BOOL object ----
SELECT = ["v.select(u.S).new()", "v.select(b.V).new()", "v.select(v > 2).new()",
          "v.select(~(v > 2)).new()", "A.select(M.V).new()", "A.select(~M.S).new()",
          "A.select(A < 4).new()", "v.select(b.V, 1)", "v.select(M.S)", "A.select(v.S)",
          "v.select(L.select.valueeq, object())", "L.Vector.from_coo([0, 1], [1, object()])",
          "L.Matrix.from_coo([0], [1], [object()])"]


@pytest.mark.parametrize("text", sample(SELECT))
def test_select_by_mask(text):
    same(text)


# ---- the left side of << is no value ----
TARGETS = ["bool(A())", "A() == A()", "bool(A[1, 2]())", "bool(v[[0, 1]]())", "bool(v()[0])",
           "v << v()[[1, 2]]", "s()[0]", "v[[0, 1]]()()", "s(A.S)", "s(L.binary.plus, v.S)"]


@pytest.mark.parametrize("text", sample(TARGETS))
def test_assignment_targets_are_not_values(text):
    assert same(text) == "TypeError"


def test_in_place_operators_on_lazy_objects_are_refused():
    # ``expr += 1`` would rebind the name to a new expression; a Vector's ``%=`` works in place
    for L in (gb, G):
        env = names(L)
        for statement in ["e += 1", "e -= 1", "e *= 2", "e %= 2", "e **= 2", "e @= A",
                          "v[[0, 1]] += 1", "A[0, :] += 1"]:
            env["e"] = env["A"] + env["A"]
            with pytest.raises(TypeError):
                exec(statement, env)
        v = env["v"]
        v %= 3
        assert coo(v) == [[0, 1, 3, 6], [1, 2, 0, 1]]
