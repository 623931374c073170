"""What every text reader and writer shares: Matrix Market files (matrixmarket.py), edge lists
(edgelist.py) and LDBC Graphalytics ``.v``/``.e`` pairs (graphalytics.py) are read through it,
and they and the binary format (binformat.py) are written through it.

A rank reads its share of a file: the whole lines that start in its 1/P of the bytes
(``my_text``), so no rank holds the whole file; a gzipped file's ranks each gunzip the stream
and keep their share of its text. A writer gathers the entries to rank 0
(``gather_to_root``), which writes a temporary file beside the target and renames it into
place (``write_atomically``), so nobody sees half a file, after removing the temporaries that
killed processes left.

Failures are agreed before they are raised (``on_root``, ``opened``): a missing or unreadable
file raises the OSError subclass that ``open`` raised (FileNotFoundError, PermissionError,
...); a corrupt gzip stream raises InvalidValue. Every rank raises the same class with the
same message, and the message starts with the file's path.
"""

import contextlib
import gzip
import os
import socket
import uuid
import zlib

import numpy as np

from ..distributed import redistribute as redist
from ..distributed.failures import seen_per_rank
from ..exceptions import InvalidValue
from ..semirings import binary
from ..surface.expr import as_op
from ..surface.matrix import Matrix


def on_root(grid, work):
    """Collective. ``work()`` on rank 0 only: its result there (None elsewhere), or its
    exception raised on every rank with the same class and message."""
    result = None
    with grid.comm.agreed():
        if grid.rank == 0:
            result = work()
    return result


def os_error(path, exc):
    """The same OSError subclass, with a message that names the path and reads the same on
    every rank (no errno prefix, no repr of the path)."""
    return type(exc)(f"{path}: {exc.strerror or exc}")


def excerpt(line, width=60):
    """A line as it may appear in a message: at most ``width`` characters, and anything not
    printable ASCII (binary data) escaped."""
    short = line if len(line) <= width else line[:width - 3] + "..."
    return "".join(c if " " <= c <= "~" else f"\\x{ord(c):02x}" for c in short)


def gzipped(path):
    """Whether ``path`` names a gzipped file (its name ends in ``.gz``)."""
    return not hasattr(path, "read") and os.fspath(path).endswith(".gz")


@contextlib.contextmanager
def opened(path, *, each_rank=False):
    """The file for reading its (gunzipped) bytes; a corrupt gzip stream raises InvalidValue
    and an OSError names the path, wherever in the ``with`` block they happen. ``each_rank``:
    every rank opens it for itself, so that ranks that cannot are named (``seen_per_rank``)."""
    try:
        with (gzip.open if gzipped(path) else open)(path, "rb") as f:
            yield f
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise InvalidValue(f"{path}: not a valid gzip file ({exc})") from exc
    except OSError as exc:
        error = os_error(path, exc)
        raise (seen_per_rank(error) if each_rank else error) from exc


def read_bytes(path):
    """The file's bytes, gunzipped when the name ends in ``.gz``; or what a file object
    (opened by the caller) reads."""
    if hasattr(path, "read"):
        data = path.read()
        return data.encode() if isinstance(data, str) else data
    with opened(path) as f:
        return f.read()


def _line_start(f, pos):
    """The first line start at or after byte ``pos`` of the open file ``f``: ``pos`` itself
    when it is 0 or follows a newline; the file's size when no line starts there."""
    if pos == 0:
        return 0
    f.seek(pos - 1)
    at = pos - 1
    while block := f.read(1 << 16):
        k = block.find(b"\n")
        if k >= 0:
            return at + k + 1
        at += len(block)
    return at


