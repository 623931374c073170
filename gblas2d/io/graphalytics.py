"""LDBC Graphalytics graphs: a vertex file ``NAME.v``, an edge file ``NAME.e`` and, often,
``NAME.properties``.

The vertex file lists one id per line: any non-negative 64-bit integers, not necessarily
contiguous. The edge file lists ``src dst`` or ``src dst weight`` per line; an undirected graph
lists each edge once. The properties file (Java properties) says whether the graph is directed
(``graph.NAME.directed = true``). Vertex i of the Matrix is the i-th id in ascending order.

As Matrix Market files (graphio.py), rank 0 reads and checks the files and sends every rank
its entries; failures are raised on every rank with the same class and message.
"""

import io
import os
import re
import warnings

import numpy as np

from ..distributed.grid import collective, default_grid
from ..exceptions import InvalidValue
from ..semirings.dtypes import lookup_dtype
from ..surface.matrix import Matrix
from ..surface.vector import Vector
from .edgelist import both_ways, data_lines, edge_table, line_of
from .graphio import excerpt, on_root, read_bytes

__all__ = ["graphalytics_files", "read_graphalytics"]

# the names of a graph's files: NAME + each
SUFFIXES = (".v", ".e", ".properties")


def graphalytics_files(path):
    """(vertex file, edge file, properties file) of the graph named by one of its files or by
    their common prefix (``dir/NAME``). Names only: nothing is read, nothing communicated."""
    prefix = os.fspath(path)
    for suffix in SUFFIXES:
        if prefix.endswith(suffix):
            prefix = prefix[:-len(suffix)]
            break
    return tuple(prefix + suffix for suffix in SUFFIXES)


# One entry of a Java properties file: the key ends at the first unescaped '=', ':' or blank.
_PROPERTY = re.compile(r"((?:\\.|[^\s=:\\])+)\s*[=:]?\s*(.*)")


def _properties(text):
    """(line number, key, value) of each entry of Java properties text; a line that ends in
    an odd number of backslashes continues on the next one."""
    entry, start = "", 0
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r").lstrip()
        if not entry and (not line or line[0] in "#!"):
            continue
        start = start or number
        if (len(line) - len(line.rstrip("\\"))) % 2:
            entry += line[:-1]
            continue
        match = _PROPERTY.fullmatch(entry + line)
        if match:
            yield start, match[1], match[2].strip()
        entry, start = "", 0


def _direction(path, name, directed):
    """Whether the graph is directed: as the properties file says (then ``directed``, if
    given, must agree), else as ``directed`` says."""
    key = f"graph.{name}.directed"
    try:
        text = read_bytes(path).decode("latin-1")
    except FileNotFoundError:
        text = None
    # as in Java, the last entry of a key wins
    stated = [(number, value) for number, k, value in _properties(text or "") if k == key]
    if not stated:
        if directed is None:
            what = "no such file" if text is None else f"no '{key}' entry"
            raise InvalidValue(f"{path}: {what} says whether the graph is directed; give "
                               "directed=True or False")
        return directed
    number, value = stated[-1]
    if value.lower() not in ("true", "false"):
        raise InvalidValue(f"{path}: line {number}: {key} must be 'true' or 'false', got "
                           f"'{excerpt(value)}'")
    says = value.lower() == "true"
    if directed is not None and directed != says:
        kind, other = ("directed", "undirected") if says else ("undirected", "directed")
        raise InvalidValue(f"{path}: line {number}: the graph is {kind} ({key} = "
                           f"{value}); it cannot be read as {other}")
    return says


def _vertex_problem(path, text, reason):
    """The error for the first vertex line numpy could not read (found by rereading it)."""
    for number, line, fields in data_lines(text, ""):
        where = f"{path}: line {number}"
        if len(fields) != 1:
            return InvalidValue(f"{where}: {len(fields)} values where a vertex line holds one "
                                f"id: '{excerpt(line)}'")
        try:
            value = int(fields[0])
        except ValueError:
            return InvalidValue(f"{where}: vertex id '{excerpt(fields[0])}' is not an integer")
        if not -2**63 <= value < 2**63:
            return InvalidValue(f"{where}: vertex id {excerpt(fields[0])} does not fit in int64")
    return InvalidValue(f"{path}: {reason}")


def _vertex_ids(path):
    """Rank 0's reading of the vertex file: its ids in ascending order, each listed once."""
    data = read_bytes(path)
    try:
        with warnings.catch_warnings():
            # numpy warns about an empty file; no vertices is a valid (empty) graph
            warnings.simplefilter("ignore", UserWarning)
            table = np.loadtxt(io.BytesIO(data), dtype=np.int64, ndmin=2, comments=None,
                               encoding="latin-1")
    except ValueError as exc:
        raise _vertex_problem(path, data.decode("latin-1"), exc) from exc
    if table.shape[1] != 1:
        raise _vertex_problem(path, data.decode("latin-1"), "a line holds more than one id")
    ids = table[:, 0]
    negative = np.flatnonzero(ids < 0)
    if len(negative):
        number, _ = line_of(data.decode("latin-1"), "", negative[0])
        raise InvalidValue(f"{path}: line {number}: negative vertex id {ids[negative[0]]}")
    if np.all(ids[1:] > ids[:-1]):
        # ascending, as Graphalytics writes them: nothing to sort or repeat
        return ids
    order = np.argsort(ids, kind="stable")
    ascending = ids[order]
    repeats = np.flatnonzero(ascending[1:] == ascending[:-1])
    if len(repeats):
        # the stable sort keeps equal ids in line order: the first line that repeats one
        k = int(order[repeats + 1].min())
        text = data.decode("latin-1")
        first, _ = line_of(text, "", int(np.flatnonzero(ids == ids[k])[0]))
        number, line = line_of(text, "", k)
        raise InvalidValue(f"{path}: line {number}: vertex id {ids[k]} is listed again (first "
                           f"on line {first}): '{excerpt(line)}'")
    return ascending


