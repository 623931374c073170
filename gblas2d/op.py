"""``gblas2d.op``: the ops of every kind of ``gblas2d.semirings.op``, at python-graphblas's
import path (``from gblas2d.op import plus_times``, ``import gblas2d.op``).

Each name is read from ``gblas2d.semirings.op`` when it is asked for, so what is registered
there later is found here too; ``gb.op`` is this module. ``from_string`` also finds the
aggregators (``gb.op.from_string("count")`` is ``gb.agg.count``), after every kind of op, as
python-graphblas's does: the algebra in ``gblas2d.semirings`` knows nothing of them.
"""

from .semirings import forwarding
from .semirings import op as _namespace
from .surface import agg as _agg

__all__, __getattr__, __dir__ = forwarding(_namespace)


def from_string(string):
    """The op or aggregator named by ``string``, of the first kind that has it: unary, binary,
    monoid, semiring, index-unary, select, then aggregator (``"-"`` is ``unary.ainv``, ``"+"``
    ``binary.plus``, ``"min.plus"`` ``semiring.min_plus``, ``"count"`` ``agg.count``,
    ``"mean[fp32]"`` ``agg.mean[FP32]``).

    Raises
    ------
    ValueError
        When no kind has it.

    Examples
    --------
    >>> from_string("count"), from_string("+")
    (agg.count, binary.plus)
    """
    for parse in (_namespace.from_string, _agg.from_string):
        try:
            return parse(string)
        except (ValueError, TypeError):
            continue
    raise ValueError(f"Unknown op string: {string!r}.  Example usage: 'abs[int]'")
