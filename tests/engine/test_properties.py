"""Property tests: gblas2d against python-graphblas (the oracle) on random sparse operands.

Each test draws sizes (0..40, empty and non-square included), densities and a seed, builds the
same operands in both libraries with ``numpy.random.default_rng(seed)``, runs the same
expression (with a random mask kind, accumulator and replace flag where the output is a Vector
or Matrix) and compares ``to_coo()``: exact indices, exact values for bool and integers,
``allclose`` for floats.

SPMD: under mpiexec every rank draws the same examples (the hypothesis profile is derandomized)
and builds the same operands, so every rank makes the same gblas2d calls in the same order.
Nothing here branches on the rank.
"""

import os

import graphblas as G
import numpy as np
import pytest
from _helpers import (
    DTYPES,
    ENGINE_PIECE_FORMATS,
    MASK_KINDS,
    assert_between,
    assert_same_matrix,
    assert_same_scalar,
    assert_same_vector,
    backend_in_use,
    g_accepts,
    mask_of,
    mat_pair,
    op,
    piece_formats,
    rand_mat,
    rand_scalar,
    rand_values,
    rand_vec,
    semiring,
    vec_pair,
)
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st

import gblas2d as gb
from gblas2d import backends
from gblas2d.local import piece

UNDER_MPI = os.environ.get("GBLAS2D_TEST_MPI") == "1"
# Every backend on the grids the engine's suites run; the array backend (the GPU's kernels on
# the host) at one rank, 1x2 and 2x2. The other grids test the engine's ownership arithmetic,
# which no backend changes, and the suite's ten minutes are better spent elsewhere.
BACKENDS = [name for name in backends.available() if name != "array" or
            os.environ.get("GBLAS2D_GRID", "1x1") in ("1x1", "1x2", "2x2")]


@pytest.fixture(autouse=True)
def default_piece_formats():
    """The engine's piece formats after every test (``piece_formats`` may change them)."""
    yield
    piece_formats(False)
    assert (piece._TO_BITMAP, piece._TO_SPARSE) == ENGINE_PIECE_FORMATS


# Zero-length dimensions are covered in test_construction.py: python-graphblas, the oracle
# here, raises DimensionMismatch for some masked/accumulated products over them.
sizes = st.integers(1, 40)
small = st.integers(0, 12)
seeds = st.integers(0, 2**32 - 1)
densities = st.sampled_from([0.0, 0.1, 0.3, 0.6, 1.0])
mask_kinds = st.sampled_from(MASK_KINDS)
accums = st.sampled_from([None, "plus", "min"])
dtypes = st.sampled_from(DTYPES)

ENGINE_OPTS = [{}, {"direction": "push", "exchange": "dense"},
               {"direction": "push", "exchange": "sparse"},
               {"direction": "pull", "exchange": "dense"},
               {"direction": "pull", "exchange": "sparse"}]


def examples(serial, mpi=None):
    """``serial`` examples in one process; under MPI the profile's count (or ``mpi``) and no
    shrinking: shrinking repeats collectives for minutes on an oversubscribed machine, and the
    serial run shrinks the same failures."""
    if UNDER_MPI:
        kw = {"max_examples": mpi} if mpi else {}
        return settings(phases=[Phase.explicit, Phase.reuse, Phase.generate], **kw)
    return settings(max_examples=serial)


# ---------------------------------------------------------------------------------------------
# The semirings under test and the input dtypes python-graphblas accepts for each.

DETERMINISTIC = ["plus_times", "plus_pair", "min_plus", "max_plus", "min_times", "max_times",
                 "min_first", "min_second", "max_first", "max_second", "any_pair", "lor_land",
                 "min_secondi", "min_firsti", "bor_band", "plus_first", "plus_second"]
# any_* semirings may pick any candidate: compare the structure, and bound the values by the
# min_* and max_* results (so each value is one of the candidates' range).
ANY_BOUNDS = {"any_first": ("min_first", "max_first"),
              "any_second": ("min_second", "max_second"),
              "any_secondi": ("min_secondi", "max_secondi")}
# Each semiring on the grids that test the local kernels. On the uneven grid (2x3, six ranks
# on the machine's two cores) what changes is where an entry and an index lie, so one semiring
# of each kind runs there, with every one that reads indices.
SEMIRINGS = DETERMINISTIC + list(ANY_BOUNDS)
if os.environ.get("GBLAS2D_GRID") == "2x3":
    SEMIRINGS = ["plus_times", "min_plus", "any_pair", "lor_land", "min_firsti", "min_secondi",
                 "any_secondi"]
# python-graphblas gives bor_band on signed inputs an unsigned output type (INT8 -> UINT16):
# compare on unsigned inputs only.
ONLY = {"lor_land": ["BOOL"], "bor_band": ["UINT8", "UINT64"]}


def _semiring_dtypes(name):
    allowed = ONLY.get(name, DTYPES)
    return [d for d in allowed if g_accepts(lambda d=d: semiring(G, name)[d])]


SEMIRING_DTYPES = {name: _semiring_dtypes(name) for name in DETERMINISTIC + list(ANY_BOUNDS)}


def _accum(L, name, out_dtype):
    if name is None:
        return None
    return op(L, "binary", name)


def _rand_mask_vec(rng, n, kind):
    if kind is None:
        return None
    mdtype = ["BOOL", "INT64", "FP64"][int(rng.integers(0, 3))]
    return rand_vec(rng, n, mdtype, float(rng.choice([0.2, 0.5, 0.9])))


def _rand_mask_mat(rng, m, n, kind):
    if kind is None:
        return None
    mdtype = ["BOOL", "INT64", "FP64"][int(rng.integers(0, 3))]
    return rand_mat(rng, m, n, mdtype, float(rng.choice([0.2, 0.5, 0.9])))


