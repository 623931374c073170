"""The communication layer: every MPI collective of the engine goes through here, and is measured.

Each call records its operation, its group (``world``, ``row`` or ``col`` of the grid), the bytes
this rank sent and received, the messages, and the seconds it took. ``gblas2d.stats()`` returns
the live record; ``recording()`` gives a fresh one for a block of code. Numbers are per rank:
reading them never communicates.

Every MPI call is preceded by a guard: an 8-byte allreduce over the grid's world in which a
rank that failed since the last one says so. A public call (``grid.collective``) ends with one
more. A failure on one rank, anywhere in the engine, thus reaches every rank at the next guard
and is raised there with the same class and message (``agree``): no rank is left waiting in a
collective the failed rank will never enter. The guards are recorded as the operation
``agree``.

Buffers travel as raw bytes (numpy ``uint8`` views), so one code path serves every dtype.
Counts are the logical volume of a direct exchange: an allgatherv receives every other member's
buffer; an alltoallv sends each destination its part. MPI's internal algorithms may route more.
"""

import hashlib
import os
import pickle
import sys
import time
from contextlib import contextmanager

import numpy as np

from ..exceptions import InvalidValue

__all__ = ["Comm", "CommStats", "recording", "set_debug", "stats"]

# GBLAS2D_DEBUG=1 (or set_debug) checks the replicated arguments of every collective call.
_debug = [os.environ.get("GBLAS2D_DEBUG", "") not in ("", "0")]


def set_debug(on=True):
    """Check, in every collective call, that all ranks passed the same replicated arguments
    (shapes, types, operators, options, replicated input arrays): ranks that differ would
    otherwise hang or build objects whose shape differs per rank. The check is one small
    allreduce of a hash per call. ``GBLAS2D_DEBUG=1`` turns it on from the start. Local:
    every rank calls it alike.

    Examples
    --------
    >>> set_debug(True); set_debug(False)
    """
    _debug[0] = bool(on)


def describe(value):
    """A description of a replicated argument that is equal on two ranks exactly when the
    argument is: objects by kind, shape and type, arrays by their bytes, the rest by repr."""
    if isinstance(value, type):
        return f"{value.__module__}.{value.__qualname__}"
    if isinstance(value, np.generic):
        return ("scalar", str(value.dtype), repr(value.item()))
    if hasattr(value, "structure") and hasattr(value, "complement"):  # a mask: not by name
        return ("mask", value.structure, value.complement, describe(value.parent))
    if isinstance(value, np.ndarray):
        digest = hashlib.blake2b(np.ascontiguousarray(value).view(np.uint8), digest_size=8)
        return ("array", value.shape, str(value.dtype), digest.hexdigest())
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return (type(value).__name__, tuple(value.shape), str(value.dtype))
    if isinstance(value, (list, tuple)):
        return tuple(describe(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, describe(v)) for k, v in value.items()))
    if type(value).__repr__ is object.__repr__ or callable(value) and \
            hasattr(value, "__qualname__"):
        # Its repr would hold an address, which differs between processes.
        return getattr(value, "__qualname__", type(value).__qualname__)
    return repr(value)


class CommStats:
    """Per-rank totals of communication, keyed by (operation, group)."""

    def __init__(self):
        self.totals = {}

    def add(self, op, group, sent, received, messages, seconds):
        row = self.totals.setdefault((op, group), [0, 0, 0, 0, 0.0])
        row[0] += 1
        row[1] += sent
        row[2] += received
        row[3] += messages
        row[4] += seconds

    def reset(self):
        self.totals.clear()

    def bytes(self, group=None, *, direction="received"):
        """Bytes this rank sent or received, in one group or in all."""
        column = 1 if direction == "sent" else 2
        return sum(v[column] for (_, g), v in self.totals.items() if group in (None, g))

    def summary(self):
        """A list of dicts, one per (operation, group), for JSON output."""
        return [
            {"op": op, "group": group, "calls": v[0], "bytes_sent": v[1],
             "bytes_received": v[2], "messages": v[3], "seconds": v[4]}
            for (op, group), v in sorted(self.totals.items())
        ]

    def __repr__(self):
        lines = [f"{'op':<14}{'group':<7}{'calls':>7}{'sent':>14}{'received':>14}{'seconds':>10}"]
        for r in self.summary():
            lines.append(f"{r['op']:<14}{r['group']:<7}{r['calls']:>7}{r['bytes_sent']:>14}"
                         f"{r['bytes_received']:>14}{r['seconds']:>10.4f}")
        return "\n".join(lines)


