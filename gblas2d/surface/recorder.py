"""``gb.Recorder``: the public calls made inside it, each with the collectives it made.

python-graphblas's Recorder lists the GraphBLAS C calls a script makes. gblas2d's lists its
public calls (a write ``w << expr``, an expression's ``new``, a constructor, a reduction's
value) and, for each, the collectives it ran on this rank: the operation, the grid group
(``world``, ``row``, ``col``), how many and the bytes received. It is the teaching view of the
2D engine: one ``w << A.mxv(x)`` shows its gather along grid columns and its fold along grid
rows::

    with gb.Recorder() as rec:
        w << A.mxv(x)
    print(rec)
    # at 1 x 2: Updater.__lshift__: allreduce world x2 (64 B), alltoallv row x1 (1,056 B)

The world steps that only end a call or open a world collective (``agree``: docs/concepts.md,
"SPMD rules") are counted apart, as ``steps``. Recording is local: each rank records what it
took part in.
"""

from ..distributed import grid as _grid

__all__ = ["Recorder"]


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

