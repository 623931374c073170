"""SuiteSparse:GraphBLAS local kernels, through python-graphblas, and for the calls whose
wrapping costs as much as a small one's work (a product and the unpack of its result, 60 us of
python-graphblas's Python around a 75 us product), its C API itself through python-graphblas's
own bindings (``suitesparse_graphblas``).

A block is imported (copied) on first use as up to two GraphBLAS matrices: by rows (its CSR)
and by columns (SuiteSparse's transpose of the rows), each only once a product reads it.
A product reads the storage the engine's direction wants and passes that direction down as
SuiteSparse's method: pull is ``dot`` over the matrix whose rows are the outputs, push is
``saxpy`` over the one whose rows are the inputs.
Vectors cross as copies in their own format (sparse or bitmap): O(entries) for a sparse piece.

A push takes no mask into SuiteSparse: importing a dense mask would cost O(n) per product, more
than the push itself on a small frontier, so its products are filtered by the mask afterwards
(the same work the numpy push does). A pull takes the mask in, so masked-out rows are never
computed.

Builtin semirings on builtin types run here, positional ones (``min_secondi``, ...) with a min,
max or any monoid too; user-defined ops go to the numpy backend.
"""

import functools

import graphblas as grb
import numpy as np
from graphblas.exceptions import check_status_carg
from suitesparse_graphblas import ffi, lib
from suitesparse_graphblas.utils import claim_buffer

from ...semirings import OrderedMonoid
from ...semirings import binary as builtin_binary
from ...semirings import monoid as builtin_monoids
from ...semirings import select as builtin_select
from ...semirings import semiring as builtin_semirings
from ...semirings.dtypes import lookup_dtype
from ..block import Block
from ..keys import sorted_isin
from ..piece import Piece
from . import threads_per_rank

__all__ = ["SCIPY_DENSE_PULL", "SMALL_PUSH", "accepts", "adopt", "ewise_block", "held_bytes",
           "select_values",
           "small_push_in_numpy", "spgemm", "spmv", "supports", "transpose_block", "write_block"]


# python-graphblas's own setting, which a script may use beside gblas2d, is left alone at one
# rank per node; with several, it is lowered to this rank's share, because imports, exports
# and the deferred work an export finishes take no thread option and would put cores x ranks
# threads on the cores (BFS, R-MAT 18, 2 ranks on 2 cores: 0.076 s with the default, 0.025 s
# with it lowered). Only a count above that setting (GBLAS2D_THREADS) goes with every call, as
# a descriptor option, which costs ~17 us a call (a mesh BFS level is ~300 us).
_THREADS = threads_per_rank()
if _THREADS < grb.ss.config["nthreads"]:
    grb.ss.config["nthreads"] = _THREADS
_THREADS_KW = {} if _THREADS == grb.ss.config["nthreads"] else {"nthreads": _THREADS}

# An unmasked plus_times/first/second over a full vector stays here: now that SuiteSparse reads
# the block it holds as its own, one thread of it is as fast as scipy's CSR product (within 3%
# for plus_times and where only A's values are read), and faster where the multiply reads only
# the vector's (R-MAT 18 and Erdos-Renyi 18, scipy 1.17: 12.5-15.3 ms against 15.3-19.5).
SCIPY_DENSE_PULL = False


def supports(semiring):
    """Whether SuiteSparse has ``semiring`` under the same name: a builtin one, or a positional
    one (``min_secondi``, ...) whose monoid keeps the order of indices (min, max, any), so the
    block's offset can be added to SuiteSparse's local index afterwards."""
    builtin = getattr(builtin_semirings, semiring.name, None)
    if builtin is None or builtin.binaryop.func is not semiring.binaryop.func or \
            builtin.monoid.name != semiring.monoid.name:
        return False
    if semiring.binaryop.index_aware:
        return semiring.monoid.name in ("min", "max", "any") and \
            hasattr(grb.semiring.ss, semiring.name)
    return hasattr(grb.semiring, semiring.name)


def _grb_semiring(semiring):
    space = grb.semiring.ss if semiring.binaryop.index_aware else grb.semiring
    op = getattr(space, semiring.name)
    return op if semiring.type is None else op[semiring.type.name]


def _index_offset(op_name, x_first, out_offset, in_offset):
    """What to add to a positional op's block-local index to make it global: the first
    operand is x (at row 0) when ``x_first``, else the block entry at (output, input)."""
    # firsti1 and the other 1-based ops shift the same way as their 0-based forms
    return {"firsti": 0 if x_first else out_offset, "firstj": in_offset,
            "secondi": in_offset, "secondj": out_offset if x_first else 0}[op_name.rstrip("1")]


# A push over fewer edges than this costs less in numpy than one python-graphblas call's
# import, dispatch and export (measured on a 2D mesh BFS, whose frontiers are this small).
SMALL_PUSH = 4096


