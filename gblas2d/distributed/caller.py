"""Who made a call, and with what: the first frame of the user's code on the stack, the public
gblas2d function that code called, and descriptions of arguments that are equal on two ranks
exactly when the arguments are. Read only to check or explain a call (``gb.Recorder``'s lines,
the replicated-argument check ``Comm.check_replicated`` and its message, the checked mode
``GBLAS2D_DEBUG``'s report of a rank that waits too long).

``current`` holds the public call under way on this rank (``grid.collective`` sets it): what a
world step compares across ranks, and what a message names, with no look at the stack.

The user's code is whatever lies outside gblas2d's own modules; ``gblas2d.algorithms`` counts as
the user's, since its algorithms are written with the public API only and their lines are the
ones a reader wants to see.
"""

import hashlib
import inspect
import math
import os
import sys
import weakref

import numpy as np

from ..semirings import Operator

__all__ = ["Call", "call_title", "current", "data_types", "describe", "digest", "disagreement",
           "fingerprint", "identity", "is_data", "mismatch", "passed", "public_call",
           "user_frame", "where"]

# grid.py's frames are the agreed boundary of a public call (``collective``), not the call.
_BOUNDARY = "gblas2d.distributed.grid"


class Call:
    """One public call: the function ``grid.collective`` wraps, its arguments, and its
    ``identity``, a number equal on two ranks exactly when the function is (the same on every
    process, unlike ``hash``)."""

    __slots__ = ("function", "args", "kwargs", "identity")

    def __init__(self, function, args, kwargs, identity):
        self.function, self.args, self.kwargs, self.identity = function, args, kwargs, identity

    def parameters(self):
        """``(qualified name, {parameter: value})``, the values as the caller passed them."""
        try:
            values = dict(inspect.signature(self.function).bind(*self.args,
                                                                **self.kwargs).arguments)
        except (TypeError, ValueError):  # a signature inspect cannot read, or bad arguments
            values = {}
        return self.function.__qualname__, values


# The outermost public call under way on this rank (a Call), or None between calls.
current = [None]


def identity(function):
    """A function's number for ``Call.identity``: 62 bits of a hash of its qualified name."""
    text = f"{function.__module__}.{function.__qualname__}"
    return digest(text)


