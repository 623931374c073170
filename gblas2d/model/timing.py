"""Time from the counts: a BFS level costs its local work plus, for each collective, a latency
per message step and the bytes the busiest rank receives over a link.

    level time = overhead + max over ranks (kernel call + edges / rate)
                 + sum over collectives (software + alpha * steps + max received / beta)

* ``Local`` is measured at one process from the engine's own run of the same BFS
  (``gb.trace()``): per level the product's seconds and the work behind its choice give a rate
  (edges a second, push or pull, for the backend in use), the smallest product its fixed cost,
  and what the BFS spends outside its products a per-level overhead, whose part beyond what a
  small graph (R-MAT 10) costs is the writes over the pieces, shared by the P ranks. A rank of
  P gets the level's rate on its own block's edges.
* ``Network`` is a named interconnect (``INTERCONNECTS``: alpha, the latency of one message
  step; beta, the bytes a second of one link) plus the engine's own software costs, measured
  on this machine: per collective (``measure_software``: the Python, the header and the MPI
  call of a group collective of a few bytes) and per byte (``measure_link``: encoding, copies
  and decoding as the engine moves a dense piece). On this machine's shared memory the
  measured bytes a second are the link.

Message steps per collective: an allgatherv or a header in a group of g ranks, ceil(log2 g)
(recursive doubling); an alltoallv, g - 1 (pairwise); a sendrecv, 1; a world step, an
allreduce of 64 bytes, 2 ceil(log2 P); besides its product, a level makes two world steps (the
writes of the frontier and of the visited set). Each group collective opens with its header (the
failure flag and the counts: 8 (1 + max(g, 4)) bytes from each member), which ``gb.stats()``
does not count as bytes but which takes time. All of it is a projection for any grid this
machine cannot run.
"""

import math
import time
from dataclasses import dataclass

import numpy as np

__all__ = ["INTERCONNECTS", "Local", "Network", "measure_kernels", "measure_link",
           "measure_local", "measure_software", "predict"]


@dataclass(frozen=True)
class Network:
    name: str
    alpha: float      # seconds per message step
    beta: float       # bytes a second per link
    software: float   # the engine's own seconds per collective call (measured)
    # the engine's own bytes a second (encoding, copies, decoding; measured), where the
    # link's figure is the wire's alone
    software_beta: float = math.inf


# Latency and bandwidth of one link, per direction.
INTERCONNECTS = {
    "hdr-infiniband": (1.5e-6, 12.5e9),
    # a GPU pair over NVLink 4 (H100: 18 links of 25 GB/s each way); the latency of a small
    # message between two GPUs' memories
    "nvlink-4": (2.0e-6, 450e9),
}


@dataclass(frozen=True)
class Local:
    """One process's costs (``measure_local``)."""

    products: tuple       # seconds of each level's product
    work: tuple           # the block edges each level's product read
    kernel_call: float    # seconds of the smallest product: its fixed cost
    overhead: float       # seconds per level outside the product (writes, nvals, Python)
    fixed: float          # the part of ``overhead`` that a small graph costs too
    measured: float       # the BFS's seconds at one process

    @property
    def rates(self):
        """Edges a second of each level's product, beyond its fixed cost (None without
        edges)."""
        return tuple(w / max(t - self.kernel_call, 1e-9) if w else None
                     for w, t in zip(self.work, self.products, strict=True))

    def kernel_at(self, level, edges):
        """Seconds of level ``level``'s product on a rank that reads ``edges`` block edges:
        its fixed cost and the level's rate on those edges."""
        extra = self.products[level] - self.kernel_call
        return self.kernel_call + (extra * edges / self.work[level] if self.work[level]
                                   else extra)

    def overhead_at(self, P):
        """The per-level overhead on one rank of P: its fixed part, and the rest (the writes
        over a rank's pieces) shared by the P ranks."""
        fixed = min(self.fixed, self.overhead)
        return fixed + (self.overhead - fixed) / P


