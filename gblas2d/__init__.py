"""gblas2d: a GraphBLAS-style sparse linear-algebra engine, 2D-distributed over MPI ranks.

The public API is a subset of python-graphblas::

    import gblas2d as gb
    from gblas2d import semiring, monoid
    A = gb.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n)
    y = A.mxv(x, semiring.min_plus).new()

The same script runs on one process and under ``mpiexec -n P``.
"""

import sys

# binary, dtypes, indexunary, monoid, op, select, semiring and unary are the op and type
# namespaces at python-graphblas's paths (gblas2d/binary.py, ...); each reads its names from
# gblas2d.semirings, where the ops are defined. timing: engines timed fairly.
from . import (
    binary,
    dtypes,
    exceptions,
    indexunary,
    io,
    monoid,
    op,
    select,
    semiring,
    timing,
    unary,
)
from .distributed.comm import recording, set_debug, stats
from .distributed.grid import Grid, default_grid, set_default_grid
from .distributed.products import trace
from .distributed.tracing import iteration, trace_all
from .io import generators
from .local import backends
from .surface import agg
from .surface.config import config
from .surface.expr import Mask, MatrixExpression, ScalarExpression, VectorExpression, replace
from .surface.matrix import Matrix
from .surface.recorder import Recorder
from .surface.scalar import Scalar
from .surface.vector import Vector

# the names client code imports from python-graphblas's graphblas.core (gblas2d/core/), which
# re-exports the classes above
from . import core  # isort: skip

# The generators live with the other I/O (gblas2d/io/) and keep their import path:
# ``import gblas2d.generators`` finds this very module (one module object, not a copy).
sys.modules[f"{__name__}.generators"] = generators

__version__ = "0.1.0"

__all__ = [
    "Grid", "Mask", "Matrix", "MatrixExpression", "Recorder", "Scalar", "ScalarExpression",
    "Vector", "VectorExpression", "agg", "backends", "binary", "config", "core", "default_grid",
    "dtypes", "exceptions", "generators", "indexunary", "io", "iteration", "monoid", "op",
    "recording", "replace", "select", "semiring", "set_debug", "set_default_grid", "stats",
    "timing", "trace", "trace_all", "unary",
]
