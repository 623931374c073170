"""The algorithms of ``gblas2d run``: which options each reads, how it is called, summed up in
one line and in figures for ``--json``, turned into the Vector ``--output`` writes, and checked
against an independent reference on small graphs.

``pointer_jumping`` is not here: it takes a parent Vector, not a graph (``connected_components
--method fastsv`` runs it). References run on every rank, on a SciPy copy of the graph.
"""

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .. import Matrix, Vector, binary, io, monoid, select, unary
from ..exceptions import InvalidValue
from .relabel import restore

CHECK_LIMIT = 1 << 17


class Spec(NamedTuple):
    """How ``gblas2d run`` drives one algorithm. Collective: call, summary, vector, check."""

    call: Callable                  # (A, source, args) -> the algorithm's result
    summary: Callable               # (A, result, vector, names) -> (figures, one line);
                                    # names(vertices) -> how to print them (Graphalytics ids)
    check: Callable                 # (A, source, result, vector, args) -> (ok, what was compared);
                                    # None for user code, which refuses --check
    source: str = ""                # "default": --source or the vertex of largest degree;
                                    # "optional": --source or none; "": not read
    weighted: object = False        # True, False, or "probability" (with --probability weight)
    methods: tuple = ()             # the choices of --method, the default first
    options: tuple = ()             # the other options of OPTIONS that it reads
    only_with: tuple = ()           # (option, when, applies(args)): an option read only when
    restore: Callable = None        # (result, perm) -> result in the input's labels
    no_relabel: str = ""            # why --relabel is refused, when restore is None
    vector: Callable = None         # (A, result, args) -> what --output writes: a Vector, a
                                    # user's Matrix, or None (a user's number: nothing to
                                    # write); the field left None: the result itself
    column: str = "value"           # what the written values are (the CSV header)
    iterations: Callable = None     # (result, events) -> the iterations it ran, where known
    check_limit: int = CHECK_LIMIT
    check_needs: str = ""           # a module --check imports that is not a dependency
    vertex_values: bool = False     # the vector's values name vertices (parents, mates, labels)


def _algorithm(name):
    # imported when run: ``gblas2d`` itself does not import its algorithms
    from .. import algorithms

    return getattr(algorithms, name)


# ------------------------------------------------------------------------------ options


def parse_probability(text):
    """``--probability``: a float in [0, 1] or the word "weight"."""
    if text == "weight":
        return text
    try:
        p = float(text)
    except (TypeError, ValueError):
        p = None
    if p is None or not 0 <= p <= 1:
        raise InvalidValue(f"--probability must be a number in [0, 1] or 'weight', "
                           f"got {text!r}")
    return p


# The options of ``gblas2d run`` that only some algorithms read, with their defaults (None: the
# algorithm's own, or none). The parser leaves them None, so that one given to an algorithm
# that does not read it is found; the defaults are filled in once the check has passed.
OPTIONS = {"source": None, "method": None, "damping": 0.85, "tol": 1e-4, "max_iter": None,
           "iterations": None, "colors": 64, "seeds": 10, "samples": 4096, "probability": "0.1",
           "delta": None}

# what a value given must be
VALID = {
    "damping": (lambda v: 0 <= v < 1, "in [0, 1)"),
    "tol": (lambda v: v > 0, "positive"),
    "delta": (lambda v: v > 0, "positive"),
    "max_iter": (lambda v: v >= 0, "at least 0"),
    "iterations": (lambda v: v >= 0, "at least 0"),
    "colors": (lambda v: v >= 1, "at least 1"),
    "seeds": (lambda v: v >= 1, "at least 1"),
    "samples": (lambda v: v >= 1, "at least 1"),
}


def flag(option):
    return "--" + option.replace("_", "-")


def reads(spec):
    """The options of OPTIONS that ``spec``'s algorithm reads."""
    return (("source",) if spec.source else ()) + (("method",) if spec.methods else ()) + \
        spec.options


