"""Matrix products as the three collective steps that compute them: expand, local multiply,
fold. A product is a value (``MatVec``, ``MatMat``) built by the surface's expressions
(``surface.expr``) and computed when it is assigned.

``y = A (+).(x) x`` (mxv, outputs are rows):
  1. expand: gather x's column block j at every rank of grid column j (permute + allgather on
     ``col_comm``);
  2. local: y_i^(j) = A_ij (+).(x) x_j, pushing from x's entries or pulling into unmasked rows;
  3. fold: reduce-scatter the partials of row block i along ``row_comm`` to the owners.
``vxm`` is the mirror: gather along ``row_comm``, fold along ``col_comm`` then send home.

A mask is pushed down before step 2 (its bitmap gathered over the output segment), so masked-out
outputs are never computed. The direction is chosen from allreduced edge counts (Beamer's rule:
push when the frontier's edges are fewer than the unmasked outputs' edges), so every rank makes
the same choice; ``direction=`` forces it and ``exchange=`` forces dense or sparse messages.
"""

import itertools
import time
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from ..exceptions import DimensionMismatch, NotImplementedException
from ..local import backends, device
from ..local.block import Block, BlockMask, row_pointers
from ..local.device import array_module
from ..local.keys import keys_fit, locate, merge_disjoint, reduce_scattered, sorted_isin
from ..local.piece import Piece, PieceMask
from ..semirings import monoid
from . import exchange as ex
from . import redistribute as redist
from .comm import count, stats

__all__ = ["EdgeSums", "MatMat", "MatVec", "ProductMask", "trace"]


def _count_copy(op, nbytes, seconds):
    # A copy between host and GPU goes from this rank to itself: sent and received alike.
    count(op, "device", nbytes, nbytes, 1, seconds)


device.record_copies(_count_copy)

_tracers = []


@contextmanager
def trace():
    """Collect one dict per product (mxv, vxm, mxm) run inside the block.

    Each dict has the operation, the chosen direction, the frontier and output nvals, the edge
    counts behind the choice (None when ``direction=`` forced it) and whether they were counted
    from the pieces (``counted``: a world step at more than one rank) rather than read from the
    operands' degree sums, the formats that travelled and the bytes this rank received per
    group. The list is this rank's; the choices in it are the same on every rank.

    Examples
    --------
    >>> with trace() as events:
    ...     pass
    >>> events
    []
    """
    events = []
    _tracers.append(events)
    try:
        yield events
    finally:
        # by identity: two lists that saw the same products are equal
        del _tracers[next(k for k, t in enumerate(_tracers) if t is events)]


class ProductMask(NamedTuple):
    """An output mask as a product reads it: the 2D layer's vector or matrix whose entries
    (all of them, or the nonzero ones when not ``structure``) it names, and whether it
    allows those positions or, ``complement``, the others."""

    target: object
    structure: bool
    complement: bool

    def local(self):
        """This rank's part of a Vector mask, a ``PieceMask``."""
        return PieceMask(self.target.piece, self.structure, self.complement)

    def block_mask(self):
        """This rank's part of a Matrix mask, a ``BlockMask``."""
        return BlockMask(self.target.block, self.structure, self.complement)


def _emit(event):
    for events in _tracers:
        events.append(event)


def _count_bytes():
    s = stats()
    return {g: s.bytes(g) for g in ("row", "col", "transpose", "world")}


class MatVec:
    """The product ``y = A (+).(x) x`` (``orient`` "mxv": the outputs are A's rows) or
    ``y = x (+).(x) A`` ("vxm": its columns) as a value: its operands, semiring, orientation
    and output type, checked when it is built: the shapes, then the types, by ``typed(op,
    *types)`` (the output type, or the caller's DomainMismatch). ``x_first`` says whether x is
    the multiply's first operand (``A.T.mxv(x)`` is a "vxm" layout with A first). ``compute``
    runs it: expand, local product, fold."""

    def __init__(self, A, x, semiring, orient, x_first, typed):
        inner = A.ncols if orient == "mxv" else A.nrows
        if x.size != inner:
            dim = "ncols" if orient == "mxv" else "nrows"
            raise DimensionMismatch(f"Matrix.{dim} (={inner}) must equal Vector.size "
                                    f"(={x.size})")
        self.out_type = typed(semiring, x.dtype, A.dtype) if x_first else \
            typed(semiring, A.dtype, x.dtype)
        self.A, self.x, self.semiring = A, x, semiring
        self.orient, self.x_first = orient, x_first
        self.size = A.nrows if orient == "mxv" else A.ncols

    # compute's piece holds only what the mask allows: the write need not look it up again
    masks_result = True

    def compute(self, mask=None, opts=None):
        """Collective. This rank's Piece of the product, under the output's ``mask`` (a
        ``ProductMask`` or None) and the options ``direction``, ``exchange``."""
        return _mxv(self.A, self.x, self.semiring, self.out_type, mask, opts or {},
                    self.orient, self.x_first)


