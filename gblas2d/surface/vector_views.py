"""What a Vector hands out that is not a Vector: its index expressions ``v[indices]`` (a
lazy Vector: extracted by ``.new()`` or read as one, ``automethods.py``) and ``v[i]`` (one
element), and the targets of ``v[indices] << value`` and ``v[indices](mask) << value``.

They read the vector through its piece and offset; the assignments themselves are the
Vector's (``_assign``, ``_subassign``, the hooks ``container.py`` names); ``vector.py``
defines the Vector that makes them.
"""

import functools

import numpy as np

from ..distributed import redistribute as redist
from ..distributed.grid import collective
from ..distributed.vector import piece_of
from .automethods import VectorAutoMethods
from .config import computes
from .container import Assigner
from .expr import Mask, ScalarExpression, VectorExpression, check_options, input_mask_of, parse_call
from .infix import Infix, ScalarLike
from .inputs import axis_index, is_position, type_name

__all__ = ["VectorElement", "VectorExtract", "VectorIndexExpr", "one_position", "positions_of"]


def one_position(index):
    """Whether a Vector index names one position: an int, or an integer Scalar."""
    return is_position(index) or getattr(index, "shape", None) == ()


def positions_of(size, index):
    """Global positions named by an index, as an array (python-graphblas's index forms)."""
    if isinstance(index, tuple):
        raise TypeError("Index for Vector cannot be a tuple")
    return np.atleast_1d(axis_index(index, size))


class VectorIndexExpr(Infix):
    """``v[index]``: extract (``.new()``, ``.value``) or the target of an assignment."""

    def __init__(self, parent, index):
        self.parent = parent
        self.index = index
        if not isinstance(index, slice):
            self._check_index()

    def _check_index(self):
        """Read the index at once, so that a bad one raises here, as in python-graphblas (a
        slice cannot be bad, and is not spelled out: ``w[:] << 1`` stays O(1) here)."""
        _ = self.positions

    @functools.cached_property
    def positions(self):
        """The global position (an int) or positions (an array) the index names."""
        if self._is_element():
            return axis_index(self.index, self.parent.size)
        return positions_of(self.parent.size, self.index)

    def _is_element(self):
        return one_position(self.index)

    def _as_expression(self):
        if self._is_element():
            raise TypeError("v[i] is a scalar; use .value or .new()")
        v = self.parent
        positions = self.positions
        out_size = len(positions)

        def compute(mask, opts):
            lo, hi = v.grid.piece(out_size)
            found, vals = redist.fetch(v.grid, v.size, positions[lo:hi], v.offset, v.host_piece())
            idx = np.flatnonzero(found)
            return piece_of(v.grid, out_size, idx, vals[idx], v.dtype.np_type)

        return VectorExpression("extract", (v, positions), v.dtype, out_size, compute, v.grid)

    @collective
    def new(self, dtype=None, *, mask=None, input_mask=None, name=None):
        """Collective. The extracted Vector (or Scalar for one element); ``input_mask`` is a
        mask on v instead of the result."""
        if input_mask is not None:
            if mask is not None:
                raise TypeError("mask and input_mask arguments cannot both be given")
            mask = input_mask_of(self, input_mask)
        if self._is_element():
            if mask is not None:
                raise ValueError("v[i].new(mask=...): one element is extracted as a Scalar, "
                                 "which takes no mask (no descriptor applies to it)")
            out = ScalarExpression.output_class(dtype or self.parent.dtype, name=name)
            value = self._read()
            if value is not None:
                out.value = value
            return out
        return self._as_expression().new(dtype, mask=mask, name=name)

    @collective
    def mask_of_input(self, input_mask):
        """Collective. The result's mask that ``input_mask`` (a Mask on v) makes: its part at
        the extracted positions."""
        source = input_mask.parent
        if len(source.shape) != 1:
            raise TypeError(f"Mask object must be type Vector; got {type_name(source)}")
        if self._is_element():
            raise ValueError("input_mask is not allowed when extracting one element")
        if source.size != self.parent.size:
            raise ValueError(f"Size of `input_mask` does not match size of input: "
                             f"{source.size} and {self.parent.size}")
        return Mask(source[self.index].new(), input_mask.structure, input_mask.complement)

    def __lshift__(self, value):
        return Assigner(self.parent, self.index) << value

    def update(self, value):
        return self << value

    def __call__(self, *args, mask=None, accum=None, replace=False, **opts):
        """``w[index](mask, accum, replace)``: the target of a sub-mask assign, whose mask has
        the index's length (GxB_subassign)."""
        mask, accum, replace = parse_call(args, mask, accum, replace)
        check_options(opts)
        return Assigner(self.parent, self.index, mask, accum, replace, submask=True)


class VectorExtract(VectorAutoMethods, VectorIndexExpr):
    """``v[indices]``: a lazy Vector; reading ``nvals``, ``isequal``, ... extracts it."""

    @property
    def output_class(self):
        return type(self.parent)

    @property
    def dtype(self):
        return self.parent.dtype

    @property
    def grid(self):
        return self.parent.grid

    @property
    def size(self):
        if isinstance(self.index, slice):
            return len(range(*self.index.indices(self.parent.size)))
        return len(self.positions)

    @property
    def shape(self):
        return (self.size,)


class VectorElement(ScalarLike, VectorIndexExpr):
    """``v[i]``: one element; comparing, testing or converting it reads its value."""

    @property
    def value(self):
        """Collective. The element's value, or None if it is missing (autocompute)."""
        computes("value", type(self))
        return self._read()

    @collective
    def _read(self):
        v = self.parent
        i = self.positions
        # compared in the bcast's opening step: ranks that read different elements would
        # each wait for another root
        v.grid.comm.check_replicated("v[i]", v, i)
        owner = int(v.grid.owner(v.size, [i])[0])
        local = None
        if owner == v.grid.rank:
            found, vals = v.host_piece().lookup(np.array([i - v.offset]))
            local = vals[0].item() if found[0] else None
        # the owner's value, the same on every rank: the call ends there
        return v.grid.comm.bcast_object(local, root=owner, final=True)
