"""``semirings/`` and ``algorithms/`` import neither mpi4py nor cupy, and ``semirings/`` nothing
of gblas2d outside itself: read from the source with ``ast``, so nothing is imported to check.
"""

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FORBIDDEN = {"mpi4py", "cupy"}


def imported_modules(path):
    """(line, absolute-or-relative module name, relative level) for each import in ``path``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, 0
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or "", node.level


def offending_imports(root, package, *, self_contained):
    """Imports in ``root/package`` of mpi4py or cupy, and, when ``self_contained``, of any
    gblas2d module outside ``gblas2d.<package>`` (a relative import may not leave it either)."""
    offenders = []
    for path in sorted((root / package).rglob("*.py")):
        depth = len(path.relative_to(root / package).parts) - 1
        for line, module, level in imported_modules(path):
            where = f"{path.relative_to(root)}:{line}: {'.' * level}{module}"
            top = module.split(".")[0]
            if level == 0 and top in FORBIDDEN:
                offenders.append(where)
            elif self_contained and level == 0 and top == "gblas2d" and not (
                module == f"gblas2d.{package}" or module.startswith(f"gblas2d.{package}.")
            ):
                offenders.append(where)
            elif self_contained and level > depth + 1:
                offenders.append(where)
    return offenders


def test_semirings_is_self_contained():
    assert list((REPO / "semirings").glob("*.py")), "semirings/ has no modules to check"
    assert offending_imports(REPO, "semirings", self_contained=True) == []


def test_algorithms_import_no_mpi_or_gpu():
    if not (REPO / "algorithms").is_dir():
        pytest.skip("no algorithms/ package in this checkout")
    assert offending_imports(REPO, "algorithms", self_contained=False) == []


def test_the_check_catches_offenders(tmp_path):
    # A package breaking every rule, to show the scan reports each kind of offence.
    package = tmp_path / "semirings"
    package.mkdir()
    (package / "bad.py").write_text(
        "import mpi4py.MPI\nfrom cupy import ndarray\nfrom gblas2d import comm\n"
        "from .. import grid\nfrom . import _base\nfrom gblas2d.semirings import dtypes\n"
    )
    offenders = offending_imports(tmp_path, "semirings", self_contained=True)
    assert [o.split(": ")[1] for o in offenders] == [
        "mpi4py.MPI", "cupy", "gblas2d", "..",
    ]
