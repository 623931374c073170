"""benchmarks/bench_ops.py at its smallest (``--quick``: scale 12, 2 repeats, one process):
every row runs on both engines, the results agree, and the JSON has every row's figures."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_row_runs_and_agrees_with_python_graphblas(tmp_path):
    out = tmp_path / "ops.json"
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_ops.py"), "--quick",
                          "--output", str(out)], capture_output=True, text=True, timeout=120,
                         check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "MISMATCH" not in run.stdout
    report = json.loads(out.read_text())
    assert report["threads"] == {"gblas2d": 1, "python_graphblas": 1}
    names = {row["name"] for row in report["rows"]}
    issue_rows = {"V(F.S) << True", "V(accum=binary.lor) << F", "V.ewise_add(F, lor).new()",
                  "V.reduce_rowwise(monoid.lor)", "x.dup(mask=q.S)", "w(q.S) << x",
                  "w(~v.S, replace) << q.vxm(A, any_pair)",
                  "F(~V.S, replace) << F.mxm(A, any_pair)"}
    assert issue_rows <= {row["operation"] for row in report["rows"]}
    for family in ("assign", "accum", "subassign", "ewise_add", "ewise_mult", "ewise_union",
                   "apply", "select", "reduce", "extract", "dup"):
        assert {f"v_{family}", f"m_{family}"} <= {name[:len(family) + 2] for name in names}
    assert {"m_transpose", "v_mxv", "v_vxm", "m_mxm"} <= names
    assert {"fresh", "fresh+wait", "same", "same+wait", "call", "call+wait"} == \
        {row["variant"] for row in report["rows"]}
    assert all(row["same"] for row in report["rows"])
    assert all(row["gblas2d_us"] > 0 and row["graphblas_us"] > 0 for row in report["rows"])
