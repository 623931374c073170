"""What a surface container does with this rank's part, whichever it is (a vector's piece or a
matrix's block) and wherever it lies (host memory or a device): fold its values with the
others' to one value, and read two parts' entries in one place to compare them.
"""

import numpy as np

from ..local import backends, device
from ..local.block import Block
from ..local.piece import place_of

__all__ = ["entries_together", "fold_to_scalar"]


def fold_to_scalar(grid, part, mon, lanes, stop, out_type, allow_empty):
    """Collective (one allgather, which ends the call). The Monoid ``mon``'s reduction of
    every rank's ``part`` (a piece or a block), each rank's folded first (in SuiteSparse's
    lanes, ``OrderedMonoid.in_lanes``, where ``lanes`` says so) as far as ``stop`` needs
    (``Monoid.stop_of``); with no value anywhere, None if ``allow_empty``, else the monoid's
    identity. A block's fold is a backend's kernel (``reduce_block``)."""
    if isinstance(part, Block):
        local = backends.run("reduce_block", part, mon, lanes, stop)
    else:
        local = part.folded(mon.in_lanes if lanes else mon.reduce, stop)
    # a device's fold is one value, copied up to be sent
    local = None if local is None else device.on_host(local)
    if isinstance(local, np.generic) and local.dtype.kind in "biufc":
        # sent as Python's number, which the array below makes exact again: a numpy scalar
        # pickles in 10 us, four times the Allgather at 2 ranks
        local = local.item()
    # The same folds on every rank, folded alike: the call's end needs no step after them.
    folds = [p for p in grid.comm.allgather_object(local, final=True) if p is not None]
    if not folds:
        return None if allow_empty else mon.identity_of(out_type)
    folds = np.array(folds, dtype=out_type.np_type)
    # (one fold is the answer: nothing to combine it with)
    return folds[0] if len(folds) == 1 else mon.reduce(folds)


def entries_together(*parts):
    """The (keys, values) of each part, in the one place where the one on a device is, else in
    host memory (FastSV's comparison each round brings one bool up, not the parts)."""
    xp = place_of(*parts)
    return [part.on(xp).entries() for part in parts]
