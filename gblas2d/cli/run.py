"""``gblas2d run ALGO --graph SPEC``: one algorithm on one graph, optionally checked against
SciPy, traced, and written to a file."""

import time
from pathlib import Path

import numpy as np

from .. import io, trace
from ..exceptions import InvalidValue
from ..graphio import _on_root, _write_atomically

# name -> (needs a source, needs weights, method choices)
ALGORITHMS = {
    "bfs_levels": (True, False, None),
    "bfs_parents": (True, False, None),
    "pagerank": (False, False, ("graphalytics", "gap")),
    "connected_components": (False, False, ("fastsv", "label_propagation")),
    "sssp": (True, True, ("bellman_ford", "delta_stepping")),
}
CHECK_LIMIT = 1 << 17


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


def call(name, A, source, args):
    """Collective. Run algorithm ``name``; returns its result Vector."""
    from .. import algorithms

    method = args.method or {"pagerank": "graphalytics", "connected_components": "fastsv",
                             "sssp": "bellman_ford"}.get(name)
    if name == "pagerank":
        return algorithms.pagerank(A, args.damping, args.tol, args.max_iter, variant=method)
    if name == "connected_components":
        return algorithms.connected_components(A, method)
    if name == "sssp":
        return algorithms.sssp(A, source, method, delta=args.delta)
    return getattr(algorithms, name)(A, source)


def summary(name, result):
    """Collective. One line about the result."""
    if name == "connected_components":
        labels = result.to_dense()
        sizes = np.bincount(labels)
        return f"{np.count_nonzero(sizes)} components, the largest has {sizes.max()} vertices"
    if name == "pagerank":
        top = result.reduce("max").new().value
        return f"largest rank {top:.6g}, ranks sum to {result.reduce().new().value:.6f}"
    reached = f"reached {result.nvals} vertices"
    if name == "bfs_levels":
        return f"{reached}, {result.reduce('max').new().value + 1} levels"
    if name == "sssp":
        return f"{reached}, the farthest at distance {result.reduce('max').new().value:.6g}"
    return reached


def check(name, A, source, result, args):
    """Collective. Compare with SciPy on a small graph: (ok, what was compared)."""
    from scipy.sparse import csgraph

    M = io.to_scipy_sparse(A)
    got = result.to_dense(np.nan, dtype=np.float64)
    if name in ("bfs_levels", "bfs_parents", "sssp"):
        if name == "sssp":
            method = "BF" if (M.data < 0).any() else "D"
            want = csgraph.shortest_path(M, method=method, indices=source)
        else:
            want = csgraph.shortest_path(M, unweighted=True, indices=source)
        if name == "bfs_parents":
            from ..algorithms import validate_bfs_tree

            verdict = validate_bfs_tree(A, source, result)
            got = verdict.levels.to_dense(np.nan, dtype=np.float64)
            if not verdict:
                return False, f"Graph 500 validation failed: {', '.join(verdict.failures)}"
        want = np.where(np.isinf(want), np.nan, want)
        ok = np.allclose(got, want, rtol=1e-9, atol=1e-12, equal_nan=True)
        return ok, "distances against scipy.sparse.csgraph.shortest_path"
    if name == "connected_components":
        _, labels = csgraph.connected_components(M, directed=True, connection="weak")
        smallest = np.full(labels.max() + 1 if len(labels) else 0, len(labels))
        np.minimum.at(smallest, labels, np.arange(len(labels)))
        ok = np.array_equal(got, smallest[labels])
        return ok, "labels against scipy.sparse.csgraph.connected_components"
    want = pagerank_reference(M, args.damping, args.method or "graphalytics")
    ok = np.abs(got - want).sum() <= 10 * args.tol
    return ok, "ranks against a dense power iteration (L1 within 10 tol)"


