"""Deterministic graph generators, made as gblas2d matrices: empty, path, cycle, complete, star,
wheel, ladder, circular ladder and 2D grid graphs.

NetworkX runs them here when ``nx.config.backend_priority.generators`` names gblas2d (or with
``backend="gblas2d"``). Each builds its node keys as NetworkX does and its edges as index
arrays, and every rank passes its share (edges r, r + P, ...) to a distributed ``from_coo``:
the result is a ``Gblas2dGraph`` whose matrix is already on the grid, and whose NetworkX graph
is built only if asked for (``convert_to_nx``, or a function that reads it). ``create_using``
may be None, ``nx.Graph`` or ``nx.DiGraph`` (``checks.generator_reason``).
"""

import numbers

import networkx as nx
import numpy as np

import gblas2d as gb

from .checks import generator_reason, refuse
from .graph import Gblas2dGraph

__all__ = ["circular_ladder_graph", "complete_graph", "cycle_graph", "empty_graph",
           "grid_2d_graph", "ladder_graph", "null_graph", "path_graph", "star_graph",
           "trivial_graph", "wheel_graph"]


def empty_graph(n=0, create_using=None, default=nx.Graph):
    """Collective. nx.empty_graph: the nodes of ``n`` and no edge."""
    refuse(generator_reason(create_using, default))
    return _graph(_nodes(n), [], create_using)


def null_graph(create_using=None):
    """Collective. nx.null_graph: no node."""
    return empty_graph(0, create_using)


def trivial_graph(create_using=None):
    """Collective. nx.trivial_graph: one node, 0."""
    return empty_graph(1, create_using)


def path_graph(n, create_using=None):
    """Collective. nx.path_graph: edges k -> k + 1 between consecutive nodes."""
    refuse(generator_reason(create_using))
    nodes = _nodes(n)
    k = np.arange(len(nodes) - 1)
    return _graph(nodes, [(k, k + 1)], create_using)


def cycle_graph(n, create_using=None):
    """Collective. nx.cycle_graph: the path and its closing edge (last -> first)."""
    refuse(generator_reason(create_using))
    nodes = _nodes(n)
    k = np.arange(len(nodes))
    return _graph(nodes, [(k, (k + 1) % len(nodes))], create_using)


def complete_graph(n, create_using=None):
    """Collective. nx.complete_graph: every pair i < j (every ordered pair, directed)."""
    refuse(generator_reason(create_using))
    nodes = _nodes(n)
    i, j = np.triu_indices(len(nodes), 1)
    edges = [(i, j), (j, i)] if _directed(create_using) else [(i, j)]
    return _graph(nodes, edges, create_using)


def star_graph(n, create_using=None):
    """Collective. nx.star_graph: the hub (the first node) -> every other node; an integer n
    gives n + 1 nodes."""
    refuse(generator_reason(create_using))
    nodes = _nodes(n)
    if isinstance(n, numbers.Integral):
        nodes.append(int(n))
    k = np.arange(1, len(nodes))
    return _graph(nodes, [(np.zeros_like(k), k)], create_using)


def wheel_graph(n, create_using=None):
    """Collective. nx.wheel_graph: the star of the first node and the cycle of the others."""
    refuse(generator_reason(create_using))
    nodes = _nodes(n)
    _undirected_only(create_using)
    rim = np.arange(1, len(nodes))
    edges = [(np.zeros_like(rim), rim)]
    if len(rim) > 1:
        edges.append((rim, np.roll(rim, -1)))
    return _graph(nodes, edges, create_using)


def ladder_graph(n, create_using=None):
    """Collective. nx.ladder_graph: two paths of n nodes (0 .. n-1, n .. 2n-1) and the rungs
    k - k + n."""
    refuse(generator_reason(create_using))
    _undirected_only(create_using)
    k = np.arange(n - 1)
    rungs = np.arange(n)
    return _graph(list(range(2 * n)), [(k, k + 1), (k + n, k + n + 1), (rungs, rungs + n)],
                  create_using)


def circular_ladder_graph(n, create_using=None):
    """Collective. nx.circular_ladder_graph: the ladder with both paths closed."""
    refuse(generator_reason(create_using))
    _undirected_only(create_using)
    k = np.arange(n - 1)
    rungs = np.arange(n)
    ends = (np.array([0, n]), np.array([n - 1, 2 * n - 1]))
    return _graph(list(range(2 * n)),
                  [(k, k + 1), (k + n, k + n + 1), (rungs, rungs + n), ends], create_using)


def grid_2d_graph(m, n, periodic=False, create_using=None):
    """Collective. nx.grid_2d_graph: nodes (i, j), edges to the next row and column (and
    around, ``periodic``, along a dimension of more than two); a DiGraph has both directions.
    Node (i, j) is row ``a * len(cols) + b`` for i = rows[a], j = cols[b]."""
    refuse(generator_reason(create_using))
    rows, cols = _nodes(m), _nodes(n)
    try:
        periodic_r, periodic_c = periodic
    except TypeError:
        periodic_r = periodic_c = periodic
    R, C = len(rows), len(cols)
    a, b = np.meshgrid(np.arange(R), np.arange(C), indexing="ij")
    at = a * C + b
    edges = [(at[:-1].ravel(), at[1:].ravel()), (at[:, :-1].ravel(), at[:, 1:].ravel())]
    if periodic_r and R > 2:
        edges.append((at[0], at[-1]))
    if periodic_c and C > 2:
        edges.append((at[:, 0], at[:, -1]))
    if _directed(create_using):
        edges += [(j, i) for i, j in edges]
    nodes = [(i, j) for i in rows for j in cols]
    return _graph(nodes, edges, create_using)


def _nodes(n):
    """NetworkX's ``nodes_or_number``: range(n) for an integer (NetworkXError if negative),
    else the given nodes in order."""
    try:
        nodes = list(range(n))
    except TypeError:
        return list(n)
    if n < 0:
        raise nx.NetworkXError(f"Negative number of nodes not valid: {n}")
    return nodes


def _directed(create_using):
    return create_using is nx.DiGraph


def _undirected_only(create_using):
    if _directed(create_using):
        raise nx.NetworkXError("Directed Graph not supported")


def _graph(nodes, edges, create_using):
    """Collective. The Gblas2dGraph of ``nodes`` (repeats kept once, at their first place) and
    the edges ``(sources, targets)`` given as places in ``nodes``: every rank forms all of
    them and passes its share, edges r, r + P, ...; an undirected graph's edges go both ways."""
    directed = _directed(create_using)
    keys = list(dict.fromkeys(nodes))
    index = {v: k for k, v in enumerate(keys)}
    # a place in nodes -> the row of its key (the same place unless nodes repeat)
    row = np.fromiter((index[v] for v in nodes), np.int64, len(nodes))
    grid = gb.default_grid()
    src = np.concatenate([np.asarray(s, np.int64).ravel() for s, _ in edges] or [[]])
    dst = np.concatenate([np.asarray(t, np.int64).ravel() for _, t in edges] or [[]])
    src, dst = row[src.astype(np.int64)], row[dst.astype(np.int64)]
    if not directed:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    # one entry per edge: repeated nodes or both directions can name one twice
    n = len(keys)
    key = np.unique(src * n + dst)[grid.rank::grid.nprocs]
    A = gb.Matrix.from_coo(key // n, key % n, 1, gb.dtypes.INT64, nrows=n, ncols=n,
                           distributed=True, grid=grid)
    if not directed:
        A.mark_symmetric()
    return Gblas2dGraph.generated(keys, A, directed)
