"""The array backend: one set of kernels written against an array module ``xp`` and a sparse
module, run on the host (numpy and scipy.sparse: ``GBLAS2D_BACKEND=array``) or on a CUDA
device (cupy and cupyx.scipy.sparse: ``GBLAS2D_BACKEND=cupy``). ``device.py`` holds the two
places and the copies between them; nothing here names either module. On the host the arrays
are numpy's behind cupy's rules (``emulated.py``): no implicit copy either way.

Only calls that numpy and current cupy both have are used: gathers, ``searchsorted``,
``cumsum``, stable sorts, ``ufunc.at`` for add and the bitwise ops, scatter by assignment,
and the sparse module's CSR product. A kernel reads the block's copy on the device, made on
first use and kept with the block (``block.derived["array"]``); its vector operands are read
where they are (a host piece goes down as stored: a sparse one as its entries, O(entries)),
and its result is a Piece left on the device.

* ``spmv``, push and pull, for the monoids any, plus, min, max, lor, land, bor, band, bxor
  with the builtin multiplies (positional ones included) on numeric types; an unmasked
  plus_times (or plus_first / plus_second that keep x) on floats is the sparse module's CSR
  product.
* ``spgemm``: products by expansion of B's rows and a sort by output key, or the sparse
  module's product for plus_times / plus_first / plus_second on floats; under a plain mask
  that reads less, one dot product per mask entry (binary searches in B's keys).

* ``ewise_block``, ``write_block`` and ``select_values``: the sorted-key merges of ``keys``
  (``ewise_sorted``, ``write_sorted``), which take either module's arrays, run where the
  kernels run.

A user-defined op runs here on the host; on the device only one whose function takes any
module's arrays (``func.any_arrays``, as the fused BPT's sampled band). The times monoid and
keys beyond int64 are numpy's (``accepts``). ``transpose_block`` sorts the block's storage by
columns on the device, where pushes read it too.
"""

import numpy as np

from ...semirings import binary as builtin_binary
from ...semirings import select as builtin_select
from ...semirings.dtypes import lookup_dtype
from .. import device
from ..block import HYPER_SWITCH, Block
from ..keys import ewise_sorted, keys_fit, write_sorted
from ..piece import Piece, ewise, together, write
from .numpy import scipy_operand

__all__ = ["PAIR_BY_DOTS", "SCIPY_DENSE_PULL", "SMALL_PUSH", "accepts", "adopt", "ewise_block",
           "ewise_piece", "held_bytes", "select_values", "small_push_in_numpy", "spgemm",
           "spmv", "transpose_block", "use", "vector_module", "write_block", "write_piece"]

# The plan's two measured exceptions do not apply: the sparse module's product is taken here.
SCIPY_DENSE_PULL = False
SMALL_PUSH = 0

_place = [device.Host()]

# A masked plus_pair (triangle counting's L.U under L) is the sparse module's product of
# every wedge, the mask applied after: on the host that beat the mask's dot products (R-MAT
# 13: 0.2 s against 3.2 s). Set, it takes the dots whatever their work, which
# ``bench_gpu.py`` times on a device.
PAIR_BY_DOTS = False


def use(where):
    """Run the kernels on the host ("host": numpy and scipy) or a CUDA device ("cupy")."""
    _place[0] = device.Cuda() if where == "cupy" else device.Host()


def vector_module():
    """Where a new full vector is made: on the device, where the products read it."""
    return _place[0].xp


def small_push_in_numpy(block, orient):
    return False


def adopt(block):
    """Nothing to take over: the device copy is made when a kernel first reads the block."""


def held_bytes(block):
    """The bytes of this backend's copies of ``block`` on the device (the host twin's too),
    each counted once (a symmetric block's storage by columns is its storage by rows)."""
    dev = _place[0]
    total = 0
    stored = {id(storage): storage for storage in block.derived.get("array", {}).values()}
    for storage in stored.values():
        for a in storage:
            if hasattr(a, "indptr"):  # a matrix of the sparse module: its three arrays
                total += dev.held(a.data) + dev.held(a.indices) + dev.held(a.indptr)
            elif a is not None:
                total += dev.held(a)
    return total


