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

from ..exceptions import IndexOutOfBound, InvalidValue
from ..local import backends
from ..local.device import array_module
from ..local.keys import unique_sorted
from ..local.piece import Piece, PieceMask, Write, place_of
from ..semirings import binary, select
from .products import EdgeSums
from .redistribute import fetch, reduce_duplicates, to_owners

__all__ = ["DistVector", "ewise_piece", "gather", "piece_at_owners", "piece_of", "scatter",
           "write_piece"]


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


    def region(self, positions):
        """This rank's positions among the global ``positions`` (any order, repeats
        allowed), as a piece whose entries are those positions."""
        if self.local_size == self.size:
            # (one rank: every position is this rank's, and the copy keeps the piece made of
            # it apart from the caller's array)
            mine = positions.copy()
        else:
            mine = positions[(positions >= self.offset) &
                             (positions < self.offset + self.local_size)] - self.offset
        # sorted, not hashed: numpy's unique hashes integers, 50x slower on 500K of them
        idx = unique_sorted(mine)
        # kept a list whatever its density: a region is read for its positions
        return Piece.listed(self.local_size, idx, np.ones(len(idx), dtype=bool))

    def delete(self, positions):
        """Collective. Remove the entries at the global ``positions``."""
        region = self.region(positions)
        nothing = Piece.empty(region.size, self.dtype.np_type)
        self.commit(write_piece(self.piece, nothing, PieceMask(region, True, False), None,
                                False, t_masked=True))

    def sub_mask(self, positions, m, structure, complement):
        """Collective (one alltoallv). GxB_subassign's mask, the vector ``m`` over
        ``len(positions)`` places, moved to this vector's ``positions``: the ``PieceMask``
        of GrB_assign that bars the region's positions the sub-mask does not allow."""
        idx, vals = m.host_piece().entries()
        dest = positions[(idx if structure else idx[vals != 0]) + m.offset]
        dest = to_owners(self.grid, self.grid.owner(self.size, dest), dest)
        allowed = self.region(dest).entries()[0]
        barred = allowed if complement else np.setdiff1d(
            self.region(positions).entries()[0], allowed, assume_unique=True)
        held = Piece.from_entries(self.local_size, barred, np.ones(len(barred), dtype=bool))
        return PieceMask(held, True, True)

    def moved_in(self, v, positions):
        """Collective (one alltoallv). This rank's piece of T for an assign of the vector
        ``v``: its entry i at position ``positions[i]`` of this vector."""
        src, vals = v.host_piece().entries()
        return piece_at_owners(self.grid, self.size, positions[src + v.offset], vals,
                               vals.dtype)

    def scalar_piece(self, value, dtype, region, mask):
        """This rank's piece of T for an assign of the scalar ``value`` (None: no entries,
        so the assign deletes) over ``region`` (None: every position). Under a plain mask
        only the mask's positions can change, and T holds only those."""
        if value is None:
            idx = np.empty(0, dtype=np.int64)
        elif region is not None:
            idx = region.entries()[0]
        elif mask is not None and not mask.complement and mask.on.is_bitmap and \
                mask.on.xp is np:
            # a dense mask: T is the value over the mask's bitmap, no list of positions made
            return Piece(self.local_size, dtype.np_type, present=mask.bitmap(),
                         values=np.full(self.local_size, value, dtype=dtype.np_type),
                         nvals=mask.on.nvals)
        elif mask is not None and not mask.complement:
            idx = mask.positions()
        else:
            idx = None  # every position: T is full, made with no list of positions
        # Made where the positions are (a device piece's mask lists them there); a full
        # vector where the kernels run (PageRank's r' = (1 - d) / n each iteration).
        xp = backends.vector_module() if idx is None else \
            np if type(idx) is np.ndarray else array_module(idx)
        vals = xp.full(self.local_size if idx is None else len(idx),
                       0 if value is None else value, dtype=dtype.np_type)
        if idx is None:
            return Piece.full(vals)
        # a region's T stays a list: it is written at its positions, not read whole
        return Piece.from_entries(self.local_size, idx, vals) if region is None else \
            Piece.listed(self.local_size, idx, vals)

    def assign(self, t, region, mask, accum, replace, *, t_masked=False):
        """Collective. GrB_assign ``C<M, replace>(region) = accum(C(region), T)`` with this
        rank's piece ``t`` of T, ``region`` from ``region()`` (None: every position) and
        the ``PieceMask`` ``mask`` or None. Outside the region C is kept; inside it is T, or
        accum(C, T) with accum (where an accumulated C entry survives even if T has none)."""
        c = self.piece
        if region is None:
            change = write_piece(c, t, mask, accum, replace, t_masked=t_masked)
        elif mask is None and accum is not None:
            change = write_piece(c, t, None, accum, False)
        elif mask is None:
            # C<region> = T: the region's positions become T's. T lies in the region: when it
            # fills it (a scalar assigned), it is its own mask and nothing is cleared first.
            on = t if t.nvals == region.nvals else region
            change = write_piece(c, t, PieceMask(on, True, False), None, False, t_masked=True)
        else:
            if accum is not None:
                z = ewise_piece(c, t, accum, "add", (c.dtype, t.dtype), c.dtype)
            else:
                c_idx, c_vals = c.on_host().entries()
                outside = ~region.contains(c_idx)
                t_idx, t_vals = t.entries()
                z_idx = np.concatenate([c_idx[outside], t_idx])
                z_vals = np.concatenate([c_vals[outside], t_vals.astype(c.dtype, copy=False)])
                order = np.argsort(z_idx, kind="stable")
                z = Piece.from_entries(c.size, z_idx[order], z_vals[order], c.dtype)
            change = write_piece(c, z, mask, None, replace)
        self.commit(change)

    def select_positions(self, op, thunk):
        """This rank's piece of the entries a builtin index test keeps (``indexle``,
        ``indexgt``: a prefix or a suffix of the index space), or None for another op."""
        if op.name not in ("rowle", "rowgt") or getattr(select, op.name).func is not op.func \
                or self.piece.xp is not np:
            return None
        # a position is at most the thunk below ``cut``, local
        cut = min(max(int(np.int64(thunk)) + 1 - self.offset, 0), self.local_size)
        return self.piece.within(0, cut) if op.name == "rowle" else \
            self.piece.within(cut, self.local_size)

    def ewise(self, other, binop, kind, types, out_type, defaults):
        """This rank's piece of an element-wise op ("add", "mult" or "union") of this vector
        and ``other`` (same size and grid)."""
        a, b = self.piece, other.piece
        if binop.index_aware:
            a, b = a.on_host(), b.on_host()
            # A positional op's value is where the entry sits (row i, column 0), the same for
            # both operands; where one operand alone has an entry, ewise_add keeps its value
            # (cast), as GraphBLAS does.
            piece = ewise_piece(a, b, binary.first, kind, types, out_type.np_type, defaults)
            idx, values = piece.entries()
            both = idx if kind != "add" else ewise_piece(
                a, b, binary.first, "mult", types, types[0]).entries()[0]
            zeros = np.zeros(len(both), dtype=np.int64)
            values = values.astype(out_type.np_type)
            values[np.searchsorted(idx, both)] = binop.evaluate(
                zeros, zeros, both + self.offset, zeros, both + self.offset, zeros)
            return piece.with_values(values)
        return ewise_piece(a, b, binop, kind, types, out_type.np_type, defaults)