def _write(L, out, expr, mask, kind, accum, replace, opts=None):
    """``out(mask=..., accum=..., replace=..., **opts) << expr`` in either library."""
    kw = {}
    if kind is not None:
        kw["mask"] = mask_of(mask.of(L), kind)
        kw["replace"] = replace
    if accum is not None:
        kw["accum"] = accum
    if L is gb and opts:
        kw.update(opts)
    out.of(L)(**kw) << expr(L)
    return out.of(L)


# ---------------------------------------------------------------------------------------------
# mxv / vxm


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SEMIRINGS)
@examples(serial=50)
@given(sparse=st.booleans(),
       nrows=sizes, ncols=sizes, seed=seeds, dens_a=densities, dens_x=densities,
       kind=mask_kinds, accum=accums, replace=st.booleans(), orient=st.sampled_from(["mxv",
       "vxm", "T.mxv", "vxm.T"]), pick=st.integers(0, 100))
def test_mxv_vxm_semirings(backend, name, nrows, ncols, seed, dens_a, dens_x, kind, accum,
                           replace, orient, pick, sparse):
    """mxv, vxm, A.T.mxv and x.vxm(A.T) for each semiring and dtype, every mask kind, accum
    and replace, and the four forced direction/exchange combinations of the engine, on each
    local-kernel backend."""
    piece_formats(sparse)
    dtype_choices = SEMIRING_DTYPES[name]
    dtype = dtype_choices[pick % len(dtype_choices)]
    rng = np.random.default_rng(seed)
    A = rand_mat(rng, nrows, ncols, dtype, dens_a)
    # A.T.mxv(x) and x.vxm(A.T) use A as stored (nrows x ncols) and swap the dimensions
    in_size = ncols if orient in ("mxv", "vxm.T") else nrows
    out_size = nrows if orient in ("mxv", "vxm.T") else ncols
    x = rand_vec(rng, in_size, dtype, dens_x)
    mask = _rand_mask_vec(rng, out_size, kind)

    def product(sr_name):
        def expr(L):
            sr = semiring(L, sr_name)
            a, v = A.of(L), x.of(L)
            if L is G and any(p in sr_name for p in ("firsti", "firstj", "secondi", "secondj")):
                # SuiteSparse 9.4.5's dot product reads a hypersparse matrix's row or column
                # wrongly in positional ops (test_hypersparse.py): its reference is a bitmap
                a.ss.config["sparsity_control"] = ["bitmap"]
            if orient == "mxv":
                return a.mxv(v, sr)
            if orient == "vxm":
                return v.vxm(a, sr)
            if orient == "vxm.T":
                return v.vxm(a.T, sr)
            return a.T.mxv(v, sr)
        return expr

    out_dtype = product(name)(G).dtype.name
    assert str(product(name)(gb).dtype) == out_dtype, "result type"
    w_idx, w_vals = rand_vec_coo(rng, out_size, out_dtype, 0.4)
    nondet = name in ANY_BOUNDS
    acc_G = _accum(G, accum, out_dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[out_dtype]))

    expected = _write(G, vec_pair(w_idx, w_vals, out_dtype, out_size), product(name), mask,
                      kind, acc_G, replace)
    bounds = None
    if nondet and accum is None:
        lo_name, hi_name = ANY_BOUNDS[name]
        bounds = [_write(G, vec_pair(w_idx, w_vals, out_dtype, out_size), product(n), mask,
                         kind, None, replace) for n in (lo_name, hi_name)]
    for opts in ENGINE_OPTS:
        w = vec_pair(w_idx, w_vals, out_dtype, out_size)
        with backend_in_use(backend):
            got = _write(gb, w, product(name), mask, kind, _accum(gb, accum, out_dtype),
                         replace, opts)
        what = f"{orient} {name}[{dtype}] mask={kind} accum={accum} replace={replace} {opts}"
        assert_same_vector(got, expected, structure_only=nondet, what=what)
        if bounds is not None:
            assert_between(got, *bounds, what=what)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["plus_times", "min_plus", "any_pair", "min_first",
                                  "max_second", "plus_first", "min_secondi", "min_firsti"])
@examples(serial=10, mpi=3)
@given(n=sizes, seed=st.integers(0, 2**20), dens_x=densities,
       orient=st.sampled_from(["mxv", "vxm"]), kind=mask_kinds)
def test_products_of_a_symmetric_matrix(backend, name, n, seed, dens_x, orient, kind):
    """A matrix known to be symmetric reads one storage both ways (its CSR is its CSC at one
    rank): every direction gives python-graphblas's product, the non-commutative and
    positional multiplies included."""
    A = gb.generators.erdos_renyi(n, 3 * n, seed=seed, symmetric=True, weights="uniform")
    operands = {gb: A, G: G.Matrix.from_coo(*A.to_coo(), nrows=n, ncols=n)}
    rng = np.random.default_rng(seed)
    x = rand_vec(rng, n, "FP64", dens_x)
    mask = _rand_mask_vec(rng, n, kind)

    def product(L):
        M, v, sr = operands[L], x.of(L), semiring(L, name)
        return M.mxv(v, sr) if orient == "mxv" else v.vxm(M, sr)

    out_dtype = product(G).dtype.name
    expected = _write(G, vec_pair([], [], out_dtype, n), product, mask, kind, None, False)
    for opts in ENGINE_OPTS:
        with backend_in_use(backend):
            got = _write(gb, vec_pair([], [], out_dtype, n), product, mask, kind, None, False,
                         opts)
        assert_same_vector(got, expected, structure_only=name == "any_pair",
                           what=f"{orient} {name} mask={kind} {opts}")


def rand_vec_coo(rng, n, dtype, density):
    idx = np.flatnonzero(rng.random(n) < density).astype(np.int64)
    return idx, rand_values(rng, len(idx), dtype)


