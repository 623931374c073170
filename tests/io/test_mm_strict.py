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
