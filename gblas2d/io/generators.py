"""Seeded graph generators whose graph does not depend on the number of ranks.

An edge list of m edges is cut into chunks of ``CHUNK`` edges; chunk k is drawn from its own
stream ``np.random.default_rng([seed, k])``, so it is the same whoever draws it. Part p of
``nparts`` draws the contiguous run of chunks ``[p * K // nparts, (p + 1) * K // nparts)`` of the
K chunks, and the parts concatenated in order are the one-part edge list, edge for edge. A
distributed build has rank r draw part r of P and send the edges to their owners, so the matrix
is the same at any rank count, and no rank ever holds the whole list.

Vertex labels are scrambled by one permutation drawn from ``[seed, 2**31]`` (a key no chunk
uses), the same on every part. It is materialized: 8 bytes per vertex per rank, 128 MiB at
scale 24.
"""

import numpy as np

from ..distributed.grid import collective, default_grid
from ..semirings import binary
from ..surface.matrix import Matrix

__all__ = ["CHUNK", "erdos_renyi", "erdos_renyi_edges", "grid_graph", "rmat", "rmat_edges",
           "vertex_permutation"]

CHUNK = 1 << 16
# Edges sent to their owners at once by a distributed build: big enough that a round's
# exchange costs little beside its work, small beside a rank's share of a large graph.
BATCH = 1 << 20
_PERM_KEY = 1 << 31
_ER_KEY = (1 << 31) + 1
_GRID_KEY = (1 << 31) + 2


def _chunk_range(nedges, part, nparts):
    """(first chunk, end chunk) of ``part``'s share; checks ``part`` and ``nparts``."""
    if nparts < 1 or not 0 <= part < nparts:
        raise ValueError(f"part (={part}) must lie in [0, nparts) with nparts (={nparts}) >= 1")
    nchunks = -(-nedges // CHUNK)
    return part * nchunks // nparts, (part + 1) * nchunks // nparts


def _chunk_size(nedges, k):
    return min(CHUNK, nedges - k * CHUNK)


def _check_seed(seed):
    if int(seed) != seed or seed < 0:
        raise ValueError(f"seed (={seed}) must be a non-negative integer")
    return int(seed)


def vertex_permutation(scale, seed=0):
    """The label scramble of ``rmat_edges``: a permutation of ``0 .. 2**scale - 1``.

    Drawn from ``np.random.default_rng([seed, 2**31])`` only, so every part and every rank
    computes the same one without communicating.

    Examples
    --------
    >>> sorted(vertex_permutation(3, seed=1)) == list(range(8))
    True
    """
    seed = _check_seed(seed)
    return np.random.default_rng([seed, _PERM_KEY]).permutation(1 << int(scale))


def _kronecker_chunk(rng, count, scale, a, b, c):
    """Unscrambled (src, dst) of one chunk: one bit of each endpoint per Kronecker level."""
    ab = a + b
    # P(dst bit = 1 | src bit) = c / (c + d) when the src bit is 1, b / (a + b) when it is 0
    c_norm = c / (1.0 - ab) if ab < 1.0 else 0.0
    a_norm = a / ab if ab > 0.0 else 0.0
    # src bit = 1 with probability c + d = 1 - (a + b), at every level at once
    src_bits = rng.random((scale, count)) > ab
    dst_bits = rng.random((scale, count)) > np.where(src_bits, c_norm, a_norm)
    weights = (np.int64(1) << np.arange(scale, dtype=np.int64))[:, None]
    return (src_bits * weights).sum(axis=0), (dst_bits * weights).sum(axis=0)


def _chunks(nedges, part, nparts, with_weights, draw):
    """``part``'s chunks, in order, each (src, dst, weights or None); ``draw(k, count)`` gives
    chunk k's (rng, src, dst), and weights are drawn from the same rng after the endpoints, so
    (src, dst) do not depend on whether weights are asked for."""
    first, end = _chunk_range(nedges, part, nparts)
    for k in range(first, end):
        count = _chunk_size(nedges, k)
        rng, src, dst = draw(k, count)
        yield src, dst, rng.random(count) if with_weights else None


def _concatenated(chunks):
    """One (src, dst, weights or None) of a part's chunks."""
    chunks = list(chunks)
    if not chunks:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), None
    return _join(chunks)


def _rmat_chunks(scale, edge_factor, a, b, c, seed, part, nparts, with_weights):
    """``part``'s chunks (src, dst, weights or None), labels unscrambled."""
    nedges = int(edge_factor) << int(scale)

    def draw(k, count):
        rng = np.random.default_rng([seed, k])
        return (rng, *_kronecker_chunk(rng, count, scale, a, b, c))

    return _chunks(nedges, part, nparts, with_weights, draw)


