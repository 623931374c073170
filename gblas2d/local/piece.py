"""A Vector's local piece, held sparse or as a bitmap as its density asks.

* sparse: sorted unique local positions ``idx`` and their values ``vals``; memory and work
  O(nvals).
* bitmap: ``present`` (bool) and ``values`` over every position of the piece; a lookup is O(1)
  and writing k positions is O(k), in place.

A piece turns into a bitmap above 1/64 density and back to sparse below 1/256 (SuiteSparse
switches its vector formats the same way, with a gap so a format does not flip at every
write). The switch is that early because a large sorted list is slow to grow and to probe: a
BFS's visited set is written k positions a level and read as the next level's mask, which a
bitmap does in O(k) and a list in O(visited) (2D mesh 2000², 4,000 levels: 2.6x the time of
SuiteSparse with the switch at 1/16, 1.6x at 1/64).

Readers go through ``entries``, ``contains`` and ``lookup``, which cost O(entries asked for)
in either format; a sparse piece's bitmap is built only by callers whose work is
dense anyway.

A piece's arrays are numpy's, or a device's where the array backend's kernel made it (cupy's,
or the host twin's: ``device.py``); every method runs on either (``xp``), and ``on`` /
``on_host`` move a piece. Pieces given to ``write`` and ``ewise`` are in one place
(``together`` brings them to ``place_of`` them).

``write`` is GraphBLAS's output rule ``C<M, replace> = accum(C, T)`` on pieces. It returns a
``Write``: the local nvals it will leave, and how to install it (a new piece, or a patch of the
positions it touches when C is a bitmap), so the caller can agree on success with the other
ranks before anything changes.
"""

import numpy as np

from ..semirings import binary as builtin_binary
from ..semirings._numeric import cast
from . import device
from .device import array_module
from .keys import fold_until, write_sorted

__all__ = ["Piece", "PieceMask", "Write", "accumulated", "ewise", "place_of", "together",
           "write"]

_TO_BITMAP = 64
_TO_SPARSE = 256
# An operand below this density is read as a sparse list (see ``compact``).
_OPERAND_SPARSE = 16


def _is_dense(nvals, size, was_bitmap):
    """Whether ``nvals`` entries of ``size`` positions belong in a bitmap."""
    return nvals * (_TO_SPARSE if was_bitmap else _TO_BITMAP) > size


