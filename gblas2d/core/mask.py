"""python-graphblas's ``graphblas.core.mask`` base class: ``v.S``, ``v.V``, ``~v.S`` and
``~v.V`` are all ``Mask`` objects here (python-graphblas has one subclass each; read
``mask.structure``, ``mask.value`` and ``mask.complement`` to tell them apart)."""

from ..surface.expr import Mask

__all__ = ["Mask"]
