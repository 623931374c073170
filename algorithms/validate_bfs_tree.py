"""The Graph 500 validation of a BFS parent tree, written with the engine so it runs at scale.

Let p be the parent vector, T the tree as a matrix (``T(p(v), v)`` for every tree vertex v but
the root) and L the levels (given, or the depth of each vertex in T). The five checks::

    no_cycles            p(s) = s, and a BFS over T from s reaches every vertex of p
    tree_levels          L(v) = L(p(v)) + 1 on every tree edge whose ends both have a level,
                         L(s) = 0, and given levels cover exactly the vertices of p
    edge_levels          L(j) <= L(i) + 1 on every edge i -> j of A whose ends both have a level
                         (on a symmetric A: the levels of adjacent vertices differ by at most one)
    spans_component      the vertices of p are exactly those a BFS over A from s reaches
    tree_edges_in_graph  T is a subgraph of A (every tree edge is an edge of A)

Without ``levels``, L is the depth in T, so ``tree_levels`` holds by construction; passing the
levels a BFS reported checks them against the tree too.

Reference: the Graph 500 benchmark specification, "Kernel 2 validation".

Cost: two BFS (over T and over A), one vxm, one gather and one element-wise product; T is built
from the parent vector's pieces (each rank sends its own n/P tree edges to their owners).
"""

from dataclasses import dataclass

from gblas2d import exceptions

from ._engine import check_vertex, engine
from .bfs_levels import bfs_levels
from .graph import as_graph

__all__ = ["BFSTreeCheck", "validate_bfs_tree"]

CHECKS = ("no_cycles", "tree_levels", "edge_levels", "spans_component", "tree_edges_in_graph")


@dataclass(frozen=True)
class BFSTreeCheck:
    """The verdict of ``validate_bfs_tree``: true when every check passed.

    ``failures`` names the failed checks in the Graph 500 order; ``levels`` holds the level of
    each tree vertex used by the checks.
    """

    failures: tuple
    levels: object

    def __bool__(self):
        return not self.failures


def validate_bfs_tree(A, source, parents, *, levels=None):
    """Check a BFS parent tree of ``A`` rooted at ``source`` with the five Graph 500 checks.

    Collective on gblas2d objects. Runs unchanged on python-graphblas objects.

    Parameters
    ----------
    A : Matrix or Graph
        The graph searched (``A[i, j]``: edge i -> j).
    source : int
        The root.
    parents : Vector
        Integer parent of each reached vertex (the root its own parent).
    levels : Vector, optional
        Levels reported with the tree; by default the depth of each vertex in the tree.

    Returns
    -------
    BFSTreeCheck, true when the tree passes.

    Examples
    --------
    >>> import gblas2d as gb
    >>> from gblas2d.algorithms import bfs_parents
    >>> A = gb.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], nrows=3, ncols=3)
    >>> bool(validate_bfs_tree(A, 0, bfs_parents(A, 0)))
    True
    """
    G = as_graph(A, "validate_bfs_tree")
    A, ns = G.A, engine(G.A)
    s = check_vertex(A, source)
    n = A.nrows
    for name, vec in (("parents", parents), ("levels", levels)):
        if vec is None and name == "levels":
            continue
        if not isinstance(vec, ns.Vector):
            raise TypeError(f"{name} must be a {ns.name} Vector, got {type(vec).__name__}")
        if vec.size != n:
            raise exceptions.DimensionMismatch(
                f"{name} Vector.size (={vec.size}) must equal Matrix.nrows (={n})")
        if vec.dtype.np_type.kind not in "iu":
            raise exceptions.DomainMismatch(f"{name} must have an integer dtype, not "
                                            f"{vec.dtype.name}")
    failures = []
    # p = parents without the root, v = the vertex of each entry of p
    p = parents.dup()
    del p[s]
    v = p.apply(ns.indexunary.rowindex, 0).new()
    # T(p(v), v) = true for every tree vertex v but the root
    T = ns.from_vectors(p, v, True, ns.dtypes.BOOL, nrows=n, ncols=n)
    # depth = BFS levels over T from s
    depth = bfs_levels(T, s)
    root = parents[s].new().value
    if root != s or depth.nvals != parents.nvals:
        failures.append("no_cycles")
    L = depth if levels is None else levels
    # Lp = L(p): the level of each vertex's parent
    Lp = ns.gather(L, parents)
    # step = L - Lp on tree vertices but the root
    step = L.ewise_mult(Lp, ns.binary.minus).new()
    del step[s]
    wrong_steps = step.select(ns.select.valuene, 1).new().nvals
    same_vertices = levels is None or (
        levels.ewise_mult(parents, ns.binary.pair).new().nvals == levels.nvals == parents.nvals)
    if wrong_steps or L[s].new().value != 0 or not same_vertices:
        failures.append("tree_levels")
    # lowest(j) = min over in-edges i -> j of L(i)
    lowest = L.vxm(A, ns.semiring.min_first).new()
    # gap = L - lowest, which must not exceed one
    gap = L.ewise_mult(lowest, ns.binary.minus).new()
    if gap.select(ns.select.valuegt, 1).new().nvals:
        failures.append("edge_levels")
    # the vertices a BFS over A reaches
    reached = bfs_levels(A, s)
    same = reached.ewise_mult(parents, ns.binary.pair).new()
    if not (same.nvals == reached.nvals == parents.nvals):
        failures.append("spans_component")
    # T .* A keeps the tree edges that are graph edges
    kept = T.ewise_mult(A, ns.binary.pair).new()
    if kept.nvals != T.nvals:
        failures.append("tree_edges_in_graph")
    return BFSTreeCheck(tuple(failures), L)
