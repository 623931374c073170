"""gblas2d's binary format (``save`` / ``load``): round trips for every dtype, the archive's
layout (numpy reads it), the compressed-archive fallback, and every failure raised alike on
every rank, including one that only the rank reading the damaged slice can see.
"""

import os

import numpy as np
import pytest
from _io_helpers import DTYPES, agreed, assert_agreed, grid, same_entries, sample_values

import gblas2d as gb
from gblas2d.exceptions import InvalidValue
from gblas2d.io import load, save


def random_coo(seed, nrows, ncols, dtype, density=0.2):
    rng = np.random.default_rng(seed)
    r, c = np.nonzero(rng.random((nrows, ncols)) < density)
    return r, c, sample_values(dtype, len(r), rng)


@pytest.mark.parametrize("dtype", DTYPES)
def test_roundtrip(shared_dir, dtype):
    r, c, v = random_coo(DTYPES.index(dtype), 23, 17, dtype)
    A = gb.Matrix.from_coo(r, c, v, dtype=dtype, nrows=23, ncols=17)
    save(shared_dir / "a.npz", A)
    assert agreed(same_entries(load(shared_dir / "a.npz"), r, c, v, dtype))


@pytest.mark.parametrize("shape", [(0, 0), (5, 0), (1, 300), (70_000, 3)])
def test_empty_wide_and_tall(shared_dir, shape):
    rows = np.arange(min(shape[0], 4) if shape[1] else 0)
    cols = rows % max(shape[1], 1)
    A = gb.Matrix.from_coo(rows, cols, 2.5, nrows=shape[0], ncols=shape[1])
    save(shared_dir / "e.npz", A)
    B = load(shared_dir / "e.npz")
    assert B.shape == shape
    assert agreed(same_entries(B, rows, cols, np.full(len(rows), 2.5), "FP64"))


def test_layout_is_sorted_compact_and_independent_of_the_rank_count(shared_dir):
    r, c, v = random_coo(3, 300, 200, "FP32")
    A = gb.Matrix.from_coo(r, c, v, nrows=300, ncols=200)
    save(shared_dir / "a.npz", A)
    order = np.lexsort((c, r))
    with np.load(shared_dir / "a.npz") as z:
        assert str(z["format"]) == "gblas2d.matrix" and int(z["version"]) == 1
        assert z["shape"].tolist() == [300, 200] and str(z["dtype"]) == "FP32"
        assert z["rows"].dtype == np.uint16 and not bool(z["iso"])
        assert np.array_equal(z["rows"], r[order]) and np.array_equal(z["cols"], c[order])
        assert np.array_equal(z["values"], v[order], equal_nan=True)


def test_iso_values_are_stored_once(shared_dir):
    r, c, _ = random_coo(4, 50, 50, "BOOL")
    A = gb.Matrix.from_coo(r, c, True, nrows=50, ncols=50)
    save(shared_dir / "iso.npz", A)
    with np.load(shared_dir / "iso.npz") as z:
        assert bool(z["iso"]) and z["values"].tolist() == [True]
    assert agreed(same_entries(load(shared_dir / "iso.npz"), r, c, np.ones(len(r), bool),
                               "BOOL"))


def test_signed_zeros_are_not_iso(shared_dir):
    A = gb.Matrix.from_coo([0, 1], [0, 1], [0.0, -0.0], nrows=2, ncols=2)
    save(shared_dir / "z.npz", A)
    assert agreed(same_entries(load(shared_dir / "z.npz"), [0, 1], [0, 1], [0.0, -0.0], "FP64"))


def test_a_compressed_archive_also_loads(shared_dir):
    """``np.savez_compressed`` of the same arrays: no seeking, every rank reads it whole."""
    r, c, v = random_coo(5, 40, 40, "INT16")
    order = np.lexsort((c, r))
    if grid().rank == 0:
        np.savez_compressed(shared_dir / "z.npz", format=np.array("gblas2d.matrix"),
                            version=np.array(1), shape=np.array([40, 40]),
                            dtype=np.array("INT16"), iso=np.array(False),
                            rows=r[order].astype(np.uint8), cols=c[order].astype(np.uint8),
                            values=v[order])
    grid().comm.barrier()
    assert agreed(same_entries(load(shared_dir / "z.npz"), r, c, v, "INT16"))


