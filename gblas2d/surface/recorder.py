"""``gb.Recorder``: the public calls made inside it, each in GraphBLAS's words, with where the
user's code made it and the collectives it ran.

python-graphblas's Recorder lists the GraphBLAS C calls a script makes (``w(~v.S, replace=True)
<< A.mxv(v, semiring.any_pair)`` is ``GrB_mxv(w, v, NULL, GxB_ANY_PAIR_INT64, A, v,
GrB_DESC_RSC)``). gblas2d's lists its public
calls (a write ``w << expr``, an expression's ``new``, a constructor, a reading of values), one
line each: the file and line of the user's code that made it (the first frame outside
gblas2d's own modules; an algorithm of ``gblas2d.algorithms`` is user code), the GraphBLAS
operation with its output, mask, accumulator and replace flag left of ``<<`` as written in
python-graphblas (``w(~v.S, replace=True) << mxv(A, v, any_pair[INT64])``), its operands and
its op with a type (the op's own, else its operands' common type), and, for each
collective it ran on this rank: the operation, the grid group (``world``, ``row``, ``col``),
how many and the bytes received. It is the teaching view of the 2D engine: one write shows
its fold along grid rows (docs/getting-started.md's 3 x 3 example)::

    with gb.Recorder() as rec:
        y(accum=binary.plus) << A.mxv(x, semiring.plus_times)
    print(rec)
    # rank 0 at 1 x 2: script.py:7: y(accum=plus[FP64]) << mxv(A, x, plus_times[FP64]):
    # allreduce world x1 (32 B), alltoallv row x1 (40 B)

The world steps that only end a call or open a world collective (``agree``: docs/concepts.md,
"SPMD rules") are counted apart, as ``steps``. Recording is local, and costs nothing while no
Recorder records: each rank records what it took part in, and describing a call reads only
replicated facts (names, types, the stack), never communicating.
"""

import numbers

import numpy as np

from ..distributed import grid as _grid
from ..distributed.caller import user_frame, where
from ..semirings import binary, semiring
from ..semirings._base import Operator
from ..semirings.dtypes import unify
from .container import Container
from .expr import Mask, MatrixExpression, ScalarExpression, VectorExpression
from .infix import EwisePair, MatMul
from .matrix_views import MatrixIndexExpr, TransposedMatrix
from .scalar import Scalar
from .vector_views import VectorIndexExpr

__all__ = ["Recorder", "describe_call"]


class Recorder:
    """Record public calls and their collectives while recording (see the module docstring).

    Attributes
    ----------
    data : list of str
        One line per public call, in order.
    """

    def __init__(self, *, start=True):
        self.data = []
        if start:
            self.start()

    @property
    def is_recording(self):
        return self in _grid.recorders

    def start(self):
        if not self.is_recording:
            _grid.recorders.append(self)

    def stop(self):
        if self.is_recording:
            _grid.recorders.remove(self)

    def clear(self):
        self.data.clear()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def __repr__(self):
        return "\n".join(self.data) if self.data else "<gblas2d.Recorder: nothing recorded>"

    def record_call(self, name, args, kwargs, result, before, after):
        """Add the public call ``name(*args, **kwargs)`` that returned ``result`` (None if it
        raised), as ``file:line: what it did: its collectives`` (``grid.collective`` calls
        it for each outermost public call)."""
        frame = user_frame()
        try:
            what = describe_call(name, args, kwargs, result)
        except Exception:  # a line of a teaching aid must never fail the user's call
            what = name
        self.record(what if frame is None else f"{where(frame)}: {what}", before, after)

    def record(self, name, before, after):
        """Add the call ``name`` with the collectives between two ``CommStats.totals``
        snapshots."""
        parts, steps = [], 0
        for (op, group), row in sorted(after.items()):
            calls = row[0] - before.get((op, group), (0, 0, 0))[0]
            received = row[2] - before.get((op, group), (0, 0, 0))[2]
            if calls == 0:
                continue
            if op == "agree":
                steps += calls
            else:
                parts.append(f"{op} {group} x{calls} ({received:,} B)")
        what = ", ".join(parts) if parts else "no communication"
        if steps:
            what += f"; {steps} steps"
        self.data.append(f"{name}: {what}")


