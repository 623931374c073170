"""The NetworkX backend "gblas2d": ``nx.pagerank(G, backend="gblas2d")`` runs on the grid.

NetworkX (3.2+) finds this backend through the ``networkx.backends`` entry point
(``gblas2d.nx:BackendInterface``) and dispatches a call to it when ``backend="gblas2d"`` is
given or ``nx.config.backend_priority`` names it. The call then runs in three steps::

    can_run(name, args, kwargs)     False, or a reason, for arguments gblas2d cannot honour
    convert_from_nx(G, ...)         G -> Gblas2dGraph: a gblas2d Matrix and the node list
    BackendInterface.<name>(...)    the algorithm on the Matrix; a dict keyed by G's nodes
                                    (or what NetworkX returns: a number, lists, a graph)

Under ``mpiexec -n P`` every rank holds the NetworkX graph the script built; rank r converts
only edges r, r + P, r + 2P, ... of ``G.edges()`` and ``Matrix.from_coo(distributed=True)``
sends each entry to the rank that owns it, so no rank builds the whole matrix. Results are
gathered to every rank, so each rank gets the same dict. A backend call is collective: every
rank must make it, and it does all its work at the call (the iterators NetworkX returns lazily,
bfs_edges' and bfs_layers', come back computed).

The conversion is a thin layer, as in graphblas-algorithms: the algorithms in
``gblas2d.algorithms`` take and return Matrix/Vector objects and know nothing of NetworkX; the
functions here check NetworkX's arguments, map node keys to indices and back, and re-raise
gblas2d errors as NetworkX's exception types.

A graph can also be gblas2d's from the start: ``nx.Graph(backend="gblas2d")`` (or gblas2d in
``nx.config.backend_priority.classes``) is a ``Graph`` of ``classes``, an nx.Graph whose calls
of the functions gblas2d dispatches run here, its conversion kept until it is mutated.

The modules: ``graph`` (the converted graph and the conversions), ``classes`` (the graphs that
are gblas2d's from the start), ``checks`` (what cannot run, and why), ``backend``
(``BackendInterface``, ``can_run``, ``should_run``), and the dispatched functions by family as
NetworkX groups them: ``traversal``, ``shortest_paths``, ``paths``, ``distance_measures``,
``components``, ``link_analysis``, ``link_prediction``, ``centrality``, ``cluster``, ``cores``,
``structure``, ``regular``, ``cuts``, ``assortativity``, ``bipartite``, ``generators``,
``sets``. They import NetworkX and the public gblas2d API only.
"""

from .backend import BackendInterface, can_run, should_run
from .classes import DiGraph, Graph
from .graph import Gblas2dGraph, convert_from_nx, convert_to_nx

__all__ = ["BackendInterface", "DiGraph", "Gblas2dGraph", "Graph", "can_run", "convert_from_nx",
           "convert_to_nx", "should_run"]
