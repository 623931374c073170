"""Conversions between gblas2d objects and SciPy / python-graphblas / NetworkX objects, and
files.

The input object must be the same on every rank (each keeps its own part, no communication);
outputs are built on every rank from a gather. Matrix Market files live in
``matrixmarket.py``, the parallel edge list reader in ``edgelist.py``, the LDBC Graphalytics
reader in ``graphalytics.py``, what these text readers and writers share in ``graphio.py``,
the binary ``save``/``load`` format in ``binformat.py``, the graph generators
(``gb.generators``) in ``generators.py``.

The I/O layer builds on the surface (``Matrix``, ``Vector``) and the 2D layer (ownership,
redistribution); nothing below it imports it.
"""

import numpy as np

from ..distributed.grid import collective
from ..surface.matrix import Matrix
from ..surface.vector import Vector
from .binformat import load, save
from .edgelist import read_edgelist
from .graphalytics import read_graphalytics
from .matrixmarket import mmread, mmwrite

__all__ = ["from_graphblas", "from_networkx", "from_scipy_sparse", "load", "mmread", "mmwrite",
           "read_edgelist", "read_graphalytics", "save", "to_graphblas", "to_networkx",
           "to_scipy_sparse"]


@collective
def from_scipy_sparse(A, *, dup_op=None, name=None, grid=None):
    """Collective. A Matrix from a scipy.sparse matrix or array given on every rank."""
    coo = A.tocoo()
    return Matrix.from_coo(coo.row, coo.col, coo.data, nrows=coo.shape[0], ncols=coo.shape[1],
                           dup_op=dup_op, name=name, grid=grid)


_SCIPY_FORMATS = ("bsr", "csr", "csc", "coo", "lil", "dia", "dok")


@collective
def to_scipy_sparse(A, format="csr"):
    """Collective. A scipy.sparse array of the whole Matrix (or ``A.T``) on every rank; of a
    Vector, a 1 x n row (n x 1 for ``format="csc"``), as python-graphblas gives it."""
    from scipy.sparse import coo_array

    format = str(format).lower()
    if format not in _SCIPY_FORMATS:
        raise ValueError(f"Invalid format: {format!r}; expected one of {_SCIPY_FORMATS}")
    if isinstance(A, Vector):
        idx, v = A.to_coo()
        zero = np.zeros(len(idx), dtype=np.int64)
        coords, shape = ((idx.astype(np.int64), zero), (A.size, 1)) if format == "csc" else \
            ((zero, idx.astype(np.int64)), (1, A.size))
        return coo_array((v, coords), shape=shape).asformat(format)
    r, c, v = A.to_coo()
    return coo_array((v, (r.astype(np.int64), c.astype(np.int64))), shape=A.shape).asformat(format)


@collective
def from_graphblas(obj, *, name=None, grid=None):
    """Collective. A gblas2d Matrix or Vector from a python-graphblas one (same on every rank)."""
    if hasattr(obj, "nrows"):
        r, c, v = obj.to_coo()
        return Matrix.from_coo(r, c, v, dtype=obj.dtype.np_type, nrows=obj.nrows,
                               ncols=obj.ncols, name=name, grid=grid)
    idx, v = obj.to_coo()
    return Vector.from_coo(idx, v, dtype=obj.dtype.np_type, size=obj.size, name=name, grid=grid)


@collective
def to_graphblas(obj):
    """Collective. A python-graphblas Matrix or Vector holding the same entries."""
    import graphblas

    if isinstance(obj, Matrix):
        r, c, v = obj.to_coo()
        return graphblas.Matrix.from_coo(r, c, v, dtype=obj.dtype.np_type, nrows=obj.nrows,
                                         ncols=obj.ncols)
    idx, v = obj.to_coo()
    return graphblas.Vector.from_coo(idx, v, dtype=obj.dtype.np_type, size=obj.size)


@collective
def from_networkx(G, nodelist=None, dtype=None, weight="weight", name=None, *, grid=None):
    """Collective. The square adjacency Matrix of a NetworkX graph given on every rank: rows and
    columns in ``nodelist`` order (G's own by default), values the ``weight`` attribute (1
    where an edge has none; None for 1 everywhere), as python-graphblas's. Every rank reads the
    whole graph; the NetworkX backend (``nx.pagerank(G, backend="gblas2d")``) converts each
    rank's share only."""
    import networkx as nx

    A = nx.to_scipy_sparse_array(G, nodelist=nodelist, dtype=dtype, weight=weight)
    return from_scipy_sparse(A, name=name, grid=grid)


@collective
def to_networkx(m, edge_attribute="weight"):
    """Collective. A NetworkX DiGraph of the square Matrix ``m`` on every rank: one edge per
    entry, its value as the ``edge_attribute`` (None: no attribute). As python-graphblas's, the
    nodes are the rows and columns of the entries; a vertex of no edge is left out."""
    import networkx as nx

    rows, cols, values = m.to_coo()
    G = nx.DiGraph()
    if edge_attribute is None:
        G.add_edges_from(zip(rows.tolist(), cols.tolist(), strict=True))
    else:
        G.add_weighted_edges_from(zip(rows.tolist(), cols.tolist(), values.tolist(), strict=True),
                                  weight=edge_attribute)
    return G
