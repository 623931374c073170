"""gb.Recorder: one line per outermost public call, with the collectives this rank ran."""

import numpy as np
from _helpers import agreed

import gblas2d as gb


def test_records_calls_and_their_collectives():
    A = gb.generators.rmat(7, 8, symmetric=True, seed=1)
    x = gb.Vector.from_dense(np.ones(A.ncols))
    w = gb.Vector(gb.dtypes.FP64, A.nrows)
    with gb.Recorder() as rec:
        w << A.mxv(x, gb.semiring.plus_times)
        total = w.reduce().new()
    names = [line.split(":")[0] for line in rec.data]
    g = A.grid
    product = rec.data[0]
    if g.nprocs == 1:
        moved = product.endswith("no communication")
    else:
        # the fold runs along grid rows when there are several grid columns, the gather of x
        # along grid columns when there are several grid rows
        moved = (g.ncols == 1 or " row x" in product) and (g.nrows == 1 or " col x" in product)
    assert agreed(names == ["Updater.__lshift__", "ScalarExpression.new"] and moved), rec.data
    assert agreed(total.value == A.nvals and not rec.is_recording)


def test_start_stop_and_clear():
    rec = gb.Recorder(start=False)
    v = gb.Vector.from_coo([0, 1], [1.0, 2.0], size=4)
    v.dup()
    rec.start()
    v.dup()
    rec.stop()
    v.dup()
    recorded = list(rec.data)
    rec.clear()
    assert agreed(len(recorded) == 1 and recorded[0].startswith("Vector.dup:")
                  and rec.data == [] and "nothing" in repr(rec))
