"""A device that is the host: numpy arrays behind cupy's rules, so the array backend's device
code runs, and fails as it would on a GPU, on a machine without one.

An ``Array`` holds a numpy array as a device array holds its memory. As with cupy:

* nothing turns it into a numpy array implicitly: ``np.asarray``, an MPI buffer or pickling
  raise TypeError; ``get()`` (``device.to_host``) is the copy up;
* numpy's functions and ufuncs dispatch to the device module when given its arrays
  (NEP 18 and NEP 13), and raise TypeError when they mix them with numpy arrays;
* ``xp.asarray`` of a numpy array raises TypeError here, where cupy would copy silently: every
  copy down goes through ``device.to_device``, which counts it;
* a reduction gives a 0-d array, not a Python number: ``int()`` reads it (a sync on a GPU).

``xp`` is the module's twin, ``sparse`` cupyx.scipy.sparse's (the CSR and COO matrices and
their products, as scipy.sparse runs them).
"""

import numbers

import numpy as np
import scipy.sparse
from numpy.lib.mixins import NDArrayOperatorsMixin

__all__ = ["Array", "sparse", "xp"]


def _mixing(value):
    return TypeError(f"a numpy array ({type(value).__name__}, shape {value.shape}) mixed with "
                     "device arrays: copy it with device.to_device first")


def _unwrap(value):
    """The numpy arrays under device arrays, in ``value`` and the lists and tuples in it."""
    if isinstance(value, Array):
        return value.a
    if isinstance(value, np.ndarray):
        raise _mixing(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_unwrap(v) for v in value)
    return value


def _run(func, args, kwargs):
    """``func`` on the numpy arrays under ``args`` and ``kwargs``, its results on the
    device."""
    return _wrap(func(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()}))


def _on_device(func):
    """``func`` as the device has it: device arrays in, device arrays out."""
    return lambda *args, **kwargs: _run(func, args, kwargs)