# The GraphBLAS operation of each expression method and public call whose name differs
# (python-graphblas's method names on the left); the others keep their own name (mxv, vxm,
# mxm, apply, select, reduce, extract, assign, transpose, kronecker, diag, build, ...).
_OPERATIONS = {
    "ewise_add": "eWiseAdd", "ewise_mult": "eWiseMult", "ewise_union": "eWiseUnion",
    "reduce_scalar": "reduce", "reduce_rowwise": "reduce", "reduce_columnwise": "reduce",
    "identity": "assign", "from_coo": "build", "from_dense": "build", "from_dict": "build",
    "from_dicts": "build", "from_pairs": "build", "from_scalar": "build",
    "from_edgelist": "build", "from_csr": "build", "from_csc": "build", "from_dcsr": "build",
    "from_dcsc": "build", "from_coo_chunks": "build", "from_vectors": "build",
    "to_coo": "extractTuples", "to_dense": "extractTuples", "to_dict": "extractTuples",
    "to_dicts": "extractTuples", "to_edgelist": "extractTuples", "to_csr": "extractTuples",
    "to_csc": "extractTuples", "to_dcsr": "extractTuples", "to_dcsc": "extractTuples",
    "__iter__": "extractTuples", "get": "extractElement", "__contains__": "extractElement",
    "__delitem__": "removeElement",
}
# The keyword under which an expression's argument is shown, where a position would not say
# (``apply(v, plus[INT64], right=1)``).
_KEYWORDS = {"apply": (None, None, "left", "right"),
             "ewise_union": (None, None, None, "left_default", "right_default")}
# The expressions that hold the output's value: what ``.new()`` or ``<<`` of them computes.
_EVALUATIONS = ("new", "wait", "_get_value")


def describe_call(name, args, kwargs, result):
    """A public call (``name``, its qualified name, with its arguments) in GraphBLAS's words:
    ``w(~v.S, replace=True) << mxv(A, q, any_pair[BOOL])`` for a write, ``extractTuples(w)``
    for a reading, ``v_0 << build(Vector.from_coo)`` for a constructor. Local: reads names
    and types only."""
    method = name.rsplit(".", 1)[-1]
    if method == "__lshift__" and args and hasattr(args[0], "parent"):
        value = _value(args[1])
        if getattr(args[0], "submask", False) and value.startswith("assign("):
            value = "sub" + value  # w[index](mask) << value: GxB_subassign
        return f"{_target(args[0])} << {value}"
    if method in _EVALUATIONS and args:  # an expression or a view computed
        mask = kwargs.get("mask")
        out = _name(result) if result is not None else "?"
        return f"{out}{'' if mask is None else f'({mask!r})'} << {_value(args[0])}"
    operation = _OPERATIONS.get(method, method)
    if args and isinstance(args[0], type):  # a classmethod: a constructor
        operands = name
    else:
        operands = ", ".join(_name(a) for a in (*args, *kwargs.values()) if _is_object(a))
    text = f"{operation}({operands})"
    if _is_object(result):
        return f"{_name(result)} << {text}"
    return text


def _target(updater):
    """The left side of ``<<``: ``w(mask, accum, replace=True, options)[index]``."""
    out = updater.parent
    parts = [repr(updater.mask)] if updater.mask is not None else []
    if updater.accum is not None:
        parts.append(f"accum={_op(updater.accum, out.dtype)}")
    if updater.replace:
        parts.append("replace=True")
    parts += [f"{key}={value}" for key, value in getattr(updater, "opts", {}).items()
              if value is not None]
    text = f"{_name(out)}({', '.join(parts)})" if parts else _name(out)
    if hasattr(updater, "index"):  # an Assigner: w(mask)[index], or w[index](mask)
        index = f"[{_index(updater.index)}]"
        text = f"{_name(out)}{index}({', '.join(parts)})" if updater.submask else \
            text + index
    return text