class Piece:
    """The entries of one rank's piece of a Vector (see the module docstring)."""

    __slots__ = ("size", "nvals", "dtype", "idx", "vals", "present", "values")

    def __init__(self, size, dtype, *, idx=None, vals=None, present=None, values=None,
                 nvals=None):
        self.size = int(size)
        self.dtype = np.dtype(dtype)
        self.idx, self.vals = idx, vals
        self.present, self.values = present, values
        if present is None:
            self.nvals = len(idx)
        else:
            self.nvals = int(np.count_nonzero(present)) if nvals is None else int(nvals)

    # ---- construction ----
    @classmethod
    def empty(cls, size, dtype):
        return cls(size, dtype, idx=np.empty(0, np.int64), vals=np.empty(0, dtype))

    @classmethod
    def from_entries(cls, size, idx, vals, dtype=None, *, was_bitmap=False, operand=False):
        """A piece from sorted unique positions and values (taken, not copied, when sparse).
        An ``operand`` piece is only read, so a full one takes its values without a copy."""
        xp = np if type(idx) is np.ndarray and type(vals) is np.ndarray else \
            array_module(idx, vals)
        dtype = np.dtype(vals.dtype if dtype is None else dtype)
        vals = xp.asarray(vals).astype(dtype, copy=False)
        if len(idx) == size:
            # Full: the values are already in place (copied, as a bitmap may be patched).
            return cls(size, dtype, present=xp.ones(size, dtype=bool),
                       values=vals if operand else vals.copy(), nvals=size)
        if _is_dense(len(idx), size, was_bitmap):
            present = xp.zeros(size, dtype=bool)
            present[idx] = True
            values = xp.zeros(size, dtype=dtype)
            values[idx] = vals
            return cls(size, dtype, present=present, values=values, nvals=len(idx))
        return cls(size, dtype, idx=xp.asarray(idx, dtype=np.int64), vals=vals)

    @classmethod
    def listed(cls, size, idx, vals):
        """A piece of sorted unique positions and values as a list, whatever its density
        (a kernel's result, which the caller makes a bitmap or sends as it is)."""
        return cls(size, vals.dtype, idx=idx, vals=vals)

    @classmethod
    def full(cls, values):
        """A piece with an entry at every position, holding ``values`` (taken, not copied)."""
        return cls(len(values), values.dtype,
                   present=array_module(values).ones(len(values), dtype=bool), values=values,
                   nvals=len(values))

    @classmethod
    def from_bitmap(cls, present, values, nvals=None, *, was_bitmap=True):
        """A piece from a bitmap and its values (taken, not copied, when dense); a list below
        1/256 density, or 1/64 when the entries are new (not ``was_bitmap``)."""
        out = cls(len(present), values.dtype, present=present, values=values, nvals=nvals)
        if not _is_dense(out.nvals, out.size, was_bitmap):
            idx = np.flatnonzero(present)
            return cls(out.size, values.dtype, idx=idx, vals=values[idx])
        return out

    def stored(self):
        """A kernel's fresh piece in the format a Vector stores a new one in (``from_entries``):
        a bitmap above 1/64 density, else a list."""
        if self.present is None:
            if type(self.idx) is np.ndarray and self.idx.dtype == np.int64 and \
                    not _is_dense(self.nvals, self.size, False) and self.nvals != self.size:
                return self  # a host list that stays one, as from_entries would keep it
            return Piece.from_entries(self.size, self.idx, self.vals)
        return Piece.from_bitmap(self.present, self.values, self.nvals, was_bitmap=False)

    def compact(self):
        """This piece as an operand: itself, or its entries as a sparse piece when it is a
        bitmap below 1/16 density (a stored vector keeps its bitmap down to 1/256, but the
        kernels read an operand that sparse faster as a list)."""
        if self.present is None or self.nvals * _OPERAND_SPARSE > self.size:
            return self
        idx = np.flatnonzero(self.present)
        return Piece(self.size, self.dtype, idx=idx, vals=self.values[idx])

    @property
    def is_bitmap(self):
        return self.present is not None

    @property
    def xp(self):
        """The module of this piece's arrays: numpy on the host, the device's (``device``)."""
        a = self.idx if self.present is None else self.present
        return np if type(a) is np.ndarray else array_module(a)

    def on(self, xp):
        """This piece with its arrays where module ``xp``'s live: itself when they are there,
        else a copy (``device.moved_to``, counted)."""
        if self.xp is xp:
            return self
        moved = [device.moved_to(xp, a) for a in (self.idx, self.vals, self.present,
                                                  self.values)]
        return Piece(self.size, self.dtype, idx=moved[0], vals=moved[1], present=moved[2],
                     values=moved[3], nvals=self.nvals)

    def on_host(self):
        """This piece in host memory, where numpy and MPI read it (``on``)."""
        return self.on(np)

    @property
    def is_full(self):
        return self.nvals == self.size

    # ---- reading ----
    def entries(self):
        """(sorted local positions, values) of every entry; O(nvals) when sparse, O(size)
        from a bitmap (whose nvals is at least size / 64)."""
        if self.present is None:
            return self.idx, self.vals
        if self.nvals == self.size:
            return self.xp.arange(self.size, dtype=np.int64), self.values
        idx = np.flatnonzero(self.present)
        return idx, self.values[idx]

    def folded(self, fold, stop=None):
        """``fold`` of the values, or None when there is none; a bitmap is read in place, and
        only as far as ``stop`` needs (``keys.fold_until``)."""
        if self.present is None:
            return fold_until(fold, stop, self.vals)
        return fold_until(fold, stop, self.values, None if self.is_full else self.present)

    def bitmap(self):
        """The presence of every position (built for a sparse piece: O(size))."""
        if self.present is not None:
            return self.present
        out = self.xp.zeros(self.size, dtype=bool)
        out[self.idx] = True
        return out

    def dense_values(self, dtype=None):
        """Every position's value, 0 where missing (built for a sparse piece: O(size))."""
        dtype = self.dtype if dtype is None else np.dtype(dtype)
        if self.present is not None and self.is_full:
            return self.values.astype(dtype, copy=False)
        if self.present is not None:
            # A bitmap's absent positions hold arbitrary values (those of cleared entries).
            with np.errstate(invalid="ignore"):
                return np.where(self.present, self.values, 0).astype(dtype, copy=False)
        out = self.xp.zeros(self.size, dtype=dtype)
        out[self.idx] = self.vals
        return out

    def contains(self, pos):
        """Whether each of the local positions ``pos`` (any order) holds an entry."""
        if self.present is not None:
            return self.present[pos]
        if len(self.idx) == 0:
            return self.xp.zeros(len(pos), dtype=bool)
        at = np.searchsorted(self.idx, pos)
        return self.idx[np.minimum(at, len(self.idx) - 1)] == pos

    def lookup(self, pos):
        """(found, values) at the local positions ``pos``; values are 0 where not found."""
        if self.present is not None:
            found = self.present[pos]
            return found, np.where(found, self.values[pos], 0).astype(self.dtype, copy=False)
        if len(self.idx) == 0:
            xp = self.xp
            return xp.zeros(len(pos), dtype=bool), xp.zeros(len(pos), dtype=self.dtype)
        at = np.minimum(np.searchsorted(self.idx, pos), len(self.idx) - 1)
        found = self.idx[at] == pos
        return found, np.where(found, self.vals[at], 0).astype(self.dtype, copy=False)

    def with_values(self, vals):
        """A new piece with this one's structure and ``vals`` (aligned with ``entries()``).
        Sparse position arrays are never written in place, so they are shared."""
        vals = self.xp.asarray(vals)
        if self.present is None:
            return Piece(self.size, vals.dtype, idx=self.idx, vals=vals)
        if self.nvals == self.size:
            values = vals
        else:
            # (by positions: a boolean mask's scatter is 8x slower at half density)
            values = self.xp.zeros(self.size, dtype=vals.dtype)
            values[self.xp.flatnonzero(self.present)] = vals
        return Piece(self.size, vals.dtype, present=self.present.copy(), values=values,
                     nvals=self.nvals)

    def mapped(self, fn, dtype):
        """A new piece with this one's structure and ``fn`` of its values, for an elementwise
        ``fn`` that is defined on any value of the type (a builtin unary op). A bitmap's
        values go through ``fn`` as one array, absent positions too, whose arbitrary values
        are never read: no listing of the entries and no scatter back (2M positions, half of
        them entries: 0.4 ms, where the list and the scatter take 18)."""
        held = self.vals if self.present is None else self.values
        with np.errstate(all="ignore"):
            values = self.xp.asarray(fn(held)).astype(dtype, copy=False)
        if values is held or values.base is held:
            values = values.copy()  # (identity: the new piece's values are its own)
        if self.present is None:
            return Piece(self.size, dtype, idx=self.idx, vals=values)
        return Piece(self.size, dtype, present=self.present.copy(), values=values,
                     nvals=self.nvals)

    def select(self, keep):
        """A new piece of the entries where ``keep`` (aligned with ``entries()``) is True."""
        idx, vals = self.entries()
        return Piece.from_entries(self.size, idx[keep], vals[keep], self.dtype,
                                  was_bitmap=self.is_bitmap)

    def shares_memory(self, other):
        """Whether any array of this piece may share memory with one of ``other``'s."""
        if self.xp is not other.xp:
            return False  # host and device memory
        mine = [a for a in (self.idx, self.vals, self.present, self.values) if a is not None]
        theirs = [a for a in (other.idx, other.vals, other.present, other.values)
                  if a is not None]
        return any(np.may_share_memory(a, b) for a in mine for b in theirs)

    def kept(self, test):
        """A new piece of the entries whose values pass ``test`` (values -> bools). A bitmap
        is tested over whole arrays, its absent positions too, so ``test`` must take any value
        (a builtin comparison): three streaming passes, where listing its entries first takes
        gathers and builds the bitmap again."""
        xp = self.xp
        if self.present is None:
            return self.select(xp.asarray(test(self.vals)).astype(bool, copy=False))
        keep = self.present & xp.asarray(test(self.values)).astype(bool, copy=False)
        out = Piece.from_bitmap(keep, self.values)
        if out.is_bitmap:
            out.values = out.values.copy()  # (a list gathered its own)
        return out

    def within(self, lo, hi):
        """A new piece of the entries at positions [lo, hi) (a prefix or a suffix kept by a
        test of the index): O(entries) for a list, three streaming passes for a bitmap."""
        if self.present is None:
            start, stop = np.searchsorted(self.idx, [lo, hi])
            return Piece(self.size, self.dtype, idx=self.idx[start:stop].copy(),
                         vals=self.vals[start:stop].copy())
        present = np.zeros(self.size, dtype=bool)
        present[lo:hi] = self.present[lo:hi]
        out = Piece.from_bitmap(present, self.values)
        if out.is_bitmap:
            out.values = out.values.copy()  # (a list gathered its own)
        return out

    def copy(self):
        if self.present is None:
            return Piece(self.size, self.dtype, idx=self.idx.copy(), vals=self.vals.copy())
        return Piece(self.size, self.dtype, present=self.present.copy(),
                     values=self.values.copy(), nvals=self.nvals)

    def astype(self, dtype):
        """This piece with values of ``dtype`` (itself when the type already matches), cast as
        SuiteSparse casts (``cast``: floats into integers saturate)."""
        dtype = np.dtype(dtype)
        if dtype == self.dtype:
            return self
        if self.present is None:
            return Piece(self.size, dtype, idx=self.idx, vals=cast(self.vals, dtype))
        # (a bitmap's absent positions hold arbitrary values, nan from 0 / 0: cast like any)
        values = cast(self.values, dtype)
        return Piece(self.size, dtype, present=self.present, values=values, nvals=self.nvals)


