"""Moving vector pieces along the grid: expand (gather a block) and fold (reduce-scatter a block).

A piece travels as one self-describing byte message, dense (a bitmap plus every value) or
sparse (index/value pairs), whichever is smaller unless the caller forces one. The receiver
reads the format from the message header, so each sender picks the best format for its own data.

Row segments: row block i of a length-n space is pieces [i*C, (i+1)*C), held by the ranks of
grid row i, so it is gathered along ``row_comm`` with no permutation. Column segments: column
block j is pieces [j*R, (j+1)*R); piece k first moves to grid position (k % R, k // R) (one
message per rank, a transpose when R == C) and is then gathered along ``col_comm``. Folds are
the exact reverse.
"""

import numpy as np

from ..local.keys import run_starts

__all__ = ["choose_format", "fold_segment", "gather_bitmap", "gather_segment", "merge_parts",
           "message_sizes"]

_SPARSE, _DENSE = 0, 1
_HEADER = 16


def _index_dtype(length):
    return np.int32 if length < 2**31 else np.int64


def _padded(nbytes):
    return (nbytes + 7) // 8 * 8


def message_bytes(fmt, count, length, itemsize):
    if fmt == _DENSE:
        return _HEADER + _padded((length + 7) // 8) + _padded(length * itemsize)
    return _HEADER + _padded(count * np.dtype(_index_dtype(length)).itemsize) + count * itemsize


def message_sizes(counts, lengths, itemsize, force=None):
    """The bytes of ``encode``'s messages for arrays of entry counts and piece lengths, in the
    format ``choose_format`` picks (or ``force``): the scale model's sizes of the messages it
    does not make."""
    counts, lengths = np.asarray(counts, dtype=np.int64), np.asarray(lengths, dtype=np.int64)
    dense = _HEADER + _padded((lengths + 7) // 8) + _padded(lengths * itemsize)
    index = np.where(lengths < 2**31, 4, 8)
    sparse = _HEADER + _padded(counts * index) + counts * itemsize
    if force is not None:
        return np.broadcast_to(dense if force == "dense" else sparse, np.shape(counts)).copy()
    return np.where(dense < sparse, dense, sparse)


def choose_format(count, length, itemsize, force=None):
    """The smaller of the two formats for ``count`` entries of a length-``length`` piece."""
    if force is not None:
        return _DENSE if force == "dense" else _SPARSE
    dense = message_bytes(_DENSE, count, length, itemsize)
    return _DENSE if dense < message_bytes(_SPARSE, count, length, itemsize) else _SPARSE


def encode(idx, vals, length, dtype, force=None):
    """One byte message for entries ``(idx, vals)`` of a piece of ``length`` positions."""
    count = len(idx)
    fmt = choose_format(count, length, dtype.itemsize, force)
    out = np.zeros(message_bytes(fmt, count, length, dtype.itemsize), dtype=np.uint8)
    out[:_HEADER].view(np.int64)[:] = (fmt, count)
    body = out[_HEADER:]
    if fmt == _DENSE:
        nbits = (length + 7) // 8
        start = _padded(nbits)
        dense = body[start:start + length * dtype.itemsize].view(dtype)
        if count == length:
            # A full piece (PageRank's vectors): every bit set and the values in order, with
            # no scatter.
            body[:nbits] = np.packbits(np.ones(length, dtype=bool))
            dense[:] = vals
        else:
            present = np.zeros(length, dtype=bool)
            present[idx] = True
            body[:nbits] = np.packbits(present)
            dense[idx] = vals
    else:
        itype = _index_dtype(length)
        nidx = count * np.dtype(itype).itemsize
        body[:nidx] = idx.astype(itype).view(np.uint8)
        start = _padded(nidx)
        packed = np.ascontiguousarray(vals, dtype).view(np.uint8)
        body[start:start + packed.size] = packed
    return out


def decode(msg, length, dtype):
    """``(idx, vals, fmt)`` of a message made by ``encode``."""
    fmt, count = (int(v) for v in msg[:_HEADER].view(np.int64))
    body = msg[_HEADER:]
    if fmt == _DENSE:
        nbits = (length + 7) // 8
        start = _padded(nbits)
        dense = body[start:start + length * dtype.itemsize].view(dtype)
        if count == length:
            return np.arange(length, dtype=np.int64), dense, "dense"
        idx = np.flatnonzero(np.unpackbits(body[:nbits], count=length).astype(bool))
        return idx, dense[idx], "dense"
    itype = _index_dtype(length)
    nidx = count * np.dtype(itype).itemsize
    idx = body[:nidx].view(itype).astype(np.int64)
    start = _padded(nidx)
    return idx, body[start:start + count * dtype.itemsize].view(dtype), "sparse"


def merge_parts(parts, length, monoid, dtype):
    """Combine several (idx, vals) lists over one piece with ``monoid``; sorted unique result."""
    parts = [p for p in parts if len(p[0])]
    if not parts:
        return np.empty(0, np.int64), np.empty(0, dtype)
    if len(parts) == 1:
        return parts[0][0], parts[0][1].astype(dtype, copy=False)
    total = sum(len(p[0]) for p in parts)
    if total * 8 > length:
        # Dense accumulation: O(length) per part, no sort.
        present = np.zeros(length, dtype=bool)
        acc = np.zeros(length, dtype=dtype)
        for idx, vals in parts:
            both = present[idx]
            hit = idx[both]
            acc[hit] = monoid.combine(acc[hit], vals[both].astype(dtype, copy=False))
            new = idx[~both]
            acc[new] = vals[~both]
            present[new] = True
        idx = np.flatnonzero(present)
        return idx, acc[idx]
    idx = np.concatenate([p[0] for p in parts])
    vals = np.concatenate([p[1].astype(dtype, copy=False) for p in parts])
    order = np.argsort(idx, kind="stable")
    idx, vals = idx[order], vals[order]
    starts = run_starts(idx)
    return idx[starts], monoid.reduceat(vals, starts).astype(dtype, copy=False)


def gather_segment(grid, n, idx, vals, dtype, axis, force=None):
    """Collective. Gather this rank's piece of a length-n space into its row or column segment.

    ``idx`` are positions in this rank's piece, ``vals`` their values. Returns ``(lo, idx,
    vals, formats)``: the segment's first global index, segment-relative sorted positions,
    values, and the formats that travelled.
    """
    lo, hi = grid.piece(n)
    if grid.segment_is_local(axis):
        # The segment is this rank's own piece: nothing travels.
        return lo, idx, np.asarray(vals, dtype=dtype), ["local"]
    msg = encode(idx, vals, hi - lo, dtype, force)
    if axis == "col":
        # Piece k moves to grid position (k % R, k // R); this rank receives the piece whose
        # position it is.
        msg = grid.lay_along_columns(msg)
        group = grid.col_comm
    else:
        group = grid.row_comm
    pieces = grid.segment_pieces(axis)
    off = grid.offsets(n)
    seg_lo = int(off[pieces[0]])
    out_idx, out_vals, formats = [], [], []
    for k, part in zip(pieces, group.allgatherv(msg), strict=True):
        p_idx, p_vals, fmt = decode(part, int(off[k + 1] - off[k]), dtype)
        out_idx.append(p_idx + (off[k] - seg_lo))
        out_vals.append(p_vals)
        formats.append(fmt)
    return seg_lo, np.concatenate(out_idx), np.concatenate(out_vals).astype(dtype, copy=False), \
        formats


def fold_segment(grid, n, idx, vals, monoid, dtype, axis, force=None):
    """Collective. Reduce partial results over this rank's row or column segment to the owners.

    ``idx`` (sorted, unique, segment-relative) and ``vals`` are this rank's partial results.
    Every piece is combined with ``monoid`` at its owner. Returns ``(idx, vals, formats)`` for
    this rank's own piece.
    """
    if grid.segment_is_local(axis):
        return idx, np.asarray(vals, dtype=dtype), ["local"]
    pieces = grid.segment_pieces(axis)
    off = grid.offsets(n)
    seg_lo = int(off[pieces[0]])
    bounds = np.searchsorted(idx, off[pieces + [pieces[-1] + 1]] - seg_lo)
    msgs = []
    for m, k in enumerate(pieces):
        a, b = bounds[m], bounds[m + 1]
        msgs.append(encode(idx[a:b] - (off[k] - seg_lo), vals[a:b], int(off[k + 1] - off[k]),
                           dtype, force))
    group = grid.col_comm if axis == "col" else grid.row_comm
    received = group.alltoallv(msgs)
    mine = pieces[group.rank]
    length = int(off[mine + 1] - off[mine])
    decoded = [decode(part, length, dtype) for part in received]
    formats = [d[2] for d in decoded]
    out_idx, out_vals = merge_parts([(d[0], d[1]) for d in decoded], length, monoid, dtype)
    if axis == "col":
        # The piece now sits at grid position (k % R, k // R); send it home to rank k.
        msg = encode(out_idx, out_vals, length, dtype)
        home = grid.lay_along_columns(msg, home=True)
        lo, hi = grid.piece(n)
        out_idx, out_vals, _ = decode(home, hi - lo, dtype)
    return out_idx, out_vals, formats


def gather_bitmap(grid, n, bits, axis):
    """Collective. Gather this rank's piece of a bitmap (packed, n/8 bytes a piece) into its
    row or column segment; returns the segment's bool array."""
    if grid.segment_is_local(axis):
        return bits
    msg = np.packbits(bits)
    if axis == "col":
        msg = grid.lay_along_columns(msg)
        group = grid.col_comm
    else:
        group = grid.row_comm
    off = grid.offsets(n)
    parts = group.allgatherv(msg)
    return np.concatenate([np.unpackbits(p, count=int(off[k + 1] - off[k])).astype(bool)
                           for k, p in zip(grid.segment_pieces(axis), parts, strict=True)])
