"""What ``gblas2d run`` writes, all of it by rank 0: the result (``--output``) in the format its
extension names, the summary (``--json``), and the report lines.

A path is written through a temporary file beside it, renamed over it when complete; ``-`` is
standard output. A reader of a standard stream that leaves early (``| head``) is no error:
the stream is pointed at ``os.devnull``, the run goes on to its end in step with the other
ranks, and the command exits with 141, as a tool that SIGPIPE ended does in a shell.
"""

import json
import os
from pathlib import Path

import numpy as np

from .. import Matrix, io
from ..exceptions import InvalidValue
from ..io.graphio import on_root, remove_stale_temporaries, write_atomically

# 128 + SIGPIPE
CLOSED_PIPE_EXIT = 141

# how many values go through json.dumps at a time: a whole result as Python objects would take
# ten times the memory of its arrays
JSON_CHUNK = 1 << 16


class Stream:
    """A standard stream (``sys.stdout``, ``sys.stderr``) that rank 0 writes to; ``closed`` once
    its reader has left."""

    def __init__(self, file):
        self.file, self.closed = file, False

    def write(self, write):
        """``write(file)`` then a flush, unless the reader has left. Side effect: on a broken
        pipe, the stream's descriptor is pointed at ``os.devnull``, so that what is still
        buffered (or written later, by anyone) goes nowhere instead of raising again at exit."""
        if self.closed:
            return
        try:
            write(self.file)
            self.file.flush()
        except BrokenPipeError:
            self.closed = True
            point_at_devnull(self.file)

    def line(self, text):
        self.write(lambda f: print(text, file=f))


def point_at_devnull(file):
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, file.fileno())
    os.close(devnull)


def check_output(path, grid, option):
    """Collective. Before any work: the directory of the path given to ``option`` exists and
    can be written on rank 0, which writes it, and the path is not a directory. ``-`` is
    standard output. Rank 0 removes the temporary files that runs killed while writing the
    path left beside it, and returns them, [(name, pid)] (None on the other ranks)."""
    if path == "-":
        return None

    def work():
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise IsADirectoryError(f"{option}: cannot write {path}: it is a directory")
        if not os.path.isdir(folder):
            raise FileNotFoundError(f"{option}: cannot write {path}: no directory {folder}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(f"{option}: cannot write {path}: {folder} is not writable")
        return remove_stale_temporaries(path)

    return on_root(grid, work)


def check_paths(output, summary):
    """``--output`` and ``--json`` cannot share standard output or a file."""
    if output is None or summary is None:
        return
    if output == summary == "-":
        raise InvalidValue("--output - and --json - cannot both write to standard output")
    if output != "-" and os.path.abspath(output) == os.path.abspath(summary):
        raise InvalidValue(f"--output and --json name the same file, {output}")


def result_format(path):
    """The format ``--output`` writes to ``path``: csv, json, mtx, npz, or lines."""
    suffix = Path(path).suffix.lower()
    return suffix[1:] if path != "-" and suffix in (".csv", ".json", ".mtx", ".npz") else "lines"


def _lines(f, idx, vals, separator, header=""):
    # a record per line keeps each column's type: a float64 column of ids would round those
    # above 2**53
    value = "%.17g" if vals.dtype.kind == "f" else "%d"
    np.savetxt(f, np.rec.fromarrays([idx, vals]), fmt=f"%d{separator}{value}", header=header,
               comments="")


def _json_array(f, values):
    f.write(b"[")
    for start in range(0, len(values), JSON_CHUNK):
        part = json.dumps(values[start:start + JSON_CHUNK].tolist())[1:-1]
        f.write((", " if start else "").encode() + part.encode())
    f.write(b"]")


def _json(f, idx, vals, column):
    # the CSV's columns as arrays: pandas.read_json and json.load both take it
    f.write(b'{"vertex": ')
    _json_array(f, idx)
    f.write(f', "{column}": '.encode())
    _json_array(f, vals)
    f.write(b"}\n")


def _matrix_market(f, idx, vals, column, n):
    from scipy.io import mmwrite
    from scipy.sparse import coo_array

    # an n x 1 sparse column: row v holds vertex v's value
    column_matrix = coo_array((vals, (idx, np.zeros_like(idx))), shape=(n, 1))
    mmwrite(f, column_matrix, comment=f" gblas2d: {column} of each vertex, one per row")


def write_result(path, result, column, grid, stdout, ids=None):
    """Collective. Rank 0 writes the entries of Vector ``result`` to ``path`` in the format its
    extension names (``result_format``), or as lines to ``stdout`` for ``-``. With ``ids``,
    vertex i is written as ``ids[i]``; ``column`` names the values (the CSV header). A Matrix
    (what user code may return) goes to ``write_matrix``."""
    if isinstance(result, Matrix):
        write_matrix(path, result, ids)
        return
    idx, vals = result.to_coo()
    if ids is not None:
        # ids is full, so on result's pattern it holds one id per entry, in the same order
        idx = ids.dup(mask=result.S).to_coo()[1]
    kind = result_format(path)

    def write(f):
        if kind == "npz":
            np.savez(f, indices=idx, values=vals)
        elif kind == "csv":
            _lines(f, idx, vals, ",", header=f"vertex,{column}")
        elif kind == "json":
            _json(f, idx, vals, column)
        elif kind == "mtx":
            _matrix_market(f, idx, vals, column, result.size)
        else:
            _lines(f, idx, vals, "\t")

    def work():
        if path == "-":
            stdout.write(lambda f: write(f.buffer))
            return
        try:
            write_atomically(path, write, compress=False)
        except OSError as exc:
            raise type(exc)(f"cannot write {exc}") from exc

    on_root(grid, work)


def write_matrix(path, matrix, ids=None):
    """Collective. ``matrix`` to a Matrix Market (.mtx) or gblas2d binary (.npz) file, by
    ``gblas2d.io``'s writers: the formats ``--graph`` reads back. Rows and columns are vertex
    indices, so a graph with ``ids`` (vertex i is ``ids[i]``) refuses it."""
    kind = result_format(path)
    if kind not in ("mtx", "npz"):
        raise InvalidValue(f"--output {path}: a Matrix is written to a .mtx (Matrix Market) or "
                           ".npz (gblas2d's binary format) file")
    if ids is not None:
        raise InvalidValue(f"--output {path}: a Matrix is written by vertex index, 0 to n-1, "
                           "not by the ids of the graph's vertices")
    try:
        (io.mmwrite if kind == "mtx" else io.save)(path, matrix)
    except OSError as exc:
        raise type(exc)(f"cannot write {exc}") from exc


def _json_value(value):
    # numpy scalars and arrays as JSON numbers and lists
    if isinstance(value, np.generic | np.ndarray):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def write_summary(path, summary, grid, stdout):
    """Collective. Rank 0 writes the dict ``summary`` as JSON to ``path``, or to ``stdout`` for
    ``-``."""
    text = json.dumps(summary, indent=1, default=_json_value) + "\n"

    def work():
        if path == "-":
            stdout.write(lambda f: f.write(text))
            return
        try:
            write_atomically(path, lambda f: f.write(text.encode()), compress=False)
        except OSError as exc:
            raise type(exc)(f"cannot write {exc}") from exc

    on_root(grid, work)
