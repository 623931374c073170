"""python-graphblas's numpy namespaces (``unary.numpy``, ``binary.numpy``, ``monoid.numpy``,
``semiring.numpy``) against python-graphblas: the same names, each the op python-graphblas gives
(gblas2d's builtin of its name, else ``numpy.<name>``), and every op on small Vectors and
Matrices of INT64, FP64 and BOOL: ``apply`` (unary, and binary with a bound scalar),
``ewise_mult``, ``reduce``, ``reduce_rowwise`` and ``mxv``. Result types and indices must be
equal, values too (floats ``allclose`` with rtol 1e-6, nan equal to nan); a type python-graphblas
refuses (KeyError) gblas2d refuses too (DomainMismatch), unless one of gblas2d's builtin ops takes
part: those take some types python-graphblas's refuse (``bnot`` and ``band`` on BOOL, the logical
monoids on any type, ``plus`` on BOOL as ``lor``; see ``semirings/monoid.py``), and its bitwise
monoids fold signed integers where python-graphblas's, unsigned only, fold them as UINT64.

python-graphblas compiles most of its numpy ops with numba, for all its types at once (about
1 s an op, half a minute for these), so what those give here is recorded in
``tests/data/numpy_ops_graphblas.json`` by ``python tests/engine/test_numpy_ops.py`` (python-
graphblas 2025.2.0); the ops it maps to its builtins run live. No operand divides an integer by
zero: python-graphblas's numba code stops the process on one (gblas2d gives numpy's 0).
"""

import functools
import json
import math
import os
import pickle
import sys
from pathlib import Path

import graphblas as G
import numpy as np
import pytest
from _helpers import agreed

import gblas2d as gb
from gblas2d.exceptions import DomainMismatch
from gblas2d.surface.infix import numpy_mod

UNDER_MPI = os.environ.get("GBLAS2D_TEST_MPI") == "1"
RECORDED = Path(__file__).resolve().parents[1] / "data" / "numpy_ops_graphblas.json"
KINDS = ["unary", "binary", "monoid", "semiring"]
DTYPES = ["INT64", "FP64", "BOOL"]
# First and second operands. Shift counts stay in [0, 63] and divisors are nonzero: numba's
# results there are the machine's (a shift by 64 is a shift by 0), numpy's are defined. BOOL
# divides by True only, for the same reason.
X = {"INT64": [7, -7, 0, 12, -5, 3, 1],
     "FP64": [7.5, -7.5, 0.0, 1.0, -2.5, math.nan, math.inf, 3.0],
     "BOOL": [True, False, True, False]}
Y = {"INT64": [2, 3, 5, 18, 1, 4, 62],
     "FP64": [2.0, 2.0, 3.0, 0.1, 0.5, 1.0, 2.0, math.nan],
     "BOOL": [True, True, True, True]}
# Where A's values (X) sit in a 3 x 4 Matrix, in order; row 1 keeps fewer under BOOL.
POSITIONS = [(0, 0), (0, 2), (1, 1), (2, 0), (0, 3), (2, 3), (1, 3), (2, 1)]
# gblas2d has no binary.atan2, copysign or ldexp: binary.numpy's are numpy.arctan2, ... (the same
# functions), so semirings of them are named numpy.<monoid>_arctan2, ..., not <monoid>_atan2.
RENAMED = {"arctan2", "copysign", "ldexp"}
# python-graphblas's conj and conjugate need complex types, which gblas2d does not hold.
COMPLEX_ONLY = {"conj", "conjugate"}
BITWISE_MONOIDS = {"band", "bor", "bxor"}
IDENTITY_DTYPES = ["BOOL", "INT8", "INT64", "UINT8", "UINT64", "FP32", "FP64"]


def names(kind):
    """python-graphblas's names in ``<kind>.numpy`` that gblas2d has."""
    return sorted(set(getattr(G, kind).numpy.__all__) - COMPLEX_ONLY)


def parts(name):
    """A semiring's (monoid name, binary name), split as python-graphblas splits it."""
    words = name.split("_")
    for i in range(1, len(words)):
        add, multiply = "_".join(words[:i]), "_".join(words[i:])
        if add in G.monoid.numpy.__all__ and multiply in G.binary.numpy.__all__:
            return add, multiply
    raise ValueError(name)