class MatMat:
    """The product ``C = A (+).(x) B`` as a value, checked when it is built as ``MatVec`` is;
    ``compute`` runs it by one of two schemes (``_mxm``)."""

    def __init__(self, A, B, semiring, typed):
        if B.nrows != A.ncols:
            raise DimensionMismatch(f"Matrix.ncols (={A.ncols}) must equal Matrix.nrows "
                                    f"(={B.nrows})")
        self.out_type = typed(semiring, A.dtype, B.dtype)
        self.A, self.B, self.semiring = A, B, semiring
        self.shape = (A.nrows, B.ncols)

    def compute(self, mask=None, opts=None):
        """Collective. This rank's block of the product, a Block or (keys, values), under the
        output's ``mask`` and the options ``scheme``, ``direction``."""
        return _mxm(self.A, self.B, self.semiring, self.out_type, mask, opts or {})


def _mxv(A, x, semiring, out_type, mask, opts, orient, x_first):
    """Collective. This rank's Piece of ``A (+).(x) x`` or ``x (+).(x) A`` (``MatVec``)."""
    grid = A.grid
    block = A.block
    start = time.perf_counter()
    before = _count_bytes() if _tracers else None
    force = opts.get("exchange")
    local_mask = None if mask is None else mask.local()
    asked, direction = orient, opts.get("direction")
    work = (None, None)
    counted = False
    if direction is None and x.nvals == x.size and mask is None:
        # Every edge either way, known from the replicated nvals: a pull, with no step.
        direction, work = "pull", (A.nvals, A.nvals)
    elif direction is None:
        # (one rank keeps no sums: its count is local)
        work = _hinted_work(A, x, mask, orient) if grid.nprocs > 1 else None
        if work is None:
            work, counted = _counted_work(A, x, local_mask, orient), True
        direction = "push" if work[0] < work[1] else "pull"
    if A.is_symmetric and grid.nprocs > 1 and not semiring.binaryop.index_aware and (
            grid.nrows == grid.ncols or grid.nrows == 1 and direction == "push"):
        # A symmetric matrix is read by rows either way: a push as vxm, a pull as mxv, the
        # same product since A equals its transpose. Its block is then never needed by
        # columns (a copy of the block at more than one rank, where A_ij's mirror is another
        # rank's block). On a square grid the other reading moves the same volume along the
        # other group. On a 1 x C grid a push as vxm gathers x's entries along the grid row
        # and folds nothing, where as mxv it folds the outputs it reaches, and it reads no copy
        # by columns (Erdos-Renyi 20 at 1x2: 443 ms to make one at a push's first use, then
        # 100 ms a push). Otherwise, where one reading is local, the asked one stays.
        orient = "vxm" if direction == "push" else "mxv"
    if orient == "mxv":
        n_in, n_out, in_axis, out_axis = A.ncols, A.nrows, "col", "row"
        in_offset, out_offset, in_len = A.col_offset, A.row_offset, block.ncols
    else:
        n_in, n_out, in_axis, out_axis = A.nrows, A.ncols, "row", "col"
        in_offset, out_offset, in_len = A.row_offset, A.col_offset, block.nrows

    if grid.segment_is_local(in_axis):
        # x's piece is the whole input segment: no gather, and a dense bitmap is not rebuilt.
        # A pull looks x up at random, which a bitmap does in O(1): it keeps one down to
        # 1/256 density (R-MAT 20, a pull over a frontier of 6%: 80 ms in SuiteSparse with x
        # as a list, 18 ms as a bitmap); a push walks x's entries, as a list below 1/16.
        x_seg = x.piece if direction == "pull" else x.piece.compact()
        in_formats = ["local"]
        x_idx = None  # listed only if the push measure below needs it
    else:
        local_idx, local_vals = x.host_piece().entries()
        _, x_idx, x_vals, in_formats = ex.gather_segment(
            grid, n_in, local_idx, local_vals, x.dtype.np_type, in_axis, force)
        x_seg = Piece.from_entries(in_len, x_idx, x_vals, operand=True)
    block_push = None
    if direction == "push":
        # The kernel plan's measure of this block's push: the pointers by x's dimension (a
        # pull needs none; one by the output's dimension is never made for the choice).
        ids, in_ptr = block.pointers("cols" if orient == "mxv" else "rows")
        if counted and grid.nprocs == 1:
            block_push = int(work[0])  # one rank's block is the whole matrix: counted above
        elif x_seg.nvals == in_len:
            block_push = int(in_ptr[-1])
        else:
            on = x_seg.on_host().entries()[0] if x_idx is None else x_idx
            slots = locate(ids, on)[0]
            block_push = int((in_ptr[slots + 1] - in_ptr[slots]).sum())

    allowed = local_mask
    if local_mask is not None and not grid.segment_is_local(out_axis):
        # The output segment spans several pieces. A pull needs the mask there to skip the
        # rows it forbids: gather its packed bitmap. A push leaves it to the owners, which
        # apply it to what the fold brings (O(entries)), not O(n / R) bits a product.
        allowed = None
        if direction == "pull" and mask.target.nvals * 64 < n_out:
            # A mask of few entries travels as their positions, fewer bytes than n / R bits
            # and never O(n / R) memory (a hypersparse matrix's output dimension).
            on = local_mask.on.on_host().entries()[0]
            _, on, _, _ = ex.gather_segment(grid, n_out, on, np.ones(len(on), dtype=bool),
                                            np.dtype(bool), out_axis, "sparse")
            seg = Piece.from_entries(block.nrows if orient == "mxv" else block.ncols, on,
                                     np.ones(len(on), dtype=bool))
            allowed = PieceMask(seg, True, local_mask.complement)
        elif direction == "pull":
            bits = ex.gather_bitmap(grid, n_out, device.on_host(local_mask.bitmap()), out_axis)
            allowed = PieceMask(Piece.from_bitmap(bits, bits), True, False)

    partial = backends.run(
        "spmv", block, x_seg, semiring, push_edges=block_push, orient=orient, x_first=x_first,
        direction=direction, allowed=allowed, out_offset=out_offset, in_offset=in_offset,
        out_dtype=out_type.np_type)

    if grid.segment_is_local(out_axis):
        # The block's outputs are this rank's piece, masked by the kernel: nothing to fold,
        # and a kernel's bitmap is kept as it came.
        out, out_formats = partial.stored(), ["local"]
    else:
        # (a device's result comes up here, where it is sent)
        idx, vals, out_formats = ex.fold_segment(grid, n_out, *partial.on_host().entries(),
                                                 semiring.monoid, out_type.np_type, out_axis,
                                                 force)
        if local_mask is not None and allowed is None:
            # A push over a spread output segment: the owners apply the mask to what the
            # fold brought (O(entries)), so that every product's piece is masked
            # (``masks_result``).
            keep = local_mask.on_host().allows(idx)
            if not keep.all():
                idx, vals = idx[keep], vals[keep]
        lo, hi = grid.piece(n_out)
        out = Piece.from_entries(hi - lo, idx, vals, out_type.np_type)
    if _tracers:
        after = _count_bytes()
        _emit({"op": asked, "read_as": orient, "semiring": semiring.name,
               "direction": direction,
               "frontier_nvals": x.nvals, "forced": work[0] is None, "counted": counted,
               "push_edges": None if work[0] is None else int(work[0]),
               "pull_edges": None if work[1] is None else int(work[1]),
               "masked": mask is not None,
               "expand": sorted(set(in_formats)), "fold": sorted(set(out_formats)),
               "bytes": {g: after[g] - before[g] for g in after},
               "seconds": time.perf_counter() - start})
    return out