_MONOIDS = ("any", "plus", "min", "max", "lor", "land", "bor", "band", "bxor")
_OPS = ("plus", "times", "first", "second", "pair", "any", "min", "max", "minus", "land", "lor",
        "band", "bor", "bxor", "firsti", "firsti1", "firstj", "firstj1", "secondi", "secondi1",
        "secondj", "secondj1")


def _builtin(op, names):
    return op.name in names and getattr(builtin_binary, op.name).func is op.func


def _op_runs_here(op):
    if _builtin(op, _OPS):
        return True
    # A user op: numpy arrays on the host; on a device, only one written for any module.
    return _place[0].name == "host" or getattr(op.func, "any_arrays", False)


def accepts(kernel, *args, **kwargs):
    """spmv and spgemm over the monoids and multiplies this backend has (the module
    docstring), on numeric values; everything else goes to numpy."""
    if kernel in ("ewise_block", "write_block", "select_values"):
        return _block_kernel_runs_here(kernel, *args)
    if kernel in ("reduce_rows", "reduce_block"):
        return False
    if kernel == "transpose_block":
        block = args[0]
        return keys_fit(block.nrows, block.ncols) and _numeric(block.dtype)
    if kernel == "spmv":
        block, x, semiring = args
        dtypes = (block.dtype, x.dtype)
    elif kernel == "spgemm":
        a, b, semiring = args[:3]
        dtypes = (a.dtype, b[2].dtype)
        if not keys_fit(a.nrows, b[3]):
            return False
    else:
        return False
    monoid = semiring.monoid
    return _numeric(*dtypes) and _builtin(monoid.binaryop, _MONOIDS) and \
        monoid.name == monoid.binaryop.name and _op_runs_here(semiring.binaryop)


def _numeric(*dtypes):
    return all(np.dtype(t).kind in "biuf" for t in dtypes)


def _block_kernel_runs_here(kernel, *args):
    """An element-wise, write or select kernel of blocks whose keys fit int64, on numeric
    values, with an op that runs here (``select_values``: a builtin select op on a device)."""
    a, b = args[:2]
    blocks = (a, b) if kernel != "select_values" else (a,)
    if not all(keys_fit(blk.nrows, blk.ncols) and _numeric(blk.dtype) for blk in blocks):
        return False
    if kernel == "ewise_block":
        return _op_runs_here(args[2])
    if kernel == "write_block":
        accum = args[3]
        return accum is None or _op_runs_here(accum)
    op = b
    return _place[0].name == "host" or getattr(builtin_select, op.name, None) is not None and \
        getattr(builtin_select, op.name).func is op.func


# ---- the block's copy, and the operands ----

def _storage(block, by):
    """The block by "rows" or "cols" on the device: (ids or None, ptr, ind, values), made on
    first use: by rows, its host storage copied down; by columns, sorted there from that."""
    cache = block.derived.setdefault("array", {})
    if by not in cache:
        dev = _place[0]
        if by == "rows":
            cache[by] = tuple(dev.to_device(a) for a in block.by_rows())
        elif block.symmetric:
            cache[by] = _storage(block, "rows")
        else:
            cache[by] = _turned(dev.xp, block, _storage(block, "rows"))
    return cache[by]


def _turned(xp, block, by_rows):
    """The storage by columns of a block from its storage by rows, on the device: a stable
    sort of the entries by column keeps each column's rows in order. Hypersparse by the
    block's rule (``Block.by_cols``)."""
    ids, ptr, ind, val = by_rows
    slot = _slots(block, "rows", ptr)
    rows = slot if ids is None else ids[slot]
    order = xp.argsort(ind, kind="stable")
    cols = ind[order]
    if ids is None and block.nvals >= HYPER_SWITCH * block.ncols:
        col_ptr = xp.searchsorted(cols, xp.arange(block.ncols + 1))
        return None, col_ptr, rows[order], val[order]
    if len(cols) == 0:
        return cols, xp.zeros(1, dtype=np.int64), rows, val
    first = xp.flatnonzero(_run_firsts(xp, cols))
    col_ptr = xp.concatenate([first, xp.full(1, len(cols), dtype=first.dtype)])
    return cols[first], col_ptr, rows[order], val[order]


