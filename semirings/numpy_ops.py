"""python-graphblas's numpy namespaces: ``unary.numpy``, ``binary.numpy``, ``monoid.numpy`` and
``semiring.numpy``, numpy's ufuncs by their numpy names.

Where python-graphblas's numpy name is one of its builtin ops (``binary.numpy.add`` is
``binary.plus``, ``unary.numpy.rint`` is ``unary.round``), it is gblas2d's op of that name. The
rest are numpy's ufunc (python-graphblas compiles it with numba), named ``numpy.<name>``
(``binary.numpy.mod``), with python-graphblas's result types: float functions compute in FP32 for
bool and 1- or 2-byte integers and in FP64 for wider ones; the integer functions give INT8 for
BOOL, as numpy does. Three of python-graphblas's builtins gblas2d lacks (``atan2``,
``copysign``, ``ldexp``) are numpy ops here too. An integer division by zero (``mod``,
``floor_divide``, ...) gives numpy's 0 where python-graphblas's numba code stops the process.

``monoid.numpy`` takes only the types python-graphblas gives each monoid an identity for
(``logaddexp`` floats only, ``gcd`` integers only); ``semiring.numpy.<monoid>_<binary>`` joins
them, each semiring made when first read.

>>> from gblas2d.semirings import binary, semiring
>>> binary.numpy.mod.evaluate(np.array([7, -7]), np.array([-2, 2]))
array([-1,  1])
>>> binary.numpy.add is binary.plus, semiring.numpy.add_hypot
(True, semiring.numpy.plus_hypot)
"""

import importlib
import types

import numpy as np

from ._base import BinaryOp, Monoid, Semiring, UnaryOp
from ._numeric import as_float, power
from .dtypes import lookup_dtype

__all__ = ["binary_namespace", "monoid_namespace", "semiring_namespace", "semiring_of",
           "unary_namespace"]


def _float_unary(name, ufunc):
    return UnaryOp(f"numpy.{name}", lambda x: ufunc(as_float(x)))


def _float_binary(name, ufunc, **kwargs):
    return BinaryOp(f"numpy.{name}", lambda x, y: ufunc(as_float(x), as_float(y)), **kwargs)


def _as_int8(x):
    # BOOL as INT8, which numpy's integer functions give for it (np.sign has no bool loop)
    return x.astype(np.int8) if x.dtype.kind == "b" else x


def _floor_divide(x, y):
    # python-graphblas's numba code floors the float quotient: 1 // 0.1 is 10 (numpy: 9), and
    # inf // 2 is inf (numpy: nan). Integers divide as numpy's, 0 for a zero divisor.
    if x.dtype.kind == "f":
        return np.floor(x / y)
    return np.floor_divide(_as_int8(x), _as_int8(y))


def _float_power(x, y):
    # SuiteSparse's pow in FP64, or FP32 for FP32: python-graphblas builds it from binary.pow
    if x.dtype != np.float32:
        x, y = x.astype(np.float64), y.astype(np.float64)
    return power(x, y)


def _ldexp(x, y):
    # python-graphblas's ldexp takes bool and integers only: x * 2**y in as_float's type
    if x.dtype.kind == "f":
        raise TypeError(f"ldexp takes no float operands, got {x.dtype}")
    return np.ldexp(as_float(x), y.astype(np.int32))


# ---- unary.numpy: the ops not among gblas2d's unary ones ----
deg2rad = _float_unary("deg2rad", np.deg2rad)
degrees = _float_unary("degrees", np.degrees)
fabs = _float_unary("fabs", np.fabs)
rad2deg = _float_unary("rad2deg", np.rad2deg)
radians = _float_unary("radians", np.radians)
spacing = _float_unary("spacing", np.spacing)
reciprocal = UnaryOp("numpy.reciprocal", lambda x: np.reciprocal(_as_int8(x)))
sign = UnaryOp("numpy.sign", lambda x: np.sign(_as_int8(x)))
signbit = UnaryOp("numpy.signbit", np.signbit)
square = UnaryOp("numpy.square", np.square)

# ---- binary.numpy: the ops not among gblas2d's binary ones ----
arctan2 = _float_binary("arctan2", np.arctan2)
copysign = _float_binary("copysign", np.copysign)
hypot = _float_binary("hypot", np.hypot, commutative=True)
logaddexp = _float_binary("logaddexp", np.logaddexp, commutative=True)
logaddexp2 = _float_binary("logaddexp2", np.logaddexp2, commutative=True)
nextafter = _float_binary("nextafter", np.nextafter)
ldexp = BinaryOp("numpy.ldexp", _ldexp)
float_power = BinaryOp("numpy.float_power", _float_power)
# Division as numpy's: floor_divide keeps float types (binary.floordiv is integral), mod and
# remainder take the divisor's sign, fmod the dividend's.
floor_divide = BinaryOp("numpy.floor_divide", _floor_divide)
fmod = BinaryOp("numpy.fmod", np.fmod)
mod = BinaryOp("numpy.mod", np.mod)
remainder = BinaryOp("numpy.remainder", np.remainder)
gcd = BinaryOp("numpy.gcd", lambda x, y: np.gcd(_as_int8(x), _as_int8(y)), commutative=True)
lcm = BinaryOp("numpy.lcm", lambda x, y: np.lcm(_as_int8(x), _as_int8(y)), commutative=True)
left_shift = BinaryOp("numpy.left_shift", np.left_shift)
right_shift = BinaryOp("numpy.right_shift", np.right_shift)
# nan wins, where binary.max and binary.min (numpy's fmax and fmin) skip it
maximum = BinaryOp("numpy.maximum", np.maximum, commutative=True)
minimum = BinaryOp("numpy.minimum", np.minimum, commutative=True)