def _other(orient):
    return "vxm" if orient == "mxv" else "mxv"


class Degrees:
    """The degree in the whole matrix of each output of this rank's piece (``_piece_degrees``):
    ``of`` is an array over the piece, or (positions, degrees) of the outputs that have any
    when those are few (a hypersparse matrix), so never O(size / P) for a few edges; ``total``
    is their sum. ``serial`` names this cache on this rank, for the vectors that keep sums of
    it (``EdgeSums``)."""

    __slots__ = ("of", "total", "serial", "n", "_moved")

    def __init__(self, of, total, n):
        self.of, self.total, self.n = of, total, n
        self.serial = next(_serials)
        self._moved = None

    def _of_on(self, xp):
        """The degree array where module ``xp``'s arrays live: a device's copy is made once,
        for the pieces a device kernel left there."""
        if xp is np:
            return self.of
        if self._moved is None or self._moved[0] is not xp:
            self._moved = (xp, device.moved_to(xp, self.of))
        return self._moved[1]

    def at(self, positions):
        """The sum of the degrees at the piece's sorted unique ``positions``."""
        if isinstance(self.of, np.ndarray):
            of = self.of if type(positions) is np.ndarray else \
                self._of_on(array_module(positions))
            picked = of[positions]
            if type(picked) is np.ndarray and len(picked) <= 16:
                # (a frontier of a few: Python's sum of a short list is a third of numpy's)
                return sum(picked.tolist())
            return int(picked.sum())
        idx, vals = self.of
        return int(vals[locate(idx, device.on_host(positions))[0]].sum())

    def over(self, piece):
        """The sum of the degrees at the entries of ``piece``, a Piece of the same positions:
        O(entries), or one pass for a bitmap."""
        if piece.nvals == piece.size:
            return self.total
        if piece.is_bitmap and isinstance(self.of, np.ndarray):
            if type(piece.present) is not np.ndarray:
                return int((self._of_on(piece.xp) * piece.present).sum())
            # a dot product: 6x faster than sum(where=) over 131,072 positions
            return int(np.dot(self.of, piece.present))
        return self.at(piece.entries()[0])


