"""Edge lists: 0- and 1-based ids, comments, weights, symmetric graphs and repeats, against
networkx's reader; every bad line rejected with its line number on every rank; the file
read in parallel, each rank its own lines, a piece at a time.

Rank 0 writes each file into a directory every rank agrees on; every rank then reads it.
"""

import gzip
import re

import networkx as nx
import numpy as np
import pytest
from _io_helpers import agreed, assert_agreed, grid, same_entries

import gblas2d as gb
from gblas2d import binary
from gblas2d.exceptions import IndexOutOfBound, InvalidValue
from gblas2d.io import edgelist, graphio, read_edgelist


def write(directory, name, text):
    """Collective. Rank 0 writes ``text`` (gzipped for a .gz name); every rank gets the path."""
    path = directory / name
    if grid().rank == 0:
        data = text.encode()
        path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    grid().comm.barrier()
    return path


SNAP = """# Directed graph (each unordered pair of nodes is saved once): example.txt
# FromNodeId\tToNodeId
0\t1
0\t2
% a comment of the other kind

2\t0   # a trailing comment
3\t3
"""


def test_snap_file_zero_based(shared_dir):
    A = read_edgelist(write(shared_dir, "snap.txt", SNAP))
    assert A.shape == (4, 4) and str(A.dtype) == "FP64"
    assert agreed(same_entries(A, [0, 0, 2, 3], [1, 2, 0, 3], np.ones(4), "FP64"))


def test_symmetric_keeps_one_self_loop(shared_dir):
    A = read_edgelist(write(shared_dir, "snap.txt", SNAP), symmetric=True, dtype="BOOL")
    # 0-2 is listed both ways: the repeat combines by min
    assert agreed(same_entries(A, [0, 0, 1, 2, 3], [1, 2, 0, 0, 3], np.ones(5, bool), "BOOL"))


@pytest.mark.parametrize("dup_op", [binary.min, binary.plus])
def test_symmetric_read_transposes_to_itself_when_repeats_combine_in_any_order(
        shared_dir, dup_op):
    # Repeats of 0-2 in both directions: min gives the same value either way round, a float
    # sum of three or more need not, so only min is taken as symmetric.
    text = "0 2 0.1\n2 0 0.2\n0 2 0.3\n1 3 1.5\n"
    A = read_edgelist(write(shared_dir, "w.txt", text), symmetric=True, dup_op=dup_op)
    with gb.recording() as rec:
        T = A.T.new()
    r, c, v = A.to_coo()
    assert agreed(same_entries(T, c, r, v, "FP64"))
    moved = "alltoallv" in {op for op, _ in rec.totals}
    assert moved == (dup_op is binary.plus and grid().nprocs > 1)


def test_one_based_weighted_matches_networkx(shared_dir):
    rng = np.random.default_rng(5)
    src, dst = rng.integers(1, 40, 200), rng.integers(1, 40, 200)
    keys = np.unique(src * 100 + dst)
    src, dst = keys // 100, keys % 100
    w = np.round(rng.random(len(src)) * 10, 3)
    text = "".join(f"{a} {b} {x}\n" for a, b, x in zip(src, dst, w, strict=True))
    path = write(shared_dir, "weighted.txt.gz", text)
    A = read_edgelist(path, base=1)
    G = nx.read_edgelist(path, nodetype=int, data=(("weight", float),),
                         create_using=nx.DiGraph)
    r, c, v = zip(*((a - 1, b - 1, d["weight"]) for a, b, d in G.edges(data=True)),
                  strict=True)
    assert A.shape == (int(max(src.max(), dst.max())),) * 2
    assert agreed(same_entries(A, r, c, np.array(v), "FP64"))


def test_base_auto_weighted_false_and_nrows(shared_dir):
    path = write(shared_dir, "auto.txt", "1 2 0.5\n2 3 1.5\n3 1 2\n")
    A = read_edgelist(path, base="auto", weighted=False, nrows=5, dtype="INT32")
    assert A.shape == (5, 5)
    assert agreed(same_entries(A, [0, 1, 2], [1, 2, 0], np.ones(3, np.int32), "INT32"))
    B = read_edgelist(path, base="auto", dtype="FP32")
    assert agreed(same_entries(B, [0, 1, 2], [1, 2, 0], np.float32([0.5, 1.5, 2]), "FP32"))
    zero = write(shared_dir, "zero.txt", "0 1\n")
    assert read_edgelist(zero, base="auto").shape == (2, 2)


def test_repeats_combine_or_fail(shared_dir):
    path = write(shared_dir, "repeats.txt", "0 1 5\n0 1 2\n1 0 7\n")
    A = read_edgelist(path)
    assert agreed(same_entries(A, [0, 1], [1, 0], [2.0, 7.0], "FP64"))
    with pytest.raises(InvalidValue, match="repeated edges") as exc:
        read_edgelist(path, dup_op=None)
    assert_agreed(exc, InvalidValue)
    assert str(exc.value).startswith(str(path))


