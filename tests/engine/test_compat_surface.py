"""The container surface python-graphblas users reach for, against python-graphblas itself:
``v @ w``, lazy objects read as the objects they compute to (``expr.nvals``, ``A[0, :].to_coo()``),
the transpose view's readers, ``build``, ``setdiag``, ``reposition``, the compressed formats,
``to_scipy_sparse`` of a Vector, Matrix Market through file objects, and the errors python-graphblas
raises for what it refuses.

Each case runs the same calls on python-graphblas objects and on gblas2d copies of them and
compares what comes back (gathered, so the same on every rank), or the exception's class.
Operands are small, with entries spread over the ranks' pieces and blocks.
"""

import io

import graphblas as G
import numpy as np
import pytest
import scipy.sparse

import gblas2d as gb
from gblas2d.exceptions import DimensionMismatch, IndexOutOfBound, InvalidValue, OutputNotEmpty
from gblas2d.io import from_graphblas


def theirs_and_ours(make):
    """``make(L)`` for python-graphblas and gblas2d: (theirs, ours)."""
    return make(G), make(gb)


def coo(obj):
    """Every array ``to_coo`` gives, as lists."""
    return [None if a is None else np.asarray(a).tolist() for a in obj.to_coo()]


def operands(L):
    v = L.Vector.from_coo([0, 3, 7, 9], [2, 3, 1, 2], size=10)
    w = L.Vector.from_coo([1, 3, 8, 9], [1, 2, 3, 1], size=10)
    A = L.Matrix.from_coo([0, 1, 3, 5, 4, 5], [1, 4, 3, 0, 5, 5], [2, 3, 1, 2, 3, 7], nrows=6,
                          ncols=7)
    return v, w, A


def raises(fn):
    """The class name of what ``fn()`` raises, or None."""
    try:
        fn()
    except Exception as exc:
        return type(exc).__name__
    return None


# ---- v @ w is the inner product; v @ 1 is refused ----
def test_vector_matmul_vector_is_the_inner_product():
    (tv, tw, _), (v, w, _) = theirs_and_ours(operands)
    assert (v @ w).new().value == (tv @ tw).new().value == 8
    assert v.inner(w).new().value == tv.inner(tw).new().value
    assert v.inner(w, gb.semiring.max_plus).new().value == \
        tv.inner(tw, G.semiring.max_plus).new().value
    assert gb.semiring.max_plus(v @ w).new().value == G.semiring.max_plus(tv @ tw).new().value
    for text in ["v @ 1", "1 @ v", "A @ 1", "1 @ A", "A.T @ 1", "1 @ A.T"]:
        ours = raises(lambda t=text: eval(t, dict(v=v, A=operands(gb)[2])))
        theirs = raises(lambda t=text: eval(t, dict(v=tv, A=operands(G)[2])))
        assert ours == theirs == "TypeError", text
    with pytest.raises(DimensionMismatch):
        v @ gb.Vector(int, 3)


# ---- a lazy Vector or Matrix reads as its result (python-graphblas's autocompute) ----
AUTO = ["(v + w).nvals", "(v + w).ndim", "(A @ v[:7].new()).ndim", "coo(v + w)",
        "(v + w).isequal(v.ewise_add(w).new())", "(v + w).reduce().new().value",
        "coo((v + w).dup(clear=True))", "(v + w).get(9)", "9 in (v + w)", "list(v + w)",
        "coo(A[1:4, :])", "A[1:4, :].nvals", "A[1:4, :].ndim", "coo(A[5, :])", "A[5, :].nvals",
        "coo(A[:, 5])", "A[:, 5].reduce().new().value", "coo(v[[0, 3, 9]])",
        "v[[0, 3, 9]].nvals", "coo(A.apply(L.unary.ainv).T)",
        "A.apply(L.unary.ainv).reduce_rowwise().new().nvals", "coo((A + A).mxv(w[:7].new()))",
        "coo(v[:6].new().vxm(A + A))", "(A + A).isclose(A.ewise_add(A).new())",
        "coo(A.ewise_mult(A + A))", "coo((A + A).dup(float, clear=True))"]


@pytest.mark.parametrize("text", AUTO)
def test_lazy_objects_read_as_their_results(text):
    (tv, tw, tA), (v, w, A) = theirs_and_ours(operands)
    with G.config.set(autocompute=True):
        theirs = eval(text, dict(v=tv, w=tw, A=tA, L=G, coo=coo))
    assert eval(text, dict(v=v, w=w, A=A, L=gb, coo=coo)) == theirs