_serials = itertools.count()


def _piece_degrees(A, orient):
    """Collective (once per block and orientation, then cached). The ``Degrees`` of the
    outputs of this rank's piece: rows for mxv, columns for vxm; the same for a symmetric
    matrix, counted once."""
    block = A.block
    key = _degree_key(A, orient)
    if key not in block.derived:
        if orient == "mxv":
            n, axis = A.nrows, "row"
            ids, ptr = block.pointers("rows")
            counts = np.diff(ptr)
        elif block.is_hyper:
            n, axis = A.ncols, "col"
            ids, counts = np.unique(block.cols, return_counts=True)
        else:
            # counted here, not kept as column pointers: the degrees are what is kept
            n, axis, ids = A.ncols, "col", None
            counts = np.bincount(block.cols, minlength=block.ncols)
        idx = np.flatnonzero(counts)
        vals = counts[idx]
        if ids is not None:
            idx = ids[idx]
        idx, vals, _ = ex.fold_segment(A.grid, n, idx, vals, monoid.plus,
                                       np.dtype(np.int64), axis)
        lo, hi = A.grid.piece(n)
        if len(idx) * 16 < hi - lo:
            degrees = (idx, vals)
        else:
            degrees = np.zeros(hi - lo, dtype=np.int64)
            degrees[idx] = vals
        A.grid.comm.keep(block.derived, key, Degrees(degrees, int(vals.sum()), n))
    return block.derived[key]


def _degree_key(A, orient):
    return "degrees_mxv" if A.is_symmetric else f"degrees_{orient}"


def _counted_work(A, x, local_mask, orient):
    """Collective: one world step. The push and pull work of a product, from the owners'
    pieces before anything moves: the frontier's edges are the degrees of x's entries by x's
    dimension (every edge of the block for a full x), the pull's those of the outputs the mask
    allows, summed over the ranks. The degrees used become those that vector writes sum from
    now on (``EdgeSums``), so that the next product on A needs no step of its own."""
    block = A.block
    if x.nvals == x.size:
        push_work = block.nvals
    else:
        push_work = _piece_degrees(A, _other(orient)).over(x.piece)
    if local_mask is None:
        pull_work = block.nvals
    else:
        pull_work = _pull_work(_piece_degrees(A, orient), local_mask, push_work)
    if A.grid.nprocs == 1:
        return push_work, pull_work
    work = A.grid.comm.allreduce(np.array([push_work, pull_work], dtype=np.int64))
    _summed[:] = [d for d in (block.derived.get(f"degrees_{o}") for o in ("mxv", "vxm"))
                  if d is not None]
    return work


def _pull_work(degrees, allowed, push_work):
    """This rank's share of the pull work: the degrees of the outputs of its piece that the
    mask allows.

    Under a complemented mask this is every degree less those of the masked-out outputs, which
    takes a pass over the mask's entries. When that pass would cost more than 8 times the push
    work, the push is cheap next to it and wins: report every edge instead of counting."""
    if allowed.complement and allowed.on.nvals > 8 * push_work:
        return degrees.total
    rows = allowed.on.entries()[0] if allowed.complement else allowed.positions()
    edges = degrees.at(rows)
    return degrees.total - edges if allowed.complement else edges


