"""The ``gblas2d`` command (also ``python -m gblas2d``). Rank 0 prints; every command runs
unchanged under ``mpiexec -n P``.

    gblas2d                                  the demo job on a generated graph
    gblas2d run ALGO --graph SPEC [...]      one algorithm on one graph (ALGO: a built-in
                                             one, or FILE.py:FUNCTION, a function of your own)
    gblas2d graph500 --scale S               the Graph 500 BFS benchmark
    gblas2d info --graph SPEC                sizes, degrees, blocks per rank and balance
    gblas2d model --graph SPEC --grids 64x64 a BFS's blocks and bytes per rank, computed

Bad options and missing files give a one-line error from rank 0 and exit code 2 on every rank.
Any other exception on any rank ends the whole MPI job with its message rather than leaving it
hanging. Ctrl-C or SIGTERM ends the run with one line and exit code 128 + the signal, and leaves
no temporary file of ``--output`` (a later write removes those of runs killed with SIGKILL). A
reader of standard output that leaves early (``| head``) gets no traceback: the rest of the
output is dropped, the run ends in step with the other ranks, and the exit code is 141
(128 + SIGPIPE), as for a tool that SIGPIPE ends.
"""

import argparse
import ast
import importlib.metadata
import os
import signal
import sys
import time

import numpy as np

from ..algorithms import NegativeCycleError
from ..distributed.comm import mpi_world
from ..distributed.grid import Grid, set_default_grid
from ..exceptions import ConvergenceFailure, GraphblasException
from ..local import backends
from .graphs import MAX_SCALE
from .output import CLOSED_PIPE_EXIT, Stream, point_at_devnull

__all__ = ["main"]


UNDIRECTED_HELP = ("read an edge-list file's lines as undirected edges, each both ways, and so "
                   "a Graphalytics graph without .properties (a Matrix Market file or a "
                   ".properties states its own symmetry; generated graphs are undirected "
                   "already)")
GRAPH_HELP = ("a file (.mtx, .mtx.gz, .npz, edge list, or a Graphalytics .v, .e or .properties) "
              "or kron:SCALE[:EF], er:N:M, grid:R:C")


def version():
    """The installed version of gblas2d, from its package metadata."""
    try:
        return importlib.metadata.version("gblas2d")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


def _first_rank():
    # before the grid exists: every rank parses the same command line and fails alike, and the
    # first rank of the job says so (one process alone needs no MPI to know it is the first)
    world = mpi_world()
    return world is None or world.Get_rank() == 0


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are one line, from the first rank only, with exit
    code 2, as the command's other usage errors are."""

    def error(self, message):
        if _first_rank():
            print(f"gblas2d: error: {message} (see {self.prog} --help)", file=sys.stderr,
                  flush=True)
        sys.exit(2)


def _grid_shape(text):
    try:
        r, c = (int(t) for t in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must look like 2x3, got {text!r}") from None
    return r, c


def _param(text):
    """An argparse type: NAME=VALUE, the value read as a Python literal (4, 0.5, [1, 2], True,
    'text'), else kept as the text (--param method=fast)."""
    name, equals, value = text.partition("=")
    name = name.strip()
    if not equals or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"must look like NAME=VALUE with NAME a Python "
                                         f"identifier, got {text!r}")
    try:
        return name, ast.literal_eval(value.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return name, value


def _grid_list(text):
    return [_grid_shape(part) for part in text.split(",")]


def _integer(low, high=None):
    """An argparse type: an integer in [low, high]."""
    def integer(text):
        value = int(text)
        if value < low or high is not None and value > high:
            bounds = f"at least {low}" if high is None else f"between {low} and {high}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value
    return integer


SCALE = _integer(0, MAX_SCALE)


def _algorithm(text):
    """An argparse type: the name of a built-in algorithm, or FILE:FUNCTION (user code)."""
    from .algorithms import ALGORITHMS

    if text in ALGORITHMS:
        return text
    path, colon, function = text.rpartition(":")
    if colon and path and function.isidentifier():
        return text
    if colon:
        raise argparse.ArgumentTypeError(f"{text!r}: expected FILE.py:FUNCTION, a file and the "
                                         "name of a function in it")
    hint = f"; name the function too, {text}:FUNCTION" if text.endswith(".py") else ""
    raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from "
                                     f"{', '.join(sorted(ALGORITHMS))}, or FILE.py:FUNCTION"
                                     f"{hint})")


def _method_help():
    from .algorithms import ALGORITHMS

    choices = "; ".join(f"{name}: {spec.methods[0]} (default), {', '.join(spec.methods[1:])}"
                        for name, spec in sorted(ALGORITHMS.items()) if spec.methods)
    return f"variant of the algorithm, for {choices}"


