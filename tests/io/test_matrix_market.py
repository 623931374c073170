"""Matrix Market: round trips for every dtype and symmetry, LAGraph's sample files read as
scipy reads them (and the ones scipy cannot read against known answers), every mangled file
rejected with its path and problem, and every failure raised alike on every rank.

Every rank makes the same calls; rank 0 reads and writes the files in a directory every rank
agrees on (the ``shared_dir`` fixture).
"""

import os

import numpy as np
import pytest
import scipy.io
from _io_helpers import DTYPES, LAGRAPH, agreed, assert_agreed, same_entries, sample_values

import gblas2d as gb
from gblas2d import binary
from gblas2d.exceptions import InvalidValue, NotImplementedException
from gblas2d.io import mmread, mmwrite

SIGNED = [t for t in DTYPES if t not in ("BOOL", "UINT8", "UINT16", "UINT32", "UINT64")]


def random_entries(dtype, symmetry, seed, n=11):
    """A seeded n x n COO with the given symmetry (same on every rank)."""
    rng = np.random.default_rng(seed)
    r, c = np.nonzero(rng.random((n, n)) < 0.3)
    if symmetry == "general":
        return r, c, sample_values(dtype, len(r), rng)
    lower = r > c if symmetry == "skew-symmetric" else r >= c
    r, c = r[lower], c[lower]
    v = sample_values(dtype, len(r), rng)
    off = r != c
    mirrored = -v[off] if symmetry == "skew-symmetric" else v[off]
    return (np.concatenate([r, c[off]]), np.concatenate([c, r[off]]),
            np.concatenate([v, mirrored]))


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("symmetry", ["general", "symmetric", "skew-symmetric"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_roundtrip(shared_dir, dtype, symmetry):
    if symmetry == "skew-symmetric" and dtype not in SIGNED:
        A = gb.Matrix(dtype, 4, 4)
        with pytest.raises(InvalidValue, match="skew-symmetric storage needs a signed type") \
                as exc:
            mmwrite(shared_dir / "a.mtx", A, symmetry=symmetry)
        assert_agreed(exc, InvalidValue)
        return
    r, c, v = random_entries(dtype, symmetry, seed=DTYPES.index(dtype))
    A = gb.Matrix.from_coo(r, c, v, dtype=dtype, nrows=11, ncols=11)
    # gzip every other case, so both paths see every dtype
    name = "a.mtx.gz" if (DTYPES.index(dtype) + len(symmetry)) % 2 else "a.mtx"
    mmwrite(shared_dir / name, A, symmetry=symmetry, comment="a test\nof two lines")
    B = mmread(shared_dir / name)
    assert agreed(same_entries(B, r, c, v, dtype))


@pytest.mark.parametrize("symmetry", ["general", "symmetric", "skew-symmetric"])
def test_transpose_of_what_we_read(shared_dir, symmetry):
    """A matrix read from symmetric storage is its own transpose, which then moves no entries;
    the other storages transpose by moving them."""
    r, c, v = random_entries("INT32", symmetry, seed=3)
    A = gb.Matrix.from_coo(r, c, v, dtype="INT32", nrows=11, ncols=11)
    mmwrite(shared_dir / "t.mtx", A, symmetry=symmetry)
    B = mmread(shared_dir / "t.mtx")
    with gb.recording() as rec:
        T = B.T.new()
    assert agreed(same_entries(T, c, r, v, "INT32"))
    moved = "alltoallv" in {op for op, _ in rec.totals}
    assert moved == (symmetry != "symmetric" and gb.default_grid().nprocs > 1)


def test_header_names_type_symmetry_and_comment(shared_dir):
    A = gb.Matrix.from_coo([1, 0, 2], [0, 1, 2], [5, 5, -7], dtype="INT16", nrows=3, ncols=3)
    mmwrite(shared_dir / "s.mtx", A, symmetry="symmetric", comment="first\nsecond")
    lines = (shared_dir / "s.mtx").read_text().splitlines()
    assert lines[:5] == ["%%MatrixMarket matrix coordinate integer symmetric",
                         "%%GraphBLAS type int16_t", "%first", "%second", "3 3 2"]
    # the lower triangle only, sorted by row
    assert lines[5:] == ["2 1 5", "3 3 -7"]


@pytest.mark.parametrize("symmetry", ["general", "symmetric", "skew-symmetric"])
def test_scipy_reads_what_we_write(shared_dir, symmetry):
    r, c, v = random_entries("FP64", symmetry, seed=7)
    mmwrite(shared_dir / "a.mtx", gb.Matrix.from_coo(r, c, v, nrows=11, ncols=11),
            symmetry=symmetry)
    m = scipy.io.mmread(shared_dir / "a.mtx", spmatrix=False)
    got = sorted(zip(m.coords[0].tolist(), m.coords[1].tolist(), m.data.tolist(), strict=True))
    want = sorted(zip(r.tolist(), c.tolist(), v.tolist(), strict=True))
    assert np.array_equal(np.array(got), np.array(want), equal_nan=True)


def test_uint64_beyond_int64_is_written_as_integer(shared_dir):
    big = np.array([2**64 - 1, 2**63, 7], dtype=np.uint64)
    A = gb.Matrix.from_coo([0, 1, 2], [0, 1, 2], big, nrows=3, ncols=3)
    mmwrite(shared_dir / "u.mtx", A)
    text = (shared_dir / "u.mtx").read_text()
    assert text.startswith("%%MatrixMarket matrix coordinate integer general\n")
    assert "18446744073709551615" in text
    assert agreed(same_entries(mmread(shared_dir / "u.mtx"), [0, 1, 2], [0, 1, 2], big,
                               "UINT64"))


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (4, 6)])
def test_empty_and_rectangular(shared_dir, shape):
    A = gb.Matrix("FP32", *shape)
    mmwrite(shared_dir / "e.mtx", A)
    B = mmread(shared_dir / "e.mtx")
    assert B.shape == shape and B.nvals == 0 and str(B.dtype) == "FP32"


