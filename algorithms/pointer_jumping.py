"""Pointer jumping: the root of every vertex of a forest given by parent pointers.

``p(v)`` is v's parent and a root points to itself. Replacing every pointer by its grandparent
doubles the distance it covers, so after k rounds each vertex points 2^k steps up its tree (or
at the root) and ceil(log2(depth)) + 1 rounds reach the fixed point::

    repeat:
        g = p(p)                           one gather
        if g == p: break
        p = g
    check p(g) == g                        every vertex reached a root, not a cycle

FastSV's shortcutting in ``connected_components`` is one round of this; its ``fastsv`` method
calls this function to flatten the hooked trees completely.

References: J. C. Wyllie, "The complexity of parallel computations", 1979 (pointer jumping);
Y. Shiloach, U. Vishkin, "An O(log n) parallel connectivity algorithm", J. Algorithms 1982.

Cost per round: one gather (a request/response all-to-all of O(n/P) words per rank) and one
comparison (an allreduce), and one last gather to check that every vertex reached a root. A
parent vector with a cycle is reported as InvalidValue.
"""

import math

import numpy as np

from gblas2d import exceptions

from ._engine import engine

__all__ = ["pointer_jumping"]


def pointer_jumping(parents):
    """The root of every vertex: ``r(v) = p(p(...p(v)))`` where ``p(r) = r``.

    Collective on gblas2d objects; runs unchanged on a python-graphblas Vector.

    Parameters
    ----------
    parents : Vector
        An integer Vector with a parent id in ``[0, size)`` for every vertex; roots point to
        themselves.

    Returns
    -------
    Vector of the same dtype: the root of every vertex.

    Raises
    ------
    InvalidValue
        When a vertex has no parent entry, or the pointers contain a cycle longer than one.
    IndexOutOfBound
        When a parent id is outside ``[0, size)``.

    Examples
    --------
    >>> import gblas2d as gb
    >>> p = gb.Vector.from_coo([0, 1, 2, 3, 4], [0, 0, 1, 3, 3])
    >>> pointer_jumping(p).to_dense()
    array([0, 0, 0, 3, 3])
    """
    ns = engine(parents)
    if hasattr(parents, "nrows") or not np.issubdtype(parents.dtype.np_type, np.integer):
        raise TypeError(f"pointer_jumping needs an integer Vector of parent ids, got "
                        f"{type(parents).__name__} of {parents.dtype}")
    if parents.nvals != parents.size:
        raise exceptions.InvalidValue(f"parents must hold an entry for every vertex, got "
                                      f"{parents.nvals} of {parents.size}")
    if parents.size:
        lo = parents.reduce(ns.monoid.min).new().value
        hi = parents.reduce(ns.monoid.max).new().value
        if lo < 0 or hi >= parents.size:
            raise exceptions.IndexOutOfBound(f"parent ids must lie in [0, {parents.size}), got "
                                             f"ids in [{lo}, {hi}]")
    p = parents
    for _ in range(math.ceil(math.log2(max(parents.size, 2))) + 1):
        # g = p(p)
        g = ns.gather(p, p)
        if g.isequal(p):
            break
        p = g
    # every vertex must end at a root, which points to itself: a cycle either never settles
    # or (a length that is a power of two) settles with its vertices pointing at themselves
    if not ns.gather(parents, g).isequal(g):
        raise exceptions.InvalidValue("parents contains a cycle: pointer jumping found no roots")
    return g