@examples(serial=30)
@given(n=sizes, seed=seeds, dens=densities, dtype=st.sampled_from(["INT64", "FP64", "BOOL"]))
def test_new_with_engine_options(n, seed, dens, dtype):
    """``expr.new(direction=..., exchange=...)`` and ``semiring(A @ x)`` match the oracle."""
    rng = np.random.default_rng(seed)
    A = rand_mat(rng, n, n, dtype, dens)
    x = rand_vec(rng, n, dtype, float(rng.choice([0.1, 0.5, 1.0])))
    name = "any_pair" if dtype == "BOOL" else "min_plus"
    expected = A.G.mxv(x.G, semiring(G, name)).new()
    for opts in ENGINE_OPTS:
        got = A.gb.mxv(x.gb, semiring(gb, name)).new(**opts)
        assert_same_vector(got, expected, what=str(opts))
    got = semiring(gb, name)(A.gb @ x.gb).new()
    assert_same_vector(got, expected, what="functional form")
    if dtype != "BOOL":
        assert_same_vector((A.gb @ x.gb).new(), (A.G @ x.G).new(), what="A @ x")
        assert_same_vector((x.gb @ A.gb).new(), (x.G @ A.G).new(), what="x @ A")


@examples(serial=40)
@given(m=sizes, n=sizes, seed=seeds, dta=dtypes, dtx=dtypes, dens=densities,
       name=st.sampled_from(["plus_times", "min_plus", "max_first", "min_second", "any_pair",
                             "plus_pair", "min_secondi"]),
       orient=st.sampled_from(["mxv", "vxm"]), direction=st.sampled_from([None, "push", "pull"]))
def test_mxv_mixed_dtypes(m, n, seed, dta, dtx, dens, name, orient, direction):
    """Matrix and vector of different types: the result type and values follow the oracle."""
    rng = np.random.default_rng(seed)
    A = rand_mat(rng, m, n, dta, dens)
    x = rand_vec(rng, n if orient == "mxv" else m, dtx, float(rng.choice([0.2, 0.6, 1.0])))

    def e(L):
        sr = semiring(L, name)
        return A.of(L).mxv(x.of(L), sr) if orient == "mxv" else x.of(L).vxm(A.of(L), sr)

    assume(g_accepts(lambda: e(G).new()))
    expected = e(G).new()
    opts = {} if direction is None else {"direction": direction}
    assert_same_vector(e(gb).new(**opts), expected, what=f"{orient} {name} {dta} x {dtx}")


# ---------------------------------------------------------------------------------------------
# mxm

MXM_SEMIRINGS = ["plus_times", "min_plus", "max_times", "plus_pair", "any_pair", "lor_land",
                 "min_secondi", "min_firsti", "bor_band", "min_second", "plus_first",
                 "plus_second"]
POSITIONAL = {"min_secondi", "min_firsti"}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", ["tall_skinny", "square"])
@examples(serial=30)
@given(m=sizes, k=sizes, p=st.integers(1, 5), seed=seeds, dens_a=densities, dens_b=densities,
       kind=mask_kinds, accum=accums, replace=st.booleans(), name=st.sampled_from(MXM_SEMIRINGS),
       pick=st.integers(0, 100), transpose_b=st.booleans(), c_density=st.sampled_from([0, 0.3]),
       scheme=st.sampled_from([None, "gather", "summa"]),
       direction=st.sampled_from([None, "push", "pull"]))
