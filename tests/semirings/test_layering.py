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


def engine_imports(package, installed_as=None):
    """``(graph, private)``: for each module directly in ``package``, the sibling modules it
    imports (at any depth in the file, deferred imports included), and every import anywhere
    below ``package`` of an underscore name that is not a module. ``installed_as`` maps a
    subpackage path to the folder it is installed from (``gblas2d/semirings`` is
    ``semirings/``)."""
    installed_as = installed_as or {}
    graph, private = {}, []
    for path in sorted(package.rglob("*.py")):
        here = path.parent
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            base = here
            for _ in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*node.module.split(".")) if node.module else base
            target = installed_as.get(target, target)
            for alias in node.names:
                is_module = (target / f"{alias.name}.py").exists() or \
                    (target / alias.name).is_dir()
                if alias.name.startswith("_") and not is_module:
                    private.append(f"{path.relative_to(package)}:{node.lineno}: {alias.name}")
                if here == package and target == package and is_module:
                    graph.setdefault(path.stem, set()).add(alias.name)
                elif here == package and node.module and base == package:
                    graph.setdefault(path.stem, set()).add(node.module.split(".")[0])
    return graph, private


def cycle_in(graph):
    """One import cycle of ``graph`` as a list of modules, or None."""
    state = {}

    def visit(module, path):
        state[module] = "open"
        for dep in sorted(graph.get(module, ())):
            if state.get(dep) == "open":
                return path[path.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep, path + [dep])
                if found:
                    return found
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module, [module])
            if found:
                return found
    return None


# What each layer of the engine may import besides itself (docs/concepts.md): the surface
# builds on the 2D layer alone, which moves the local layer's blocks and pieces; I/O builds on
# all three. Every layer may read the algebra (semirings) and the exceptions.
LAYERS = {
    "local": set(),
    "distributed": {"local"},
    "surface": {"distributed"},
    "io": {"surface", "distributed", "local"},
}
SHARED = {"semirings", "exceptions"}


def layer_imports(root, layer):
    """``(file:line: target, layer imported)`` for each relative import in ``root/layer`` that
    reaches outside the layer, read from the source."""
    found = []
    for path in sorted((root / layer).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            base = path.parent
            for _ in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*node.module.split(".")) if node.module else base
            parts = target.relative_to(root).parts
            names = [alias.name for alias in node.names] if not parts else [parts[0]]
            for name in names:
                if name.removesuffix(".py") != layer:
                    found.append((f"{path.relative_to(root)}:{node.lineno}", name))
    return found


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_each_layer_imports_only_the_layers_below_it(layer):
    allowed = LAYERS[layer] | SHARED | {layer}
    reached = layer_imports(REPO / "gblas2d", layer)
    assert reached, f"gblas2d/{layer}/ imports nothing outside itself: is the scan reading it?"
    assert [(where, name) for where, name in reached if name not in allowed] == []


def test_the_layer_check_catches_an_upward_import(tmp_path):
    (tmp_path / "local").mkdir()
    (tmp_path / "local" / "a.py").write_text(
        "from ..surface.matrix import Matrix\nfrom .. import exceptions\nfrom . import b\n")
    assert layer_imports(tmp_path, "local") == [("local/a.py:1", "surface"),
                                                ("local/a.py:2", "exceptions")]


@pytest.mark.parametrize("layer", sorted(LAYERS) + ["cli", "nx"])
def test_engine_modules_import_without_cycles_or_private_names(layer):
    """Inside each layer the modules import one another one way, and no module imports
    another's underscore names."""
    graph, private = engine_imports(
        REPO / "gblas2d" / layer, {REPO / "gblas2d" / "semirings": REPO / "semirings"})
    graph.pop("__init__", None)
    assert cycle_in(graph) is None
    assert private == []


def test_the_public_modules_import_no_private_names():
    _, private = engine_imports(
        REPO / "gblas2d", {REPO / "gblas2d" / "semirings": REPO / "semirings"})
    assert private == []


def test_the_engine_check_catches_cycles_and_private_imports(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("from .b import thing\n")
    (package / "b.py").write_text("def f():\n    from .a import _hidden\n")
    (package / "_mod.py").write_text("")
    (package / "c.py").write_text("from . import _mod\n")
    graph, private = engine_imports(package)
    assert cycle_in(graph) == ["a", "b", "a"]
    assert private == ["b.py:2: _hidden"]