class PieceMask:
    """A Vector mask over one rank's piece: ``v.S``, ``v.V`` or their complements.

    ``on`` is the piece whose entries (all of them for a structural mask, the nonzero ones for
    a value mask) are the mask's positions; ``complement`` lets through the others instead.
    """

    def __init__(self, piece, structure, complement):
        if not structure and piece.is_bitmap:
            # over whole arrays: no positions listed
            on = piece.present & (piece.values != 0)
            piece = Piece.from_bitmap(on, on)
        elif not structure:
            idx, vals = piece.entries()
            nonzero = vals != 0
            if not nonzero.all():
                piece = Piece.from_entries(piece.size, idx[nonzero], vals[nonzero])
        self.on = piece
        self.complement = complement

    def on_host(self):
        """This mask with its piece in host memory (``Piece.on_host``)."""
        on = self.on.on_host()
        return self if on is self.on else PieceMask(on, True, self.complement)

    def allows(self, pos):
        """Whether the mask lets each of the local positions ``pos`` through."""
        hit = self.on.contains(pos)
        return ~hit if self.complement else hit

    def bitmap(self):
        """The allowed positions as a bool array over the piece (O(size))."""
        bits = self.on.bitmap()
        return ~bits if self.complement else bits.copy()

    def positions(self):
        """The sorted allowed positions: O(entries) for a plain mask, O(size) complemented."""
        if self.complement:
            return np.flatnonzero(~self.on.bitmap())
        return self.on.entries()[0]


