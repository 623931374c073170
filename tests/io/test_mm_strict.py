"""Matrix Market values scipy's reader would take silently in the wrong way: a fraction or an
exponent in an 'integer' file (stored truncated) and a line with more or fewer values than
its format has (an extra column dropped). Each is refused with its line number, on every
rank."""

import pytest
from _io_helpers import assert_agreed, grid

from gblas2d.exceptions import InvalidValue
from gblas2d.io import mmread

HEADER = b"%%MatrixMarket matrix coordinate integer general\n% a comment\n3 3 3\n"


def write(shared_dir, name, data):
    path = shared_dir / name
    if grid().rank == 0:
        path.write_bytes(data)
    grid().comm.barrier()
    return path


@pytest.mark.parametrize("body,line,what", [
    (b"1 1 4\n2 2 2.5\n3 3 1\n", 5, "not an integer"),
    (b"1 1 4\n2 2 1e3\n3 3 1\n", 5, "not an integer"),
    (b"1 1 4\n2 2 7\n3 3 1 9\n", 6, "4 values where a coordinate integer entry has 3"),
    (b"1 1 4\n2 2\n3 3 1\n", 5, "2 values where a coordinate integer entry has 3"),
])
def test_malformed_values_are_refused_with_their_line(shared_dir, body, line, what):
    path = write(shared_dir, "bad.mtx", HEADER + body)
    with pytest.raises(InvalidValue, match=f"line {line}: .*{what}") as exc:
        mmread(path)
    assert_agreed(exc, InvalidValue)


def test_an_array_line_with_two_values_is_refused_in_plain_words(shared_dir):
    path = write(shared_dir, "bad.mtx", b"%%MatrixMarket matrix array real general\n2 2\n"
                                        b"1\n2 5\n3\n4\n")
    with pytest.raises(InvalidValue) as exc:
        mmread(path)
    assert_agreed(exc, InvalidValue)
    assert str(exc.value) == f"{path}: line 4: 2 values where an array real entry has 1"


def test_comments_blank_lines_and_other_formats_still_read(shared_dir):
    ok = HEADER + b"1 1 4\n\n% between entries\n2 2 7\n  3 3 1  \n"
    A = mmread(write(shared_dir, "ok.mtx", ok))
    assert A.nvals == 3 and A.to_coo()[2].tolist() == [4, 7, 1]
    pattern = b"%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n"
    assert mmread(write(shared_dir, "p.mtx", pattern)).nvals == 2
    dense = b"%%MatrixMarket matrix array real general\n2 2\n1.5\n-2e-3\n0\n4\n"
    # column-major in the file, row-major out; an array file keeps its zeros
    assert mmread(write(shared_dir, "a.mtx", dense)).to_coo()[2].tolist() == [1.5, 0.0, -0.002, 4.0]
    real = b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e3\n"
    assert mmread(write(shared_dir, "r.mtx", real)).to_coo()[2].tolist() == [1000.0]


@pytest.mark.parametrize("data,what", [
    (b"%%MatrixMarket matrix coordinate real general\n5 5 1000000000000\n1 1 1.0\n",
     "declares 1000000000000 entries, the file holds 1"),
    (b"%%MatrixMarket matrix array real general\n100000 100000\n1.0\n2.0\n",
     "declares 10000000000 entries, the file holds 2"),
    (b"%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n",
     "declares 6 entries, the file holds 5"),
    (b"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1.0\n2 2 2.0\n",
     "2 entries, more than the 1 the size line declares"),
])
def test_declared_sizes_are_checked_before_anything_is_allocated(shared_dir, data, what):
    """A size line claiming more entries than the file holds is refused before the reader
    allocates for it (it raised MemoryError on one rank before), and so is one claiming
    fewer."""
    with pytest.raises(InvalidValue, match=what) as exc:
        mmread(write(shared_dir, "sized.mtx", data))
    assert_agreed(exc, InvalidValue)


FILLER = b"% a comment line among the data\n" * 40


@pytest.mark.parametrize("body,line,what", [
    (b"1 1 4\n2 2 2.5\n3 3 1\n", 5, "not an integer"),
    (b"1 1 4\n2 2\n3 3 1\n", 5, "2 values where a coordinate integer entry has 3"),
    (b"1 1 4\n2 x 7\n3 3 1\n", 5, "Invalid integer value"),
    (b"1 1 4\n2 9 7\n3 3 1\n", 5, "Column index out of bounds"),
    (b"1 1 4\n2 2 7\n3 3 1\n3 2 1\n", None, "4 entries, more than the 3"),
    (b"1 1 4\n2 2 7\n", None, "Truncated file"),
])
def test_a_problem_after_other_ranks_lines_keeps_its_line(shared_dir, body, line, what):
    """Forty comment lines before the entries: the ranks split the data among them, and the
    line blamed is counted over the lines of the ranges before its own."""
    path = write(shared_dir, "late.mtx", HEADER + FILLER + body)
    expected = what if line is None else f"line {line + 40}: .*{what}"
    with pytest.raises(InvalidValue, match=expected) as exc:
        mmread(path)
    assert_agreed(exc, InvalidValue)


def test_a_large_file_read_in_parallel_matches_scipy(shared_dir):
    """Entries spread over every rank's range, a comment among them, a symmetric file mirrored
    by each rank, and a header longer than the first read of it: what scipy reads."""
    import numpy as np
    import scipy.io

    rng = np.random.default_rng(4)
    n = 300
    rows, cols = rng.integers(1, n + 1, 3000), rng.integers(1, n + 1, 3000)
    keys = np.unique(np.maximum(rows, cols) * (n + 1) + np.minimum(rows, cols))
    rows, cols = keys // (n + 1), keys % (n + 1)
    values = rng.integers(-50, 50, len(keys))
    lines = [b"%d %d %d" % e for e in zip(rows, cols, values, strict=True)]
    lines[1000:1000] = [b"% a comment among the data"]
    data = (b"%%MatrixMarket matrix coordinate integer symmetric\n" +
            b"% a long header\n" * 5000 + b"%d %d %d\n" % (n, n, len(keys)) +
            b"\n".join(lines) + b"\n")
    path = write(shared_dir, "large.mtx", data)
    A = mmread(path)
    # scipy reads the file without its comment line (it takes none among the data)
    clean = write(shared_dir, "clean.mtx", data.replace(b"% a comment among the data\n", b""))
    want = scipy.io.mmread(clean).tocoo()
    r, c, v = A.to_coo()
    order = np.lexsort((want.col, want.row))
    assert A.nvals == want.nnz > len(keys) and np.array_equal(r, want.row[order])
    assert np.array_equal(c, want.col[order]) and np.array_equal(v, want.data[order])
