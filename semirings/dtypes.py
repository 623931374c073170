"""Data types: python-graphblas names over numpy dtypes.

``lookup_dtype`` accepts a DataType, a numpy dtype or type, a Python type (``bool``, ``int``,
``float``), a name (``"INT64"``, ``"int64"``, ``"FP64"``), a GraphBLAS name (``"GrB_INT64"``)
or a C type (``"int64_t"``; ``"float"`` is FP64, as in numpy and python-graphblas) and returns
the one DataType for it. Complex types and user-defined (record or array) types are not held.

>>> lookup_dtype("int8_t"), unify(INT16, UINT16), sorted([FP32, INT8, BOOL])
(INT8, INT32, [BOOL, FP32, INT8])
"""

import numpy as np

__all__ = [
    "BOOL", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64",
    "FP32", "FP64", "DataType", "lookup_dtype", "unify",
]

# python-graphblas's flag (its tests read it): whether FC32 and FC64 exist. gblas2d has none.
_supports_complex = False


class DataType:
    """A GraphBLAS type: a name (``"INT64"``), the numpy dtype that stores it, and its GraphBLAS
    and C names (``"GrB_INT64"``, ``"int64_t"``), as python-graphblas's."""

    __slots__ = ("name", "np_type", "gb_name", "c_type")
    # python-graphblas's flag for a user-defined type, which client code tests before value
    # work (``A.dtype._is_udt``); gblas2d has the builtin types only
    _is_udt = False

    def __init__(self, name, np_type, c_type):
        self.name = name
        self.np_type = np.dtype(np_type)
        self.gb_name = f"GrB_{name}"
        self.c_type = c_type

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        """Whether ``other`` (a DataType, a name, a numpy or Python type) names this type. As
        in python-graphblas, what names no type at all raises TypeError."""
        try:
            return self is lookup_dtype(other)  # TypeError for None
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

    def __lt__(self, other):
        """An order for sorting, python-graphblas's: by numpy kind, size, then name."""
        try:
            t1, t2 = self.np_type, lookup_dtype(other).np_type
        except (TypeError, ValueError):
            raise TypeError(f"Invalid or unknown datatype: {other}") from None
        return (t1.kind, t1.itemsize, t1.name) < (t2.kind, t2.itemsize, t2.name)

    def __reduce__(self):
        # Unpickled, a type is this module's own object again, so ``is`` and ``==`` hold.
        return lookup_dtype, (self.name,)

    @property
    def itemsize(self):
        return self.np_type.itemsize


BOOL = DataType("BOOL", np.bool_, "_Bool")
INT8 = DataType("INT8", np.int8, "int8_t")
INT16 = DataType("INT16", np.int16, "int16_t")
INT32 = DataType("INT32", np.int32, "int32_t")
INT64 = DataType("INT64", np.int64, "int64_t")
UINT8 = DataType("UINT8", np.uint8, "uint8_t")
UINT16 = DataType("UINT16", np.uint16, "uint16_t")
UINT32 = DataType("UINT32", np.uint32, "uint32_t")
UINT64 = DataType("UINT64", np.uint64, "uint64_t")
FP32 = DataType("FP32", np.float32, "float")
FP64 = DataType("FP64", np.float64, "double")

_ALL = (BOOL, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FP32, FP64)
_BY_NUMPY = {t.np_type: t for t in _ALL}
# Names, upper-cased: ours, GraphBLAS's and C's. "FLOAT" is FP64 (numpy's and Python's float),
# though FP32's C type is float, as in python-graphblas.
_BY_NAME = {key.upper(): t for t in _ALL for key in (t.name, t.gb_name, t.c_type)}
_BY_NAME.update({"FLOAT32": FP32, "FLOAT64": FP64, "FLOAT": FP64, "INT": INT64})


def lookup_dtype(obj):
    """Return the DataType for ``obj``.

    Parameters
    ----------
    obj : DataType, numpy dtype or type, Python type, or str

    Raises
    ------
    TypeError
        For None.
    ValueError
        For a type gblas2d does not hold (complex, strings, objects, records).
    """
    if isinstance(obj, DataType):
        return obj
    if obj is None:
        # np.dtype(None) would be FP64; python-graphblas refuses it.
        raise TypeError("Bad dtype: None.  A valid dtype must be provided.")
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
        raise ValueError(f"Unknown dtype: {obj!r} (numpy {np_type}, which gblas2d does not hold)")
    return _BY_NUMPY[np_type]


_UNIFIED = {}


def unify(a, b, *, is_left_scalar=False, is_right_scalar=False):
    """The type two operands are cast to before a binary op (numpy promotion, as GraphBLAS).

    As in python-graphblas, when exactly one side is a Python scalar (``is_left_scalar`` or
    ``is_right_scalar``) it takes the other side's type where its value fits (numpy's
    ``result_type`` with a 0-d array).
    """
    a, b = lookup_dtype(a), lookup_dtype(b)
    if is_left_scalar != is_right_scalar:
        left = np.array(0, a.np_type) if is_left_scalar else a.np_type
        right = np.array(0, b.np_type) if is_right_scalar else b.np_type
        return lookup_dtype(np.result_type(left, right))
    t = _UNIFIED.get((a, b))
    if t is None:
        t = _UNIFIED[a, b] = lookup_dtype(np.promote_types(a.np_type, b.np_type))
    return t
