"""A graph: its adjacency matrix and what algorithms derive from it, each made once and kept.

As LAGraph's ``LAGraph_Graph`` does, a ``Graph`` holds the matrix ``A`` (``A[i, j]``: edge
i -> j) and its kind, and caches the transpose, the out- and in-degrees and whether ``A`` is
symmetric the first time an algorithm asks. Several algorithms on one Graph thus transpose a
directed graph once, not once each; on an undirected one (or a gblas2d matrix known to be
symmetric) the transpose is ``A`` itself. Every algorithm takes a Graph or a bare Matrix (for
which it makes a Graph for the call), on gblas2d and on python-graphblas objects alike.

Collective on gblas2d objects: every rank makes the same Graph and asks the same properties.
The cache is the caller's to keep correct: change ``A`` in place and the Graph goes stale, as
LAGraph's does, so make a new one.
"""

from gblas2d import exceptions

from ._engine import check_square, engine

__all__ = ["Graph", "as_graph"]

KINDS = ("directed", "undirected")


class Graph:
    """A square adjacency matrix with its transpose, degrees and symmetry, cached.

    Parameters
    ----------
    A : Matrix
        Square. For ``kind="undirected"`` it must be symmetric (each edge stored both ways);
        that is the caller's promise, not checked.
    kind : "directed" or "undirected"

    Examples
    --------
    >>> import gblas2d as gb
    >>> G = Graph(gb.Matrix.from_coo([0, 1], [1, 2], nrows=3, ncols=3))
    >>> G.out_degree.to_coo()
    (array([0, 1], dtype=uint64), array([1, 1]))
    >>> G.AT.to_coo()[0]
    array([1, 2], dtype=uint64)
    """

    def __init__(self, A, kind="directed"):
        engine(A)
        check_square(A, "Graph")
        if kind not in KINDS:
            raise exceptions.InvalidValue(f"kind must be one of {KINDS}, got {kind!r}")
        self.A, self.kind = A, kind
        self._AT = self._symmetric = self._out_degree = self._in_degree = None

    def __repr__(self):
        return f"Graph({self.kind}, {self.A.nrows} vertices, {self.A.nvals} entries)"

    @property
    def nvertices(self):
        return self.A.nrows

    @property
    def is_symmetric(self):
        """Whether A equals its transpose, structure and values: known for an undirected
        graph and a gblas2d matrix marked symmetric, else compared once with ``AT``."""
        if self._symmetric is None:
            self._symmetric = self._known_symmetric() or bool(self.A.isequal(self.AT))
        return self._symmetric

    @property
    def AT(self):
        """The transpose, made once (``A`` itself when A is known to be symmetric)."""
        if self._AT is None:
            self._AT = self.A if self._known_symmetric() else self.A.T.new()
        return self._AT

    @property
    def out_degree(self):
        """INT64 Vector of each vertex's out-degree (entries in its row); a vertex with none
        has no entry, as in LAGraph."""
        if self._out_degree is None:
            self._out_degree = self._row_counts(self.A)
        return self._out_degree

    @property
    def in_degree(self):
        """INT64 Vector of each vertex's in-degree (entries in its column), from the
        transpose's rows; the out-degree when A is symmetric."""
        if self._in_degree is None:
            self._in_degree = self.out_degree if self._known_symmetric() else \
                self._row_counts(self.AT)
        return self._in_degree

    def _known_symmetric(self):
        return self.kind == "undirected" or self._symmetric is True or \
            getattr(self.A, "is_symmetric", False) is True

    @staticmethod
    def _row_counts(M):
        ns = engine(M)
        ones = ns.Vector.from_scalar(1, M.ncols, ns.dtypes.INT64)
        return M.mxv(ones, ns.semiring.plus_pair[ns.dtypes.INT64]).new()


def as_graph(A, what):
    """``A`` if it is a Graph, else a directed Graph of the Matrix ``A`` for one call, after
    the checks (``what`` names the algorithm in their messages)."""
    if isinstance(A, Graph):
        return A
    engine(A)
    check_square(A, what)
    return Graph(A)
