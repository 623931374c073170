"""Fused probabilistic BFS: many random reverse traversals at once, 64 per machine word.

Each color c = 0, 1, ..., k-1 is one sample of the independent cascade model: every edge
u -> v is live for c with probability p(u, v), independently. The color's reverse-reachable
(RRR) set is every vertex from which a live path leads to its source s_c. Colors travel packed,
bit c mod 64 of word c // 64, so a frontier is an n x W matrix of uint64 words (W = ceil(k/64))
and one traversal carries all of them::

    F(s_c, c / 64) |= 2^(c mod 64)            every color starts at its source
    V = F
    repeat until F is empty:
        N = T bor.sampled_band F              N(u, w) = bor_v live(u, v, w) band F(v, w)
        F = N band ~V                         the colors reaching u for the first time
        V = V bor F

``live(u, v, w)`` is the word of 64 random bits of edge (u, v) for the colors of word w: bit b
is set when the counter-based uniform U(seed, u, v, w, b) < p(u, v), chained from the
algebra's hash (``mix64`` of ``gblas2d.semirings.random``). It depends only on global ids, so
the samples are the same at every rank count and grid shape, and on python-graphblas (where
the product is evaluated with numpy; it has no index-aware multiply). Bits are drawn MSB first
from 32-bit uniforms, 64 at a time as bit slices; probabilities are rounded down to multiples
of 2^-32.

Fusing saves work: the product touches an edge once per word of its frontier entry, where 64
separate traversals would touch it once per set bit. ``edges_fused`` and ``edges_unfused`` count
both, level by level: sum_v in-degree(v) * (words of F(v, :)) and sum_v in-degree(v) *
popcount(F(v, :)).

References: R. Neff, M. Eghbali Zarch, M. Minutoli, M. Halappanavar, A. Tumeo,
A. Kalyanaraman, M. Becchi, "Fused breadth-first probabilistic traversals on distributed GPU
systems" (the fused frontier and its work savings); C. Borgs, M. Brautbar, J. Chayes,
B. Lucier, SODA 2014 (RRR sets); D. Kempe, J. Kleinberg, E. Tardos, KDD 2003 (independent
cascades).

Cost per level: one tall-and-skinny product over the frontier's in-edges, O(nnz(F) / C) words
per rank to replicate F along grid columns, a handful of random-number evaluations per live
(edge, word) pair; O(n W / P) element-wise work.
"""

import numbers
from typing import NamedTuple

import numpy as np
from gblas2d.semirings.random import GOLDEN, mix64

from gblas2d import exceptions
from gblas2d.local.device import array_module

from ._engine import check_sources, engine
from .graph import as_graph

__all__ = ["BPTResult", "fused_bpt"]

_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_SCALE = 2.0**32


class BPTResult(NamedTuple):
    """The RRR sets of a fused traversal and the work it did.

    ``rrr`` is an n x ceil(k/64) UINT64 Matrix: vertex v is in the RRR set of color c when bit
    c mod 64 of ``rrr[v, c // 64]`` is set. ``edges_fused`` counts edge visits of the fused
    traversal (one per edge and word), ``edges_unfused`` those k separate traversals would make
    (one per edge and color), ``levels`` the number of products.
    """

    rrr: object
    colors: int
    edges_fused: int
    edges_unfused: int
    levels: int


_CHUNK = 1 << 15  # elements of live_bits drawn at a time: ~3 MiB of working arrays


def live_bits(threshold, u, v, word, seed, wanted=_ALL):
    """Word of 64 random bits per edge: bit b set when U(seed, u, v, word, b) < threshold / 2^32.

    All arguments are arrays of one length (or scalars), ``threshold`` in ``[0, 2^32]``. Only
    the bits set in ``wanted`` are drawn (the others come back clear); a bit's value does not
    depend on which others are wanted. The uniforms are compared bit slice by bit slice, most
    significant first, and an element drops out once its wanted bits are all decided (each
    slice decides half of them), so a few wanted bits cost a few slices.

    Each element's bits depend on its own arguments alone, so long arrays are drawn a chunk at
    a time: the dozen working arrays take a chunk's size, not the product's.
    """
    xp = array_module(threshold, u, v, word, wanted)
    args = [xp.asarray(a) for a in (threshold, u, v, word, wanted)]
    shape = np.broadcast_shapes(*(a.shape for a in args))
    # A device has memory to spare and a cost per call: its chunks are larger.
    chunk = _CHUNK if xp is np else _CHUNK * 128
    if not shape or shape[0] <= chunk:
        return _live_bits(xp, *args, seed)
    out = xp.empty(shape, dtype=np.uint64)
    for lo in range(0, shape[0], chunk):
        out[lo:lo + chunk] = _live_bits(xp, *(a[lo:lo + chunk] if a.ndim else a
                                              for a in args), seed)
    return out


def _live_bits(xp, threshold, u, v, word, wanted, seed):
    with np.errstate(over="ignore"):
        threshold, u, v, word, wanted = xp.broadcast_arrays(
            threshold.astype(np.uint64), u.astype(np.uint64), v.astype(np.uint64),
            word.astype(np.uint64), wanted.astype(np.uint64))
        certain = threshold >= np.uint64(2**32)
        out = xp.where(certain, wanted, np.uint64(0))
        at = xp.flatnonzero(~certain & (wanted != 0))
        t, und = threshold[at], wanted[at]
        key = mix64(mix64(mix64(u[at] ^ mix64(np.uint64(seed % 2**64))) + v[at]) +
                    word[at] * GOLDEN)
        found = xp.zeros_like(und)
        for level in range(32):
            bits = mix64(key + np.uint64(level + 1) * GOLDEN)
            # all ones where bit (31 - level) of the threshold is set
            tb = np.uint64(0) - ((t >> np.uint64(31 - level)) & _ONE)
            # U < t is decided where the slices differ: true where U's bit is 0 and t's is 1
            found |= und & ~bits & tb
            und &= ~(bits ^ tb)
            left = und != 0
            still = int(xp.count_nonzero(left))
            if not still:
                break
            if 2 * still < len(left):
                out[at] = found
                at, t, und, key, found = at[left], t[left], und[left], key[left], found[left]
        out[at] = found
    return out


