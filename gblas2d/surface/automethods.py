"""What a lazy Vector or Matrix (an expression, ``v[indices]``, ``A[rows, cols]``) reads of its
result: python-graphblas's "automethods" (``graphblas/core/automethods.py``).

``expr.nvals``, ``expr.isequal(w)``, ``expr.to_coo()``, ``expr.reduce()``, ... compute the
expression once (``.new()``, collective: every rank computes it, as every rank reads it), keep
the result, and read or call the same name on it. That is ``gb.config``'s autocompute, on by
default as in python-graphblas; off, each such read is a TypeError (``config.py``). A method
is called only when it is called, so ``hasattr(expr, "isequal")`` computes nothing; ``nvals``,
``S``, ``V`` and ``T`` are properties, as in python-graphblas, and compute when read.

A class that mixes these in supplies ``new``, ``dtype``, ``shape``, ``grid`` and
``output_class`` (the class of its result).
"""

from ..distributed.grid import collective
from .config import config, needs_autocompute
from .inputs import type_name

__all__ = ["MatrixAutoMethods", "VectorAutoMethods", "computed", "of_result"]


def computed(obj):
    """``obj``, or the Vector or Matrix that a lazy one computes to (collective then; computed
    once): what an operand of a method that takes Vectors or Matrices goes through. With
    autocompute off, a lazy operand is a TypeError."""
    if not isinstance(obj, _AutoMethods):
        return obj
    if not config.get("autocompute"):
        raise TypeError(f"Bad type for argument: {type_name(obj)}, an expression.  Compute "
                        "it first with `.new()`.\n\nHint: use "
                        "`gblas2d.config.set(autocompute=True)` to automatically compute "
                        "arguments that are expressions.")
    return obj._get_value("an argument")


def of_result(name):
    """The method ``name`` of a lazy object's result: the class supplies ``_get_value(name)``,
    which computes the result (under autocompute) and keeps it."""
    def method(self, *args, **kwargs):
        return getattr(self._get_value(name), name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Collective. ``{name}`` of the result (computed once)."
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
    get = of_result("get")
    isequal = of_result("isequal")
    isclose = of_result("isclose")
    wait = of_result("wait")
    apply = of_result("apply")
    select = of_result("select")
    ewise_add = of_result("ewise_add")
    ewise_mult = of_result("ewise_mult")
    ewise_union = of_result("ewise_union")
    diag = of_result("diag")
    reposition = of_result("reposition")
    to_coo = of_result("to_coo")
    to_dense = of_result("to_dense")
    __contains__ = of_result("__contains__")
    __getitem__ = of_result("__getitem__")
    __iter__ = of_result("__iter__")
    __matmul__ = of_result("__matmul__")
    __rmatmul__ = of_result("__rmatmul__")


class VectorAutoMethods(_AutoMethods):
    """The automethods of a lazy Vector."""

    ndim = 1

    inner = of_result("inner")
    outer = of_result("outer")
    reduce = of_result("reduce")
    to_dict = of_result("to_dict")
    vxm = of_result("vxm")


class MatrixAutoMethods(_AutoMethods):
    """The automethods of a lazy Matrix."""

    ndim = 2

    T = _property("T")
    kronecker = of_result("kronecker")
    mxm = of_result("mxm")
    mxv = of_result("mxv")
    power = of_result("power")
    reduce_rowwise = of_result("reduce_rowwise")
    reduce_columnwise = of_result("reduce_columnwise")
    reduce_scalar = of_result("reduce_scalar")
    to_csr = of_result("to_csr")
    to_csc = of_result("to_csc")
    to_dcsr = of_result("to_dcsr")
    to_dcsc = of_result("to_dcsc")
    to_dicts = of_result("to_dicts")
    to_edgelist = of_result("to_edgelist")
