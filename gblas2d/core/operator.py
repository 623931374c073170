"""python-graphblas's ``graphblas.core.operator`` classes: the kinds of op and the aggregator.

A select op is an ``IndexUnaryOp`` of kind ``"select"`` here (python-graphblas has a
``SelectOp`` class); ``OpBase`` is the base of them all.
"""

from ..semirings import BinaryOp, IndexUnaryOp, Monoid, Semiring, UnaryOp
from ..semirings import Operator as OpBase
from ..surface.agg import Aggregator

__all__ = ["Aggregator", "BinaryOp", "IndexUnaryOp", "Monoid", "OpBase", "Semiring", "UnaryOp"]
