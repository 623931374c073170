"""``gblas2d run ALGO --graph SPEC``: one algorithm on one graph, optionally checked against
a reference (SciPy, numpy, networkx), traced, and written to a file. The algorithms and their
references are in ``algorithms.py``; ``gblas2d run FILE:FUNCTION`` runs a function of the
user's own the same way (``user.py``).

A Graphalytics graph's vertices are named by their ids in its .v file: ``--source`` is one,
and the summary line and ``--output`` use them. The run itself, ``--relabel`` and ``--check``
work on vertex indices 0 .. n-1; the ids are put in last.

``--json`` writes what the report says as one JSON object: the command line, the graph, the
grid, the options the algorithm read (defaults filled in), the seconds of loading, of the
one-time setup (``warm_up``: a built-in algorithm runs once on a small graph before it is timed,
so that its time is not a first call's), of running and of checking (each the slowest rank's),
the iterations where the trace counts them, the figures of
the summary line, the check's verdict and, with ``--trace``, the trace (rank 0's bytes) and the
trace of every rank per iteration (``trace_iterations``).

``--trace`` prints the products' table, then the trace of every rank per iteration
(``gb.trace_all``: calls and bytes per grid group over the ranks); ``--plot PATH`` draws that
trace as a PNG."""

import os
import time
from contextlib import nullcontext
from functools import partial
from importlib.util import find_spec

import numpy as np

from .. import trace, trace_all
from ..exceptions import GraphblasException, InvalidValue
from . import version
from .algorithms import ALGORITHMS, check_options, needs_weights, reads
from .graphs import is_generated
from .output import check_output, check_paths, result_format, write_result, write_summary
from .progress import Progress
from .user import user_spec


def slowest(grid, seconds):
    """Collective. The most ``seconds`` over the ranks."""
    return float(grid.comm.allreduce(np.array([seconds]), "max")[0])


def out_degree(A):
    """Collective. The out-degree of every vertex with an out-edge, the count of its row's
    entries: O(entries / P), with no vector of n (a product by a full vector of ones would
    hold n / P values a rank)."""
    from .. import agg

    return A.reduce_rowwise(agg.count).new()


def default_source(A):
    """Collective. The vertex of largest out-degree (the smallest such id): a source that
    reaches much of the graph, the same on every run. O(entries / P): the ties are reduced
    where they are, not gathered."""
    from .. import indexunary, monoid

    degree = out_degree(A)
    if degree.nvals == 0:
        return 0
    top = degree.reduce(monoid.max).new().value
    ties = degree.select("==", top).new()
    return int(ties.apply(indexunary.index).new().reduce(monoid.min).new().value)


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


def check_plot(args):
    """Before any work: ``--plot`` has matplotlib and a file of its own to write."""
    if args.plot is None:
        return
    if find_spec("matplotlib") is None:
        raise InvalidValue("--plot needs matplotlib, which is not installed "
                           "(pip install 'gblas2d[plot]')")
    if args.plot == "-":
        raise InvalidValue("--plot writes a PNG file, not standard output")
    for path, option in ((args.output, "--output"), (args.json, "--json")):
        if path not in (None, "-") and os.path.abspath(path) == os.path.abspath(args.plot):
            raise InvalidValue(f"--plot and {option} name the same file, {args.plot}")


# The size of the graph the algorithm runs on once before it is timed.
WARM_UP_VERTICES = 64


def warm_up(spec, A, args, grid):
    """Collective. The seconds of one call of the algorithm on a small graph of A's type (an
    R-MAT graph, weighted as A is): a first call's one-time work (imports, kernels loaded or
    compiled, caches of the operators), reported apart from the algorithm's own time."""
    from ..io.generators import rmat

    grid.comm.barrier()
    start = time.perf_counter()
    small = rmat(WARM_UP_VERTICES.bit_length() - 1, 8, symmetric=True, seed=args.seed,
                 weights="uniform" if A.dtype.name != "BOOL" else None).dup(dtype=A.dtype)
    try:
        spec.call(small, 0 if spec.source else None, args)
    except GraphblasException:
        # Options made for the input may not suit the small graph (--max-iter 5 too few to
        # converge, more --seeds than its vertices): the first call's work is done all the
        # same, and every rank raised alike, as every gblas2d error is raised.
        pass
    return slowest(grid, time.perf_counter() - start)