# ---- monoid.numpy: the monoids not among gblas2d's monoids ----
class _NumpyMonoid(Monoid):
    """A monoid of the numpy op ``binaryop`` that takes only the kinds of types python-graphblas
    gives it an identity for (``kinds``, numpy's dtype kinds: ``"f"`` is FP32 and FP64); it
    raises TypeError for the others, so operations refuse them. It becomes
    ``binaryop.monoid``."""

    def __init__(self, binaryop, ufunc, identity, kinds):
        super().__init__(binaryop.name, binaryop, identity, ufunc=ufunc)
        self.kinds = kinds
        binaryop.monoid = self

    def output_type(self, dtype):
        t = lookup_dtype(dtype) if self.type is None else self.type
        if t.np_type.kind not in self.kinds:
            raise TypeError(f"{self.name} does not work with {t}")
        return super().output_type(dtype)


def _type_max(dtype):
    kind = dtype.np_type.kind
    return np.inf if kind == "f" else True if kind == "b" else np.iinfo(dtype.np_type).max


def _type_min(dtype):
    kind = dtype.np_type.kind
    return -np.inf if kind == "f" else False if kind == "b" else np.iinfo(dtype.np_type).min


gcd_monoid = _NumpyMonoid(gcd, np.gcd, 0, "iu")
hypot_monoid = _NumpyMonoid(hypot, np.hypot, 0, "f")
logaddexp_monoid = _NumpyMonoid(logaddexp, np.logaddexp, -np.inf, "f")
logaddexp2_monoid = _NumpyMonoid(logaddexp2, np.logaddexp2, -np.inf, "f")
maximum_monoid = _NumpyMonoid(maximum, np.maximum, _type_min, "biuf")
minimum_monoid = _NumpyMonoid(minimum, np.minimum, _type_max, "biuf")


# ---- the namespaces: {numpy name: op, or the name of gblas2d's builtin op (a str)} ----
_UNARY = {
    "abs": "abs", "absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin",
    "arcsinh": "asinh", "arctan": "atan", "arctanh": "atanh", "bitwise_not": "bnot",
    "cbrt": "cbrt", "ceil": "ceil", "cos": "cos", "cosh": "cosh", "deg2rad": deg2rad,
    "degrees": degrees, "exp": "exp", "exp2": "exp2", "expm1": "expm1", "fabs": fabs,
    "floor": "floor", "invert": "bnot", "isfinite": "isfinite", "isinf": "isinf",
    "isnan": "isnan", "log": "log", "log10": "log10", "log1p": "log1p", "log2": "log2",
    "logical_not": "lnot", "negative": "ainv", "positive": "identity", "rad2deg": rad2deg,
    "radians": radians, "reciprocal": reciprocal, "rint": "round", "sign": sign,
    "signbit": signbit, "sin": "sin", "sinh": "sinh", "spacing": spacing, "sqrt": "sqrt",
    "square": square, "tan": "tan", "tanh": "tanh", "trunc": "trunc",
}
_BINARY = {
    "add": "plus", "arctan2": arctan2, "bitwise_and": "band", "bitwise_or": "bor",
    "bitwise_xor": "bxor", "copysign": copysign, "divide": "truediv", "equal": "eq",
    "float_power": float_power, "floor_divide": floor_divide, "fmax": "max", "fmin": "min",
    "fmod": fmod, "gcd": gcd, "greater": "gt", "greater_equal": "ge", "hypot": hypot, "lcm": lcm,
    "ldexp": ldexp, "left_shift": left_shift, "less": "lt", "less_equal": "le",
    "logaddexp": logaddexp, "logaddexp2": logaddexp2, "logical_and": "land",
    "logical_or": "lor", "logical_xor": "lxor", "maximum": maximum, "minimum": minimum,
    "mod": mod, "multiply": "times", "nextafter": nextafter, "not_equal": "ne", "power": "pow",
    "remainder": remainder, "right_shift": right_shift, "subtract": "minus",
    "true_divide": "truediv",
}
_MONOID = {
    "add": "plus", "bitwise_and": "band", "bitwise_or": "bor", "bitwise_xor": "bxor",
    "equal": "eq", "fmax": "max", "fmin": "min", "gcd": gcd_monoid, "hypot": hypot_monoid,
    "logaddexp": logaddexp_monoid, "logaddexp2": logaddexp2_monoid, "logical_and": "land",
    "logical_or": "lor", "logical_xor": "lxor", "maximum": maximum_monoid,
    "minimum": minimum_monoid, "multiply": "times",
}


