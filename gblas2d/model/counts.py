"""Exact communication counts of a BFS on P virtual ranks, computed in one process.

Ownership is arithmetic (``Layout``), and every message of a masked product is sized by the
engine's own rules: the push/pull choice from the owners' degrees (``products._mxv``), the
self-describing messages of the expand and the fold (``exchange.message_sizes``), the pull's
mask (positions or packed bits), the degree fold of the first product, the world step of its
choice (later products read the choice from the degree sums their operands' writes agreed).
Given the BFS levels (from a run at one process), this module says for every level what each
rank of an R x C grid would receive in its row, column and transpose groups and over the
world, and which direction the engine would take, without MPI. Every rank's ``gb.trace()`` of
the same BFS under ``mpiexec -n P`` records the same figures (tests/model/test_bfs_counts.py
checks them equal).

Two projections build on the counts: a heavy-vertex delegation (``bfs_counts(heavy=...)``, a
distribution the engine does not have) and weak scaling from a smaller instance's frontiers
(``BFSCounts.scaled``).

The model follows ``algorithms.bfs_levels`` on one source: each level is
``q<!v, replace> = q any.pair A`` with q BOOL and v the visited set; the product's output type
is INT64 (8-byte values in the fold).
"""

import math

import numpy as np

from ..distributed.exchange import message_sizes
from ..distributed.grid import Layout

__all__ = ["BFSCounts", "bfs_counts", "block_counts", "delegates"]

GROUPS = ("row", "col", "transpose", "world")
# The item sizes of a BFS level's vectors: the frontier (BOOL), the product (INT64), the
# degrees (INT64) and a world step's eight int64 lanes.
_X_ITEM, _OUT_ITEM, _DEGREE_ITEM, _STEP_BYTES = 1, 8, 8, 64


class _Grid:
    """The virtual grid: every rank's position, its groups and their pieces."""

    def __init__(self, shape, n):
        self.R, self.C = shape
        self.P = self.R * self.C
        self.layout = Layout(shape, 0)
        self.offsets = self.layout.offsets(n)
        self.lengths = np.diff(self.offsets)
        ranks = np.arange(self.P)
        self.myrow, self.mycol = ranks // self.C, ranks % self.C
        # the piece each rank handles in its row / column group (its own piece in the row;
        # piece j*R + i at grid position (i, j) in the column)
        self.row_piece = ranks
        self.col_piece = self.mycol * self.R + self.myrow

    def segment_local(self, axis):
        return (self.R if axis == "col" else self.C) == 1

    def members(self, axis):
        """(P, group size): the world ranks of each rank's group, in group order."""
        if axis == "row":
            return self.myrow[:, None] * self.C + np.arange(self.C)[None, :]
        return np.arange(self.R)[None, :] * self.C + self.mycol[:, None]

    def group_rank(self, axis):
        return self.mycol if axis == "row" else self.myrow

    def handled_piece(self, axis):
        return self.row_piece if axis == "row" else self.col_piece

    def segment_pieces(self, axis):
        """(P, group size): the pieces of each rank's segment, in group order."""
        if axis == "row":
            return self.myrow[:, None] * self.C + np.arange(self.C)[None, :]
        return self.mycol[:, None] * self.R + np.arange(self.R)[None, :]


class _Tally:
    """One level's collectives, in order: each one's group, operation and what every rank
    receives; and the bytes received per group, summed."""

    def __init__(self, P):
        self.bytes = {g: np.zeros(P, dtype=np.int64) for g in GROUPS}
        self.calls = []

    def add(self, group, op, received):
        received = np.broadcast_to(np.asarray(received, dtype=np.int64), self.bytes[group].shape)
        self.bytes[group] += received
        self.calls.append({"group": group, "op": op, "received": received})


def _gather(grid, axis, piece_bytes, got):
    """An expand (``exchange.gather_segment`` or ``gather_bitmap``) of per-piece messages:
    what each rank receives, added to ``got``."""
    if grid.segment_local(axis):
        return
    if axis == "col":
        # piece k's message moves to grid position col_position(k): rank r receives the
        # message of the piece that sits at its position, unless it is its own
        moved = grid.col_piece != np.arange(grid.P)
        got.add("transpose", "sendrecv", np.where(moved, piece_bytes[grid.col_piece], 0))
    held = piece_bytes[grid.handled_piece(axis)]
    segment = piece_bytes[grid.segment_pieces(axis)].sum(axis=1)
    got.add(axis, "allgatherv", segment - held)


def _fold(grid, axis, counts, merged, itemsize, got):
    """A fold (``exchange.fold_segment``): ``counts[r, m]`` entries that rank r sends to the
    m-th piece of its segment, ``merged[k]`` entries of piece k after the merge."""
    if grid.segment_local(axis):
        return
    pieces = grid.segment_pieces(axis)
    sizes = message_sizes(counts, grid.lengths[pieces], itemsize)
    members = grid.members(axis)
    me = grid.group_rank(axis)
    # rank r receives, from each other member s, the message s made for r's piece
    from_members = sizes[members, me[:, None]]
    got.add(axis, "alltoallv", from_members.sum(axis=1) - sizes[np.arange(grid.P), me])
    if axis == "col":
        # the merged piece goes home from grid position col_position(k) to rank k
        home = message_sizes(merged, grid.lengths, itemsize)
        moved = grid.col_piece != np.arange(grid.P)
        got.add("transpose", "sendrecv", np.where(moved, home, 0))