def test_mxm(backend, shape, m, k, p, seed, dens_a, dens_b, kind, accum, replace, name, pick,
             transpose_b, c_density, scheme, direction):
    """C(mask, accum, replace) << A.mxm(B) with B tall and skinny (k x 1..5) or square, into
    an empty C (where a product that took the mask in is installed as it is) or not; by either
    scheme, the mask in the local product or applied after the fold."""
    dtype_choices = SEMIRING_DTYPES[name]
    dtype = dtype_choices[pick % len(dtype_choices)]
    if shape == "square":
        k = p = m
    rng = np.random.default_rng(seed)
    A = rand_mat(rng, m, k, dtype, dens_a)
    # B given directly, or as the transpose of a p x k matrix (mxm materializes it)
    B = rand_mat(rng, p, k, dtype, dens_b) if transpose_b else rand_mat(rng, k, p, dtype, dens_b)
    mask = _rand_mask_mat(rng, m, p, kind)

    def expr(L):
        b = B.of(L).T if transpose_b else B.of(L)
        return A.of(L).mxm(b, semiring(L, name))

    out_dtype = expr(G).dtype.name
    assert str(expr(gb).dtype) == out_dtype, "result type"
    acc_G = _accum(G, accum, out_dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[out_dtype]))
    c = rand_mat(rng, m, p, out_dtype, c_density)
    c_coo = c.G.to_coo()

    def fresh():
        return mat_pair(*c_coo, out_dtype, m, p)

    expected = _write(G, fresh(), expr, mask, kind, acc_G, replace)
    with backend_in_use(backend):
        got = _write(gb, fresh(), expr, mask, kind, _accum(gb, accum, out_dtype), replace,
                     {"scheme": None if name in POSITIONAL else scheme, "direction": direction})
    assert_same_matrix(got, expected, what=f"mxm {name}[{dtype}] mask={kind} accum={accum} "
                                           f"scheme={scheme} direction={direction}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_masked_product_result_obeys_later_masks(backend):
    """A product computed inside its mask, stored, then copied under another mask into an
    empty matrix: the copy obeys the second mask (the first mask's promise does not carry)."""
    rows, cols = [0, 1, 2], [1, 2, 0]
    results = []
    for L in (G, gb):
        A = L.Matrix.from_coo(rows, cols, [1.0, 2.0, 3.0], nrows=3, ncols=3)
        M = L.Matrix.from_coo([0, 1, 2, 0], [1, 2, 0, 2], True, nrows=3, ncols=3)
        C = L.Matrix(float, 3, 3)
        with backend_in_use(backend if L is gb else backends.backend_name()):
            C(M.S) << A.mxm(A, L.semiring.plus_times)
        D = L.Matrix(float, 3, 3)
        D(L.Matrix.from_coo([0], [0], True, nrows=3, ncols=3).S) << C
        results.append(D)
    assert_same_matrix(results[1], results[0], what="copy of a masked product")


# ---------------------------------------------------------------------------------------------
# element-wise

EWISE_OPS = ["plus", "minus", "times", "min", "max", "first", "second", "pair", "lt", "eq",
             "ge", "rminus", "truediv", "land", "lor", "firsti", "secondj", "firstj1"]


def _ewise_expr(method, opname, ld, rd):
    def expr(L, a, b):
        bop = op(L, "binary", opname)
        if method == "union":
            return a.ewise_union(b, bop, ld, rd)
        return getattr(a, f"ewise_{method}")(b, bop)
    return expr


@pytest.mark.parametrize("method", ["add", "mult", "union"])
@examples(serial=40)
@given(sparse=st.booleans(),
       n=sizes, seed=seeds, da=densities, db=densities, dta=dtypes, same=st.booleans(),
       dtb=dtypes, opname=st.sampled_from(EWISE_OPS), kind=mask_kinds, accum=accums,
       replace=st.booleans())
def test_vector_ewise(n, seed, da, db, dta, same, dtb, opname, method, kind, accum, replace,
                      sparse):
    piece_formats(sparse)
    dtb = dta if same else dtb
    rng = np.random.default_rng(seed)
    a = rand_vec(rng, n, dta, da)
    b = rand_vec(rng, n, dtb, db)
    mask = _rand_mask_vec(rng, n, kind)
    ld, rd = rand_scalar(rng, dta), rand_scalar(rng, dtb)
    e = _ewise_expr(method, opname, ld, rd)
    assume(g_accepts(lambda: e(G, a.G, b.G)))
    out_dtype = e(G, a.G, b.G).dtype.name
    assert str(e(gb, a.gb, b.gb).dtype) == out_dtype, \
        f"result type of ewise_{method} {opname} on {dta},{dtb} ({ld}, {rd})"
    acc_G = _accum(G, accum, out_dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[out_dtype]))
    w_idx, w_vals = rand_vec_coo(rng, n, out_dtype, 0.4)
    expected = _write(G, vec_pair(w_idx, w_vals, out_dtype, n), lambda L: e(L, a.G, b.G), mask,
                      kind, acc_G, replace)
    got = _write(gb, vec_pair(w_idx, w_vals, out_dtype, n), lambda L: e(L, a.gb, b.gb), mask,
                 kind, _accum(gb, accum, out_dtype), replace)
    assert_same_vector(got, expected, what=f"ewise_{method} {opname} {dta},{dtb} ({ld},{rd}) "
                       f"mask={kind} accum={accum} replace={replace}")


@examples(serial=20)
@given(n=sizes, seed=seeds, dtype=st.sampled_from(["INT64", "FP64", "BOOL"]))
def test_vector_infix(n, seed, dtype):
    """``v + w``, ``v - w``, ``v * w``, ``binary.op(v | w)``, ``binary.op(v & w)``."""
    rng = np.random.default_rng(seed)
    a = rand_vec(rng, n, dtype, 0.5)
    b = rand_vec(rng, n, dtype, 0.5)
    cases = [("|max", lambda L, x, y: L.binary.max(x | y)),
             ("&min", lambda L, x, y: L.binary.min(x & y))]
    if dtype != "BOOL":
        cases += [("+", lambda L, x, y: x + y), ("*", lambda L, x, y: x * y),
                  ("-", lambda L, x, y: x - y)]
    else:
        cases += [("|", lambda L, x, y: x | y), ("&", lambda L, x, y: x & y)]
    for label, fn in cases:
        assert_same_vector(fn(gb, a.gb, b.gb).new(), fn(G, a.G, b.G).new(), what=label)
    # positional mask and replace: w(~b.S, replace=True) << binary.max(a | b)
    outs = []
    for L, x, y in ((gb, a.gb, b.gb), (G, a.G, b.G)):
        w = x.dup()
        w(~y.S, replace=True) << L.binary.max(x | y)
        outs.append(w)
    assert_same_vector(*outs, what="w(~b.S, replace=True)")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("method", ["add", "mult", "union"])
@examples(serial=30)
@given(m=sizes, n=sizes, seed=seeds, da=densities, db=densities, dta=dtypes, same=st.booleans(),
       dtb=dtypes, opname=st.sampled_from(EWISE_OPS), kind=mask_kinds, accum=accums,
       replace=st.booleans())
def test_matrix_ewise(backend, m, n, seed, da, db, dta, same, dtb, opname, method, kind, accum,
                      replace):
    """Each local-kernel backend."""
    dtb = dta if same else dtb
    rng = np.random.default_rng(seed)
    a = rand_mat(rng, m, n, dta, da)
    b = rand_mat(rng, m, n, dtb, db)
    mask = _rand_mask_mat(rng, m, n, kind)
    ld, rd = rand_scalar(rng, dta), rand_scalar(rng, dtb)
    e = _ewise_expr(method, opname, ld, rd)
    assume(g_accepts(lambda: e(G, a.G, b.G)))
    out_dtype = e(G, a.G, b.G).dtype.name
    assert str(e(gb, a.gb, b.gb).dtype) == out_dtype, \
        f"result type of ewise_{method} {opname} on {dta},{dtb} ({ld}, {rd})"
    acc_G = _accum(G, accum, out_dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[out_dtype]))
    c = rand_mat(rng, m, n, out_dtype, 0.3)
    coo = c.G.to_coo()
    expected = _write(G, mat_pair(*coo, out_dtype, m, n), lambda L: e(L, a.G, b.G), mask, kind,
                      acc_G, replace)
    with backend_in_use(backend):
        got = _write(gb, mat_pair(*coo, out_dtype, m, n), lambda L: e(L, a.gb, b.gb), mask,
                     kind, _accum(gb, accum, out_dtype), replace)
    assert_same_matrix(got, expected, what=f"ewise_{method} {opname} {dta},{dtb} ({ld},{rd}) "
                       f"mask={kind} accum={accum} replace={replace}")


