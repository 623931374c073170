"""python-graphblas's ``graphblas.core.vector`` names: the Vector and its lazy forms."""

from ..surface.expr import VectorExpression
from ..surface.vector import Vector
from ..surface.vector_views import VectorIndexExpr

__all__ = ["Vector", "VectorExpression", "VectorIndexExpr"]