def compiled_by_numba(kind, name):
    """Whether python-graphblas's op needs numba (else it is one of its builtins)."""
    if kind == "semiring":
        add, multiply = parts(name)
        return compiled_by_numba("monoid", add) or compiled_by_numba("binary", multiply)
    if (kind, name) == ("binary", "float_power"):  # made from binary.pow
        return False
    return name not in getattr(G, kind).numpy._numpy_to_graphblas


def operands(L, dtype):
    """u, w (overlapping Vectors with one entry each of their own), A (3 x 4) and v (size 4)."""
    x, y = X[dtype], Y[dtype]
    k = len(x)
    u = L.Vector.from_coo([*range(k), k], [*x, x[0]], dtype=dtype, size=k + 2)
    w = L.Vector.from_coo([*range(k), k + 1], [*y, y[0]], dtype=dtype, size=k + 2)
    rows, cols = zip(*POSITIONS[:k], strict=True)
    A = L.Matrix.from_coo(rows, cols, x, dtype=dtype, nrows=3, ncols=4)
    v = L.Vector.from_coo([0, 1, 3], y[:3], dtype=dtype, size=4)
    return u, w, A, v


def runs(kind, op, u, w, A, v):
    """{what: a function computing it}: each way the op is applied here."""
    return {
        "unary": {"apply": lambda: A.apply(op)},
        "binary": {"ewise_mult": lambda: u.ewise_mult(w, op),
                   "apply_right": lambda: A.apply(op, right=2)},
        "monoid": {"reduce": lambda: u.reduce(op),
                   "reduce_rowwise": lambda: A.reduce_rowwise(op)},
        "semiring": {"mxv": lambda: A.mxv(v, op)},
    }[kind]


def outcome(run):
    """What ``run()`` computes, comparable across the libraries and JSON: [dtype, indices,
    values] ([dtype, None, value] for a Scalar), or "refused"."""
    try:
        result = run().new()
    except (KeyError, DomainMismatch, G.exceptions.DomainMismatch):
        return "refused"
    if not hasattr(result, "to_coo"):
        return [result.dtype.name, None, np.asarray(result.value).tolist()]
    *indices, values = result.to_coo()
    return [result.dtype.name, [np.asarray(i).tolist() for i in indices],
            np.asarray(values).tolist()]


def outcomes(L, kind, name, dtype):
    op = getattr(getattr(L, kind).numpy, name)
    return {what: outcome(run) for what, run in runs(kind, op, *operands(L, dtype)).items()}


def numba_fmod_bug(kind, name, dtype):
    """Whether python-graphblas's result is wrong for fmod of signed integers: numba computes it
    as an unsigned remainder (fmod(-7, 3) is 0 there, -1 in numpy and C)."""
    multiply = parts(name)[1] if kind == "semiring" else name
    return multiply == "fmod" and dtype == "INT64"


def builtin_part(kind, name):
    """Whether one of gblas2d's builtin ops (not a ``numpy.<name>`` one) takes part."""
    op = getattr(getattr(gb, kind).numpy, name)
    return any(not part.name.startswith("numpy.")
               for part in ([op.monoid, op.binaryop] if kind == "semiring" else [op]))


def agrees(kind, name, ours, theirs):
    """``same``, or one of gblas2d's builtins' differences (see the top of this file)."""
    if same(ours, theirs):
        return True
    if "refused" in (ours, theirs):
        return theirs == "refused" and builtin_part(kind, name)
    if kind == "semiring" and getattr(gb.semiring.numpy, name).monoid.name in BITWISE_MONOIDS \
            and (ours[0], theirs[0]) == ("INT64", "UINT64"):
        as_unsigned = np.asarray(ours[2], dtype=np.int64).astype(np.uint64).tolist()
        return same(["UINT64", ours[1], as_unsigned], theirs)
    return False


def same(ours, theirs):
    """Equal outcomes: the same refusal, or types, indices and values (floats within rtol
    1e-6, nan equal to nan)."""
    if isinstance(ours, str) or isinstance(theirs, str):
        return ours == theirs
    if ours[:2] != theirs[:2]:
        return False
    if ours[0].startswith("FP"):
        return np.allclose(np.asarray(ours[2], dtype=float), np.asarray(theirs[2], dtype=float),
                           rtol=1e-6, equal_nan=True)
    return ours[2] == theirs[2]


