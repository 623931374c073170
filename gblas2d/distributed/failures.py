"""How a failure travels between ranks: the description a failing rank sends (``describe``:
plain strings that any rank can unpickle, since a class need not be importable everywhere),
and the one exception every rank raises from the descriptions it gathered (``raise_agreed``).
comm.py decides when ranks exchange them; this file decides what they say, so that every rank
ends a public call with the same class and message.
"""

import errno
import sys

__all__ = ["PeerFailed", "describe", "final_cause", "heard_of_a_peer", "raise_agreed",
           "seen_per_rank"]


class PeerFailed(Exception):
    """A rank of a group this rank shares failed in the public call under way; the call's end
    raises that rank's exception here too."""


def seen_per_rank(exc):
    """Mark ``exc`` as the failure of something every rank did on its own (opening a file
    that each reads a share of): when only some ranks raise it, the agreed message names
    them. Returns ``exc``. Local."""
    exc.gblas2d_per_rank = True
    return exc


def describe(failure, final=False, rank=0):
    """A failure as plain strings, which any rank can unpickle (a class need not be), whether
    it ends a public call, whether it is first-hand (not a peer's failure heard of), and
    whether each rank met it on its own (``seen_per_rank``). The class is the first of its
    own and its bases short of Exception that can be rebuilt from the message (numpy's
    ``_ArrayMemoryError`` is a MemoryError), else its own, which the others name in a
    RuntimeError. A failure for want of memory is a MemoryError whose message names the
    rank (``_short_of_memory``)."""
    if failure is None:
        return None
    short = _short_of_memory(failure)
    message = str(failure if short is None else short)
    cls = next((c for c in type(failure).__mro__ if c not in (Exception, BaseException, object)
                and _rebuilds(c, message)), type(failure))
    if short is not None:
        cls = cls if isinstance(failure, MemoryError) else MemoryError
        message = f"rank {rank}: {message or 'out of memory (no size given)'}"
    return cls.__module__, cls.__qualname__, message, final, not heard_of_a_peer(failure), \
        getattr(failure, "gblas2d_per_rank", False)


def _short_of_memory(failure):
    """``failure`` if it is a MemoryError; else the exception in its chain that says this rank
    had no memory left: an ENOMEM, or the dynamic loader unable to map a library that a
    module loads on first use (under ``ulimit -v``); else None."""
    if isinstance(failure, MemoryError):
        return failure
    seen, exc = set(), failure
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, OSError) and exc.errno == errno.ENOMEM or \
                isinstance(exc, (ImportError, OSError)) and \
                str(exc).endswith("failed to map segment from shared object"):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def _rebuilds(cls, message):
    """Whether ``cls(message)`` makes an exception (BaseException always does)."""
    try:
        return isinstance(cls(message), BaseException)
    except Exception:
        return False


def heard_of_a_peer(exc):
    """Whether ``exc`` is, or was caused by, a PeerFailed: another rank's failure heard of,
    not this rank's own."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, PeerFailed):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def final_cause(exc):
    """The exception, in the chain that led to ``exc``, that another rank ended its public
    call with (``settle``'s ``final``), or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if getattr(exc, "gblas2d_agreed", None) == "final":
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def raise_agreed(descriptions, own):
    """Raise the described exception of the lowest rank that failed first-hand (``describe``:
    the same class and message on every rank), marked as agreed. A failure ``seen_per_rank``
    that only some ranks had (a file that only some can see) says which."""
    failed = [d for d in descriptions if d is not None]
    chosen = next((d for d in failed if d[4]), failed[0])
    module, qualname, message, final, _, per_rank = chosen
    alike = [r for r, d in enumerate(descriptions) if d is not None and d[4] and
             d[:3] == chosen[:3]]
    if per_rank and len(alike) < len(descriptions):
        message += f" (on {_ranks(alike)} of {len(descriptions)}; the others had no such error)"
    if own is not None and (type(own).__module__, type(own).__qualname__, str(own)) == \
            (module, qualname, message):
        exc = own
    else:
        cls = sys.modules.get(module)
        for part in qualname.split("."):
            cls = getattr(cls, part, None)
        try:
            exc = cls(message)
        except Exception:  # a class this rank cannot find or rebuild from its message
            exc = None
        if not isinstance(exc, BaseException):
            exc = RuntimeError(f"{qualname}: {message}")
    exc.gblas2d_agreed = "final" if final else True
    if exc is own:
        raise exc
    raise exc from own


def _ranks(ranks):
    """``rank 3`` or ``ranks 1, 2 and 3``."""
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    return f"ranks {', '.join(map(str, ranks[:-1]))} and {ranks[-1]}"