def _check_rmat(scale, edge_factor, a, b, c):
    if int(scale) != scale or scale < 0:
        raise ValueError(f"scale (={scale}) must be a non-negative integer")
    if int(edge_factor) != edge_factor or edge_factor < 0:
        raise ValueError(f"edge_factor (={edge_factor}) must be a non-negative integer")
    d = 1.0 - a - b - c
    if min(a, b, c) < 0 or d < -1e-12:
        raise ValueError(f"a, b, c (={a}, {b}, {c}) must be >= 0 with a + b + c <= 1")


def rmat_edges(scale, edge_factor=16, *, a=0.57, b=0.19, c=0.19, seed=0, part=0, nparts=1):
    """This part's share of the Graph 500 Kronecker (R-MAT) edge list.

    The graph has ``n = 2**scale`` vertices and ``m = edge_factor * n`` directed edges. Each
    edge picks one quadrant of the adjacency matrix per level l = 0 .. scale-1, independently:
    top-left with probability ``a``, top-right ``b``, bottom-left ``c``, bottom-right
    ``d = 1 - a - b - c``; level l sets bit l of the source (bottom = 1) and of the
    destination (right = 1). Drawn as in the Graph 500 reference code: the source bit is 1
    when ``u > a + b``, then the destination bit is 1 when ``v > c / (c + d)`` (source bit 1)
    or ``v > a / (a + b)`` (source bit 0), for uniform ``u, v``. Labels are then scrambled by
    ``vertex_permutation(scale, seed)``. Self-loops and repeated edges are kept (the list is
    the generator's raw output); ``rmat`` removes and combines them.

    Parameters
    ----------
    scale : int
        log2 of the number of vertices.
    edge_factor : int, default 16
        Edges per vertex.
    a, b, c : float
        Quadrant probabilities (Graph 500: 0.57, 0.19, 0.19; d = 0.05).
    seed : int, default 0
        Non-negative; chunk k of ``CHUNK`` edges is drawn from ``default_rng([seed, k])``.
    part, nparts : int
        Which contiguous run of chunks to draw. The parts ``0 .. nparts-1`` concatenated in
        order are the ``nparts=1`` list, for any ``nparts``.

    Returns
    -------
    src, dst : int64 numpy arrays
        Scrambled endpoints, in ``[0, 2**scale)``.

    References
    ----------
    Graph 500 Steering Committee, "Graph 500 Benchmark Specification", v3.0 (2019), section 3
    (Kronecker generator). D. Chakrabarti, Y. Zhan, C. Faloutsos, "R-MAT: A recursive model for
    graph mining", SIAM International Conference on Data Mining, 2004.

    Examples
    --------
    >>> src, dst = rmat_edges(4, 2, seed=7)
    >>> len(src), int(max(src.max(), dst.max())) < 16
    (32, True)
    """
    _check_rmat(scale, edge_factor, a, b, c)
    seed = _check_seed(seed)
    src, dst, _ = _concatenated(_rmat_chunks(int(scale), edge_factor, a, b, c, seed, part,
                                             nparts, False))
    perm = vertex_permutation(scale, seed)
    return perm[src], perm[dst]


def erdos_renyi_edges(n, nedges, *, seed=0, part=0, nparts=1):
    """This part's share of ``nedges`` directed edges with endpoints uniform on ``0 .. n-1``.

    G(n, m) sampled with replacement: each edge picks its source and destination independently
    and uniformly, so self-loops and repeats occur (about ``m**2 / (2 n**2)`` repeats).
    Chunk k of ``CHUNK`` edges is drawn from ``default_rng([seed, 2**31 + 1, k])``; the parts
    concatenated in order are the ``nparts=1`` list.

    References
    ----------
    P. Erdos, A. Renyi, "On random graphs I", Publicationes Mathematicae 6 (1959), 290-297.

    Examples
    --------
    >>> src, dst = erdos_renyi_edges(10, 25, seed=3)
    >>> len(src), int(dst.max()) < 10
    (25, True)
    """
    return _concatenated(_er_chunks(n, nedges, _check_seed(seed), part, nparts, False))[:2]


def _er_chunks(n, nedges, seed, part, nparts, with_weights):
    if int(n) != n or n < 1 or int(nedges) != nedges or nedges < 0:
        raise ValueError(f"n (={n}) must be >= 1 and nedges (={nedges}) >= 0, both integers")
    n, nedges = int(n), int(nedges)

    def draw(k, count):
        rng = np.random.default_rng([seed, _ER_KEY, k])
        return (rng, rng.integers(0, n, count, dtype=np.int64),
                rng.integers(0, n, count, dtype=np.int64))

    return _chunks(nedges, part, nparts, with_weights, draw)


