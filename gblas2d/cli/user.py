"""``gblas2d run FILE:FUNCTION``: a function of the user's own in place of a built-in algorithm,
driven by ``run.py`` through a ``Spec`` as the built-ins are (docs/getting-started.md, "Your own
algorithm").

- FILE is imported on every rank as a module of its own (not ``__main__``), its folder first on
  ``sys.path`` as for a script. FUNCTION is called on every rank, a collective call, as
  ``FUNCTION(A, **options)``: ``A`` is the graph's Matrix; each algorithm option given on the
  command line comes by keyword under its Python name (``--source`` as a vertex index,
  ``--max-iter`` as ``max_iter``), each ``--param NAME=VALUE`` as ``NAME=VALUE`` (a Python
  literal, else the text), and ``seed`` (``--seed``) when FUNCTION has that parameter.
- It returns a gblas2d Vector of size n, one value per vertex, which ``--output`` writes as a
  built-in's result; a Matrix, which ``--output`` writes to .mtx or .npz; or a number (a
  gblas2d Scalar included), which the summary line and ``--json`` hold and ``--output`` refuses.
- ``--check`` (there is no reference) and ``--relabel`` (the command cannot tell whether the
  answer names vertices) are refused.

Every failure is a UserCodeError with the same message on every rank (exit code 2): the file or
the function cannot be found or loaded, an option the function does not take, an exception it
raised (with its line in the file), a result the command cannot write, or results that differ
between ranks.
"""

import importlib.machinery
import importlib.util
import inspect
import numbers
import os
import re
import sys
import traceback
from pathlib import Path

import numpy as np

from .. import Matrix, Scalar, Vector
from ..distributed.failures import heard_of_a_peer
from .algorithms import OPTIONS, Spec, flag, parse_probability

# what a function must return, said in every error about a result
RESULTS = "a gblas2d Vector (one value per vertex), a Matrix or a number"


class UserCodeError(ValueError):
    """User code that cannot be loaded, called or written (a usage error: exit code 2)."""


def user_spec(target, args, grid):
    """Collective. The Spec that runs ``target`` (FILE:FUNCTION), once FILE is loaded on every
    rank and the options are checked against FUNCTION's signature: all before the graph is
    loaded. Fills in ``args.probability`` as a built-in that reads it would."""
    path, _, name = target.rpartition(":")
    if args.check:
        raise UserCodeError("--check compares the built-in algorithms with a reference; "
                            f"{target} has none")
    if args.relabel:
        raise UserCodeError(f"--relabel is not supported by {target}: the command cannot "
                            "tell whether its answer names vertices")
    function = _function(path, name, grid)
    given = {option: getattr(args, option) for option in OPTIONS
             if getattr(args, option) is not None}
    if "probability" in given:
        args.probability = given["probability"] = parse_probability(args.probability)
    params = _params(args.param or [], given)
    takes_seed = _check_signature(function, target, given, params)

    def call(A, source, args):
        keywords = {option: value for option, value in given.items() if option != "source"}
        keywords.update(params)
        if source is not None:
            keywords["source"] = source
        if takes_seed:
            keywords["seed"] = args.seed
        result = _agreed(grid, f"{target} raised", path, lambda: function(A, **keywords))
        return _agreed_result(result, A.nrows, target, grid)

    # --check is refused above: no reference to call
    return Spec(call, _summary, None, source="optional" if "source" in given else "",
                options=tuple(option for option in given if option != "source"),
                vector=lambda A, result, args: None if _is_number(result) else result,
                column=name)


# ------------------------------------------------------------------------- the function


def _function(path, name, grid):
    """Collective. FUNCTION of FILE, imported on every rank."""
    with grid.comm.agreed():
        # a file some ranks cannot see fails on all of them, as a graph file does
        if not os.path.isfile(path):
            where = f" on rank {grid.rank}" if grid.nprocs > 1 else ""
            missing = "not a file" if os.path.exists(path) else "no such file"
            raise UserCodeError(f"cannot load {path}: {missing}{where}")
    # the same name on every rank, so that an exception class of the file is found on every
    # rank when a failure is agreed; prefixed, so that no module of the same name is replaced
    module_name = "gblas2d_user_" + re.sub(r"\W", "_", Path(path).stem)
    loader = importlib.machinery.SourceFileLoader(module_name, path)
    module = importlib.util.module_from_spec(
        importlib.util.spec_from_file_location(module_name, path, loader=loader))
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    sys.modules[module_name] = module
    _agreed(grid, f"cannot load {path}:", path, lambda: loader.exec_module(module))
    function = getattr(module, name, None)
    if function is None:
        defined = sorted(key for key, value in vars(module).items()
                         if inspect.isfunction(value) and not key.startswith("_")
                         and value.__module__ == module_name)
        listed = f"its functions: {', '.join(defined)}" if defined else "it defines none"
        raise UserCodeError(f"{path} has no function {name!r} ({listed})")
    if not callable(function):
        raise UserCodeError(f"{path}:{name} is not a function: it is {_described(function)}")
    return function


def _params(pairs, given):
    """``--param NAME=VALUE`` pairs as a dict, once each name is found to be given once and by
    no option as well."""
    params = {}
    for name, value in pairs:
        if name in params:
            raise UserCodeError(f"--param {name} is given twice")
        if name in given or name == "seed":
            also = "--seed" if name == "seed" else flag(name)
            raise UserCodeError(f"--param {name} and {also} both give {name}")
        params[name] = value
    return params