def _value(other):
    """The right side of ``<<``: an expression as its GraphBLAS operation, a lazy pair or
    view as the one it stands for, an object or a scalar as an assign of it."""
    if _is_expression(other):
        method = other.method_name
        operands = list(other.args)
        if method == "vxm":  # GrB_vxm(w, ..., u, A): the vector first
            operands[:2] = operands[1::-1]
        elif method == "reduce_columnwise":
            operands[0] = f"{_name(operands[0])}.T"
        keywords = _KEYWORDS.get(method, ())
        dtype = _operand_type(other.args, other.dtype)
        shown = [(f"{keywords[k]}={_shown(a, dtype)}" if k < len(keywords) and keywords[k]
                  else _shown(a, dtype)) for k, a in enumerate(operands) if a is not None]
        return f"{_OPERATIONS.get(method, method)}({', '.join(shown)})"
    if isinstance(other, (EwisePair, MatMul)):  # a | b, a & b, a @ b as they stand
        dtype = _operand_type((other.left, other.right), None)
        if isinstance(other, EwisePair):
            method, op = (("ewise_add", binary.lor) if other.kind == "add" else
                          ("ewise_mult", binary.land))
        else:
            shapes = len(other.left.shape), len(other.right.shape)
            method = {(2, 1): "mxv", (1, 2): "vxm", (2, 2): "mxm"}.get(shapes, "inner")
            op = semiring.plus_times
        return f"{_OPERATIONS.get(method, method)}({_name(other.left)}, " \
               f"{_name(other.right)}, {_op(op, dtype)})"
    if isinstance(other, (VectorIndexExpr, MatrixIndexExpr)):
        return f"extract({_name(other.parent)}, {_index(other.index)})"
    if isinstance(other, TransposedMatrix):
        return f"transpose({_name(other.T)})"
    return f"assign({_name(other) if _is_object(other) else _shown(other, None)})"


def _is_expression(obj):
    return isinstance(obj, (VectorExpression, MatrixExpression, ScalarExpression))


def _is_object(obj):
    """A Vector, a Matrix, a transposed one or a Scalar: what has a name to show."""
    return isinstance(obj, (Container, Scalar, TransposedMatrix))


def _name(obj):
    return str(getattr(obj, "name", None) or type(obj).__name__)


def _operand_type(args, default):
    """The type an untyped op of these operands runs in: their common type."""
    types = [a.dtype for a in args if _is_object(a)]
    if not types:
        return default
    common = types[0]
    for t in types[1:]:
        common = unify(common, t)
    return common


def _op(op, dtype):
    """An op with its type, as python-graphblas writes it: ``any_pair[INT64]``."""
    if not isinstance(op, Operator):
        return str(op)
    typed = op.type if op.type is not None else dtype
    return op.name if typed is None else f"{op.name}[{typed.name}]"


def _shown(arg, dtype):
    """An operand of an operation: its name, an op typed, an index, a number."""
    if isinstance(arg, Operator):
        return _op(arg, dtype)
    if _is_object(arg):
        return _name(arg)
    if isinstance(arg, Mask):
        return repr(arg)
    if isinstance(arg, (np.ndarray, range, slice, list)):
        return _index(arg)
    if isinstance(arg, (numbers.Number, np.generic)):
        return repr(arg.item() if isinstance(arg, np.generic) else arg)
    return str(arg) if isinstance(arg, str) else type(arg).__name__


def _index(index):
    """An index as written in Python, a long list cut: ``0:5``, ``[1, 4, 9, ...]`` (12)."""
    if isinstance(index, tuple):
        return ", ".join(_index(i) for i in index)
    if isinstance(index, (slice, range)):
        start, stop = index.start, index.stop
        step = "" if index.step in (None, 1) else f":{index.step}"
        return f"{'' if start in (None, 0) else start}:{'' if stop is None else stop}{step}"
    if isinstance(index, (np.ndarray, list)):
        items = np.asarray(index).ravel().tolist()
        cut = ", ..." if len(items) > 4 else ""
        return f"[{', '.join(map(str, items[:4]))}{cut}]" + (f" ({len(items)})" if cut else "")
    return _shown(index, None)