@functools.cache
def recorded():
    with RECORDED.open() as f:
        return json.load(f)


def cases():
    """(kind, name, dtypes): every name at every type; under MPI (oversubscribed) one name in
    three, at one type, cycling, and one semiring in 27 (their arithmetic is their parts',
    checked here at one process)."""
    out = []
    for kind in KINDS:
        for i, name in enumerate(names(kind)):
            if not UNDER_MPI:
                out.append((kind, name, DTYPES))
            elif i % (27 if kind == "semiring" else 3) == 0:
                out.append((kind, name, [DTYPES[i % len(DTYPES)]]))
    return out


@pytest.mark.parametrize(("kind", "name", "dtypes"), cases(),
                         ids=[f"{k}.{n}" for k, n, _ in cases()])
def test_op_matches_python_graphblas(kind, name, dtypes):
    numba = compiled_by_numba(kind, name)
    book = recorded() if numba else None
    for dtype in dtypes:
        if numba_fmod_bug(kind, name, dtype):
            continue
        ours = outcomes(gb, kind, name, dtype)
        theirs = {what: book[f"{kind} {name} {dtype} {what}"] for what in ours} if numba else \
            outcomes(G, kind, name, dtype)
        assert agreed(all(agrees(kind, name, ours[w], theirs[w]) for w in ours)), \
            (dtype, ours, theirs)


@pytest.mark.serial_only
@pytest.mark.parametrize(("kind", "name", "dtype"), [("unary", "square", "FP64"),
                                                    ("binary", "hypot", "INT64"),
                                                    ("monoid", "logaddexp", "FP64")])
def test_recorded_results_are_what_python_graphblas_gives(kind, name, dtype):
    # The record stands in for python-graphblas's numba ops; a few are recomputed live here,
    # so a record that no longer matches the installed python-graphblas fails.
    assert compiled_by_numba(kind, name)
    book = recorded()
    live = outcomes(G, kind, name, dtype)
    assert all(same(book[f"{kind} {name} {dtype} {what}"], live[what]) for what in live)


def test_integer_fmod_takes_the_dividends_sign():
    # numpy's and C's fmod, not python-graphblas's (numba_fmod_bug)
    u, w, A, _ = operands(gb, "INT64")
    got = u.ewise_mult(w, gb.binary.numpy.fmod).new()
    assert got.dtype == gb.dtypes.INT64
    assert agreed(got.to_coo()[1].tolist() == np.fmod(X["INT64"], Y["INT64"]).tolist())
    assert agreed(gb.binary.numpy.fmod(A, -2).new().to_coo()[2].tolist() ==
                  np.fmod(A.to_coo()[2], -2).tolist())


@pytest.mark.serial_only
@pytest.mark.parametrize("kind", KINDS)
def test_names_are_python_graphblas_names(kind):
    namespace = getattr(gb, kind).numpy
    assert dir(namespace) == names(kind) == namespace.__all__
    assert "numpy" in dir(getattr(gb, kind))
    with pytest.raises(AttributeError):
        namespace.conj  # noqa: B018 (python-graphblas's needs complex types)


@pytest.mark.serial_only
@pytest.mark.parametrize("kind", ["unary", "binary", "monoid"])
def test_each_name_is_the_op_python_graphblas_gives(kind):
    # {numpy name: python-graphblas's builtin op name}; float_power's is None (made from pow)
    builtin_names = getattr(G, kind).numpy._numpy_to_graphblas
    missing = set()
    for name in names(kind):
        op = getattr(getattr(gb, kind).numpy, name)
        builtin = getattr(getattr(gb, kind), builtin_names.get(name) or "-", None)
        if builtin is not None:
            assert op is builtin, name
        else:
            assert op.name == f"numpy.{name}", name
            missing |= {name} if builtin_names.get(name) else set()
    assert missing == (RENAMED if kind == "binary" else set())


@pytest.mark.serial_only
def test_semirings_join_their_parts_under_python_graphblas_names():
    book = recorded()
    for name in names("semiring"):
        op = getattr(gb.semiring.numpy, name)
        add, multiply = parts(name)
        assert op.monoid is getattr(gb.monoid.numpy, add), name
        assert op.binaryop is getattr(gb.binary.numpy, multiply), name
        theirs = book[f"semiring {name} name"] if compiled_by_numba("semiring", name) else \
            getattr(G.semiring.numpy, name).name
        if multiply in RENAMED:
            their_multiply = G.binary.numpy._numpy_to_graphblas[multiply]
            theirs = "numpy." + theirs.removeprefix("numpy.").replace(their_multiply, multiply)
        assert op.name == theirs, name
        # a builtin semiring of the same parts is that semiring
        builtin = getattr(gb.semiring, op.name, None)
        assert builtin is None or builtin is op, name