def check_options(name, args):
    """Reject what ``name`` cannot run with, before any work (InvalidValue: exit code 2), then
    fill in the defaults of the options it reads."""
    spec = ALGORITHMS[name]
    if args.method is not None and args.method not in spec.methods:
        raise InvalidValue(f"--method {args.method!r} is not a method of {name} "
                           f"(choices: {', '.join(spec.methods) or 'none'})")
    for option in OPTIONS:
        if getattr(args, option) is not None and option not in reads(spec):
            takes = ", ".join(map(flag, reads(spec))) or "none of the algorithm options"
            raise InvalidValue(f"{flag(option)} does not apply to {name} (it reads {takes})")
    for option, when, applies in spec.only_with:
        if getattr(args, option) is not None and not applies(args):
            raise InvalidValue(f"{flag(option)} applies to {name} only {when}")
    if args.relabel and spec.restore is None:
        raise InvalidValue(f"--relabel is not supported by {name}: {spec.no_relabel}")
    for option in spec.options:
        value = getattr(args, option)
        if value is None:
            setattr(args, option, _default(name, option))
        elif option in VALID and not VALID[option][0](value):
            raise InvalidValue(f"{flag(option)} must be {VALID[option][1]}, got {value}")
    if spec.methods and args.method is None:
        args.method = spec.methods[0]
    if "probability" in spec.options:
        args.probability = parse_probability(args.probability)


def _default(name, option):
    # --max-iter: the algorithm's own default, read from its signature so the two cannot drift
    if option == "max_iter":
        import inspect

        return inspect.signature(_algorithm(name)).parameters["max_iter"].default
    return OPTIONS[option]


def needs_weights(spec, args):
    return spec.weighted is True or (spec.weighted == "probability"
                                     and args.probability == "weight")


# ------------------------------------------------------------- BFS, SSSP, PageRank, CC


def _pagerank(A, source, args):
    return _algorithm("pagerank")(A, args.damping, args.tol, args.max_iter, variant=args.method,
                                  iterations=args.iterations)


def _reached(A, result, vector, names):
    return {"reached": result.nvals}, f"reached {result.nvals} vertices"


def _levels_summary(A, result, vector, names):
    levels = result.reduce("max").new().value + 1
    return {"reached": result.nvals, "levels": levels}, \
        f"reached {result.nvals} vertices, {levels} levels"


def _sssp_summary(A, result, vector, names):
    farthest = result.reduce("max").new().value
    return {"reached": result.nvals, "farthest": farthest}, \
        f"reached {result.nvals} vertices, the farthest at distance {farthest:.6g}"


def _pagerank_summary(A, result, vector, names):
    top, total = result.reduce("max").new().value, result.reduce().new().value
    return {"largest_rank": top, "rank_sum": total}, \
        f"largest rank {top:.6g}, ranks sum to {total:.6f}"


def _groups_summary(noun):
    def summary(A, result, vector, names):
        sizes = np.bincount(result.to_dense())
        count, largest = np.count_nonzero(sizes), sizes.max()
        return {noun: count, "largest": largest}, \
            f"{count} {noun}, the largest has {largest} vertices"
    return summary


def _check_paths(A, source, result, vector, args):
    from scipy.sparse import csgraph

    M = io.to_scipy_sparse(A)
    got = result.to_dense(np.nan, dtype=np.float64)
    if args.algorithm == "sssp":
        method = "BF" if (M.data < 0).any() else "D"
        want = csgraph.shortest_path(M, method=method, indices=source)
    else:
        want = csgraph.shortest_path(M, unweighted=True, indices=source)
    if args.algorithm == "bfs_parents":
        from ..algorithms import validate_bfs_tree

        verdict = validate_bfs_tree(A, source, result)
        got = verdict.levels.to_dense(np.nan, dtype=np.float64)
        if not verdict:
            return False, f"Graph 500 validation failed: {', '.join(verdict.failures)}"
    want = np.where(np.isinf(want), np.nan, want)
    ok = np.allclose(got, want, rtol=1e-9, atol=1e-12, equal_nan=True)
    return ok, "distances against scipy.sparse.csgraph.shortest_path"