# ---- the transpose view ----
TRANSPOSED = ["A.T.to_coo()", "A.T.to_coo(values=False)", "A.T.to_dicts()",
              "A.T.to_dicts('columnwise')", "A.T.get(5, 4)", "A.T.get(4, 5, 'none')",
              "(5, 4) in A.T", "(4, 5) in A.T", "set(A.T)", "A.T.to_csr()", "A.T.to_dcsc()",
              "A.T.to_edgelist()", "A.T.wait() is not None", "A.T.ndim",
              "A.T.to_dense(0).tolist()", "A.T.reposition(1, -1).new().to_coo()",
              "A.T.dup(clear=True).shape"]


@pytest.mark.parametrize("text", TRANSPOSED)
def test_transpose_readers(text):
    (_, _, tA), (_, _, A) = theirs_and_ours(operands)
    theirs, ours = (eval(text, dict(A=M)) for M in (tA, A))
    assert repr(ours) == repr(theirs) if isinstance(theirs, (tuple, list)) else ours == theirs


def test_transpose_refuses_assignment_and_bad_membership():
    A = gb.Matrix.from_coo([0, 1], [1, 0], [1, 2])
    with pytest.raises(TypeError, match="does not support item assignment"):
        A.T[1, 0] << 10
    with pytest.raises(TypeError, match="does not support item assignment"):
        A.T[:, :] << A
    with pytest.raises(TypeError):
        A.T[1, 0]() << 10
    assert A.to_coo()[2].tolist() == [1, 2]  # A is left alone
    with pytest.raises(TypeError):
        assert (1,) in A.T
    with pytest.raises(TypeError):
        assert (1, [0, 1]) in A.T


# ---- build, setdiag, reposition ----
def test_build_matches_python_graphblas():
    def make(L):
        v, _, A = operands(L)
        out = []
        v.build([1, 5], [3, 4], clear=True)
        out.append(coo(v))
        out.append(raises(lambda: v.build([2], [1])))
        v.clear()
        v.build([0, 11], [1, 1], size=12)
        out.append((v.size, coo(v)))
        A.build([0, 1], [2, 2], [5, 6], clear=True, ncols=9)
        out.append((A.shape, coo(A)))
        B = L.Matrix(int, 2, 2)
        out.append(raises(lambda: B.build([0, 3], [0, 0], [1, 1])))
        return out

    theirs, ours = theirs_and_ours(make)
    assert ours == theirs
    A = gb.Matrix(int, 2, 2)
    A[0, 0] = 1
    with pytest.raises(OutputNotEmpty):
        A.build([1], [1], [1])
    with pytest.raises(IndexOutOfBound):
        gb.Matrix(int, 2, 2).build([0, 3], [0, 0], [1, 1])


SETDIAG = [("1,", {}), ("2, 2", {}), ("3, -1", {}), ("[10, 20], 1", {}),
           ("u,", {}), ("u,", {"accum": "plus"}), ("7,", {"mask": "u.S"}),
           ("7,", {"mask": "~u.S"}), ("7,", {"mask": "A.S", "accum": "plus"}),
           ("7,", {"mask": "~A.V"})]


@pytest.mark.parametrize(("args", "kw"), SETDIAG)
def test_setdiag_matches_python_graphblas(args, kw):
    def make(L):
        A = L.Matrix.from_coo([0, 1, 1], [0, 1, 2], [5, 6, 7], nrows=2, ncols=3)
        u = L.Vector.from_coo([0], [1], size=2)
        options = {key: (getattr(L.binary, value) if key == "accum" else
                         eval(value, dict(u=u, A=A))) for key, value in kw.items()}
        A.setdiag(*eval(f"({args})", dict(u=u)), **options)
        return coo(A)

    theirs, ours = theirs_and_ours(make)
    assert ours == theirs


def test_setdiag_errors():
    A = gb.Matrix(int, 2, 3)
    with pytest.raises(IndexError, match="diagonal is out of range"):
        A.setdiag(1, 3)
    with pytest.raises(TypeError, match="k must be an integer"):
        A.setdiag(1, 0.5)
    with pytest.raises(DimensionMismatch):
        A.setdiag([1, 2, 3], 1)
    with pytest.raises(TypeError, match="Bad type for argument `values`"):
        A.setdiag(object())