def _build(n, chunks, symmetric, weighted, dtype, grid, name):
    """Collective. The Matrix of a part's edge chunks: self-loops dropped, reversed edges added
    if asked, repeats combined by min.

    The edges travel to their owners a batch of ``BATCH`` at a time
    (``Matrix.from_coo_chunks``), so a rank holds one batch of its edges and its block's
    keys, never its whole share of the edge list."""

    def batches():
        for src, dst, w in _batched(chunks):
            keep = src != dst
            src, dst = src[keep], dst[keep]
            w = w[keep] if weighted else None
            if symmetric:
                src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
                # Each edge and its reverse carry the same weight and meet the same repeats.
                w = np.concatenate([w, w]) if weighted else None
            yield (src, dst, w) if weighted else (src, dst)

    # Unweighted: one value stands for every entry, so no array of ones is held.
    A = Matrix.from_coo_chunks(batches(), nrows=n, ncols=n, value=None if weighted else 1.0,
                               dtype=dtype, dup_op=binary.min, name=name, grid=grid)
    if symmetric:
        A.mark_symmetric()
    return A


def _batched(chunks):
    """The chunks joined into batches of about ``BATCH`` edges."""
    batch, size = [], 0
    for chunk in chunks:
        batch.append(chunk)
        size += len(chunk[0])
        if size >= BATCH:
            yield _join(batch)
            batch, size = [], 0
    if batch:
        yield _join(batch)


def _join(batch):
    src, dst, w = zip(*batch, strict=True)
    return np.concatenate(src), np.concatenate(dst), \
        None if w[0] is None else np.concatenate(w)


def _check_weights(weights):
    if weights not in (None, "uniform"):
        raise ValueError(f"weights must be None or 'uniform', got {weights!r}")
    return weights == "uniform"


@collective
def rmat(scale, edge_factor=16, *, a=0.57, b=0.19, c=0.19, seed=0, symmetric=False,
         weights=None, dtype="FP64", name=None, grid=None):
    """Collective. The Graph 500 Kronecker graph as an n x n adjacency Matrix, n = 2**scale.

    Rank r draws part r of P of ``rmat_edges(scale, edge_factor, seed=seed)`` and the edges
    travel to their owners, so the matrix is the same for any P and grid shape. Graph 500
    semantics: self-loops are dropped and repeated edges become one entry, so ``nvals`` is
    somewhat below ``edge_factor * n`` (twice that when ``symmetric``). ``A[i, j]`` is present
    when some edge i -> j was drawn (or j -> i, when ``symmetric``).

    Parameters
    ----------
    scale, edge_factor, a, b, c, seed
        As in ``rmat_edges``.
    symmetric : bool, default False
        Add every edge reversed (the undirected graph of Graph 500 BFS and SSSP).
    weights : None or "uniform"
        None: every entry is 1. "uniform": each drawn edge gets a weight uniform on [0, 1)
        (Graph 500 SSSP), drawn from its chunk's stream after the endpoints; repeats keep the
        smallest weight (min is order-free, so the result does not depend on P), and with
        ``symmetric`` the two directions share it.
    dtype : dtype-like, default "FP64"
    name : str, optional
    grid : Grid, optional (the default grid)

    Examples
    --------
    >>> A = rmat(6, 4, seed=1)
    >>> A.shape, 0 < A.nvals <= 4 * 64
    ((64, 64), True)
    """
    _check_rmat(scale, edge_factor, a, b, c)
    seed = _check_seed(seed)
    with_weights = _check_weights(weights)
    grid = grid or default_grid()
    perm = vertex_permutation(scale, seed)
    chunks = ((perm[src], perm[dst], w) for src, dst, w in _rmat_chunks(
        int(scale), edge_factor, a, b, c, seed, grid.rank, grid.nprocs, with_weights))
    return _build(1 << int(scale), chunks, symmetric, with_weights, dtype, grid, name)