# Blocks of fewer entries than this stay numpy's. A write, an element-wise op, a row
# reduction, a select or a transpose of them costs less in numpy than as a python-graphblas
# call, whose import, copy and export alone take ~100 us (a write of 20 entries into 60: 134 us
# in numpy against 352; of 4,000 into 12,000: 1.7 ms against 0.6; of 1,000 entries, a row
# reduction 99 us against 140, a select 81 against 148, a transpose 23 against 71); and handing
# such a block to SuiteSparse when it is made (``adopt``, ~50 us) saves only its few words,
# where a product that wants it imports a copy.
SMALL_BLOCK = 2048


def small_push_in_numpy(block, orient):
    """Whether a push over fewer than SMALL_PUSH edges runs in numpy: not when it would have
    to build the block's CSC (mxv reads the block by columns) while SuiteSparse already holds
    the block by columns, since that build costs O(nvals), far more than one call here."""
    return orient == "vxm" or block.has_csc or \
        "cols" not in block.derived.get("suitesparse", {})


def _matrix(block, by):
    """The block as a GraphBLAS matrix by "rows" (its CSR) or by "cols" (the CSR of its
    transpose), made on first use. The columns come from SuiteSparse's own transpose of the
    rows, not from the block's CSC: 1.2 s against 7.7 s for 63M entries (R-MAT 21); a
    symmetric block's columns are its rows."""
    cache = block.derived.setdefault("suitesparse", {})
    if by not in cache:
        if by == "cols" and block.symmetric:
            cache[by] = _matrix(block, "rows")
        elif by == "cols":
            cache[by] = _matrix(block, "rows").T.new(**_THREADS_KW)
        else:
            cache[by] = _rows_of(block)
    return cache[by]


def _rows_of(block, *, pattern=False):
    """A copy of the block by rows, hypersparse when the block is; a bitmap as a bitmap.
    ``pattern``: its structure alone (``_bitmap_of``)."""
    if block.is_bitmap:
        return _bitmap_of(block, pattern=pattern)
    # A pattern graph (every value the same) is imported iso: one value, no array.
    iso = pattern or _iso(block)
    ids, ptr, ind, val = block.by_rows()
    values = np.ones(1, dtype=bool) if pattern else val[:1] if iso else val
    layout = {"indptr": ptr, "col_indices": ind, "values": values, "is_iso": iso,
              "sorted_cols": True}
    if ids is None:
        return grb.Matrix.ss.import_csr(nrows=block.nrows, ncols=block.ncols, **layout)
    return grb.Matrix.ss.import_hypercsr(nrows=block.nrows, ncols=block.ncols, rows=ids,
                                         **layout)


def _bitmap_of(block, *, pattern=False):
    """A copy of a bitmap block as SuiteSparse's bitmap; ``pattern``: its structure alone, one
    value for every entry, so a structural mask's copy costs a byte a position, not the values
    too (a batched BFS's visited set, each level)."""
    present, dense = block.bitmap()
    shape = (block.nrows, block.ncols)
    iso = pattern or dense.strides == (0,)
    values = np.ones(1, dtype=bool) if pattern else dense[:1] if iso else dense.reshape(shape)
    return grb.Matrix.ss.import_bitmapr(nrows=block.nrows, ncols=block.ncols,
                                        bitmap=present.reshape(shape), values=values,
                                        nvals=block.nvals, is_iso=iso)


def _structure_of(block):
    """A GraphBLAS matrix with the block's entries, for a structural mask: its copy by rows
    where one is held, else its pattern alone (made once, and counted by ``held_bytes``), a
    byte a position for a bitmap and no values for a list (a batched BFS's visited set,
    copied each level while it is written)."""
    cache = block.derived.setdefault("suitesparse", {})
    if "rows" in cache:
        return cache["rows"]
    if "pattern" not in cache:
        cache["pattern"] = _rows_of(block, pattern=True)
    return cache["pattern"]


def _iso(block):
    return block.is_iso or bool(np.all(block.values == block.values[0]))


