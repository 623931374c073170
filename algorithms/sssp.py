"""Single-source shortest paths: Bellman-Ford over min.plus, and delta-stepping.

Bellman-Ford relaxes only from the vertices whose distance dropped in the last round::

    d = q = 0 * e_s
    repeat:
        t = q min.plus A                   tentative distances through the changed vertices
        q<t < d> = t                       the improvements (a missing d counts as infinity) ...
        d<q> = q                           ... kept, and the next frontier
    until q is empty, or for n rounds: an improvement in round n means a negative cycle

Delta-stepping (``method="delta_stepping"``, non-negative weights) settles distances in buckets
of width delta. Edges are light (w <= delta) or heavy; bucket i holds the vertices with
i*delta <= d < (i+1)*delta::

    for each nonempty bucket i, in order:
        q = d<!S> in bucket i
        while q is not empty:              light edges can refill the bucket
            B<q> = true                    remember who passed through the bucket
            t = q min.plus A_light
            q<t < d> = t; d<q> = q
            q = q in bucket i
        t = d<B> min.plus A_heavy          heavy edges leave the bucket once
        q<t < d> = t; d<q> = q
        S<B> = true                        settled

The next bucket is the one holding min(d<!S>); where float rounding (or a delta below the
spacing of floats near d) would make it miss that minimum, it starts at the minimum itself and
is at least one float wide, so every bucket settles a vertex.

References: R. Bellman (1958); U. Meyer, P. Sanders, "Delta-stepping: a parallelizable shortest
path algorithm", J. Algorithms 2003; U. Sridhar et al., "Delta-stepping SSSP: from vertices and
edges to GraphBLAS implementations", IPDPSW 2019; LAGraph's LAGr_SingleSourceShortestPath.

Cost per round: one sparse-frontier vxm (O(edges leaving the frontier)) and O(n/P) element-wise
work; delta-stepping adds a scalar reduction per bucket to find the next nonempty one.
"""

import math
import numbers

import numpy as np

from gblas2d import exceptions

from ._engine import check_vertex, engine
from .graph import as_graph

__all__ = ["NegativeCycleError", "sssp"]

METHODS = ("bellman_ford", "delta_stepping")


class NegativeCycleError(exceptions.InvalidValue):
    """A cycle of negative total weight is reachable from the source."""


def sssp(A, source, method="bellman_ford", *, delta=None):
    """Shortest-path distances from ``source`` along the out-edges of ``A`` (``A[i, j]``: the
    weight of edge i -> j).

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        Square matrix of integer or floating-point edge weights.
    source : int
    method : {"bellman_ford", "delta_stepping"}
        Delta-stepping needs non-negative weights.
    delta : number, optional
        Bucket width for delta-stepping; by default the mean edge weight.

    Returns
    -------
    Vector of distances (INT64 for integer weights, FP64 otherwise); unreachable vertices are
    missing.

    Raises
    ------
    NegativeCycleError
        When Bellman-Ford finds a negative cycle reachable from the source.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 0, 1], [1, 2, 2], [4.0, 9.0, 2.0], nrows=3, ncols=3)
    >>> sssp(A, 0).to_dense()
    array([0., 4., 6.])
    """
    G = as_graph(A, "sssp")
    A, ns = G.A, engine(G.A)
    s = check_vertex(A, source)
    if method not in METHODS:
        raise exceptions.InvalidValue(f"method must be one of {METHODS}, got {method!r}")
    kind = A.dtype.np_type.kind
    if kind not in "iuf":
        raise exceptions.DomainMismatch(f"sssp needs integer or floating-point weights, not "
                                        f"{A.dtype.name}")
    dist_type = ns.dtypes.FP64 if kind == "f" else ns.dtypes.INT64
    infinity = math.inf if kind == "f" else np.iinfo(np.int64).max
    # d = 0 * e_s
    d = ns.Vector(dist_type, A.nrows)
    d[s] = 0
    if method == "bellman_ford":
        return _bellman_ford(ns, A, d, infinity)
    lightest = A.reduce_scalar(ns.monoid.min).new().value
    if lightest is not None and lightest < 0:
        raise exceptions.InvalidValue(f"delta-stepping needs non-negative weights (found "
                                      f"{lightest}); use method='bellman_ford'")
    if delta is None:
        total = A.reduce_scalar(ns.monoid.plus, allow_empty=False).new(dist_type).value
        # the mean weight, or 1 when every weight is zero
        delta = total / max(A.nvals, 1) or 1
    elif not (isinstance(delta, numbers.Real) and 0 < delta < math.inf):
        raise exceptions.InvalidValue(f"delta (={delta}) must be a positive finite number")
    if kind != "f":
        delta = max(1, math.ceil(delta))
    return _delta_stepping(ns, A, d, delta, infinity)


def _relax(ns, q, A, d, infinity):
    """q = the improvements t < d that ``q min.plus A`` brings, then d<q> = q. Overwrites q."""
    # t = q min.plus A
    t = q.vxm(A, ns.semiring.min_plus).new(d.dtype)
    # q<t < d> = t, a missing d counting as infinity
    better = t.ewise_union(d, ns.binary.lt, infinity, infinity).new()
    q(better.V, replace=True) << t
    # d<q> = q
    d(q.S) << q


def _bellman_ford(ns, A, d, infinity):
    q = d.dup()
    for _ in range(A.nrows):
        with ns.iteration():
            _relax(ns, q, A, d, infinity)
            if q.nvals == 0:
                return d
    raise NegativeCycleError("a negative-weight cycle is reachable from the source")


def _delta_stepping(ns, A, d, delta, infinity):
    # A_light = A<A <= delta>, A_heavy = A<A > delta>
    light = A.select(ns.select.valuele, delta).new()
    heavy = A.select(ns.select.valuegt, delta).new()
    # the vertices a finished bucket has settled
    settled = ns.Vector(ns.dtypes.BOOL, d.size)
    start = 0
    while True:
        with ns.iteration():
            # end = start + delta, at least the next float above start
            end = max(start + delta, math.nextafter(start, math.inf))
            # q = d<!settled, start <= d < end>
            q = d.select(ns.select.valuege, start).new(mask=~settled.S)
            q << q.select(ns.select.valuelt, end)
            passed = ns.Vector(ns.dtypes.BOOL, d.size)
            while q.nvals:
                # B<q> = true
                passed(q.S) << True
                _relax(ns, q, light, d, infinity)
                q << q.select(ns.select.valuelt, end)
            # q = d<B>, relaxed once along the heavy edges
            q = d.dup(mask=passed.S)
            _relax(ns, q, heavy, d, infinity)
            # S<B> = true
            settled(passed.S) << True
            # the next bucket holds later = min(d<!settled>), at its start if rounding puts its
            # end at or below later
            later = d.dup(mask=~settled.S).reduce(ns.monoid.min).value
            if later is None:
                return d
            start = (later // delta) * delta
            if not later < start + delta:
                start = later
