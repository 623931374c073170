"""python-graphblas's ``graphblas.core.utils`` helpers that client code calls on objects.

``output_type(x)`` is the class an object computes to (``Matrix`` for ``A @ B``, ``Vector``
for ``v[1:3]``, ``Scalar`` for ``v.reduce()``), the class itself for anything else;
``ensure_type(x, types)`` hands ``x`` back when it is one of ``types`` and computes a lazy
``x`` whose output is one of them (collective then: ``.new()``).
"""

from ..surface.automethods import MatrixAutoMethods, VectorAutoMethods
from ..surface.infix import ScalarLike
from ..surface.matrix import Matrix
from ..surface.scalar import Scalar
from ..surface.vector import Vector

__all__ = ["ensure_type", "output_type"]


def output_type(val):
    """The class ``val`` computes to, or ``type(val)`` when it is not lazy."""
    if isinstance(val, MatrixAutoMethods):
        return Matrix
    if isinstance(val, VectorAutoMethods):
        return Vector
    if isinstance(val, ScalarLike):
        return Scalar
    return type(val)


def ensure_type(x, types):
    """``x`` as one of ``types`` (a class or a tuple of classes, as for ``isinstance``):
    ``x`` itself, or a lazy ``x`` computed (collective) when its output is one of them. As in
    python-graphblas, this computes whatever ``config["autocompute"]`` says.

    Raises
    ------
    TypeError
        When ``x`` neither is nor computes to one of ``types``.

    Examples
    --------
    >>> import gblas2d as gb
    >>> v = gb.Vector.from_coo([0, 2], [1, 2])
    >>> type(ensure_type(v + v, gb.Vector)).__name__
    'Vector'
    """
    if isinstance(x, types):
        return x
    wanted = types if isinstance(types, tuple) else (types,)
    if output_type(x) in wanted:
        return x.new()
    raise TypeError(f"{type(x).__name__!r} object is not of type {types}")
