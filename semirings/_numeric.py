"""SuiteSparse:GraphBLAS arithmetic where it differs from numpy's, as vectorized helpers.

python-graphblas runs on SuiteSparse, so these are the results gblas2d has to reproduce:
integer division truncates toward zero and saturates on a zero divisor, integer ``pow`` goes
through ``double`` and clips, ``round`` rounds halves away from zero, and ``sqrt``-like ops on
integers compute in FP32 (1- and 2-byte types) or FP64.
"""

import numpy as np


def as_float(x):
    """``x`` in the float type SuiteSparse computes it in (FP32 for bool and 1- or 2-byte ints)."""
    if x.dtype.kind == "f":
        return x
    return x.astype(np.float32 if x.dtype.itemsize <= 2 else np.float64)


def saturate(values, np_type):
    """Cast floats to an integer type as SuiteSparse does: nan is 0, out-of-range values clip."""
    info = np.iinfo(np_type)
    # Comparisons with nan are False, so nan lands in neither clipped set and stays 0.
    inside = (values > info.min) & (values < info.max)
    out = np.where(inside, values, 0).astype(np_type)
    out[values <= info.min] = info.min
    out[values >= info.max] = info.max
    return out


def cast(values, np_type):
    """``values`` in ``np_type`` as SuiteSparse casts them: floats into integers saturate
    (``saturate``), everything else as numpy casts it."""
    np_type = np.dtype(np_type)
    if values.dtype.kind in "fc" and np_type.kind in "iu":
        return saturate(values.real if values.dtype.kind == "c" else values, np_type)
    return values.astype(np_type, copy=False)


def cdiv(x, y):
    """GrB_DIV: C division. Integers truncate toward zero and ``x / 0`` is the extreme value of
    ``x``'s sign (``0 / 0`` is 0); floats divide; on BOOL it is ``first``."""
    if x.dtype.kind == "b":
        return x
    if x.dtype.kind == "f":
        return x / y
    info = np.iinfo(x.dtype)
    divisor = np.where(y == 0, 1, y).astype(x.dtype)
    quotient, remainder = np.divmod(x, divisor)
    # numpy floors; C truncates, which is one more whenever the division is inexact and negative.
    quotient = quotient + ((remainder != 0) & ((x < 0) != (divisor < 0)))
    big, small, zero = (x.dtype.type(v) for v in (info.max, info.min, 0))
    by_zero = np.where(x > 0, big, np.where(x < 0, small, zero))
    return np.where(y == 0, by_zero, quotient).astype(x.dtype, copy=False)


def power(x, y):
    """GrB_POW: ``x ** y``; on BOOL ``x or not y``; integers via ``double``, then saturated."""
    if x.dtype.kind == "b":
        return x | ~y
    if x.dtype.kind == "f":
        # SuiteSparse returns nan whenever either side is nan, even for nan ** 0 and 1 ** nan.
        return np.where(np.isnan(x) | np.isnan(y), np.nan, np.power(x, y)).astype(x.dtype)
    return saturate(np.power(x.astype(np.float64), y.astype(np.float64)), x.dtype)


def truediv(x, y):
    """python-graphblas ``truediv``: bool and integers divide in FP64, floats in their own type."""
    if x.dtype.kind != "f":
        x, y = x.astype(np.float64), y.astype(np.float64)
    return x / y


def round_half_away(x):
    """C ``round``: halves go away from zero (numpy's ``round`` goes to the even neighbour)."""
    x = as_float(x)
    whole = np.trunc(x)
    # x - trunc(x) is exact in floating point, so the comparison with 0.5 is too.
    return np.where(np.abs(x - whole) >= 0.5, whole + np.sign(x), whole).astype(x.dtype)
