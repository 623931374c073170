"""What a lazy Vector or Matrix (an expression, ``v[indices]``, ``A[rows, cols]``) reads of its
result: python-graphblas's "automethods" (``graphblas/core/automethods.py``).

``expr.nvals``, ``expr.isequal(w)``, ``expr.to_coo()``, ``expr.reduce()``, ... compute the
expression once (``.new()``, collective: every rank computes it, as every rank reads it), keep
the result, and read or call the same name on it. gblas2d always computes: python-graphblas
does so under ``gb.config.set(autocompute=True)``. A method is called only when it is called,
so ``hasattr(expr, "isequal")`` computes nothing; ``nvals``, ``S``, ``V`` and ``T`` are
properties, as in python-graphblas, and compute when read.

A class that mixes these in supplies ``new``, ``dtype``, ``shape``, ``grid`` and
``output_class`` (the class of its result).
"""

from .grid import collective

__all__ = ["MatrixAutoMethods", "VectorAutoMethods", "computed"]


def computed(obj):
    """``obj``, or the Vector or Matrix that a lazy one computes to (collective then; computed
    once): what an operand of a method that takes Vectors or Matrices goes through."""
    return obj._get_value() if isinstance(obj, _AutoMethods) else obj


def _method(name):
    def method(self, *args, **kwargs):
        return getattr(self._get_value(), name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Collective. ``{name}`` of the result (the expression computed once)."
    return method


def _property(name):
    return property(lambda self: getattr(self._get_value(), name),
                    doc=f"Collective. ``{name}`` of the result (the expression computed once).")


class _AutoMethods:
    _value = None

    @collective
    def _get_value(self):
        """Collective. The result, computed on first use and kept."""
        if self._value is None:
            self._value = self.new()
        return self._value

    @collective
    def dup(self, dtype=None, *, clear=False, mask=None, name=None, **opts):
        """Collective. The result as a new object (``clear``: an empty one of its shape)."""
        if clear:
            return self.output_class(self.dtype if dtype is None else dtype, *self.shape,
                                     name=name, grid=self.grid)
        return self.new(dtype, mask=mask, name=name, **opts)

    nvals = _property("nvals")
    S = _property("S")
    V = _property("V")
    get = _method("get")
    isequal = _method("isequal")
    isclose = _method("isclose")
    wait = _method("wait")
    apply = _method("apply")
    select = _method("select")
    ewise_add = _method("ewise_add")
    ewise_mult = _method("ewise_mult")
    ewise_union = _method("ewise_union")
    diag = _method("diag")
    reposition = _method("reposition")
    to_coo = _method("to_coo")
    to_dense = _method("to_dense")
    __contains__ = _method("__contains__")
    __getitem__ = _method("__getitem__")
    __iter__ = _method("__iter__")
    __matmul__ = _method("__matmul__")
    __rmatmul__ = _method("__rmatmul__")


class VectorAutoMethods(_AutoMethods):
    """The automethods of a lazy Vector."""

    ndim = 1

    inner = _method("inner")
    outer = _method("outer")
    reduce = _method("reduce")
    to_dict = _method("to_dict")
    vxm = _method("vxm")


class MatrixAutoMethods(_AutoMethods):
    """The automethods of a lazy Matrix."""

    ndim = 2

    T = _property("T")
    kronecker = _method("kronecker")
    mxm = _method("mxm")
    mxv = _method("mxv")
    power = _method("power")
    reduce_rowwise = _method("reduce_rowwise")
    reduce_columnwise = _method("reduce_columnwise")
    reduce_scalar = _method("reduce_scalar")
    to_csr = _method("to_csr")
    to_csc = _method("to_csc")
    to_dcsr = _method("to_dcsr")
    to_dcsc = _method("to_dcsc")
    to_dicts = _method("to_dicts")
    to_edgelist = _method("to_edgelist")
    _vxm_expr = _method("_vxm_expr")
