"""Counter-based random values: 64 bits that depend on (seed, row, col) alone.

There is no generator state. The value at a position is a hash of the seed and the position's
global indices, so each rank computes only its own entries, and the values come out the same
at any number of ranks, on any grid shape and on either engine. LAGraph_Random seeds its
vectors the same way. Each word is mixed in with one application of splitmix64's finalizer
``mix64`` (a bijection of uint64 whose output bits look independent)::

    h = mix64(seed + G);  h = mix64(h ^ (row + G));  bits = mix64(h ^ (col + G))

G = 0x9E3779B97F4A7C15 is splitmix64's increment. It keeps a zero word from leaving h as it
is, since mix64(0) = 0. A uniform float in [0, 1) is the top 53 bits times 2^-53. A Vector's
entry i is hashed as position (i, 0).

The functions take numpy or cupy arrays, or numpy scalars, and arithmetic wraps mod 2^64.
``indexunary.random_uniform`` and ``indexunary.random_bits`` are the ops built on them. The
fused BPT's edge samples use ``mix64`` too.

>>> from gblas2d.semirings import random
>>> bits = random.hash64(7, np.arange(3), 0)
>>> bool(np.all(bits == random.hash64(7, np.array([0, 1, 2]), np.zeros(3, dtype=np.int64))))
True
>>> bool(np.all((random.uniform(bits) >= 0) & (random.uniform(bits) < 1)))
True
"""

import numpy as np

from ._base import IndexUnaryOp
from .dtypes import INT64, lookup_dtype

__all__ = ["GOLDEN", "RandomOp", "hash64", "mix64", "uniform"]

GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def mix64(z):
    """splitmix64's finalizer of the uint64 values ``z``: a bijection whose output bits look
    independent (mix64(0) is 0)."""
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def hash64(seed, row, col):
    """64 random bits for each position (``row``, ``col``) under ``seed``, as uint64.

    ``seed`` is an integer (its value mod 2^64). ``row`` and ``col`` are non-negative integer
    arrays or scalars, and broadcast together."""
    seed = np.uint64(int(seed) % 2**64)
    row, col = (x.astype(np.uint64) if hasattr(x, "astype") else np.uint64(x) for x in (row, col))
    with np.errstate(over="ignore"):
        h = mix64(seed + GOLDEN)
        h = mix64(h ^ (row + GOLDEN))
        return mix64(h ^ (col + GOLDEN))


def uniform(bits):
    """The uint64 ``bits`` as floats uniform in [0, 1): the top 53 bits times 2^-53, exact in
    FP64."""
    return (bits >> np.uint64(11)).astype(np.float64) * 2.0**-53


class RandomOp(IndexUnaryOp):
    """An index-unary op whose thunk is the seed, which must be an integer. The GraphBLAS rule
    would cast any other thunk, so 0.5 would become seed 0. Here a float or BOOL thunk is
    refused instead, which the engine reports as DomainMismatch."""

    def output_type(self, dtype, thunk_type=INT64):
        thunk_type = lookup_dtype(thunk_type)
        if thunk_type.np_type.kind not in "iu":
            raise TypeError(f"the seed (the thunk) must be an integer, got {thunk_type}")
        return super().output_type(dtype, thunk_type)
