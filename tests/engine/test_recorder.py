"""gb.Recorder: one line per outermost public call, naming the GraphBLAS operation, where the
user's code made it, and the collectives this rank ran."""

import sys

import numpy as np
from _helpers import agreed
from gblas2d.algorithms import bfs_levels

import gblas2d as gb
from gblas2d import binary, monoid, select, semiring


def here():
    """``test_recorder.py:N``, N the line of the caller's next line."""
    return f"test_recorder.py:{sys._getframe(1).f_lineno + 1}"


def split(line):
    """(where, what, collectives) of a recorded line."""
    where, what, collectives = line.split(": ", 2)
    return where, what, collectives


def test_records_calls_and_their_collectives():
    A = gb.generators.rmat(7, 8, symmetric=True, seed=1, name="A")
    x = gb.Vector.from_dense(np.ones(A.ncols), name="x")
    w = gb.Vector(gb.dtypes.FP64, A.nrows, name="w")
    with gb.Recorder() as rec:
        product = here()
        w << A.mxv(x, gb.semiring.plus_times)
        reduction = here()
        total = w.reduce().new(name="total")
    (at, what, moved), (at_sum, what_sum, _) = (split(line) for line in rec.data)
    g = A.grid
    if g.nprocs == 1:
        communicated = moved == "no communication"
    else:
        # the fold runs along grid rows when there are several grid columns, the gather of x
        # along grid columns when there are several grid rows
        communicated = (g.ncols == 1 or " row x" in moved) and \
            (g.nrows == 1 or " col x" in moved)
    assert agreed(at == product and what == "w << mxv(A, x, plus_times[FP64])"
                  and at_sum == reduction and what_sum == "total << reduce(w, plus[FP64])"
                  and communicated), rec.data
    assert agreed(total.value == A.nvals and not rec.is_recording)


def test_a_write_shows_its_mask_accumulator_replace_and_typed_op():
    A = gb.Matrix.from_coo([0, 1, 2], [1, 2, 0], [1, 2, 3], nrows=4, ncols=4, name="A")
    q = gb.Vector.from_coo([0, 2], [True, True], size=4, name="q")
    v = gb.Vector.from_coo([1], [5], size=4, name="v")
    w = gb.Vector(gb.dtypes.INT64, 4, name="w")
    with gb.Recorder() as rec:
        w(~v.S, accum=binary.plus, replace=True) << q.vxm(A, semiring.any_pair)
        w(v.S) << A.T.mxv(q, semiring.min_plus[gb.dtypes.FP64])
        w << v.ewise_union(w, binary.minus, 0, 0)
        w << v.apply(binary.times, right=2)
        B = A.select(select.tril).new(name="B")
        w[1:3] << 7
        w << A.reduce_columnwise(monoid.max)
        w << A @ q  # an infix product as it stands: over plus_times
        B << A.T
    shown = [split(line)[1] for line in rec.data]
    assert agreed(shown == [
        # the untyped op runs in its operands' common type, the accumulator in the output's
        "w(~v.S, accum=plus[INT64], replace=True) << vxm(q, A, any_pair[INT64])",
        # A.T (+).(x) q is q (+).(x) A; an op given typed keeps its type
        "w(v.S) << vxm(q, A, min_plus[FP64])",
        "w << eWiseUnion(v, w, minus[INT64], left_default=0, right_default=0)",
        "w << apply(v, times[INT64], right=2)",
        "B << select(A, tril[INT64], 0)",
        "w[1:3] << assign(7)",
        "w << reduce(A.T, max[INT64])",
        "w << mxv(A, q, plus_times[INT64])",
        "B << transpose(A)",
    ]), shown
    assert agreed(B.nvals == 3)


def test_constructors_and_readings_name_their_graphblas_operation():
    with gb.Recorder() as rec:
        v = gb.Vector.from_coo([0, 1], [1.0, 2.0], size=4, name="v")
        v.to_coo()
        v.isequal(v)
    shown = [split(line)[1] for line in rec.data]
    assert agreed(shown == ["v << build(Vector.from_coo)", "extractTuples(v)",
                            "isequal(v, v)"]), shown


def test_a_call_made_inside_an_algorithm_shows_the_algorithm_line():
    A = gb.Matrix.from_coo([0, 1, 2], [1, 2, 3], True, nrows=4, ncols=4, name="A")
    with gb.Recorder() as rec:
        bfs_levels(A, 0)
    files = {split(line)[0].split(":")[0] for line in rec.data}
    products = [line for line in rec.data if "vxm(" in line or "mxv(" in line]
    # the algorithm is user code: its own lines are shown, not the engine's
    assert agreed(files == {"bfs_levels.py"} and products
                  and all("any_pair[" in line and ", A, " in line for line in products)), \
        rec.data


def test_start_stop_and_clear():
    rec = gb.Recorder(start=False)
    v = gb.Vector.from_coo([0, 1], [1.0, 2.0], size=4)
    v.dup()
    rec.start()
    at = here()
    v.dup()
    rec.stop()
    v.dup()
    recorded = list(rec.data)
    rec.clear()
    assert agreed(len(recorded) == 1 and recorded[0].startswith(f"{at}: v_")
                  and f"<< dup({v.name}):" in recorded[0]
                  and rec.data == [] and "nothing" in repr(rec)), recorded