def adopt(block):
    """Take over a new block's arrays as its copy by rows (the interface of ``backends``),
    without copying them: the block's CSR is then SuiteSparse's, and the block reads it
    through views that keep the GraphBLAS matrix, the memory's owner, alive. Only a block
    whose arrays are its alone (``Block.sole``), before anything else has seen them, and not
    a small one (``SMALL_BLOCK``); its values go too unless they are one value."""
    if not block.nvals or block.nvals < SMALL_BLOCK or block.is_bitmap or \
            not (block.sole and _native(block.dtype)) or "suitesparse" in block.derived:
        return
    # Every new block comes through here: no pass over its values to look for one value (a
    # block's values go over as they are, sharing, so one value would save nothing).
    iso = block.is_iso
    arrays = {"ptr": _owner(block.ptr), "cols": _owner(block.cols)}
    if block.is_hyper:
        arrays["hrows"] = _owner(block.hrows)
    if not iso:
        arrays["values"] = _owner(block.values)
    if any(a is None for a in arrays.values()):
        return
    indices = [name for name in arrays if name != "values"]
    # The index arrays are int64 in the block and uint64 in SuiteSparse: the same words.
    for name in indices:
        if arrays[name].dtype == np.int64:
            arrays[name].dtype = np.uint64
    layout = {"indptr": arrays["ptr"], "col_indices": arrays["cols"],
              "values": block.values[:1] if iso else arrays["values"], "is_iso": iso,
              "sorted_cols": True, "take_ownership": True}
    try:
        if block.is_hyper:
            matrix = grb.Matrix.ss.import_hypercsr(nrows=block.nrows, ncols=block.ncols,
                                                   rows=arrays["hrows"], **layout)
        else:
            matrix = grb.Matrix.ss.import_csr(nrows=block.nrows, ncols=block.ncols, **layout)
    finally:
        for name in indices:
            if arrays[name] is getattr(block, name):
                arrays[name].dtype = np.int64
    # The matrix never changes its format: a conversion would free the arrays it took.
    matrix.ss.config["sparsity_control"] = "hypersparse" if block.is_hyper else "sparse"
    shared = 0
    for name, array in arrays.items():
        if not array.flags.owndata:
            # Taken over: from now on the block reads SuiteSparse's memory.
            # (the hyperlist's interface comes back as a column: read it flat)
            view = _held(array, matrix).reshape(-1)
            block.rehome(name, view.view(np.int64) if name != "values" else view)
            shared += array.nbytes
    block.sole = False
    block.derived["suitesparse"] = {"rows": matrix}
    block.derived["suitesparse_shared_bytes"] = shared


def _owner(array):
    """The array that owns ``array``'s memory and may hand it over, or None: ``array``
    itself, or the whole array it views with words of the same size (an export read as
    int64; bytes would be read as one index each)."""
    if array.flags.owndata:
        owner = array
    elif array.base is not None and isinstance(array.base, np.ndarray) and \
            array.base.flags.owndata and array.base.nbytes == array.nbytes and \
            array.base.itemsize == array.itemsize:
        owner = array.base
    else:
        return None
    return owner if owner.flags.c_contiguous and owner.flags.writeable else None


class _Owned:
    """An array's memory as numpy sees it, with the GraphBLAS matrix that owns it: every
    array made from it (and every view of those) keeps the matrix alive."""

    def __init__(self, array, owner):
        self.__array_interface__ = array.__array_interface__
        self.owner = owner


def _held(array, owner):
    return np.asarray(_Owned(array, owner))


def _vector(piece):
    """A GraphBLAS copy of a Piece, in its own format. A full piece goes in as a full vector:
    SuiteSparse's bitmap import costs ~1 ms at 262,144 positions, its full import 0.09 ms."""
    if piece.is_full:
        return grb.Vector.ss.import_full(values=piece.dense_values())
    if piece.is_bitmap:
        return grb.Vector.ss.import_bitmap(bitmap=piece.present, values=piece.values,
                                           nvals=piece.nvals)
    return grb.Vector.ss.import_sparse(size=piece.size, indices=piece.idx, values=piece.vals,
                                       sorted_index=True)


def spmv(block, x, semiring, *, orient, x_first, direction, allowed, out_offset, in_offset,
         out_dtype):
    """The local masked product (the interface of ``backends``): a Piece of the outputs, in
    the format SuiteSparse left them in, values of ``out_dtype``."""
    # Pull reads the matrix whose rows are the product's outputs, push the one whose rows are
    # its inputs: for mxv the block by rows and by columns, for vxm the other way round.
    op = _grb_semiring(semiring)
    xv = _vector(x)
    if direction == "pull":
        outputs = _matrix(block, "rows" if orient == "mxv" else "cols")
        expr = xv.vxm(outputs.T, op) if x_first else outputs.mxv(xv, op)
        # SuiteSparse 9.4's dot product gives the output index a positional op reads (firsti
        # of A x, secondj of x A') as its place in a hypersparse matrix's list of rows, not
        # the row; its saxpy gives the row.
        reads_output = _position(semiring) == ("secondj" if x_first else "firsti")
        method = "saxpy" if reads_output and outputs.ss.format.startswith("hyper") else "dot"
    else:
        inputs = _matrix(block, "cols" if orient == "mxv" else "rows")
        expr = xv.vxm(inputs, op) if x_first else inputs.T.mxv(xv, op)
        method = "saxpy"
    if direction == "pull" and allowed is not None:
        on = _vector(allowed.on)
        mask = ~on.S if allowed.complement else on.S
        y = grb.Vector(expr.dtype, expr.size)
        y(mask=mask, axb_method=method, **_THREADS_KW) << expr
    else:
        y = expr.new(axb_method=method, **_THREADS_KW)
    out = _piece_of(y)
    if direction == "push" and allowed is not None:
        out = out.select(allowed.allows(out.entries()[0])) if not out.is_bitmap else \
            Piece.from_bitmap(out.present & allowed.bitmap(), out.values)
    vals = out.values if out.is_bitmap else out.vals
    if semiring.binaryop.index_aware:
        vals = vals + _index_offset(semiring.binaryop.name, x_first, out_offset, in_offset)
    vals = vals.astype(out_dtype, copy=False)
    if out.is_bitmap:
        return Piece(out.size, vals.dtype, present=out.present, values=vals, nvals=out.nvals)
    return Piece.listed(out.size, out.idx, vals)


