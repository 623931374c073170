"""Local kernels, one module per backend behind one interface, and the plan that picks one.

The 2D layer (grid, exchange, products) decides what moves where; a backend does the arithmetic
on one block and one vector segment, arrays in and arrays out, and never communicates.
``plan(kernel, *args, **kwargs)`` is the one place a kernel is chosen; ``run`` plans and calls.
The kernels, each with the same arguments in every backend:

``spmv(block, x, semiring, *, orient, x_first, direction, allowed, out_offset, in_offset,
out_dtype)``
    the local masked product of ``distributed.products.MatVec``; returns a ``Piece`` over the
    block's outputs, values of ``out_dtype``: a list (``Piece.listed``) or, where the backend
    made one, a bitmap or full piece, which the product keeps when it folds nothing.
``ewise_block(a, b, binop, kind, in_types, out_type, defaults)``
    an element-wise op of two blocks ("mult", "add" or "union"); returns a Block, or sorted
    keys (row * ncols + col) and values.
``spgemm(a, b, semiring, a_dtype, b_dtype, *, a_row_offset, inner_offset, mask, b_block)``
    the local product of block ``a`` and the CSR ``b = (ptr, cols, values, ncols)`` of B's rows
    over ``a``'s columns, as a Block; ``mask`` (a ``BlockMask`` aligned with the output, or
    None) may be taken into the product, which the result's ``within_mask`` then says.
    ``b_block``: the Block whose storage ``b`` is, when it is a whole block's (the backend may
    use its own copy of it), else None.
``write_block(c, t, mask, accum, replace, dtype)``
    GraphBLAS's write ``C<M, replace> = accum(C, T)`` of block ``t`` into block ``c``, as a new
    Block of ``dtype`` (``mask`` a ``BlockMask`` or None).
``assign_region(block, rows, cols, value, value_type, accum, dtype)``
    ``C(rows, cols) = accum(C(rows, cols), s)`` for the scalar ``value`` of ``value_type`` and
    sorted unique block-local ``rows`` and ``cols``, as a new Block of ``dtype``.
``assign_masked(block, mask, value, value_type, accum, dtype)``
    ``C<M> = accum(C, s)`` for the scalar ``value`` of ``value_type`` and a plain ``BlockMask``,
    as a new Block of ``dtype``.
``select_values(block, op, thunk)``
    the entries of a block whose value passes a select op that reads no positions, as a new
    Block.
``select_positions(block, op, thunk)``
    the entries of a block whose block-local position passes a builtin position test
    (``tril``, ``rowle``, ...) with ``thunk``, already moved to block-local positions.
``transpose_block(block)``
    the transpose of a block that is the whole matrix (one rank), as a new ``Block``.
``reduce_rows(block, monoid, out_dtype, *, bitmap)``
    each row with entries and its fold, (sorted rows, values of ``out_dtype``), in
    SuiteSparse's one-thread order (``bitmap``: the order of a matrix it holds as a bitmap).
``reduce_cols(block, monoid, out_dtype)``
    each column with entries and its fold, (sorted columns, values of ``out_dtype``).
``reduce_block(block, monoid, lanes, stop)``
    the fold of all the block's values (None without any), in SuiteSparse's lanes where
    ``lanes`` says so (``OrderedMonoid.in_lanes``), read only as far as ``stop`` needs.

Some backends have a kernel that others do without, which ``offered`` gives where they take the
arguments: ``extract_block(block, rows, cols)``, ``A[rows, cols]`` of a block that is the whole
matrix (one rank), each index a ``range`` or an int64 array, as a new Block.

A Vector's piece has two kernels, ``write_piece(c, t, mask, accum, replace, *, t_masked)``
(GraphBLAS's write on pieces, returning a ``piece.Write``) and ``ewise_piece(a, b, binop,
kind, in_types, out_type, defaults)``; ``piece_kernel(name)`` gives the one in use. A backend
defines them to hold pieces its own way; numpy's are ``piece.write`` and ``piece.ewise``.
Apply and select on pieces and blocks run the op's ``evaluate``, which takes either array
module's arrays (``semirings/_arrays.py``).

And what the plan asks of each backend:

``accepts(kernel, *args, **kwargs)``
    whether it runs ``kernel`` on these arguments; what it does not goes to numpy.
``held_bytes(block)``
    the bytes of its own copy of a block, for the memory figures (``backends.held_bytes``).
``adopt(block)``
    take a new block's arrays over as the backend's own copy, where it can without copying
    (``backends.adopt``), so a block is held once.
``SCIPY_DENSE_PULL``
    whether an unmasked plus_times/first/second pull should go to scipy's CSR product
    (numpy's ``spmv_scipy``) instead of this backend's ``spmv``.
``SMALL_PUSH``, ``small_push_in_numpy(block, orient)``
    pushes over fewer local edges than this go to numpy when ``small_push_in_numpy`` agrees.

Backends:

* ``numpy``: the reference, every semiring (user-defined and index-aware ops included); a
  BFS level's small push runs as a loop numba compiles (``compiled.py``) on large blocks.
* ``suitesparse``: SuiteSparse:GraphBLAS through python-graphblas for builtin semirings and
  types, with the engine's push/pull choice passed down as the saxpy/dot method.
* ``array`` and ``cupy``: one module (``array.py``) written against an array module, run with
  numpy and scipy on the host or with cupy on a CUDA device (``device.py``): products, with
  the other kernels left to numpy.

The default is ``suitesparse`` (python-graphblas is a dependency; without it, ``numpy``);
``GBLAS2D_BACKEND`` or ``set_backend`` chooses. Algorithms and the comm layer never see which
backend ran.
"""

