"""A trace of every rank: each communication call and each product of this rank, tagged with
the iteration it belongs to, and gathered from every rank into one table per iteration.

``gb.trace()`` lists this rank's products. ``gb.trace_all()`` keeps more and shows every rank:
while it is active, each call the comm layer counts (operation, grid group, bytes sent and
received, messages, seconds) and each product (the dicts of ``gb.trace()``) is kept with the
current iteration, which ``gb.iteration()`` marks::

    with gb.trace_all() as t:
        levels = bfs_levels(A, 0)       # its loop body runs under `with ns.iteration():`
    report = t.gather()                 # collective: one allgather
    print(report.table())

Recording is local and sends nothing: the comm layer tells its listeners of every call it
counts (``comm.listeners``), and with no trace active that costs a loop over an empty list.
``gather`` is the one collective: each rank first sums its records per iteration and group,
so what travels is O(iterations x groups) per rank, however many calls were made.
"""

import time
from collections import namedtuple
from contextlib import contextmanager, nullcontext

import numpy as np

from . import comm
from .grid import default_grid
from .products import trace

__all__ = ["Call", "TraceReport", "Tracer", "iteration", "trace_all"]

# The table's order of the groups (comm.py); a group not named here comes after them.
GROUPS = ("world", "row", "col", "transpose", "device")

Call = namedtuple("Call", "iteration op group sent received messages seconds")
Call.__doc__ = """One call of the comm layer on this rank; ``iteration`` is None outside any."""

_active = []


def iteration(label=None):
    """Mark one iteration of an algorithm: whatever the active ``trace_all`` collectors record
    inside the block belongs to it. Local: never communicates, and does nothing when no trace
    is active.

    The iterations of a trace are numbered 0, 1, 2, ... in the order they start; ``label``
    names one instead (and takes no number). Inside a nested ``iteration`` the inner one
    wins. gblas2d's algorithms mark their iterations this way (``engine(A).iteration``, a
    no-op on python-graphblas objects).

    Examples
    --------
    >>> with trace_all() as t:
    ...     for k in range(3):
    ...         with iteration():
    ...             pass
    >>> t.gather().iterations
    [0, 1, 2]
    """
    # An algorithm marks every level: with no trace active that must cost next to nothing.
    return _marked(label) if _active else _NOTHING


_NOTHING = nullcontext()


@contextmanager
def _marked(label):
    marked = list(_active)
    for tracer in marked:
        tracer._enter(label)
    try:
        yield
    finally:
        for tracer in marked:
            tracer._leave()


@contextmanager
def trace_all(grid=None):
    """Record every communication call and every product of this rank, each with its
    iteration (``iteration``), until the block ends: a ``Tracer``. Local: recording sends
    nothing; its ``gather`` (collective) brings every rank's records together.

    Parameters
    ----------
    grid : Grid, optional
        The grid whose ranks ``gather`` reads; default: the default grid. The calls of every
        grid are recorded.

    Examples
    --------
    >>> import gblas2d as gb
    >>> A = gb.Matrix.from_coo([0, 1], [1, 0], [1.0, 1.0], nrows=2, ncols=2)
    >>> x = gb.Vector.from_coo([0, 1], [1.0, 2.0], size=2)
    >>> with gb.trace_all() as t:
    ...     for _ in range(2):
    ...         with gb.iteration():
    ...             x = A.mxv(x, gb.semiring.plus_times).new()
    >>> [(row["iteration"], row["products"]) for row in t.gather().rows]
    [(0, 1), (1, 1)]
    """
    tracer = Tracer(grid)
    with trace() as events:
        tracer._start(events)
        _active.append(tracer)
        comm.listeners.append(tracer._hear)
        try:
            yield tracer
        finally:
            tracer._settle()
            tracer._events = None
            _active.remove(tracer)
            comm.listeners.remove(tracer._hear)