def _parser():
    from .algorithms import ALGORITHMS

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--grid", type=_grid_shape, default=None,
                        help="process grid RxC, e.g. 2x3 (default: GBLAS2D_GRID, else the "
                             "most square)")
    common.add_argument("--seed", type=_integer(0), default=1,
                        help="seed of generated graphs and of random choices (sources, samples, "
                             "relabeling; default 1)")
    common.add_argument("--quiet", action="store_true",
                        help="no progress display (shown only on a terminal)")
    # the description is the module docstring's first paragraph, without its reST markup
    parser = Parser(prog="gblas2d", description=__doc__.split("\n\n")[0].replace("``", ""),
                    parents=[common])
    parser.add_argument("--version", action="version", version=f"gblas2d {version()}")
    sub = parser.add_subparsers(dest="command")
    for p in (parser, sub.add_parser("demo", parents=[common], help="the demo job (default)")):
        p.add_argument("--scale", type=SCALE, default=14,
                       help="log2 of the vertex count (default 14)")
        p.add_argument("--edge-factor", type=_integer(1), default=16,
                       help="edges per vertex (default 16)")
    run = sub.add_parser("run", parents=[common], help="run one algorithm on one graph")
    run.add_argument("algorithm", type=_algorithm, metavar="ALGO",
                     help=f"one of {', '.join(sorted(ALGORITHMS))} (not pointer_jumping: it "
                          f"takes a parent Vector, not a graph; connected_components --method "
                          f"fastsv runs it); or FILE.py:FUNCTION, a function of your own, "
                          f"called on every rank as FUNCTION(A, **options) with the graph's "
                          f"Matrix and the options below that are given, returning a Vector "
                          f"(one value per vertex), a Matrix or a number")
    run.add_argument("--graph", required=True, help=GRAPH_HELP)
    run.add_argument("--undirected", action="store_true", help=UNDIRECTED_HELP)
    # The options below default to None: an algorithm that does not read one refuses it, and
    # the defaults the help names are filled in afterwards (algorithms.OPTIONS).
    run.add_argument("--source", type=int, default=None,
                     help="BFS / SSSP source (default: the vertex of largest degree); "
                          "betweenness_centrality: its one source (default: every vertex); "
                          "an id of the .v file for a Graphalytics graph")
    run.add_argument("--method", default=None, metavar="METHOD", help=_method_help())
    run.add_argument("--damping", type=float, default=None,
                     help="pagerank: the damping factor, in [0, 1) (default 0.85)")
    run.add_argument("--tol", type=float, default=None,
                     help="pagerank: stop once the ranks change by less than this, summed over "
                          "the vertices (default 1e-4)")
    run.add_argument("--max-iter", type=int, default=None,
                     help="pagerank, label_propagation: iterations at most (default: pagerank "
                          "100, label_propagation 10)")
    run.add_argument("--iterations", type=int, default=None,
                     help="pagerank: run exactly this many iterations, with no convergence "
                          "check (LDBC Graphalytics' num-iterations)")
    run.add_argument("--colors", type=int, default=None,
                     help="fused_bpt: random sources, one sample each (default 64)")
    run.add_argument("--seeds", type=int, default=None,
                     help="influence_maximization: seed vertices to choose (default 10)")
    run.add_argument("--samples", type=int, default=None,
                     help="influence_maximization: RRR sets sampled (default 4096)")
    run.add_argument("--probability", default=None,
                     help="fused_bpt, influence_maximization: edge activation probability in "
                          "[0, 1], or 'weight' for each edge's weight (default 0.1)")
    run.add_argument("--delta", type=float, default=None,
                     help="sssp --method delta_stepping: the bucket width (default: the mean "
                          "edge weight)")
    run.add_argument("--param", type=_param, action="append", default=None,
                     metavar="NAME=VALUE",
                     help="FILE.py:FUNCTION only: pass NAME=VALUE to FUNCTION by keyword, "
                          "VALUE read as a Python literal (4, 0.5, [1, 2], True, 'x'), else "
                          "as text; repeat it for each parameter")
    run.add_argument("--weights", choices=("one", "uniform"), default=None,
                     help="the edge weights of a generated graph: one, or uniform (random in "
                          "[0, 1), drawn from --seed, the same at any rank count); default "
                          "uniform for sssp and --probability weight, else one")
    run.add_argument("--output", default=None, metavar="PATH",
                     help="write the result, by the extension: .csv (a vertex,VALUE header), "
                          ".json ({\"vertex\": [...], VALUE: [...]}), .mtx (Matrix Market, an "
                          "n x 1 column), .npz (indices and values arrays), anything else "
                          "'vertex value' lines, and - those lines on standard output; "
                          "vertices by their .v ids for a Graphalytics graph")
    run.add_argument("--json", default=None, metavar="PATH",
                     help="write a summary of the run as JSON (- for standard output): graph, "
                          "grid, options, seconds, iterations, figures, check, and the trace "
                          "with --trace")
    run.add_argument("--relabel", action="store_true",
                     help="run on a randomly relabeled graph for load balance, output in the "
                          "input's labels (refused by fused_bpt, influence_maximization and "
                          "label_propagation, whose answers depend on the ids)")
    run.add_argument("--check", action="store_true",
                     help="compare with a reference: SciPy, numpy or networkx (graphs up to "
                          "131072 vertices; fewer for some algorithms)")
    run.add_argument("--trace", action="store_true",
                     help="per product: direction, frontier, exchange format, bytes per group; "
                          "then per iteration, over every rank: calls and bytes received per "
                          "group (max and mean over the ranks), seconds")
    run.add_argument("--plot", default=None, metavar="PATH",
                     help="write the trace of every rank per iteration as a PNG: frontier, "
                          "direction, bytes per group (max and mean over the ranks), seconds "
                          "(needs matplotlib: pip install 'gblas2d[plot]')")
    g500 = sub.add_parser("graph500", parents=[common], help="the Graph 500 BFS benchmark")
    g500.add_argument("--scale", type=SCALE, required=True,
                      help="log2 of the vertex count: the graph has 2**SCALE vertices")
    g500.add_argument("--edge-factor", type=_integer(1), default=16,
                      help="edges per vertex (default 16)")
    g500.add_argument("--roots", type=_integer(1), default=64,
                      help="BFS roots, drawn among the vertices with an edge (default 64)")
    mod = sub.add_parser("model", parents=[common],
                         help="the scale model: a BFS's blocks and bytes per rank on grids of "
                              "any size, computed in one process")
    mod.add_argument("--graph", required=True, help=GRAPH_HELP)
    mod.add_argument("--undirected", action="store_true", help=UNDIRECTED_HELP)
    mod.add_argument("--grids", type=_grid_list, default=[(2, 2), (8, 8), (64, 64)],
                     help="comma-separated grids RxC (default 2x2,8x8,64x64)")
    mod.add_argument("--source", type=int, default=None,
                     help="BFS source (default: the vertex of largest degree)")
    mod.add_argument("--json", default=None, help="write the counts to this JSON file")
    info = sub.add_parser("info", parents=[common], help="describe a graph")
    info.add_argument("--graph", required=True, help=GRAPH_HELP)
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