def test_dtype_argument_casts(shared_dir):
    A = mmread(LAGRAPH / "karate.mtx", dtype="FP32")
    assert str(A.dtype) == "FP32" and A.nvals == 156
    assert agreed(np.all(A.to_coo()[2] == 1.0))


# ---------------------------------------------------------------- writing fails alike


def test_not_symmetric_is_rejected_and_leaves_the_old_file(shared_dir):
    target = shared_dir / "keep.mtx"
    mmwrite(target, gb.Matrix.from_coo([0], [0], [1.0], nrows=2, ncols=2))
    before = target.read_bytes()
    A = gb.Matrix.from_coo([1, 0], [0, 1], [2.0, 3.0], nrows=2, ncols=2)
    for symmetry in ("symmetric", "skew-symmetric"):
        with pytest.raises(InvalidValue, match=f"not {symmetry}: A\\[1, 0\\] and A\\[0, 1\\]") \
                as exc:
            mmwrite(target, A, symmetry=symmetry)
        assert_agreed(exc, InvalidValue)
        assert str(exc.value).startswith(str(target))
    one_sided = gb.Matrix.from_coo([1], [0], [2.0], nrows=2, ncols=2)
    with pytest.raises(InvalidValue, match="not symmetric") as exc:
        mmwrite(target, one_sided, symmetry="symmetric")
    assert_agreed(exc, InvalidValue)
    diagonal = gb.Matrix.from_coo([0], [0], [0.0], nrows=2, ncols=2)
    with pytest.raises(InvalidValue, match="no diagonal entries") as exc:
        mmwrite(target, diagonal, symmetry="skew-symmetric")
    assert_agreed(exc, InvalidValue)
    assert target.read_bytes() == before
    assert sorted(os.listdir(shared_dir)) == ["keep.mtx"]


