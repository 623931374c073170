"""Centralities: betweenness, degree, closeness, harmonic, Katz and eigenvector."""

import math

import networkx as nx

import gblas2d as gb
from gblas2d import algorithms as alg
from gblas2d import exceptions

from .checks import betweenness_reason, refuse
from .components import one_component
from .shortest_paths import levels_in_batches

__all__ = ["betweenness_centrality", "closeness_centrality", "degree_centrality",
           "edge_betweenness_centrality", "eigenvector_centrality",
           "eigenvector_centrality_numpy", "harmonic_centrality", "in_degree_centrality",
           "katz_centrality", "katz_centrality_numpy", "out_degree_centrality"]


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False,
                           seed=None):
    """Collective. nx.betweenness_centrality (unweighted, endpoints excluded) from
    ``algorithms.betweenness_centrality``, rescaled as NetworkX's ``_rescale``.

    With ``k`` the sources are ``seed.sample(list(G), k)``, NetworkX's own sample; rank 0 draws
    it and every rank uses rank 0's, so ``seed=None`` agrees across ranks too.
    """
    refuse(betweenness_reason(k, len(G), weight, endpoints))
    n = len(G)
    if n == 0:
        return {}
    if k == n:
        k = None
    A = G.matrix
    sampled = None
    if k is not None:
        comm = A.grid.comm
        sampled = comm.bcast_object(seed.sample(G.nodes, k) if A.grid.rank == 0 else None)
    sources = None if sampled is None else [G.index_of(v) for v in sampled]
    # the sum over ordered pairs (s, t), s among the sources, as NetworkX counts before rescaling
    raw = G.to_dict(alg.betweenness_centrality(A, sources, directed=True))
    return _rescale(raw, n, normalized, G.is_directed(), sampled)


def _rescale(betweenness, n, normalized, directed, sampled):
    """NetworkX's rescaling with endpoints excluded: by the number of (s, t) pairs counted,
    and with sampling the sources apart from the other nodes (a source is never its own t)."""
    N = n - 1
    if N < 2:
        return betweenness
    correction = 1 if directed else 2
    if sampled is None:
        scale = 1 / (N * (N - 1)) if normalized else 1 / correction
        return {v: b * scale for v, b in betweenness.items()}
    k = len(sampled)
    if normalized:
        scale_source = 1 / ((k - 1) * (N - 1)) if k > 1 else math.nan
        scale_other = 1 / (k * (N - 1))
    else:
        scale_source = N / ((k - 1) * correction) if k > 1 else math.nan
        scale_other = N / (k * correction)
    sampled = set(sampled)
    return {v: b * (scale_source if v in sampled else scale_other)
            for v, b in betweenness.items()}


def edge_betweenness_centrality(G, k=None, normalized=True, weight=None, seed=None):
    """Collective. nx.edge_betweenness_centrality (unweighted) from
    ``algorithms.edge_betweenness_centrality``: a value for every edge of ``G.edges()``, the
    sum of both directions for an undirected graph, rescaled as NetworkX's ``_rescale`` with
    endpoints (every node a possible target). ``k`` and ``seed`` sample as
    ``betweenness_centrality``."""
    refuse(betweenness_reason(k, len(G), weight, False))
    n, A = len(G), G.matrix
    sampled = None
    if k is not None:
        comm = A.grid.comm
        sampled = comm.bcast_object(seed.sample(G.nodes, k) if A.grid.rank == 0 else None)
    sources = None if sampled is None else [G.index_of(v) for v in sampled]
    C = alg.edge_betweenness_centrality(A, sources, directed=True)
    rows, cols, values = C.to_coo()
    share = dict(zip(zip(rows.tolist(), cols.tolist(), strict=True), values.tolist(),
                     strict=True))
    index, directed = G.index, G.is_directed()
    raw = {}
    for u, v in G.graph.edges():
        i, j = index[u], index[v]
        raw[u, v] = share.get((i, j), 0.0) + (0.0 if directed else share.get((j, i), 0.0))
    if n < 2:
        return raw
    sources_counted = n if k is None else k
    if normalized:
        scale = 1 / (sources_counted * (n - 1))
    else:
        scale = n / (sources_counted * (1 if directed else 2))
    return raw if scale == 1 else {e: b * scale for e, b in raw.items()}


def degree_centrality(G):
    """Collective. nx.degree_centrality: NetworkX's degree (in + out; a self loop counted
    twice) over n - 1::

        d  = A plus.pair 1            out-degree (the degree, undirected)
        d += 1 plus.pair B            B = A: the in-degree; undirected, B = diag(A): loops again
    """
    A, plus_pair = G.matrix, gb.semiring.plus_pair[gb.dtypes.INT64]
    # d = A plus.pair 1
    d = A.mxv(_ones(A), plus_pair).new()
    B = A if G.is_directed() else A.select(gb.select.diag).new()
    # d += 1 plus.pair B
    d(accum=gb.binary.plus) << _ones(A).vxm(B, plus_pair)
    return _per_other_node(G, d)