import importlib
import os
import sys

import numpy as np

from ...semirings.dtypes import lookup_dtype
from .. import device
from . import numpy as reference

__all__ = ["BACKENDS", "PIECE_KERNELS", "adopt", "available", "backend_name", "device", "get",
           "held_bytes", "piece_kernel", "plan", "run", "set_backend", "threads_per_rank",
           "vector_module"]

BACKENDS = ("numpy", "suitesparse", "array", "cupy")
PIECE_KERNELS = ("write_piece", "ewise_piece")
_current = {}


def _available(name):
    if name == "suitesparse":
        return importlib.util.find_spec("graphblas") is not None
    if name == "cupy":
        return importlib.util.find_spec("cupy") is not None
    return True


def set_backend(name):
    """Use the local kernels of backend ``name`` (one of ``BACKENDS``) from now on: "array"
    is the array backend on the host, "cupy" the same kernels on a CUDA device.

    Local: call it on every rank, with the same name, between operations.
    """
    if name not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {name!r}")
    if not _available(name):
        raise ImportError(_NEEDS[name])
    module = importlib.import_module(f"{__name__}.{'array' if name == 'cupy' else name}")
    if module.__name__.endswith(".array"):
        module.use("cupy" if name == "cupy" else "host")
    _current["module"] = module
    _current["name"] = name
    _current["device"] = name in ("array", "cupy")  # whose pieces may be on a device
    _current["pieces"] = {kernel: getattr(module, kernel, getattr(reference, kernel))
                          for kernel in PIECE_KERNELS}


_NEEDS = {"suitesparse": "the 'suitesparse' backend needs python-graphblas (a dependency of "
                         "gblas2d): pip install python-graphblas",
          "cupy": "the 'cupy' backend needs CuPy and a CUDA device: pip install 'gblas2d[gpu]'"}


def available():
    """The backends this process can run: ``BACKENDS`` less those whose library is missing."""
    return tuple(name for name in BACKENDS if _available(name))


def get():
    """The module of the backend in use."""
    if "module" not in _current:
        wanted = os.environ.get("GBLAS2D_BACKEND")
        if wanted:
            set_backend(wanted)
        else:
            set_backend("suitesparse" if _available("suitesparse") else "numpy")
    return _current["module"]


