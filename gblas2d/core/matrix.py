"""python-graphblas's ``graphblas.core.matrix`` names: the Matrix and its lazy forms."""

from ..surface.expr import MatrixExpression
from ..surface.matrix import Matrix
from ..surface.matrix_views import MatrixIndexExpr, TransposedMatrix

__all__ = ["Matrix", "MatrixExpression", "MatrixIndexExpr", "TransposedMatrix"]
