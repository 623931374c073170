"""Data types: python-graphblas names over numpy dtypes.

``lookup_dtype`` accepts a DataType, a numpy dtype, a Python type (``bool``, ``int``, ``float``)
or a name (``"INT64"``, ``"int64"``, ``"FP64"``) and returns the one DataType for it.
"""

import numpy as np

__all__ = [
    "BOOL", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64",
    "FP32", "FP64", "DataType", "lookup_dtype", "unify",
]


class DataType:
    """A GraphBLAS type: a name (``"INT64"``) and the numpy dtype that stores it."""

    __slots__ = ("name", "np_type")

    def __init__(self, name, np_type):
        self.name = name
        self.np_type = np.dtype(np_type)

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        """Whether ``other`` (a DataType, a name, a numpy or Python type) names this type. As
        in python-graphblas, what names no type at all raises TypeError."""
        # lookup_dtype(None) is FP64 (numpy's default dtype); python-graphblas rejects None.
        if other is None:
            raise TypeError("Bad dtype: None.  A valid dtype must be provided.")
        try:
            return self is lookup_dtype(other)
        except ValueError:
            pass
        try:
            np.dtype(other)
        except TypeError:
            raise TypeError(f"Invalid or unknown datatype: {other}") from None
        # A numpy type gblas2d does not hold (complex, strings): merely another type.
        return False

    def __hash__(self):
        return hash(self.np_type)

    def __reduce__(self):
        # Unpickled, a type is this module's own object again, so ``is`` and ``==`` hold.
        return lookup_dtype, (self.name,)

    @property
    def itemsize(self):
        return self.np_type.itemsize


BOOL = DataType("BOOL", np.bool_)
INT8 = DataType("INT8", np.int8)
INT16 = DataType("INT16", np.int16)
INT32 = DataType("INT32", np.int32)
INT64 = DataType("INT64", np.int64)
UINT8 = DataType("UINT8", np.uint8)
UINT16 = DataType("UINT16", np.uint16)
UINT32 = DataType("UINT32", np.uint32)
UINT64 = DataType("UINT64", np.uint64)
FP32 = DataType("FP32", np.float32)
FP64 = DataType("FP64", np.float64)

_ALL = (BOOL, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FP32, FP64)
_BY_NUMPY = {t.np_type: t for t in _ALL}
_BY_NAME = {t.name: t for t in _ALL}
_BY_NAME.update({"FLOAT32": FP32, "FLOAT64": FP64, "FLOAT": FP64, "INT": INT64})


def lookup_dtype(obj):
    """Return the DataType for ``obj``; raise ValueError for a type gblas2d does not hold."""
    if isinstance(obj, DataType):
        return obj
    # Every operation asks several times with a numpy dtype: one dict lookup answers.
    known = _BY_NUMPY.get(obj) if isinstance(obj, np.dtype) else None
    if known is not None:
        return known
    if isinstance(obj, str) and obj.upper() in _BY_NAME:
        return _BY_NAME[obj.upper()]
    try:
        np_type = np.dtype(obj)
    except TypeError as exc:
        raise ValueError(f"Unknown dtype: {obj!r}") from exc
    if np_type not in _BY_NUMPY:
        raise ValueError(f"Unsupported dtype: {obj!r} (numpy {np_type})")
    return _BY_NUMPY[np_type]


_UNIFIED = {}


def unify(a, b):
    """The type two operands are cast to before a binary op (numpy promotion, as GraphBLAS)."""
    a, b = lookup_dtype(a), lookup_dtype(b)
    t = _UNIFIED.get((a, b))
    if t is None:
        t = _UNIFIED[a, b] = lookup_dtype(np.promote_types(a.np_type, b.np_type))
    return t
