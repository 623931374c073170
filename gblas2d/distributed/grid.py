"""The R x C process grid and the one distribution rule.

A length-n index space is cut into P contiguous pieces whose sizes differ by at most one; piece k
belongs to rank k. Rank k sits at grid position (k // C, k % C). A matrix's row block i is pieces
[i*C, (i+1)*C) of its row space and its column block j is pieces [j*R, (j+1)*R) of its column
space; rank (i, j) stores block (i, j). Every function here is arithmetic on (n, grid): ownership
never needs communication.
"""

import functools
import os

import numpy as np

from .caller import Call, current, identity
from .comm import Comm, mpi_world, stats

__all__ = ["Grid", "Layout", "collective", "default_grid", "set_default_grid"]


def _most_square(p):
    r = int(np.sqrt(p))
    while p % r:
        r -= 1
    return r, p // r


def _shape_from_env(p):
    text = os.environ.get("GBLAS2D_GRID")
    if not text:
        return None
    try:
        r, c = (int(t) for t in text.lower().split("x"))
    except ValueError as exc:
        raise ValueError(f"GBLAS2D_GRID must look like '2x3', got {text!r}") from exc
    return r, c


class Layout:
    """Where everything lives on an R x C grid, seen from one rank: pure arithmetic, no
    communicator. ``Grid`` is a Layout with its communicators; a Layout alone is a virtual
    rank, for computing what rank (i, j) of a grid of any size would hold (the scale model,
    ``benchmarks/bench_hypersparse.py``) without MPI.

    Examples
    --------
    >>> Layout((64, 64), 65).row_block(2**20)
    (16384, 32768)
    """

    def __init__(self, shape, rank):
        nrows, ncols = (int(s) for s in shape)
        if nrows < 1 or ncols < 1 or not 0 <= rank < nrows * ncols:
            raise ValueError(f"no rank {rank} on a {nrows}x{ncols} grid")
        self.shape = (nrows, ncols)
        self.nprocs = nrows * ncols
        self.rank = rank
        self.myrow, self.mycol = divmod(rank, ncols)
        self._offsets = {}

    def describe(self):
        """The grid in words that are the same on every rank (for messages)."""
        return f"a {self.nrows}x{self.ncols} grid"

    @property
    def nrows(self):
        return self.shape[0]

    @property
    def ncols(self):
        return self.shape[1]

    def offsets(self, n):
        """Start of each of the P pieces of a length-n space, plus n at the end."""
        off = self._offsets.get(n)
        if off is None:
            p = self.nprocs
            k = np.arange(p + 1, dtype=np.int64)
            off = k * (n // p) + np.minimum(k, n % p)
            self._offsets[n] = off
        return off

    def piece(self, n, k=None):
        """(lo, hi) of piece k (default: this rank's piece) of a length-n space."""
        off = self.offsets(n)
        k = self.rank if k is None else k
        return int(off[k]), int(off[k + 1])

    def owner(self, n, index):
        """The piece (= owning rank) of each global index; vectorized."""
        p = self.nprocs
        q, r = divmod(n, p)
        index = np.asarray(index, dtype=np.int64)
        boundary = r * (q + 1)
        head = index // (q + 1)
        if q == 0:
            return head
        return np.where(index < boundary, head, r + (index - boundary) // q)

    def row_block(self, n, i=None):
        """(lo, hi) of row block i (default: this rank's grid row) of a length-n row space."""
        i = self.myrow if i is None else i
        off, c = self.offsets(n), self.ncols
        return int(off[i * c]), int(off[(i + 1) * c])

    def col_block(self, n, j=None):
        """(lo, hi) of column block j (default: this rank's grid column) of a column space."""
        j = self.mycol if j is None else j
        off, r = self.offsets(n), self.nrows
        return int(off[j * r]), int(off[(j + 1) * r])

    def row_block_starts(self, n):
        """Where each of the R row blocks of a length-n row space starts, plus n at the end."""
        return self.offsets(n)[::self.ncols]

    def col_block_starts(self, n):
        """Where each of the C column blocks of a length-n column space starts, plus n."""
        return self.offsets(n)[::self.nrows]

    def entry_owner(self, nrows, ncols, rows, cols):
        """Rank that stores matrix entry (row, col); vectorized."""
        if self.nprocs == 1:
            return np.zeros(np.shape(rows), dtype=np.int64)
        return (self.owner(nrows, rows) // self.ncols) * self.ncols + \
            self.owner(ncols, cols) // self.nrows

    def col_position(self, k):
        """Grid rank (t, j) that piece k occupies when pieces are laid along grid columns;
        vectorized."""
        j, t = divmod(k, self.nrows)
        return t * self.ncols + j

    def col_piece(self):
        """The piece that sits at this rank's grid position (t, j) when pieces are laid along
        grid columns: ``j * R + t`` (the inverse of ``col_position``)."""
        return self.mycol * self.nrows + self.myrow

    def row_block_of(self, n, index):
        """The grid row whose row block holds each global index; vectorized."""
        if self.nrows == 1:
            return np.zeros(np.shape(index), dtype=np.int64)
        return self.owner(n, index) // self.ncols

    def col_block_of(self, n, index):
        """The grid column whose column block holds each global index; vectorized."""
        if self.ncols == 1:
            return np.zeros(np.shape(index), dtype=np.int64)
        return self.owner(n, index) // self.nrows

    def blocks_of_piece(self, k):
        """(the grid row whose row blocks hold piece k of a row space, the grid column whose
        column blocks hold piece k of a column space): a row block is C pieces, a column
        block R (SUMMA's stage k broadcasts from these)."""
        return k // self.ncols, k // self.nrows

    def segment_pieces(self, axis):
        """The pieces of this rank's row segment ("row": pieces [i*C, (i+1)*C), held along
        its grid row) or column segment ("col": pieces [j*R, (j+1)*R)), in group order."""
        r, c = self.shape
        if axis == "row":
            return [self.myrow * c + k for k in range(c)]
        return [self.mycol * r + t for t in range(r)]

    def segment_is_local(self, axis):
        """Whether this rank's row ("row") or column ("col") segment is its own piece alone:
        nothing travels to gather it or to fold into it."""
        return (self.nrows if axis == "col" else self.ncols) == 1


class Grid(Layout):
    """An R x C grid of MPI ranks with its row and column communicators.

    Collective (builds the row and column communicators with ``Split``).

    Parameters
    ----------
    comm : mpi4py communicator, optional
        Default ``comm.mpi_world()``: ``MPI.COMM_WORLD`` under a launcher of several
        processes, else none, and one process runs without MPI (mpi4py is not imported).
    shape : (int, int), optional
        (R, C) with R * C equal to the communicator size. Default: the ``GBLAS2D_GRID``
        environment variable (``"2x3"``), else the most square factorization, R <= C.

    Examples
    --------
    >>> g = Grid(shape=(1, 1))
    >>> g.shape, g.rank
    ((1, 1), 0)
    """

    def __init__(self, comm=None, shape=None):
        if comm is None:
            comm = mpi_world()
        size = 1 if comm is None else comm.Get_size()
        shape = shape or _shape_from_env(size) or _most_square(size)
        nrows, ncols = (int(s) for s in shape)
        if nrows * ncols != size or nrows < 1:
            raise ValueError(f"grid shape {nrows}x{ncols} does not match {size} processes")
        super().__init__((nrows, ncols), 0 if comm is None else comm.Get_rank())
        self._mpi_comm = comm
        if size == 1:
            self.comm = Comm(None, "world")
            self.row_comm = Comm(None, "row")
            self.col_comm = Comm(None, "col")
            self.transpose_comm = Comm(None, "transpose")
            return
        self.comm = Comm(comm, "world")
        self.row_comm = Comm(comm.Split(self.myrow, self.mycol), "row", self.comm,
                             [self.myrow * ncols + c for c in range(ncols)])
        self.col_comm = Comm(comm.Split(self.mycol, self.myrow), "col", self.comm,
                             [r * ncols + self.mycol for r in range(nrows)])
        # The ranks that pass pieces round when they are laid along grid columns: the cycle of
        # col_position through this rank (a pair when R == C, this rank alone when R or C is 1).
        cycle = [self.rank]
        while (k := int(self.col_position(cycle[-1]))) != self.rank:
            cycle.append(k)
        self.transpose_comm = Comm(comm.Split(min(cycle), self.rank), "transpose", self.comm,
                                   sorted(cycle))
        _distributed[0] = True

    def __repr__(self):
        return f"Grid(shape={self.shape}, rank={self.rank})"

    def same_as(self, other):
        """Whether objects on grid ``other`` may meet objects on this one in an operation: the
        same grid, one of the same shape over the same communicator (ownership is then the
        same), or two one-process grids."""
        return other is self or (isinstance(other, Grid) and other.shape == self.shape and (
            other._mpi_comm is self._mpi_comm or self.nprocs == 1))

    def lay_along_columns(self, message, home=False):
        """Collective over ``transpose_comm``. Piece k's ``message`` moves from rank k to grid
        position ``col_position(k)``, and this rank receives the message of the piece that
        sits at its position; ``home``: the way back."""
        group = self.transpose_comm
        there, here = group.members.index(int(self.col_position(self.rank))), \
            group.members.index(self.col_piece())
        return group.sendrecv(message, here, there) if home else \
            group.sendrecv(message, there, here)


_default = []
# The active gb.Recorder objects (recorder.py), which hear of every outermost public call.
recorders = []
_recording = [False]
# Whether a grid of several ranks exists: until then a public call needs no agreement.
_distributed = [False]
# Whether a public collective call is under way (the calls it makes are part of it).
_inside = [False]


def collective(function):
    """Decorate a public collective call so that its boundary is agreed: it ends the same way
    on every rank. An exception on some ranks is raised, with the same class and message, on
    all of them, whether it happened before, between or after the call's collectives (the
    comm layer's drain, ``Comm.settle``); the calls it makes inside are part of it. A call
    whose last act was a final step (the agreed nvals of a write) ends there. The call is
    ``caller.current`` until it ends: the world steps it makes compare it across ranks."""
    number = identity(function)

    @functools.wraps(function)
    def call(*args, **kwargs):
        if not _default:
            default_grid()  # a program's first call: so that it knows whether ranks are many
        if recorders and not _recording[0]:
            return _recorded(call, function.__qualname__, args, kwargs)
        if _inside[0] or not _distributed[0]:
            return function(*args, **kwargs)
        _inside[0] = True
        current[0] = Call(function, args, kwargs, number)
        try:
            failure = result = None
            before = _world_of(args, kwargs)
            since = before.state.seq
            try:
                result = function(*args, **kwargs)
            except Exception as exc:
                failure = exc
            finally:
                _inside[0] = False
            world = _world_of((result, *args), kwargs)
            if failure is None and world is before and world.ended_agreed(since):
                return result
            world.settle(failure, final=True)
            return result
        finally:
            current[0] = None

    return call


def _recorded(call, name, args, kwargs):
    """``call`` told to every active Recorder, with its arguments, its result (None if it
    raised) and the collectives it makes."""
    before = {key: list(row) for key, row in stats().totals.items()}
    _recording[0] = True
    result = None
    try:
        result = call(*args, **kwargs)
        return result
    finally:
        _recording[0] = False
        after = stats().totals
        for recorder in list(recorders):
            recorder.record_call(name, args, kwargs, result, before, after)


def _world_of(args, kwargs):
    """The world communicator of the grid a call works on: its first operand's, the one it
    is given, or the default."""
    for arg in (*args, *kwargs.values()):
        grid = arg if isinstance(arg, Grid) else getattr(arg, "grid", None)
        if isinstance(grid, Grid):
            return grid.comm
    return default_grid().comm


def default_grid():
    """The grid objects use when none is given (built on first use over ``mpi_world()``)."""
    if not _default:
        _default.append(Grid())
    return _default[0]


def set_default_grid(grid):
    """Make ``grid`` the default for objects built from now on; returns the previous one."""
    previous = _default[0] if _default else None
    _default[:] = [grid]
    return previous
