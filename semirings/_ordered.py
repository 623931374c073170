"""The monoids whose floating-point fold depends on its order: ``plus`` and ``times``.

Floating-point addition and multiplication are not associative, so a sum is only reproducible
with its order. SuiteSparse at one thread folds each row (``reduce_rowwise``), each column,
and a bitmap object's entries in index order, and a sparse or full object's entries to one
value in lanes (``GB_reduce_panel``: lane k holds entries k, k + L, k + 2L, ... in order, 32
lanes for FP64 and 64 for FP32, then the lanes in order). numpy's ``ufunc.reduceat`` sums a
segment pairwise, so ``[1, 1, 1/3]`` sums to 2.333333333333333 there and 2.3333333333333335 in
SuiteSparse. ``OrderedMonoid`` folds floating-point segments in index order instead, with
``ufunc.at`` (which applies its updates one by one, in input order) into one slot per segment;
``in_lanes`` is SuiteSparse's fold to one value and ``reduce_rows`` its fold of a row, which
its dot product takes as the first entry (+) the rest in order. Which fold SuiteSparse takes
follows its storage, and ``held_as_bitmap`` says which storage it gives an object of that shape
and nvals. Integers and BOOL (exact, so any order gives the same result) and a device's arrays
keep ``Monoid``'s folds.

>>> import numpy as np
>>> from gblas2d.semirings import monoid
>>> float(monoid.plus.reduce(np.array([1.0, 1.0, 1 / 3])))
2.3333333333333335
"""

import math

import numpy as np

from ._base import Monoid
from .dtypes import lookup_dtype

__all__ = ["OrderedMonoid", "held_as_bitmap", "reduce_rows"]

# SuiteSparse's panel width by type (GB_PANEL of its plus and times kernels)
_LANES = {np.dtype(np.float64): 32, np.dtype(np.float32): 64}
# SuiteSparse's default bitmap switch by the smaller dimension (GxB_BITMAP_SWITCH, float32):
# an object denser than this is held as a bitmap, a sparser one as a sparse list
_BITMAP_SWITCH = ((1, 0.04), (2, 0.05), (4, 0.06), (8, 0.08), (16, 0.10), (32, 0.20),
                  (64, 0.30))


def held_as_bitmap(shape, nvals):
    """Whether SuiteSparse holds an object of ``shape`` with ``nvals`` entries, as a fresh
    result, as a bitmap (folded in index order) rather than sparse or full (folded to one
    value in lanes, by rows as its dot product folds them)."""
    size = math.prod(shape)
    smaller = min(shape) if len(shape) == 2 else 1
    switch = next((s for limit, s in _BITMAP_SWITCH if smaller <= limit), 0.40)
    return nvals < size and nvals > np.float32(switch) * size


class OrderedMonoid(Monoid):
    """A Monoid whose floating-point segments fold in index order (see the module docstring).

    Parameters
    ----------
    start : float
        The value each fold starts from, which leaves the first value as it is: -0.0 for plus
        (0.0 would turn a lone -0.0 into 0.0), 1.0 for times.
    Other parameters are ``Monoid``'s; ``ufunc`` is required.
    """

    def __init__(self, name, binaryop, identity, *, ufunc, start):
        super().__init__(name, binaryop, identity, ufunc=ufunc)
        self._start = start
        self._floats = {}

    def _float_type(self, values):
        """The output type of folding ``values`` when it is a float and they are on the host,
        else None (``Monoid``'s folds apply)."""
        if type(values) is not np.ndarray:
            return None
        # remembered by type, as ``output_type`` is: asked twice by every small fold
        key = (self.type, values.dtype)
        t = self._floats.get(key, False)
        if t is False:
            t = self.output_type(lookup_dtype(values.dtype)).np_type
            t = self._floats[key] = t if t.kind == "f" else None
        return t

    def reduceat(self, values, starts):
        """Reduce each segment ``values[starts[k]:starts[k+1]]``; segments are non-empty."""
        t = self._float_type(values)
        if t is None or len(starts) == 0:
            return super().reduceat(values, starts)
        values = values[starts[0]:].astype(t, copy=False)
        if len(starts) == len(values):
            return values.copy()  # a value a segment, each its own fold
        if len(starts) == 1:
            # one segment: numpy's accumulate runs in index order, from the first value
            with np.errstate(all="ignore"):
                return self.ufunc.accumulate(values)[-1:]
        # segment[p]: the segment of position p, from a 1 at each segment's start
        segment = np.zeros(len(values), dtype=np.intp)
        segment[starts[1:] - starts[0]] = 1
        np.cumsum(segment, out=segment)
        out = np.full(len(starts), self._start, dtype=t)
        with np.errstate(all="ignore"):
            self.ufunc.at(out, segment, values)
        return out

    def in_lanes(self, values):
        """The fold of all of ``values`` (non-empty, on the host) as SuiteSparse folds a sparse
        or full object's values at one thread: by lanes, then the lanes in order."""
        t = self._float_type(values)
        lanes = _LANES.get(t)
        if lanes is None or len(values) <= lanes:
            return self.reduce(values)
        values = values.astype(t, copy=False)
        whole = len(values) - len(values) % lanes
        with np.errstate(all="ignore"):
            # lane k: values k, k + lanes, ... folded in order (one row of lanes at a time)
            lane = self.ufunc.reduce(values[:whole].reshape(-1, lanes), axis=0)
            tail = values[whole:]
            lane[:len(tail)] = self.ufunc(lane[:len(tail)], tail)
            # then the lanes in order: an accumulation is one (a small fold's cost is its calls)
            return self.ufunc.accumulate(lane)[-1]


def reduce_rows(rows, values, monoid, *, bitmap=False):
    """Reduce the runs of equal ``rows`` (sorted) with ``monoid``: (each row once, its fold).

    A row folds as SuiteSparse folds it at one thread: in index order in a bitmap, else as its
    dot product does, the first entry (+) the rest of the row folded in order (measured against
    python-graphblas 2025.2.0: every row of up to 128 entries agrees bit for bit; longer rows
    it folds by SIMD lanes). Only the float folds of an ``OrderedMonoid`` see the difference;
    any other fold is ``monoid.reduceat``.
    """
    first = np.empty(len(rows), dtype=bool)
    first[:1] = True
    np.not_equal(rows[1:], rows[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    t = monoid._float_type(values) if isinstance(monoid, OrderedMonoid) else None
    if bitmap or t is None or len(starts) == len(rows):
        return rows[starts], monoid.reduceat(values, starts)
    # the rest of each row folded in order: its first entry replaced by the fold's start,
    # which leaves what follows as it is; then the first entry (+) that
    rest = values.astype(t)
    rest[starts] = monoid._start
    with np.errstate(all="ignore"):
        if t == np.float64 and monoid.ufunc is np.add and rows[-1] < 4 * len(rows) + 64:
            # bincount adds each value into its row's sum one by one, in order, as ufunc.at
            # does, in a third of the time; keyed by the rows themselves where they are few
            folded = np.bincount(rows, weights=rest)[rows[starts]]
        else:
            folded = np.full(len(starts), monoid._start, dtype=t)
            monoid.ufunc.at(folded, np.cumsum(first, dtype=np.intp) - 1, rest)
        out = monoid.ufunc(values[starts].astype(t), folded)
    # a lone entry is its row's fold as it is (bincount's sums start from +0.0, not -0.0)
    lone = np.diff(np.append(starts, len(rows))) == 1
    out[lone] = values[starts[lone]]
    return rows[starts], out