def _slots(block, by, ptr):
    """The storage row (slot) of every entry, kept beside the device's copy."""
    xp = _place[0].xp
    cache = block.derived["array"]
    if ("slots", by) not in cache:
        cache[("slots", by)] = (_owners(xp, ptr, xp.arange(len(ptr) - 1)),)
    return cache[("slots", by)][0]


def _owners(xp, ptr, slots):
    """Which of ``slots`` each of their entries belongs to (entries in storage order)."""
    lengths = ptr[slots + 1] - ptr[slots]
    ends = xp.cumsum(lengths)
    total = int(ends[-1]) if len(ends) else 0
    return xp.searchsorted(ends, xp.arange(total), side="right")


def _expand(xp, ptr, slots):
    """(positions in the storage, owner in ``slots``) of every entry of the storage rows
    ``slots``: ``keys.expand_rows`` without ``repeat`` of a count array, which cupy lacks."""
    starts = ptr[slots]
    owner = _owners(xp, ptr, slots)
    if len(owner) == 0:
        return owner, owner
    firsts = xp.cumsum(ptr[slots + 1] - starts) - (ptr[slots + 1] - starts)
    return xp.arange(len(owner)) - firsts[owner] + starts[owner], owner


def _dense(xp, dev, piece, dtype=None, *, values=True):
    """(present, values) of every position of a Piece, on the device: a sparse piece goes
    down as its entries, a bitmap as it is. Without ``values`` (a multiply that does not read
    them), the values are None and stay on the host."""
    dtype = piece.dtype if dtype is None else np.dtype(dtype)
    if piece.present is not None:
        present = dev.to_device(piece.present)
        return present, dev.to_device(piece.values.astype(dtype, copy=False)) if values \
            else None
    present = xp.zeros(piece.size, dtype=bool)
    idx = dev.to_device(piece.idx)
    present[idx] = True
    if not values:
        return present, None
    dense = xp.zeros(piece.size, dtype=dtype)
    dense[idx] = dev.to_device(piece.vals.astype(dtype, copy=False))
    return present, dense


def _entries(xp, dev, piece, *, values=True):
    """(positions, values) of a Piece's entries, on the device (values None without
    ``values``)."""
    if piece.present is None:
        return dev.to_device(piece.idx), dev.to_device(piece.vals) if values else None
    idx = xp.flatnonzero(dev.to_device(piece.present))
    return idx, dev.to_device(piece.values)[idx] if values else None


def _reads_x(semiring, x_first):
    """Whether the multiply reads x's values: not ``pair``, a positional op, or the op that
    keeps the matrix's value (BFS's products read only where x has entries)."""
    op = semiring.binaryop
    keeps_a = "second" if x_first else "first"
    return not (_builtin(op, ("pair", keeps_a)) or op.index_aware and _builtin(op, _OPS))


def _x_values(xp, values, at, dtype):
    """x's values at positions ``at``, or zeros of its type where they are not read."""
    return values[at] if values is not None else xp.zeros(len(at), dtype=dtype)


def _allowed(xp, dev, mask):
    """The positions a PieceMask lets through, as a bool array on the device (its values
    stay on the host: the mask is its structure)."""
    on = mask.on
    if on.present is not None:
        present = dev.to_device(on.present)
    else:
        present = xp.zeros(on.size, dtype=bool)
        present[dev.to_device(on.idx)] = True
    return ~present if mask.complement else present


# ---- products and folds ----

def _evaluate(op, x, y, positions):
    """``op`` on device arrays, with the positions made only for a positional op."""
    return op.evaluate(x, y, *positions()) if op.index_aware else op.evaluate(x, y)


def _multiply(xp, semiring, a_vals, x_vals, out_g, in_g, x_first):
    """Products in the right operand order (``numpy._multiply``), positions made only for a
    positional op."""
    def positions():
        out_i, in_i = out_g(), in_g()
        zero = xp.zeros_like(in_i)
        return (zero, in_i, in_i, out_i) if x_first else (out_i, in_i, in_i, zero)

    first, second = (x_vals, a_vals) if x_first else (a_vals, x_vals)
    return _evaluate(semiring.binaryop, first, second, positions)