class Tracer:
    """What ``trace_all`` recorded on this rank. Local, except ``gather`` (collective).

    Attributes
    ----------
    calls : list of Call
        Every call of the comm layer, in order.
    products : list of (iteration, dict)
        Every product, as ``gb.trace()`` describes it, with its iteration (None outside any).
    seconds : dict
        The wall seconds spent in each iteration (None: outside any), in the order they
        started.
    """

    def __init__(self, grid=None):
        self.grid = grid
        self.calls = []
        self.products = []
        self.seconds = {}
        self._tags = [None]      # the iterations entered, innermost last; None: outside
        self._numbered = 0
        self._events = None      # the gb.trace() list of this trace, while it is active
        self._seen = 0
        self._since = None

    def _start(self, events):
        self._events = events
        self._since = time.perf_counter()
        self.seconds[None] = 0.0

    def _hear(self, op, group, sent, received, messages, seconds):
        self.calls.append(Call(self._tags[-1], op, group, sent, received, messages, seconds))

    def _enter(self, label):
        if label is None:
            label, self._numbered = self._numbered, self._numbered + 1
        self._settle()
        self._tags.append(label)
        self.seconds.setdefault(label, 0.0)

    def _leave(self):
        self._settle()
        self._tags.pop()

    def _settle(self):
        """Give the time since the last change of iteration, and the products made in it, to
        the current iteration. (A product's dict comes at its end, through ``gb.trace()``'s
        list, so it is claimed here, before the iteration changes.)"""
        if self._events is None:
            return
        now, tag = time.perf_counter(), self._tags[-1]
        self.seconds[tag] += now - self._since
        self._since = now
        new = self._events[self._seen:]
        self.products.extend((tag, event) for event in new)
        self._seen += len(new)

    def summary(self):
        """This rank's records summed per iteration: a list of (iteration, wall seconds,
        {group: [calls, sent, received, messages, seconds]}, [(op, direction, frontier), ...]),
        in the order the iterations started. Local."""
        self._settle()
        groups = {tag: {} for tag in self.seconds}
        for call in self.calls:
            row = groups[call.iteration].setdefault(call.group, [0, 0, 0, 0, 0.0])
            row[0] += 1
            row[1] += call.sent
            row[2] += call.received
            row[3] += call.messages
            row[4] += call.seconds
        products = {tag: [] for tag in self.seconds}
        for tag, event in self.products:
            products[tag].append(_product(event))
        return [(tag, seconds, groups[tag], products[tag])
                for tag, seconds in self.seconds.items()]

    def gather(self):
        """Collective. Every rank's records, summed per iteration and group, as a
        ``TraceReport``, the same on every rank: one allgather of each rank's ``summary``.
        Call it after the ``trace_all`` block (inside it, the records so far)."""
        grid = self.grid or default_grid()
        return TraceReport(grid, grid.comm.allgather_object(self.summary()))


def _product(event):
    """(op, direction, frontier) of a ``gb.trace()`` event: an mxm's direction is its scheme
    unless a masked gather chose push or pull, and its frontier is its right operand's
    entries."""
    return (event["op"], event["direction"] or event.get("scheme"),
            int(event.get("frontier_nvals", event.get("b_nvals"))))