def _segment_counts(grid, axis, owner_rank, piece):
    """(P, group size): how many of the entries at ``owner_rank`` fall in each piece of that
    rank's segment along ``axis`` (``piece`` is each entry's piece, inside the segment)."""
    size = grid.C if axis == "row" else grid.R
    first = (grid.myrow * grid.C if axis == "row" else grid.mycol * grid.R)[owner_rank]
    return np.bincount(owner_rank * size + (piece - first),
                       minlength=grid.P * size).reshape(grid.P, size)


def block_counts(n, rows, cols, shape):
    """Entries and nonempty rows of each rank's block on an R x C grid."""
    layout = Layout(shape, 0)
    P = layout.nprocs
    owner = layout.entry_owner(n, n, rows, cols)
    entries = np.bincount(owner, minlength=P)
    nonempty = np.bincount(np.unique(owner * n + rows) // n, minlength=P)
    return entries, nonempty


class BFSCounts:
    """What each of P virtual ranks receives per BFS level (``bfs_counts``).

    ``levels``: one dict per product, with the direction, the reading ("vxm" or "mxv"), the
    global push and pull work behind the choice, the frontier's size, and ``bytes``: for each
    group an array of what every rank receives; ``calls``: the collectives in order (group,
    operation, what every rank receives); ``edges``: the block edges each rank's kernel
    reads."""

    def __init__(self, shape, levels):
        self.shape = shape
        self.levels = levels

    def rank(self, r):
        """The levels as rank r sees them: bytes per group of that rank alone (the trace's
        record of a product)."""
        return [dict(level, bytes={g: int(b[r]) for g, b in level["bytes"].items()},
                     calls=[dict(c, received=int(c["received"][r])) for c in level["calls"]],
                     edges=int(level["edges"][r])) for level in self.levels]

    def scaled(self, volume):
        """These counts for a graph ``volume`` times as large on the same grid whose levels
        hold the same shares of its vertices and edges (Kronecker graphs nearly do): every
        message's payload and every rank's edges times ``volume``; each message's 16-byte
        header and the world steps' lanes as they are. This is how weak scaling is projected
        from a smaller instance's frontiers (a projection, not a count)."""
        R, C = self.shape
        size = {"row": C, "col": R}
        levels = []
        for level in self.levels:
            calls, got = [], {g: np.zeros_like(b) for g, b in level["bytes"].items()}
            for call in level["calls"]:
                received = call["received"]
                if call["group"] in size:
                    headers = 16 * (size[call["group"]] - 1)
                elif call["op"] == "sendrecv":
                    headers = np.where(received > 0, 16, 0)
                else:
                    headers = received
                headers = np.minimum(headers, received)  # a bitmap travels with none
                received = headers + (received - headers) * volume
                got[call["group"]] = got[call["group"]] + received
                calls.append(dict(call, received=received))
            levels.append(dict(level, bytes=got, calls=calls, edges=level["edges"] * volume))
        return BFSCounts(self.shape, levels)


def bfs_counts(n, rows, cols, levels, shape, *, symmetric, heavy=None):
    """The exact per-level counts of ``bfs_levels`` from one source on an R x C grid.

    Parameters
    ----------
    n : the number of vertices
    rows, cols : the global entries of A (int64 arrays)
    levels : the BFS level of every vertex (-1 where not reached), from a run at one process
    shape : (R, C)
    symmetric : whether A is known to equal its transpose (a generated or symmetric graph),
        which on a square grid makes the engine read A by rows in both directions
    heavy : bool array over the vertices, optional: the *delegated* ones (``delegates``), a
        distribution the engine does not have, so these counts are a projection. A delegated
        vertex's frontier bit is replicated (a bitmap of the delegates, OR-ed by the level's
        write step: a call ``delegates`` that only adds bytes), and each of its edges is held
        by the owner of the other end: expanding from it or pulling from it moves nothing,
        and its edges are spread over every rank. The other edges are held and moved as the
        engine does.
    """
    grid = _Grid(shape, n)
    P = grid.P
    light = None if heavy is None else ~heavy
    entry_rank = grid.layout.entry_owner(n, n, rows, cols)
    row_deg = np.bincount(rows, minlength=n)
    col_deg = row_deg if symmetric else np.bincount(cols, minlength=n)
    vertex_piece = grid.layout.owner(n, np.arange(n, dtype=np.int64))
    last = int(levels.max())
    out = []
    degrees_folded = False
    for k in range(last + 1):
        frontier = levels == k
        visited = (levels >= 0) & (levels <= k)
        got = _Tally(P)
        if not degrees_folded:
            # the first product folds the degrees behind the choice: the rows' (x's
            # dimension) along the row groups, and for a matrix not known symmetric the
            # columns' along the column groups
            _degree_fold(grid, n, rows, entry_rank, "row", got)
            if not symmetric:
                _degree_fold(grid, n, cols, entry_rank, "col", got)
            degrees_folded = True
        seen_count = np.bincount(vertex_piece[visited], minlength=P)
        if k == 0 or P == 1:
            # the choice, from the owners' pieces (``products._counted_work``)
            push = np.bincount(vertex_piece[frontier], weights=row_deg[frontier], minlength=P)
            total = np.bincount(vertex_piece, weights=col_deg, minlength=P)
            seen = np.bincount(vertex_piece[visited], weights=col_deg[visited], minlength=P)
            pull = np.where(seen_count > 8 * push, total, total - seen)
            push_work, pull_work = int(push.sum()), int(pull.sum())
            if P > 1:
                # counted as gb.stats() counts an allreduce: the lanes of every other rank
                got.add("world", "allreduce", _STEP_BYTES * (P - 1))
        else:
            # from the degree sums that the writes of the frontier and the visited set
            # agreed with their nvals (``products.EdgeSums``): exact, and no step
            push_work = int(row_deg[frontier].sum())
            pull_work = len(rows) if visited.sum() > 8 * push_work else \
                len(rows) - int(col_deg[visited].sum())
        direction = "push" if push_work < pull_work else "pull"
        square = symmetric and grid.R == grid.C > 1
        orient = ("vxm" if direction == "push" else "mxv") if square else "vxm"
        in_axis, out_axis = ("row", "col") if orient == "vxm" else ("col", "row")
        ins, outs = (rows, cols) if orient == "vxm" else (cols, rows)
        # the expand of the frontier (its delegates' bits travel apart)
        x = frontier if heavy is None else frontier & light
        counts = np.bincount(vertex_piece[x], minlength=P)
        _gather(grid, in_axis, message_sizes(counts, grid.lengths, _X_ITEM), got)
        # a pull gathers the mask over its output segment
        if direction == "pull" and not grid.segment_local(out_axis):
            if visited.sum() * 64 < n:
                seen_sizes = message_sizes(seen_count, grid.lengths, _X_ITEM, force="sparse")
            else:
                seen_sizes = (grid.lengths + 7) // 8
            _gather(grid, out_axis, seen_sizes, got)
        # the local kernel: the block entries read, and the outputs it makes
        hit = x[ins]
        if direction == "push":
            edges = np.bincount(entry_rank[hit], minlength=P)
            made = hit if not grid.segment_local(out_axis) else hit & ~visited[outs]
        else:
            allowed = ~visited[outs]
            read = allowed if heavy is None else allowed & light[ins]
            edges = np.bincount(entry_rank[read], minlength=P)
            made = hit & allowed
        if heavy is not None:
            # the delegates' edges, read where their other end is owned; what they reach is
            # in the owner's piece already, and the frontier's delegates are one bitmap
            near = heavy[ins] & (frontier[ins] if direction == "push" else ~visited[outs])
            edges = edges + np.bincount(vertex_piece[outs[near]], minlength=P)
            if P > 1 and heavy.any():
                # carried by the level's write step (the lanes that agree its nvals), so a
                # call of no cost of its own: recursive doubling, log2 P exchanges of it
                got.add("world", "delegates",
                        (int(heavy.sum()) + 7) // 8 * math.ceil(math.log2(P)))
        pairs = np.unique(entry_rank[made] * n + outs[made])
        made_rank, made_out = pairs // n, pairs % n
        sent = _segment_counts(grid, out_axis, made_rank, vertex_piece[made_out])
        merged = np.bincount(vertex_piece[np.unique(made_out)], minlength=P)
        _fold(grid, out_axis, sent, merged, _OUT_ITEM, got)
        out.append({"level": k, "direction": direction, "read_as": orient,
                    "frontier_nvals": int(frontier.sum()), "push_edges": push_work,
                    "pull_edges": pull_work, "bytes": got.bytes, "calls": got.calls,
                    "edges": edges})
        if not (levels == k + 1).any():
            break
    return BFSCounts(shape, out)


def delegates(n, rows, P, factor=1):
    """The vertices a heavy-vertex delegation would replicate on P ranks: those of degree at
    least ``factor`` x P (Pearce et al.'s rule at ``factor`` 1: a delegate has an edge for
    every rank to hold), as a bool array over the vertices."""
    return np.bincount(rows, minlength=n) >= factor * P


def _degree_fold(grid, n, index, entry_rank, axis, got):
    """The fold of the degrees by ``index`` (rows or columns) along ``axis``: each rank sends
    the nonzero counts of its block's rows (columns) to the pieces of its segment."""
    if grid.segment_local(axis):
        return
    distinct = np.unique(entry_rank * n + index)
    owner, vertex = distinct // n, distinct % n
    sent = _segment_counts(grid, axis, owner, grid.layout.owner(n, vertex))
    merged = np.bincount(grid.layout.owner(n, np.unique(vertex)), minlength=grid.P)
    _fold(grid, axis, sent, merged, _DEGREE_ITEM, got)