def in_degree_centrality(G):
    """Collective. nx.in_degree_centrality: ``d = 1 plus.pair A`` over n - 1."""
    A = G.matrix
    # d = 1 plus.pair A
    d = _ones(A).vxm(A, gb.semiring.plus_pair[gb.dtypes.INT64]).new()
    return _per_other_node(G, d)


def out_degree_centrality(G):
    """Collective. nx.out_degree_centrality: ``d = A plus.pair 1`` over n - 1."""
    A = G.matrix
    # d = A plus.pair 1
    d = A.mxv(_ones(A), gb.semiring.plus_pair[gb.dtypes.INT64]).new()
    return _per_other_node(G, d)


def _ones(A):
    return gb.Vector.from_scalar(1, A.nrows, gb.dtypes.INT64)


def _per_other_node(G, d):
    """Collective. ``{node: d * (1 / (n - 1))}``, as NetworkX scales (1 for every node when
    n <= 1)."""
    n = len(G)
    if n <= 1:
        return {v: 1 for v in G.nodes}
    # c = 0, c<d> = d * (1 / (n - 1))
    c = gb.Vector.from_scalar(0.0, n, gb.dtypes.FP64)
    c(d.S) << d.apply(gb.binary.times, right=1.0 / (n - 1.0))
    return G.to_dict(c)




def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6, nstart=None,
                    normalized=True, weight=None):
    """Collective. nx.katz_centrality from ``algorithms.katz_centrality``: NetworkX's
    iteration, stopping rule and normalization."""
    if len(G) == 0:
        return {}
    b = _katz_beta(G, beta)
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    start = None if nstart is None else G.vector(nstart)
    try:
        x = alg.katz_centrality(G.adjacency(weight), alpha, b, tol, max_iter, nstart=start,
                                normalized=normalized)
    except exceptions.ConvergenceFailure as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    return G.to_dict(x)


def katz_centrality_numpy(G, alpha=0.1, beta=1.0, normalized=True, weight=None):
    """Collective. nx.katz_centrality_numpy, which solves (I - alpha A^T) x = beta exactly:
    ``algorithms.katz_centrality`` run to ``EXACT_TOL``, scaled as NetworkX (by the norm,
    signed as the sum). Where the series does not converge in ``EXACT_MAX_ITER`` steps (alpha
    near or above 1 / spectral radius) it raises NotImplementedError, and NetworkX's own
    solve runs instead."""
    if len(G) == 0:
        return {}
    if isinstance(beta, dict):
        if set(beta) != set(G.graph):
            raise nx.NetworkXError("beta dictionary must have a value for every node")
        order, scale = list(beta), max(map(abs, beta.values()))
    else:
        try:
            scale = abs(float(beta))
        except (TypeError, ValueError) as err:
            raise nx.NetworkXError("beta must be a number") from err
        order = G.nodes
    try:
        x = alg.katz_centrality(G.adjacency(weight), alpha, _katz_beta(G, beta),
                                EXACT_TOL * max(scale, 1.0), EXACT_MAX_ITER, normalized=False)
    except exceptions.ConvergenceFailure as exc:
        raise NotImplementedError(f"katz_centrality_numpy: the series does not converge in "
                                  f"{EXACT_MAX_ITER} steps ({exc})") from exc
    return _signed_unit(G.to_dict(x), order, normalized)


def _katz_beta(G, beta):
    """NetworkX's beta: a number, or a dict with a value for every node (then a Vector)."""
    try:
        return float(beta)
    except (TypeError, ValueError, AttributeError) as err:
        if set(beta) != set(G.graph):
            raise nx.NetworkXError("beta dictionary must have a value for every node") from err
    return G.vector(beta)


