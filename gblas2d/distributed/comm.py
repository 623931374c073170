"""The communication layer: every MPI collective of the engine goes through here, and is measured.

Each call records its operation, its group (``world``, ``row`` or ``col`` of the grid, or
``transpose``, the permutation that lays pieces along grid columns), the bytes this rank sent
and received, the messages, and the seconds it took. ``gblas2d.stats()`` returns the live
record; ``recording()`` gives a fresh one for a block of code. Numbers are per rank: reading
them never communicates.

One process needs no MPI (``mpi_world``): its comms are ``Comm(None, ...)``, every collective
is the identity, and mpi4py is imported only where a launcher started several processes.

Failures are agreed without messages of their own (docs/concepts.md, "SPMD rules"):

* Every collective of a group (row, column, transpose) opens with a header that every member
  sends: an Allgather of a few int64 lanes, a failure flag and the call's counts. A member
  that sees a flag raises ``PeerFailed``; all members see the same headers, so they all stop
  at the same call.
* A world collective opens with, or is, one Allreduce of eight int64 lanes (a flag, three
  sums and a digest, below): the push/pull choice, the nvals of a result and the end of a
  public call are such steps, and where two meet they are one.
* A rank that fails (or hears of a failure) inside a public call ``drains``: it posts one
  flagged header on each of its groups, without waiting, and makes the world step with its
  flag. Its peers meet those headers at their next call in the group and drain too, so every
  rank reaches the world step, learns there that a rank failed, and raises the same exception
  (the failure of the lowest rank that failed first-hand, by class and message). Before
  raising, every rank makes as many headers in each of its groups as the group's busiest
  member made, so the groups are in step for the next call.
* A public call that ends with a final step (the agreed nvals of a write) needs no step of
  its own at the end.

Every world step also compares, in four more lanes, a digest of what each rank is doing: the
public call it is in, and the replicated data (indices, values, sizes, bound scalars) that its
calls checked since the step before (``check_replicated``, ``check_arguments``). Ranks that
differ all raise the same InvalidValue, which names the call and the argument; the step is one
the call makes anyway.

``GBLAS2D_DEBUG=1`` (``set_debug``) adds the checked mode: a world step before every call,
which finds a rank that failed at once and compares every replicated argument (operators,
masks, flags and operand shapes too) where it is checked, and a deadline on every wait for the
other ranks, past which the job is aborted with a report of the call each rank is in.

Buffers travel as raw bytes (numpy ``uint8`` views), so one code path serves every dtype.
Counts are the logical volume of a direct exchange: an allgatherv receives every other member's
buffer; an alltoallv sends each destination its part. MPI's internal algorithms may route more.
"""

import os
import pickle
import sys
import time
from contextlib import contextmanager

import numpy as np

from ..exceptions import InvalidValue
from .caller import (
    call_title,
    current,
    data_types,
    disagreement,
    fingerprint,
    is_data,
    passed,
    public_call,
    user_frame,
    where,
)
from .failures import PeerFailed, describe, final_cause, raise_agreed

__all__ = ["Comm", "CommStats", "count", "launched_size", "mpi_world", "recording", "set_debug",
           "stats"]

# GBLAS2D_DEBUG=1 (or set_debug): the checked mode, a world step before every call, each
# replicated argument compared where it is checked, and a deadline on every wait.
_debug = [os.environ.get("GBLAS2D_DEBUG", "") not in ("", "0")]


def _seconds(text):
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"GBLAS2D_DEBUG_TIMEOUT must be a number of seconds, got "
                         f"{text!r}") from None


# The checked mode's deadline, in seconds (GBLAS2D_DEBUG_TIMEOUT).
_deadline = [_seconds(os.environ.get("GBLAS2D_DEBUG_TIMEOUT") or "120")]


def set_debug(on=True, *, timeout=None):
    """The checked mode. Without it, every world step a call makes anyway compares the call
    each rank is in and the replicated data (indices, values, sizes, bound scalars) checked
    since the step before. The checked mode adds:

    * a world step before every MPI call, so a failure is heard of at once, and the
      comparison of every replicated argument (operators, masks, flags and operand shapes
      too) where it is checked, before any collective that ranks passing different ones
      would make differently (and hang in);
    * a deadline, ``timeout`` seconds (``GBLAS2D_DEBUG_TIMEOUT``, default 120), on every wait
      for the other ranks: a rank waiting longer tells the others where it is, and the job is
      aborted with one line per rank, the public call it is in and the user's line, or that
      it is not waiting in one (a rank that skipped a call, or waits elsewhere).

    ``GBLAS2D_DEBUG=1`` turns it on from the start. Local: every rank calls it alike.

    Examples
    --------
    >>> set_debug(True); set_debug(False)
    """
    _debug[0] = bool(on)
    if timeout is not None:
        _deadline[0] = float(timeout)