@pytest.mark.serial_only
def test_monoid_identities_match_python_graphblas():
    book = recorded()
    for name in names("monoid"):
        for dtype in IDENTITY_DTYPES:
            if compiled_by_numba("monoid", name):
                theirs = book[f"monoid {name} {dtype} identity"]
            else:
                op = getattr(G.monoid.numpy, name)
                theirs = op[dtype].identity if dtype in op.types else "refused"
            # the types refused are compared where the monoids are applied
            if theirs != "refused":
                assert getattr(gb.monoid.numpy, name)[dtype].identity == theirs, (name, dtype)


@pytest.mark.serial_only
def test_strings_and_pickles_find_numpy_ops():
    for kind in ["unary", "binary", "monoid"]:
        module = getattr(gb, kind)
        for name in names(kind):
            op = getattr(module.numpy, name)
            assert module.from_string(f"numpy.{name}") is op
            assert module.from_string(f"numpy.{name}[FP64]") is op["FP64"]
            # a name the module lacks is read from its numpy namespace (binary.fmod and
            # binary.hypot are SuiteSparse's, others than numpy's)
            assert module.from_string(name) is getattr(module, name, op)
            if not compiled_by_numba(kind, name) and name not in RENAMED:
                assert repr(getattr(G, kind).from_string(f"numpy.{name}")) == repr(op)
                assert repr(getattr(G, kind).from_string(name)) == repr(op)
    for name in names("semiring"):
        assert gb.semiring.from_string(name) is getattr(gb.semiring.numpy, name)
    assert gb.binary.from_string("%") is gb.binary.numpy.mod
    assert gb.semiring.from_string("min.%") is gb.semiring.numpy.fmin_mod
    assert gb.semiring.from_string("eq.plus") is gb.semiring.numpy.equal_add
    # python-graphblas reads "numpy.add_hypot" as monoid "numpy" and binary op "add_hypot"
    for L in (gb, G):
        with pytest.raises(ValueError):
            L.semiring.from_string("numpy.add_hypot")
    for op in [gb.binary.numpy.mod, gb.binary.numpy.mod["INT64"], gb.unary.numpy.square,
               gb.monoid.numpy.logaddexp["FP32"], gb.semiring.numpy.add_hypot,
               gb.semiring.numpy.equal_add["BOOL"], gb.semiring.numpy.add_add]:
        assert pickle.loads(pickle.dumps(op)) is op


def test_percent_is_numpy_mod():
    A = gb.Matrix.from_coo([0, 0, 1], [0, 2, 1], [7, -7, 5], nrows=2, ncols=3)
    assert numpy_mod is gb.binary.numpy.mod
    assert agreed((A % -3).new().isequal(gb.binary.numpy.mod(A, -3).new()))
    assert agreed((A % -3).new().to_coo()[2].tolist() == [-2, -1, -1])


def record():
    """Write what python-graphblas's numba-compiled numpy ops give here to RECORDED (about half
    a minute: each op is compiled)."""
    book = {}
    for kind in KINDS:
        for name in names(kind):
            if not compiled_by_numba(kind, name):
                continue
            book[f"{kind} {name} name"] = getattr(getattr(G, kind).numpy, name).name
            for dtype in DTYPES:
                for what, result in outcomes(G, kind, name, dtype).items():
                    book[f"{kind} {name} {dtype} {what}"] = result
            if kind == "monoid":
                op = getattr(G.monoid.numpy, name)
                for dtype in IDENTITY_DTYPES:
                    identity = op[dtype].identity if dtype in op.types else "refused"
                    book[f"monoid {name} {dtype} identity"] = identity
    lines = [f"{json.dumps(key)}: {json.dumps(book[key])}" for key in sorted(book)]
    RECORDED.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"{len(book)} results of python-graphblas {G.__version__} in {RECORDED}",
          file=sys.stderr)


if __name__ == "__main__":
    record()
