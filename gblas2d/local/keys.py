"""Sorted-key primitives: the searches, merges and reductions by key that the kernels, the
exchange and the containers share. Arrays in, arrays out, no communication. The merges, the
write rule and ``ewise_sorted`` take numpy's or cupy's arrays alike (the GPU backend calls
them on the device).

A key is a position in a piece, or ``row * ncols + col`` in a block; every function here
keeps keys sorted and unique where it says so, so two lists merge without a sort. A block of
more than 2^63 positions (dimensions up to 2^60, as in python-graphblas) has keys beyond int64:
they are Python integers in an object array (``block_keys``), which sort, search and compare
the same way, exactly, at a higher cost per entry; such a block is hypersparse, so its entries
are few.
"""

import numpy as np

from ..semirings._arrays import array_module
from ..semirings._numeric import cast
from ..semirings.dtypes import lookup_dtype

__all__ = ["block_keys", "ewise_sorted", "expand_rows", "fold_until", "key_rows_cols",
           "inserted", "keys_fit", "locate", "merge_disjoint", "reduce_by_key", "reduce_scattered",
           "reduce_sorted", "run_starts", "sorted_isin", "sorted_union", "unique_sorted",
           "write_sorted"]


_INT64_POSITIONS = 2 ** 63


def keys_fit(nrows, ncols):
    """Whether the keys of an ``nrows`` x ``ncols`` block fit in int64."""
    return nrows * ncols < _INT64_POSITIONS


def block_keys(rows, cols, nrows, ncols):
    """The keys ``row * ncols + col`` of int64 ``rows`` and ``cols``: int64 when every
    position of the block fits, Python integers otherwise (see the module docstring)."""
    if keys_fit(nrows, ncols):
        return rows * ncols + cols
    return rows.astype(object) * ncols + cols.astype(object)


def key_rows_cols(keys, ncols):
    """The int64 rows and columns of block keys (either kind)."""
    width = max(ncols, 1)
    return (keys // width).astype(np.int64, copy=False), (keys % width).astype(np.int64, copy=False)


def locate(ids, wanted):
    """Where the sorted unique ``wanted`` rows sit in a storage by rows: (their slots, which
    of ``wanted`` have one, None for all). ``ids`` are a hypersparse storage's sorted row ids;
    None is a plain storage, row r at slot r. O(len(wanted) log len(ids)), never O(rows)."""
    if ids is None:
        return wanted, None
    if len(ids) == 0:
        return wanted[:0], np.zeros(len(wanted), dtype=bool)
    slots = np.minimum(np.searchsorted(ids, wanted), len(ids) - 1)
    there = ids[slots] == wanted
    return slots[there], there


def expand_rows(indptr, rows, *, owners=True):
    """Positions in the storage arrays of every entry of ``rows`` and, per entry, which of
    ``rows`` it came from (None when not ``owners``: a push whose products are all one needs
    only where it lands)."""
    starts = indptr[rows]
    lengths = indptr[rows + 1] - starts
    ends = np.cumsum(lengths)
    pos = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64)
    pos += np.repeat(starts - (ends - lengths), lengths)
    if not owners:
        return pos, None
    return pos, np.repeat(np.arange(len(rows), dtype=np.int64), lengths)


def unique_sorted(keys):
    """The distinct values of ``keys``, sorted: ``np.unique`` without its per-call checks,
    which cost more than the work on a BFS level's few hundred keys. Keys already increasing
    (an index given sorted) are returned as they are."""
    if len(keys) < 2 or (keys[1:] > keys[:-1]).all():
        return keys
    keys = np.sort(keys)
    first = np.empty(len(keys), dtype=bool)
    first[0] = True
    np.not_equal(keys[1:], keys[:-1], out=first[1:])
    return keys[first]


def sorted_isin(a, b):
    """Which of the sorted unique keys ``a`` are in the sorted unique keys ``b``: a binary
    search of each, where ``np.isin`` would hash both arrays (numpy 2.x), several times slower
    on millions of keys."""
    xp = array_module(a, b)
    if len(b) == 0:
        return xp.zeros(len(a), dtype=bool)
    pos = xp.searchsorted(b, a)
    return b[xp.minimum(pos, len(b) - 1)] == a


def sorted_union(a, b):
    """The sorted union of the sorted unique keys ``a`` and ``b``."""
    xp = array_module(a, b)
    return xp.sort(xp.concatenate([a, b[~sorted_isin(b, a)]]))


def run_starts(keys):
    """Where each run of equal values begins in the sorted ``keys`` (``np.r_`` would do it with
    a Python-level parse per call, which shows in a BFS's per-level cost)."""
    first = (np if type(keys) is np.ndarray else array_module(keys)).empty(len(keys), dtype=bool)
    if len(keys):
        first[0] = True
        np.not_equal(keys[1:], keys[:-1], out=first[1:])
    return np.flatnonzero(first)


