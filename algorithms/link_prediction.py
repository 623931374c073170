"""Link prediction scores of vertex pairs, as NetworkX's link predictors define them.

For the pairs (u, v) of a pattern M, with N(u) the neighbours of u in the undirected graph A
(a self loop makes u its own neighbour), E = A without its diagonal, |N(u)| the row counts of
A and deg(u) NetworkX's degree (a self loop counted twice)::

    common_neighbors         C<M> = E plus.pair E                 |N(u) & N(v) - {u, v}|
    jaccard                  C / (|N(u)| + |N(v)| - (A plus.pair A))<M>   (0 where empty)
    resource_allocation      S<M> = E plus.times diag(1 / deg) E  sum over w of 1 / deg(w)
    adamic_adar              S<M> = E plus.times diag(1 / log deg) E
    preferential_attachment  S<M> = diag(deg) plus.first M  .*  M plus.second diag(deg)

Every pair of M gets a score, 0 where nothing is summed. The masked products touch only the
pairs asked for: their cost is that of the wedges u - w - v closing on M.

References: D. Liben-Nowell, J. Kleinberg, "The link-prediction problem for social networks",
JASIST 58(7), 2007; T. Zhou, L. Lu, Y.-C. Zhang, "Predicting missing links via local
information", EPJ B 71, 2009; NetworkX's ``link_prediction`` module.

Cost: one masked ``mxm`` (O(sum over pairs of the shorter neighbour list) with a dot-product
kernel, or the wedges of the masked rows), two ``mxv`` for the degrees, O(nnz(M)/P) element-wise
work.
"""

from gblas2d import exceptions

from ._engine import check_square, engine
from .graph import as_graph

__all__ = ["link_prediction"]

METHODS = ("common_neighbors", "jaccard", "resource_allocation", "adamic_adar",
           "preferential_attachment")


def link_prediction(A, pairs, method="jaccard"):
    """Scores of the vertex pairs ``pairs`` for joining by an edge in the undirected graph A.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Symmetric adjacency matrix; only its pattern is used.
    pairs : Matrix
        The pairs to score: its pattern (values are ignored), of A's shape.
    method : str
        One of ``METHODS``: "common_neighbors", "jaccard", "resource_allocation",
        "adamic_adar" or "preferential_attachment".

    Returns
    -------
    Matrix (FP64) with an entry for every pair of ``pairs``.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], 1, nrows=3, ncols=3)
    >>> M = gb.Matrix.from_coo([0], [2], True, nrows=3, ncols=3)
    >>> link_prediction(A, M, "jaccard").to_coo()[2]
    array([1.])
    """
    G = as_graph(A, "link_prediction")
    A, ns = G.A, engine(G.A)
    check_square(pairs, "link_prediction")
    if method not in METHODS:
        raise exceptions.InvalidValue(f"method (={method!r}) must be one of {METHODS}")
    if pairs.shape != A.shape:
        raise exceptions.DimensionMismatch(
            f"pairs.nrows (={pairs.nrows}) must equal Matrix.nrows (={A.nrows})")
    n, fp64 = A.nrows, ns.dtypes.FP64
    plus = ns.binary.plus
    plus_pair = ns.semiring.plus_pair[fp64]
    ones = ns.Vector.from_scalar(1.0, n, fp64)
    # S<M> = 0: every pair gets a score
    S = ns.Matrix(fp64, n, n)
    S(pairs.S) << 0.0
    # d = A plus.pair 1 = |N(u)|
    d = _dense(ns, n, A.mxv(ones, plus_pair))
    # deg = d + diag(A) plus.pair 1, NetworkX's degree
    deg = d.dup()
    deg(accum=plus) << A.select(ns.select.diag).new().mxv(ones, plus_pair)
    if method == "preferential_attachment":
        # S<M> = diag(deg) plus.first M  .*  M plus.second diag(deg)
        left = deg.diag().mxm(pairs, ns.semiring.plus_first[fp64]).new()
        right = pairs.mxm(deg.diag(), ns.semiring.plus_second[fp64]).new()
        S(pairs.S) << left.ewise_mult(right, ns.binary.times)
        return S
    # E = offdiag(A), value 1
    E = A.select(ns.select.offdiag).new().apply(ns.unary.one).new(fp64)
    if method in ("common_neighbors", "jaccard"):
        # C<M> += E plus.pair E
        S(pairs.S, accum=plus) << E.mxm(E, plus_pair)
        if method == "common_neighbors":
            return S
        # union<M> = diag(d) plus.first M + M plus.second diag(d) - (A plus.pair A)
        union = d.diag().mxm(pairs, ns.semiring.plus_first[fp64]).new()
        union(accum=plus) << pairs.mxm(d.diag(), ns.semiring.plus_second[fp64])
        union(accum=ns.binary.minus) << A.mxm(A, plus_pair).new(mask=pairs.S)
        # S<union > 0> = C / union
        nonempty = union.select(ns.select.valuegt, 0).new()
        S(nonempty.S) << S.ewise_mult(nonempty, ns.binary.truediv)
        return S
    # w = 1 / deg, or 1 / log(deg)
    w = deg if method == "resource_allocation" else deg.apply(ns.unary.log).new()
    w = w.apply(ns.unary.minv).new()
    # S<M> += (E plus.times diag(w)) plus.times E
    Ew = E.mxm(w.diag(), ns.semiring.plus_times[fp64]).new()
    S(pairs.S, accum=plus) << Ew.mxm(E, ns.semiring.plus_times[fp64])
    return S


def _dense(ns, n, v):
    """``v`` (a product) as FP64 with a 0 wherever it has no entry."""
    out = ns.Vector.from_scalar(0.0, n, ns.dtypes.FP64)
    out(accum=ns.binary.plus) << v
    return out
