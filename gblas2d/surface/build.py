"""Writing given entries into an existing Matrix or Vector: ``build`` (from COO arrays, into an
empty object) and ``Matrix.setdiag`` (a diagonal from a scalar, a Vector or an array), as
python-graphblas has them. Both take what every rank is given alike and reuse the collective
constructors and assignments, so each rank builds only its own part."""

import numpy as np

from ..distributed.grid import collective
from ..exceptions import DimensionMismatch, IndexOutOfBound, OutputNotEmpty
from ..semirings import select
from .expr import Mask, VectorExpression
from .inputs import scalar_dtype, type_name
from .shape import diagonal

__all__ = ["build", "setdiag"]


@collective
def build(target, coo, dup_op, clear, shape):
    """Collective. ``target.build(*coo, dup_op=, clear=, size= / nrows=, ncols=)``: the
    entries of the COO arrays ``coo`` into ``target``, which must be empty unless ``clear``;
    ``shape`` (or None) resizes it first. Nothing changes when the build fails, but ``clear``
    and the resize."""
    if clear:
        target.clear()
    elif target.nvals:
        raise OutputNotEmpty(f"{type_name(target)} {target.name} has {target.nvals} "
                             "entries: build into an empty object, or pass clear=True")
    if shape is not None:
        target.resize(*shape)
    dims = dict(zip(("nrows", "ncols") if len(target.shape) == 2 else ("size",), target.shape,
                    strict=True))
    built = type(target).from_coo(*coo, target.dtype, dup_op=dup_op, grid=target.grid, **dims)
    target << built


def _diagonal_size(A, k):
    """The length of A's diagonal ``k``; IndexOutOfBound (an IndexError) when it is out of
    range, as python-graphblas's setdiag says."""
    size = min(A.nrows + k, A.ncols) if k < 0 else min(A.ncols - k, A.nrows)
    if size <= 0 and (k <= -A.nrows if k < 0 else k > 0 and k >= A.ncols):
        raise IndexOutOfBound(
            f"k={k} is too {'small' if k < 0 else 'large'}; the k'th diagonal is out of range. "
            f"Valid k for Matrix with shape {A.nrows}x{A.ncols}: {-A.nrows} "
            f"{'<' if A.nrows else '<='} k {'<' if A.ncols else '<='} {A.ncols}")
    return max(size, 0)


def _diagonal_values(A, values, size):
    """The Vector that ``setdiag`` writes: ``values`` itself, a scalar (a Scalar) repeated,
    or an array read densely; and whether its missing entries clear the diagonal."""
    Vector = VectorExpression.output_class
    if isinstance(values, Vector):
        return values, values.nvals != values.size
    if hasattr(values, "value") and not hasattr(values, "size"):
        values = values.value  # a Scalar
    if np.ndim(values) == 0 and not isinstance(values, (list, tuple)):
        try:
            dtype = scalar_dtype(values)
        except (TypeError, ValueError):
            raise TypeError(f"Bad type for argument `values` in Matrix.setdiag(...): "
                            f"{type_name(values)}.  A Scalar, Vector, array or literal "
                            "scalar is expected") from None
        return Vector.from_scalar(values, size, dtype, grid=A.grid), False
    array = np.asarray(values)
    if array.ndim != 1:
        raise TypeError(f"Bad type for argument `values` in Matrix.setdiag(...): an array of "
                        f"{array.ndim} dimensions")
    return Vector.from_dense(array, dtype=A.dtype if array.size == 0 else None,
                             grid=A.grid), False


@collective
def setdiag(A, values, k, mask, accum):
    """Collective. ``A.setdiag(values, k, mask=, accum=)``: ``A(i, i + k) = values(i)`` (a
    scalar, a Vector or an array of the diagonal's length). Where a Vector has no entry, the
    diagonal is cleared (unless ``accum``); ``mask`` is a Vector mask of the diagonal's
    length or a Matrix mask of A's shape, of which only the diagonal counts."""
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise TypeError(f"k must be an integer; got bad type: {type(k)}")
    k = int(k)
    size = _diagonal_size(A, k)
    v, clear_diagonal = _diagonal_values(A, values, size)
    if v.size != size:
        raise DimensionMismatch(
            f"Dimensions not compatible for assigning length {v.size} Vector to {k}'th "
            f"diagonal of Matrix with shape {A.nrows}x{A.ncols}. The Vector should be size "
            f"{size}.")
    clear_diagonal = clear_diagonal and accum is None
    if mask is not None:
        mask = _diagonal_mask(A, mask, k, size)
    if clear_diagonal:
        A(mask=mask) << select.offdiag(A, k)
    D = _on_diagonal(v, k, A.shape)
    A(accum=accum, mask=D.S if mask is None else mask) << D


def _on_diagonal(v, k, shape):
    """Collective. The Matrix of ``shape`` holding ``v`` on its diagonal ``k``."""
    D = v.diag(k)
    if D.shape != shape:
        D.resize(*shape)
    return D


def _diagonal_mask(A, mask, k, size):
    """Collective. ``setdiag``'s mask (a Vector mask of the diagonal's length, or a Matrix mask
    of A's shape of which the diagonal counts) as a Matrix mask on A's diagonal ``k``."""
    parent = mask.parent
    if len(parent.shape) == 2:
        if parent.shape != A.shape:
            raise DimensionMismatch(f"Matrix mask in setdiag is the wrong shape; expected "
                                    f"shape {A.nrows}x{A.ncols}, got "
                                    f"{parent.nrows}x{parent.ncols}")
        if not mask.complement:
            return Mask(select.diag(parent, k).new(), mask.structure)
        # The complement on the diagonal: of the mask's diagonal as a Vector.
        mask = Mask(diagonal(parent, k).new(), mask.structure, complement=True)
    elif parent.size != size:
        raise DimensionMismatch(f"Vector mask in setdiag is the wrong length; expected size "
                                f"{size}, got size {parent.size}.")
    elif not mask.complement:
        return Mask(_on_diagonal(parent, k, A.shape), mask.structure)
    allowed = VectorExpression.output_class(bool, size, grid=A.grid)
    allowed(mask=mask) << True
    return _on_diagonal(allowed, k, A.shape).S
