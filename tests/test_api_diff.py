"""docs/api.md lists what python-graphblas has and gblas2d does not, as docs/api_diff.py finds
it: the test fails when a name is added to either side and the page is not rewritten."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_api_diff_in_the_docs_is_current():
    spec = importlib.util.spec_from_file_location("api_diff", ROOT / "docs" / "api_diff.py")
    api_diff = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(api_diff)
    listed = api_diff.section((ROOT / "docs" / "api.md").read_text())
    found = api_diff.render(api_diff.missing())
    assert listed == found, "docs/api.md is stale: run python docs/api_diff.py --write"
