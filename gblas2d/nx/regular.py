"""Regularity and Euler's condition, read from the degree vectors: is_regular, is_k_regular,
is_eulerian."""

import networkx as nx

import gblas2d as gb

from .components import is_connected, is_strongly_connected
from .structure import degrees

__all__ = ["is_eulerian", "is_k_regular", "is_regular"]


def is_regular(G):
    """Collective. nx.is_regular: every degree the same (a DiGraph's in- and out-degrees
    each), ``min(d) == max(d)``; the null graph raises NetworkXPointlessConcept."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Graph has no nodes.")
    directions = ("in", "out") if G.is_directed() else ("out",)
    return all(_smallest(d) == _largest(d) for d in (degrees(G, way) for way in directions))


def is_k_regular(G, k):
    """Collective. nx.is_k_regular of an undirected graph: ``min(d) == max(d) == k`` (True for
    the null graph)."""
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if len(G) == 0:
        return True
    d = degrees(G)
    return _smallest(d) == _largest(d) == k


def is_eulerian(G):
    """Collective. nx.is_eulerian: every in-degree its out-degree and strongly connected (a
    DiGraph), or every degree even and connected::

        DiGraph:  nvals((d_in - d_out)<!= 0>) == 0;   Graph: max(d band 1) == 0
    """
    if G.is_directed():
        # r = d_in - d_out, r<r != 0>
        unbalanced = degrees(G, "in").ewise_add(degrees(G, "out"), gb.binary.minus).new() \
            .select(gb.select.valuene, 0).new()
        return unbalanced.nvals == 0 and is_strongly_connected(G)
    if len(G) and _largest(degrees(G).apply(gb.binary.band, right=1).new()) != 0:
        return False
    return is_connected(G)


def _smallest(d):
    """Collective. min(d)."""
    return d.reduce(gb.monoid.min).new().value


def _largest(d):
    """Collective. max(d)."""
    return d.reduce(gb.monoid.max).new().value