def _piece_of(y):
    """A Piece of a GraphBLAS vector that is this call's own, in SuiteSparse's format: its
    arrays taken over, not copied. A bitmap or full y stays one (a list of its positions costs
    SuiteSparse 0.76 ms at 262,144 outputs, and the piece would build the bitmap again)."""
    size, fmt = y.size, y.ss.format
    dense = fmt in ("bitmap", "full")
    out = y.ss.export(fmt if dense else "sparse", sort=True, give_ownership=True)
    vals = out["values"]
    if out.get("is_iso"):
        vals = np.full(size if dense else len(out["indices"]), vals[0])
    if fmt == "full":
        return Piece.full(vals)
    if fmt == "bitmap":
        return Piece(size, vals.dtype, present=out["bitmap"].view(bool), values=vals,
                     nvals=out["nvals"])
    return Piece.listed(size, out["indices"].view(np.int64), vals)


def _position(semiring):
    """The index a positional multiply reads ("firsti", "firstj", "secondi" or "secondj", its
    1-based form too), or None for a multiply of values."""
    op = semiring.binaryop
    return op.name.rstrip("1") if op.index_aware else None


def _block_of(matrix, *, keep):
    """A Block with the entries of a GraphBLAS matrix. A matrix that lives on (``keep``) is
    copied; otherwise its arrays are taken over."""
    if not keep:
        arrays = _unpacked(matrix._carg, matrix._nrows, matrix.dtype.np_type)
        return Block.compressed(matrix._nrows, matrix._ncols, *arrays, sole=True)
    nrows, ncols = matrix._nrows, matrix._ncols
    # SuiteSparse's own choice of hypersparse or not, then the block's rule (which may make
    # plain what SuiteSparse kept hypersparse).
    hyper = matrix.ss.format == "hypercsr"
    out = matrix.ss.export("hypercsr" if hyper else "csr", sort=True)
    # Exported indices are uint64 below 2**63: read them as int64 without a copy.
    ptr = out["indptr"].view(np.int64)
    cols = out["col_indices"].view(np.int64)
    vals = out["values"]
    if out.get("is_iso"):
        vals = np.broadcast_to(vals[:1], (len(cols),))
    ids = out["rows"].view(np.int64) if hyper else None
    return Block.compressed(nrows, ncols, ids, ptr, cols, vals, sole=False)


_INDEX = np.dtype(np.uint64)


_TYPED = {}


@functools.cache
def _descriptor(complement, structure, opts):
    """python-graphblas's descriptor of these mask flags and extended options (pairs), made
    once. (graphblas.core's modules are imported here, once python-graphblas is set up: one
    imported before that reads its backend as None from then on.)"""
    from graphblas.core import descriptor
    from graphblas.core.ss.descriptor import get_descriptor

    flags = {"mask_complement": complement, "mask_structure": structure}
    return get_descriptor(**flags, **dict(opts)) if opts else descriptor.lookup(**flags)


def _typed(gb_a, gb_b, semiring):
    """python-graphblas's typed semiring of ``semiring`` on these operands' types, remembered
    (its lookup costs as much as a small product's other Python)."""
    key = (semiring, gb_a.dtype, gb_b.dtype)
    typed = _TYPED.get(key)
    if typed is None:
        from graphblas.core.operator.utils import get_typed_op

        typed = _TYPED[key] = get_typed_op(_grb_semiring(semiring), gb_a.dtype, gb_b.dtype,
                                           kind="semiring")
    return typed


def _product(gb_a, gb_b, semiring, nrows, ncols, mask, complement, structure, opts):
    """``_unpacked``'s arrays of SuiteSparse's ``A (+).(x) B`` under ``mask`` (a GraphBLAS
    matrix or None), by GrB_mxm called directly: python-graphblas's expression, output and
    export around the same call cost 60 us, as much as a 64-row frontier's product on a
    200 x 200 mesh."""
    typed = _typed(gb_a, gb_b, semiring)
    desc = _descriptor(mask is not None and complement, mask is not None and structure,
                       tuple(sorted(opts.items())))
    handle = ffi.new("GrB_Matrix*")
    check_status_carg(lib.GrB_Matrix_new(handle, typed.return_type.gb_obj, nrows, ncols),
                      "Matrix", handle[0])
    try:
        check_status_carg(lib.GrB_mxm(handle[0], ffi.NULL if mask is None else mask._carg,
                                      ffi.NULL, typed._carg, gb_a._carg, gb_b._carg,
                                      ffi.NULL if desc is None else desc._carg),
                          "Matrix", handle[0])
        return _unpacked(handle[0], nrows, typed.return_type.np_type)
    finally:
        lib.GrB_Matrix_free(handle)