# The folded-work step of a product (``_counted_work``) is a world collective of its own, and
# a masked product's write ends with another, its nvals. So that a level of a traversal makes
# one, every vector write sums the degrees of its entries in the matrix of the last counted
# product and adds the sums to its nvals step; the next product on that matrix reads its work
# from its frontier's and mask's sums. These are the Degrees of that matrix (at most two
# orientations), set at the same step on every rank; holding them keeps them alive until
# another matrix's product replaces them (O(n / P)).
_summed = []


class EdgeSums:
    """The degree sums of a vector's entries in the ``Degrees`` of ``_summed``: this rank's
    (``local``) and the agreed totals (``total``), by the Degrees' serial."""

    __slots__ = ("local", "total")

    def __init__(self, local, total=None):
        self.local, self.total = local, total

    @classmethod
    def of_write(cls, v, change):
        """Local. This rank's sums for ``v``'s piece once the ``Write`` ``change`` is
        installed, or None where no degrees are summed. A patch costs O(its positions),
        given the sums before it."""
        if not _summed:
            return None
        local = {}
        before = v.edges.local if v.edges is not None else {}
        for degrees in _summed:
            if degrees.n != v.size:
                continue
            if change.piece is not None:
                local[degrees.serial] = degrees.over(change.piece)
                continue
            local[degrees.serial] = _patched_sum(degrees, change.patch,
                                                 before.get(degrees.serial))
        return cls(local) if local else None

    def lanes(self):
        return [self.local[k] for k in sorted(self.local)]

    def agreed(self, sums):
        """These sums, with their totals over the ranks (``sums``, in ``lanes`` order)."""
        self.total = dict(zip(sorted(self.local), (int(s) for s in sums), strict=True))
        return self


def _patched_sum(degrees, patch, was):
    """The degree sum of the entries of a bitmap piece ``c`` once ``patch`` (``c``, sorted
    clear and set positions, values: ``Write.install``'s order) is applied, from ``was``, the
    sum before (None: not known). O(the patch): the cleared entries that were there come off,
    then the set ones that are not there once cleared come on."""
    c, clear, set_idx, _ = patch
    if was is None:
        was = degrees.over(c)
    present = c.present
    if len(clear) == len(set_idx) and np.array_equal(clear, set_idx):
        # the write of a masked assign (BFS's v<q> = level): only the new entries count
        return was + degrees.at(set_idx[~present[set_idx]])
    gone = degrees.at(clear[present[clear]])
    return was - gone + degrees.at(set_idx[~present[set_idx] | sorted_isin(set_idx, clear)])


def _hinted_work(A, x, mask, orient):
    """The push and pull work of a product from its operands' ``EdgeSums`` (no
    communication), or None where one of them has none for A's current degrees."""
    push = A.nvals if x.nvals == x.size else _edge_total(x, A, _other(orient))
    if push is None:
        return None
    if mask is None:
        return push, A.nvals
    if not mask.structure or len(mask.target.shape) != 1:
        return None
    if mask.complement and mask.target.nvals > 8 * push:
        # as ``_pull_work`` rules: a pull would pass over the many masked-out outputs
        return push, A.nvals
    seen = _edge_total(mask.target, A, orient)
    if seen is None:
        return None
    return push, A.nvals - seen if mask.complement else seen


def _edge_total(v, A, orient):
    edges = v.edges
    degrees = A.block.derived.get(_degree_key(A, orient))
    if edges is None or edges.total is None or degrees is None:
        return None
    return edges.total.get(degrees.serial)