def _sampled_band(seed, width):
    # Column j of the frontier holds colors [j * width, (j + 1) * width): their random bits
    # come from word j * width // 64, so packing (width 64 or 1) never changes the samples.
    def multiply(threshold, word_bits, u, v, _v, j):
        return live_bits(threshold, u, v, j * width // 64, seed, wanted=word_bits)
    # It takes numpy or cupy arrays alike, so a GPU runs the product (backends/array.py).
    multiply.any_arrays = True
    return multiply


def _thresholds(ns, A, probability):
    """T(u, v) = 2^32 p(u, v) as UINT64 on the edges of A, after checking p is in [0, 1]."""
    if isinstance(probability, str):
        if probability != "weight":
            raise exceptions.InvalidValue(f"probability must be a number in [0, 1] or "
                                          f"'weight', got {probability!r}")
        if A.nvals:
            lo = A.reduce_scalar(ns.monoid.min).new().value
            hi = A.reduce_scalar(ns.monoid.max).new().value
            if not 0 <= lo <= hi <= 1:
                raise exceptions.InvalidValue(f"edge weights used as probabilities must lie in "
                                              f"[0, 1], got weights in [{lo}, {hi}]")
        # T = 2^32 A
        return A.apply(ns.binary.times, right=_SCALE).new(ns.dtypes.UINT64)
    if isinstance(probability, bool) or not isinstance(probability, numbers.Real):
        raise TypeError(f"probability must be a number in [0, 1] or 'weight', got "
                        f"{type(probability).__name__}")
    if not 0 <= probability <= 1:
        raise exceptions.InvalidValue(f"probability must lie in [0, 1], got {probability}")
    # T = 2^32 p on the pattern of A
    return A.apply(ns.unary.one).new(ns.dtypes.UINT64).apply(
        ns.binary.times, right=np.uint64(probability * _SCALE)).new()


def fused_bpt(A, sources, probability=0.1, seed=0, *, fused=True):
    """Reverse-reachable sets of one random independent-cascade sample per source, fused.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects, with the same
    samples.

    Parameters
    ----------
    A : Matrix or Graph
        Square; ``A[u, v]`` is the edge u -> v (u can activate v).
    sources : int or sequence of int
        One source per color; a source may repeat (each repeat is its own sample).
    probability : float in [0, 1] or "weight"
        Each edge is live with this probability, or with its own value as probability.
    seed : int
        Selects the samples; the same seed gives the same sets at every rank count.
    fused : bool
        False runs the baseline: every color in a column of its own (one frontier word per
        color, still one product per level), with the same samples and result.

    Returns
    -------
    BPTResult (rrr, colors, edges_fused, edges_unfused, levels).

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1], [1, 2], nrows=3, ncols=3)
    >>> fused_bpt(A, [2, 2], probability=1.0).rrr.to_coo()[2]      # both colors: {0, 1, 2}
    array([3, 3, 3], dtype=uint64)
    """
    G = as_graph(A, "fused_bpt")
    A, ns = G.A, engine(G.A)
    sources, _ = check_sources(A, sources)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    T = _thresholds(ns, A, probability)
    colors = np.arange(len(sources))
    width = 64 if fused else 1
    U64 = ns.dtypes.UINT64
    # F(s_c, c / width) |= 2^(c mod 64)
    F = ns.Matrix.from_coo(sources, colors // width, _ONE << (colors % 64).astype(np.uint64),
                           dtype=U64, nrows=A.nrows, ncols=-(-len(colors) // width),
                           dup_op=ns.binary.bor)
    V = F.dup()
    # d(v) = in-degree of v: the edges a frontier entry of v is multiplied along
    d = T.apply(ns.unary.one).new(U64).reduce_columnwise(ns.monoid.plus).new()
    fused_edges = unfused_edges = levels = 0
    while F.nvals:
        # fused += d . (words of each row of F);  unfused += d . popcount(F) summed by row
        words = F.apply(ns.unary.one).new().reduce_rowwise(ns.monoid.plus).new()
        bits = ns.popcount(F).reduce_rowwise(ns.monoid.plus).new()
        fused_edges += int(words.inner(d).new().value or 0)
        unfused_edges += int(bits.inner(d).new().value or 0)
        # N = T bor.sampled_band F
        N = ns.mxm_indexed(T, F, "bor", _sampled_band(seed, width), U64)
        # F = N band ~V, without the words that became empty
        seen = N.ewise_mult(V, ns.binary.band).new()
        F = N.ewise_add(seen, ns.binary.bxor).new().select(ns.select.valuene, 0).new()
        # V = V bor F
        V(accum=ns.binary.bor) << F
        levels += 1
    if not fused:
        # pack the colors into words: V = V bor.bor P, P(c, c / 64) = 0
        P = ns.Matrix.from_coo(colors, colors // 64, 0, dtype=U64, nrows=len(colors),
                               ncols=-(-len(colors) // 64))
        V = V.mxm(P, ns.semiring.bor_bor).new()
    return BPTResult(V, len(colors), fused_edges, unfused_edges, levels)