def _positions(ids, vertices):
    """(position of each vertex among the ascending ids, whether it is there at all)."""
    at = np.searchsorted(ids, vertices)
    if not len(ids):
        return at, np.zeros(len(vertices), bool)
    return at, ids[np.minimum(at, len(ids) - 1)] == vertices


def _entries(files, directed, weighted, dtype):
    """Rank 0's reading: (rows, cols, values, ids, (n, directed, dtype name))."""
    vertex_file, edge_file, properties_file = files
    name = os.path.basename(properties_file)[:-len(".properties")]
    directed = _direction(properties_file, name, directed)
    ids = _vertex_ids(vertex_file)
    text, src, dst, weights = edge_table(edge_file, weighted, "")
    rows, src_listed = _positions(ids, src)
    cols, dst_listed = _positions(ids, dst)
    unlisted = np.flatnonzero(~(src_listed & dst_listed))
    if len(unlisted):
        k = unlisted[0]
        number, line = line_of(text, "", k)
        raise InvalidValue(f"{edge_file}: line {number}: vertex "
                           f"{src[k] if not src_listed[k] else dst[k]} is not listed in "
                           f"{vertex_file}: '{excerpt(line)}'")
    out_type = dtype or lookup_dtype("BOOL" if weights is None else "FP64")
    with np.errstate(all="ignore"):
        values = np.ones(len(rows), dtype=out_type.np_type) if weights is None else \
            weights.astype(out_type.np_type)
    return rows, cols, values, ids, (len(ids), directed, out_type.name)


@collective
def read_graphalytics(path, *, directed=None, weighted=None, dtype=None, name=None, grid=None):
    """Collective. Read an LDBC Graphalytics graph (``NAME.v``, ``NAME.e``, and
    ``NAME.properties`` when there is one) into an n x n Matrix and its vertex ids.

    Vertex i is the i-th id of the vertex file in ascending order; every edge endpoint must be
    listed there. An undirected graph's edges, listed once, are entered both ways (a self-loop
    once) and the Matrix is marked symmetric. Rank 0 reads the files and sends each rank its
    entries and its part of the ids; no other rank holds them all.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.v``, ``.e`` or ``.properties`` file, or their common prefix ``dir/NAME``.
    directed : bool, optional
        Default: what ``graph.NAME.directed`` of ``NAME.properties`` says (``true`` or
        ``false``); needed when there is no such entry, and must agree with it when there is.
    weighted : bool, optional
        Take the edge file's third column as the edge value; default: when there is one.
    dtype : dtype-like, optional
        Default FP64 for weights, BOOL (every edge True) without.
    name : str, optional
        The Matrix's name.
    grid : Grid, optional (the default grid)

    Returns
    -------
    A : Matrix
        ``A[i, j]`` for the edge from the i-th id to the j-th (and back when undirected).
    ids : Vector
        INT64, full, of size n: ``ids[i]`` is vertex i's id in the files.

    Raises
    ------
    FileNotFoundError, PermissionError, ...
        The vertex or edge file cannot be read: ``"g.e: No such file or directory"``.
    InvalidValue
        The direction is neither stated nor given, or contradicts the properties file; a
        vertex line that is not one non-negative integer, an id listed twice, a malformed
        edge line, an endpoint that is not a listed vertex (``"g.e: line 3: vertex 42 is
        not listed in g.v: '7 42'"``), or an edge listed twice (both ways, when undirected).

    Examples
    --------
    >>> A, ids = read_graphalytics("example-directed.v")  # doctest: +SKIP
    >>> A.shape, A.nvals, ids[0].value  # doctest: +SKIP
    ((10, 10), 17, 1)
    """
    if directed not in (None, True, False):
        raise ValueError(f"directed must be None, True or False; got {directed!r}")
    if weighted not in (None, True, False):
        raise ValueError(f"weighted must be None, True or False; got {weighted!r}")
    grid = grid or default_grid()
    dtype = None if dtype is None else lookup_dtype(dtype)
    files = graphalytics_files(path)
    read = on_root(grid, lambda: _entries(files, directed, weighted, dtype))
    n, directed, type_name = grid.comm.bcast_object(read[4] if grid.rank == 0 else None)
    out_type = lookup_dtype(type_name)
    if grid.rank == 0:
        src, dst, values, ids = read[:4]
    else:
        src, dst, ids = (np.empty(0, np.int64),) * 3
        values = np.empty(0, out_type.np_type)
    if not directed:
        src, dst, values = both_ways(src, dst, values)
    try:
        A = Matrix.from_coo(src, dst, values, dtype=out_type, nrows=n, ncols=n, name=name,
                            distributed=True, grid=grid)
    except InvalidValue as exc:
        both = "" if directed else " (in one direction: the graph is undirected)"
        raise InvalidValue(f"{files[1]}: repeated edges; a Graphalytics edge file lists each "
                           f"edge once{both}") from exc
    if not directed:
        # no repeats, so A is exactly its mirror image
        A.mark_symmetric()
    ids = Vector.from_coo(np.arange(len(ids)), ids, dtype="INT64", size=n, distributed=True,
                          grid=grid)
    return A, ids