def _check_components(A, source, result, vector, args):
    from scipy.sparse import csgraph

    _, labels = csgraph.connected_components(io.to_scipy_sparse(A), directed=True,
                                             connection="weak")
    smallest = np.full(labels.max() + 1 if len(labels) else 0, len(labels))
    np.minimum.at(smallest, labels, np.arange(len(labels)))
    ok = np.array_equal(result.to_dense(np.nan, dtype=np.float64), smallest[labels])
    return ok, "labels against scipy.sparse.csgraph.connected_components"


def _check_pagerank(A, source, result, vector, args):
    got = result.to_dense(np.nan, dtype=np.float64)
    variant = args.method
    if args.iterations is not None:
        want = pagerank_reference(io.to_scipy_sparse(A), args.damping, variant,
                                  iterations=args.iterations)
        ok = np.allclose(got, want, rtol=1e-9, atol=1e-15)
        return ok, f"ranks against {args.iterations} dense power iterations"
    want = pagerank_reference(io.to_scipy_sparse(A), args.damping, variant)
    ok = np.abs(got - want).sum() <= 10 * args.tol
    return ok, "ranks against a dense power iteration (L1 within 10 tol)"


def pagerank_reference(M, damping, variant, tol=1e-13, iterations=None):
    """PageRank by power iteration with SciPy, to a tolerance far below the one checked, or
    exactly ``iterations`` iterations."""
    n = M.shape[0]
    csr = M.tocsr()
    out = np.diff(csr.indptr).astype(np.float64)
    # the pattern, explicit zeros included, as the algorithm reads it
    pattern = csr.astype(np.float64)
    pattern.data[:] = 1.0
    r = np.full(n, 1.0 / n)
    for _ in range(100000 if iterations is None else iterations):
        w = np.divide(r, out, out=np.zeros(n), where=out > 0)
        dangling = 0.0 if variant == "gap" else r[out == 0].sum()
        nxt = (1 - damping + damping * dangling) / n + damping * (pattern.T @ w)
        if iterations is None and np.abs(nxt - r).sum() < tol:
            return nxt
        r = nxt
    return r


# --------------------------------------------------------- fused BPT, influence maximization

SAMPLED = "its samples are drawn from vertex ids, so a relabeled graph draws other samples"


def draw_sources(n, args):
    """The ``--colors`` random sources of fused_bpt, drawn from ``--seed``."""
    if n == 0:
        raise InvalidValue("fused_bpt needs a graph with at least one vertex")
    return np.random.default_rng([args.seed, 0xB97]).integers(0, n, args.colors).tolist()


def _fused_bpt(A, source, args):
    return _algorithm("fused_bpt")(A, draw_sources(A.nrows, args), args.probability, args.seed)


def _rrr_counts(A, result, args):
    # counts(v) = sum_w popcount(rrr(v, w)): the RRR sets holding v
    return result.rrr.apply(unary.popcount).new().reduce_rowwise(monoid.plus).new("INT64")


def _bpt_summary(A, result, vector, names):
    mean = (vector.reduce().new().value or 0) / result.colors
    saving = result.edges_unfused / max(result.edges_fused, 1)
    figures = {"colors": result.colors, "levels": result.levels, "mean_rrr_size": mean,
               "edges_fused": result.edges_fused, "edges_unfused": result.edges_unfused}
    return figures, (f"{result.colors} colors, {result.levels} levels, RRR sets of {mean:.1f} "
                     f"vertices on average; edge visits {result.edges_fused} fused vs "
                     f"{result.edges_unfused} unfused ({saving:.2f}x less work)")


