"""A user's function, written as python-graphblas users write it or vectorized: called on arrays.

python-graphblas compiles a function of scalars with numba (``lambda x, y: x if x < y else
y``); gblas2d's ops have always taken vectorized functions of whole arrays (``lambda x, y:
np.abs(x - y)``). A ``UserFunction`` takes either, and tells them apart once for each type of
its inputs: it calls the function on a sample of two values of that type. One that answers with
two values (or one value for all) is vectorized and is called as it is, on every array. One that
raises (``x if x < y else y`` asks for the truth of an array) or answers otherwise is a function
of scalars: numba compiles it into an array kernel (``numba.vectorize``). Either way the result
type follows python-graphblas's rule (an integer result of integers, or a float result of
floats, keeps the input's type: ``x + 1`` on INT8 stays INT8, ``x + 1`` on BOOL is INT8), so an
op gives the same types on both engines. A function marked ``any_arrays`` takes any array
module's arrays (a device's) and is called as it is, without a sample.

Measured on 10^6 float64 pairs (this machine, best of 9): a user's vectorized ``np.fmin``
takes 0.36 ms, the compiled ``x if x < y else y`` 0.41 ms, once compiled for the input type
(0.4 s for a process's first function, numba's own start included; 0.06 s for the next). Telling
them apart costs one call on the sample per input type; a call after that, 1 us more than the
function's own.

>>> lesser = UserFunction(lambda x, y: x if x < y else y)
>>> lesser(np.array([3, 1, 4]), np.array([2, 7, 1]))
array([2, 1, 1])
>>> lesser.vectorized(np.dtype(np.int64), np.dtype(np.int64))
False
"""

import warnings

import numpy as np

__all__ = ["UserFunction", "index_unary_arguments"]


def _key(args):
    """What the kernel depends on: each argument's dtype, and whether it is an array (an
    index-unary op's thunk is a scalar)."""
    return tuple(None if a is None else (np.asarray(a).dtype if not hasattr(a, "dtype")
                                         else a.dtype, np.ndim(a) > 0) for a in args)


def _sample(key):
    """Two values of each array argument's type (one of each scalar's): 1 and 2."""
    return [None if k is None else
            np.array([1, 2]).astype(k[0]) if k[1] else k[0].type(1) for k in key]


def _quietly(func, args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args)


class UserFunction:
    """``func`` (of scalars or of arrays) as a function of arrays: see the module docstring.

    Parameters
    ----------
    func : callable
        The user's function; kept as ``orig_func`` (python-graphblas's name for it).
    name : str, optional
        The op's name, which errors give; default the function's.
    scalar_arguments : callable(*arrays) -> arrays, optional
        What the compiled function of scalars is given in place of the arguments, as
        python-graphblas gives them (``index_unary_arguments``).
    """

    def __init__(self, func, name=None, scalar_arguments=None):
        self.orig_func = func
        self.__name__ = name or getattr(func, "__name__", "anonymous")
        self._scalar_arguments = scalar_arguments
        self._kernels = {}

    @property
    def any_arrays(self):
        """Whether the function takes any array module's arrays (a device's too)."""
        return getattr(self.orig_func, "any_arrays", False)

    def __call__(self, *args):
        key = _key(args)
        found = self._kernels.get(key)
        if found is None:
            found = self._kernels[key] = self._kernel(key)
        return found[0](*args)

    def vectorized(self, *dtypes):
        """Whether the function is called on whole arrays of ``dtypes`` (else compiled)."""
        key = tuple((np.dtype(t), True) for t in dtypes)
        if key not in self._kernels:
            self._kernels[key] = self._kernel(key)
        return self._kernels[key][1]

    def _kernel(self, key):
        """(the array kernel for arguments of ``key``, whether it is the function itself)."""
        if self.any_arrays:
            return self.orig_func, True
        try:
            out = _quietly(self.orig_func, _sample(key))
        except Exception as exc:  # a function of scalars, which arrays made fail
            return self._compiled(key, exc), False
        if np.shape(out) in ((), (2,)):
            return _typed(self.orig_func, key, np.asarray(out).dtype), True
        return self._compiled(key, TypeError(f"it returned {type(out).__name__} of shape "
                                             f"{np.shape(out)} for two values")), False

    def _compiled(self, key, failure):
        """The function compiled by numba for the types of ``key``. ``failure``: why it is
        not vectorized, for the error if numba cannot compile it either."""
        types = ", ".join(str(k[0]) for k in key if k is not None)
        why = f"on arrays of {types} it raised {type(failure).__name__}: {failure}"
        try:
            import numba
        except ImportError:
            raise TypeError(f"{self.__name__} is a function of scalars ({why}); compiling it "
                            "into an array kernel needs numba (pip install numba)") from failure
        compiled = numba.vectorize(self.orig_func)
        convert = self._scalar_arguments
        kernel = compiled if convert is None else lambda *args: compiled(*convert(*args))
        try:
            result = _quietly(kernel, _sample(key)).dtype
        except Exception as exc:  # numba's typing errors, and the function's own
            reason = str(exc).strip().splitlines()[0]
            raise TypeError(f"{self.__name__} is neither a function of arrays ({why}) nor one "
                            f"of scalars numba can compile for {types} ({reason})") from failure
        return _typed(kernel, key, result)


def index_unary_arguments(x, row, col, thunk):
    """An index-unary op's arguments as python-graphblas gives a function of scalars: the
    positions as UINT64 (GraphBLAS's GrB_Index, so ``row - col`` wraps around below zero),
    the thunk in the values' type."""
    return x, row.astype(np.uint64), col.astype(np.uint64), x.dtype.type(thunk)


def _typed(kernel, key, result):
    """``kernel``, whose result on arguments of ``key`` is of type ``result``, giving
    python-graphblas's result type instead (``_result_type``): itself where the two agree."""
    first = next(k[0] for k in key if k is not None)
    sample = _sample(key)

    def result_for(dtype):
        # the result type for inputs of ``dtype`` in place of ``first``'s
        typed = [np.asarray(s).astype(dtype) if k is not None and k[1] and k[0] == first
                 else s for s, k in zip(sample, key, strict=True)]
        return _result_type(dtype, np.asarray(_quietly(kernel, typed)).dtype, result_for)

    out = _result_type(first, result, result_for)
    if out == result:
        return kernel

    def call(*args):
        return np.asarray(kernel(*args)).astype(out, copy=False)

    return call


def _result_type(given, result, result_for):
    """python-graphblas's result type of a function of ``given`` whose own result (numba's or
    numpy's) is ``result``: an integer result of integers, a float of floats, keeps ``given``
    (numba widens ``x + 1`` on INT8 to int64); on UINT64 a float result keeps it where the function
    keeps INT64 (numba's uint64 + int64 is a float); on BOOL an int64 result is INT8 where the
    function keeps INT8. ``result_for(dtype)``: the result type, by this rule, for inputs of
    another type."""
    given = np.dtype(given)
    if result == given:
        return result
    if given.kind in "iu" and result.kind in "iu" or given.kind == result.kind == "f":
        return given
    if given == np.uint64 and result == np.float64 and result_for(np.int64) == np.int64:
        return given
    if given == np.bool_ and result == np.int64 and result_for(np.int8) == np.int8:
        return np.dtype(np.int8)
    return result