@collective
def erdos_renyi(n, nedges, *, seed=0, symmetric=False, weights=None, dtype="FP64", name=None,
                grid=None):
    """Collective. The G(n, m) random graph of ``erdos_renyi_edges`` as an n x n Matrix.

    Rank r draws part r of P; self-loops are dropped and repeats combined exactly as in
    ``rmat`` (``weights="uniform"`` draws a weight per edge after its endpoints, repeats keep
    the smallest), so the matrix is the same for any P.

    Examples
    --------
    >>> A = erdos_renyi(50, 200, seed=2, symmetric=True)
    >>> A.shape, A.nvals <= 400
    ((50, 50), True)
    """
    with_weights = _check_weights(weights)
    grid = grid or default_grid()
    chunks = _er_chunks(n, nedges, _check_seed(seed), grid.rank, grid.nprocs, with_weights)
    return _build(int(n), chunks, symmetric, with_weights, dtype, grid, name)


def _mesh_edges(e, nrows, ncols, diagonal):
    """Endpoints (src < dst) of mesh edges numbered ``e``: first the right edges (r, c)-(r, c+1)
    row by row, then the down edges (r, c)-(r+1, c), then with ``diagonal`` the down-right
    (r, c)-(r+1, c+1) and the down-left (r, c)-(r+1, c-1) ones; vertex (r, c) is r*ncols + c."""
    counts = _mesh_counts(nrows, ncols, diagonal)
    starts = np.concatenate([[0], np.cumsum(counts)])
    kind = np.searchsorted(starts, e, side="right") - 1
    t = e - starts[kind]
    # edges of one kind are laid out row by row, this many to a row
    per_row = np.array([ncols - 1, ncols, ncols - 1, ncols - 1])[kind]
    r, c = np.divmod(t, np.maximum(per_row, 1))
    # down-left edges start from column 1
    c = c + (kind == 3)
    src = r * ncols + c
    return src, src + np.array([1, ncols, ncols + 1, ncols - 1])[kind]


def _mesh_counts(nrows, ncols, diagonal):
    counts = [nrows * max(ncols - 1, 0), max(nrows - 1, 0) * ncols]
    if diagonal:
        counts += [max(nrows - 1, 0) * max(ncols - 1, 0)] * 2
    return counts


def _grid_chunks(nrows, ncols, diagonal, seed, part, nparts, with_weights):
    """(src, dst, weights or None) of ``part``'s chunks of the mesh's edge list; chunk k's
    weights come from ``default_rng([seed, 2**31 + 2, k])``."""
    nedges = sum(_mesh_counts(nrows, ncols, diagonal))

    def draw(k, count):
        rng = np.random.default_rng([seed, _GRID_KEY, k])
        e = np.arange(k * CHUNK, k * CHUNK + count, dtype=np.int64)
        return (rng, *_mesh_edges(e, nrows, ncols, diagonal))

    return _chunks(nedges, part, nparts, with_weights, draw)


@collective
def grid_graph(nrows, ncols, *, diagonal=False, weights=None, seed=0, dtype="FP64", name=None,
               grid=None):
    """Collective. The nrows x ncols mesh (a road-like planar graph) as a symmetric adjacency
    Matrix of ``nrows * ncols`` vertices.

    Vertex ``r * ncols + c`` is joined to its right neighbour ``(r, c+1)`` and the one below,
    ``(r+1, c)``, in both directions; with ``diagonal`` also to ``(r+1, c+1)`` and
    ``(r+1, c-1)`` (the king's graph). The undirected edges are numbered (right edges row by
    row, then down, then the diagonals) and cut into chunks of ``CHUNK``; rank r builds part r
    of P of them, as ``rmat`` does, so the matrix is the same for any P.

    Parameters
    ----------
    nrows, ncols : int
        Mesh dimensions (non-negative).
    diagonal : bool, default False
        Add the two diagonal neighbours (8-neighbour mesh).
    weights : None or "uniform"
        None: every entry is 1. "uniform": each undirected edge gets a weight uniform on
        [0, 1) from its chunk's stream ``default_rng([seed, 2**31 + 2, k])``, shared by its two
        directions.
    seed : int, default 0
    dtype : dtype-like, default "FP64"
    name : str, optional
    grid : Grid, optional (the default grid)

    Examples
    --------
    >>> A = grid_graph(3, 4)
    >>> A.shape, A.nvals == 2 * (3 * 3 + 2 * 4)
    ((12, 12), True)
    """
    for what, value in (("nrows", nrows), ("ncols", ncols)):
        if int(value) != value or value < 0:
            raise ValueError(f"{what} (={value}) must be a non-negative integer")
    nrows, ncols = int(nrows), int(ncols)
    seed = _check_seed(seed)
    with_weights = _check_weights(weights)
    grid = grid or default_grid()
    chunks = _grid_chunks(nrows, ncols, bool(diagonal), seed, grid.rank, grid.nprocs,
                          with_weights)
    return _build(nrows * ncols, chunks, True, with_weights, dtype, grid, name)