def test_an_unsorted_archive_still_loads(shared_dir):
    """Entries out of row order cost communication, never correctness: the grid rows' runs
    of the file still cover every entry once."""
    rng = np.random.default_rng(6)
    r, c, v = random_coo(6, 30, 20, "INT32")
    shuffle = rng.permutation(len(r))
    write_archive(shared_dir / "u.npz", shape=np.array([30, 20]), dtype=np.array("INT32"),
                  rows=r[shuffle].astype(np.uint8), cols=c[shuffle].astype(np.uint8),
                  values=v[shuffle])
    assert agreed(same_entries(load(shared_dir / "u.npz"), r, c, v, "INT32"))


def write_archive(path, **members):
    """Collective. Rank 0 writes a hand-made archive: a saved 4x4 Matrix, altered."""
    arrays = {"format": np.array("gblas2d.matrix"), "version": np.array(1),
              "shape": np.array([4, 4]), "dtype": np.array("FP64"), "iso": np.array(False),
              "rows": np.arange(4, dtype=np.uint8), "cols": np.arange(4, dtype=np.uint8),
              "values": np.arange(4.0)}
    arrays.update(members)
    if grid().rank == 0:
        np.savez(path, **{k: v for k, v in arrays.items() if v is not None})
    grid().comm.barrier()


DAMAGED = [
    ({"format": np.array("something.else")}, "format is 'something.else'"),
    ({"version": np.array(2)}, "format version 2 is newer"),
    ({"cols": None}, "no 'cols' array"),
    ({"values": np.arange(3.0)}, "differ in length"),
    ({"values": np.arange(4, dtype=np.int32)}, "values are int32, but the dtype is FP64"),
    ({"dtype": np.array("COMPLEX")}, "Unknown dtype"),
    # only the ranks of the last grid row see these two
    ({"cols": np.array([0, 1, 2, 9], dtype=np.uint8)}, "column index 9 out of range"),
    ({"rows": np.array([0, 1, 2, 9], dtype=np.uint8)}, "row index 9 out of range"),
    ({"rows": np.array([0, 0, 2, 3], dtype=np.uint8),
      "cols": np.array([1, 1, 2, 3], dtype=np.uint8)}, "duplicate entries"),
    ({"rows": np.arange(4, dtype=np.uint8).reshape(2, 2)}, "is not a 1-D array"),
]


@pytest.mark.parametrize("k", range(len(DAMAGED)))
def test_damaged_archive_fails_on_every_rank(shared_dir, k):
    members, problem = DAMAGED[k]
    path = shared_dir / "bad.npz"
    write_archive(path, **members)
    with pytest.raises(InvalidValue) as exc:
        load(path)
    assert_agreed(exc, InvalidValue)
    assert str(exc.value).startswith(f"{path}: ")
    assert problem in str(exc.value)


def test_not_an_archive_and_missing_file(shared_dir):
    if grid().rank == 0:
        (shared_dir / "text.npz").write_text("not a zip\n")
    grid().comm.barrier()
    with pytest.raises(InvalidValue, match="not an .npz archive") as exc:
        load(shared_dir / "text.npz")
    assert_agreed(exc, InvalidValue)
    with pytest.raises(FileNotFoundError) as exc:
        load(shared_dir / "none.npz")
    assert_agreed(exc, FileNotFoundError)
    assert str(exc.value) == f"{shared_dir / 'none.npz'}: No such file or directory"


def test_save_is_atomic_and_fails_on_every_rank(shared_dir):
    A = gb.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0], nrows=2, ncols=2)
    with pytest.raises(FileNotFoundError) as exc:
        save(shared_dir / "no-dir" / "a.npz", A)
    assert_agreed(exc, FileNotFoundError)
    save(shared_dir / "a.npz", A)
    save(shared_dir / "a.npz", A)  # replaces the file in one step
    assert sorted(os.listdir(shared_dir)) == ["a.npz"]
    with pytest.raises(TypeError, match="Expected a gblas2d Matrix"):
        save(shared_dir / "b.npz", np.eye(2))