def _check_signature(function, target, given, params):
    """Whether FUNCTION takes ``seed``, once the options given and the ``--param`` values are
    found to fit its signature."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        # a callable without a signature to read (a builtin): it is called as it is
        return False
    parameters = signature.parameters
    by_keyword = {name for name, p in parameters.items()
                  if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    any_keyword = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    named = {**{option: flag(option) for option in given},
             **{name: f"--param {name}" for name in params}}
    for option, shown in named.items():
        if option not in by_keyword and not any_keyword:
            raise UserCodeError(f"{shown} does not apply to {target} (it has no parameter "
                                f"{option})")
    takes_seed = "seed" in by_keyword
    keywords = dict(given, **params, **({"seed": 1} if takes_seed else {}))
    try:
        signature.bind(None, **keywords)
    except TypeError as exc:
        name = target.rpartition(":")[2]
        called = ", ".join(["A", *(f"{k}=..." for k in keywords)])
        raise UserCodeError(f"{target} cannot be called as {name}({called}): {exc}") from None
    return takes_seed


def _agreed(grid, what, path, work):
    """Collective. ``work()`` on every rank. An exception on any rank (the user's code, or a
    gblas2d call in it) ends every rank with the same UserCodeError: ``what``, the exception
    (its class and message are agreed by the communication layer), and its line in ``path``
    as the lowest rank that failed itself saw it."""
    own = None
    try:
        with grid.comm.agreed():
            try:
                return work()
            except Exception as exc:
                own = exc
                raise
    except Exception as exc:
        first_hand = own is not None and not heard_of_a_peer(own)
        lines = grid.comm.allgather_object((first_hand, _line(own, path) if first_hand else None))
        line = next((line for hand, line in lines if hand), None)
        at = "" if line is None else f" ({path}, line {line})"
        raise UserCodeError(f"{what} {type(exc).__name__}: {exc}{at}") from exc


def _line(exc, path):
    """The last line of ``path`` in ``exc``'s traceback: where it was raised, or the call (to
    gblas2d, say) that raised it; None when the traceback does not pass through the file (a
    SyntaxError says its line itself)."""
    target = os.path.abspath(path)
    lines = [frame.lineno for frame in traceback.extract_tb(exc.__traceback__)
             if os.path.abspath(frame.filename) == target]
    return lines[-1] if lines else None


# ---------------------------------------------------------------------------- the result


def _is_number(result):
    return isinstance(result, numbers.Real)


def _described(value):
    """How an error names a value the command cannot take: its type, and the value when it is
    short."""
    if value is None:
        return "None"
    kind = type(value)
    module = kind.__module__.split(".")[0] if kind.__module__.startswith("gblas2d.") else \
        kind.__module__
    name = kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"
    shown = repr(value)
    article = "an" if name[0].lower() in "aeiou" else "a"
    return f"{article} {name}" + (f" ({shown})" if len(shown) <= 40 and "\n" not in shown
                                  else "")


def _kind(result, n):
    """(what this rank's ``result`` is, as all ranks compare it; or None and why the command
    cannot take it)."""
    if isinstance(result, Vector):
        if result.size != n:
            return None, (f"a Vector of size {result.size}, not one value per vertex (the graph "
                          f"has {n})")
        return "a Vector", None
    if isinstance(result, Matrix):
        return "a Matrix", None
    if isinstance(result, Scalar) and result.value is None:
        return None, "an empty Scalar"
    if isinstance(result, Scalar) or _is_number(result):
        return f"the number {_plain(result)!r}", None
    if hasattr(result, "new"):
        # an expression (A.mxv(x), v.reduce()) is computed by .new()
        return None, f"{_described(result)} (an expression: compute it with .new())"
    return None, _described(result)


def _plain(result):
    """A number or Scalar as a plain Python number."""
    if isinstance(result, Scalar):
        return result.value
    return result.item() if isinstance(result, np.generic) else result


def _agreed_result(result, n, target, grid):
    """Collective. ``result`` as the command takes it (a Vector of size n, a Matrix, or a
    Python number), the same kind and number on every rank; else UserCodeError on all."""
    seen = grid.comm.allgather_object(_kind(result, n))
    problem = next((why for kind, why in seen if kind is None), None)
    if problem is not None:
        raise UserCodeError(f"{target} returned {problem}; it must return {RESULTS}")
    differ = next((rank for rank, (kind, _) in enumerate(seen) if kind != seen[0][0]), None)
    if differ is not None:
        raise UserCodeError(f"{target} returned different results on different ranks: rank 0 "
                            f"{seen[0][0]}, rank {differ} {seen[differ][0]}")
    return result if isinstance(result, Vector | Matrix) else _plain(result)


def _shown(value):
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _summary(A, result, vector, names):
    """Collective. The figures and the summary line of what the function returned."""
    if isinstance(result, Vector):
        dtype = result.dtype.name
        low, high = (result.reduce(op).new().value if result.nvals else None
                     for op in ("min", "max"))
        figures = {"result": "Vector", "dtype": dtype, "values": result.nvals, "min": low,
                   "max": high}
        extremes = f", min {_shown(low)}, max {_shown(high)}" if result.nvals else ""
        return figures, f"returned a Vector: {result.nvals} values ({dtype}){extremes}"
    if isinstance(result, Matrix):
        figures = {"result": "Matrix", "dtype": result.dtype.name, "nrows": result.nrows,
                   "ncols": result.ncols, "nvals": result.nvals}
        return figures, (f"returned a {result.nrows} x {result.ncols} Matrix: {result.nvals} "
                         f"entries ({result.dtype.name})")
    return {"result": "number", "value": result}, f"returned {_shown(result)}"
