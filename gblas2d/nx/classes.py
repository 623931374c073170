"""Graphs that are gblas2d's from the start: ``nx.Graph(backend="gblas2d")``.

NetworkX 3.6 dispatches the construction of its graph classes (``nx.Graph.__new__`` as
``graph__new__``, ``nx.DiGraph.__new__`` as ``digraph__new__``). With ``backend="gblas2d"``, or
gblas2d in ``nx.config.backend_priority.classes``, ``nx.Graph()`` is a ``Graph`` of this module,
which NetworkX's own ``__init__`` then fills. It is an nx.Graph that adds no data and overrides
no graph method, so whatever NetworkX does with a graph works on it; only its
``__networkx_backend__`` differs, and for that NetworkX hands it, as it is, to gblas2d for every
function gblas2d dispatches (``BackendInterface``, whose functions are ``on_gblas2d_graphs``).

``converted(G)`` makes G's Gblas2dGraph, its adjacency pattern, at the first such call and
keeps it in ``G.__networkx_cache__``, where NetworkX keeps its conversions: every method that
changes G's nodes or edges (``add_edge``, ``remove_node``, ..., and NetworkX's functions that
mutate, such as ``nx.set_edge_attributes``) clears that cache, and the next call converts afresh.
Edge values can change without a method (``G[u][v]["weight"] = w``), so a call that reads them
(``Gblas2dGraph.adjacency(weight)``) reads them from G at that call; NetworkX's own cache would
keep stale ones. A frozen graph, as every view is (``G.subgraph(nodes)``), is converted at every
call: a view follows its graph's mutations without its own cache being cleared.
"""

import functools

import networkx as nx

from .graph import convert_from_nx

__all__ = ["DiGraph", "Graph", "converted", "digraph__new__", "graph__new__",
           "on_gblas2d_graphs"]

# NetworkX's cache key for a conversion holding no edge or node attribute (its
# ``_get_cache_key`` with nothing asked for or preserved)
NO_ATTRIBUTES = (False, False)


class _OnGblas2d:
    """What the two classes add to NetworkX's: the backend's name, gblas2d classes for the
    other direction (``to_directed()``, ``to_undirected()``), and pickling without the cached
    conversion (a gblas2d Matrix belongs to the running grid)."""

    __networkx_backend__ = "gblas2d"

    def to_directed_class(self):
        return DiGraph

    def to_undirected_class(self):
        return Graph

    def __getstate__(self):
        state = dict(vars(self))
        if state.get("__networkx_cache__") is not None:
            state["__networkx_cache__"] = {}
        return state


class Graph(_OnGblas2d, nx.Graph):
    """An nx.Graph whose dispatched calls run on gblas2d (``nx.Graph(backend="gblas2d")``); its
    copies and views are of this class."""


class DiGraph(_OnGblas2d, nx.DiGraph):
    """An nx.DiGraph whose dispatched calls run on gblas2d (``nx.DiGraph(backend="gblas2d")``);
    its copies and views are of this class."""


def graph__new__(cls, *args, **kwargs):
    """nx.Graph.__new__ for nx.Graph or ``Graph`` (``can_run`` declines other subclasses): an
    empty gblas2d ``Graph``, which nx.Graph.__init__ then fills from the arguments."""
    return object.__new__(Graph)


def digraph__new__(cls, *args, **kwargs):
    """nx.DiGraph.__new__ for nx.DiGraph or ``DiGraph`` (``can_run`` declines other
    subclasses): an empty gblas2d ``DiGraph``, which nx.DiGraph.__init__ then fills."""
    return object.__new__(DiGraph)


def converted(G):
    """Collective when it converts. The Gblas2dGraph of the gblas2d graph ``G``: the one kept
    in ``G.__networkx_cache__``, its edge values to be read again, else ``convert_from_nx(G)``,
    kept there unless ``nx.config.cache_converted_graphs`` is off, the graph's cache is None
    or G is frozen (a view). Every rank holds the same G and makes the same calls and
    mutations, so every rank converts at the same calls."""
    cache = getattr(G, "__networkx_cache__", None)
    if cache is None or not nx.config.cache_converted_graphs or nx.is_frozen(G):
        return convert_from_nx(G)
    kept = cache.setdefault("backends", {}).setdefault("gblas2d", {})
    if NO_ATTRIBUTES not in kept:
        kept[NO_ATTRIBUTES] = convert_from_nx(G)
    else:
        kept[NO_ATTRIBUTES].forget_values()
    return kept[NO_ATTRIBUTES]


def on_gblas2d_graphs(func):
    """The ``BackendInterface`` staticmethod of ``func``, a function of Gblas2dGraphs: NetworkX
    passes a gblas2d graph to the backend unconverted, so each argument that is one is replaced
    by ``converted(G)`` (collective when it converts) before ``func`` runs."""

    def argument(value):
        return converted(value) if isinstance(value, Graph | DiGraph) else value

    @functools.wraps(func)
    def call(*args, **kwargs):
        return func(*map(argument, args), **{k: argument(v) for k, v in kwargs.items()})

    return staticmethod(call)
