"""A gzipped text file is read in parallel like a plain one (``graphio.my_text``): each of P
ranks gunzips the stream and keeps the whole lines that start in its 1/P of the text's bytes,
so rank r's share of ``f.gz`` is exactly its share of ``f``, and the shares in rank order are
the text. Checked for every rank of P = 1..7, with the gunzip read in blocks of a few bytes
so that lines and shares straddle them, on texts with long and empty lines, no final newline,
and a header skipped (``start``).

Local: each rank's share is computed here for a stand-in grid, so these run only in the
one-process session.
"""

import gzip
from types import SimpleNamespace

import pytest

from gblas2d.exceptions import InvalidValue
from gblas2d.io import graphio

pytestmark = pytest.mark.serial_only

TEXTS = {
    "lines": b"".join(b"%d %d\n" % (k, k * 7 % 13) for k in range(40)),
    "no final newline": b"1 2\n3 4\n5 6",
    "one long line": b"x" * 100 + b"\n",
    "empty lines": b"\n\n1 2\n\n\n3 4\n\n",
    "one line, no newline": b"1 2",
    "empty": b"",
}


@pytest.mark.parametrize("name", list(TEXTS))
@pytest.mark.parametrize("block", [1, 3, 64])
def test_each_rank_keeps_the_share_it_keeps_of_the_plain_file(tmp_path, monkeypatch, name,
                                                               block):
    text = TEXTS[name]
    plain, packed = tmp_path / "t.txt", tmp_path / "t.txt.gz"
    plain.write_bytes(text)
    packed.write_bytes(gzip.compress(text))
    monkeypatch.setattr(graphio, "_BLOCK", block)
    starts = [0] + ([text.index(b"\n") + 1] if b"\n" in text else [])
    for start in starts:
        for nprocs in range(1, 8):
            shares = []
            for rank in range(nprocs):
                grid = SimpleNamespace(rank=rank, nprocs=nprocs)
                share = graphio.my_text(packed, grid, start)
                assert share == graphio.my_text(plain, grid, start), (start, nprocs, rank)
                shares.append(share)
            assert b"".join(shares) == text[start:], (start, nprocs)


def test_a_corrupt_stream_names_the_file(tmp_path):
    path = tmp_path / "bad.txt.gz"
    path.write_bytes(gzip.compress(b"1 2\n" * 1000)[:-20])
    with pytest.raises(InvalidValue, match="bad.txt.gz: not a valid gzip file"):
        graphio.my_text(path, SimpleNamespace(rank=1, nprocs=2))