def plan(kernel, *args, push_edges=0, **kwargs):
    """The function that runs local ``kernel`` (one of the module docstring's) on these
    arguments, the kernel's own: the backend in use when it accepts them, else numpy.
    ``push_edges`` is what a push ("spmv") reads, which the product has counted for its
    direction.

    Two exceptions, both measured: a push over fewer edges than the backend's ``SMALL_PUSH``
    runs in numpy, where one call's overhead would cost more than the work (unless numpy would
    first have to build the storage that push reads), and an unmasked plus_times, plus_first
    or plus_second pull goes to scipy's compiled CSR product where the backend says it is
    faster (``SCIPY_DENSE_PULL``).
    """
    chosen = get()
    if kernel == "spmv":
        block, x, semiring = args
        if kwargs["direction"] == "pull" and kwargs["allowed"] is None and \
                chosen.SCIPY_DENSE_PULL and _scipy_pulls(block, x, semiring, kwargs["x_first"]):
            return reference.spmv_scipy
        if kwargs["direction"] == "push" and push_edges < chosen.SMALL_PUSH and \
                chosen.small_push_in_numpy(block, kwargs["orient"]):
            return reference.spmv
    if not chosen.accepts(kernel, *args, **kwargs):
        chosen = reference
    return getattr(chosen, kernel)


def offered(kernel, *args):
    """The backend in use's ``kernel`` when it has one and accepts these arguments, else
    None: for work that has a general route of its own (a one-rank extract), which only some
    libraries can shorten."""
    chosen = get()
    if not hasattr(chosen, kernel) or not chosen.accepts(kernel, *args):
        return None
    return getattr(chosen, kernel)


def piece_kernel(kernel):
    """The function that runs piece ``kernel`` (one of ``PIECE_KERNELS``): the backend's own
    where it defines one, else numpy's. It is chosen with the backend, not per call as
    ``plan`` chooses: a BFS level writes a few pieces of a few entries, where a plan's 1.5 µs
    a call would cost as much as some of the writes."""
    get()
    return _current["pieces"][kernel]


def run(kernel, *args, push_edges=0, **kwargs):
    """``plan(kernel, ...)`` called on the same arguments: the kernel's result. A kernel of
    the host reads host memory: a product's operand or mask that a device kernel left on the
    device comes up first (``Piece.on_host``)."""
    chosen = plan(kernel, *args, push_edges=push_edges, **kwargs)
    if kernel == "spmv" and _current["device"] and chosen.__module__ != _ARRAY:
        block, x, semiring = args
        allowed = kwargs["allowed"]
        args = (block, x.on_host(), semiring)
        if allowed is not None:
            kwargs["allowed"] = allowed.on_host()
    return chosen(*args, **kwargs)


_ARRAY = f"{__name__}.array"


def _scipy_pulls(block, x, semiring, x_first):
    """Whether scipy's CSR product computes this pull (numpy's ``scipy_operand``)."""
    return reference.scipy_operand(semiring, lookup_dtype(block.dtype),
                                   lookup_dtype(x.dtype), x_first) is not None


def adopt(block):
    """Local. Let the backend in use take a new block's arrays over as its own copy of the
    block, with no copy (a Matrix installs each new block through here)."""
    get().adopt(block)


def held_bytes(block):
    """Local. The bytes ``block`` holds, by part: its entries ("csr"), what was derived from
    them ("rows", "csc", "scipy", "derived"), and each backend's own copy of it (by name).
    An array shared by several parts (a symmetric block's CSC is its CSR) counts once, in the
    first."""
    seen, held = set(), {}
    for part, arrays in block.arrays().items():
        held[part] = 0
        for array in arrays:
            key = (array.__array_interface__["data"][0], array.nbytes)
            if key not in seen:
                seen.add(key)
                held[part] += array.nbytes
    for name in BACKENDS:
        module = sys.modules.get(f"{__name__}.{name}") if name != "cupy" else None
        if module is not None:
            held[name] = module.held_bytes(block)
    return held


def vector_module():
    """The array module a new full vector's values are made with: the device's for the
    array backend (``array.vector_module``), numpy for the others."""
    made_by = getattr(get(), "vector_module", None)
    return np if made_by is None else made_by()


def backend_name():
    """The name of the backend in use."""
    get()
    return _current["name"]


def threads_per_rank():
    """SuiteSparse threads for this rank: ``GBLAS2D_THREADS`` if set, else the cores this
    process may use divided by the ranks on its node (read from the MPI launcher's
    environment, so no communication is needed)."""
    given = os.environ.get("GBLAS2D_THREADS")
    if given:
        return max(1, int(given))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    local = 1
    for var in ("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", "MV2_COMM_WORLD_LOCAL_SIZE"):
        if os.environ.get(var, "").isdigit():
            local = int(os.environ[var])
            break
    return max(1, (cores or 1) // max(local, 1))