def test_bad_write_options(shared_dir):
    A = gb.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3)
    with pytest.raises(ValueError, match="symmetry must be") as exc:
        mmwrite(shared_dir / "x.mtx", A, symmetry="lower")
    assert_agreed(exc, ValueError)
    with pytest.raises(InvalidValue, match="2x3 Matrix cannot be symmetric") as exc:
        mmwrite(shared_dir / "x.mtx", A, symmetry="symmetric")
    assert_agreed(exc, InvalidValue)
    with pytest.raises(NotImplementedException, match="hermitian") as exc:
        mmwrite(shared_dir / "x.mtx", A, symmetry="hermitian")
    assert_agreed(exc, NotImplementedException)
    with pytest.raises(TypeError, match="Expected a gblas2d Matrix"):
        mmwrite(shared_dir / "x.mtx", np.eye(2))


def test_unwritable_path_fails_on_every_rank(shared_dir):
    target = shared_dir / "missing-dir" / "a.mtx"
    A = gb.Matrix.from_coo([0], [0], [1.0], nrows=1, ncols=1)
    with pytest.raises(FileNotFoundError) as exc:
        mmwrite(target, A)
    assert_agreed(exc, FileNotFoundError)
    assert str(exc.value) == f"{target}: No such file or directory"


# ---------------------------------------------------------------- reading fails alike


def test_missing_file_fails_on_every_rank(shared_dir):
    for name in ("nothing.mtx", "nothing.mtx.gz"):
        with pytest.raises(FileNotFoundError) as exc:
            mmread(shared_dir / name)
        assert_agreed(exc, FileNotFoundError)
        assert str(exc.value) == f"{shared_dir / name}: No such file or directory"


def test_a_file_only_some_ranks_see_names_the_ranks_that_do_not(shared_dir, monkeypatch):
    """A relative path read from different working directories: only rank 0's holds the file.
    Every rank raises the same FileNotFoundError, which names the ranks that cannot open it;
    a file every rank lacks is named without ranks (above)."""
    g = gb.default_grid()
    here = shared_dir / f"rank{g.rank}"
    here.mkdir()
    if g.rank == 0:
        (here / "g.mtx").write_bytes((LAGRAPH / "karate.mtx").read_bytes())
    monkeypatch.chdir(here)
    if g.nprocs == 1:
        assert mmread("g.mtx").nvals == 156
        return
    with pytest.raises(FileNotFoundError) as exc:
        mmread("g.mtx")
    assert_agreed(exc, FileNotFoundError)
    lacking = list(range(1, g.nprocs))
    ranks = "rank 1" if len(lacking) == 1 else \
        f"ranks {', '.join(map(str, lacking[:-1]))} and {lacking[-1]}"
    assert str(exc.value) == f"g.mtx: No such file or directory (on {ranks} of {g.nprocs}; " \
        "the others had no such error)"


def test_bad_gzip_and_empty_files(shared_dir):
    if gb.default_grid().rank == 0:
        (shared_dir / "plain.mtx.gz").write_bytes(b"%%MatrixMarket matrix coordinate real")
        (shared_dir / "empty.mtx").write_bytes(b"")
        (shared_dir / "header-only.mtx").write_bytes(
            b"%%MatrixMarket matrix coordinate real general\n% nothing else\n")
    gb.default_grid().comm.barrier()
    for name, problem in (("plain.mtx.gz", "not a valid gzip file"),
                          ("empty.mtx", "no size line"), ("header-only.mtx", "no size line")):
        with pytest.raises(InvalidValue, match=problem) as exc:
            mmread(shared_dir / name)
        assert_agreed(exc, InvalidValue)
        assert str(exc.value).startswith(str(shared_dir / name))


# ---------------------------------------------------------------- LAGraph's files