def _typed(monoid, vals):
    """The fold's name (GraphBLAS's plus on BOOL is lor) and ``vals`` in its output type."""
    t = monoid.output_type(lookup_dtype(vals.dtype)).np_type
    name = "lor" if monoid.name == "plus" and np.dtype(t).kind == "b" else monoid.name
    return name, vals.astype(t, copy=False)


def _sorts(name, dtype):
    """Whether a fold sorts: min and max on floats (NaN: fmin and fmax) and on integers
    narrower than 32 bits, which a device has no atomic min or max for."""
    return name in ("min", "max") and (dtype.kind not in "iu" or dtype.itemsize < 4)


def _fold(xp, out, vals, monoid, size):
    """Reduce ``vals`` by their keys ``out`` in ``[0, size)``: (sorted keys, values)."""
    name, vals = _typed(monoid, vals)
    if _sorts(name, vals.dtype):
        return _fold_by_sort(xp, out, vals, name)
    hit, dense = _fold_dense(xp, out, vals, monoid, name, size)
    idx = xp.flatnonzero(hit)
    return idx, dense[idx]


def _fold_dense(xp, out, vals, monoid, name, size):
    """``_fold``'s work for a fold that does not sort (``_typed`` values): (hit, values) over
    every key in ``[0, size)``, where a key that no value reached holds an arbitrary value."""
    t = vals.dtype
    hit = xp.zeros(size, dtype=bool)
    hit[out] = True
    if name in ("min", "max"):
        # one atomic min or max an entry (BFS parents' min_secondi), where sorting by value
        # and then by key would take two sorts of every product
        dense = xp.full(size, monoid.identity_of(lookup_dtype(t)), dtype=t)
        (xp.minimum if name == "min" else xp.maximum).at(dense, out, vals)
    elif name == "any":
        dense = xp.empty(size, dtype=t)
        dense[out] = vals
    elif name in ("lor", "land"):
        # One value wins any repeat: true for lor, false for land.
        win = (vals != 0) == (name == "lor")
        dense = xp.full(size, name == "land", dtype=bool)
        dense[out[win]] = name == "lor"
    elif name == "plus" and np.dtype(t).kind == "f":
        dense = xp.zeros(size, dtype=t)
        xp.add.at(dense, out, vals)
    else:
        # Integers: in uint64 words, whose sums and bits wrap as the narrower types do.
        ufunc = {"plus": xp.add, "bor": xp.bitwise_or, "band": xp.bitwise_and,
                 "bxor": xp.bitwise_xor}[name]
        words = vals.astype(np.int64 if np.dtype(t).kind == "i" else np.uint64)
        words = words.view(np.uint64) if words.dtype == np.int64 else words
        identity = monoid.identity_of(lookup_dtype(t))
        word = int(identity) % 2**64  # a negative identity (band's -1) as its uint64 word
        dense = xp.full(size, word, dtype=np.uint64)
        ufunc.at(dense, out, words)
        dense = dense.view(np.int64) if np.dtype(t).kind == "i" else dense
    return hit, dense.astype(t, copy=False)


def _fold_by_sort(xp, out, vals, name):
    """min or max by keys: a stable sort by value, then by key, and each key's first value.
    NaN sorts last, so it is kept only where a key has nothing else (fmin and fmax)."""
    order = xp.argsort(-vals if name == "max" and vals.dtype.kind == "f" else vals,
                       kind="stable")
    order = order[xp.argsort(out[order], kind="stable")]
    keys, vals = out[order], vals[order]
    if len(keys) == 0:
        return keys, vals
    first = _run_firsts(xp, keys)
    if name == "max" and vals.dtype.kind != "f":
        # ascending by value: each key's last value
        last = xp.ones(len(keys), dtype=bool)
        last[:-1] = first[1:]
        return keys[last], vals[last]
    return keys[first], vals[first]