def _timed_bfs(A, source, repeats):
    """(seconds, trace) of the fastest of ``repeats`` BFS runs."""
    import gblas2d as gb
    from gblas2d import algorithms

    best = None
    for _ in range(repeats):
        with gb.trace() as events:
            start = time.perf_counter()
            algorithms.bfs_levels(A, source)
            seconds = time.perf_counter() - start
        if best is None or seconds < best[0]:
            best = (seconds, events)
    return best


def _overhead(seconds, events):
    return (seconds - sum(e["seconds"] for e in events)) / len(events)


def measure_local(A, source, one, *, repeats=3):
    """One process. Run the BFS (best of ``repeats``) with its trace; ``one`` is the model's
    ``BFSCounts`` at 1 x 1, whose edges per level are the rates' work. A BFS on R-MAT 10 gives
    the fixed part of the per-level overhead."""
    from gblas2d import generators

    small = generators.rmat(10, 16, seed=1, symmetric=True)
    fixed = _overhead(*_timed_bfs(small, 0, repeats))
    seconds, events = _timed_bfs(A, source, repeats)
    products = tuple(float(e["seconds"]) for e in events)
    work = tuple(int(level["edges"][0]) for level in one.levels)
    return Local(products, work, min(products), float(_overhead(seconds, events)),
                 float(fixed), float(seconds))


def measure_kernels(n, rows, cols, levels, counts, *, symmetric, repeats=3):
    """One process. The seconds of every virtual rank's local product at every level of
    ``counts`` (a ``BFSCounts``): each rank's block built by the engine's storage rule, its
    frontier segment and its mask as the product hands them to the kernel plan
    (``products._mxv``), timed in the backend in use (best of ``repeats``). Returns an array
    (ranks, levels): the kernels' own time, which depends on the block's shape and reading as
    well as on its edges."""
    from ..distributed.grid import Layout
    from ..local import backends
    from ..local.block import Block
    from ..local.keys import locate
    from ..local.piece import Piece, PieceMask
    from ..semirings import semiring

    R, C = counts.shape
    P = R * C
    layout = Layout(counts.shape, 0)
    owner = layout.entry_owner(n, n, rows, cols)
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(P + 1))
    out = np.zeros((P, len(counts.levels)))
    for rank in range(P):
        at = Layout(counts.shape, rank)
        (r0, r1), (c0, c1) = at.row_block(n), at.col_block(n)
        mine = order[bounds[rank]:bounds[rank + 1]]
        keys = np.sort((rows[mine] - r0) * (c1 - c0) + (cols[mine] - c0))
        block = Block.from_keys(r1 - r0, c1 - c0, keys,
                                np.broadcast_to(np.array(True), keys.shape))
        block.symmetric = symmetric and P == 1
        backends.adopt(block)
        for k, level in enumerate(counts.levels):
            frontier, visited = levels == k, (levels >= 0) & (levels <= k)
            mxv = level["read_as"] == "mxv"
            (i0, i1), (o0, o1) = ((c0, c1), (r0, r1)) if mxv else ((r0, r1), (c0, c1))
            x_idx = np.flatnonzero(frontier[i0:i1])
            x = Piece.from_entries(i1 - i0, x_idx, np.ones(len(x_idx), dtype=bool),
                                   operand=True)
            if (R if mxv else C) == 1 and level["direction"] == "push":
                # a local segment is pushed from as a list below 1/16 (``products._mxv``)
                x = x.compact()
            out_local = (C if mxv else R) == 1
            allowed = None
            if out_local or level["direction"] == "pull":
                seen = np.flatnonzero(visited[o0:o1])
                allowed = PieceMask(Piece.from_entries(o1 - o0, seen,
                                                       np.ones(len(seen), dtype=bool)),
                                    True, True)
            ids, ptr = block.pointers("cols" if mxv else "rows")
            slots = locate(ids, x_idx)[0]
            push = int((ptr[slots + 1] - ptr[slots]).sum()) if len(slots) else 0
            kwargs = dict(push_edges=push, orient=level["read_as"], x_first=True,
                          direction=level["direction"], allowed=allowed, out_offset=o0,
                          in_offset=i0, out_dtype=np.dtype(np.int64))
            best = math.inf
            for _ in range(repeats):
                start = time.perf_counter()
                backends.run("spmv", block, x, semiring.any_pair, **kwargs)
                best = min(best, time.perf_counter() - start)
            out[rank, k] = best
    return out