def _pairs(monoids, binaryops):
    return {f"{m}_{b}" for m in monoids.split() for b in binaryops.split()}


_FLOAT_BINARY = "arctan2 copysign divide float_power hypot ldexp logaddexp2 logaddexp nextafter " \
                "true_divide"
_COMPARISONS = "equal greater greater_equal less less_equal not_equal"
# python-graphblas's semiring.numpy: every monoid with every binary op but those that work on
# no type (an integer op under a float monoid, a float op under an integer one, ...).
_NO_TYPE = (_pairs("equal hypot logaddexp logaddexp2", "gcd lcm left_shift right_shift")
            | _pairs("bitwise_and bitwise_or bitwise_xor equal gcd", _FLOAT_BINARY)
            | _pairs("hypot logaddexp logaddexp2", "bitwise_and bitwise_or bitwise_xor")
            | _pairs("equal", "floor_divide fmod mod power remainder subtract")
            | _pairs("gcd hypot logaddexp logaddexp2", _COMPARISONS))
_SEMIRINGS = {f"{m}_{b}": (m, b) for m in _MONOID for b in _BINARY
              if f"{m}_{b}" not in _NO_TYPE}


class _NumpySemiring(Semiring):
    """A semiring of ``semiring.numpy`` that gblas2d's ``semiring`` module lacks; it pickles as
    ``attribute``, its numpy name."""

    def __init__(self, name, monoid, binaryop, attribute):
        super().__init__(name, monoid, binaryop)
        self.attribute = attribute

    def __reduce__(self):
        return _read_semiring, (self.attribute, self.type and self.type.name)


def _read_semiring(attribute, type_name):
    op = getattr(semiring_namespace, attribute)
    return op[type_name] if type_name else op


# The semirings made, by name: numpy's aliases (divide, true_divide) give one semiring.
_made = {}


def _make_semiring(attribute):
    # python-graphblas's semiring of these parts: gblas2d's builtin if it has one, else a new
    # semiring named after the parts' names (numpy's spelled without "numpy.").
    add = getattr(monoid_namespace, _SEMIRINGS[attribute][0])
    multiply = getattr(binary_namespace, _SEMIRINGS[attribute][1])
    name = f"{add.name.removeprefix('numpy.')}_{multiply.name.removeprefix('numpy.')}"
    if "numpy." in add.name + multiply.name:
        name = f"numpy.{name}"
    builtin = getattr(_catalogue("semiring"), name, None)
    if isinstance(builtin, Semiring) and builtin.monoid is add and builtin.binaryop is multiply:
        return builtin
    if name not in _made:
        _made[name] = _NumpySemiring(name, add, multiply, attribute)
    return _made[name]


def semiring_of(add, multiply):
    """The semiring of ``semiring.numpy`` that joins the Monoid ``add`` and the BinaryOp
    ``multiply``, or None."""
    for attribute, (add_name, multiply_name) in _SEMIRINGS.items():
        if getattr(monoid_namespace, add_name) is add and \
                getattr(binary_namespace, multiply_name) is multiply:
            return getattr(semiring_namespace, attribute)
    return None


def _catalogue(kind):
    # The catalogue module (unary, binary, ...) imports this one, so it is found when needed.
    return importlib.import_module(f"{__package__}.{kind}")


class _Namespace(types.ModuleType):
    """One numpy namespace, a module as python-graphblas's (``gb.binary.numpy``): the ops of
    ``table`` ({numpy name: op, or the name of a builtin op of ``kind``}) by numpy name, each
    read when first asked for (a builtin from its module; ``make(name)`` makes it if given)."""

    def __init__(self, kind, table, make=None):
        super().__init__(f"gblas2d.{kind}.numpy", f"python-graphblas's {kind}.numpy namespace")
        self.__all__ = sorted(table)
        self._kind = kind
        self._table = table
        self._make = make

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._table:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        if self._make is not None:
            op = self._make(name)
        else:
            entry = self._table[name]
            op = getattr(_catalogue(self._kind), entry) if isinstance(entry, str) else entry
        # kept as an attribute: the next read does not come here
        setattr(self, name, op)
        return op

    def __dir__(self):
        return list(self.__all__)


unary_namespace = _Namespace("unary", _UNARY)
binary_namespace = _Namespace("binary", _BINARY)
monoid_namespace = _Namespace("monoid", _MONOID)
semiring_namespace = _Namespace("semiring", _SEMIRINGS, _make_semiring)