class Write:
    """What ``write`` decided: the local nvals afterwards and how to install it."""

    __slots__ = ("nvals", "piece", "patch")

    def __init__(self, nvals, piece=None, patch=None):
        self.nvals, self.piece, self.patch = nvals, piece, patch

    @classmethod
    def patching(cls, c, nvals, clear, set_idx, set_vals):
        """The write of a bitmap ``c`` that clears ``clear`` and sets ``set_idx`` to
        ``set_vals``: a patch of ``c`` in place while it stays a bitmap, else its new sparse
        piece, made now. (``c`` is the output's piece, or its copy where the write ran: the
        one patched.)"""
        if _is_dense(nvals, c.size, True):
            return cls(nvals, patch=(c, clear, set_idx, set_vals))
        present = c.present.copy()
        present[clear] = False
        present[set_idx] = True
        values = c.values.copy()
        values[set_idx] = set_vals
        idx = np.flatnonzero(present)
        return cls(nvals, piece=Piece(c.size, c.dtype, idx=idx, vals=values[idx]))

    def install(self):
        """The output's new piece: ``piece``, or the output's patched in place. It allocates
        nothing, so it cannot fail: it follows the step where the ranks agreed on the write."""
        if self.piece is not None:
            return self.piece
        c, clear, set_idx, set_vals = self.patch
        c.present[clear] = False
        c.present[set_idx] = True
        c.values[set_idx] = set_vals
        c.nvals = self.nvals
        return c