# The size of the job, as each launcher tells its processes: MPICH's Hydra and Intel MPI,
# Open MPI, MVAPICH, Slurm's srun, LSF's jsrun.
_LAUNCHED_SIZE = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE",
                  "SLURM_STEP_NUM_TASKS", "JSM_NAMESPACE_SIZE")
# A rank without a size: a PMIx launcher (Open MPI 5's prterun, srun --mpi=pmix) says only this.
_LAUNCHED_RANK = ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK")


def launched_size(environ=None):
    """The processes of this job as its launcher announced them in the environment (no
    communication): their number, None where a launcher gave this process a rank but not the
    job's size, 1 where no launcher is seen (a plain ``python script.py``). Local.

    Examples
    --------
    >>> launched_size({"PMI_SIZE": "4", "PMI_RANK": "1"}), launched_size({})
    (4, 1)
    """
    environ = os.environ if environ is None else environ
    for var in _LAUNCHED_SIZE:
        if environ.get(var, "").isdigit():
            return int(environ[var])
    return None if any(var in environ for var in _LAUNCHED_RANK) else 1


def mpi_world(environ=None):
    """The world the default grid spans: ``mpi4py.MPI.COMM_WORLD``, or None where this process
    runs alone and needs no MPI at all. Local (importing mpi4py initializes MPI, which a
    launcher's processes do together).

    MPI is used where more than one process is possible: a launcher announced several
    (``launched_size``) or a rank without a size, the program imported ``mpi4py.MPI`` itself
    (``python -m mpi4py``, a script of its own), or ``GBLAS2D_MPI=1`` asks for it (a launcher
    this function does not know). Anywhere else, one process runs without importing mpi4py,
    so it works on a machine with no MPI library.

    Raises
    ------
    ImportError
        Where MPI is needed and mpi4py cannot load an MPI library.
    """
    environ = os.environ if environ is None else environ
    size = launched_size(environ)
    asked = environ.get("GBLAS2D_MPI", "") not in ("", "0")
    if size == 1 and not asked and "mpi4py.MPI" not in sys.modules:
        return None
    try:
        from mpi4py import MPI
    except (ImportError, RuntimeError, OSError) as exc:
        why = "GBLAS2D_MPI asks for MPI" if asked and size == 1 else \
            f"launched as {size or 'one of several'} processes"
        raise ImportError(f"gblas2d: {why}, but mpi4py cannot load an MPI library ({exc}); "
                          "install one (pip install 'gblas2d[mpich]'), or run one process "
                          "without a launcher") from exc
    return MPI.COMM_WORLD


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


# Who else hears of each call as it is counted: the active ``gb.trace_all()`` collectors
# (tracing.py). With none, as almost always, a call costs a loop over an empty list.
listeners = []


def count(op, group, sent, received, messages, seconds):
    """Count one call of this rank in the live record and tell the listeners. Local."""
    stats().add(op, group, sent, received, messages, seconds)
    for listen in listeners:
        listen(op, group, sent, received, messages, seconds)


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


# The lanes of a world step: the failure flag, three int64 sums, and the digest of what each
# rank is doing (``_digest_lanes``).
_SUM_LANES = 3
_STEP_LANES = 1 + _SUM_LANES + 4
# Odd, for folding one digest into another (``_Agreement.owe``).
_FOLD = 0x9E3779B97F4A7C15
# The tag of the checked mode's report of a rank that waited past the deadline.
_REPORT_TAG = 0x6B2D


def _as_bytes(array):
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


def _receive_buffer(size, world, dtype=np.uint8):
    """(buffer, failure): ``size`` elements of ``dtype`` to receive into. A rank that cannot
    allocate them must still take what its peers send in the call under way: it receives into
    a scratch file, and raises the MemoryError once the call is over. Where even that cannot
    be mapped (a limit on the address space, ``ulimit -v``), the peers would wait for it
    forever: it says so, naming itself and the size, and aborts the job."""
    try:
        return np.empty(size, dtype=dtype), None
    except MemoryError as exc:
        import tempfile

        try:
            with tempfile.TemporaryFile() as scratch:
                return np.memmap(scratch, dtype=dtype, mode="w+", shape=max(size, 1)), exc
        except (OSError, MemoryError):
            print(f"gblas2d: error: out of memory: rank {world.rank}: {exc}, to receive its "
                  "part of an exchange that the other ranks are in (no scratch file can be "
                  "mapped either); aborting the job", file=sys.stderr, flush=True)
            world.mpi.Abort(2)