def _run_firsts(xp, keys):
    """Where each run of equal values begins in the sorted, non-empty ``keys``, as a mask."""
    first = xp.ones(len(keys), dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    return first


def _reduce_by_key(xp, keys, vals, monoid):
    """Reduce by arbitrary int64 keys: sorted, numbered by run, folded over the runs."""
    order = xp.argsort(keys, kind="stable")
    keys, vals = keys[order], vals[order]
    if len(keys) == 0:
        return keys, vals.astype(monoid.output_type(lookup_dtype(vals.dtype)).np_type)
    first = _run_firsts(xp, keys)
    run = xp.cumsum(first) - 1
    runs, folded = _fold(xp, run, vals, monoid, int(run[-1]) + 1)
    return keys[first][runs], folded


def _result(xp, out, prod, monoid, n_out, out_dtype):
    """``spmv``'s result, the products ``prod`` folded by output ``out``: a Piece left where
    it was made (the product keeps it there, or copies it up to send it). A fold over every
    output is kept as the bitmap it made where that is dense, with no list of its entries."""
    if n_out > 8 * len(out) + 4096:
        # few products into many outputs (a hypersparse matrix's): folded by sorting their
        # keys, O(products), where a bitmap of the outputs would be O(outputs)
        keys, vals = _reduce_by_key(xp, out, prod, monoid)
    else:
        name, prod = _typed(monoid, prod)
        if not _sorts(name, prod.dtype):
            hit, dense = _fold_dense(xp, out, prod, monoid, name, n_out)
            return Piece.from_bitmap(hit, dense.astype(out_dtype, copy=False),
                                     was_bitmap=False)
        keys, vals = _fold_by_sort(xp, out, prod, name)
    return Piece.listed(n_out, keys.astype(np.int64, copy=False),
                        vals.astype(out_dtype, copy=False))


# ---- the kernels ----

def spmv(block, x, semiring, *, orient, x_first, direction, allowed, out_offset, in_offset,
         out_dtype):
    """Local masked ``y = B (+).(x) x`` for one block; the arguments and result of
    ``numpy.spmv``."""
    dev = _place[0]
    xp = dev.xp
    n_out = block.nrows if orient == "mxv" else block.ncols
    if direction == "pull":
        return _pull(xp, dev, block, x, semiring, orient, x_first, allowed, out_offset,
                     in_offset, out_dtype, n_out)
    ids, ptr, ind, val = _storage(block, "cols" if orient == "mxv" else "rows")
    x_idx, x_vals = _entries(xp, dev, x, values=_reads_x(semiring, x_first))
    if x_vals is None:
        x_vals = xp.zeros(len(x_idx), dtype=x.dtype)
    slots = x_idx
    if ids is not None:
        at = xp.minimum(xp.searchsorted(ids, x_idx), max(len(ids) - 1, 0))
        there = ids[at] == x_idx if len(ids) else xp.zeros(len(x_idx), dtype=bool)
        slots, x_idx, x_vals = at[there], x_idx[there], x_vals[there]
    pos, owner = _expand(xp, ptr, slots)
    out = ind[pos]
    if allowed is not None:
        keep = _allowed(xp, dev, allowed)[out]
        pos, owner, out = pos[keep], owner[keep], out[keep]
    prod = _multiply(xp, semiring, val[pos], x_vals[owner], lambda: out + out_offset,
                     lambda: x_idx[owner] + in_offset, x_first)
    return _result(xp, out, prod, semiring.monoid, n_out, out_dtype)


def _pull(xp, dev, block, x, semiring, orient, x_first, allowed, out_offset, in_offset,
          out_dtype, n_out):
    """Each wanted output gathers over its own storage row."""
    by = "rows" if orient == "mxv" else "cols"
    ids, ptr, ind, val = _storage(block, by)
    operand = scipy_operand(semiring, lookup_dtype(block.dtype), lookup_dtype(x.dtype),
                            x_first)
    if allowed is None and ids is None and operand is not None and \
            np.dtype(out_dtype).kind == "f":
        return _pull_sparse(xp, dev, block, x, operand, by, ptr, ind, val, out_dtype, n_out)
    present, values = _dense(xp, dev, x, values=_reads_x(semiring, x_first))
    if allowed is None:
        pos = None
        slot_of = _slots(block, by, ptr)
        out = slot_of if ids is None else ids[slot_of]
        inp = ind
    else:
        wanted = _allowed(xp, dev, allowed)
        if ids is None:
            slots = rows = xp.flatnonzero(wanted)
        else:
            slots = xp.flatnonzero(wanted[ids])
            rows = ids[slots]
        pos, owner = _expand(xp, ptr, slots)
        out, inp = rows[owner], ind[pos]
    keep = present[inp]
    out, inp = out[keep], inp[keep]
    a_vals = val[keep] if pos is None else val[pos[keep]]
    prod = _multiply(xp, semiring, a_vals, _x_values(xp, values, inp, x.dtype),
                     lambda: out + out_offset,
                     lambda: inp + in_offset, x_first)
    return _result(xp, out, prod, semiring.monoid, n_out, out_dtype)


def _pull_sparse(xp, dev, block, x, operand, by, ptr, ind, val, out_dtype, n_out):
    """An unmasked plus_times (or a plus that keeps x) on floats: the sparse module's CSR
    product (cuSPARSE on a device), the structure from the pattern's product with x's."""
    key = (by, operand, np.dtype(out_dtype))
    mats = block.derived["array"]
    if key not in mats:
        shape = (n_out, block.ncols if by == "rows" else block.nrows)
        data = val.astype(out_dtype) if operand == "values" else \
            xp.ones(len(ind), dtype=out_dtype)
        mats[key] = (dev.sparse.csr_matrix((data, ind, ptr), shape=shape),)
    mat = mats[key][0]
    present, values = _dense(xp, dev, x, out_dtype)
    # A bitmap's absent positions hold arbitrary values, which the product must not add in.
    y = mat @ (values if x.is_full else xp.where(present, values, 0))
    if x.is_full:
        hit = ptr[1:] > ptr[:-1]
    else:
        # The structure: the pattern's product with x's (made once, like the values' matrix)
        pattern_key = (by, "pattern", np.dtype(out_dtype))
        if pattern_key not in mats:
            mats[pattern_key] = (mat if operand == "pattern" else dev.sparse.csr_matrix(
                (xp.ones(len(ind), dtype=out_dtype), ind, ptr), shape=mat.shape),)
        hit = (mats[pattern_key][0] @ present.astype(out_dtype)) > 0
    # (y is 0 where nothing was hit)
    return Piece.from_bitmap(hit, y.astype(out_dtype, copy=False), was_bitmap=False)


def spgemm(a, b, semiring, a_dtype, b_dtype, *, a_row_offset, inner_offset, mask=None,
           b_block=None):
    """Local ``C = A (+).(x) B`` as a Block; the arguments and result of ``numpy.spgemm``.
    Under a plain mask whose dot products read fewer entries than the expansion of every
    product would make, C is those dot products (``_spgemm_masked``, ``within_mask``), unless
    the sparse module's product computes C: R-MAT 12, a mask of 1% / 10% of the edges,
    min_plus 21 / 232 ms against 8.9 / 9.1 s by expansion, any_pair 18 / 181 ms against 1.4 s;
    triangle counting's plus_pair, forced through the dots, took 3.2 s against the sparse
    module's 0.2 s on R-MAT 13. Otherwise the mask is the caller's to apply."""
    dev = _place[0]
    xp = dev.xp
    ids, a_ptr, a_ind, a_val = _storage(a, "rows")
    b_ptr, b_ind, b_val, b_ncols = b
    b_ptr, b_ind, b_val = dev.to_device(b_ptr), dev.to_device(b_ind), dev.to_device(b_val)
    op = semiring.binaryop
    t = op.input_type(a_dtype, b_dtype).np_type
    pair_by_dots = PAIR_BY_DOTS and mask is not None and _builtin(op, ("pair",))
    sparse = semiring.monoid.name == "plus" and (
        _builtin(op, ("pair",)) and not pair_by_dots or
        _builtin(op, ("times", "first", "second")) and t.kind == "f")
    if mask is not None and not mask.complement and not sparse and \
            keys_fit(len(b_ptr) - 1, b_ncols):
        m_keys = dev.to_device(mask.keys())
        m_rows = m_keys // max(b_ncols, 1)
        slots, there = _rows_held(xp, ids, m_rows)
        dots = int((a_ptr[slots + 1] - a_ptr[slots]).sum())
        expansion = int((b_ptr[a_ind + 1] - b_ptr[a_ind]).sum())
        if dots < expansion or pair_by_dots:
            return _spgemm_masked(xp, dev, a, (a_ptr, a_ind, a_val), (b_ptr, b_ind, b_val),
                                  b_ncols, m_keys[there], slots, semiring, a_row_offset,
                                  inner_offset)
    slot_of = _slots(a, "rows", a_ptr)
    a_rows = slot_of if ids is None else ids[slot_of]
    if sparse:
        rows, cols, vals = _spgemm_sparse(xp, dev, a, a_rows, a_ind, a_val, b_ptr, b_ind,
                                          b_val, b_ncols, op.name, t,
                                          op.output_type(a_dtype, b_dtype).np_type)
    else:
        pos_b, owner = _expand(xp, b_ptr, a_ind)
        rows, cols = a_rows[owner], b_ind[pos_b]

        def positions():
            inner = a_ind[owner] + inner_offset
            return rows + a_row_offset, inner, inner, cols

        prod = _evaluate(op, a_val[owner], b_val[pos_b], positions)
        keys, vals = _reduce_by_key(xp, rows * b_ncols + cols, prod, semiring.monoid)
        rows, cols = keys // max(b_ncols, 1), keys % max(b_ncols, 1)
    return Block.from_coo(a.nrows, b_ncols, dev.to_host(rows), dev.to_host(cols),
                          dev.to_host(vals))


def _rows_held(xp, ids, rows):
    """The storage slots of the sorted ``rows`` that a storage by rows holds, and which of
    ``rows`` those are (all of them in a plain storage; a hypersparse one lists its ``ids``)."""
    if ids is None:
        return rows, xp.ones(len(rows), dtype=bool)
    if len(ids) == 0:
        return rows[:0], xp.zeros(len(rows), dtype=bool)
    at = xp.minimum(xp.searchsorted(ids, rows), len(ids) - 1)
    there = ids[at] == rows
    return at[there], there


def _spgemm_masked(xp, dev, a, a_csr, b_csr, b_ncols, m_keys, slots, semiring, a_row_offset,
                   inner_offset):
    """C<M> = A (+).(x) B as dot products, one per mask entry (i, j): every entry A(i, k) of
    its row looks B(k, j) up by binary search in B's sorted keys, and the products found are
    folded per mask entry. The work is the mask rows' entries, not every product's
    expansion (triangle counting: the wedges closed by an edge, not every wedge)."""
    a_ptr, a_ind, a_val = a_csr
    b_ptr, b_ind, b_val = b_csr
    ncols = max(b_ncols, 1)
    pos_a, owner = _expand(xp, a_ptr, slots)
    inner = a_ind[pos_a]
    b_keys = _owners(xp, b_ptr, xp.arange(len(b_ptr) - 1)) * ncols + b_ind
    if len(b_keys) > 1 and not bool((b_keys[1:] > b_keys[:-1]).all()):
        order = xp.argsort(b_keys, kind="stable")
        b_keys, b_val = b_keys[order], b_val[order]
    want = inner * ncols + m_keys[owner] % ncols
    at = xp.minimum(xp.searchsorted(b_keys, want), max(len(b_keys) - 1, 0))
    hit = b_keys[at] == want if len(b_keys) else xp.zeros(len(want), dtype=bool)
    owner, pos_a, at, inner = owner[hit], pos_a[hit], at[hit], inner[hit]
    keys = m_keys[owner]

    def positions():
        k = inner + inner_offset
        return keys // ncols + a_row_offset, k, k, keys % ncols

    prod = _evaluate(semiring.binaryop, a_val[pos_a], b_val[at], positions)
    keys, vals = _reduce_by_key(xp, keys, prod, semiring.monoid)
    out = Block.from_coo(a.nrows, b_ncols, dev.to_host(keys // ncols),
                         dev.to_host(keys % ncols), dev.to_host(vals))
    out.within_mask = True
    return out


def _spgemm_sparse(xp, dev, a, a_rows, a_ind, a_val, b_ptr, b_ind, b_val, b_ncols, name, t,
                   out_type):
    """plus_times / first / second on floats and plus_pair by the sparse module's product;
    the structure from the patterns' product, since a sum that cancels to zero is an entry in
    GraphBLAS."""
    ninner = len(b_ptr) - 1
    t = np.dtype(np.float64) if name == "pair" else t
    ones_a, ones_b = xp.ones(len(a_ind), dtype=t), xp.ones(len(b_ind), dtype=t)

    def product(x, y):
        A = dev.sparse.coo_matrix((x, (a_rows, a_ind)), shape=(a.nrows, ninner)).tocsr()
        C = (A @ dev.sparse.csr_matrix((y, b_ind, b_ptr), shape=(ninner, max(b_ncols, 1))))
        C = C.tocoo()
        keys = C.row.astype(np.int64) * max(b_ncols, 1) + C.col.astype(np.int64)
        order = xp.argsort(keys)
        return keys[order], C.data[order]

    keys, counts = product(ones_a, ones_b)
    if name == "pair":
        # plus_pair counts the paths: exact in float64 up to 2^53 of them
        return keys // max(b_ncols, 1), keys % max(b_ncols, 1), counts.astype(out_type)
    v_keys, v_vals = product(ones_a if name == "second" else a_val.astype(t),
                             ones_b if name == "first" else b_val.astype(t))
    vals = xp.zeros(len(keys), dtype=t)
    vals[xp.searchsorted(keys, v_keys)] = v_vals
    return keys // max(b_ncols, 1), keys % max(b_ncols, 1), vals


def transpose_block(block):
    """The transpose of a whole-matrix block (``numpy.transpose_block``): its storage by
    columns, sorted on the device (``_storage``), comes up as the new block's by rows."""
    dev = _place[0]
    ids, ptr, ind, val = (None if a is None else dev.to_host(a)
                          for a in _storage(block, "cols"))
    return Block.compressed(block.ncols, block.nrows, ids, ptr, ind, val)


def write_piece(c, t, mask, accum, replace, *, t_masked=False):
    """GraphBLAS's write on pieces (``piece.write``), run where the one of C, T and the mask
    on the device is (``piece.together``)."""
    c, t, mask = together(c, t, mask)
    return write(c, t, mask, accum, replace, t_masked=t_masked)


def ewise_piece(a, b, binop, kind, in_types, out_type, defaults=(None, None)):
    """An element-wise op on pieces (``piece.ewise``), run where the one on the device is."""
    a, b, _ = together(a, b)
    return ewise(a, b, binop, kind, in_types, out_type, defaults)


def ewise_block(a, b, binop, kind, in_types, out_type, defaults):
    """Element-wise op of two blocks: the arguments and result of ``numpy.ewise_block``, the
    merge done where the kernels run (``keys.ewise_sorted``)."""
    dev = _place[0]
    keys, vals = ewise_sorted(dev.to_device(a.keys()),
                              dev.to_device(a.values.astype(in_types[0], copy=False)),
                              dev.to_device(b.keys()),
                              dev.to_device(b.values.astype(in_types[1], copy=False)),
                              binop, kind, out_type, defaults)
    return dev.to_host(keys), dev.to_host(vals)


def write_block(c, t, mask, accum, replace, dtype):
    """GraphBLAS's write ``C<M, replace> = accum(C, T)`` on blocks (``numpy.write_block``),
    the merges done where the kernels run (``keys.write_sorted``)."""
    dev = _place[0]
    allows = None
    if mask is not None:
        mask_keys = dev.to_device(mask.keys())

        def allows(keys):
            return mask.allows(keys, mask_keys)

    keys, vals = write_sorted(dev.to_device(c.keys()), dev.to_device(c.values),
                              dev.to_device(t.keys()), dev.to_device(t.values), allows, accum,
                              replace, dtype)
    return Block.from_keys(c.nrows, c.ncols, dev.to_host(keys), dev.to_host(vals))


def select_values(block, op, thunk):
    """The entries whose value passes a select op that reads no positions
    (``numpy.select_values``), the op evaluated where the kernels run."""
    dev = _place[0]
    keep = op.evaluate(dev.to_device(block.values), None, None, thunk)
    return block.select(dev.to_host(keep.astype(bool, copy=False)))
