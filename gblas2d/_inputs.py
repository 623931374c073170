"""Reading what a caller passes to a constructor: the type of a Python scalar, an input check
that all ranks agree on, the type of distributed input, and the fold of duplicates by a
binary op that has no monoid. Shared by Vector and Matrix."""

import numbers

import numpy as np

from .semirings.dtypes import FP64, lookup_dtype, unify

__all__ = ["FirstOnlyMonoid", "agreed_dtype", "checked", "is_position", "scalar_dtype"]


def scalar_dtype(value):
    """The GraphBLAS type of a Python or numpy scalar."""
    return lookup_dtype(np.asarray(value).dtype)


def is_position(index):
    """Whether ``index`` is one integer position (``v[3]``), not several (a list, a slice, a
    Vector), nor a bool or a float (which python-graphblas rejects as indices)."""
    if isinstance(index, np.ndarray):
        return index.ndim == 0 and index.dtype.kind in "iu"
    return isinstance(index, numbers.Integral) and not isinstance(index, bool)


def checked(grid, distributed, read, fallback):
    """Run a local input check. With distributed input only this rank may see a problem, so
    the outcome is agreed (every rank raises the same error); replicated input raises at once."""
    if not distributed:
        return read()
    out = fallback
    with grid.comm.agreed():
        out = read()
    return out


def agreed_dtype(grid, values, count):
    """Collective. The dtype of distributed input: the unified type of the ranks that pass
    entries, so a rank with an empty share does not guess a different type."""
    mine = lookup_dtype(values.dtype).name if count and values.dtype != object else None
    names = [t for t in grid.comm.allgather_object(mine) if t is not None]
    if not names:
        return FP64 if values.dtype == object else lookup_dtype(values.dtype)
    out = lookup_dtype(names[0])
    for name in names[1:]:
        out = unify(out, name)
    return out


class FirstOnlyMonoid:
    """Combine duplicates with a binary op that has no monoid (folded left to right)."""

    def __init__(self, op):
        self.op = op

    def reduceat(self, values, starts):
        ends = np.append(starts[1:], len(values))
        out = values[starts].copy()
        for k in range(1, int((ends - starts).max(initial=1))):
            more = ends - starts > k
            out[more] = self.op.evaluate(out[more], values[starts[more] + k])
        return out