def eigenvector_centrality(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None):
    """Collective. nx.eigenvector_centrality from ``algorithms.eigenvector_centrality``:
    NetworkX's iteration with A + I, its stopping rule and normalization, in the order of
    ``nstart``'s keys when it is given (as NetworkX's dict)."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if nstart is not None:
        if all(v == 0 for v in nstart.values()):
            raise nx.NetworkXError("initial vector cannot have all zero values")
        if sum(nstart.values()) == 0:
            raise ZeroDivisionError("division by zero")
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    start = None if nstart is None else G.vector(nstart)
    try:
        x = G.to_dict(alg.eigenvector_centrality(G.adjacency(weight), tol, max_iter,
                                                 nstart=start))
    except exceptions.ConvergenceFailure as exc:
        raise nx.PowerIterationFailedConvergence(max_iter) from exc
    return x if nstart is None else {v: x[v] for v in nstart}


def eigenvector_centrality_numpy(G, weight=None, max_iter=50, tol=0):
    """Collective. nx.eigenvector_centrality_numpy, for which NetworkX asks ARPACK for the
    eigenvector: ``algorithms.eigenvector_centrality`` run to ``EXACT_TOL`` (ARPACK's
    ``max_iter`` and ``tol`` do not apply to it), scaled as NetworkX. A graph that is not
    (strongly) connected raises AmbiguousSolution, as in NetworkX; where the iteration does not
    converge in ``EXACT_MAX_ITER`` steps it raises NotImplementedError, and NetworkX's own
    ARPACK call runs instead."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    labels = alg.strongly_connected_components(G.matrix) if G.is_directed() else \
        alg.connected_components(G.matrix)
    if not one_component(labels):
        raise nx.AmbiguousSolution("`eigenvector_centrality_numpy` does not give consistent "
                                   "results for disconnected graphs")
    try:
        x = alg.eigenvector_centrality(G.adjacency(weight), EXACT_TOL, EXACT_MAX_ITER)
    except exceptions.ConvergenceFailure as exc:
        raise NotImplementedError(f"eigenvector_centrality_numpy: the power iteration does not "
                                  f"converge in {EXACT_MAX_ITER} steps ({exc})") from exc
    return _signed_unit(G.to_dict(x), G.nodes, True)


# the _numpy forms' stopping rule: an L1 change below n * EXACT_TOL (times the largest |beta|
# for Katz), within rounding of the exact answer for the ratios of convergence they accept
EXACT_TOL = 1e-13
EXACT_MAX_ITER = 2000


def _signed_unit(values, order, normalized):
    """``{v: values[v] / norm}`` in ``order``, norm the 2-norm signed as the sum (NetworkX's
    scaling of the _numpy forms), or 1 unless ``normalized``."""
    norm = math.copysign(math.hypot(*values.values()), sum(values.values())) \
        if normalized else 1
    return {v: values[v] / norm for v in order}



def closeness_centrality(G, u=None, distance=None, wf_improved=True):
    """Collective. nx.closeness_centrality without distances (can_run refuses them): from the
    levels L of a search from every node along the reversed edges (batched)::

        total(v) = L plus.reduce rowwise;  reached(v) = nvals(L(v, :))
        c(v) = (reached - 1) / total  [* (reached - 1) / (n - 1)]

    as NetworkX divides (0.0 where total is 0), for ``u`` or every node.
    """
    refuse(None if distance is None else "closeness with distance is not supported")
    n = len(G)
    rows = range(n) if u is None else [G.index_of(u)]
    total, reached = {}, {}
    for L in levels_in_batches(G.reverse_matrix, rows):
        # total = L plus.reduce rowwise, reached = L plus.pair 1
        total.update(G.to_dict(L.reduce_rowwise(gb.monoid.plus)))
        reached.update(G.to_dict(L.mxv(_ones(L), gb.semiring.plus_pair[gb.dtypes.INT64])))
    closeness = {}
    for v in (G.nodes if u is None else [u]):
        c = 0.0
        if total[v] > 0.0 and n > 1:
            c = (reached[v] - 1.0) / total[v]
            if wf_improved:
                c *= (reached[v] - 1.0) / (n - 1)
        closeness[v] = c
    return closeness if u is None else closeness[u]


def harmonic_centrality(G, nbunch=None, distance=None, sources=None):
    """Collective. nx.harmonic_centrality without distances (can_run refuses them): for each
    node u of ``nbunch``, the sum of 1 / d(v, u) over the ``sources`` v; with L the levels of
    searches from nbunch along the reversed edges (batched) and s the sources::

        h = (L<offdiag> apply minv) plus.times s
    """
    refuse(None if distance is None else "harmonic centrality with distance is not supported")
    graph, index = G.graph, G.index
    targets = set(graph.nbunch_iter(nbunch) if nbunch is not None else graph.nodes)
    starts = set(graph.nbunch_iter(sources) if sources is not None else graph.nodes)
    fp64 = gb.dtypes.FP64
    s = G.indicator(starts)
    harmonic = dict.fromkeys(targets, 0)
    for L in levels_in_batches(G.reverse_matrix, [index[v] for v in targets]):
        # R = 1 / L off the diagonal (d = 0 only there)
        R = L.select(gb.select.offdiag).new(fp64).apply(gb.unary.minv).new()
        # h = R plus.times s
        harmonic.update(G.to_dict(R.mxv(s, gb.semiring.plus_times[fp64])))
    return harmonic