def _unpacked(handle, nrows, dtype):
    """(row ids or None, pointers, columns, values) of the GraphBLAS matrix ``handle`` (of
    ``nrows`` rows and values of ``dtype``), taken over with no copy, so the block's alone,
    leaving it empty: SuiteSparse's unpack by rows (hypersparse where SuiteSparse holds it
    so), columns sorted, called directly. python-graphblas's export checks and wraps the
    same call in 40 us, a third of a 64 x 40,000 frontier's product on a mesh."""
    status = ffi.new("int32_t*")
    check_status_carg(lib.GxB_Matrix_Option_get_INT32(handle, lib.GxB_SPARSITY_STATUS, status),
                      "Matrix", handle)
    hyper = status[0] == lib.GxB_HYPERSPARSE
    ptr, cols, vals = ffi.new("GrB_Index**"), ffi.new("GrB_Index**"), ffi.new("void**")
    sizes, iso = ffi.new("GrB_Index[4]"), ffi.new("bool*")
    if hyper:
        hrows, nvec = ffi.new("GrB_Index**"), ffi.new("GrB_Index*")
        info = lib.GxB_Matrix_unpack_HyperCSR(handle, ptr, hrows, cols, vals, sizes,
                                              sizes + 1, sizes + 2, sizes + 3, iso, nvec,
                                              ffi.NULL, ffi.NULL)
    else:
        info = lib.GxB_Matrix_unpack_CSR(handle, ptr, cols, vals, sizes, sizes + 2,
                                         sizes + 3, iso, ffi.NULL, ffi.NULL)
    check_status_carg(info, "Matrix", handle)
    # (indices below 2**63 read as int64; buffers may be longer than their entries)
    nptr = (nvec[0] if hyper else nrows) + 1
    ptr = claim_buffer(ffi, ptr[0], sizes[0] // 8, _INDEX).view(np.int64)[:nptr]
    nvals = int(ptr[-1])
    cols = claim_buffer(ffi, cols[0], sizes[2] // 8, _INDEX).view(np.int64)[:nvals]
    values = claim_buffer(ffi, vals[0], sizes[3] // dtype.itemsize, dtype)
    if iso[0]:
        # one value read at every entry, as numpy's broadcast_to makes it (in a quarter of
        # its time)
        values = np.ndarray((nvals,), dtype, values, 0, (0,))
        values.flags.writeable = False
    else:
        values = values[:nvals]
    ids = claim_buffer(ffi, hrows[0], sizes[1] // 8, _INDEX).view(np.int64)[:nptr - 1] \
        if hyper else None
    return ids, ptr, cols, values


def _native(dtype):
    return np.dtype(dtype).kind in "biuf"


def transpose_block(block):
    """The transpose of a whole-matrix block (the interface of ``backends``): the block by
    columns, SuiteSparse's transpose, copied out. The two GraphBLAS copies serve the new block
    too, the other way round."""
    by_cols = _matrix(block, "cols")
    out = _block_of(by_cols, keep=True)
    out.derived["suitesparse"] = {"rows": by_cols, "cols": _matrix(block, "rows")}
    return out


def spgemm(a, b, semiring, a_dtype, b_dtype, *, a_row_offset, inner_offset, mask=None,
           b_block=None):
    """The local product as a Block (the interface of ``backends``), with the output's mask
    taken in, so masked-out entries are never computed (SuiteSparse's masked saxpy). A
    positional semiring (``min_secondi``, a batched BFS's parents) runs as SuiteSparse's own,
    its block-local index shifted to the global one afterwards: B's columns come global, A's
    rows and the inner index from the offsets."""
    b_ptr, b_cols, b_vals, b_ncols = b
    if b_block is not None:
        # B is a whole block: its copy, made once (or adopted), serves every product
        gb_b = _matrix(b_block, "rows")
    else:
        gb_b = grb.Matrix.ss.import_csr(nrows=a.ncols, ncols=b_ncols, indptr=b_ptr,
                                        col_indices=b_cols, values=b_vals, sorted_cols=True)
    gb_a = _matrix(a, "rows")
    # As in spmv: SuiteSparse's dot product, which it may choose, gives the output's row
    # (firsti) or column (secondj) wrong when A or B is hypersparse, as B' may become.
    reads_output = _position(semiring) in ("firsti", "secondj")
    opts = dict(_THREADS_KW, **({"axb_method": "saxpy"} if reads_output else {}))
    pending = None
    on, complement, structure = None, True, True
    if mask is not None:
        held = mask.block
        if held.is_bitmap:
            # a bitmap takes its pending writes in place, O(writes), and goes over as one
            held.settle()
        elif mask.structure and mask.complement and held.has_pending:
            # ~M.S of a mask a few entries were written into since its storage was made (a
            # batched BFS's visited set, each level): the storage's copy, made once, stops
            # what it holds and the written keys are dropped afterwards, so no level merges
            # the writes or copies the mask into SuiteSparse again.
            held, pending = held.base_and_pending()
        complement, structure = mask.complement, mask.structure
        if held.nvals:
            on = _structure_of(held) if mask.structure else _matrix(held, "rows")
    # An empty mask allows nothing, or everything when complemented.
    arrays = _product(gb_a, gb_b, semiring, a.nrows, b_ncols, on, complement, structure, opts) \
        if on is not None or complement else None
    block = Block.empty(a.nrows, b_ncols, _typed(gb_a, gb_b, semiring).return_type.np_type) \
        if arrays is None else Block.compressed(a.nrows, b_ncols, *arrays, sole=True)
    if pending is not None and block.nvals:
        block = block.select(~sorted_isin(block.keys(), pending))
    if _position(semiring) is not None:
        offset = {"firsti": a_row_offset, "firstj": inner_offset, "secondi": inner_offset,
                  "secondj": 0}[_position(semiring)]
        if offset:
            block = block.with_values(block.values + offset)
    block.within_mask = mask is not None
    return block


def write_block(c, t, mask, accum, replace, dtype):
    """GraphBLAS's write on blocks (the interface of ``backends``), by SuiteSparse on a copy of
    C (see ``accepts``). Unmasked, ``C = accum(C, T)`` is C and T added by accum, a new matrix
    with no copy of C."""
    op = None if accum is None else getattr(grb.binary, accum.name)[np.dtype(dtype).name]
    if mask is None:
        return _block_of(_matrix(c, "rows").ewise_add(_matrix(t, "rows"), op).new(
            **_THREADS_KW), keep=False)
    out = _matrix(c, "rows").dup()
    on = _matrix(mask.block, "rows")
    m = on.S if mask.structure else on.V
    out(mask=~m if mask.complement else m, accum=op, replace=replace,
        **_THREADS_KW) << _matrix(t, "rows")
    return _block_of(out, keep=False)


def assign_region(block, rows, cols, value, value_type, accum, dtype):
    """``C(rows, cols) = accum(C(rows, cols), s)`` on a copy of the block (the interface of
    ``backends``): SuiteSparse's assign of a scalar to a region, which touches the region's
    rows only."""
    return _scalar_written(block, value, accum, dtype,
                           lambda out, op: out(accum=op, **_THREADS_KW)[rows, cols])


def assign_masked(block, mask, value, value_type, accum, dtype):
    """``C<M> = accum(C, s)`` on a copy of the block (the interface of ``backends``):
    SuiteSparse's masked assign of a scalar, the mask read as it holds it."""
    on = _matrix(mask.block, "rows")
    return _scalar_written(block, value, accum, dtype, lambda out, op: out(
        mask=on.S if mask.structure else on.V, accum=op, **_THREADS_KW))


def _scalar_written(block, value, accum, dtype, target):
    """A copy of the block with the scalar ``value`` (of the block's type ``dtype``) written
    into ``target(copy, accum op)``, its arrays taken over."""
    out = _matrix(block, "rows").dup()
    dtype = np.dtype(dtype).name
    op = None if accum is None else getattr(grb.binary, accum.name)[dtype]
    target(out, op) << grb.Scalar.from_value(value, dtype=dtype)
    return _block_of(out, keep=False)


def extract_block(block, rows, cols):
    """``A[rows, cols]`` of a whole-matrix block (``backends.offered``): SuiteSparse's
    extract, the result's arrays taken over."""
    index = [slice(ix.start, ix.stop) if isinstance(ix, range) else ix for ix in (rows, cols)]
    return _block_of(_matrix(block, "rows")[index[0], index[1]].new(**_THREADS_KW), keep=False)


def select_values(block, op, thunk):
    """The block's entries whose value passes the select ``op`` (the interface of
    ``backends``): SuiteSparse's compiled select for the builtin value comparisons (see
    ``accepts``).

    The result's arrays leave SuiteSparse without a copy, and the new Matrix's adoption
    (``adopt``) hands them back to it without one, so the products that follow (delta-stepping's
    light and heavy edges) find the block held once, as SuiteSparse's: a select on
    Erdos-Renyi 18 takes 57-67 ms, python-graphblas's 66, where keeping a GraphBLAS copy beside
    the block's own took 97-101."""
    dtype = block.dtype
    # The thunk goes typed as the block: python-graphblas would type a Python int as INT64.
    typed = grb.Scalar.from_value(thunk, dtype=dtype.name)
    result = _matrix(block, "rows").select(getattr(grb.select, op.name), typed).new(
        **_THREADS_KW)
    return _block_of(result, keep=False)


def select_positions(block, op, thunk):
    """The block's entries whose block-local position passes the builtin position test
    ``op`` (the interface of ``backends``): SuiteSparse's select, the result's arrays taken
    over as ``select_values``'s are."""
    typed = grb.Scalar.from_value(thunk, dtype="INT64")
    result = _matrix(block, "rows").select(getattr(grb.select, op.name), typed).new(
        **_THREADS_KW)
    return _block_of(result, keep=False)


def ewise_block(a, b, binop, kind, in_types, out_type, defaults):
    """Element-wise op of two blocks (the interface of ``backends``): a Block, or sorted keys
    and values from the numpy kernel.

    SuiteSparse merges the two CSR blocks row by row; the numpy kernel sorts both key lists
    together, whose random gathers cost 2-3x more on blocks of millions of entries. The
    GraphBLAS copies of the operands and of the result are kept on their blocks for
    later products."""
    in_type = np.dtype(in_types[0]).name
    op = getattr(grb.binary, binop.name)[in_type]
    ga, gb_ = _matrix(a, "rows"), _matrix(b, "rows")
    if kind == "union":
        # the defaults cast to the op's input type by numpy, as the numpy kernel casts them
        left, right = (grb.Scalar.from_value(np.full((), d, dtype=in_type).item(),
                                             dtype=in_type) for d in defaults)
        expr = ga.ewise_union(gb_, op, left, right)
    else:
        expr = ga.ewise_add(gb_, op) if kind == "add" else ga.ewise_mult(gb_, op)
    # The result's arrays are taken over, not copied: a Matrix that installs the block hands
    # them back to SuiteSparse as its copy (``adopt``), with no copy either way.
    return _block_of(expr.new(dtype=np.dtype(out_type).name, **_THREADS_KW), keep=False)


def reduce_rows(block, monoid, out_dtype, *, bitmap=False):
    """Each row with entries and its fold by ``monoid`` (the interface of ``backends``), by
    SuiteSparse's row reduction of the block's copy by rows: python-graphblas's own result at
    one thread, in its own order, bit for bit (see ``accepts``)."""
    op = getattr(grb.monoid, monoid.name)[np.dtype(out_dtype).name]
    idx, vals = _matrix(block, "rows").reduce_rowwise(op).new(**_THREADS_KW).to_coo()
    return idx.astype(np.int64), vals


def reduce_block(block, monoid, lanes, stop):
    """The fold of the block's values by ``monoid`` (the interface of ``backends``), by
    SuiteSparse's reduction of the copy by rows it already holds: in its lanes, as
    python-graphblas folds a sparse matrix, at one compiled pass (numpy's lanes cost a call a
    row of them: 0.8 against 0.3 ms for 1M values)."""
    op = getattr(grb.monoid, monoid.name)[np.dtype(block.dtype).name]
    value = _matrix(block, "rows").reduce_scalar(op).new(**_THREADS_KW).value
    return np.dtype(block.dtype).type(value)


def reduce_cols(block, monoid, out_dtype):
    """Each column with entries and its fold by ``monoid`` (the interface of ``backends``),
    by SuiteSparse's column reduction of the block's copy by rows: no copy by columns is
    made."""
    op = getattr(grb.monoid, monoid.name)[np.dtype(out_dtype).name]
    idx, vals = _matrix(block, "rows").reduce_columnwise(op).new(**_THREADS_KW).to_coo()
    return idx.astype(np.int64), vals


def held_bytes(block):
    """The bytes of this backend's copies of ``block`` (SuiteSparse's own count), the copy
    by rows and the one by columns each once (a symmetric block's are one matrix), less the
    arrays it shares with the block."""
    copies = {id(m): m for m in block.derived.get("suitesparse", {}).values()}
    return sum(m.ss.nbytes for m in copies.values()) - \
        block.derived.get("suitesparse_shared_bytes", 0)


def _is_builtin(op, namespace, grb_namespace):
    """Whether ``op`` is gblas2d's builtin of its name, one python-graphblas also has."""
    builtin = getattr(namespace, op.name, None)
    return builtin is not None and builtin.func is op.func and not op.index_aware and \
        hasattr(grb_namespace, op.name)


def _accepts_spmv(block, x, semiring, **_):
    return bool(block.nvals) and supports(semiring)


def _accepts_spgemm(a, b, semiring, a_dtype, b_dtype, **_):
    return bool(a.nvals and len(b[1])) and supports(semiring) and \
        _native(a.dtype) and _native(b[2].dtype)


def _accepts_write_block(c, t, mask, accum, replace, dtype):
    # A masked write, or an unmasked accumulation, of two non-empty blocks of the output's
    # type, not both small. (A masked write works on a copy of C; an unmasked one without
    # accum is T itself.)
    plain = accum is None or _is_builtin(accum, builtin_binary, grb.binary)
    return plain and bool(c.nvals and t.nvals) and c.nvals + t.nvals >= SMALL_BLOCK and \
        (bool(mask.block.nvals) if mask is not None else accum is not None) and \
        c.dtype == t.dtype == np.dtype(dtype) and _native(dtype)


def _accepts_select_values(block, op, thunk):
    # Only where casting the thunk to the block's type cannot change a comparison: an FP64
    # block, or an integer block and thunk in its range.
    dtype = block.dtype
    if dtype == np.float64:
        exact = isinstance(thunk, (int, float, np.integer, np.floating))
    else:
        exact = dtype.kind in "iu" and isinstance(thunk, (int, np.integer)) and \
            np.iinfo(dtype).min <= thunk <= np.iinfo(dtype).max
    builtin = getattr(builtin_select, op.name, None)
    return builtin is not None and builtin.func is op.func and op.name.startswith("value") and \
        exact and bool(block.nvals) and block.nvals >= SMALL_BLOCK


def _accepts_ewise_block(a, b, binop, kind, in_types, out_type, defaults):
    # A builtin op, both operands already of the op's input type.
    same_types = a.dtype == in_types[0] and b.dtype == in_types[1] and \
        in_types[0] == in_types[1]
    return _is_builtin(binop, builtin_binary, grb.binary) and same_types \
        and bool(a.nvals and b.nvals) and a.nvals + b.nvals >= SMALL_BLOCK and \
        _native(in_types[0]) and _native(out_type)


def _accepts_reduce_rows(block, monoid, out_dtype, *, bitmap=False):
    # A builtin monoid on a block SuiteSparse holds sparse, as python-graphblas holds such a
    # matrix; one it would hold as a bitmap folds in index order, numpy's. (The columns'
    # reduction takes the same.)
    if getattr(builtin_monoids, monoid.name, None) is not monoid or bitmap or \
            not block.nvals or block.nvals < SMALL_BLOCK or block.dtype != out_dtype or \
            not _native(out_dtype):
        return False
    try:
        getattr(grb.monoid, monoid.name)[np.dtype(out_dtype).name]
    except (AttributeError, KeyError, TypeError):
        return False  # (plus over BOOL, say: python-graphblas has none)
    return True


def _accepts_reduce_block(block, monoid, lanes, stop):
    # Only a copy SuiteSparse holds already (a block it adopted or imported for a product):
    # an import would copy every value. A float sum or product only in lanes, SuiteSparse's
    # fold of a sparse matrix; a monoid of the block's own type, so nothing is cast.
    held = block.derived.get("suitesparse", {})
    if "rows" not in held or block.nvals < SMALL_BLOCK or block.is_bitmap or \
            getattr(builtin_monoids, monoid.name, None) is not monoid or \
            (isinstance(monoid, OrderedMonoid) and not lanes) or not _native(block.dtype) or \
            monoid.output_type(lookup_dtype(block.dtype)).np_type != block.dtype:
        return False
    try:
        getattr(grb.monoid, monoid.name)[np.dtype(block.dtype).name]
    except (AttributeError, KeyError, TypeError):
        return False
    return True


def _scalar_writes_here(block, places, value_type, accum, dtype):
    # The scalar of C's type (no cast for SuiteSparse to do otherwise than numpy), a builtin
    # accum, into a block with entries, the two not both small.
    return np.dtype(value_type) == np.dtype(dtype) and _native(dtype) and \
        (accum is None or _is_builtin(accum, builtin_binary, grb.binary)) and \
        bool(block.nvals) and block.nvals + places >= SMALL_BLOCK


def _accepts_assign_region(block, rows, cols, value, value_type, accum, dtype):
    return _scalar_writes_here(block, len(rows) * len(cols), value_type, accum, dtype)


def _accepts_assign_masked(block, mask, value, value_type, accum, dtype):
    return not mask.complement and bool(mask.block.nvals) and \
        _scalar_writes_here(block, mask.block.nvals, value_type, accum, dtype)


def _accepts_whole_block(block, *_):
    # extract, position select, transpose: any block of entries of a native type, not small
    return bool(block.nvals) and block.nvals >= SMALL_BLOCK and _native(block.dtype)


_ACCEPTS = {"spmv": _accepts_spmv, "spgemm": _accepts_spgemm,
            "write_block": _accepts_write_block, "select_values": _accepts_select_values,
            "ewise_block": _accepts_ewise_block, "transpose_block": _accepts_whole_block,
            "reduce_rows": _accepts_reduce_rows, "reduce_cols": _accepts_reduce_rows,
            "reduce_block": _accepts_reduce_block,
            "select_positions": _accepts_whole_block,
            "assign_region": _accepts_assign_region, "assign_masked": _accepts_assign_masked,
            "extract_block": _accepts_whole_block}


def accepts(kernel, *args, **kwargs):
    """Whether this backend runs ``kernel`` on these arguments (the kernel's own); the plan
    sends what it does not to the numpy backend."""
    return _ACCEPTS[kernel](*args, **kwargs)
