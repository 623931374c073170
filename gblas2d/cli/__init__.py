"""The ``gblas2d`` command (also ``python -m gblas2d``). Rank 0 prints; every command runs
unchanged under ``mpiexec -n P``.

    gblas2d                                  the demo job on a generated graph
    gblas2d run ALGO --graph SPEC [...]      one algorithm on one graph
    gblas2d graph500 --scale S               the Graph 500 BFS benchmark
    gblas2d info --graph SPEC                sizes, degrees, blocks per rank and balance

Bad options and missing files give a one-line error and exit code 2 on every rank. Any other
exception on any rank ends the whole MPI job with its message rather than leaving it hanging.
Ctrl-C or SIGTERM ends the run with one line and exit code 128 + the signal, and leaves no
temporary file of ``--output`` (a later write removes those of runs killed with SIGKILL).
"""

import argparse
import os
import signal
import sys
import time

import numpy as np

from .. import backends
from ..algorithms import NegativeCycleError
from ..exceptions import ConvergenceFailure, GraphblasException
from ..grid import Grid, set_default_grid

__all__ = ["main"]


UNDIRECTED_HELP = ("read an edge-list file's lines as undirected edges, each both ways, and so "
                   "a Graphalytics graph without .properties (a Matrix Market file or a "
                   ".properties states its own symmetry; generated graphs are undirected "
                   "already)")