def _mxm(A, B, semiring, out_type, mask, opts):
    """Collective. This rank's block of ``C = A (+).(x) B`` (``MatMat``): a Block, or (keys,
    values).

    Three schemes, the same on every rank (``scheme=`` forces one):

    * ``gather``, for a tall and skinny B (a batch of frontiers, a diagonal): B's rows that meet
      A's column block j are gathered at every rank of grid column j, O(nnz(B) / C) per rank;
      each rank multiplies its block; the partial rows of row block i are folded along
      ``row_comm`` to their owners. A mask goes into the local product (``direction="pull"``)
      when its row panel, gathered along ``row_comm``, is smaller than the products it would
      keep out of the fold; otherwise (``"push"``) the owners apply it after the fold.
    * ``summa``, when B is as large as A's share of a grid row (B's gathered rows would
      weigh as much as a rank's part of A) and not a diagonal: P stages, one per piece of the
      inner dimension. At stage q the grid column holding those columns of A broadcasts them
      along ``row_comm`` and the grid row holding those rows of B broadcasts them along
      ``col_comm``; every rank multiplies the two into its own block of C, masked there, and
      adds it to what the earlier stages made. Nothing is folded, a rank holds one stage's
      pieces at a time (O(nnz / P^2) each), and the volume is O(nnz(A) / R + nnz(B) / C) per
      rank, as in CombBLAS.
    * ``gather_left``, the mirror of ``gather`` for a short and wide A (k frontiers times a
      graph, F A): A's entries whose columns meet B's row block i are gathered at every rank
      of grid row i, O(nnz(A) / R) per rank; each rank multiplies them by its block of B; the
      partial products of column block j are folded along ``col_comm`` to their owners. B
      never moves. The owners' write applies a mask.
    """
    grid = A.grid
    start = time.perf_counter()
    before = _count_bytes() if _tracers else None
    scheme = opts.get("scheme") or _mxm_scheme(grid, A, B, semiring)
    if semiring.binaryop.index_aware and scheme == "summa":
        raise NotImplementedException(
            f"scheme='summa' does not take a positional semiring ({semiring.name}): its local "
            "products see the stage's pieces, not global indices; use scheme='gather'")
    if semiring.binaryop.index_aware and scheme == "gather_left":
        raise NotImplementedException(
            f"scheme='gather_left' does not take a positional semiring ({semiring.name}); use "
            "scheme='gather'")
    if scheme == "summa":
        result, direction = _summa(grid, A, B, semiring, out_type, mask), None
    elif scheme == "gather_left":
        result, direction = _gather_left(grid, A, B, semiring, out_type), None
    else:
        result, direction = _gather_rows(grid, A, B, semiring, out_type, mask, opts)
    if _tracers:
        after = _count_bytes()
        _emit({"op": "mxm", "semiring": semiring.name, "scheme": scheme,
               "direction": direction, "mask_in_product": mask is not None and (
                   scheme == "summa" or direction == "pull" or grid.ncols == 1),
               "b_nvals": B.nvals, "bytes": {g: after[g] - before[g] for g in after},
               "seconds": time.perf_counter() - start})
    return result


def _mxm_scheme(grid, A, B, semiring):
    """``summa`` when a rank's gathered rows of B, nnz(B) / C, would weigh as much as its
    share of A, nnz(A) / P, and B has more than one entry per row or column (square operands,
    triangle counting, a wide frontier); ``gather`` otherwise and on one rank. A diagonal or a
    permutation gathers: its partial products stay on the rank that made them. Positional
    semirings always gather: their products need global indices."""
    if grid.nprocs == 1 or semiring.binaryop.index_aware:
        return "gather"
    square = B.nvals * grid.nrows >= A.nvals and B.nvals > max(B.nrows, B.ncols)
    chosen = "summa" if square else "gather"
    # Entries a rank receives: summa a share of A and of B, gather B's rows over its column
    # block and the partial products it folds, gather_left A's columns over its row block and
    # the partial products it folds (nnz(A) times B's mean row degree, over the ranks). The
    # gather_left only where it moves fewer, and where its keys fit (see ``_gather_left``).
    partial = A.nvals * (B.nvals / max(B.nrows, 1)) / grid.nprocs
    moved = {"summa": A.nvals / grid.nrows + B.nvals / grid.ncols,
             "gather": B.nvals / grid.ncols + partial}
    left = A.nvals / grid.nrows + partial
    row_lo, row_hi = grid.row_block(A.nrows)
    fits = keys_fit(row_hi - row_lo, B.block.ncols)
    return "gather_left" if fits and left < moved[chosen] else chosen


