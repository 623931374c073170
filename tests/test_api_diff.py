"""docs/api.md lists what python-graphblas has and gblas2d does not, as docs/api_diff.py finds
it: the test fails when a name is added to either side and the page is not rewritten.

The list is made in a fresh interpreter: python-graphblas adds names to its namespaces as they
are used (reading ``semiring.numpy.bitwise_and_equal`` makes ``semiring.band_eq``), so other
tests in this process would change what it lists."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_api_diff_in_the_docs_is_current():
    script = ROOT / "docs" / "api_diff.py"
    found = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                           check=True).stdout.strip()
    text = (ROOT / "docs" / "api.md").read_text()
    begin, end = "<!-- api-diff: begin", "<!-- api-diff: end -->"
    listed = text[text.index(begin):text.index(end) + len(end)]
    assert listed == found, "docs/api.md is stale: run python docs/api_diff.py --write"