def write(c, t, mask, accum, replace, *, t_masked=False):
    """``C<M, replace> = accum(C, T)`` (or ``= T`` without accum) on pieces; returns a Write.

    ``c`` is the output's piece (only read here), ``t`` a fresh piece of the result, ``mask``
    a PieceMask or None, ``accum`` a binary op or None. ``t_masked`` says that T holds only
    positions the mask allows (the product pushed the mask down). The rule is the one blocks
    write by (``keys.write_sorted``); a bitmap C or T takes its shortcuts: patched in place at
    T's positions, or combined over whole arrays. The cost is O(entries of C and T that can
    change), plus the mask's entries for a plain mask: never O(size) unless C or T is a
    bitmap.
    """
    dtype = c.dtype
    # ``C<T.S> = T`` (SSSP's ``d(q.S) << q``): T is its own mask, its positions the mask's.
    own_mask = mask is not None and mask.on is t and not mask.complement
    if mask is not None and not t_masked and not own_mask:
        # Only T's allowed entries can reach the output. A bitmap T is masked bit by bit: a
        # streaming pass instead of gathers through its entries.
        if t.is_bitmap and not mask.complement and \
                mask.on.nvals * _OPERAND_SPARSE <= t.size:
            # A few allowed positions (``x.dup(mask=q.S)``): T read at them, O(mask entries).
            pos = mask.on.entries()[0]
            found, vals = t.lookup(pos)
            t = Piece.from_entries(t.size, pos[found], vals[found], t.dtype)
        elif t.is_bitmap:
            t = Piece.from_bitmap(t.present & mask.bitmap(), t.values)
        else:
            keep = mask.allows(t.entries()[0])
            if not keep.all():
                t = t.select(keep)
    if accum is None and (mask is None or replace):
        # C becomes T: nothing of C is read.
        return Write(t.nvals, piece=t.astype(dtype))
    if accum is None and c.is_bitmap and mask.complement and not t.is_bitmap:
        # (A complemented mask, no replace.) The allowed positions become T's: those C holds
        # are cleared and T's (all allowed, masked above) set, a patch of C. ``C<~C.S> = T``
        # (fill the holes) clears nothing and costs O(T's entries).
        xp = c.xp
        if mask.on is c:
            clear = xp.empty(0, np.int64)
        else:
            clear = xp.flatnonzero(c.present & ~mask.on.bitmap())
        t_idx, t_vals = t.entries()
        return Write.patching(c, c.nvals - len(clear) + len(t_idx), clear, t_idx,
                              t_vals.astype(dtype, copy=False))
    if accum is None and c.is_bitmap and t.is_bitmap and c.xp is np:
        # (A mask, no replace.) A dense T: over whole arrays, the allowed positions T's (an
        # entry or none), the rest C's, with no list of positions.
        allowed = mask.bitmap()
        # (bit operations: numpy's where on bools is ten times slower)
        present = (allowed & t.bitmap()) | (c.present & ~allowed)
        values = np.where(allowed, t.values.astype(dtype, copy=False), c.values)
        return Write(int(np.count_nonzero(present)),
                     piece=Piece.from_bitmap(present, values, was_bitmap=True))
    if accum is None and c.is_bitmap and not mask.complement:
        # (A mask, no replace.) Allowed positions become T's, the rest keep C's: a patch of
        # the mask's positions.
        t_idx, t_vals = t.entries()
        clear = t_idx if own_mask else mask.positions()
        nvals = c.nvals - int(np.count_nonzero(c.present[clear])) + len(t_idx)
        return Write.patching(c, nvals, t_idx[:0] if own_mask else clear, t_idx,
                              t_vals.astype(dtype, copy=False))
    if accum is not None and c.is_bitmap and not t.is_bitmap and (mask is None or not replace):
        # C outside the mask stays, and inside it under accum: T accumulated in place.
        return _accumulate(c, t, accum, dtype)
    if accum is not None and (c.is_bitmap or t.is_bitmap):
        # A union as dense as its bitmap side: over whole arrays (``ewise``).
        if mask is not None and replace:
            c = c.select(mask.allows(c.entries()[0]))
        return _accumulate(c, t, accum, dtype, in_place=False)
    # T was masked above (or by the product): the rule does not look it up again.
    keys, vals = write_sorted(*c.entries(), *t.entries(),
                              None if mask is None else mask.allows, accum, replace, dtype,
                              t_masked=True)
    return Write(len(keys), piece=Piece.from_entries(c.size, keys, vals, dtype,
                                                     was_bitmap=c.is_bitmap))


def place_of(*pieces):
    """The module of the one of ``pieces`` on a device, else numpy: where an op of them runs
    (``Piece.on`` brings the others there)."""
    return next((p.xp for p in pieces if p.xp is not np), np)