def run(args, grid, out, load, show_progress, stdout):
    """Collective. ``gblas2d run``: its exit code. ``out`` prints a report line (rank 0),
    ``load`` reads a graph, ``stdout`` is the Stream that ``-`` names."""
    name = args.algorithm
    if name in ALGORITHMS:
        if args.param:
            raise InvalidValue(f"--param passes parameters to a function of your own "
                               f"(FILE.py:FUNCTION); {name} takes the options of --help")
        spec = ALGORITHMS[name]
        check_options(name, args)
    else:
        # FILE:FUNCTION, loaded and its options checked before the graph is
        spec = user_spec(name, args, grid)
    if args.check and spec.check_needs and find_spec(spec.check_needs) is None:
        raise InvalidValue(f"--check of {name} needs {spec.check_needs}, which is not "
                           f"installed (pip install {spec.check_needs})")
    check_paths(args.output, args.json)
    check_plot(args)
    for path, option in ((args.output, "--output"), (args.json, "--json"), (args.plot, "--plot")):
        if path is not None:
            for stale, pid in check_output(path, grid, option) or ():
                out(f"removed {stale}: the temporary file of a write of {path} by process {pid} "
                    "of this host, which was killed before it finished")
    if args.weights is not None and not is_generated(args.graph):
        raise InvalidValue(f"--weights gives a generated graph its weights; {args.graph} has "
                           "its own")
    weighted = needs_weights(spec, args) if args.weights is None else args.weights == "uniform"
    start = time.perf_counter()
    A, ids = load(args.graph, weighted=weighted)
    seconds = {"load": slowest(grid, time.perf_counter() - start), "setup": None, "run": None,
               "check": None}
    if ids is not None and args.output and result_format(args.output) == "mtx":
        raise InvalidValue(f"--output {args.output}: a Matrix Market file numbers the vertices "
                           f"1 to n, not by the ids of {args.graph}; write .csv, .json, .npz "
                           "or lines")
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
    if name in ALGORITHMS:
        seconds["setup"] = warm_up(spec, graph, args, grid)
        out(f"setup: {seconds['setup']:.4f} s ({name} once on a {WARM_UP_VERTICES}-vertex "
            "graph: what a first call loads and caches)")
    grid.comm.barrier()
    start = time.perf_counter()
    # every rank's calls are recorded only when --trace or --plot asks for them
    every = trace_all(grid) if args.trace or args.plot else nullcontext()
    with trace() as events, every as everything:
        result = spec.call(graph, at_source, args)
    seconds["run"] = slowest(grid, time.perf_counter() - start)
    report = None if everything is None else everything.gather()
    if args.relabel:
        result = spec.restore(result, perm)
    vector = result if spec.vector is None else spec.vector(A, result, args)
    names = partial(vertex_names, ids)
    at = "" if source is None else f" from vertex {names([source])[0]}"
    figures, line = spec.summary(A, result, vector, names)
    out(f"{name}{at}: {seconds['run']:.4f} s; {line}")
    if args.trace:
        for row in trace_table(events) + report.table().splitlines():
            out(row)
    if args.plot:
        report.plot(args.plot)
        out(f"wrote {args.plot}")
    status, check = 0, None
    if args.check:
        if A.nrows > spec.check_limit:
            check = {"verdict": "skipped",
                     "what": f"the graph has more than {spec.check_limit} vertices"}
            out(f"check: skipped, {check['what']}")
        else:
            start = time.perf_counter()
            with Progress("checking against the reference", None, show_progress):
                ok, what = spec.check(A, source, result, vector, args)
            seconds["check"] = slowest(grid, time.perf_counter() - start)
            check = {"verdict": "OK" if ok else "FAILED", "what": what}
            out(f"check: {check['verdict']} ({what})")
            status = 0 if ok else 1
    if args.output:
        if vector is None:
            raise InvalidValue(f"--output {args.output}: {name} {line}, a number: no value per "
                               "vertex to write (the summary line and --json show it)")
        if ids is not None and spec.vertex_values:
            # the values are vertex indices too: out[v] = ids[vector[v]]
            vector = ids.gather(vector).new()
        write_result(args.output, vector, spec.column, grid, stdout, ids)
        if args.output != "-":
            out(f"wrote {args.output}")
    if args.json:
        options = {option: getattr(args, option) for option in reads(spec)}
        if spec.source:
            options["source"] = None if source is None else names([source])[0]
        options.update(seed=args.seed, relabel=args.relabel, undirected=args.undirected)
        if args.weights is not None:
            options["weights"] = args.weights
        if args.param:
            options["params"] = dict(args.param)
        summary = {
            "command": ["gblas2d", *args.argv], "version": version(),
            "graph": {"spec": args.graph, "n": A.nrows, "nvals": A.nvals},
            "grid": list(grid.shape), "processes": grid.nprocs, "algorithm": name,
            "options": options, "seconds": seconds,
            "iterations": None if spec.iterations is None else spec.iterations(result, events),
            "summary": line, "figures": figures, "check": check, "output": args.output,
            "exit_code": status}
        if args.trace:
            summary["trace"] = events
            summary["trace_iterations"] = report.rows
        write_summary(args.json, summary, grid, stdout)
        if args.json != "-":
            out(f"wrote {args.json}")
    return status
