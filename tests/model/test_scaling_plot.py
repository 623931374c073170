"""docs/scaling.md's plot of the scale model's projections (issue 44): drawn by
benchmarks/plot_scaling.py from the model's JSON reports, every distribution and workload
a series of its own, and the page shows the picture the script writes."""

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"


def load_script():
    spec = importlib.util.spec_from_file_location("plot_scaling",
                                                  ROOT / "benchmarks" / "plot_scaling.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_plot_is_drawn_from_the_models_reports(tmp_path):
    script = load_script()
    strong = json.loads((RESULTS / "model_scale20.json").read_text())
    by_name = script.series(strong["projection"], script.distribution)
    assert set(by_name) == {"2D grid", "1 x P", "P x 1", "2D grid, delegated",
                            "P x 1, delegated (1.5D)"}
    assert by_name["2D grid"][0] == [16, 64, 256, 1024, 4096]
    # every row of the report is in one series
    assert sum(len(ranks) for ranks, _, _ in by_name.values()) == len(strong["projection"])
    out = tmp_path / "projection.png"
    script.main(["--output", str(out)])
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_page_shows_the_picture():
    page = (ROOT / "docs" / "scaling.md").read_text()
    assert "(images/scaling_projection.png)" in page
    assert (ROOT / "docs" / "images" / "scaling_projection.png").read_bytes()[:4] == b"\x89PNG"
