"""Mutated input files never crash the reader (ISSUE: scipy's compiled Matrix Market parser
could end the process with SIGSEGV on a NUL byte or on a last line with an extra token and no
final newline).

Seeded mutations of the test data (byte flips, truncations, inserted tokens, NUL bytes, a
last line with an extra token and no newline) are written as ``.mtx``, ``.mtx.gz`` and edge
lists, then read one after the other in a subprocess, so a crash fails the test instead of
ending the run. Every read must give a gblas2d error or an OSError, or a matrix of the shape
its header declares.
"""

import gzip
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gblas2d as gb
from gblas2d.exceptions import InvalidValue

pytestmark = pytest.mark.serial_only

DATA = Path(__file__).resolve().parents[1] / "data" / "lagraph"
CASES = 300

READER = """
import json, sys
import gblas2d as gb
from gblas2d.exceptions import GraphblasException
for line in sys.stdin:
    kind, path = line.split()
    try:
        A = gb.io.mmread(path) if kind == "mm" else gb.io.read_edgelist(path)
        out = {"path": path, "shape": list(A.shape), "nvals": A.nvals}
    except (GraphblasException, OSError) as exc:
        out = {"path": path, "error": type(exc).__name__}
    except Exception as exc:
        out = {"path": path, "unexpected": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(out), flush=True)
print("DONE", flush=True)
"""


def mutate(data, kind, rng):
    data = bytearray(data)
    if kind == 0 and data:
        data[int(rng.integers(len(data)))] = int(rng.integers(256))
    elif kind == 1:
        data = data[:int(rng.integers(len(data) + 1))]
    elif kind == 2:
        at = int(rng.integers(len(data) + 1))
        data[at:at] = rng.choice([b" 7", b" x", b" 1e400", b"\n3 3 3", b" -1", b" nan"])
    elif kind == 3:
        at = int(rng.integers(len(data) + 1))
        data[at:at] = b"\x00"
    else:
        data = data.rstrip(b"\n") + rng.choice([b" 5", b" 5 5", b"\x00", b" 1.5"])
    return bytes(data)


def declared_shape(data):
    """(nrows, ncols) from a Matrix Market size line, or None."""
    for line in data.split(b"\n"):
        if line.startswith(b"%") or not line.strip():
            continue
        try:
            return tuple(int(t) for t in line.split()[:2])
        except ValueError:
            return None
    return None


def read_in_subprocess(cases):
    """Read each ``(kind, path)`` ("mm" or "el") in one child process; its results, in order.
    A crash of the child fails the calling test with the case it died on."""
    done = subprocess.run([sys.executable, "-c", READER], capture_output=True, text=True,
                          input="".join(f"{kind} {path}\n" for kind, path in cases),
                          timeout=600)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[-1:] == ["DONE"], \
        f"the reader died (exit {done.returncode}) after {lines[-1:]}:\n{done.stderr[-2000:]}"
    results = [json.loads(line) for line in lines[:-1]]
    assert len(results) == len(cases)
    return results


def test_mutated_files_give_a_clean_error_or_a_matrix(tmp_path):
    rng = np.random.default_rng(2024)
    sources = [p for p in sorted(DATA.glob("*.mtx")) if p.stat().st_size < 20_000]
    edges = b"".join(b"%d %d %.3f\n" % e for e in zip(
        rng.integers(0, 30, 60), rng.integers(0, 30, 60), rng.random(60), strict=True))
    cases, shapes = [], {}
    for k in range(CASES):
        kind = k % 5
        if k % 3 == 2:
            path = tmp_path / f"e{k}.txt"
            path.write_bytes(mutate(edges, kind, rng))
            cases.append(("el", path))
            continue
        data = mutate(sources[k % len(sources)].read_bytes(), kind, rng)
        path = tmp_path / (f"m{k}.mtx.gz" if k % 3 else f"m{k}.mtx")
        path.write_bytes(gzip.compress(data) if k % 3 else data)
        cases.append(("mm", path))
        shapes[str(path)] = declared_shape(data)
    results = read_in_subprocess(cases)
    assert [r for r in results if "unexpected" in r] == []
    for r in results:
        if "shape" in r and r["path"] in shapes and shapes[r["path"]] is not None:
            assert tuple(r["shape"]) == shapes[r["path"]], r
    errors = sum("error" in r for r in results)
    # The mutations are mostly fatal, but not all: both outcomes occur.
    assert 0 < errors < CASES


def test_the_two_crashes_seen_are_a_clean_error_and_a_matrix(tmp_path):
    """A NUL byte right after a value is refused (in-process, with its line number, once the
    child showed it does not crash); a last line with an extra token and no final newline
    no longer crashes."""
    nul, last = tmp_path / "nul.mtx", tmp_path / "last.mtx"
    nul.write_bytes(b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 0.5\x00\n"
                    b"2 2 1.5\n")
    last.write_bytes(b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 0.5\n"
                     b"2 3 1.5 7")
    plain = tmp_path / "plain.mtx"
    plain.write_bytes(b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 0.5\n"
                      b"2 3 1.5")
    got = read_in_subprocess([("mm", nul), ("mm", last), ("mm", plain)])
    assert got[0].get("error") == "InvalidValue"
    assert "unexpected" not in got[1]
    assert got[2].get("shape") == [3, 3] and got[2].get("nvals") == 2
    with pytest.raises(InvalidValue, match="line 3: a NUL byte"):
        gb.io.mmread(nul)
    assert gb.io.mmread(plain).to_coo()[2].tolist() == [0.5, 1.5]