@pytest.mark.parametrize("offsets", [(0,), (2,), (-3,), (-12,), (4, 3), (-1, 2), (2, -5)])
def test_reposition_matches_python_graphblas(offsets):
    def make(L):
        v, _, A = operands(L)
        x = v if len(offsets) == 1 else A
        shape = {"size": 13} if len(offsets) == 1 else {"nrows": 4, "ncols": 9}
        return coo(x.reposition(*offsets).new()), coo(x.reposition(*offsets, **shape).new())

    theirs, ours = theirs_and_ours(make)
    assert ours == theirs


# ---- compressed formats, whole on every rank ----
@pytest.mark.parametrize("fmt", ["csr", "csc", "dcsr", "dcsc"])
def test_compressed_formats_match_python_graphblas(fmt):
    (_, _, tA), (_, _, A) = theirs_and_ours(operands)
    theirs, ours = getattr(tA, f"to_{fmt}")(), getattr(A, f"to_{fmt}")()
    assert [a.tolist() for a in ours] == [a.tolist() for a in theirs]
    assert [a.dtype for a in ours] == [a.dtype for a in theirs]
    back = getattr(gb.Matrix, f"from_{fmt}")(*theirs, nrows=6, ncols=7)
    assert back.isequal(A, check_dtype=True)
    assert getattr(gb.Matrix, f"from_{fmt}")(*ours[:-1], 3, nrows=6, ncols=7).isequal(
        from_graphblas(getattr(G.Matrix, f"from_{fmt}")(*theirs[:-1], 3, nrows=6, ncols=7)),
        check_dtype=True)


def test_compressed_formats_refuse_what_python_graphblas_refuses():
    with pytest.raises(InvalidValue):
        gb.Matrix.from_csr([0, 1, 2, 3], [1, 0], [10, 20], ncols=3)
    with pytest.raises(ValueError, match="nrows must"):
        gb.Matrix.from_csr([0, 1, 2], [1, 0], [10, 20], nrows=3)
    with pytest.raises(gb.exceptions.InvalidObject):
        gb.Matrix.from_csr([0, 1, 2], [1, 0], [10, 20], ncols=1)
    with pytest.raises(InvalidValue):
        gb.Matrix.from_dcsr([], [], [], [], dtype=int)
    assert gb.Matrix.from_dcsr([2], [0, 0], [], [], dtype=int).shape == (3, 0)


# ---- conversions and files ----
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_to_scipy_sparse_of_a_vector(fmt):
    (tv, _, _), (v, _, _) = theirs_and_ours(operands)
    theirs, ours = (G.io.to_scipy_sparse(tv, fmt), gb.io.to_scipy_sparse(v, fmt))
    assert isinstance(ours, scipy.sparse.sparray) and ours.format == theirs.format == fmt
    np.testing.assert_array_equal(ours.toarray(), theirs.toarray())
    with pytest.raises(ValueError, match="Invalid format"):
        gb.io.to_scipy_sparse(v, "bad format")


DUPLICATED = """%%MatrixMarket matrix coordinate real general
3 3 4
1 3 1
2 2 2
3 1 3
3 1 4
"""


def test_matrix_market_through_file_objects():
    with pytest.raises(ValueError, match="Duplicate indices found"):
        gb.io.mmread(io.StringIO(DUPLICATED), "scipy")
    A = gb.io.mmread(io.StringIO(DUPLICATED), "auto", dup_op=gb.binary.plus)
    assert coo(A) == coo(G.io.mmread(io.StringIO(DUPLICATED), dup_op=G.binary.plus))
    with pytest.raises(ValueError, match="Bad engine value"):
        gb.io.mmwrite(io.BytesIO(), A, engine="bad_engine")
    with pytest.raises(ValueError, match="Bad engine value"):
        gb.io.mmread(io.BytesIO(), engine="bad_engine")
    # Rank 0 writes the file object and reads it back; every rank gets the Matrix.
    target = io.BytesIO()
    gb.io.mmwrite(target, A)
    target.seek(0)
    assert gb.io.mmread(target).isequal(A, check_dtype=True)
    # A Vector is written as a 1 x n Matrix, as python-graphblas writes it.
    row = io.BytesIO()
    gb.io.mmwrite(row, gb.Vector.from_coo([0, 2], [1.5, 2.0]))
    row.seek(0)
    assert coo(gb.io.mmread(row)) == [[0, 0], [0, 2], [1.5, 2.0]]