def pagerank_reference(M, damping, variant, tol=1e-13):
    """PageRank by power iteration with SciPy, to a tolerance far below the one checked."""
    n = M.shape[0]
    csr = M.tocsr()
    out = np.diff(csr.indptr).astype(np.float64)
    # the pattern, explicit zeros included, as the algorithm reads it
    pattern = csr.astype(np.float64)
    pattern.data[:] = 1.0
    r = np.full(n, 1.0 / n)
    for _ in range(100000):
        w = np.divide(r, out, out=np.zeros(n), where=out > 0)
        dangling = 0.0 if variant == "gap" else r[out == 0].sum()
        nxt = (1 - damping + damping * dangling) / n + damping * (pattern.T @ w)
        if np.abs(nxt - r).sum() < tol:
            return nxt
        r = nxt
    return r


def write_result(path, result, grid):
    """Collective. Rank 0 writes ``vertex value`` lines (or ``.npz`` arrays) atomically: a
    temporary file in the same directory, renamed over the target when complete."""
    idx, vals = result.to_coo()

    def write(f):
        if Path(path).suffix == ".npz":
            np.savez(f, indices=idx, values=vals)
        elif vals.dtype.kind == "f":
            np.savetxt(f, np.column_stack([idx, vals]), fmt="%d\t%.17g")
        else:
            np.savetxt(f, np.column_stack([idx, vals]).astype(np.int64), fmt="%d\t%d")

    def work():
        try:
            _write_atomically(path, write, compress=False)
        except OSError as exc:
            raise type(exc)(f"cannot write {exc}") from exc

    _on_root(grid, work)


def trace_table(events):
    lines = [f"{'#':>4} {'op':>4} {'semiring':>12} {'direction':>9} {'frontier':>10} "
             f"{'expand':>13} {'fold':>13} {'row bytes':>10} {'col bytes':>10}"]
    for k, e in enumerate(events):
        lines.append(f"{k:>4} {e['op']:>4} {e['semiring'][:12]:>12} {e['direction']:>9} "
                     f"{e['frontier_nvals']:>10} {'/'.join(e['expand']):>13} "
                     f"{'/'.join(e['fold']):>13} {e['bytes']['row']:>10} "
                     f"{e['bytes']['col']:>10}")
    return lines


def run(args, grid, out, load):
    name = args.algorithm
    needs_source, weighted, methods = ALGORITHMS[name]
    if args.method is not None and (methods is None or args.method not in methods):
        choices = ", ".join(methods) if methods else "none"
        raise InvalidValue(f"--method {args.method!r} is not a method of {name} "
                           f"(choices: {choices})")
    A = load(args.graph, weighted=weighted)
    if weighted and A.dtype.name == "BOOL":
        # a pattern file: every edge weighs one
        A = A.dup(dtype="INT64")
    out(f"graph {args.graph}: n={A.nrows}, nvals={A.nvals}, grid {grid.shape[0]}x"
        f"{grid.shape[1]}")
    source = None
    if needs_source:
        source = default_source(A) if args.source is None else args.source
    graph, at_source = A, source
    if args.relabel:
        from ..algorithms._engine import check_vertex
        from .relabel import relabel, restore

        if source is not None:
            check_vertex(A, source)
        graph, perm = relabel(A, args.seed)
        at_source = None if source is None else int(perm[source])
    grid.comm.barrier()
    start = time.perf_counter()
    with trace() as events:
        result = call(name, graph, at_source, args)
    seconds = float(grid.comm.allreduce(np.array([time.perf_counter() - start]), "max")[0])
    if args.relabel:
        result = restore(name, result, perm)
    at = "" if source is None else f" from vertex {source}"
    out(f"{name}{at}: {seconds:.4f} s; {summary(name, result)}")
    if args.trace:
        for line in trace_table(events):
            out(line)
    status = 0
    if args.check:
        if A.nrows > CHECK_LIMIT:
            out(f"check: skipped, the graph has more than {CHECK_LIMIT} vertices")
        else:
            ok, what = check(name, A, source, result, args)
            out(f"check: {'OK' if ok else 'FAILED'} ({what})")
            status = 0 if ok else 1
    if args.output:
        write_result(args.output, result, grid)
        out(f"wrote {args.output}")
    return status