def _one_structure_operands(L, A, partner, dtype):
    """``A`` and a partner that shares its structure: A itself, its copy, A with other values
    and another type (``apply``), or A's transpose (A is symmetric)."""
    other = {"itself": lambda: A, "dup": A.dup, "transpose": lambda: A.T.new(),
             "apply": lambda: A.apply(L.unary.lnot if dtype == "BOOL" else L.unary.ainv).new(
                 "FP32")}
    return A, other[partner]()


@pytest.mark.parametrize("method", ["add", "mult", "union"])
@pytest.mark.parametrize("partner", ["itself", "dup", "apply", "transpose"])
@examples(serial=20, mpi=5)
@given(n=sizes, seed=st.integers(0, 2**20), dtype=dtypes, opname=st.sampled_from(EWISE_OPS),
       pattern=st.booleans())
def test_matrix_ewise_of_one_structure(method, partner, n, seed, dtype, opname, pattern):
    """Operands that share their structure take the engine's values-only path (a pattern pair
    gives a pattern); the result is python-graphblas's."""
    A = gb.generators.erdos_renyi(n, 2 * n, seed=seed, symmetric=True,
                                  weights=None if pattern else "uniform", dtype="FP64")
    A = A.apply(gb.unary.identity).new(dtype)
    G_A = G.Matrix.from_coo(*A.to_coo(), dtype=dtype, nrows=n, ncols=n)
    rng = np.random.default_rng(seed)
    ld, rd = rand_scalar(rng, dtype), rand_scalar(rng, dtype)
    e = _ewise_expr(method, opname, ld, rd)
    ours, theirs = _one_structure_operands(gb, A, partner, dtype), \
        _one_structure_operands(G, G_A, partner, dtype)
    assume(g_accepts(lambda: e(G, *theirs).new()))
    assert ours[0].block.shares_structure(ours[1].block)
    assert_same_matrix(e(gb, *ours).new(), e(G, *theirs).new(),
                       what=f"ewise_{method} {opname} {dtype} with {partner}")


# ---------------------------------------------------------------------------------------------
# apply, select

UNARY = ["abs", "ainv", "identity", "one", "lnot"]
BOUND = ["plus", "minus", "times", "min", "max", "first", "second", "lt", "ge"]
VEC_INDEXUNARY = ["rowindex", "index"]
MAT_INDEXUNARY = ["rowindex", "colindex", "diagindex"]


def _apply_expr(kind_of_op, opname, bound, thunk):
    def expr(L, a):
        if kind_of_op == "unary":
            return a.apply(op(L, "unary", opname))
        if kind_of_op == "left":
            return a.apply(op(L, "binary", opname), left=bound)
        if kind_of_op == "right":
            return a.apply(op(L, "binary", opname), right=bound)
        return a.apply(op(L, "indexunary", opname), thunk)
    return expr


APPLY_KINDS = ["unary", "left", "right", "indexunary"]


def _draw_apply(data, kind_of_op, matrix):
    names = {"unary": UNARY, "left": BOUND, "right": BOUND,
             "indexunary": MAT_INDEXUNARY if matrix else VEC_INDEXUNARY}[kind_of_op]
    return data.draw(st.sampled_from(names))


@pytest.mark.parametrize("kind_of_op", APPLY_KINDS)
@examples(serial=30)
@given(sparse=st.booleans(),
       n=sizes, seed=seeds, dens=densities, dtype=dtypes, kind=mask_kinds, accum=accums,
       replace=st.booleans(), data=st.data())
def test_vector_apply(kind_of_op, n, seed, dens, dtype, kind, accum, replace, data, sparse):
    """apply with a unary op, a binary op bound left or right, an index-unary op."""
    piece_formats(sparse)
    opname = _draw_apply(data, kind_of_op, matrix=False)
    rng = np.random.default_rng(seed)
    a = rand_vec(rng, n, dtype, dens)
    mask = _rand_mask_vec(rng, n, kind)
    bound, thunk = rand_scalar(rng, dtype), int(rng.integers(-3, 4))
    e = _apply_expr(kind_of_op, opname, bound, thunk)
    assume(g_accepts(lambda: e(G, a.G)))
    out_dtype = e(G, a.G).dtype.name
    assert str(e(gb, a.gb).dtype) == out_dtype, "result type"
    acc_G = _accum(G, accum, out_dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[out_dtype]))
    w_idx, w_vals = rand_vec_coo(rng, n, out_dtype, 0.4)
    expected = _write(G, vec_pair(w_idx, w_vals, out_dtype, n), lambda L: e(L, a.G), mask, kind,
                      acc_G, replace)
    got = _write(gb, vec_pair(w_idx, w_vals, out_dtype, n), lambda L: e(L, a.gb), mask, kind,
                 _accum(gb, accum, out_dtype), replace)
    assert_same_vector(got, expected, what=f"apply {kind_of_op} {opname} {dtype} "
                       f"bound={bound} thunk={thunk} mask={kind} accum={accum}")


@pytest.mark.parametrize("kind_of_op", APPLY_KINDS)
@examples(serial=30)
@given(m=sizes, n=sizes, seed=seeds, dens=densities, dtype=dtypes, kind=mask_kinds,
       accum=accums, replace=st.booleans(), data=st.data())
