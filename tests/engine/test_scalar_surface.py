"""The Scalar's python-graphblas surface, against python-graphblas: accumulated updates
``s(accum=op) << x``, ``range(s)``/``complex(s)``, ``dup(is_cscalar=)``, ``wait``'s check, the
shape of a lazy scalar, and the errors of a non-scalar operand or an empty default."""

import graphblas as G
import pytest

import gblas2d as gb
from gblas2d.exceptions import EmptyObject

LIBS = [gb, G]


@pytest.mark.parametrize("start", [5, None])
@pytest.mark.parametrize("value", [3, None, 2.5])
def test_accumulated_update(start, value):
    """An empty side leaves the other; both present combine by the op, in s's type."""
    got = []
    for L in LIBS:
        s = L.Scalar.from_value(start, dtype="INT64") if start is not None else L.Scalar(int)
        x = L.Scalar.from_value(value) if value is not None else L.Scalar(float)
        s(accum=L.binary.minus) << x
        got.append((s.value, str(s.dtype)))
    assert got[0] == got[1]


def test_conversions_and_shape():
    for L in LIBS:
        s = L.Scalar.from_value(4)
        assert range(s) == range(4) and complex(s) == 4 + 0j
        with pytest.raises(AttributeError, match="only .*__index__.*integral"):
            range(s.dup(float))
        assert s.dup(clear=True, is_cscalar=True).value is None
        v = L.Vector.from_coo([1], [2])
        assert v.reduce().ndim == 0 and v.reduce().shape == ()
        with pytest.raises(ValueError, match="`how` argument must be"):
            s.wait("badmode")


def test_operand_errors():
    for L in LIBS:
        s, t, v = L.Scalar.from_value(5), L.Scalar(int), L.Vector(int, 2)
        assert s.ewise_union(t, L.binary.plus, 10, 20).new() == 25
        for method, args in (("ewise_add", (v,)), ("ewise_mult", (v,)),
                             ("ewise_union", (t, L.binary.plus, v, 20))):
            with pytest.raises(TypeError, match="Literal scalars also"):
                getattr(s, method)(*args)
        with pytest.raises(L.exceptions.EmptyObject if L is G else EmptyObject):
            s.ewise_union(t, L.binary.plus, 10, t).new()
        with pytest.raises(TypeError):
            s(L.Scalar(bool).S if hasattr(L.Scalar(bool), "S") else v.S) << 1
