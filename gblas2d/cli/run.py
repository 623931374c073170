"""``gblas2d run ALGO --graph SPEC``: one algorithm on one graph, optionally checked against
a reference (SciPy, numpy, networkx), traced, and written to a file. The algorithms and their
references are in ``algorithms.py``.

A Graphalytics graph's vertices are named by their ids in its .v file: ``--source`` is one,
and the summary line and ``--output`` use them. The run itself, ``--relabel`` and ``--check``
work on vertex indices 0 .. n-1; the ids are put in last."""

import os
import time
from functools import partial
from importlib.util import find_spec
from pathlib import Path

import numpy as np

from .. import trace
from ..exceptions import InvalidValue
from ..graphio import on_root, write_atomically
from .algorithms import ALGORITHMS, check_options, needs_weights


def out_degree(A):
    """Collective. The out-degree of every vertex with an out-edge: A plus.pair 1."""
    from .. import Vector, semiring

    return A.mxv(Vector.from_scalar(1, A.ncols), semiring.plus_pair).new()


def default_source(A):
    """Collective. The vertex of largest out-degree (the smallest such id): a source that
    reaches much of the graph, the same on every run."""
    degree = out_degree(A)
    if degree.nvals == 0:
        return 0
    top = degree.reduce("max").new().value
    return int(degree.select("==", top).new().to_coo()[0][0])


def vertex_index(ids, vertex, graph):
    """Collective. The index of the vertex whose Graphalytics id is ``vertex``."""
    # ids are int64 and never negative: another number names no vertex
    at = ids.select("==", vertex).new().to_coo()[0] if 0 <= vertex < 2**63 else []
    if len(at) == 0:
        raise InvalidValue(f"--source {vertex} is not a vertex of {graph} (not in its .v file)")
    return int(at[0])


def vertex_names(ids, vertices):
    """Collective. How to print these vertex indices: their Graphalytics ids, or themselves
    when ``ids`` is None."""
    if ids is None:
        return list(vertices)
    return ids[list(vertices)].new().to_dense().tolist()


def write_result(path, result, grid, ids=None):
    """Collective. Rank 0 writes ``vertex value`` lines (or ``.npz`` arrays) atomically: a
    temporary file in the same directory, renamed over the target when complete. With
    ``ids``, vertex i is written as ``ids[i]``."""
    idx, vals = result.to_coo()
    if ids is not None:
        # ids is full, so on result's pattern it holds one id per entry, in the same order
        idx = ids.dup(mask=result.S).to_coo()[1]

    def write(f):
        if Path(path).suffix == ".npz":
            np.savez(f, indices=idx, values=vals)
            return
        # a record per line keeps each column's type: a float64 column of ids would round
        # those above 2**53
        fmt = "%d\t%.17g" if vals.dtype.kind == "f" else "%d\t%d"
        np.savetxt(f, np.rec.fromarrays([idx, vals]), fmt=fmt)

    def work():
        try:
            write_atomically(path, write, compress=False)
        except OSError as exc:
            raise type(exc)(f"cannot write {exc}") from exc

    on_root(grid, work)


def check_output(path, grid):
    """Collective. Before any work: the directory of ``--output`` exists and can be written on
    rank 0, which writes it, and the path is not a directory (found after the whole run
    before)."""
    def work():
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise IsADirectoryError(f"cannot write {path}: it is a directory")
        if not os.path.isdir(folder):
            raise FileNotFoundError(f"cannot write {path}: no directory {folder}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(f"cannot write {path}: {folder} is not writable")

    on_root(grid, work)


def trace_table(events):
    """One line per product. An mxm has no frontier vector: its frontier column counts the
    entries of its right operand, its formats are '-', and its direction column names its
    scheme (``summa``, ``gather``) unless a masked gather chose push or pull."""
    lines = [f"{'#':>4} {'op':>4} {'semiring':>12} {'direction':>9} {'frontier':>10} "
             f"{'expand':>13} {'fold':>13} {'row bytes':>10} {'col bytes':>10}"]
    for k, e in enumerate(events):
        frontier = e.get("frontier_nvals", e.get("b_nvals"))
        direction = e["direction"] or e.get("scheme")
        lines.append(f"{k:>4} {e['op']:>4} {e['semiring'][:12]:>12} {direction:>9} "
                     f"{frontier:>10} {'/'.join(e.get('expand', '-')):>13} "
                     f"{'/'.join(e.get('fold', '-')):>13} {e['bytes']['row']:>10} "
                     f"{e['bytes']['col']:>10}")
    return lines


def run(args, grid, out, load):
    name = args.algorithm
    spec = ALGORITHMS[name]
    check_options(name, args)
    if args.check and spec.check_needs and find_spec(spec.check_needs) is None:
        raise InvalidValue(f"--check of {name} needs {spec.check_needs}, which is not "
                           f"installed (pip install {spec.check_needs})")
    if args.output:
        check_output(args.output, grid)
    weighted = needs_weights(spec, args)
    A, ids = load(args.graph, weighted=weighted)
    if weighted and A.dtype.name == "BOOL":
        # a pattern file: every edge weighs one
        A = A.dup(dtype="INT64")
    out(f"graph {args.graph}: n={A.nrows}, nvals={A.nvals}, grid {grid.shape[0]}x"
        f"{grid.shape[1]}")
    source = args.source if spec.source else None
    if source is not None and ids is not None:
        source = vertex_index(ids, source, args.graph)
    if spec.source == "default" and source is None:
        source = default_source(A)
    graph, at_source = A, source
    if args.relabel:
        from ..algorithms._engine import check_vertex
        from .relabel import relabel

        if source is not None:
            check_vertex(A, source)
        graph, perm = relabel(A, args.seed)
        at_source = None if source is None else int(perm[source])
    grid.comm.barrier()
    start = time.perf_counter()
    with trace() as events:
        result = spec.call(graph, at_source, args)
    seconds = float(grid.comm.allreduce(np.array([time.perf_counter() - start]), "max")[0])
    if args.relabel:
        result = spec.restore(result, perm)
    vector = result if spec.vector is None else spec.vector(A, result, args)
    names = partial(vertex_names, ids)
    at = "" if source is None else f" from vertex {names([source])[0]}"
    out(f"{name}{at}: {seconds:.4f} s; {spec.summary(A, result, vector, names)}")
    if args.trace:
        for line in trace_table(events):
            out(line)
    status = 0
    if args.check:
        if A.nrows > spec.check_limit:
            out(f"check: skipped, the graph has more than {spec.check_limit} vertices")
        else:
            ok, what = spec.check(A, source, result, vector, args)
            out(f"check: {'OK' if ok else 'FAILED'} ({what})")
            status = 0 if ok else 1
    if args.output:
        if ids is not None and spec.vertex_values:
            # the values are vertex indices too: out[v] = ids[vector[v]]
            vector = ids.gather(vector).new()
        write_result(args.output, vector, grid, ids)
        out(f"wrote {args.output}")
    return status