def rrr_reference(M, sources, probability, seed):
    """RRR sets (n x words uint64) and levels from one SciPy search per color over the live
    edges of that color, rebuilt with ``live_bits``, reversed."""
    from scipy.sparse import csgraph, csr_array

    from ..algorithms.fused_bpt import live_bits

    coo = M.tocoo()
    n = M.shape[0]
    if probability == "weight":
        threshold = (coo.data.astype(np.float64) * 2.0**32).astype(np.uint64)
    else:
        threshold = np.full(coo.nnz, np.uint64(probability * 2.0**32))
    rrr = np.zeros((n, -(-len(sources) // 64)), dtype=np.uint64)
    depth = 0
    for c, s in enumerate(sources):
        if c % 64 == 0:
            bits = live_bits(threshold, coo.row, coo.col, c // 64, seed)
        live = ((bits >> np.uint64(c % 64)) & np.uint64(1)).astype(bool)
        reverse = csr_array((np.ones(live.sum()), (coo.col[live], coo.row[live])), shape=(n, n))
        hops = csgraph.shortest_path(reverse, unweighted=True, indices=s)
        reached = np.isfinite(hops)
        rrr[reached, c // 64] |= np.uint64(1) << np.uint64(c % 64)
        depth = max(depth, int(hops[reached].max()) + 1)
    return rrr, depth


def _check_bpt(A, source, result, vector, args):
    M = io.to_scipy_sparse(A)
    want, levels = rrr_reference(M, draw_sources(A.nrows, args), args.probability, args.seed)
    rows, cols, words = result.rrr.to_coo()
    got = np.zeros_like(want)
    got[rows.astype(np.int64), cols.astype(np.int64)] = words
    counts = np.bitwise_count(want).sum(axis=1)
    ok = (np.array_equal(got, want) and result.levels == levels
          and np.array_equal(vector.to_dense(0), counts))
    return ok, "RRR sets and levels against one SciPy search per color"


def _influence(A, source, args):
    if args.seeds > A.nrows:
        raise InvalidValue(f"--seeds (={args.seeds}) must not exceed the number of vertices "
                           f"(={A.nrows})")
    return _algorithm("influence_maximization")(A, args.seeds, samples=args.samples,
                                                 probability=args.probability, seed=args.seed)


def _seed_order(A, result, args):
    k = len(result.seeds)
    return Vector.from_coo(result.seeds, np.arange(k), dtype="INT64", size=A.nrows)


def _influence_summary(A, result, vector, names):
    seeds = names(result.seeds)
    shown = " ".join(map(str, seeds[:10])) + (" ..." if len(seeds) > 10 else "")
    figures = {"seeds": seeds, "spread": result.spread, "samples": result.samples}
    return figures, (f"seeds {shown}; estimated spread {result.spread:.6g} of {A.nrows} "
                     f"vertices ({result.samples} samples)")


def _check_influence(A, source, result, vector, args):
    # the same samples (roots drawn from the seed, as the algorithm draws them), rebuilt with
    # SciPy, then the greedy cover: the most uncovered sets, the smallest id on ties
    roots = np.random.default_rng(args.seed).integers(0, A.nrows, args.samples).tolist()
    rrr, _ = rrr_reference(io.to_scipy_sparse(A), roots, args.probability, args.seed)
    uncovered = np.full(rrr.shape[1], 2**64 - 1, dtype=np.uint64)
    uncovered[-1] >>= np.uint64(-args.samples % 64)
    seeds = []
    for _ in range(args.seeds):
        gain = np.bitwise_count(rrr & uncovered).sum(axis=1).astype(np.int64)
        gain[seeds] = -1
        seeds.append(int(np.argmax(gain)))
        uncovered &= ~rrr[seeds[-1]]
    spread = A.nrows * (args.samples - int(np.bitwise_count(uncovered).sum())) / args.samples
    ok = result.seeds == seeds and abs(result.spread - spread) <= 1e-9 * A.nrows
    return ok, "seeds and spread against a greedy cover of the same samples rebuilt with SciPy"


# ------------------------------------------------------------------------------ matching


def _restore_ids(result, perm):
    # mates are vertex ids of the relabeled graph, as parents are: mapped back the same way
    return restore("bfs_parents", result, perm)


def _matching_weight(A, mate):
    """Collective. (matched edges, total weight) of ``mate`` in max(A, A^T)."""
    u, v = mate.to_coo()
    # W = max(A, A^T) on the matched pairs
    W = A.ewise_add(A.T.new(), binary.max).new().select(select.offdiag).new()
    P = Matrix.from_coo(u, v, True, nrows=A.nrows, ncols=A.ncols)
    weight = W.ewise_mult(P, binary.first).new().reduce_scalar(monoid.plus).new().value
    return len(u) // 2, (weight or 0) / 2


def _matching_summary(A, result, vector, names):
    pairs, weight = _matching_weight(A, result)
    return {"matched_edges": pairs, "weight": weight}, \
        f"{pairs} matched edges, total weight {weight:.6g}"


def _check_matching(A, source, result, vector, args):
    import networkx as nx
    from scipy.sparse import coo_array

    M = io.to_scipy_sparse(A).astype(np.float64)
    W = coo_array(M.maximum(M.T))
    keep = (W.row < W.col) & (W.data > 0)
    weight = {(int(a), int(b)): w for a, b, w in zip(W.row[keep], W.col[keep], W.data[keep],
                                                     strict=True)}
    mate = result.to_dense(-1)
    u = np.flatnonzero(mate >= 0)
    pairs = [(int(a), int(mate[a])) for a in u if a < mate[a]]
    valid = bool(np.all(mate[mate[u]] == u)) and all(p in weight for p in pairs)
    got = sum(weight.get(p, 0.0) for p in pairs)
    G = nx.Graph()
    G.add_weighted_edges_from((a, b, w) for (a, b), w in weight.items())
    best = sum(G[a][b]["weight"] for a, b in nx.max_weight_matching(G))
    ok = valid and got >= best / 2 - 1e-9 * max(best, 1.0)
    return ok, (f"a valid matching of weight {got:.6g} >= half of networkx.max_weight_matching's "
                f"{best:.6g}")


# ---------------------------------------------------------------------- label propagation


def _label_propagation(A, source, args):
    return _algorithm("label_propagation")(A, args.max_iter)


def cdlp_reference(M, max_iter):
    """LDBC CDLP with numpy: each round every vertex takes the most frequent label among its
    in- and out-neighbours (self loops dropped), the smallest on a tie; none, no change."""
    coo = M.tocoo()
    off = coo.row != coo.col
    # v hears u: an edge u -> v or v -> u (both count)
    v = np.concatenate([coo.row[off], coo.col[off]]).astype(np.int64)
    u = np.concatenate([coo.col[off], coo.row[off]]).astype(np.int64)
    n = M.shape[0]
    labels = np.arange(n, dtype=np.int64)
    for _ in range(max_iter):
        pairs, counts = np.unique(v * n + labels[u], return_counts=True)
        who, label = pairs // n, pairs % n
        # per vertex: the largest count first, then the smallest label
        order = np.lexsort((label, -counts, who))
        who, label = who[order], label[order]
        first = np.r_[True, who[1:] != who[:-1]] if len(who) else np.zeros(0, bool)
        new = labels.copy()
        new[who[first]] = label[first]
        if np.array_equal(new, labels):
            break
        labels = new
    return labels


def _check_cdlp(A, source, result, vector, args):
    want = cdlp_reference(io.to_scipy_sparse(A), args.max_iter)
    return np.array_equal(result.to_dense(), want), "labels against a numpy CDLP (LDBC rules)"


# ------------------------------------------------------------------------- betweenness


def _betweenness(A, source, args):
    return _algorithm("betweenness_centrality")(A, None if source is None else [source])


def _betweenness_summary(A, result, vector, names):
    top = result.reduce("max").new().value
    at = names([int(result.select("==", top).new().to_coo()[0][0])])[0]
    return {"largest_centrality": top, "at_vertex": at}, \
        f"largest centrality {top:.6g} at vertex {at}"


def _check_betweenness(A, source, result, vector, args):
    import networkx as nx

    D = nx.from_scipy_sparse_array(io.to_scipy_sparse(A), create_using=nx.DiGraph)
    if source is None:
        want = nx.betweenness_centrality(D, normalized=False, weight=None)
    else:
        want = nx.betweenness_centrality_subset(D, [source], list(D), normalized=False)
    want = np.array([want[v] for v in range(A.nrows)])
    ok = np.allclose(result.to_dense(np.nan, dtype=np.float64), want, rtol=1e-9, atol=1e-12)
    return ok, "centralities against networkx (every ordered pair, not normalized)"


# ------------------------------------------------------------ triangles, clustering

TRIANGLE_METHODS = ("sandia_lut", "sandia_ult", "sandia_ll", "sandia_uu", "cohen", "burkhardt")


def _triangle_count(A, source, args):
    return _algorithm("triangle_count")(A, args.method)


def _triangles_per_vertex(A, result, args):
    # what --output writes: the count is one number
    return _algorithm("triangles")(A)


def _triangle_summary(A, result, vector, names):
    if result == 0:
        return {"triangles": 0}, "0 triangles"
    top = vector.reduce("max").new().value
    at = names([int(vector.select("==", top).new().to_coo()[0][0])])[0]
    return {"triangles": result, "most": top, "at_vertex": at}, \
        f"{result} triangles, the most ({top}) through vertex {at}"


def _check_triangles(A, source, result, vector, args):
    import networkx as nx

    per_vertex = nx.triangles(nx.from_scipy_sparse_array(io.to_scipy_sparse(A)))
    want = np.array([per_vertex[v] for v in range(A.nrows)], dtype=np.int64)
    ok = result == want.sum() // 3 and np.array_equal(vector.to_dense(0), want)
    return ok, "the count and the triangles per vertex against networkx.triangles"


def _lcc_summary(A, result, vector, names):
    mean = (result.reduce().new().value or 0.0) / max(A.nrows, 1)
    return {"mean_coefficient": mean}, f"mean local clustering coefficient {mean:.6f}"


def lcc_reference(M):
    """The LDBC Graphalytics LCC with SciPy: with E the pattern of M less its diagonal and
    S = E + E^T, the edges among the neighbours of v are sum_w (S E)(v, w) S(v, w)."""
    E = M.astype(bool).tocsr()
    E.setdiag(False)
    E.eliminate_zeros()
    S = (E + E.T).astype(np.float64)
    edges = np.asarray((S @ E.astype(np.float64)).multiply(S).sum(axis=1)).ravel()
    d = np.asarray(S.sum(axis=1)).ravel()
    return np.divide(edges, d * (d - 1), out=np.zeros(len(d)), where=d >= 2)


def _check_lcc(A, source, result, vector, args):
    import networkx as nx

    M = io.to_scipy_sparse(A)
    got = result.to_dense(np.nan, dtype=np.float64)
    P = M.astype(bool)
    if (P != P.T).nnz:
        want = lcc_reference(M)
        what = "coefficients against the Graphalytics definition computed with SciPy"
    else:
        clustering = nx.clustering(nx.from_scipy_sparse_array(M))
        want = np.array([clustering[v] for v in range(A.nrows)])
        what = "coefficients against networkx.clustering"
    return np.allclose(got, want, rtol=1e-12, atol=0), what


# ------------------------------------------------------------------------------- table

def _call(name, **keywords):
    return lambda A, source, args: _algorithm(name)(A, source, **keywords)


def _plain(name):
    return lambda result, perm: restore(name, result, perm)


def _products(semiring):
    # the iterations counted in the trace: each runs one product over this semiring
    return lambda result, events: sum(e["semiring"] == semiring for e in events)


WITHOUT_ITERATIONS = ("without --iterations (a fixed count has no convergence test)",
                      lambda args: args.iterations is None)

ALGORITHMS = {
    "bfs_levels": Spec(_call("bfs_levels"), _levels_summary, _check_paths, source="default",
                       restore=_plain("bfs_levels"), column="level",
                       iterations=_products("any_pair")),
    "bfs_parents": Spec(_call("bfs_parents"), _reached, _check_paths, source="default",
                        restore=_plain("bfs_parents"), vertex_values=True, column="parent",
                        iterations=_products("min_secondi")),
    "pagerank": Spec(_pagerank, _pagerank_summary, _check_pagerank,
                     methods=("graphalytics", "gap"),
                     options=("damping", "tol", "max_iter", "iterations"),
                     only_with=(("tol", *WITHOUT_ITERATIONS), ("max_iter", *WITHOUT_ITERATIONS)),
                     restore=_plain("pagerank"), column="rank",
                     iterations=_products("plus_first")),
    "connected_components": Spec(
        lambda A, source, args: _algorithm("connected_components")(A, args.method),
        _groups_summary("components"), _check_components,
        methods=("fastsv", "label_propagation"), restore=_plain("connected_components"),
        vertex_values=True, column="component", iterations=_products("min_second")),
    "sssp": Spec(
        lambda A, source, args: _algorithm("sssp")(A, source, args.method, delta=args.delta),
        _sssp_summary, _check_paths, source="default", weighted=True,
        methods=("bellman_ford", "delta_stepping"), options=("delta",),
        only_with=(("delta", "with --method delta_stepping",
                    lambda args: args.method == "delta_stepping"),),
        restore=_plain("sssp"), column="distance", iterations=_products("min_plus")),
    "fused_bpt": Spec(_fused_bpt, _bpt_summary, _check_bpt, weighted="probability",
                      options=("colors", "probability"), no_relabel=SAMPLED,
                      vector=_rrr_counts, column="rrr_sets",
                      iterations=lambda result, events: result.levels),
    "influence_maximization": Spec(
        _influence, _influence_summary, _check_influence, weighted="probability",
        options=("seeds", "samples", "probability"), no_relabel=SAMPLED, vector=_seed_order,
        column="seed_order", check_limit=1 << 14),
    "max_weight_matching": Spec(
        lambda A, source, args: _algorithm("max_weight_matching")(A), _matching_summary,
        _check_matching, weighted=True, restore=_restore_ids, column="mate",
        check_limit=1 << 11, check_needs="networkx", vertex_values=True),
    "label_propagation": Spec(
        _label_propagation, _groups_summary("communities"), _check_cdlp, options=("max_iter",),
        no_relabel="CDLP breaks ties by the smallest label, a vertex id, so relabeling changes "
                   "the communities", vertex_values=True, column="community",
        iterations=_products("plus_times")),
    "betweenness_centrality": Spec(
        _betweenness, _betweenness_summary, _check_betweenness, source="optional",
        restore=_plain("betweenness_centrality"), column="centrality", check_limit=1 << 10,
        check_needs="networkx"),
    "triangle_count": Spec(
        _triangle_count, _triangle_summary, _check_triangles, methods=TRIANGLE_METHODS,
        restore=lambda result, perm: result, vector=_triangles_per_vertex, column="triangles",
        check_limit=1 << 14, check_needs="networkx"),
    "local_clustering_coefficient": Spec(
        lambda A, source, args: _algorithm("local_clustering_coefficient")(A), _lcc_summary,
        _check_lcc, restore=_plain("local_clustering_coefficient"), column="coefficient",
        check_limit=1 << 14, check_needs="networkx"),
}