def test_empty_file_is_an_empty_graph(shared_dir):
    A = read_edgelist(write(shared_dir, "empty.txt", "# nothing\n\n"))
    assert A.shape == (0, 0) and A.nvals == 0
    B = read_edgelist(write(shared_dir, "empty2.txt", ""), nrows=3)
    assert B.shape == (3, 3) and B.nvals == 0


# Each bad file, the reading options, and the error its line gets.
BAD = [
    ("0 1\n1 2 3\n", {}, InvalidValue, "line 2: 3 columns where the first edge line has 2"),
    ("0 1 1.0\n# c\n1 2\n", {}, InvalidValue, "line 3: 2 columns where the first edge line"),
    ("0 1\n1 x\n", {}, InvalidValue, "line 2: vertex id 'x' is not an integer"),
    ("0 1\n1.5 2\n", {}, InvalidValue, "line 2: vertex id '1.5' is not an integer"),
    ("0 1 2\n1 2 abc\n", {}, InvalidValue, "line 2: column 3 'abc' is not a number"),
    ("0 1\n\n-2 3\n", {}, InvalidValue, "line 3: negative vertex id -2"),
    ("1 2\n0 2\n", {"base": 1}, InvalidValue, "line 2: vertex id 0 with base=1"),
    ("1 2\n2 5\n", {"nrows": 4}, IndexOutOfBound, "line 2: vertex id 5 is out of range"),
    ("1 2\n2 4\n", {"base": 1, "nrows": 3}, IndexOutOfBound, "line 2: vertex id 4 is out of"),
    ("# one id\n5\n", {}, InvalidValue, "line 2: an edge needs two vertex ids"),
    ("0 1\n", {"weighted": True}, InvalidValue, "line 1: weighted=True needs a third column"),
    ("0 99999999999999999999\n", {}, InvalidValue, "does not fit in int64"),
]


@pytest.mark.parametrize("k", range(len(BAD)))
def test_bad_line_is_rejected_on_every_rank(shared_dir, k):
    text, options, cls, problem = BAD[k]
    path = write(shared_dir, f"bad{k}.txt", text)
    with pytest.raises(cls) as exc:
        read_edgelist(path, **options)
    assert_agreed(exc, cls)
    assert str(exc.value).startswith(f"{path}: ")
    assert problem in str(exc.value)


def test_missing_file_and_bad_options(shared_dir):
    with pytest.raises(FileNotFoundError) as exc:
        read_edgelist(shared_dir / "none.txt")
    assert_agreed(exc, FileNotFoundError)
    assert str(exc.value) == f"{shared_dir / 'none.txt'}: No such file or directory"
    path = write(shared_dir, "ok.txt", "0 1\n")
    for options, cls in (({"base": 2}, ValueError), ({"base": True}, ValueError),
                         ({"weighted": "yes"}, ValueError), ({"nrows": -1}, ValueError),
                         ({"comments": None}, TypeError), ({"dtype": "complex"}, ValueError)):
        with pytest.raises(cls) as exc:
            read_edgelist(path, **options)
        assert_agreed(exc, cls)


def test_auto_base_blames_the_line_with_the_negative_id(shared_dir):
    # The 0 on line 1 is fine under base 0; the -3 on line 3 is the problem under any base.
    path = write(shared_dir, "neg.txt", "0 1\n1 2\n2 -3\n")
    with pytest.raises(InvalidValue, match="line 3: negative vertex id -3") as exc:
        read_edgelist(path, base="auto")
    assert_agreed(exc, InvalidValue)


def test_binary_data_is_escaped_and_cut_short_in_messages(shared_dir):
    line = "0 \x01\x02\x7f" + "z" * 200
    path = write(shared_dir, "bin.txt", "0 1\n" + line + "\n")
    with pytest.raises(InvalidValue) as exc:
        read_edgelist(path)
    assert_agreed(exc, InvalidValue)
    message = str(exc.value)
    assert "\\x01\\x02\\x7f" in message and "\x01" not in message
    assert "z" * 70 not in message and "..." in message


HUGE = 2**32 + 1  # an id beyond 32 bits: a vertex count this large would not fit in memory