def _gather_rows(grid, A, B, semiring, out_type, mask, opts):
    """The ``gather`` scheme (see ``_mxm``): (result, direction)."""
    b_block = None
    if grid.nprocs == 1:
        # B's block is the whole of B, already CSR over A's columns.
        b_block = B.block
        b_ptr, b_cols, b_vals = b_block.csr
    else:
        b_rows, b_cols, b_vals = B.block.global_coo(B.row_offset, B.col_offset)
        dest = grid.col_position(grid.owner(A.ncols, b_rows))
        got = redist.to_owners(grid, dest, b_rows, b_cols, b_vals)
        b_rows, b_cols, b_vals = (np.concatenate(grid.col_comm.allgatherv(a)) for a in got)
        inner = b_rows - A.col_offset
        order = np.lexsort((b_cols, inner))
        inner, b_cols, b_vals = inner[order], b_cols[order], b_vals[order]
        b_ptr = row_pointers(A.block.ncols)
        np.cumsum(np.bincount(inner, minlength=A.block.ncols), out=b_ptr[1:])
    direction, local_mask = None, None
    if mask is not None and grid.ncols == 1:
        # With one grid column the local product is this rank's whole block of C: the mask
        # goes into it, and nothing is left to fold.
        local_mask = mask.block_mask()
    elif mask is not None:
        direction = opts.get("direction")
        if direction is None:
            # The partial products, before the fold merges them, against the mask's row
            # panels, which every rank of a grid row would receive.
            flops = int(np.dot(np.diff(A.block.csc_ptr), np.diff(b_ptr)))
            work = grid.comm.allreduce(np.array([flops, mask.target.block.nvals]))
            direction = "pull" if grid.ncols * work[1] < work[0] else "push"
        if direction == "pull":
            local_mask = _mask_row_panel(grid, mask, B.ncols)
    product = backends.run(
        "spgemm", A.block, (b_ptr, b_cols, b_vals, B.ncols), semiring, A.dtype, B.dtype,
        a_row_offset=A.row_offset, inner_offset=A.col_offset, mask=local_mask, b_block=b_block)
    if local_mask is not None and grid.ncols > 1 and not product.within_mask:
        product = product.select(local_mask.allows(product.keys()))
    vals = product.values.astype(out_type.np_type, copy=False)
    if grid.ncols == 1:
        return product.with_values(vals), direction
    keys, vals = _fold_mxm(grid, A, B, semiring, product.rows, product.cols, vals)
    return (keys, vals.astype(out_type.np_type, copy=False)), direction


def _gather_left(grid, A, B, semiring, out_type):
    """The ``gather_left`` scheme (see ``_mxm``): this rank's block of C as sorted (keys,
    values)."""
    a_rows, a_cols, a_vals = A.block.global_coo(A.row_offset, A.col_offset)
    # An entry of A goes to the owner of the piece its column is in, which sits in the grid
    # row whose row block of B holds that column; that grid row then shares what it got.
    got = redist.to_owners(grid, grid.owner(A.ncols, a_cols), a_rows, a_cols, a_vals)
    a_rows, a_cols, a_vals = (np.concatenate(grid.row_comm.allgatherv(a)) for a in got)
    inner = a_cols - B.row_offset
    order = np.lexsort((inner, a_rows))
    panel = Block.from_coo(A.nrows, B.block.nrows, a_rows[order], inner[order],
                           a_vals[order])
    b = B.block
    product = backends.run(
        "spgemm", panel, (*b.csr, b.ncols), semiring, A.dtype, B.dtype, a_row_offset=0,
        inner_offset=B.row_offset, mask=None, b_block=b)
    # The partial products of column block j, each to the rank of grid column j whose row
    # block holds its row, as a key of that rank's block of C, merged there with the monoid.
    rows, cols = product.rows, product.cols
    vals = product.values.astype(out_type.np_type, copy=False)
    starts = grid.row_block_starts(A.nrows)
    members = np.searchsorted(starts, rows, side="right") - 1
    keys = (rows - starts[members]) * b.ncols + cols
    order = np.argsort(members, kind="stable")
    counts = np.bincount(members, minlength=grid.nrows)
    keys, _ = grid.col_comm.exchange(keys[order], counts)
    vals, _ = grid.col_comm.exchange(vals[order], counts)
    row_lo, row_hi = grid.row_block(A.nrows)
    keys, vals = reduce_scattered(keys, vals, semiring.monoid, (row_hi - row_lo) * b.ncols)
    return keys, vals.astype(out_type.np_type, copy=False)


def _mask_row_panel(grid, mask, ncols):
    """Collective along ``row_comm``. The mask over this rank's grid row, every column: the
    blocks of the grid row gathered, as a BlockMask of global columns. A value mask travels as
    its nonzero entries, a structure."""
    block = mask.target.block
    keep = None if mask.structure else block.values != 0
    rows, cols = block.rows, block.cols + grid.col_block(ncols)[0]
    if keep is not None:
        rows, cols = rows[keep], cols[keep]
    rows, cols = (np.concatenate(grid.row_comm.allgatherv(a)) for a in (rows, cols))
    keys = np.sort(rows * ncols + cols)
    panel = Block.from_keys(block.nrows, ncols, keys, np.ones(len(keys), dtype=bool))
    return BlockMask(panel, True, mask.complement)


def _summa(grid, A, B, semiring, out_type, mask):
    """The ``summa`` scheme (see ``_mxm``): this rank's block of C, a Block."""
    offsets = grid.offsets(A.ncols)
    local_mask = None if mask is None else mask.block_mask()
    keys = np.empty(0, dtype=np.int64)
    vals = np.empty(0, dtype=out_type.np_type)
    for q in range(grid.nprocs):
        stage_keys, stage_vals = _summa_stage(grid, A, B, semiring, out_type, local_mask,
                                              int(offsets[q]), int(offsets[q + 1]), q)
        keys, vals = _accumulate(keys, vals, stage_keys, stage_vals, semiring.monoid)
    block = Block.from_keys(A.block.nrows, B.block.ncols, keys, vals)
    block.within_mask = mask is not None
    return block


