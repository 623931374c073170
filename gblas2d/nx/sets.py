"""Node sets: maximal independent and dominating sets."""

import networkx as nx
import numpy as np

import gblas2d as gb
from gblas2d import algorithms as alg
from gblas2d import exceptions

__all__ = ["dominating_set", "is_dominating_set", "maximal_independent_set"]


def maximal_independent_set(G, nodes=None, seed=None):
    """Collective. nx.maximal_independent_set from ``algorithms.maximal_independent_set``
    (Luby's), to NetworkX's contract: independent, maximal, containing ``nodes``, whose
    order leads the list (rank 0's order of the set under mpiexec); the other members follow
    in G's node order. The hash seed is drawn from ``seed`` (the global generator: can_run
    refuses a given seed) on rank 0."""
    graph, A = G.graph, G.matrix
    comm = A.grid.comm
    include = None
    if not nodes:
        if len(G) == 0:
            raise IndexError("Cannot choose from an empty sequence")
        nodes = []
    else:
        nodes = set(nodes)
        if not nodes.issubset(graph):
            raise nx.NetworkXUnfeasible(f"{nodes} is not a subset of the nodes of G")
        index = G.index
        include = gb.Vector.from_coo(np.array([index[v] for v in nodes], np.int64), True,
                                     gb.dtypes.BOOL, size=len(G))
    hash_seed = comm.bcast_object(seed.getrandbits(32) if A.grid.rank == 0 else None)
    try:
        chosen = alg.maximal_independent_set(alg.Graph(A, "undirected"), hash_seed,
                                             include=include)
    except exceptions.InvalidValue as exc:
        raise nx.NetworkXUnfeasible(f"{nodes} is not an independent set of G") from exc
    first = comm.bcast_object(list(nodes))
    given = set(first)
    return first + [v for v in G.to_dict(chosen) if v not in given]


def dominating_set(G, start_with=None):
    """Collective. nx.dominating_set of an undirected graph: a maximal independent set
    containing ``start_with`` (NetworkX's ``arbitrary_element`` of the nodes by default),
    which dominates (every other node has a neighbour in it); Luby's with the hash seed 0."""
    graph = G.graph
    if start_with is None:
        start_with = nx.utils.arbitrary_element(set(graph))
    if start_with not in graph:
        raise nx.NetworkXError(f"node {start_with} is not in G")
    chosen = alg.maximal_independent_set(alg.Graph(G.matrix, "undirected"), 0,
                                         include=G.indicator([start_with]))
    return G.to_set(chosen)


def is_dominating_set(G, nbunch):
    """Collective. nx.is_dominating_set: the nodes of ``nbunch`` in G and their successors
    are every node::

        x = the nodes of nbunch;  x += x any.pair A;  nvals(x) == n
    """
    graph = G.graph
    x = G.indicator({v for v in nbunch if v in graph})
    # x += x any.pair A
    x(accum=gb.binary.lor) << x.vxm(G.matrix, gb.semiring.any_pair[gb.dtypes.BOOL])
    return x.nvals == len(G)