def digest(text):
    """62 bits of a cryptographic hash of ``text``: equal on every process for equal text."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little") >> 2


def _in_gblas2d(frame):
    name = frame.f_globals.get("__name__", "")
    return (name == "gblas2d" or name.startswith("gblas2d.")) and \
        not name.startswith("gblas2d.algorithms")


def user_frame():
    """The innermost frame on the stack outside gblas2d (the caller's own code), or None."""
    frame = sys._getframe(1)
    while frame is not None and _in_gblas2d(frame):
        frame = frame.f_back
    return frame


def where(frame):
    """``file.py:line`` of a frame (the file's name only, so it reads alike on every rank and
    in every directory)."""
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"


def public_call():
    """The public call the user made: ``(qualified name, {parameter: value})`` of the
    outermost gblas2d function on the stack below the user's code, or None when there is
    none. The values are the parameters' values now (a function may have converted them:
    ``values = np.asarray(values)``)."""
    frame, outermost = sys._getframe(1), None
    while frame is not None and _in_gblas2d(frame):
        if frame.f_globals.get("__name__") != _BOUNDARY:
            outermost = frame
        frame = frame.f_back
    if outermost is None:
        return None
    code = outermost.f_code
    count = code.co_argcount + code.co_kwonlyargcount + \
        bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    values = outermost.f_locals
    return getattr(code, "co_qualname", code.co_name), \
        {name: values[name] for name in code.co_varnames[:count] if name in values}


def describe(value):
    """A description of a replicated argument, a string that is equal on two ranks exactly
    when the argument is: objects by kind, shape and type, arrays by their bytes, the rest
    by repr."""
    kind = type(value)
    describer = _describers.get(kind)
    if describer is None:
        describer = _describers[kind] = _describer(value)
    return describer(value)


# How each type of argument is described, found once per type: the world steps of every
# public call compare the arguments its calls checked, and most are of a few types.
_describers = {}


def _describer(value):
    if type(value) in (type(None), bool, int, float, str) or isinstance(value, Operator):
        return repr
    if isinstance(value, type):
        return lambda cls: f"{cls.__module__}.{cls.__qualname__}"
    if isinstance(value, np.generic):
        return lambda x: f"scalar {x.dtype} {x.item()!r}"
    if hasattr(value, "structure") and hasattr(value, "complement"):  # a mask: not by name
        return lambda m: f"mask {m.structure} {m.complement} {describe(m.parent)}"
    if isinstance(value, np.ndarray):
        return _array
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return lambda x: f"{type(x).__name__} {x.shape} {x.dtype}"
    if isinstance(value, (list, tuple)):
        return lambda items: f"({', '.join(describe(v) for v in items)})"
    if isinstance(value, dict):
        return _mapping
    return _by_repr


def _mapping(d):
    if not d:  # the options of most writes
        return "{}"
    return f"{{{', '.join(sorted(f'{k!r}: {describe(v)}' for k, v in d.items()))}}}"


def _array(a):
    digest = hashlib.blake2b(np.ascontiguousarray(a).view(np.uint8), digest_size=8)
    return f"array {a.shape} {a.dtype} {digest.hexdigest()}"


def _by_repr(value):
    if type(value).__repr__ is object.__repr__ or callable(value) and \
            hasattr(value, "__qualname__"):
        # Its repr would hold an address, which differs between processes.
        return getattr(value, "__qualname__", type(value).__qualname__)
    return repr(value)


def is_data(value):
    """Whether an argument is data the ranks replicate (a number, an array, a list or range
    of indices, a slice), rather than an object, an operator or a flag."""
    kind = type(value)
    data = data_types.get(kind)
    if data is None:
        data = data_types[kind] = kind in (int, float, list, tuple, range, slice) or \
            issubclass(kind, (np.ndarray, np.generic))
    return data


# Whether the values of a type are data (``is_data``), found once per type.
data_types = {}


def fingerprint(value):
    """A number for a replicated argument, equal on two ranks when its ``describe`` is, and
    different otherwise but for a 64-bit collision: what the world steps compare, made with
    no text. Python's hash of ints, floats and tuples of them is the same in every process;
    text, None and objects hash by a per-process seed or address, so they are numbered by
    ``digest`` instead, once each."""
    kind = type(value)
    numbered = _fingerprinters.get(kind)
    if numbered is None:
        numbered = _fingerprinters[kind] = _fingerprinter(value)
    return numbered(value)


_fingerprinters = {}
# Numbers of text: names, op strings, dtypes (few, and asked for at every call).
_texts = {}
# Numbers of operators, kept while the operator lives (an op's hash is its address).
_operators = weakref.WeakKeyDictionary()


def _text(text):
    number = _texts.get(text)
    if number is None:
        if len(_texts) > 4096:  # user text of every kind: a bound on what is kept
            _texts.clear()
        number = _texts[text] = digest(text)
    return number


def _operator(op):
    number = _operators.get(op)
    if number is None:
        number = _operators[op] = digest(repr(op))
    return number


def _float(x):
    # NaN hashes by its address
    return hash((2, x)) if not math.isnan(x) else 3


def _fingerprinter(value):
    """The function that numbers values of ``value``'s type, as ``_describer`` describes them;
    each kind of value tagged by a small number of its own (True is not 1)."""
    if value is None:
        return lambda _: 0
    if type(value) is bool:
        return lambda b: 4 + b
    if type(value) is int:
        return lambda i: hash((1, i))
    if type(value) is float:
        return _float
    if type(value) is str:
        return _text
    if isinstance(value, Operator):
        return _operator
    if isinstance(value, type):
        # a class (dtype=np.float64): by its name, as described; its attributes are
        # descriptors, whose hash is their address
        return lambda cls: _text(f"{cls.__module__}.{cls.__qualname__}")
    if hasattr(value, "structure") and hasattr(value, "complement"):  # a mask
        return lambda m: hash((6, m.structure, m.complement, fingerprint(m.parent)))
    if hasattr(value, "shape") and hasattr(value, "dtype") and \
            not isinstance(value, (np.ndarray, np.generic)):
        return lambda x: hash((_text(type(x).__name__), x.shape, _text(str(x.dtype))))
    if isinstance(value, (list, tuple)):
        return lambda items: hash((7, *map(fingerprint, items)))
    if isinstance(value, dict):
        return lambda d: hash((8, *sorted((_text(repr(k)), fingerprint(v))
                                           for k, v in d.items()))) if d else 9
    return lambda x: _text(describe(x))


def _fingerprint(value):
    """``describe(value)``, a list or tuple of numbers read as the array it becomes: equal for
    an argument of a public call and the value a check inside the call got from it."""
    if isinstance(value, (list, tuple)):
        try:
            array = np.asarray(value)
        except (TypeError, ValueError):  # ragged
            array = None
        if array is not None and array.dtype.kind in "biufc":
            value = array
    return describe(value)


def _shown(value):
    """An argument in a message: a short repr, an array cut to its ends."""
    if isinstance(value, np.ndarray):
        with np.printoptions(threshold=6, edgeitems=3):
            text = repr(value)
    elif hasattr(value, "shape") and hasattr(value, "dtype") and hasattr(value, "name"):
        text = f"{type(value).__name__} {value.name} of shape {tuple(value.shape)}, " \
               f"{value.dtype}"
    else:
        text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


# How a public call whose name is a Python hook reads in a message.
_HOOKS = {"__lshift__": "<<", "__contains__": "in", "__setitem__": "w[index] = value",
          "__delitem__": "del w[index]", "Assigner.__lshift__": "w[index] << value"}


def passed(what, names, checked, call):
    """What this rank passed, for ``mismatch``: the check (``what``), the public call under
    way with each parameter as (name, fingerprint, shown), and each checked value as (name or
    None, description, fingerprint, shown). ``call``: that public call, a ``Call`` or what
    ``public_call`` gave, or None."""
    title, values = _titled(call.parameters() if isinstance(call, Call) else call)
    parameters = [(name, _safely(_fingerprint, v), _safely(_shown, v))
                  for name, v in values.items()]
    return what, title, parameters, [
        (name, describe(v), _safely(_fingerprint, v), _safely(_shown, v))
        for name, v in zip(names, checked, strict=True)]


def _titled(call):
    """``(title, {parameter: value})`` of a public call given as ``(qualified name, values)``:
    the title as the user wrote the call (``Vector.from_dense``, ``<<``), or None for none."""
    if call is None:
        return None, {}
    title, values = call
    *owner, hook = title.split(".")
    if "self" in values or "cls" in values:  # the class the user called it on
        this = values.get("self", values.get("cls"))
        owner = [this.__name__ if isinstance(this, type) else type(this).__name__]
    if "<locals>" in title:  # a generated method: the check's name says more
        return None, values
    if hook == "__init__":
        values.pop("self", None)  # half built: nothing to show
        return owner[0], values
    name = ".".join([*owner, hook])
    return _HOOKS.get(name, _HOOKS.get(hook, name)), values


def call_title(call):
    """How the ``Call`` ``call`` reads in a message; "no gblas2d call" for None."""
    return (_titled(call.parameters())[0] if call is not None else None) or "no gblas2d call"


def _safely(function, value):
    """``function(value)``, or the value's type name if that fails: making the message must
    not fail on one rank alone (the others would wait in the gather)."""
    try:
        return function(value)
    except Exception:
        return type(value).__name__


def _differs(label, values, shown):
    """``label differs: rank 0 passed A, rank r passed B``: r the first rank whose value (of
    ``values``, one a rank) differs from rank 0's, A and B as ``shown``."""
    other = next(r for r, v in enumerate(values) if v != values[0])
    inside = " (the same ends; they differ inside)" if shown[0] == shown[other] else ""
    return f"{label} differs: rank 0 passed {shown[0]}, rank {other} passed {shown[other]}" \
        f"{inside}"


def mismatch(seen, tag):
    """The message of ``Comm.check_replicated`` from every rank's ``passed`` of one check
    (gathered: the same text on every rank). It names the argument of the user's call whose
    value reached the check differently on two ranks; failing that, the checked value itself.
    ``tag`` follows the message's head: the mode that found it (`` (GBLAS2D_DEBUG)`` or
    nothing)."""
    calls = [(s[1] or s[0], s[0], len(s[3])) for s in seen]
    if any(c != calls[0] for c in calls):
        other = next(r for r, c in enumerate(calls) if c != calls[0])
        name = 0 if calls[0][0] != calls[other][0] else 1
        return _different_calls(tag, calls[0][name], other, calls[other][name])
    what, title, parameters, checked = seen[0]
    head = f"the ranks called {title or what} with different arguments{tag}: "
    differing = [k for k, c in enumerate(checked) if any(s[3][k][1] != c[1] for s in seen)]
    names = [p[0] for p in parameters]
    same_parameters = all([p[0] for p in s[2]] == names for s in seen)
    for p, name in enumerate(names if same_parameters else ()):
        # the parameter differs between ranks, and on every rank it is a differing value
        if any(s[2][p][1] != parameters[p][1] for s in seen) and any(
                all(s[2][p][1] == s[3][k][2] for s in seen) for k in differing):
            label = "the object it is called on" if name in ("self", "cls") else \
                f"argument {name!r}"
            return head + _differs(label, [s[2][p][1] for s in seen],
                                   [s[2][p][2] for s in seen])
    k = differing[0]
    label = f"argument {checked[k][0]!r}" if checked[k][0] else \
        f"value {k + 1} of the {len(checked)} that {what} checks"
    text = head + _differs(label, [s[3][k][1] for s in seen], [s[3][k][3] for s in seen])
    changed = [repr(name) for p, name in enumerate(names if same_parameters else ())
               if any(s[2][p][1] != parameters[p][1] for s in seen)]
    if changed:
        text += f"; of the arguments of {title}, {', '.join(changed)} " \
                f"{'differs' if len(changed) == 1 else 'differ'} between ranks"
    return text


def _different_calls(tag, first, other, theirs):
    return f"the ranks made different calls at once{tag}: rank 0 called {first}, rank " \
        f"{other} called {theirs}"


def disagreement(seen, tag):
    """The message of a world step at which the ranks were in different public calls, or had
    checked different replicated arguments since the step before, from every rank's
    ``(call_title(call), [passed(...) of each check])`` (gathered: the same on every rank)."""
    titles = [s[0] for s in seen]
    if any(t != titles[0] for t in titles):
        other = next(r for r, t in enumerate(titles) if t != titles[0])
        return _different_calls(tag, titles[0], other, titles[other])
    checks = [s[1] for s in seen]
    for k in range(max(len(c) for c in checks)):
        at = [c[k] if k < len(c) else None for c in checks]
        kinds = [None if a is None else (a[1] or a[0], [c[1] for c in a[3]]) for a in at]
        if all(kind == kinds[0] for kind in kinds):
            continue
        if all(a is not None for a in at):
            return mismatch(at, tag)
        other = next(r for r, a in enumerate(at) if (a is None) != (at[0] is None))
        named = ["nothing more" if a is None else a[1] or a[0] for a in at]
        return _different_calls(tag, named[0], other, named[other])
    # the arguments changed between their check and this message
    return f"the ranks called {titles[0]} with different arguments{tag}"