def _grid_shape(text):
    try:
        r, c = (int(t) for t in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must look like 2x3, got {text!r}") from None
    return r, c


def _positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _parser():
    from .algorithms import ALGORITHMS

    parser = argparse.ArgumentParser(prog="gblas2d", description=__doc__.split("\n\n")[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--grid", type=_grid_shape, default=None,
                        help="process grid RxC, e.g. 2x3 (default: the most square)")
    common.add_argument("--seed", type=int, default=1,
                        help="seed of generated graphs and of random choices (sources, samples, "
                             "relabeling)")
    common.add_argument("--quiet", action="store_true", help="no progress lines")
    sub = parser.add_subparsers(dest="command")
    for p in (parser, sub.add_parser("demo", parents=[common], help="the demo job (default)")):
        p.add_argument("--scale", type=int, default=14, help="log2 of the vertex count")
        p.add_argument("--edge-factor", type=int, default=16)
        if p is parser:
            p.add_argument("--grid", type=_grid_shape, default=None)
            p.add_argument("--seed", type=int, default=1)
            p.add_argument("--quiet", action="store_true")
    run = sub.add_parser("run", parents=[common], help="run one algorithm on one graph")
    run.add_argument("algorithm", choices=sorted(ALGORITHMS), metavar="ALGO",
                     help=f"one of {', '.join(sorted(ALGORITHMS))} (not pointer_jumping: it "
                          f"takes a parent Vector, not a graph; connected_components --method "
                          f"fastsv runs it)")
    run.add_argument("--graph", required=True,
                     help="a file (.mtx, .mtx.gz, .npz, edge list, or a Graphalytics .v, .e "
                          "or .properties) or kron:SCALE[:EF], er:N:M, grid:R:C")
    run.add_argument("--undirected", action="store_true", help=UNDIRECTED_HELP)
    run.add_argument("--source", type=int, default=None,
                     help="BFS / SSSP source (default: the vertex of largest degree); "
                          "betweenness_centrality: its one source (default: every vertex); "
                          "an id of the .v file for a Graphalytics graph")
    run.add_argument("--method", default=None, help="variant of the algorithm")
    run.add_argument("--damping", type=float, default=0.85)
    run.add_argument("--tol", type=float, default=1e-4)
    run.add_argument("--max-iter", type=int, default=None,
                     help="iterations at most (default: pagerank 100, label_propagation 10)")
    run.add_argument("--iterations", type=int, default=None,
                     help="pagerank: run exactly this many iterations, with no convergence "
                          "check (LDBC Graphalytics' num-iterations)")
    run.add_argument("--colors", type=int, default=64,
                     help="fused_bpt: random sources, one sample each (default 64)")
    run.add_argument("--seeds", type=int, default=10,
                     help="influence_maximization: seed vertices to choose (default 10)")
    run.add_argument("--samples", type=int, default=4096,
                     help="influence_maximization: RRR sets sampled (default 4096)")
    run.add_argument("--probability", default="0.1",
                     help="fused_bpt, influence_maximization: edge activation probability in "
                          "[0, 1], or 'weight' for each edge's weight (default 0.1)")
    run.add_argument("--delta", type=float, default=None,
                     help="delta-stepping bucket width (default: the mean edge weight)")
    run.add_argument("--output", default=None,
                     help="write the result: 'vertex value' lines, or .npz arrays (vertices "
                          "by their .v ids for a Graphalytics graph)")
    run.add_argument("--relabel", action="store_true",
                     help="run on a randomly relabeled graph for load balance, output in the "
                          "input's labels (refused by fused_bpt, influence_maximization and "
                          "label_propagation, whose answers depend on the ids)")
    run.add_argument("--check", action="store_true",
                     help="compare with a reference: SciPy, numpy or networkx (graphs up to "
                          "131072 vertices; fewer for some algorithms)")
    run.add_argument("--trace", action="store_true",
                     help="per product: direction, frontier, exchange format, bytes per group")
    g500 = sub.add_parser("graph500", parents=[common], help="the Graph 500 BFS benchmark")
    g500.add_argument("--scale", type=int, required=True)
    g500.add_argument("--edge-factor", type=int, default=16)
    g500.add_argument("--roots", type=_positive, default=64)
    info = sub.add_parser("info", parents=[common], help="describe a graph")
    info.add_argument("--graph", required=True)
    info.add_argument("--undirected", action="store_true", help=UNDIRECTED_HELP)
    return parser


def info(args, grid, out, load):
    from .run import out_degree

    A, _ = load(args.graph)
    out(f"graph {args.graph}")
    out(f"  vertices {A.nrows} x {A.ncols}, entries {A.nvals}, dtype {A.dtype.name}")
    if A.nrows == A.ncols:
        out(f"  symmetric {A.isequal(A.T.new())}")
    d = out_degree(A).to_dense(0)
    if len(d):
        out(f"  out-degree min {d.min()}, mean {d.mean():.2f}, median {np.median(d):g}, "
            f"max {d.max()}, vertices without out-edges {np.count_nonzero(d == 0)}")
    row_lo, col_lo, rows, _, _ = A.local_block()
    blocks = grid.comm.allgather_object((grid.rank, row_lo, col_lo, len(rows)))
    out(f"  grid {grid.shape[0]}x{grid.shape[1]}: entries per rank")
    for rank, r0, c0, count in blocks:
        out(f"    rank {rank}: block at ({r0}, {c0}), {count} entries")
    counts = np.array([b[3] for b in blocks])
    if counts.sum():
        out(f"  balance (max / mean entries per rank) {counts.max() / counts.mean():.3f}")
    out(f"local kernels {backends.backend_name()}, {backends.threads_per_rank()} "
        "thread(s) per rank (GBLAS2D_BACKEND, GBLAS2D_THREADS)")
    return 0


class Interrupted(BaseException):
    """SIGINT (Ctrl-C) or SIGTERM, turned into an exception so that the work in progress
    unwinds (the temporary file of ``--output`` is removed) and the command ends with one
    line and exit code 128 + the signal's number. A BaseException, as KeyboardInterrupt is:
    the library's agreed sections do not take it for a failure to share."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _interrupt(signum, frame):
    raise Interrupted(signum)


def _end_interrupted(grid, exc):
    """One line from rank 0 and exit code 128 + the signal. Under mpiexec every rank got the
    signal, but some may be blocked in a collective that the others have left: each ends its
    process at once (no MPI finalize, which would wait for them), and the launcher ends the
    rest quietly. The other ranks give rank 0 a moment to say so first."""
    code = 128 + exc.signum
    if grid.rank == 0:
        print(f"gblas2d: interrupted ({exc})", file=sys.stderr, flush=True)
    if grid.nprocs == 1:
        return code
    sys.stdout.flush()
    if grid.rank != 0:
        # The launcher ends this rank once rank 0 has exited: let its signal do so quietly.
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_DFL)
        time.sleep(1.0)
    os._exit(code)


def _abort_on_uncaught(grid):
    """Under mpiexec, an exception on one rank must end the whole job, not leave it hanging."""
    if grid.nprocs == 1:
        return
    previous = sys.excepthook

    def hook(kind, value, tb):
        previous(kind, value, tb)
        sys.stderr.flush()
        from mpi4py import MPI

        MPI.COMM_WORLD.Abort(1)

    sys.excepthook = hook


def main(argv=None):
    parser = _parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        grid = Grid(shape=args.grid)
    except ValueError as exc:
        # the process count is the same on every rank, so every rank fails here alike; the
        # first rank of the job says so
        from mpi4py import MPI

        if MPI.COMM_WORLD.Get_rank() == 0:
            print(f"gblas2d: error: --grid: {exc}", file=sys.stderr, flush=True)
        return 2
    set_default_grid(grid)
    _abort_on_uncaught(grid)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _interrupt)

    def out(text):
        if grid.rank == 0:
            print(text, flush=True)

    from .graphs import SpecError, load_graph
    from .progress import Progress

    show_progress = grid.rank == 0 and not args.quiet

    def load(spec, *, weighted=False):
        with Progress(f"loading {spec}", None, show_progress):
            return load_graph(spec, seed=args.seed, weighted=weighted,
                              undirected=getattr(args, "undirected", False))

    try:
        if args.command == "run":
            from .run import run

            return run(args, grid, out, load)
        if args.command == "graph500":
            from .graph500 import graph500

            return graph500(args, grid, out, show_progress)
        if args.command == "info":
            return info(args, grid, out, load)
        from .demo import demo

        return demo(args, grid, out)
    except Interrupted as exc:
        return _end_interrupted(grid, exc)
    except (ConvergenceFailure, NegativeCycleError) as exc:
        # the input was fine; the algorithm's answer is that there is no answer
        if grid.rank == 0:
            print(f"gblas2d: {exc}", file=sys.stderr, flush=True)
        return 1
    except (SpecError, FileNotFoundError, GraphblasException, OSError) as exc:
        # agreed on every rank (the library raises the same error everywhere): a usage error
        if grid.rank == 0:
            print(f"gblas2d: error: {exc}", file=sys.stderr, flush=True)
        return 2
