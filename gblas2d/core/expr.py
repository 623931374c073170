"""python-graphblas's ``graphblas.core.expr`` names: what ``w(...)`` and ``w[index]`` return
(the targets of ``<<``)."""

from ..surface.container import Assigner, Updater

__all__ = ["Assigner", "Updater"]