class TraceReport:
    """Every rank's trace, one row per iteration (``Tracer.gather``); the same on every rank.

    A row for what ran outside every iteration (its label None, "-" in the table) comes first
    when any rank recorded a call or a product there. Bytes are received bytes, as in
    ``gb.stats()`` and ``gb.trace()``.

    Attributes
    ----------
    shape : (int, int)
        The grid.
    iterations : list
        The iterations, numbers or labels, in the order they ran.
    labels : list
        The rows' names: None for the row outside every iteration (when there is one), then
        the iterations.
    groups : list of str
        The grid groups that any rank made a call in, in the order of ``GROUPS``.
    calls, sent, received : numpy.ndarray, int64, shape (ranks, rows, groups)
        Each rank's calls and bytes per row and group.
    seconds : numpy.ndarray, float64, shape (ranks, rows)
        Each rank's wall seconds per row.
    products : list of list
        Per row, (op, direction, frontier) of each product, in order; the choices are the
        same on every rank.
    """

    def __init__(self, grid, summaries):
        self._grid = grid
        self.shape = tuple(grid.shape)
        tags, seen = [], set()
        for summary in summaries:
            for tag, *_ in summary:
                if tag not in seen:
                    seen.add(tag)
                    tags.append(tag)
        outside = any(tag is None and (groups or products)
                      for summary in summaries for tag, _, groups, products in summary)
        tags = [tag for tag in tags if tag is not None or outside]
        found = {g for summary in summaries for _, _, groups, _ in summary for g in groups}
        self.groups = [g for g in GROUPS if g in found] + sorted(found - set(GROUPS))
        self.iterations = [tag for tag in tags if tag is not None]
        self.labels = tags
        where = {tag: k for k, tag in enumerate(tags)}
        shape = (len(summaries), len(tags), len(self.groups))
        self.calls, self.sent, self.received = (np.zeros(shape, dtype=np.int64)
                                                for _ in range(3))
        self.seconds = np.zeros(shape[:2])
        self.products = [[] for _ in tags]
        for rank, summary in enumerate(summaries):
            for tag, seconds, groups, products in summary:
                if tag not in where:
                    continue
                k = where[tag]
                self.seconds[rank, k] = seconds
                for j, group in enumerate(self.groups):
                    calls, sent, received, _, _ = groups.get(group, (0, 0, 0, 0, 0.0))
                    self.calls[rank, k, j] = calls
                    self.sent[rank, k, j] = sent
                    self.received[rank, k, j] = received
                if rank == 0:
                    self.products[k] = list(products)

    @property
    def nprocs(self):
        return self.shape[0] * self.shape[1]

    @property
    def rows(self):
        """One dict per row, for JSON: its ``iteration`` (a number, a label, or None outside
        every iteration), its ``products``, their distinct ``directions`` in order, the largest
        ``frontier`` among them (None without a product), and per group the ``calls`` (the
        most of any rank) and the received ``bytes``, their ``max`` and ``mean`` over the
        ranks; ``seconds`` is the slowest rank's."""
        rows = []
        for k, label in enumerate(self.labels):
            products = self.products[k]
            rows.append({
                "iteration": label, "products": len(products),
                "directions": _distinct(d for _, d, _ in products),
                "frontier": max((f for _, _, f in products), default=None),
                "calls": {g: int(self.calls[:, k, j].max()) for j, g in enumerate(self.groups)},
                "bytes": {g: {"max": int(self.received[:, k, j].max()),
                              "mean": float(self.received[:, k, j].mean())}
                          for j, g in enumerate(self.groups)},
                "seconds": float(self.seconds[:, k].max())})
        return rows

    def table(self):
        """The rows as text, one line each under a title and a header: per group the calls (the
        most of any rank) and the bytes received (max and mean over the ranks). Local."""
        width = 22
        head = f"{'':<31}" + "".join(f"{g:^{width}}" for g in self.groups)
        columns = f"{'iteration':<10}{'direction':<12}{'frontier':>9}" + \
            f"{'calls':>8}{'max':>7}{'mean':>7}" * len(self.groups) + f"{'seconds':>9}"
        lines = [f"per iteration ('-': outside any), every rank ({_ranks(self)}): bytes "
                 "received, max and mean over the ranks"]
        if self.groups:
            lines.append(head.rstrip())
        lines.append(columns)
        for row in self.rows:
            # several directions that do not fit are "mixed": the rows list them
            direction = "/".join(row["directions"]) or "-"
            direction = direction if len(direction) < 12 else "mixed"
            frontier = "-" if row["frontier"] is None else row["frontier"]
            label = "-" if row["iteration"] is None else str(row["iteration"])
            cells = "".join(f"{row['calls'][g]:>8}{_size(row['bytes'][g]['max']):>7}"
                            f"{_size(row['bytes'][g]['mean']):>7}" for g in self.groups)
            lines.append(f"{label:<10}{direction:<12}{frontier:>9}{cells}"
                         f"{row['seconds']:>9.4f}")
        return "\n".join(lines)

    def plot(self, path):
        """Collective. Draw the iterations in four panels, frontier size, direction, bytes
        received per group (max over the ranks solid, mean dashed) and seconds (the slowest
        rank's), and write them to ``path`` (a str or path-like) as a PNG. Rank 0 draws and
        writes; an error there (matplotlib missing, a path that cannot be written) is raised
        on every rank.

        Needs matplotlib (``pip install 'gblas2d[plot]'``), imported only here.
        """
        with self._grid.comm.agreed():
            if self._grid.rank == 0:
                self._draw(path)

    def _draw(self, path):
        fig = _figure()
        # the iterations' rows, not the one outside them
        at = [self.labels.index(tag) for tag in self.iterations]
        x = np.arange(len(at))
        rows = self.rows
        (frontier, direction), (volume, seconds) = fig.subplots(2, 2, sharex=True)
        fig.suptitle(f"every rank's trace per iteration ({_ranks(self)})")
        sizes = [np.nan if rows[k]["frontier"] is None else rows[k]["frontier"] for k in at]
        frontier.plot(x, sizes, marker="o")
        frontier.set_yscale("symlog", linthresh=1)
        frontier.set_ylabel("frontier (entries)")
        names = _distinct(d for k in at for d in rows[k]["directions"])
        for i, k in enumerate(at):
            for d in rows[k]["directions"]:
                direction.plot(i, names.index(d), "s", color="C1")
        direction.set_yticks(range(len(names)), names)
        direction.set_ylim(-0.5, max(len(names), 1) - 0.5)
        direction.set_ylabel("direction")
        for j, group in enumerate(self.groups):
            got = self.received[:, at, j]
            volume.plot(x, got.max(axis=0), ".-", color=f"C{j}", label=f"{group} max")
            volume.plot(x, got.mean(axis=0), ".--", color=f"C{j}", label=f"{group} mean")
        volume.set_yscale("symlog", linthresh=1)
        volume.set_ylabel("bytes received")
        if self.groups:
            volume.legend(fontsize="small", ncol=2)
        else:
            volume.text(0.5, 0.5, "no communication", ha="center", transform=volume.transAxes)
        seconds.bar(x, self.seconds[:, at].max(axis=0))
        seconds.set_ylabel("seconds (slowest rank)")
        for ax in (volume, seconds):
            ax.set_xlabel("iteration")
        if len(at) <= 20:
            seconds.set_xticks(x, [str(self.labels[k]) for k in at])
        if not len(at):
            frontier.text(0.5, 0.5, "no iterations traced", ha="center",
                          transform=frontier.transAxes)
        fig.tight_layout()
        fig.savefig(path, format="png")


def _figure():
    """A matplotlib Figure drawn by Agg, without pyplot: no window, and the backend of a
    program that uses pyplot itself is left as it was."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ImportError("plotting a trace needs matplotlib: pip install 'gblas2d[plot]'") \
            from exc
    fig = Figure(figsize=(11, 7))
    FigureCanvasAgg(fig)
    return fig


def _ranks(report):
    ranks = "1 rank" if report.nprocs == 1 else f"{report.nprocs} ranks"
    return f"{ranks}, grid {report.shape[0]}x{report.shape[1]}"


def _distinct(items):
    out = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def _size(nbytes):
    """A byte count in at most 6 characters: 512, 32.8k, 4.1M."""
    value, unit = nbytes, 0
    while value >= 999.5 and unit < 4:
        value, unit = value / 1000, unit + 1
    return f"{value:.0f}" if unit == 0 else f"{value:.3g}{' kMGT'[unit]}"