def test_relabel_numbers_the_ids_and_keeps_them(shared_dir):
    """Ids are labels (issue 28): the distinct ids become 0..n-1 in ascending order, the
    edges follow them, and ``ids`` maps each vertex back to its id in the file."""
    edges = [(7, HUGE), (HUGE, 3), (3, 7), (2**62, 7)]
    path = write(shared_dir, "labels.txt", "".join(f"{a} {b}\n" for a, b in edges))
    A, ids = read_edgelist(path, relabel=True)
    labels = sorted({v for e in edges for v in e})
    position = {v: k for k, v in enumerate(labels)}
    assert A.shape == (4, 4) and ids.size == 4 and ids.nvals == 4
    assert ids.to_coo()[1].tolist() == labels
    rows, cols, _ = A.to_coo()
    assert sorted(zip(rows.tolist(), cols.tolist(), strict=True)) == \
        sorted((position[a], position[b]) for a, b in edges)
    # "auto" relabels these (2**62 + 1 is far more than 4 times 4 ids) ...
    B, auto_ids = read_edgelist(path, relabel="auto")
    assert B.isequal(A) and auto_ids.isequal(ids)
    # ... and keeps ids that are nearly 0..n-1, which read as without relabel
    dense = write(shared_dir, "dense.txt", "0 1\n1 2\n2 4\n")
    C, none = read_edgelist(dense, relabel="auto")
    assert none is None and C.isequal(read_edgelist(dense)) and C.nrows == 5


def test_relabel_options_are_checked(shared_dir):
    path = write(shared_dir, "small.txt", "0 1\n")
    with pytest.raises(ValueError, match="relabel must be"):
        read_edgelist(path, relabel="yes")
    with pytest.raises(ValueError, match="nrows cannot be given"):
        read_edgelist(path, relabel=True, nrows=5)
    with pytest.raises(InvalidValue, match="negative vertex id") as exc:
        read_edgelist(write(shared_dir, "neg.txt", "0 -4\n"), relabel=True)
    assert_agreed(exc, InvalidValue)


def test_each_rank_reads_only_its_own_lines(shared_dir):
    """The ranks' texts are whole lines, in rank order, and together the file once: no rank
    holds the whole file, and each holds about its 1/P of it."""
    text = "".join(f"{k} {k * 7 % 1000}\n" for k in range(300)) + "299 0"  # no last newline
    path = write(shared_dir, "ranges.txt", text)
    mine = graphio.my_text(path, grid())
    texts = grid().comm.allgather_object(mine)
    assert b"".join(texts) == text.encode()
    assert all(t == b"" or t.endswith(b"\n") for t in texts[:-1])
    longest = max(len(line) + 1 for line in text.split("\n"))
    assert len(mine) <= len(text) // grid().nprocs + longest


def test_small_pieces_read_the_same_graph(shared_dir, monkeypatch):
    """Pieces of a few lines, comments among them, a line longer than a piece: the same
    entries as one piece per rank, and a bad line deep in the file is blamed by its number."""
    rng = np.random.default_rng(11)
    src, dst = rng.integers(0, 60, 500), rng.integers(0, 60, 500)
    w = rng.integers(1, 100, 500)
    lines = [f"{a} {b} {x}" for a, b, x in zip(src, dst, w, strict=True)]
    lines[100] += " " * 200  # longer than a piece
    lines[200:200] = ["# a comment line", ""]
    text = "\n".join(lines) + "\n"
    path = write(shared_dir, "pieces.txt", text)
    whole = read_edgelist(path, dup_op=binary.plus, symmetric=True)
    monkeypatch.setattr(edgelist, "PIECE", 64)
    pieces = read_edgelist(path, dup_op=binary.plus, symmetric=True)
    assert pieces.isequal(whole) and pieces.nvals > 0
    lines[400] = "4 x 1"
    with pytest.raises(InvalidValue, match=r"line 401: vertex id 'x' is not an integer") as exc:
        read_edgelist(write(shared_dir, "bad_piece.txt", "\n".join(lines) + "\n"))
    assert_agreed(exc, InvalidValue)


FILLER = "# a comment line before the data\n" * 40


@pytest.mark.parametrize("k", range(len(BAD)))
def test_bad_line_after_other_ranks_lines_keeps_its_number(shared_dir, monkeypatch, k):
    """Forty comment lines first: the data starts in a later rank's range or piece, and every
    line number counts the lines of the ranges before it."""
    text, options, cls, problem = BAD[k]
    monkeypatch.setattr(edgelist, "PIECE", 48)
    path = write(shared_dir, f"late{k}.txt", FILLER + text)
    with pytest.raises(cls) as exc:
        read_edgelist(path, **options)
    assert_agreed(exc, cls)
    shifted = re.sub(r"line (\d+)", lambda m: f"line {int(m.group(1)) + 40}", problem)
    assert shifted in str(exc.value)


def test_unweighted_repeats_combine_by_dup_op(shared_dir):
    path = write(shared_dir, "plain_repeats.txt", "0 1\n0 1\n1 0\n0 1\n")
    A = read_edgelist(path, dup_op=binary.plus, dtype="INT32")
    assert agreed(same_entries(A, [0, 1], [1, 0], np.int32([3, 1]), "INT32"))
