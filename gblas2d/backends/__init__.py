"""Local kernels, one module per backend behind one interface.

The 2D layer (grid, exchange, products) decides what moves where; a backend does the arithmetic
on one block and one vector segment, arrays in and arrays out, and never communicates:

``spmv(block, x, semiring, *, orient, x_first, direction, allowed, out_offset, in_offset)``
    the local masked product of ``_products.mxv_compute``; returns sorted output positions and
    their values.
``ewise_block(a, b, binop, kind, in_types, out_type, defaults)``
    an element-wise op of two blocks ("mult", "add" or "union"); returns a Block, or sorted
    keys (row * ncols + col) and values.
``spgemm(a, b, semiring, a_dtype, b_dtype, *, a_row_offset, inner_offset, mask)``
    the local product of block ``a`` and the CSR ``b = (ptr, cols, values, ncols)`` of B's rows
    over ``a``'s columns, as a Block; ``mask`` (a ``BlockMask`` aligned with the output, or
    None) may be taken into the product, which the result's ``within_mask`` then says.
``write_block(c, t, mask, accum, replace, dtype)``
    GraphBLAS's write ``C<M, replace> = accum(C, T)`` of block ``t`` into block ``c``, as a new
    Block of ``dtype`` (``mask`` a ``BlockMask`` or None).
``select_values(block, op, thunk)``
    the entries of a block whose value passes a select op that reads no positions, as a new
    Block.
``transpose_block(block)``
    the transpose of a block that is the whole matrix (one rank), as a new ``Block``.
``SCIPY_DENSE_PULL``
    whether an unmasked plus_times/first/second pull over a full vector should go to scipy's
    CSR product instead of ``spmv``.
``SMALL_PUSH``, ``small_push_in_numpy(block, orient)``
    pushes over fewer local edges than this go to the numpy backend (``for_product``) when
    ``small_push_in_numpy`` agrees.

Backends:

* ``numpy``: the reference, every semiring (user-defined and index-aware ops included).
* ``suitesparse``: SuiteSparse:GraphBLAS through python-graphblas for builtin semirings and
  types, with the engine's push/pull choice passed down as the saxpy/dot method; anything else
  goes to ``numpy``.

The default is ``suitesparse`` (python-graphblas is a dependency; without it, ``numpy``);
``GBLAS2D_BACKEND`` or ``set_backend`` chooses. Algorithms and the comm layer never see which
backend ran.
"""

import importlib
import os

__all__ = ["BACKENDS", "backend_name", "for_product", "get", "set_backend", "threads_per_rank"]

BACKENDS = ("numpy", "suitesparse")
_current = {}


def _available(name):
    if name == "suitesparse":
        return importlib.util.find_spec("graphblas") is not None
    return True


def set_backend(name):
    """Use the local kernels of backend ``name`` ("numpy" or "suitesparse") from now on.

    Local: call it on every rank, with the same name, between operations.
    """
    if name not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {name!r}")
    if not _available(name):
        raise ImportError(f"the {name!r} backend needs python-graphblas (a dependency of "
                          "gblas2d): pip install python-graphblas")
    _current["module"] = importlib.import_module(f"{__name__}.{name}")
    _current["name"] = name


def get():
    """The module of the backend in use."""
    if "module" not in _current:
        wanted = os.environ.get("GBLAS2D_BACKEND")
        if wanted:
            set_backend(wanted)
        else:
            set_backend("suitesparse" if _available("suitesparse") else "numpy")
    return _current["module"]


def for_product(direction, push_edges, block, orient):
    """The backend for one product: the one in use, or numpy for a push over fewer local edges
    than the backend's ``SMALL_PUSH``, where one call's overhead would cost more than the
    work, unless numpy would first have to build the storage that push reads."""
    module = get()
    if direction == "push" and push_edges < module.SMALL_PUSH and \
            module.small_push_in_numpy(block, orient):
        return importlib.import_module(f"{__name__}.numpy")
    return module


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