def my_text(path, grid, start=0):
    """This rank's whole lines of the file from byte ``start`` (a line start) on: those that
    start in its 1/P of those bytes, in rank order, so the ranks' texts are the file's. A
    gzipped file's bytes are its gunzipped text (``_my_gzipped_text``)."""
    if gzipped(path):
        return _my_gzipped_text(path, grid, start)
    with opened(path, each_rank=True) as f:
        size = os.fstat(f.fileno()).st_size - start
        lo = _line_start(f, start + size * grid.rank // grid.nprocs)
        hi = _line_start(f, start + size * (grid.rank + 1) // grid.nprocs)
        f.seek(lo)
        return f.read(hi - lo)


def _my_gzipped_text(path, grid, start):
    """``my_text`` of a gzipped file. A gzip stream has no index and does not say its length,
    so every rank gunzips it once to measure it, then again up to the end of its share,
    keeping only that: two passes of gunzip (fast next to parsing) and no rank holding more
    than its share of the text."""
    with opened(path, each_rank=True) as f:
        if grid.nprocs == 1:
            f.seek(start)
            return f.read()
        size = 0
        while block := f.read(_BLOCK):
            size += len(block)
    size -= start
    lo_at = start + size * grid.rank // grid.nprocs
    hi_at = start + size * (grid.rank + 1) // grid.nprocs
    with opened(path, each_rank=True) as f:
        # lo: the first line start at or after lo_at, found after the byte before it (start
        # is one); the share ends at the first newline at or after hi_at - 1.
        f.seek(lo_at - 1 if lo_at > start else lo_at)
        at, lo, kept = f.tell(), lo_at if lo_at == start else None, []
        while block := f.read(_BLOCK):
            if lo is None:
                k = block.find(b"\n")
                if k < 0:
                    at += len(block)
                    continue
                lo = at = at + k + 1
                block = block[k + 1:]
            if lo >= hi_at:
                return b""  # no line starts in this rank's bytes
            k = block.find(b"\n", max(hi_at - 1 - at, 0)) if at + len(block) >= hi_at else -1
            if k >= 0:
                kept.append(block[:k + 1])
                break
            kept.append(block)
            at += len(block)
        return b"".join(kept)


_BLOCK = 1 << 22


def _temporary_name(path, pid):
    """``.NAME.gblas2d-HOST-PID-UUID.tmp`` beside ``path``: a later run on this host can tell
    whether the process that left it is still alive."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(folder, f".{name}.gblas2d-{socket.gethostname()}-{pid}-"
                                f"{uuid.uuid4().hex}.tmp")


def remove_stale_temporaries(path):
    """Remove the temporaries of ``path`` that a process of this host left when it was
    killed (kill -9, or a job's launcher ending a rank blocked in MPI, runs no cleanup):
    those whose process no longer exists. Returns their names and processes, [(name, pid)].
    Local."""
    folder, name = os.path.split(os.path.abspath(path))
    prefix = f".{name}.gblas2d-{socket.gethostname()}-"
    removed = []
    with contextlib.suppress(OSError):
        for entry in sorted(os.listdir(folder)):
            if not (entry.startswith(prefix) and entry.endswith(".tmp")):
                continue
            pid = entry[len(prefix):].split("-", 1)[0]
            if pid.isdigit() and not _alive(int(pid)):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(folder, entry))
                    removed.append((entry, int(pid)))
    return removed


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        pass
    return True


def write_atomically(path, write, *, compress):
    """``write(binary file)`` into a temporary file beside ``path``, then rename it onto
    ``path``; gzip-compressed when ``compress``. The temporary file goes on any failure,
    an exception or a SIGTERM/SIGINT turned into one (the command does), and temporaries
    of ``path`` left by killed processes go first."""
    path = os.fspath(path)
    remove_stale_temporaries(path)
    tmp = _temporary_name(path, os.getpid())
    try:
        with open(tmp, "xb") as f:
            if compress:
                with gzip.GzipFile(os.path.basename(path)[:-3], "wb", fileobj=f, mtime=0) as gz:
                    write(gz)
            else:
                write(f)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise os_error(path, exc) from exc
        raise


def gather_to_root(A):
    """Collective. Every entry of ``A`` as global (rows, cols, values) on rank 0; empty
    arrays elsewhere."""
    row_lo, col_lo, rows, cols, values = A.local_block()
    root = np.zeros(len(values), dtype=np.int64)
    return redist.to_owners(A.grid, root, rows + row_lo, cols + col_lo, values)


def row_major(rows, cols, ncols):
    """The order of entries by (row, col). The gathered entries are a few sorted runs (one per
    block), which a stable sort of one int64 key merges in near-linear time; lexsort would
    sort from scratch, ten times slower."""
    if len(rows) and int(rows.max()) * ncols + ncols > np.iinfo(np.int64).max:
        return np.lexsort((cols, rows))
    return np.argsort(rows * ncols + cols, kind="stable")


def check_matrix(A):
    if not isinstance(A, Matrix):
        raise TypeError(f"Expected a gblas2d Matrix, got {type(A).__name__}")


def mirrored_alike(symmetric, dup_op):
    """Whether a matrix built from entries and their mirror images equals its transpose: its
    repeats, if any, must combine to the same value in any order (not so a float sum)."""
    if not symmetric or dup_op is None:
        return bool(symmetric)
    op = as_op(dup_op, "binary")
    return op.name in ("min", "max", "lor", "land", "pair") and getattr(binary, op.name) is op