# ---- what python-graphblas refuses, refused alike ----
REFUSED = ["v.get([0, 1])", "A.get(0, [0, 1])", "v.wait('badmode')", "A.wait('badmode')",
           "bool(A.S)", "L.Vector.from_pairs(np.array([[0, 1], [2, 3]]))",
           "L.Vector.from_pairs([[1, 2, 3]])", "L.Vector.from_coo([], [])",
           "L.Vector.from_coo([0, 1, 1], [1, 2, 3])", "L.Vector.from_coo([0], [1, 2])",
           "L.Vector.from_coo(np.array([1.5]), [1])", "L.Vector.from_coo([0, 2**64 - 2], [0, 1])",
           "L.Vector.from_coo([0, 2**64], [0, 1])", "L.Matrix.from_coo([0], [1, 2], [0])",
           "L.Matrix.from_coo([], [], [])", "L.Matrix.from_dense([1, 2, 3])",
           "L.Vector.from_dense(np.ones((2, 3)), dtype=int)", "L.Vector.from_dense(1)",
           "v.to_dense()", "v.to_dense(object())", "A << None",
           "A.ewise_union(A, L.binary.plus, A, 0)", "L.Matrix.from_dicts([{1: 1}], nrows=3)"]


@pytest.mark.parametrize("text", REFUSED)
def test_refused_alike(text):
    (tv, tw, tA), (v, w, A) = theirs_and_ours(operands)
    theirs = raises(lambda: eval(text, dict(v=tv, w=tw, A=tA, L=G, np=np)))
    ours = raises(lambda: eval(text, dict(v=v, w=w, A=A, L=gb, np=np)))
    assert theirs is not None
    assert ours == theirs or _also_builtin(ours, theirs), (ours, theirs)


def _also_builtin(ours, theirs):
    """Whether gblas2d's exception class ``ours`` (a GraphBLAS error) is also the builtin
    exception ``theirs`` that python-graphblas raises (InvalidValue is a ValueError)."""
    import builtins

    import gblas2d.surface.inputs

    cls = getattr(gb.exceptions, ours, None) or getattr(gblas2d.surface.inputs, ours, None)
    base = getattr(builtins, theirs, None)
    return isinstance(cls, type) and isinstance(base, type) and issubclass(cls, base)


def test_assignments_refused_alike():
    def make(L):
        v = L.Vector.from_coo([0, 1, 2], [1, 2, 3])
        w = L.Vector.from_coo([0], [50])
        out = []
        for statement in ["v[0] = [1]", "v()[0] = [1]", "v[[0, 1]] = [1, 2, 3]",
                          "v[2](w.S) << w", "v[2](w.S) << 7", "v[:] = object()"]:
            out.append(raises(lambda s=statement: exec(s, dict(v=v, w=w))))
        v[[0, 1]] = [7, 8]
        v[0] = L.Scalar(int)  # an empty Scalar removes the entry
        return out, coo(v)

    theirs, ours = theirs_and_ours(make)
    assert ours == theirs


def test_indices_and_fill_values_read_as_python_graphblas_reads_them():
    def make(L):
        u = L.Vector.from_coo([1.2, 3.4], [1, 2])  # a list is cast
        v = L.Vector.from_coo([0, 2], [1, 2], size=4)
        return (coo(u), v.to_dense(4.5).tolist(), v.to_dense(4.5).dtype.name,
                v.to_dense(4.5, int).tolist(), coo(L.Vector.from_coo([0, 1, 1], 7)),
                coo(L.Matrix.from_edgelist([[0, 1, 10], [2, 3, 20]])),
                L.Matrix.from_dicts([{1: 1}, {}, {0: 2}]).to_dicts("col"))

    theirs, ours = theirs_and_ours(make)
    assert ours == theirs


# ---- SuiteSparse's float functions, computed in the operands' float type ----
@pytest.mark.parametrize("name", ["fmod", "hypot"])
@pytest.mark.parametrize("dtype", ["BOOL", "INT8", "INT64", "UINT8", "FP32", "FP64"])
def test_float_binary_ops(name, dtype):
    def make(L):
        x = L.Vector.from_coo([0, 1, 2, 4], [7, -7, 5, 9], size=6).dup(dtype)
        y = L.Vector.from_coo([0, 1, 2, 3], [3, 2, -4, 1], size=6).dup(dtype)
        op = getattr(L.binary, name)
        both, bound = op(x & y).new(), op(x, 3).new()
        return [str(both.dtype), str(bound.dtype),
                *(np.round(r.to_coo()[1].astype(float), 5).tolist() for r in (both, bound))]

    theirs, ours = theirs_and_ours(make)
    assert ours == theirs