def together(c, t, mask=None):
    """C, T and the mask where the one of them on a device is (``place_of``): a write or an
    element-wise op of a device's result runs there, bringing a host operand down. The array
    backend's piece kernels call it; ``write`` and ``ewise`` take pieces in one place."""
    xp = place_of(c, t) if mask is None else place_of(c, t, mask.on)
    moved_t = t.on(xp)
    if mask is not None and mask.on.xp is not xp:
        # (the mask's ``on`` holds its allowed entries: a structural mask of it is the same)
        mask = PieceMask(moved_t if mask.on is t else mask.on.on(xp), True, mask.complement)
    return c.on(xp), moved_t, mask


def _accumulate(c, t, accum, dtype, *, in_place=True):
    """``C = accum(C, T)`` over the union of their entries, T cast to C's type first (the
    accumulator is typed by C's, as python-graphblas types it)."""
    t = t.astype(dtype)
    if c.is_bitmap and in_place and not t.is_bitmap:
        t_idx, t_vals = t.entries()
        # O(entries of T): patch C's bitmap at T's positions.
        had = c.present[t_idx]
        vals = t_vals.copy()
        if had.any():
            vals[had] = cast(accum.evaluate(c.values[t_idx[had]], t_vals[had]), dtype)
        nvals = c.nvals + int(len(t_idx) - np.count_nonzero(had))
        return Write.patching(c, nvals, t_idx[:0], t_idx, vals)
    # Otherwise the union of the two, as ewise_add with the accumulator: C's type throughout.
    out = ewise(c, t, accum, "add", (dtype, dtype), dtype)
    return Write(out.nvals, piece=out)


def accumulated(c, t, accum):
    """A new piece ``accum(C, T)`` over the union of C's and T's entries (C is not changed)."""
    return _accumulate(c, t, accum, c.dtype, in_place=False).piece


def ewise(a, b, binop, kind, in_types, out_type, defaults=(None, None)):
    """Element-wise ``a (op) b`` on pieces: ``kind`` "mult" (intersection), "add" (union, a
    lone value kept) or "union" (union, a lone value combined with the other side's default).

    An intersection costs O(entries of the sparser side), whose entries are looked up in the
    other. A union of two sparse pieces costs O(entries); a union with a bitmap is at least as
    dense as the bitmap, so it is computed on whole arrays, O(size).
    """
    if kind == "mult" and not (a.is_bitmap and b.is_bitmap):
        if a.nvals <= b.nvals:
            idx, av = a.entries()
            found, bv = b.lookup(idx)
        else:
            idx, bv = b.entries()
            found, av = a.lookup(idx)
        vals = binop.evaluate(av[found].astype(in_types[0], copy=False),
                              bv[found].astype(in_types[1], copy=False))
        return Piece.from_entries(a.size, idx[found], vals, out_type)
    if a.is_bitmap and b.is_bitmap and a.is_full and b.is_full and _defined_everywhere(binop):
        # Every position on both sides (PageRank's vectors): one pass of the op. Its result
        # may be an operand's own array (``first``), which the new piece must not share.
        av, bv = a.values.astype(in_types[0], copy=False), b.values.astype(in_types[1],
                                                                            copy=False)
        out = binop.evaluate(av, bv).astype(out_type, copy=False)
        shared = np.may_share_memory(out, a.values) or np.may_share_memory(out, b.values)
        return Piece.full(out.copy() if shared else out)
    if a.is_bitmap != b.is_bitmap and _defined_everywhere(binop):
        return _union_into_bitmap(a, b, binop, kind, in_types, out_type, defaults)
    if a.is_bitmap or b.is_bitmap:
        ap, bp = a.bitmap(), b.bitmap()
        # Every position's value, arbitrary where absent: read only where present.
        av, bv = (p.values.astype(t, copy=False) if p.is_bitmap else p.dense_values(t)
                  for p, t in ((a, in_types[0]), (b, in_types[1])))
        if _defined_everywhere(binop):
            return _ewise_whole(ap, av, bp, bv, binop, kind, out_type, defaults)
        both = ap & bp
        out = a.xp.zeros(a.size, dtype=out_type)
        out[both] = binop.evaluate(av[both], bv[both])
        if kind == "mult":
            return Piece.from_bitmap(both, out)
        only_a, only_b = ap & ~bp, bp & ~ap
        out[only_a], out[only_b] = _lone(av[only_a], bv[only_b], binop, kind, defaults)
        return Piece.from_bitmap(ap | bp, out)
    (ai, av), (bi, bv) = a.entries(), b.entries()
    av, bv = av.astype(in_types[0], copy=False), bv.astype(in_types[1], copy=False)
    in_b, in_a = b.contains(ai), a.contains(bi)
    # Both index lists are sorted, so the common entries line up.
    both = binop.evaluate(av[in_b], bv[in_a]).astype(out_type, copy=False)
    lone_a, lone_b = _lone(av[~in_b], bv[~in_a], binop, kind, defaults)
    idx = np.concatenate([ai[in_b], ai[~in_b], bi[~in_a]])
    xp = a.xp
    vals = np.concatenate([both, xp.asarray(lone_a).astype(out_type, copy=False),
                           xp.asarray(lone_b).astype(out_type, copy=False)])
    order = np.argsort(idx, kind="stable")
    return Piece.from_entries(a.size, idx[order], vals[order], out_type)


