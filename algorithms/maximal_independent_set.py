"""A maximal independent set by Luby's algorithm, with randomness every rank count agrees on.

An independent set has no edge inside it; a maximal one cannot grow (every vertex outside has
a neighbour inside). Each round, every candidate draws a random key, and a candidate whose key
beats those of all its candidate neighbours joins the set; it and its neighbours stop being
candidates. With S the pattern of A + A^T without self loops::

    c = every vertex not in (or next to) ``include``;  iset = include
    repeat until c is empty (round r = 0, 1, ...):
        key<c> = hash(seed, i, r) * B + i         B = 2^ceil(log2 n): distinct keys
        m<c> = -1;  m<c> max= S max.second key    the largest key among candidate neighbours
        w = key > m                               local maxima join ...
        iset<w> = true
        c<!(w or S any.pair w)>                   ... and they and their neighbours leave

The candidate with the largest key always wins, so every round removes one vertex at least;
O(log n) rounds are expected. The keys are no replicated permutation: ``hash(seed, i, r)`` is
the top 31 bits of the engine's counter-based random value of vertex i under a round seed,
itself the random value of (seed, r) (``engine(A).random``, ``gblas2d.semirings.random``).
Each rank hashes only the vertices it owns, and the set depends on the seed alone, not on the
number of ranks or the engine. Self loops are ignored (a vertex is not its own neighbour) and
edge directions too.

References: M. Luby, "A simple parallel algorithm for the maximal independent set problem",
SIAM J. Comput. 15(4), 1986; LAGraph's LAGraph_MaximalIndependentSet (experimental).

Cost per round: one masked mxv on the candidates' keys and one on the winners (O(edges of
the candidates) work, O(n/R + n/C) words per rank for dense vectors), and O(n/P) element-wise
work for the keys (a few local passes, no communication).
"""

from gblas2d.semirings.random import hash64

from gblas2d import exceptions

from ._engine import check_count, engine
from .graph import as_graph

__all__ = ["maximal_independent_set"]

MAX_VERTICES = 2**32


def maximal_independent_set(A, seed=0, *, include=None):
    """A maximal independent set of the undirected graph of ``A`` (edge directions and self
    loops ignored), the same for a seed at any rank count and on either engine.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square adjacency matrix; only its off-diagonal pattern is used.
    seed : int
        Non-negative; the random keys are a hash of (seed, vertex, round).
    include : Vector, optional
        Vertices (its pattern) that must be in the set. They must be independent, self loops
        counting as edges here; otherwise InvalidValue.

    Returns
    -------
    Vector (BOOL), true at the members of the set and without entries elsewhere.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], 1, nrows=4, ncols=4)
    >>> iset = maximal_independent_set(A, include=gb.Vector.from_coo([1], True, size=4))
    >>> iset.to_coo()[0]
    array([1, 3], dtype=uint64)
    """
    G = as_graph(A, "maximal_independent_set")
    A, ns = G.A, engine(G.A)
    seed = check_count(seed, "seed", 0, "a non-negative integer")
    n, boolean, int64 = A.nrows, ns.dtypes.BOOL, ns.dtypes.INT64
    if n > MAX_VERTICES:
        raise exceptions.InvalidValue(f"maximal_independent_set packs (hash, vertex) into INT64 "
                                      f"keys and supports up to 2**32 vertices, got "
                                      f"Matrix.nrows (={n})")
    if include is not None and include.size != n:
        raise exceptions.DimensionMismatch(
            f"include.size (={include.size}) must equal Matrix.nrows (={n})")
    # U = pattern(A + A^T), S = U without self loops
    U = A.ewise_add(G.AT, ns.binary.any).new(boolean)
    S = U.select(ns.select.offdiag).new()
    iset = ns.Vector(boolean, n)
    c = ns.Vector.from_scalar(True, n, boolean)
    if include is not None:
        iset(include.S) << True
        if U.mxv(iset, ns.semiring.any_pair[boolean]).new(mask=iset.S).nvals:
            raise exceptions.InvalidValue("include is not an independent set: an edge (or a "
                                          "self loop) joins two of its vertices")
        # c<!(include or S any.pair include)>
        c = _without(ns, S, c, iset)
    spacing = 1 << max(n - 1, 0).bit_length()
    r = 0
    while c.nvals:
        key = _keys(ns, c, seed, r, spacing)
        # m<c> = -1, m<c> max= S max.second key
        m = ns.Vector(int64, n)
        m(c.S) << -1
        m(c.S, accum=ns.binary.max) << S.mxv(key, ns.semiring.max_second[int64])
        # w = key > m
        w = key.ewise_mult(m, ns.binary.gt).new().select(ns.select.valueeq, True).new()
        iset(w.S) << True
        c = _without(ns, S, c, w)
        r += 1
    return iset


def _without(ns, S, c, w):
    """The candidates ``c`` less ``w`` and its neighbours: ``c<!(w or S any.pair w)>``."""
    gone = S.mxv(w, ns.semiring.any_pair[ns.dtypes.BOOL]).new(mask=c.S)
    gone(accum=ns.binary.any) << w
    return c.dup(mask=~gone.S)


def _keys(ns, c, seed, r, spacing):
    """``hash(seed, i, r) * spacing + i`` at the entries of ``c``, element-wise (no
    communication); ``hash`` is below 2^31, so every key fits INT64."""
    # u = uniform random values at the candidates, under the round's seed hash64(seed, r, 0)
    u = ns.random(c, int(hash64(seed, r, 0)))
    # x = floor(u * 2^31), exact: u is a multiple of 2^-53 and the cast truncates
    x = u.apply(ns.binary.times, right=2.0**31).new(ns.dtypes.INT64)
    # key = x * spacing + i
    i = c.apply(ns.indexunary.rowindex, 0).new(ns.dtypes.INT64)
    return x.apply(ns.binary.times, right=spacing).new().ewise_mult(i, ns.binary.plus).new()