# The entry type of each file: its %%GraphBLAS type line's, else its field's.
LAGRAPH_DTYPES = {
    "A.mtx": "BOOL", "A2.mtx": "BOOL", "LFAT5.mtx": "FP64", "LFAT5_hypersparse.mtx": "FP64",
    "bcsstk13.mtx.gz": "FP64", "comments_west0067.mtx": "FP64", "cryg2500.mtx.gz": "FP64",
    "empty.mtx": "INT32", "full.mtx": "FP64", "full_symmetric.mtx": "FP64",
    "jagmesh7.mtx": "BOOL", "karate.mtx": "BOOL", "ldbc-cdlp-directed-example.mtx": "BOOL",
    "ldbc-cdlp-undirected-example.mtx": "BOOL", "ldbc-directed-example-bool.mtx": "BOOL",
    "ldbc-directed-example-unweighted.mtx": "BOOL", "ldbc-directed-example.mtx": "FP64",
    "ldbc-undirected-example-bool.mtx": "BOOL",
    "ldbc-undirected-example-unweighted.mtx": "BOOL", "ldbc-undirected-example.mtx": "FP64",
    "ldbc-wcc-example.mtx": "INT64", "matrix_bool.mtx": "BOOL", "matrix_int16.mtx": "INT16",
    "matrix_int32.mtx": "INT32", "matrix_int64.mtx": "INT64", "matrix_int8.mtx": "INT8",
    "matrix_uint16.mtx": "UINT16", "matrix_uint32.mtx": "UINT32", "matrix_uint8.mtx": "UINT8",
    "msf1.mtx": "INT64", "msf2.mtx": "INT64", "msf3.mtx": "INT64", "olm1000.mtx": "FP64",
    "pushpull.mtx.gz": "BOOL", "sample.mtx": "BOOL", "sample2.mtx": "BOOL",
    "skew_fp64.mtx": "FP64", "skew_int32.mtx": "INT32", "structure.mtx": "INT32",
    "test_BF.mtx": "FP64", "tree-example.mtx": "INT64", "west0067.mtx": "FP64",
}
# Files scipy cannot read (a float or uint64 type under the "integer" field, comment lines
# among the data, no banner), with a file of the same entries.
SAME_AS = {"west0067_jumbled.mtx": "west0067.mtx", "west0067_noheader.mtx": "west0067.mtx",
           "full_noheader.mtx": "full.mtx"}
TYPED_INTEGERS = {"matrix_fp32.mtx": "FP32", "matrix_fp64.mtx": "FP64",
                  "matrix_uint64.mtx": "UINT64"}


def test_the_data_directory_is_complete():
    names = {p.name for p in LAGRAPH.glob("*.mtx*")}
    known = set(LAGRAPH_DTYPES) | set(SAME_AS) | set(TYPED_INTEGERS) | set(MANGLED) | \
        {"complex.mtx"}
    assert names == known
    assert (LAGRAPH / "LICENSE.LAGraph").exists()


def scipy_entries(path, dtype):
    """(rows, cols, values) as scipy reads the file, values cast to ``dtype``."""
    m = scipy.io.mmread(path, spmatrix=False)
    if isinstance(m, np.ndarray):
        r, c = np.divmod(np.arange(m.size), m.shape[1])
        v = m.reshape(-1)
    else:
        r, c, v = m.coords[0], m.coords[1], m.data
    with np.errstate(all="ignore"):
        return r, c, v.astype(np.dtype(dtype.lower().replace("fp", "float"))), m.shape


@pytest.mark.parametrize("name", sorted(LAGRAPH_DTYPES))
def test_lagraph_file_reads_as_scipy_reads_it(name):
    dtype = LAGRAPH_DTYPES[name]
    r, c, v, shape = scipy_entries(LAGRAPH / name, dtype)
    A = mmread(LAGRAPH / name)
    assert A.shape == shape
    assert agreed(same_entries(A, r, c, v, dtype))


@pytest.mark.parametrize("name", sorted(SAME_AS))
def test_lagraph_file_scipy_cannot_read(name):
    A = mmread(LAGRAPH / name)
    assert A.isequal(mmread(LAGRAPH / SAME_AS[name]), check_dtype=True)