def _defined_everywhere(binop):
    """Whether ``binop`` is a builtin op, which gives a value (never an error) for any inputs,
    so it may run over whole arrays, missing positions included."""
    builtin = getattr(builtin_binary, binop.name, None)
    return builtin is not None and builtin.func is binop.func and not binop.index_aware


def _ewise_whole(ap, av, bp, bv, binop, kind, out_type, defaults):
    """The bitmap ``ewise`` with the op run at every position and the results picked by
    presence: a few streaming passes instead of gathers and scatters through bool masks."""
    if kind == "mult":
        return Piece.from_bitmap(ap & bp, binop.evaluate(av, bv).astype(out_type, copy=False))
    if kind == "union":
        left_default, right_default = defaults
        out = binop.evaluate(np.where(ap, av, av.dtype.type(left_default)),
                             np.where(bp, bv, bv.dtype.type(right_default)))
        return Piece.from_bitmap(ap | bp, out.astype(out_type, copy=False))
    lone = np.where(ap, av.astype(out_type, copy=False), bv.astype(out_type, copy=False))
    out = np.where(ap & bp, binop.evaluate(av, bv).astype(out_type, copy=False), lone)
    return Piece.from_bitmap(ap | bp, out)


def _union_into_bitmap(a, b, binop, kind, in_types, out_type, defaults):
    """A union of a sparse piece and a bitmap (SSSP's ``t`` against ``d``): the bitmap side's
    values run through the op at every position as if the sparse side were missing there,
    then the sparse side's k positions are patched: two streaming passes and O(k) gathers,
    where the general bitmap path builds the sparse side's bitmap and values first."""
    left_sparse = b.is_bitmap
    sp, bm = (a, b) if left_sparse else (b, a)
    sp_type, bm_type = (in_types[0], in_types[1]) if left_sparse else (in_types[1], in_types[0])
    sp_missing, bm_missing = defaults if left_sparse else defaults[::-1]
    bm_vals = bm.values.astype(bm_type, copy=False)
    idx, sp_vals = sp.entries()
    sp_vals = sp_vals.astype(sp_type, copy=False)

    def op(sp_side, bm_side):
        return binop.evaluate(sp_side, bm_side) if left_sparse else \
            binop.evaluate(bm_side, sp_side)

    had = bm.present[idx]
    if kind == "union":
        out = op(bm.xp.full(len(bm_vals), sp_missing, dtype=sp_type), bm_vals)
        out = out.astype(out_type, copy=False)
        out[idx] = op(sp_vals, np.where(had, bm_vals[idx], np.dtype(bm_type).type(bm_missing)))
    else:
        out = bm_vals.astype(out_type, copy=True)
        out[idx] = np.where(had, op(sp_vals, bm_vals[idx]).astype(out_type, copy=False),
                            sp_vals.astype(out_type, copy=False))
    present = bm.present.copy()
    present[idx] = True
    return Piece.from_bitmap(present, out, bm.nvals + len(idx) - int(np.count_nonzero(had)))


def _lone(av, bv, binop, kind, defaults):
    """Values of the entries present on one side only."""
    if kind != "union":
        return av, bv
    left_default, right_default = defaults
    xp = array_module(av, bv)
    return (binop.evaluate(av, xp.full(len(av), right_default, dtype=bv.dtype)),
            binop.evaluate(xp.full(len(bv), left_default, dtype=av.dtype), bv))