def reduce_sorted(keys, vals, monoid):
    """Reduce runs of equal ``keys`` (already sorted) with ``monoid``: unique keys, values."""
    if len(keys) == 0:
        return keys, monoid.reduceat(vals, keys[:0])
    starts = run_starts(keys)
    return keys[starts], monoid.reduceat(vals, starts)


_FIRST_CHUNK = 4096


def fold_until(fold, stop, values, present=None):
    """``fold`` of ``values`` (of those where ``present`` is True, for a bitmap), or None when
    there is none. With a ``stop`` test (``Monoid.stop_of``) the values are folded in chunks
    that grow fourfold and the fold ends after the first chunk whose running result passes it:
    a visited set's ``lor`` reads one chunk, not its million entries (``v.reduce(lor)``:
    2.5 ms -> 36 us), and a fold that never stops pays only a call per chunk (one per 4x)."""
    if stop is None:
        held = values if present is None else values[np.flatnonzero(present)]
        return fold(held) if len(held) else None
    acc, start, step = None, 0, _FIRST_CHUNK
    while start < len(values):
        chunk = values[start:start + step]
        if present is not None:
            chunk = chunk[np.flatnonzero(present[start:start + step])]
        start, step = start + step, step * 4
        if len(chunk) == 0:
            continue
        part = fold(chunk)
        acc = part if acc is None else fold(np.array([acc, part]))
        if stop(acc):
            break
    return acc


def reduce_by_key(keys, vals, monoid):
    """Sort by ``keys`` (stably) and reduce duplicates with ``monoid``."""
    order = np.argsort(keys, kind="stable")
    return reduce_sorted(keys[order], vals[order], monoid)


def reduce_scattered(keys, vals, monoid, size):
    """``reduce_by_key`` for keys in ``[0, size)``. Many products with a ufunc (or ``any``)
    monoid fold into a dense scratch array with ``ufunc.at``, in input order as the stable sort
    would, without the sort's O(k log k); few products keep the sort, which costs nothing per
    output."""
    if (monoid.ufunc is None and not monoid.is_any) or len(keys) * 16 < size:
        return reduce_by_key(keys, vals, monoid)
    t = monoid.output_type(lookup_dtype(vals.dtype))
    vals = vals.astype(t.np_type, copy=False)
    if monoid.is_any:
        # any candidate will do: the last one written to each position
        dense = np.empty(size, dtype=t.np_type)
        dense[keys] = vals
    else:
        dense = np.full(size, monoid.identity_of(t), dtype=t.np_type)
        with np.errstate(all="ignore"):
            monoid.ufunc.at(dense, keys, vals)
    hit = np.zeros(size, dtype=bool)
    hit[keys] = True
    idx = np.flatnonzero(hit)
    return idx, dense[idx]


def merge_disjoint(a_keys, a_vals, b_keys, b_vals):
    """Two sorted key lists with no key in common, merged. When one is much the shorter, each
    of its keys finds its place by binary search in the other, whose entries fill the places
    left: O(short log long + total). Lists of like lengths are sorted together instead, a
    stable sort that merges the two runs in one pass (1M keys and 1M: 48 ms, where a binary
    search of every key in the other list costs 115)."""
    xp = array_module(a_keys, b_keys)
    dtype = np.result_type(a_vals.dtype, b_vals.dtype)
    if min(len(a_keys), len(b_keys)) * _SHORT_SHARE > max(len(a_keys), len(b_keys)):
        keys = xp.concatenate([a_keys, b_keys])
        order = xp.argsort(keys, kind="stable")
        return keys[order], xp.concatenate([a_vals.astype(dtype, copy=False),
                                            b_vals.astype(dtype, copy=False)])[order]
    if len(a_keys) < len(b_keys):
        a_keys, a_vals, b_keys, b_vals = b_keys, b_vals, a_keys, a_vals
    total = len(a_keys) + len(b_keys)
    keys = xp.empty(total, dtype=np.result_type(a_keys.dtype, b_keys.dtype))
    vals = xp.empty(total, dtype=dtype)
    at_b = xp.arange(len(b_keys)) + xp.searchsorted(a_keys, b_keys)
    from_a = xp.ones(total, dtype=bool)
    from_a[at_b] = False
    keys[at_b], vals[at_b] = b_keys, b_vals
    keys[from_a], vals[from_a] = a_keys, a_vals
    return keys, vals


# ``merge_disjoint`` places the shorter list by binary search when it has at most this share
# of the longer one's keys.
_SHORT_SHARE = 16