class _Agreement:
    """What the comms of one grid share: the calls made (``seq``), where the last final step
    was, the group comms, which a failing rank drains, and the replicated arguments checked
    since the last world step (``owed``, and their digests folded into ``owed_digest``)."""

    def __init__(self):
        self.seq = 0
        self.final_at = -1
        self.groups = []
        self.posted = []
        self.kept = []
        self.owed = []
        self.owed_digest = 0

    def owe(self, check, number):
        """Keep a check (``(what, arguments, named, call)``) for the next world step."""
        self.owed.append(check)
        self.owed_digest = (self.owed_digest * _FOLD + number) & (1 << 62) - 1

    def paid(self):
        self.owed.clear()
        self.owed_digest = 0


class Comm:
    """One communicator of the grid (``world``, ``row``, ``col`` or ``transpose``) with
    measured collectives.

    Parameters
    ----------
    mpi_comm : mpi4py.MPI.Comm or None
        None means a single process without MPI.
    group : str
        The name the statistics use.
    world : Comm, optional
        The grid's whole communicator, on which failures are agreed; default: this one.
    members : sequence of int, optional
        The world ranks of this group's members, in group order.
    """

    def __init__(self, mpi_comm, group, world=None, members=None):
        self.mpi = mpi_comm
        self.group = group
        self.rank = 0 if mpi_comm is None else mpi_comm.Get_rank()
        self.size = 1 if mpi_comm is None else mpi_comm.Get_size()
        self.world = world or self
        self.state = _Agreement() if world is None else world.state
        self.members = list(members) if members is not None else list(range(self.size))
        self.calls = 0  # the headers this member has made (a group's members keep in step)
        self._lanes = 1 + max(self.size, 4)
        if world is not None:
            self.state.groups.append(self)

    def _record(self, op, sent, received, messages, start):
        self.state.seq += 1
        count(op, self.group, int(sent), int(received), int(messages),
              time.perf_counter() - start)

    # ---- agreement: headers, world steps, the drain ----
    def _header(self, lanes=()):
        """Collective over the group: every member's int64 ``lanes`` (a row each), after the
        failure flags; raises PeerFailed if a member flagged."""
        request, table = self._post_header(lanes)
        self._wait(request, f"the header of a {self.group} call")
        if table[:, 0].any():
            raise PeerFailed(f"a rank of this {self.group} group failed")
        return table[:, 1:]

    def _post_header(self, lanes=(), failed=False):
        """Start this member's next header: (request, table). Headers are always nonblocking
        calls, since a drain posts one without waiting and MPI matches nonblocking collectives
        only with nonblocking ones."""
        record = np.zeros(self._lanes, dtype=np.int64)
        record[0] = failed
        record[1:1 + len(lanes)] = lanes
        table = np.empty((self.size, self._lanes), dtype=np.int64)
        request = self.mpi.Iallgather(record, table)
        self.calls += 1
        return request, table

    def step(self, lanes=(), *, final=False, op="allreduce"):
        """Collective over the world: the sums of up to three int64 ``lanes`` and the failure
        flags of every rank in one Allreduce. If a rank failed, every rank raises its
        exception here. ``final``: the call's result is agreed and nothing in it follows that
        can fail, so the public call's end needs no step of its own."""
        world = self.world
        if world.size == 1:
            return np.asarray(lanes, dtype=np.int64).copy()
        out = world._step(lanes, None, op)
        world._end_at_last(final)
        return out

    def _step(self, lanes, failure, op, final=False):
        from mpi4py import MPI

        start = time.perf_counter()
        values = np.zeros(_STEP_LANES, dtype=np.int64)
        values[0] = failure is not None
        values[1:1 + len(lanes)] = lanes
        values[1 + _SUM_LANES:] = self._digest_lanes()
        if _debug[0]:
            self._wait(self.mpi.Iallreduce(MPI.IN_PLACE, values, op=MPI.SUM), "a world step")
        else:
            self.mpi.Allreduce(MPI.IN_PLACE, values, op=MPI.SUM)
        nbytes = values.nbytes * (self.size - 1)
        self._record(op, nbytes, nbytes, 2 * (self.size - 1), start)
        if values[0]:
            self._fail_together(failure, final)
        if not _alike(values[1 + _SUM_LANES:], self.size):
            self._disagree(final)
        self.state.paid()
        self.state.kept.clear()  # every rank got here: what they kept, all of them have
        return values[1:1 + len(lanes)].copy()

    def _digest_lanes(self):
        """This rank's lanes of the digest of the public call it is in and the replicated
        arguments owed: two parts of ``bits`` bits, c and c * c each, so that the sums show
        whether every rank had the same (P * sum(c * c) == sum(c) ** 2 exactly when all c are
        equal), with no overflow for any P."""
        call = current[0]
        number = (self.state.owed_digest * _FOLD + (call.identity if call else 0)) & \
            (1 << 62) - 1
        bits = (63 - self.size.bit_length()) // 2
        low = (number & (1 << bits) - 1) + 1
        high = (number >> bits & (1 << bits) - 1) + 1
        return low, low * low, high, high * high

    def _disagree(self, final):
        """Collective over the world, once a step showed that the ranks differ in the public
        call they are in or in the replicated arguments checked since the step before: every
        rank raises the same InvalidValue, which names the call and the argument."""
        try:
            checks = [passed(what, [None] * len(arguments) + list(named),
                             [*arguments, *named.values()], call)
                      for what, arguments, named, call in self.state.owed]
        except Exception:  # a value whose description fails: the others still gather
            checks = []
        # outside a public call, the call whose arguments were checked last (``A.mxv(x)``)
        title = call_title(current[0]) if current[0] is not None or not checks else \
            checks[-1][1] or checks[-1][0]
        seen = self.mpi.allgather((title, checks))
        self.state.paid()
        error = InvalidValue(disagreement(seen, " (GBLAS2D_DEBUG)" if _debug[0] else ""))
        self._fail_together(error, final)

    def _wait(self, request, what):
        """Complete ``request``; in the checked mode, within the deadline (``_stuck``)."""
        if not _debug[0]:
            request.Wait()
            return
        begun = time.monotonic()
        pause = 0.0
        while not request.Test():
            waited = time.monotonic() - begun
            if waited > _deadline[0]:
                self._stuck(what, waited)
            time.sleep(pause)
            pause = min(2 * pause + 1e-5, 0.005)

    def _stuck(self, what, waited):
        """The checked mode: this rank waited past the deadline in ``what``. It tells every
        other rank where it is, hears for a moment from those that waited too long as well,
        and the lowest of them prints one line per rank before the job is aborted. Never
        returns."""
        from mpi4py import MPI

        world, me = self.world.mpi, self.world.rank
        frame = user_frame()
        line = f"in {call_title(current[0])}" + (f" at {where(frame)}" if frame else "") + \
            f", waiting {waited:.0f} s in {what} (its collective number {self.state.seq + 1})"
        for rank in range(self.world.size):
            if rank != me:
                world.isend((me, line), dest=rank, tag=_REPORT_TAG)
        heard = {me: line}
        grace = max(2.0, min(10.0, _deadline[0] / 4))
        until = time.monotonic() + grace
        while time.monotonic() < until:
            while world.iprobe(source=MPI.ANY_SOURCE, tag=_REPORT_TAG):
                rank, text = world.recv(source=MPI.ANY_SOURCE, tag=_REPORT_TAG)
                heard[rank] = text
            time.sleep(0.05)
        if min(heard) == me:
            silent = "no report: not waiting in a gblas2d call (it skipped one, or waits or " \
                     "works elsewhere)"
            lines = [f"gblas2d: ranks waited more than {_deadline[0]:g} s for the others "
                     "(GBLAS2D_DEBUG); where each rank is:"]
            lines += [f"  rank {rank}: {heard.get(rank, silent)}"
                      for rank in range(self.world.size)]
            lines.append("gblas2d: aborting the job")
            print("\n".join(lines), file=sys.stderr, flush=True)
            # the launcher forwards a rank's output on its own time, and an abort tears the
            # job down at once: on a loaded machine the report was lost (CI, twice)
            time.sleep(1.0)
        else:
            # the lowest rank that waited reports and aborts; the others abort on their own
            # only if it never does (a rank starved of the CPU for seconds still reports)
            time.sleep(grace + 30.0)
        world.Abort(1)

    def keep(self, mapping, key, value):
        """``mapping[key] = value`` for a value this call computed with collectives (a cache):
        kept once a world step shows that every rank computed it, dropped if the call fails,
        so that the ranks never differ in what they have cached."""
        mapping[key] = value
        if self.world.size > 1:
            self.state.kept.append((mapping, key))

    def _checked(self):
        """The checked mode (GBLAS2D_DEBUG): a world step before every call, on every rank
        (also where the call's group is this rank alone)."""
        if _debug[0] and self.world.size > 1:
            self.world._step((), None, "agree")

    def _end_at_last(self, final):
        """``final``, after a world collective: what the public call does with its result is
        the same on every rank and cannot fail on some only, so the call ends here and needs
        no step of its own at the end (``ended_agreed``)."""
        if final and self is self.world:
            self.state.final_at = self.state.seq

    def ended_agreed(self, since):
        """Whether the last call made after ``since`` (a ``seq``) was a final step."""
        state = self.world.state
        return state.final_at == state.seq > since

    def settle(self, failure, *, final=False):
        """Collective over the world: the end of a public call or of an agreed section.
        Raise the same exception on every rank if any rank had ``failure`` (an exception or
        None), here or in a call its peers are still in.

        The exception of the lowest rank that failed first-hand is raised everywhere with its
        class and message. An exception that was itself agreed is raised again at once: every
        rank has it. ``final``: this is the end of a public call (``grid.collective``), so
        what a rank raises here is what the others must end with, even if they caught it and
        made another exception of it on the way out.
        """
        world = self.world
        if world.size == 1:
            if failure is not None:
                raise failure
            return
        if failure is None:
            world._step((), None, "agree")
            return
        ended = final_cause(failure)
        if ended is not None:
            raise ended
        if getattr(failure, "gblas2d_agreed", False):
            raise failure
        world._drain(failure, final)

    def _drain(self, failure, final):
        """This rank failed: a flagged header on each group, posted without waiting (its
        peers there may be busy elsewhere until they reach their next call), then the world
        step, where every rank learns of it."""
        for group in self.state.groups:
            if group.size > 1:
                self.state.posted.append(group._post_header(failed=True))
        self._step((), failure, "agree", final)  # raises: this rank's flag is in it

    def _fail_together(self, failure, final):
        """Collective over the world, once a step showed a flag: every rank's failure (or
        None) and headers made; each group brought in step; the agreed exception raised."""
        from mpi4py import MPI

        seen = self.mpi.allgather((describe(failure, final, self.rank),
                                   [g.calls for g in self.state.groups]))
        for k, group in enumerate(self.state.groups):
            if group.size == 1:
                continue
            busiest = max(seen[r][1][k] for r in group.members)
            while group.calls < busiest:
                self.state.posted.append(group._post_header(failed=True))
        MPI.Request.Waitall([p[0] for p in self.state.posted])
        self.state.posted.clear()
        for mapping, key in self.state.kept:
            mapping.pop(key, None)
        self.state.kept.clear()
        self.state.paid()
        raise_agreed([d for d, _ in seen], failure)

    # ---- the collectives ----
    def allreduce(self, values, op="sum"):
        """Element-wise sum / max / min of a small int64 or float64 array over the group."""
        self._checked()
        values = np.ascontiguousarray(values)
        if self.size == 1:
            return values.copy()
        if self is self.world and op == "sum" and values.dtype == np.int64 and \
                values.size <= _SUM_LANES:
            return self.step(values.reshape(-1)).reshape(values.shape)
        from mpi4py import MPI

        self._open()
        start = time.perf_counter()
        out = np.empty_like(values)
        mpi_op = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN}[op]
        self.mpi.Allreduce(values, out, op=mpi_op)
        nbytes = values.nbytes * (self.size - 1)
        self._record("allreduce", nbytes, nbytes, 2 * (self.size - 1), start)
        return out

    def _open(self, lanes=()):
        """The opening of a call: the group's header (its members' ``lanes``), or on the
        world a step and, when lanes are asked for, an Allgather of them."""
        if self is not self.world:
            return self._header(lanes)
        self._step((), None, "agree")
        if not len(lanes):
            return None
        table = np.empty((self.size, len(lanes)), dtype=np.int64)
        self.mpi.Allgather(np.asarray(lanes, dtype=np.int64), table)
        return table

    def allgatherv(self, array):
        """Every member's 1-D array, in group-rank order (a list of arrays of ``array.dtype``)."""
        self._checked()
        if self.size == 1:
            return [array]
        start = time.perf_counter()
        mine = _as_bytes(array)
        counts = self._open([mine.size])[:, 0].copy()
        displs = np.zeros(self.size, dtype=np.int64)
        np.cumsum(counts[:-1], out=displs[1:])
        out, failure = _receive_buffer(int(counts.sum()), self.world)
        self.mpi.Allgatherv(mine, [out, counts, displs, _mpi_byte()])
        if failure is not None:
            raise failure
        received = counts.sum() - mine.size
        self._record("allgatherv", mine.size * (self.size - 1), received,
                     2 * (self.size - 1), start)
        return [out[d:d + c].view(array.dtype) for d, c in zip(displs, counts, strict=True)]

    def alltoallv(self, arrays):
        """Send ``arrays[k]`` to member k; return the list received from each member."""
        if self.size == 1:
            self._checked()
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
        self._checked()
        if self.size == 1:
            return send, np.asarray(counts, dtype=np.int64)
        start = time.perf_counter()
        send = np.ascontiguousarray(send)
        itemsize = send.dtype.itemsize
        send_counts = np.asarray(counts, dtype=np.int64) * itemsize
        if self is self.world:
            self._open()
            recv_counts = np.empty(self.size, dtype=np.int64)
            self.mpi.Alltoall(send_counts, recv_counts)
        else:
            recv_counts = self._header(send_counts)[:, self.rank].copy()
        send_displs = np.zeros(self.size, dtype=np.int64)
        np.cumsum(send_counts[:-1], out=send_displs[1:])
        recv_displs = np.zeros(self.size, dtype=np.int64)
        np.cumsum(recv_counts[:-1], out=recv_displs[1:])
        # Of the data's own type, so what arrives owns its memory: a new block may then hand
        # it over to a backend as it is (``backends.adopt``).
        buffer, failure = _receive_buffer(int(recv_counts.sum()) // itemsize, self.world,
                                          send.dtype)
        self.mpi.Alltoallv([send.view(np.uint8), send_counts, send_displs, _mpi_byte()],
                           [buffer.view(np.uint8), recv_counts, recv_displs, _mpi_byte()])
        if failure is not None:
            raise failure
        me = self.rank
        sent = send_counts.sum() - send_counts[me]
        received = recv_counts.sum() - recv_counts[me]
        messages = np.count_nonzero(send_counts) - (send_counts[me] > 0)
        self._record("alltoallv", sent, received, messages, start)
        return buffer, recv_counts // itemsize

    def sendrecv(self, array, dest, source):
        """Send ``array`` to member ``dest`` and receive one array from member ``source`` (a
        permutation of the members). Every member calls it, those that keep their own array
        too: all pass the same opening, so that they stay in step."""
        self._checked()
        if self.size == 1:
            return array
        start = time.perf_counter()
        mine = _as_bytes(array)
        if self is self.world:
            self._open()
            count = np.empty(1, dtype=np.int64)
            self.mpi.Sendrecv(np.array([mine.size], dtype=np.int64), dest=dest,
                              recvbuf=count, source=source)
            count = int(count[0])
        else:
            count = int(self._header([mine.size])[source, 0])
        if dest == self.rank and source == self.rank:
            self._record("sendrecv", 0, 0, 0, start)
            return array
        out, failure = _receive_buffer(count, self.world)
        self.mpi.Sendrecv(mine, dest=dest, recvbuf=out, source=source)
        if failure is not None:
            raise failure
        self._record("sendrecv", mine.size, out.size, 1, start)
        return out[:count].view(array.dtype)

    def bcast_arrays(self, arrays, root, dtypes):
        """The 1-D ``arrays`` of member ``root`` on every member, as a list of arrays of
        ``dtypes`` (the others pass None for ``arrays``). One buffer travels, each array
        starting on an 8-byte boundary so that it is read in place."""
        self._checked()
        if self.size == 1:
            return list(arrays)
        start = time.perf_counter()
        mine = [len(a) for a in arrays] if self.rank == root else [0] * len(dtypes)
        if self is self.world:
            self._open()
            sizes = np.array(mine, dtype=np.int64)
            self.mpi.Bcast(sizes, root=root)
        else:
            sizes = self._header(mine)[root, :len(dtypes)].copy()
        nbytes = [int(s) * np.dtype(t).itemsize for s, t in zip(sizes, dtypes, strict=True)]
        starts = np.concatenate([[0], np.cumsum([(b + 7) // 8 * 8 for b in nbytes])])
        buffer, failure = _receive_buffer(int(starts[-1]), self.world)
        if self.rank == root:
            for a, t, s, b in zip(arrays, dtypes, starts, nbytes, strict=False):
                buffer[s:s + b] = _as_bytes(np.asarray(a, dtype=t))
        self.mpi.Bcast([buffer[:int(starts[-1])], _mpi_byte()], root=root)
        if failure is not None:
            raise failure
        mine = self.rank == root
        total = int(starts[-1])
        self._record("bcast", total * (self.size - 1) if mine else 0, 0 if mine else total,
                     (self.size - 1) if mine else 1, start)
        return [buffer[s:s + b].view(t) for s, b, t in zip(starts, nbytes, dtypes, strict=False)]

    def allgather_object(self, obj, *, final=False):
        """Every member's small picklable object (used to agree on errors and metadata);
        ``final``: see ``_end_at_last``."""
        self._checked()
        if self.size == 1:
            return [obj]
        start = time.perf_counter()
        self._open()
        out = self.mpi.allgather(obj)
        nbytes = len(pickle.dumps(obj))
        self._record("allgather_obj", nbytes * (self.size - 1), nbytes * (self.size - 1),
                     2 * (self.size - 1), start)
        self._end_at_last(final)
        return out

    def bcast_object(self, obj, root=0, *, final=False):
        """``obj`` from ``root`` on every member; ``final``: see ``_end_at_last``."""
        self._checked()
        if self.size == 1:
            return obj
        start = time.perf_counter()
        self._open()
        out = self.mpi.bcast(obj, root=root)
        self._record("bcast_obj", 0, 0, 1, start)
        self._end_at_last(final)
        return out

    @contextmanager
    def agreed(self):
        """Collective. A section whose failure on any member is raised on every member.

        ``with comm.agreed(): body``: an exception in the body does not leave this member,
        nor do the others go on without it; at the end of the block every member raises the
        same exception (``settle``), or all go on.

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
        self.world.settle(failure)

    def check_replicated(self, what, *arguments, **named):
        """Raise the same InvalidValue on every rank if the ranks passed different arguments
        to ``what`` (``named`` ones are called by their names): at the next world step, which
        the call makes anyway, or at once, in a step of its own, in the checked mode
        (``set_debug``). The message names the public call the user made and the argument
        that differs, with two ranks' values (``caller.mismatch``). Local, apart from that
        step: a hash of the arguments (``caller.fingerprint``), O(size) for an array."""
        if self.size > 1:
            self._compare(what, arguments, named, (*arguments, *named.values()))

    def check_arguments(self, what, *arguments, **named):
        """``check_replicated`` of a call's data only (numbers, arrays, index lists: what the
        ranks replicate), the checked mode's of all its arguments (operators, masks, flags,
        operand shapes too). The products and writes of every iteration of an algorithm
        make this check: without data it costs a look at each argument's type."""
        if self.size == 1:
            return
        values = (*arguments, *named.values())
        if not _debug[0]:
            known = data_types.get
            values = [v for v in values if known(type(v)) or known(type(v)) is None and
                      is_data(v)]
            if not values:
                return
        self._compare(what, arguments, named, values)

    def _compare(self, what, arguments, named, values):
        """Owe the check of ``values`` (of the call's ``arguments`` and ``named``)."""
        number = hash((fingerprint(what), *map(fingerprint, values)))
        # The checked mode names the call from the stack, as the user made it; otherwise
        # the call is kept as it is, and read only if the ranks differ.
        call = public_call() if _debug[0] else current[0]
        self.world.state.owe((what, arguments, named, call), number)
        if _debug[0]:
            self.world._step((), None, "agree")

    def barrier(self):
        """Collective: every member waits for the others (on the world, a step)."""
        self._checked()
        if self.size > 1:
            self._open()


def _alike(lanes, nprocs):
    """Whether every rank put the same digest into a step's lanes (``_digest_lanes``)."""
    low, low_squares, high, high_squares = lanes.tolist()
    return nprocs * low_squares == low * low and nprocs * high_squares == high * high


def _mpi_byte():
    from mpi4py import MPI

    return MPI.BYTE