def _env_grid():
    text = os.environ.get("GBLAS2D_GRID")
    return _grid_shape(text) if text else None


def main(argv=None):
    """The command; its exit code. A reader of standard output that leaves early (| head)
    makes it 141, as SIGPIPE would (output.py)."""
    try:
        return _main(sys.argv[1:] if argv is None else list(argv))
    except BrokenPipeError:
        # what argparse prints (help, usage) into such a reader
        point_at_devnull(sys.stdout)
        return CLOSED_PIPE_EXIT


def _main(argv):
    args = _parser().parse_args(argv)
    args.argv = argv
    # the shape comes from --grid, else from the environment: an error names its source
    where = "--grid" if args.grid is not None else "GBLAS2D_GRID"
    try:
        grid = Grid(shape=args.grid or _env_grid())
    except (ValueError, argparse.ArgumentTypeError) as exc:
        # the process count is the same on every rank, so every rank fails here alike
        if _first_rank():
            print(f"gblas2d: error: {where}: {exc}", file=sys.stderr, flush=True)
        return 2
    set_default_grid(grid)
    _abort_on_uncaught(grid)
    handlers = {signum: signal.signal(signum, _interrupt)
                for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        return _command(args, grid)
    finally:
        # as they were: main may be called in a process that goes on (tests)
        for signum, handler in handlers.items():
            signal.signal(signum, handler)


def _command(args, grid):
    stdout, stderr = Stream(sys.stdout), Stream(sys.stderr)
    # with the result or the summary on standard output, the report goes to standard error
    to_stdout = "-" in (getattr(args, "output", None), getattr(args, "json", None))
    report = stderr if to_stdout else stdout

    def out(text):
        if grid.rank == 0:
            report.line(text)

    from .graphs import SpecError, load_graph
    from .progress import Progress
    from .user import UserCodeError

    show_progress = grid.rank == 0 and not args.quiet

    def load(spec, *, weighted=False):
        with Progress(f"loading {spec}", None, show_progress):
            return load_graph(spec, seed=args.seed, weighted=weighted,
                              undirected=getattr(args, "undirected", False))

    try:
        if args.command == "run":
            from .run import run

            status = run(args, grid, out, load, show_progress, stdout)
        elif args.command == "graph500":
            from .graph500 import graph500

            status = graph500(args, grid, out, show_progress)
        elif args.command == "info":
            status = info(args, grid, out, load)
        elif args.command == "model":
            from .model import model

            status = model(args, grid, out, load)
        else:
            from .demo import demo

            status = demo(args, grid, out)
    except Interrupted as exc:
        return _end_interrupted(grid, exc)
    except (ConvergenceFailure, NegativeCycleError) as exc:
        # the input was fine; the algorithm's answer is that there is no answer
        if grid.rank == 0:
            print(f"gblas2d: {exc}", file=sys.stderr, flush=True)
        return 1
    except (SpecError, UserCodeError, FileNotFoundError, GraphblasException, OSError) as exc:
        # agreed on every rank (the library raises the same error everywhere): a usage error
        if grid.rank == 0:
            print(f"gblas2d: error: {exc}", file=sys.stderr, flush=True)
        return 2
    except MemoryError as exc:
        # agreed too: a size the input declares that this machine cannot hold
        if grid.rank == 0:
            print(f"gblas2d: error: out of memory: {exc}", file=sys.stderr, flush=True)
        return 2
    return CLOSED_PIPE_EXIT if stdout.closed or stderr.closed else status