# Up to this many new entries, ``inserted`` copies the runs between them one slice at a time:
# numpy's ``insert`` builds a mask of the whole output and costs ~2.5 copies of the array
# (1M int64 with 64 new: 1.26 ms by slices, 1.98 ms by np.insert; they meet at ~1,000).
_SLICED_INSERTS = 512


def inserted(array, at, new):
    """``array`` with ``new[i]`` placed before ``array[at[i]]`` (``at`` sorted): a new array,
    one copy of ``array`` for a few insertions."""
    if len(at) > _SLICED_INSERTS:
        return np.insert(array, at, new)
    k = len(at)
    out = np.empty(len(array) + k, dtype=np.result_type(array.dtype, new.dtype))
    out[at + np.arange(k)] = new
    start = 0
    for i, stop in enumerate(at.tolist()):
        out[start + i:stop + i] = array[start:stop]
        start = stop
    out[start + k:] = array[start:]
    return out


def write_sorted(c_keys, c_vals, t_keys, t_vals, allows, accum, replace, dtype, *,
                 t_masked=False):
    """GraphBLAS's write ``C<M, replace> = accum(C, T)`` (``= T`` without ``accum``) on sorted
    unique keys: the new (keys, values) of C, of ``dtype``. ``allows(keys)`` says which keys
    the mask lets through (None: no mask); ``t_masked``, that T holds only such keys already.
    Blocks write through this; pieces too, beside the shortcuts a bitmap allows.

    Z = accum(C, T) over the union of C's and T's entries inside the mask (T alone without
    ``accum``); C becomes Z there and keeps its entries outside the mask unless ``replace``.
    """
    outside = None
    if allows is not None:
        if not t_masked:
            keep = allows(t_keys)
            t_keys, t_vals = t_keys[keep], t_vals[keep]
        inside = allows(c_keys)
        if not replace:
            outside = c_keys[~inside], c_vals[~inside].astype(dtype, copy=False)
        if accum is not None:
            c_keys, c_vals = c_keys[inside], c_vals[inside]
    if accum is None:
        z_keys, z_vals = t_keys, cast(t_vals, dtype)
    else:
        z_keys = sorted_union(c_keys, t_keys)
        xp = array_module(z_keys)
        z_vals = xp.zeros(len(z_keys), dtype=dtype)
        in_c = xp.searchsorted(z_keys, c_keys)
        z_vals[in_c] = c_vals
        z_vals[xp.searchsorted(z_keys, t_keys)] = cast(t_vals, dtype)
        both_c = sorted_isin(c_keys, t_keys)
        z_vals[in_c[both_c]] = cast(
            accum.evaluate(c_vals[both_c], t_vals[sorted_isin(t_keys, c_keys)]), dtype)
    if outside is not None:
        # C's entries outside the mask stay; Z has none there.
        z_keys, z_vals = merge_disjoint(z_keys, z_vals, *outside)
    return z_keys, z_vals.astype(dtype, copy=False)


def ewise_sorted(ak, av, bk, bv, binop, kind, out_type, defaults):
    """Element-wise ``binop`` of two sorted unique key lists and their values: sorted (keys,
    values). ``kind`` is "mult" (intersection), "add" (union, a lone value kept) or "union"
    (union, a lone value combined with the other side's default, ``defaults``)."""
    xp = array_module(ak, bk)
    # One merge of the two sorted key lists (a stable sort of two runs): a key in both sits
    # right after itself, A's entry first.
    keys = xp.concatenate([ak, bk])
    order = xp.argsort(keys, kind="stable")
    keys = keys[order]
    first = xp.flatnonzero(keys[1:] == keys[:-1])
    in_b = xp.zeros(len(ak), dtype=bool)
    in_b[order[first]] = True
    in_a = xp.zeros(len(bk), dtype=bool)
    in_a[order[first + 1] - len(ak)] = True
    both_vals = binop.evaluate(av[in_b], bv[in_a])
    if kind == "mult":
        return ak[in_b], both_vals.astype(out_type)
    if kind == "union":
        left_default, right_default = defaults
        only_a = binop.evaluate(av[~in_b], xp.full(len(ak) - len(first), right_default,
                                                   dtype=bv.dtype))
        only_b = binop.evaluate(xp.full(len(bk) - len(first), left_default, dtype=av.dtype),
                                bv[~in_a])
    else:
        only_a, only_b = av[~in_b], bv[~in_a]
    # Each entry's place in the merged order: A's entries (the first of a pair) and B's
    # entries that A lacks.
    out_vals = xp.empty(len(ak) + len(bk), dtype=out_type)
    out_vals[:len(ak)][in_b] = both_vals
    out_vals[:len(ak)][~in_b] = only_a
    out_vals[len(ak):][~in_a] = only_b
    keep = xp.ones(len(keys), dtype=bool)
    keep[first + 1] = False
    return keys[keep], out_vals[order[keep]]