def _wrap(value):
    """Results on the device: arrays, numpy scalars as 0-d arrays, tuples of them."""
    if isinstance(value, np.ndarray):
        return Array(value)
    if isinstance(value, np.generic):
        return Array(np.asarray(value))
    if isinstance(value, tuple):
        return tuple(_wrap(v) for v in value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class Array(NDArrayOperatorsMixin):
    """A device array (the module docstring): its numpy array is ``a``, read only here."""

    __slots__ = ("a",)

    def __init__(self, a):
        self.a = a

    # ---- what cupy refuses ----
    def __array__(self, *args, **kwargs):
        raise TypeError("Implicit conversion to a NumPy array is not allowed: "
                        "use device.to_host (cupy's .get())")

    def __reduce__(self):
        raise TypeError("a device array is not pickled: copy it to the host first")

    def __iter__(self):
        raise TypeError("iterating over a device array reads it element by element: "
                        "copy it to the host first")

    # ---- dispatch (NEP 13, NEP 18) ----
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _run(ufunc if method == "__call__" else _ufunc_method(ufunc, method), inputs,
                    kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _run(_refused(func), args, kwargs)

    # ---- the ndarray interface the kernels use ----
    def __getitem__(self, key):
        return _wrap(self.a[_unwrap(key)])

    def __setitem__(self, key, value):
        self.a[_unwrap(key)] = _unwrap(value)

    def __len__(self):
        return len(self.a)

    def __int__(self):
        return int(self.a)

    def __float__(self):
        return float(self.a)

    def __bool__(self):
        return bool(self.a)

    def __repr__(self):
        return f"emulated.Array({self.a!r})"

    shape = property(lambda self: self.a.shape)
    dtype = property(lambda self: self.a.dtype)
    size = property(lambda self: self.a.size)
    ndim = property(lambda self: self.a.ndim)
    nbytes = property(lambda self: self.a.nbytes)

    def get(self):
        """The copy on the host (cupy's ``ndarray.get``)."""
        return self.a.copy()

    def item(self):
        return self.a.item()

    def __getattr__(self, name):
        if name not in _METHODS:
            raise AttributeError(f"the emulated device array has no {name!r}")
        return _on_device(getattr(self.a, name))


# The ndarray methods the emulated arrays have (cupy's have them too).
_METHODS = frozenset({"all", "any", "argmax", "argmin", "argsort", "astype", "copy", "cumsum",
                      "fill", "max", "min", "nonzero", "prod", "ravel", "reshape", "sort",
                      "sum", "view"})


# What cupy's ufuncs do beyond a call: ``outer`` for all, ``at`` for a few (cupy's documents
# add, maximum and minimum; the bitwise ones ran on the H200), and no ``reduce``,
# ``accumulate`` or ``reduceat``.
_AT = frozenset({"add", "maximum", "minimum", "bitwise_or", "bitwise_and", "bitwise_xor"})


def _ufunc_method(ufunc, method):
    """``ufunc.method`` as the device has it, or the TypeError cupy would give."""
    if method == "outer" or method == "at" and ufunc.__name__ in _AT:
        return getattr(ufunc, method)
    raise TypeError(f"the device's {ufunc.__name__} has no {method!r} (cupy's ufuncs have "
                    f"no reduce, accumulate or reduceat, and 'at' only for {sorted(_AT)})")


class _Ufunc:
    """A ufunc of the device module: called, or through ``at`` and ``outer``."""

    def __init__(self, ufunc):
        self.ufunc = ufunc

    def __call__(self, *args, **kwargs):
        return _run(self.ufunc, args, kwargs)

    def __getattr__(self, method):
        return _on_device(_ufunc_method(self.ufunc, method))


class _Module:
    """numpy's functions as the device module has them: results on the device, and the
    creation functions (zeros, arange, ...) make device arrays."""

    def __init__(self):
        self.ndarray = Array

    def __getattr__(self, name):
        value = getattr(np, name)
        if isinstance(value, np.ufunc):
            return _Ufunc(value)
        if isinstance(value, (type, numbers.Number)) or not callable(value):
            return value  # dtypes, constants, ``newaxis``
        if name == "asarray" or name == "array":
            return _asarray
        return _on_device(_refused(value))


def _refused(func):
    """``func``, or in its place one that raises where cupy's twin has no such call: ``repeat``
    by an array of counts."""
    if func is not np.repeat:
        return func

    def repeat(a, repeats, *args, **kwargs):
        if np.ndim(repeats):
            raise TypeError("the device's repeat takes one count, not an array of them")
        return np.repeat(a, repeats, *args, **kwargs)

    return repeat


def _asarray(value, dtype=None, **kwargs):
    if isinstance(value, np.ndarray):
        raise TypeError("xp.asarray of a numpy array copies it to the device unseen: use "
                        "device.to_device")
    if isinstance(value, Array):
        return value if dtype is None else value.astype(dtype, copy=False)
    return Array(np.asarray(value, dtype=dtype, **kwargs))


xp = _Module()
Array.gblas2d_array_module = xp  # how ``array_module`` finds the module of these arrays


class Matrix:
    """A sparse matrix of the device's sparse module: CSR or COO, products with device
    vectors and other matrices."""

    def __init__(self, m):
        self.m = m

    def __matmul__(self, other):
        if isinstance(other, Matrix):
            return Matrix(self.m @ other.m)
        return _wrap(self.m @ _unwrap(other))

    def tocsr(self):
        return Matrix(self.m.tocsr())

    def tocoo(self):
        return Matrix(self.m.tocoo())

    shape = property(lambda self: self.m.shape)

    def __getattr__(self, name):
        if name not in ("data", "indices", "indptr", "row", "col"):
            raise AttributeError(name)
        return Array(getattr(self.m, name))


class _Sparse:
    """cupyx.scipy.sparse's twin: matrices from device arrays."""

    @staticmethod
    def csr_matrix(arg, shape):
        return Matrix(scipy.sparse.csr_matrix(_unwrap(arg), shape=shape))

    @staticmethod
    def coo_matrix(arg, shape):
        return Matrix(scipy.sparse.coo_matrix(_unwrap(arg), shape=shape))


sparse = _Sparse()