def _summa_stage(grid, A, B, semiring, out_type, local_mask, lo, hi, q):
    """Collective. Stage q of SUMMA, inner indices [lo, hi): this rank's products inside the
    mask, as sorted (keys, values). What the stage received dies with it."""
    b_owner, a_owner = grid.blocks_of_piece(q)
    a_part = _column_range(A.block, lo - A.col_offset, hi - A.col_offset) \
        if grid.mycol == a_owner else None
    b_part = _row_range(B.block, lo - B.row_offset, hi - B.row_offset) \
        if grid.myrow == b_owner else None
    a_ptr, a_cols, a_vals = grid.row_comm.bcast_arrays(
        a_part, a_owner, (np.int64, np.int64, A.block.dtype))
    b_ptr, b_cols, b_vals = grid.col_comm.bcast_arrays(
        b_part, b_owner, (np.int64, np.int64, B.block.dtype))
    if not (len(a_cols) and len(b_cols)):
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=out_type.np_type)
    stage = backends.run(
        "spgemm", Block(A.block.nrows, hi - lo, a_ptr, a_cols, a_vals),
        (b_ptr, b_cols, b_vals, B.block.ncols), semiring, A.dtype, B.dtype,
        a_row_offset=A.row_offset, inner_offset=lo, mask=local_mask)
    keys, vals = stage.keys(), stage.values.astype(out_type.np_type, copy=False)
    if local_mask is not None and not stage.within_mask:
        keep = local_mask.allows(keys)
        keys, vals = keys[keep], vals[keep]
    return keys, vals


def _accumulate(keys, vals, new_keys, new_vals, monoid):
    """Two sorted unique key lists as one, the values of keys in both combined with the
    monoid: a merge, O(a + b), with no sort and no scratch of the block's size."""
    if not len(keys):
        return new_keys, new_vals
    both = sorted_isin(new_keys, keys)
    if both.any():
        at = np.searchsorted(keys, new_keys[both])
        pairs = np.empty(2 * len(at), dtype=vals.dtype)
        pairs[0::2], pairs[1::2] = vals[at], new_vals[both]
        vals = vals.copy()
        vals[at] = monoid.reduceat(pairs, np.arange(0, len(pairs), 2))
    return merge_disjoint(keys, vals, new_keys[~both], new_vals[~both])


def _column_range(block, lo, hi):
    """Columns [lo, hi) of a block as CSR (ptr, columns from 0, values): a slice of its CSC,
    sorted back to rows."""
    ptr, rows, vals = block.csc
    first, last = int(ptr[lo]), int(ptr[hi])
    cols = np.repeat(np.arange(hi - lo, dtype=np.int64), np.diff(ptr[lo:hi + 1]))
    order = np.argsort(rows[first:last], kind="stable")
    out_ptr = np.zeros(block.nrows + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows[first:last], minlength=block.nrows), out=out_ptr[1:])
    return out_ptr, cols[order], vals[first:last][order]


def _row_range(block, lo, hi):
    """Rows [lo, hi) of a block as CSR (ptr from 0, columns, values): a slice."""
    ptr, cols, vals = block.csr
    first, last = int(ptr[lo]), int(ptr[hi])
    return ptr[lo:hi + 1] - first, cols[first:last], vals[first:last]


def _fold_mxm(grid, A, B, semiring, rows, cols, vals):
    """Collective along ``row_comm``. Partial products to the owners of their columns, merged
    with the monoid there: this rank's block of C as sorted (keys, values). Each product
    travels as one key in its owner's block and its value, ordered by owner once."""
    n_out_cols = B.ncols
    starts = grid.col_block_starts(n_out_cols)
    members = np.searchsorted(starts, cols, side="right") - 1
    keys = rows * (starts[members + 1] - starts[members]) + (cols - starts[members])
    order = np.argsort(members, kind="stable")
    counts = np.bincount(members, minlength=grid.ncols)
    del members
    keys, _ = grid.row_comm.exchange(keys[order], counts)
    vals, _ = grid.row_comm.exchange(vals[order], counts)
    col_lo, col_hi = grid.col_block(n_out_cols)
    return reduce_scattered(keys, vals, semiring.monoid, A.block.nrows * (col_hi - col_lo))
