"""What a lazy Vector or Matrix (an expression, ``v[indices]``, ``A[rows, cols]``) reads of its
result: python-graphblas's "automethods" (``graphblas/core/automethods.py``).

``expr.nvals``, ``expr.isequal(w)``, ``expr.to_coo()``, ``expr.reduce()``, ... compute the
expression once (``.new()``, collective: every rank computes it, as every rank reads it), keep
the result, and read or call the same name on it. That is ``gb.config``'s autocompute, on by
default as in python-graphblas; off, each such read is a TypeError (``_config.py``). A method
is called only when it is called, so ``hasattr(expr, "isequal")`` computes nothing; ``nvals``,
``S``, ``V`` and ``T`` are properties, as in python-graphblas, and compute when read.

A class that mixes these in supplies ``new``, ``dtype``, ``shape``, ``grid`` and
``output_class`` (the class of its result).
"""

from ._config import config, needs_autocompute
from .grid import collective

__all__ = ["MatrixAutoMethods", "VectorAutoMethods", "computed"]


def computed(obj):
    """``obj``, or the Vector or Matrix that a lazy one computes to (collective then; computed
    once): what an operand of a method that takes Vectors or Matrices goes through. With
    autocompute off, a lazy operand is a TypeError."""
    if not isinstance(obj, _AutoMethods):
        return obj
    if not config.get("autocompute"):
        raise TypeError(f"Bad type for argument: {type(obj).__name__}, an expression.  Compute "
                        "it first with `.new()`.\n\nHint: use "
                        "`gblas2d.config.set(autocompute=True)` to automatically compute "
                        "arguments that are expressions.")
    return obj._get_value("an argument")


def _method(name):
    def method(self, *args, **kwargs):
        return getattr(self._get_value(name), name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Collective. ``{name}`` of the result (the expression computed once)."
    return method


def _property(name):
    return property(lambda self: getattr(self._get_value(name), name),
                    doc=f"Collective. ``{name}`` of the result (the expression computed once).")


def _not_in_place(name):
    def method(self, other):
        raise TypeError(f"'{name}' not supported for {type(self).__name__}: a lazy object is "
                        "not assignable; compute it first, w = expr.new()")

    method.__name__ = method.__qualname__ = name
    return method


class _AutoMethods:
    _value = None

    @collective
    def _get_value(self, name):
        """Collective. The result, computed on first use and kept; ``name`` is what is read
        of it (for autocompute's error)."""
        if not config.get("autocompute"):
            raise needs_autocompute(name, type(self))
        if self._value is None:
            self._value = self.new()
        return self._value

    def _infix_operand(self):
        return self._get_value("An operator")

    @collective
    def dup(self, dtype=None, *, clear=False, mask=None, name=None, **opts):
        """Collective. The result as a new object (``clear``: an empty one of its shape)."""
        if clear:
            return self.output_class(self.dtype if dtype is None else dtype, *self.shape,
                                     name=name, grid=self.grid)
        return self.new(dtype, mask=mask, name=name, **opts)

    # ``expr += 1`` would rebind the name to a new expression: python-graphblas refuses it
    __iadd__ = _not_in_place("__iadd__")
    __isub__ = _not_in_place("__isub__")
    __imul__ = _not_in_place("__imul__")
    __itruediv__ = _not_in_place("__itruediv__")
    __ifloordiv__ = _not_in_place("__ifloordiv__")
    __imod__ = _not_in_place("__imod__")
    __ipow__ = _not_in_place("__ipow__")
    __iand__ = _not_in_place("__iand__")
    __ior__ = _not_in_place("__ior__")
    __ixor__ = _not_in_place("__ixor__")
    __imatmul__ = _not_in_place("__imatmul__")

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
