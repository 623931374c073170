"""The 2D layer's vector: what a distributed Vector is, apart from python-graphblas's surface.

A ``DistVector`` holds this rank's piece of a length-``size`` index space (``grid.piece``), where
that piece starts, the number of entries every rank agreed on, and the degree sums of its
entries that the next product reads for its push/pull choice (``products.EdgeSums``). It owns
the one write ``C<M, accum, replace> = T``: each rank computes its piece's ``Write``, one world
step agrees success and the new nvals (with the degree sums riding along), and only then is the
piece installed, so a failure on any rank leaves the vector unchanged on every rank.

The products, the exchange and the element-wise ops read it; the surface's ``Vector`` holds one
and adds python-graphblas's behaviour (expressions, infix, views, reprs).
"""

import numpy as np

from ..exceptions import InvalidValue
from ..local import backends
from ..local.piece import Piece, Write
from .products import EdgeSums
from .redistribute import reduce_duplicates

__all__ = ["DistVector"]


class DistVector:
    """One rank's part of a distributed vector (see the module docstring).

    Parameters
    ----------
    grid : Grid
    size : int
        The length of the index space, replicated.
    dtype : DataType
    """

    __slots__ = ("grid", "size", "dtype", "offset", "piece", "nvals", "edges")

    def __init__(self, grid, size, dtype):
        self.grid, self.size, self.dtype = grid, size, dtype
        self.offset, hi = grid.piece(size)
        # this rank's entries (``local.piece``), where the kernel that made them left them
        self.piece = Piece.empty(hi - self.offset, dtype.np_type)
        self.nvals = 0  # agreed by every rank
        self.edges = None  # the agreed ``EdgeSums`` of the entries, or None

    @property
    def shape(self):
        return (self.size,)

    @property
    def local_size(self):
        """The positions of this rank's piece."""
        return self.piece.size

    def host_piece(self):
        """This rank's piece in host memory (a device's copied up, counted)."""
        return self.piece.on_host()

    def commit(self, change, *, resized=False):
        """Collective. Install a ``Write`` once every rank has computed its own. A rank that
        failed makes the step with its flag (the comm layer's drain), so every rank raises and
        the vector is left unchanged. The step is final: nothing after it can fail. It also
        agrees the degree sums of the new entries (``EdgeSums``), so that the next product's
        push/pull choice needs no step of its own."""
        edges = None if resized else EdgeSums.of_write(self, change)
        lanes = [change.nvals] if edges is None else [change.nvals, *edges.lanes()]
        total = self.grid.comm.step(lanes, final=True)
        self.piece = change.install()
        self.nvals = int(total[0])
        self.edges = None if edges is None else edges.agreed(total[1:])

    def write(self, t, mask, accum, replace, *, t_masked=False, borrowed=False):
        """Collective. ``C<M, replace> = accum(C, T)`` with this rank's piece ``t`` of T, a
        ``PieceMask`` or None, and a BinaryOp or None; ``t_masked`` says that T holds only
        positions the mask allows, ``borrowed`` that T is another vector's own piece, which C
        must not come to share."""
        change = write_piece(self.piece, t, mask, accum, replace, t_masked=t_masked)
        if borrowed and change.piece is not None and change.piece.shares_memory(t):
            change.piece = change.piece.copy()
        self.commit(change)

    def fill(self, local_idx, values, dup):
        """Collective. Set the entries from local positions and values (any order), the
        duplicates combined with the monoid ``dup`` (None: refused, InvalidValue)."""
        order = np.argsort(local_idx, kind="stable")
        local_idx, values = local_idx[order], values[order]
        if len(local_idx) > 1 and (local_idx[1:] == local_idx[:-1]).any():
            if dup is None:
                raise InvalidValue("Duplicate indices found; give dup_op to combine them")
            local_idx, values = reduce_duplicates(local_idx, values, dup)
        piece = Piece.from_entries(self.local_size, local_idx, values, self.dtype.np_type)
        self.commit(Write(piece.nvals, piece=piece))

    def clear(self):
        """Local. No entries (nvals 0 on every rank, as every rank calls it)."""
        self.piece = Piece.empty(self.local_size, self.dtype.np_type)
        self.nvals = 0
        self.edges = None

    def resized(self, size, piece):
        """Collective. The vector over ``size`` positions, holding ``piece`` (this rank's share
        of the new index space)."""
        self.commit(Write(piece.nvals, piece=piece), resized=True)
        self.size, self.offset = size, self.grid.piece(size)[0]


def write_piece(c, t, mask, accum, replace, *, t_masked=False):
    """GraphBLAS's write on this rank's pieces, by the backend's piece kernel."""
    return backends.piece_kernel("write_piece")(c, t, mask, accum, replace, t_masked=t_masked)


def ewise_piece(a, b, binop, kind, in_types, out_type, defaults=(None, None)):
    """An element-wise op of two pieces, by the backend's piece kernel."""
    return backends.piece_kernel("ewise_piece")(a, b, binop, kind, in_types, out_type, defaults)