def test_matrix_apply(kind_of_op, m, n, seed, dens, dtype, kind, accum, replace, data):
    """apply on a Matrix; index-unary ops see global (row, col)."""
    opname = _draw_apply(data, kind_of_op, matrix=True)
    rng = np.random.default_rng(seed)
    a = rand_mat(rng, m, n, dtype, dens)
    mask = _rand_mask_mat(rng, m, n, kind)
    bound, thunk = rand_scalar(rng, dtype), int(rng.integers(-3, 4))
    e = _apply_expr(kind_of_op, opname, bound, thunk)
    assume(g_accepts(lambda: e(G, a.G)))
    out_dtype = e(G, a.G).dtype.name
    assert str(e(gb, a.gb).dtype) == out_dtype, "result type"
    acc_G = _accum(G, accum, out_dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[out_dtype]))
    coo = rand_mat(rng, m, n, out_dtype, 0.3).G.to_coo()
    expected = _write(G, mat_pair(*coo, out_dtype, m, n), lambda L: e(L, a.G), mask, kind,
                      acc_G, replace)
    got = _write(gb, mat_pair(*coo, out_dtype, m, n), lambda L: e(L, a.gb), mask, kind,
                 _accum(gb, accum, out_dtype), replace)
    assert_same_matrix(got, expected, what=f"apply {kind_of_op} {opname} {dtype} "
                       f"bound={bound} thunk={thunk} mask={kind} accum={accum}")


def _thunk(L, thunk, dtype, name):
    """The thunk; python-graphblas gets a value thunk as a Scalar of the input's type, because
    it compares a UINT64 input with a python-int thunk wrongly (UINT64 [5, 3, 1] valuegt 3
    keeps nothing)."""
    if L is G and name.startswith("value"):
        return G.Scalar.from_value(thunk, dtype=dtype)
    return thunk


VEC_SELECT = ["valuegt", "valuele", "valueeq", "valuene", "valuelt", "valuege", "rowle",
              "rowgt", "indexle", "indexgt"]
MAT_SELECT = ["tril", "triu", "offdiag", "diag", "rowle", "rowgt", "colle", "colgt", "valuegt",
              "valueeq", "valuene"]


@pytest.mark.parametrize("density", [0.2, 0.9])
def test_index_selects_cut_at_every_position(density):
    """``indexle`` and ``indexgt`` keep a prefix or a suffix of the index space, cut on each
    rank at its own offset: every cut of a list and of a bitmap, as python-graphblas cuts."""
    rng = np.random.default_rng(5)
    a = rand_vec(rng, 23, "FP64", density)
    for name in ("indexle", "indexgt"):
        for thunk in range(-1, 25):
            assert_same_vector(a.gb.select(getattr(gb.select, name), thunk).new(),
                               a.G.select(getattr(G.select, name), thunk).new(),
                               what=f"{name} {thunk} density={density}")


@examples(serial=60)
@given(n=sizes, seed=seeds, dens=densities, dtype=dtypes, name=st.sampled_from(VEC_SELECT),
       kind=mask_kinds, accum=accums, replace=st.booleans())
def test_vector_select(n, seed, dens, dtype, name, kind, accum, replace):
    rng = np.random.default_rng(seed)
    a = rand_vec(rng, n, dtype, dens)
    mask = _rand_mask_vec(rng, n, kind)
    thunk = rand_scalar(rng, dtype) if name.startswith("value") else int(rng.integers(-2, n + 2))

    def e(L, v):
        return v.select(op(L, "select", name), _thunk(L, thunk, dtype, name))

    assume(g_accepts(lambda: e(G, a.G)))
    acc_G = _accum(G, accum, dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[dtype]))
    w_idx, w_vals = rand_vec_coo(rng, n, dtype, 0.4)
    expected = _write(G, vec_pair(w_idx, w_vals, dtype, n), lambda L: e(L, a.G), mask, kind,
                      acc_G, replace)
    got = _write(gb, vec_pair(w_idx, w_vals, dtype, n), lambda L: e(L, a.gb), mask, kind,
                 _accum(gb, accum, dtype), replace)
    assert_same_vector(got, expected, what=f"select {name} {dtype} thunk={thunk} mask={kind}")


@pytest.mark.parametrize("backend", BACKENDS)
@examples(serial=25)
@given(m=sizes, n=sizes, seed=seeds, dens=densities, dtype=dtypes,
       name=st.sampled_from(MAT_SELECT), kind=mask_kinds, accum=accums, replace=st.booleans())
def test_matrix_select(backend, m, n, seed, dens, dtype, name, kind, accum, replace):
    """Each local-kernel backend (SuiteSparse's selects by value and by position)."""
    rng = np.random.default_rng(seed)
    a = rand_mat(rng, m, n, dtype, dens)
    mask = _rand_mask_mat(rng, m, n, kind)
    thunk = rand_scalar(rng, dtype) if name.startswith("value") else int(rng.integers(-4, 5))

    def e(L, x):
        return x.select(op(L, "select", name), _thunk(L, thunk, dtype, name))

    assume(g_accepts(lambda: e(G, a.G)))
    acc_G = _accum(G, accum, dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[dtype]))
    coo = rand_mat(rng, m, n, dtype, 0.3).G.to_coo()
    expected = _write(G, mat_pair(*coo, dtype, m, n), lambda L: e(L, a.G), mask, kind, acc_G,
                      replace)
    with backend_in_use(backend):
        got = _write(gb, mat_pair(*coo, dtype, m, n), lambda L: e(L, a.gb), mask, kind,
                     _accum(gb, accum, dtype), replace)
    assert_same_matrix(got, expected, what=f"select {name} {dtype} thunk={thunk} mask={kind}")


# ---------------------------------------------------------------------------------------------
# reductions

VEC_MONOIDS = ["plus", "min", "max", "times", "any", "lor", "land", "bor"]


