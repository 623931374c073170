"""python-graphblas's ``graphblas.core.scalar`` names: the Scalar and its lazy form."""

from ..surface.expr import ScalarExpression
from ..surface.scalar import Scalar

__all__ = ["Scalar", "ScalarExpression"]
