"""python-graphblas's ``graphblas.core.dtypes`` names: the type class and its lookup."""

from ..semirings.dtypes import DataType, lookup_dtype, unify

__all__ = ["DataType", "lookup_dtype", "unify"]