def measure_link(grid, *, length=1 << 19, repeats=5):
    """Collective. Bytes a second into a rank of ``grid``'s row group (or column group on a
    one-column grid), as the engine moves them: a gather of a dense INT64 piece of ``length``
    positions from each member (encoded, sent, decoded; ``exchange.gather_segment``), less one
    of an empty piece."""
    from ..distributed.exchange import gather_segment, message_sizes

    axis = "row" if grid.ncols > 1 else "col"
    g = grid.ncols if axis == "row" else grid.nrows
    n = length * grid.nprocs
    full = np.arange(length, dtype=np.int64)

    def best(idx):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            gather_segment(grid, n, idx, idx, np.dtype(np.int64), axis)
            times.append(time.perf_counter() - start)
        return min(times)

    nbytes = int(message_sizes([length], [length], 8)[0]) - 16
    return (g - 1) * nbytes / max(best(full) - best(full[:0]), 1e-9)


def measure_software(grid, *, repeats=200):
    """Collective. The engine's seconds per group collective of a few bytes on ``grid``
    (its row group, or the world's step on a one-column grid): the floor of every call."""
    group = grid.row_comm if grid.ncols > 1 else grid.col_comm
    payload = np.zeros(16, dtype=np.uint8)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        group.allgatherv(payload)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def _steps(op, g, P):
    if op == "allreduce":
        return 2 * math.ceil(math.log2(P)) if P > 1 else 0
    if op == "sendrecv":
        return 1
    if op == "alltoallv":
        return g - 1
    return math.ceil(math.log2(g)) if g > 1 else 0


def predict(counts, local, network, kernels=None, one=None, *, volume=1):
    """Per level (compute seconds, communication seconds), and the total, for the ``BFSCounts``
    ``counts`` with ``local`` costs over ``network``. ``kernels`` (ranks x levels seconds,
    ``measure_kernels``) replace the one-process rates where given; ``one`` are the kernels
    at 1 x 1, whose difference from the one-process products is the product's own work
    around its kernel (the plan, the pieces it builds), charged to every rank as it is.
    ``volume``: the counts are ``BFSCounts.scaled(volume)`` of ``local``'s graph, whose
    pieces (the overhead's writes) are then ``volume`` times as long."""
    R, C = counts.shape
    P = R * C
    size = {"row": C, "col": R, "transpose": 2, "world": P}
    levels = []
    for k, level in enumerate(counts.levels):
        if kernels is None:
            kernel = local.kernel_at(k, level["edges"].max())
        else:
            kernel = kernels[:, k].max() + max(local.products[k] - one[0, k], 0.0)
        compute = local.overhead_at(P / volume) + kernel
        comm = 0.0
        for call in level["calls"]:
            g = size[call["group"]]
            if call["op"] == "delegates":
                # bytes riding in a write's world step, charged below
                comm += call["received"].max() * (1 / network.beta + 1 / network.software_beta)
                continue
            seconds = network.software + network.alpha * _steps(call["op"], g, P) + \
                call["received"].max() * (1 / network.beta + 1 / network.software_beta)
            if call["group"] in ("row", "col"):
                header = 8 * (1 + max(g, 4)) * (g - 1)
                seconds += network.alpha * _steps("allgatherv", g, P) + header / network.beta
            comm += seconds
        if P > 1:
            # the level's two writes (the product's output, the visited set) each end with
            # a world step that agrees on the new nvals
            comm += 2 * (network.software + network.alpha * _steps("allreduce", P, P))
        levels.append((compute, comm))
    return levels, sum(a + b for a, b in levels)