_active = [CommStats()]


def stats():
    """The live communication record of this rank (``CommStats``); local, never communicates."""
    return _active[-1]


@contextmanager
def recording():
    """Record the communication of a block into a fresh ``CommStats``; the outer record is kept
    current too."""
    outer = _active[-1]
    inner = CommStats()
    _active.append(inner)
    try:
        yield inner
    finally:
        _active.pop()
        for key, v in inner.totals.items():
            row = outer.totals.setdefault(key, [0, 0, 0, 0, 0.0])
            for k in range(5):
                row[k] += v[k]


def _as_bytes(array):
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


class Comm:
    """One communicator of the grid (``world``, ``row`` or ``col``) with measured collectives.

    Parameters
    ----------
    mpi_comm : mpi4py.MPI.Comm or None
        None means a single process without MPI.
    group : str
        The name the statistics use.
    world : Comm, optional
        The grid's whole communicator, on which failures are agreed; default: this one.
    """

    def __init__(self, mpi_comm, group, world=None):
        self.mpi = mpi_comm
        self.group = group
        self.rank = 0 if mpi_comm is None else mpi_comm.Get_rank()
        self.size = 1 if mpi_comm is None else mpi_comm.Get_size()
        self.world = world or self

    def _record(self, op, sent, received, messages, start):
        stats().add(op, self.group, int(sent), int(received), int(messages),
                    time.perf_counter() - start)

    def allreduce(self, values, op="sum"):
        """Element-wise sum / max / min of a small int64 or float64 array over the group."""
        values = np.ascontiguousarray(values)
        if self.size == 1:
            return values.copy()
        from mpi4py import MPI

        self.guard()
        start = time.perf_counter()
        out = np.empty_like(values)
        mpi_op = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN}[op]
        self.mpi.Allreduce(values, out, op=mpi_op)
        nbytes = values.nbytes * (self.size - 1)
        self._record("allreduce", nbytes, nbytes, 2 * (self.size - 1), start)
        return out

    def allgatherv(self, array):
        """Every member's 1-D array, in group-rank order (a list of arrays of ``array.dtype``)."""
        if self.size == 1:
            return [array]
        self.guard()
        start = time.perf_counter()
        mine = _as_bytes(array)
        counts = np.empty(self.size, dtype=np.int64)
        self.mpi.Allgather(np.array([mine.size], dtype=np.int64), counts)
        displs = np.zeros(self.size, dtype=np.int64)
        np.cumsum(counts[:-1], out=displs[1:])
        out = np.empty(int(counts.sum()), dtype=np.uint8)
        self.guard()
        self.mpi.Allgatherv(mine, [out, counts, displs, _mpi_byte()])
        received = counts.sum() - mine.size
        self._record("allgatherv", mine.size * (self.size - 1), received,
                     2 * (self.size - 1), start)
        return [out[d:d + c].view(array.dtype) for d, c in zip(displs, counts, strict=True)]

    def alltoallv(self, arrays):
        """Send ``arrays[k]`` to member k; return the list received from each member."""
        if self.size == 1:
            return list(arrays)
        flat = [np.ascontiguousarray(a).reshape(-1) for a in arrays]
        counts = np.array([len(a) for a in flat], dtype=np.int64)
        out, recv_counts = self.exchange(np.concatenate(flat).astype(flat[0].dtype, copy=False),
                                         counts)
        bounds = np.zeros(self.size + 1, dtype=np.int64)
        np.cumsum(recv_counts, out=bounds[1:])
        return [out[bounds[k]:bounds[k + 1]] for k in range(self.size)]

    def exchange(self, send, counts):
        """Send the consecutive runs of the 1-D array ``send``, ``counts[k]`` elements to member
        k; return what arrived, in member order, and how many elements came from each member.
        The runs go out of and come into single buffers, with no copy per member."""
        if self.size == 1:
            return send, np.asarray(counts, dtype=np.int64)
        self.guard()
        start = time.perf_counter()
        send = np.ascontiguousarray(send)
        itemsize = send.dtype.itemsize
        send_counts = np.asarray(counts, dtype=np.int64) * itemsize
        recv_counts = np.empty(self.size, dtype=np.int64)
        self.mpi.Alltoall(send_counts, recv_counts)
        send_displs = np.zeros(self.size, dtype=np.int64)
        np.cumsum(send_counts[:-1], out=send_displs[1:])
        recv_displs = np.zeros(self.size, dtype=np.int64)
        np.cumsum(recv_counts[:-1], out=recv_displs[1:])
        out = np.empty(int(recv_counts.sum()) // itemsize, dtype=send.dtype)
        self.guard()
        self.mpi.Alltoallv([send.view(np.uint8), send_counts, send_displs, _mpi_byte()],
                           [out.view(np.uint8), recv_counts, recv_displs, _mpi_byte()])
        me = self.rank
        sent = send_counts.sum() - send_counts[me]
        received = recv_counts.sum() - recv_counts[me]
        messages = np.count_nonzero(send_counts) - (send_counts[me] > 0)
        self._record("alltoallv", sent, received, messages, start)
        return out, recv_counts // itemsize

    def sendrecv(self, array, dest, source):
        """Send ``array`` to ``dest`` and receive one array from ``source`` (a permutation).
        Every member calls it, those that keep their own array too: all pass the same guards,
        so that they stay in step."""
        start = time.perf_counter()
        self.guard()
        if dest == self.rank and source == self.rank:
            self.guard()
            if self.size > 1:
                self._record("sendrecv", 0, 0, 0, start)
            return array
        mine = _as_bytes(array)
        count = np.empty(1, dtype=np.int64)
        self.mpi.Sendrecv(np.array([mine.size], dtype=np.int64), dest=dest, recvbuf=count,
                          source=source)
        out = np.empty(int(count[0]), dtype=np.uint8)
        self.guard()
        self.mpi.Sendrecv(mine, dest=dest, recvbuf=out, source=source)
        self._record("sendrecv", mine.size, out.size, 1, start)
        return out.view(array.dtype)

    def bcast_arrays(self, arrays, root, dtypes):
        """The 1-D ``arrays`` of member ``root`` on every member, as a list of arrays of
        ``dtypes`` (the others pass None for ``arrays``). One buffer travels, each array
        starting on an 8-byte boundary so that it is read in place."""
        if self.size == 1:
            return list(arrays)
        self.guard()
        start = time.perf_counter()
        sizes = np.empty(len(dtypes), dtype=np.int64)
        if self.rank == root:
            sizes[:] = [len(a) for a in arrays]
        self.mpi.Bcast(sizes, root=root)
        nbytes = [int(s) * np.dtype(t).itemsize for s, t in zip(sizes, dtypes, strict=True)]
        starts = np.concatenate([[0], np.cumsum([(b + 7) // 8 * 8 for b in nbytes])])
        buffer = np.empty(int(starts[-1]), dtype=np.uint8)
        if self.rank == root:
            for a, t, s, b in zip(arrays, dtypes, starts, nbytes, strict=False):
                buffer[s:s + b] = _as_bytes(np.asarray(a, dtype=t))
        self.guard()
        self.mpi.Bcast([buffer, _mpi_byte()], root=root)
        mine = self.rank == root
        self._record("bcast", buffer.size * (self.size - 1) if mine else 0,
                     0 if mine else buffer.size, (self.size - 1) if mine else 1, start)
        return [buffer[s:s + b].view(t) for s, b, t in zip(starts, nbytes, dtypes, strict=False)]

    def allgather_object(self, obj):
        """Every member's small picklable object (used to agree on errors and metadata)."""
        if self.size == 1:
            return [obj]
        self.guard()
        start = time.perf_counter()
        out = self.mpi.allgather(obj)
        nbytes = len(pickle.dumps(obj))
        self._record("allgather_obj", nbytes * (self.size - 1), nbytes * (self.size - 1),
                     2 * (self.size - 1), start)
        return out

    def bcast_object(self, obj, root=0):
        """``obj`` from ``root`` on every member."""
        if self.size == 1:
            return obj
        self.guard()
        start = time.perf_counter()
        out = self.mpi.bcast(obj, root=root)
        self._record("bcast_obj", 0, 0, 1, start)
        return out

    def guard(self):
        """Collective over the world. Before an MPI call: raise, on every rank, the failure
        any rank announced since the last guard (``agree``)."""
        self.world.agree(None)

    def agree(self, failure, *, final=False):
        """Collective over the world. Raise the same exception on every rank if any rank had
        ``failure`` (an exception or None), here or at a guard it has not reached.

        The exception of the lowest failing rank is raised everywhere with its class and
        message. An exception that was itself agreed is raised again at once: every rank
        has it. ``final``: this is the end of a public call (``grid.collective``), so what a
        rank raises here is what the others must end with, even if they caught it at a
        guard and made another exception of it on the way out.
        """
        world = self.world
        if world.size == 1:
            if failure is not None:
                raise failure
            return
        if failure is not None:
            ended = _final_cause(failure)
            if ended is not None:
                raise ended
            if getattr(failure, "gblas2d_agreed", False):
                raise failure
        from mpi4py import MPI

        start = time.perf_counter()
        flag = np.array([0 if failure is None else 1], dtype=np.int64)
        world.mpi.Allreduce(MPI.IN_PLACE, flag, op=MPI.MAX)
        world._record("agree", 8 * (world.size - 1), 8 * (world.size - 1),
                      2 * (world.size - 1), start)
        if flag[0]:
            raise_agreed(world.mpi.allgather(_describe(failure, final)), failure)

    @contextmanager
    def agreed(self):
        """Collective. A section whose failure on any member is raised on every member.

        ``with comm.agreed(): body``: an exception in the body does not leave this member,
        nor do the others go on without it; at the end of the block every member raises the
        same exception (``agree``), or all go on.

        Examples
        --------
        >>> from gblas2d.comm import Comm
        >>> with Comm(None, "world").agreed():
        ...     total = 1 + 1
        >>> total
        2
        """
        failure = None
        try:
            yield
        except Exception as exc:  # raised on every member just below
            failure = exc
        self.agree(failure)

    def check_replicated(self, what, *arguments):
        """Collective while debugging (``set_debug``), nothing otherwise: raise the same
        InvalidValue on every rank if the ranks passed different ``arguments`` to ``what``."""
        if not _debug[0] or self.size == 1:
            return
        self.guard()
        text = repr(tuple(describe(a) for a in arguments))
        digest = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=7).digest(),
                                "little")
        # Not counted in the statistics: a debugging aid, not the engine's traffic.
        from mpi4py import MPI

        sent = np.array([digest, -digest], dtype=np.int64)
        received = np.empty_like(sent)
        self.mpi.Allreduce(sent, received, op=MPI.MIN)
        low, neg_high = received
        if low == -neg_high:
            return
        seen = self.mpi.allgather(text)
        other = next(r for r, t in enumerate(seen) if t != seen[0])
        error = InvalidValue(
            f"the ranks called {what} with different arguments (GBLAS2D_DEBUG): rank 0 passed "
            f"{seen[0][:200]}, rank {other} passed {seen[other][:200]}")
        error.gblas2d_agreed = True  # every rank raises it
        raise error

    def barrier(self):
        if self.size > 1:
            self.guard()
            self.mpi.Barrier()


def _describe(failure, final=False):
    """A failure as plain strings, which any rank can unpickle (a class need not be), and
    whether it ends a public call."""
    if failure is None:
        return None
    cls = type(failure)
    return cls.__module__, cls.__qualname__, str(failure), final


def _final_cause(exc):
    """The exception, in the chain that led to ``exc``, that another rank ended its public
    call with (``agree``'s ``final``), or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if getattr(exc, "gblas2d_agreed", None) == "final":
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def raise_agreed(descriptions, own):
    """Raise the first described exception (``_describe``: the same class and message on
    every rank), marked as agreed."""
    module, qualname, message, final = next(d for d in descriptions if d is not None)
    if own is not None and _describe(own)[:3] == (module, qualname, message):
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


def _mpi_byte():
    from mpi4py import MPI

    return MPI.BYTE