@pytest.mark.parametrize("name", sorted(TYPED_INTEGERS))
def test_lagraph_typed_integer_field(name):
    """The %%GraphBLAS type decides how values parse: inf in a "float" file, 2**64 - 1 in a
    "uint64_t" one; the other entries are those of matrix_int64.mtx but for two."""
    dtype = TYPED_INTEGERS[name]
    r, c, v = (a[2:] for a in scipy_entries(LAGRAPH / "matrix_int64.mtx", "INT64")[:3])
    first = {"FP32": [-np.inf, np.inf], "FP64": [-np.inf, np.inf],
             "UINT64": [0, 2**64 - 1]}[dtype]
    t = np.dtype(dtype.lower().replace("fp", "float"))
    want = np.concatenate([np.array(first, dtype=t), v.astype(t)])
    A = mmread(LAGRAPH / name)
    assert agreed(same_entries(A, np.r_[3, 0, r], np.r_[0, 1, c], want, dtype))


def test_lagraph_complex_is_not_implemented():
    with pytest.raises(NotImplementedException, match="complex values are not supported") \
            as exc:
        mmread(LAGRAPH / "complex.mtx")
    assert_agreed(exc, NotImplementedException)
    assert str(exc.value).startswith(str(LAGRAPH / "complex.mtx"))


# Each mangled file and (a part of) the problem its error names.
MANGLED = {
    "mangled1.mtx": "line 1: unknown object 'mangled'",
    "mangled2.mtx": "line 1: unknown format 'mangled'",
    "mangled3.mtx": "line 1: unknown field 'mangled'",
    "mangled4.mtx": "line 1: unknown symmetry 'mangled'",
    "mangled5.mtx": "line 1: the 'pattern' field cannot be hermitian",
    "mangled6.mtx": "line 1: 'hermitian' symmetry needs the 'complex' field",
    "mangled7.mtx": "line 2: unknown GraphBLAS type 'gunk'",
    "mangled8.mtx": "line 4: the size line must be 'nrows ncols nvals'",
    "mangled9.mtx": "line 4: a 3x4 matrix cannot be symmetric",
    "mangled10.mtx": "Truncated file",
    "mangled11.mtx": "line 5: Invalid integer value",
    "mangled12.mtx": "line 5: 2 values where a coordinate real entry has 3",
    "mangled13.mtx": "line 7: Column index out of bounds",
    "mangled14.mtx": "duplicate entries",
    "mangled15.mtx": "line 2: GraphBLAS type 'float complex' does not fit the 'real' field",
    "mangled16.mtx": "line 2: GraphBLAS type 'double complex' does not fit the 'real' field",
    "mangled_bool.mtx": "entry (4, 3) = 2 is outside the range of BOOL",
    "mangled_format.mtx": "the 'pattern' field needs the 'coordinate' format",
    "mangled_int8.mtx": "entry (4, 1) = -129 is outside the range of INT8",
    "mangled_skew.mtx": "skew-symmetric storage needs a signed type, not UINT8",
    "mangled_uint8.mtx": "entry (1, 2) = 256 is outside the range of UINT8",
}


@pytest.mark.parametrize("name", sorted(MANGLED))
def test_mangled_file_is_rejected(name):
    with pytest.raises(InvalidValue) as exc:
        mmread(LAGRAPH / name)
    assert_agreed(exc, InvalidValue)
    assert str(exc.value).startswith(f"{LAGRAPH / name}: ")
    assert MANGLED[name] in str(exc.value)


def test_duplicates_combine_with_dup_op():
    A = mmread(LAGRAPH / "mangled14.mtx", dup_op=binary.plus)
    assert A.shape == (3, 4) and A.nvals == 2
    assert agreed(same_entries(A, [0, 1], [0, 1], [3.0, 3.4 + 7.1], "FP64"))
