"""A dense block's storage: a flag and a value a position, as SuiteSparse holds a dense matrix.

A block is held so when that takes no more bytes than its storage by rows: built dense
(``pays_built``, ``Block.from_keys``), or written again and again until dense
(``pays_written``, a visited set). Its writes are set in place, O(k) for k entries, when no
other block holds it (``written``); see ``local/block.py`` for how a block reads and writes it.
"""

import sys

import numpy as np

from .keys import keys_fit

__all__ = ["BITMAP_BUILT", "Bitmap", "pays_built", "pays_written", "written"]

# A block built dense (``Block.from_keys``) of at least this many positions is a bitmap.
BITMAP_BUILT = 1 << 14


class Bitmap:
    """A block's entries as a bitmap: ``present`` (bool, a flag a position, row-major:
    position ``row * ncols + col``, the entry's key) and ``dense`` (the value at each position,
    or one value broadcast when every entry holds it), and their count ``nvals``."""

    __slots__ = ("present", "dense", "nvals")

    def __init__(self, present, dense, nvals):
        self.present, self.dense, self.nvals = present, dense, nvals

    @classmethod
    def of_entries(cls, positions, keys, values):
        """A new bitmap over ``positions`` of the entries at the sorted unique ``keys`` with
        ``values`` (one value broadcast stays one): O(positions)."""
        present = np.zeros(positions, dtype=bool)
        present[keys] = True
        if values.strides == (0,):
            dense = np.broadcast_to(values[:1], present.shape)
        else:
            dense = np.zeros(positions, dtype=values.dtype)
            dense[keys] = values
        return cls(present, dense, len(keys))

    @property
    def is_iso(self):
        return self.dense.strides == (0,)


def pays_written(nrows, ncols, nvals, dtype):
    """Whether ``nvals`` entries are held in no more bytes as a bitmap (a flag and a value a
    position) than by rows with their keys (a column, a key and a value an entry): from 37.5%
    of the positions for 8-byte values, 12% for bools. Written blocks that dense are what
    batched traversals keep (their visited sets), and the bitmap takes their writes in place."""
    positions = nrows * ncols
    itemsize = np.dtype(dtype).itemsize
    return nvals > 0 and keys_fit(nrows, ncols) and \
        positions * (1 + itemsize) <= nvals * (16 + itemsize)


def pays_built(nrows, ncols, nvals, values):
    """Whether a block built of ``nvals`` entries is held in no more bytes as a bitmap than by
    rows (a column and a value an entry, no keys): from 12.5% of the positions for one value
    broadcast, 22% for bools, 56% for 8-byte values; and large enough to matter."""
    positions = nrows * ncols
    value_bytes = 0 if values.strides == (0,) else values.itemsize
    return nvals > 0 and positions >= BITMAP_BUILT and keys_fit(nrows, ncols) and \
        positions * (1 + value_bytes) <= nvals * (8 + value_bytes)


def written(bitmap, keys, values, iso):
    """``bitmap`` with ``values`` at the sorted ``keys`` (entries added or values replaced);
    ``iso``: every value stays the one broadcast. Written in place when no other block holds
    the bitmap, nor anything its arrays (the counts below: the holder's attribute, this call's
    argument or local name, and getrefcount's own; a numpy view refers to its array), else
    into a copy: O(k) in place."""
    present, dense = bitmap.present, bitmap.dense
    # (one value broadcast is never written in place: blocks may share it)
    alone = sys.getrefcount(bitmap) <= 3 and sys.getrefcount(present) <= 3 and \
        (dense.strides == (0,) or sys.getrefcount(dense) <= 3) and present.flags.writeable
    if not alone:
        present = present.copy()
    nvals = bitmap.nvals + int(len(keys) - np.count_nonzero(present[keys]))
    present[keys] = True
    if not iso:
        if dense.strides == (0,):
            dense = np.full(len(present), dense[0], dtype=dense.dtype)
        elif not alone or not dense.flags.writeable:
            dense = dense.copy()
        dense[keys] = values
    if alone:
        bitmap.present, bitmap.dense, bitmap.nvals = present, dense, nvals
        return bitmap
    return Bitmap(present, dense, nvals)
