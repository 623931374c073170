"""``gblas2d.core``: the names client code imports from ``graphblas.core``, at the same paths.

Code written for python-graphblas reaches below its public namespaces for a few names: the
classes behind its objects for ``isinstance`` checks (``graphblas.core.matrix.Matrix``,
``graphblas.core.vector.VectorExpression``, ``graphblas.core.matrix.TransposedMatrix``), the op
classes (``graphblas.core.operator.BinaryOp``), the mask class, and ``utils.ensure_type``, which
computes a lazy object into the type wanted. Each module here re-exports gblas2d's own classes
under those names, so such code runs with ``import graphblas`` changed to ``import gblas2d``
and nothing else. It owns no code but ``utils``; what python-graphblas keeps here for its C
bindings (``lib``, ``ffi``, descriptors) has no counterpart.

>>> import gblas2d as gb
>>> A = gb.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0])
>>> isinstance(A.mxm(A), gb.core.matrix.MatrixExpression)
True
>>> gb.core.utils.ensure_type(A @ A, gb.Matrix).nvals
2
"""

from . import dtypes, expr, mask, matrix, operator, scalar, utils, vector

__all__ = ["dtypes", "expr", "mask", "matrix", "operator", "scalar", "utils", "vector"]