def write_piece(c, t, mask, accum, replace, *, t_masked=False):
    """GraphBLAS's write on this rank's pieces, by the backend's piece kernel."""
    return backends.piece_kernel("write_piece")(c, t, mask, accum, replace, t_masked=t_masked)


def ewise_piece(a, b, binop, kind, in_types, out_type, defaults=(None, None)):
    """An element-wise op of two pieces, by the backend's piece kernel."""
    return backends.piece_kernel("ewise_piece")(a, b, binop, kind, in_types, out_type, defaults)


def piece_of(grid, size, local_idx, values, dtype):
    """This rank's piece of a length-``size`` vector from its entries: sorted unique local
    positions and their values."""
    lo, hi = grid.piece(size)
    return Piece.from_entries(hi - lo, local_idx, values, dtype)


def piece_at_owners(grid, size, positions, values, dtype, *, dup=None):
    """Collective (one alltoallv). This rank's piece of a length-``size`` vector holding the
    entries every rank gives at global ``positions``: each is sent to the rank owning its
    position and sorted there, duplicates combined by the Monoid ``dup`` (None: the positions
    are unique)."""
    if grid.comm.size > 1:
        positions, values = to_owners(grid, grid.owner(size, positions), positions, values)
    lo, hi = grid.piece(size)
    positions = positions - lo
    # Often sorted already: pieces arrive in rank order, each in its own order.
    if len(positions) > 1 and not np.all(positions[1:] >= positions[:-1]):
        order = np.argsort(positions, kind="stable")
        positions, values = positions[order], values[order]
    if dup is not None:
        positions, values = reduce_duplicates(positions, values, dup)
    return Piece.from_entries(hi - lo, positions, values, dtype)


def gather(a, index):
    """Collective (two alltoallv rounds). This rank's piece of ``out[k] = a[index[k]]`` for
    the entries of the integer vector ``index``; one pointing at no entry of ``a`` gives
    none."""
    index_piece, piece = _pieces_to_send(index, a)
    k, targets = index_piece.entries()
    targets = targets.astype(np.int64)
    bad = (targets < 0) | (targets >= a.size)
    with a.grid.comm.agreed():
        if bad.any():
            raise IndexOutOfBound(f"gather index {int(targets[bad][0])} out of range "
                                  f"for Vector of size {a.size}")
    found, vals = fetch(a.grid, a.size, targets, a.offset, piece)
    return Piece.from_entries(index_piece.size, k[found], vals[found], a.dtype.np_type)


def scatter(a, index, size, mon):
    """Collective (one alltoallv). This rank's piece of ``out[index[k]] (+)= a[k]`` in a
    vector of ``size``, entries sent to one position combined by the Monoid ``mon``."""
    piece, index_piece = _pieces_to_send(a, index)
    k, own = piece.entries()
    has_dest, dest = index_piece.lookup(k)
    own, dest = own[has_dest], dest[has_dest].astype(np.int64)
    bad = (dest < 0) | (dest >= size)
    with a.grid.comm.agreed():
        if bad.any():
            raise IndexOutOfBound(f"scatter index {int(dest[bad][0])} out of range "
                                  f"for size {size}")
    return piece_at_owners(a.grid, size, dest, own, a.dtype.np_type, dup=mon)


def _pieces_to_send(*vectors):
    """The pieces of ``vectors`` for a gather or scatter: in host memory, where entries travel
    between ranks; on one rank, where they are (together on the device when one is there),
    since nothing travels."""
    if vectors[0].grid.comm.size > 1:
        return [v.host_piece() for v in vectors]
    xp = place_of(*(v.piece for v in vectors))
    return [v.piece.on(xp) for v in vectors]
