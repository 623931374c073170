"""Graph specifications of the command line: a file path, or a generator.

``kron:SCALE[:EF]`` (Graph 500 Kronecker, symmetric), ``er:N:M`` (Erdős–Rényi with M edges,
symmetric), ``grid:R:C`` (an R x C mesh), or a path: ``.mtx`` / ``.mtx.gz`` (Matrix Market),
``.npz`` (gblas2d's binary format), ``.v`` / ``.e`` / ``.properties`` (an LDBC Graphalytics
graph), anything else a whitespace edge list.
"""

import os
from pathlib import Path

from .. import io
from ..distributed.failures import seen_per_rank
from ..distributed.grid import default_grid
from ..io import generators, graphalytics

# 2**SCALE vertices with int64 ids
MAX_SCALE = 62


class SpecError(ValueError):
    """A graph specification that cannot be understood (a usage error: exit code 2)."""


def _ints(spec, parts, names):
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise SpecError(f"graph {spec!r}: {', '.join(names)} must be integers") from None
    if any(v < 0 for v in values):
        raise SpecError(f"graph {spec!r}: {', '.join(names)} must not be negative")
    return values


def is_generated(spec):
    """Whether ``spec`` names a generator (``kron:10``), not a file."""
    kind, _, rest = spec.partition(":")
    return kind in ("kron", "er", "grid") and bool(rest) and \
        not spec.lower().endswith(graphalytics.SUFFIXES)


def load_graph(spec, *, seed=0, weighted=False, undirected=False):
    """Collective. ``(A, ids)``: the Matrix named by ``spec``, and for a Graphalytics graph,
    or an edge list whose ids are labels (``read_edgelist``'s ``relabel="auto"``), the Vector
    of its vertex ids (vertex i is ``ids[i]`` in the files; None for any other graph).
    Generated graphs get uniform [0, 1) weights when ``weighted`` (for shortest paths), else
    every entry is 1. ``undirected`` reads an edge list's lines as undirected edges, and a
    Graphalytics graph's when its .properties does not say; any other graph refuses it."""
    try:
        if spec.lower().endswith(graphalytics.SUFFIXES):
            return _graphalytics(spec, undirected)
        return _load(spec, seed, weighted, undirected)
    except ValueError as exc:
        if isinstance(exc, SpecError) or not is_generated(spec):
            raise  # a reader's message starts with the file's path already
        # a generator's own argument check (er:0:5): the same on every rank
        raise SpecError(f"graph {spec!r}: {exc}") from None


def _load(spec, seed, weighted, undirected):
    """``(A, ids)`` of a generator, a Matrix Market file, a saved matrix or an edge list."""
    weights = "uniform" if weighted else None
    kind, _, rest = spec.partition(":")
    parts = rest.split(":") if rest else []
    name = spec.lower()
    if undirected and (kind in ("kron", "er", "grid") and rest or
                       name.endswith((".mtx", ".mtx.gz", ".mm", ".npz"))):
        raise SpecError(f"--undirected reads edge lists; graph {spec!r} says its own "
                        "symmetry")
    if kind == "kron" and rest:
        if len(parts) > 2:
            raise SpecError(f"graph {spec!r}: expected kron:SCALE[:EDGEFACTOR]")
        scale, edge_factor = (_ints(spec, parts, ["SCALE", "EDGEFACTOR"]) + [16])[:2]
        if scale > MAX_SCALE:
            raise SpecError(f"graph {spec!r}: SCALE must be at most {MAX_SCALE}")
        return generators.rmat(scale, edge_factor, seed=seed, symmetric=True,
                               weights=weights), None
    if kind == "er" and rest:
        if len(parts) != 2:
            raise SpecError(f"graph {spec!r}: expected er:N:M")
        n, m = _ints(spec, parts, ["N", "M"])
        return generators.erdos_renyi(n, m, seed=seed, symmetric=True, weights=weights), None
    if kind == "grid" and rest:
        if len(parts) != 2:
            raise SpecError(f"graph {spec!r}: expected grid:ROWS:COLS")
        r, c = _ints(spec, parts, ["ROWS", "COLS"])
        return generators.grid_graph(r, c, seed=seed, weights=weights), None
    path = _existing(spec)
    name = path.name.lower()
    if name.endswith((".mtx", ".mtx.gz", ".mm")):
        return io.mmread(path), None
    if name.endswith(".npz"):
        return io.load(path), None
    # ids far beyond the number of vertices are labels: numbered 0..n-1, kept for output
    return io.read_edgelist(path, base="auto", symmetric=undirected, relabel="auto")


def _existing(spec):
    """Collective. The path ``spec``, once every rank has found it. Agreed: a path that some
    ranks cannot see (a node-local file, a relative path under another working directory)
    fails on every rank instead of leaving the others waiting, and the message names those
    ranks (``(on rank 3 of 4; the others had no such error)``, the comm layer's)."""
    path = Path(spec)
    grid = default_grid()
    with grid.comm.agreed():
        if not path.exists():
            raise seen_per_rank(FileNotFoundError(f"graph file not found: {spec}"))
    return path


def _graphalytics(spec, undirected):
    """Collective. A Graphalytics graph and its ids: directed as its .properties says (the
    reader refuses --undirected for a directed one); without a .properties, undirected with
    --undirected, else directed, as edge lists are."""
    path = _existing(spec)
    grid = default_grid()
    # rank 0 reads the files, so its view decides
    has_properties = grid.comm.bcast_object(
        os.path.exists(graphalytics.graphalytics_files(path)[2]) if grid.rank == 0 else None)
    if undirected:
        directed = False
    else:
        directed = None if has_properties else True
    return io.read_graphalytics(path, directed=directed)