@examples(serial=60)
@given(n=sizes, seed=seeds, dens=densities, dtype=dtypes, name=st.sampled_from(VEC_MONOIDS))
def test_vector_reduce(n, seed, dens, dtype, name):
    rng = np.random.default_rng(seed)
    a = rand_vec(rng, n, dtype, dens)
    if name == "lor" or name == "land":
        dtype = "BOOL"
        a = rand_vec(rng, n, dtype, dens)
    assume(g_accepts(lambda: a.G.reduce(op(G, "monoid", name)).new()))
    expected = a.G.reduce(op(G, "monoid", name)).new()
    got = a.gb.reduce(op(gb, "monoid", name)).new()
    assert str(got.dtype) == expected.dtype.name, f"{got.dtype} != {expected.dtype}"
    if name == "any":
        # any one of the values
        if expected.value is None:
            assert got.value is None
        else:
            assert got.value in set(a.G.to_coo()[1].tolist())
    else:
        assert_same_scalar(got.value, expected.value, what=f"reduce {name} {dtype}")
    assert_same_scalar(a.gb.reduce(op(gb, "monoid", name)).value, got.value, what=".value")


MAT_MONOIDS = ["plus", "min", "max", "times", "lor", "bor"]


@pytest.mark.parametrize("backend", BACKENDS)
@examples(serial=30)
@given(m=sizes, n=sizes, seed=seeds, dens=densities, dtype=dtypes,
       name=st.sampled_from(MAT_MONOIDS), axis=st.sampled_from(["row", "col", "scalar", "Tcol"]),
       kind=mask_kinds, accum=accums, replace=st.booleans())
def test_matrix_reduce(backend, m, n, seed, dens, dtype, name, axis, kind, accum, replace):
    """Each local-kernel backend (SuiteSparse's reductions by rows and by columns)."""
    rng = np.random.default_rng(seed)
    a = rand_mat(rng, m, n, dtype, dens)
    mon = lambda L: op(L, "monoid", name)  # noqa: E731
    if axis == "scalar":
        assume(g_accepts(lambda: a.G.reduce_scalar(mon(G)).new()))
        expected = a.G.reduce_scalar(mon(G)).new()
        got = a.gb.reduce_scalar(mon(gb)).new()
        assert str(got.dtype) == expected.dtype.name
        assert_same_scalar(got.value, expected.value, what=f"reduce_scalar {name} {dtype}")
        return
    out_size = m if axis == "row" else n

    def e(L, x):
        if axis == "row":
            return x.reduce_rowwise(mon(L))
        if axis == "col":
            return x.reduce_columnwise(mon(L))
        return x.T.new().reduce_rowwise(mon(L))

    assume(g_accepts(lambda: e(G, a.G)))
    out_dtype = e(G, a.G).dtype.name
    assert str(e(gb, a.gb).dtype) == out_dtype, "result type"
    mask = _rand_mask_vec(rng, out_size, kind)
    acc_G = _accum(G, accum, out_dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[out_dtype]))
    w_idx, w_vals = rand_vec_coo(rng, out_size, out_dtype, 0.4)
    expected = _write(G, vec_pair(w_idx, w_vals, out_dtype, out_size), lambda L: e(L, a.G), mask,
                      kind, acc_G, replace)
    with backend_in_use(backend):
        got = _write(gb, vec_pair(w_idx, w_vals, out_dtype, out_size), lambda L: e(L, a.gb),
                     mask, kind, _accum(gb, accum, out_dtype), replace)
    assert_same_vector(got, expected, what=f"reduce {axis} {name} {dtype} mask={kind}")


# ---------------------------------------------------------------------------------------------
# assign, extract, transpose


@examples(serial=60)
@given(n=sizes, seed=seeds, dtype=dtypes, kind=mask_kinds, accum=accums, replace=st.booleans(),
       what=st.sampled_from(["scalar", "vector", "all"]), k=st.integers(0, 40))
def test_vector_assign(n, seed, dtype, kind, accum, replace, what, k):
    rng = np.random.default_rng(seed)
    w_idx, w_vals = rand_vec_coo(rng, n, dtype, 0.4)
    mask = _rand_mask_vec(rng, n, kind)
    idx = rng.permutation(n)[:min(k, n)].astype(np.int64)
    s = rand_scalar(rng, dtype)
    u_idx, u_vals = rand_vec_coo(rng, len(idx), dtype, 0.6)
    u = vec_pair(u_idx, u_vals, dtype, len(idx))
    acc_G = _accum(G, accum, dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[dtype]))

    def index(L):
        # python-graphblas rejects an empty list (it becomes a float array)
        return idx.tolist() if L is gb else idx

    def run(L, out):
        kw = {}
        if kind is not None:
            kw["mask"] = mask_of(mask.of(L), kind)
            kw["replace"] = replace
        if accum is not None:
            kw["accum"] = _accum(L, accum, dtype)
        target = out.of(L)
        if what == "scalar":
            target(**kw)[index(L)] << s
        elif what == "vector":
            target(**kw)[index(L)] << u.of(L)
        else:
            target(**kw) << s
        return target

    expected = run(G, vec_pair(w_idx, w_vals, dtype, n))
    got = run(gb, vec_pair(w_idx, w_vals, dtype, n))
    assert_same_vector(got, expected, what=f"assign {what} {dtype} mask={kind} accum={accum} "
                       f"replace={replace} s={s}")


@examples(serial=40)
@given(n=sizes, seed=seeds, dtype=dtypes, dens=st.sampled_from([0.3, 0.6, 0.9, 1.0]),
       own=st.booleans(), structure=st.booleans(), k=st.integers(0, 8), sparse=st.booleans())
def test_a_write_under_a_complemented_mask_into_a_dense_vector(n, seed, dtype, dens, own,
                                                                structure, k, sparse):
    """``w(~w.S) << t`` (fill the holes; ``own``) or ``w(~m.S) << t`` with ``w`` dense and
    ``t`` of a few entries: the engine patches ``w`` at t's positions and the allowed ones it
    holds instead of combining whole arrays."""
    piece_formats(sparse)
    rng = np.random.default_rng(seed)
    w = rand_vec(rng, n, dtype, dens)
    m = w if own else rand_vec(rng, n, dtype, float(rng.choice([0.0, 0.5, 0.9])))
    t = rand_vec(rng, n, dtype, min(1.0, k / n))

    def run(L):
        out = w.of(L).dup()
        on = out if own else m.of(L)
        out(~(on.S if structure else on.V)) << t.of(L)
        return out

    assert_same_vector(run(gb), run(G), what=f"own={own} structure={structure} {dtype}")


@examples(serial=60)
@given(n=sizes, seed=seeds, dtype=dtypes, k=st.integers(0, 30), kind=mask_kinds, accum=accums,
       replace=st.booleans())
def test_vector_extract(n, seed, dtype, k, kind, accum, replace):
    assume(n > 0 or k == 0)
    rng = np.random.default_rng(seed)
    v = rand_vec(rng, n, dtype, float(rng.choice([0.0, 0.3, 0.8])))
    idx = rng.integers(0, max(n, 1), k).astype(np.int64) if n else np.empty(0, np.int64)
    mask = _rand_mask_vec(rng, k, kind)
    acc_G = _accum(G, accum, dtype)
    if acc_G is not None:
        assume(g_accepts(lambda: acc_G[dtype]))
    w_idx, w_vals = rand_vec_coo(rng, k, dtype, 0.4)
    expected = _write(G, vec_pair(w_idx, w_vals, dtype, k), lambda L: v.G[idx], mask,
                      kind, acc_G, replace)
    got = _write(gb, vec_pair(w_idx, w_vals, dtype, k), lambda L: v.gb[idx.tolist()], mask, kind,
                 _accum(gb, accum, dtype), replace)
    assert_same_vector(got, expected, what=f"extract {dtype} {idx} mask={kind}")
    assert_same_vector(v.gb[idx].new(), v.G[idx].new(), what="extract new")
    for i in idx[:3].tolist():
        assert_same_scalar(v.gb[i].value, v.G[i].value, what=f"v[{i}]")


@examples(serial=40)
@given(m=st.integers(1, 40), n=st.integers(1, 40), seed=seeds, dens=densities, dtype=dtypes)
def test_matrix_extract_and_transpose(m, n, seed, dens, dtype):
    """A[i, :], A[:, j], A[i, j], A.T.new(), A.T.T and x.vxm(A.T)."""
    rng = np.random.default_rng(seed)
    a = rand_mat(rng, m, n, dtype, dens)
    for _ in range(2):
        i, j = int(rng.integers(0, m)), int(rng.integers(0, n))
        assert_same_vector(a.gb[i, :].new(), a.G[i, :].new(), what=f"A[{i}, :]")
        assert_same_vector(a.gb[:, j].new(), a.G[:, j].new(), what=f"A[:, {j}]")
        assert_same_scalar(a.gb[i, j].value, a.G[i, j].value, what=f"A[{i}, {j}]")
    at = a.gb.T.new()
    assert_same_matrix(at, a.G.T.new(), what="A.T.new()")
    assert_same_matrix(at.T.new(), a.G, what="A.T.T")
    if dtype != "BOOL":
        x = rand_vec(rng, n, dtype, 0.5)
        assert_same_vector(x.gb.vxm(a.gb.T, gb.semiring.min_plus).new(),
                           x.G.vxm(a.G.T, G.semiring.min_plus).new(), what="x.vxm(A.T)")
        assert_same_vector(a.gb.T.T.mxv(x.gb, gb.semiring.max_plus).new(),
                           a.G.mxv(x.G, G.semiring.max_plus).new(), what="A.T.T.mxv(x)")


@examples(serial=60)
@given(n=sizes, seed=seeds, dtype=dtypes, k=st.integers(0, 60),
       dup=st.sampled_from(["plus", "min", "max", "first", "second"]))
def test_from_coo_dup_op(n, seed, dtype, k, dup):
    """from_coo with duplicate coordinates combined by dup_op, then to_dense."""
    assume(n > 0 or k == 0)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, max(n, 1), k)
    rows, cols = rng.integers(0, max(n, 1), k), rng.integers(0, 3, k)
    vals = rand_values(rng, k, dtype)
    assume(g_accepts(lambda: op(G, "binary", dup)[dtype]))
    v = (gb.Vector.from_coo(idx, vals, dtype=dtype, size=n, dup_op=op(gb, "binary", dup)),
         G.Vector.from_coo(idx, vals, dtype=dtype, size=n, dup_op=op(G, "binary", dup)))
    assert_same_vector(*v, what=f"Vector dup_op={dup}")
    a = (gb.Matrix.from_coo(rows, cols, vals, dtype=dtype, nrows=n, ncols=3,
                            dup_op=op(gb, "binary", dup)),
         G.Matrix.from_coo(rows, cols, vals, dtype=dtype, nrows=n, ncols=3,
                           dup_op=op(G, "binary", dup)))
    assert_same_matrix(*a, what=f"Matrix dup_op={dup}")
    fill = rand_scalar(rng, dtype)
    np.testing.assert_array_equal(v[0].to_dense(fill), v[1].to_dense(fill))


@examples(serial=25)
@given(n=sizes, seed=seeds, dtype=st.sampled_from(["INT64", "FP64", "BOOL", "UINT8"]))
def test_io_roundtrip(n, seed, dtype):
    rng = np.random.default_rng(seed)
    a = rand_mat(rng, n, (n * 3) // 2, dtype, 0.3)
    v = rand_vec(rng, n, dtype, 0.5)
    assert_same_matrix(a.gb, gb.io.to_graphblas(a.gb), what="to_graphblas(A)")
    assert_same_vector(v.gb, gb.io.to_graphblas(v.gb), what="to_graphblas(v)")
    assert_same_matrix(gb.io.from_graphblas(a.G), a.G, what="from_graphblas(A)")
    assert_same_vector(gb.io.from_graphblas(v.G), v.G, what="from_graphblas(v)")
