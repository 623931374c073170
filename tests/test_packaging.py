"""What a plain install holds (issue 44): every package of the source tree is in pyproject.toml's
list, which names only folders that exist, and the package folders hold only modules (a data
file would need package-data). CI builds the wheel and runs every command from it
(``.ci/check_install``)."""

from pathlib import Path

import tomllib

REPO = Path(__file__).resolve().parents[1]


def setuptools_table():
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]


def source_folder(package, package_dir):
    """The folder that holds ``package``, by the longest prefix that ``package_dir`` maps."""
    parts = package.split(".")
    for k in range(len(parts), 0, -1):
        head = ".".join(parts[:k])
        if head in package_dir:
            return REPO / package_dir[head] / Path(*parts[k:])
    return REPO / Path(*parts)


def packages_on_disk(package_dir):
    """Every package of the tree: each folder with an ``__init__.py`` under a mapped root."""
    found = set()
    for root, folder in package_dir.items():
        for init in (REPO / folder).rglob("__init__.py"):
            inside = init.parent.relative_to(REPO / folder).parts
            found.add(".".join((root, *inside)))
    return found


def test_every_package_of_the_tree_is_listed():
    table = setuptools_table()
    listed, package_dir = set(table["packages"]), table["package-dir"]
    assert "gblas2d.model" in listed
    assert packages_on_disk(package_dir) - listed == set()


def test_every_listed_package_is_a_folder_with_an_init():
    table = setuptools_table()
    missing = [p for p in table["packages"]
               if not (source_folder(p, table["package-dir"]) / "__init__.py").is_file()]
    assert missing == []


def test_package_folders_hold_only_modules():
    table = setuptools_table()
    others = []
    for package in table["packages"]:
        folder = source_folder(package, table["package-dir"])
        others += [str(f.relative_to(REPO)) for f in folder.iterdir()
                   if f.is_file() and f.suffix != ".py"]
    assert others == []


def test_the_check_sees_a_missing_package():
    # the tree scan finds a package the list lacks, as it would have found gblas2d.model
    table = setuptools_table()
    listed = set(table["packages"]) - {"gblas2d.model"}
    assert packages_on_disk(table["package-dir"]) - listed == {"gblas2d.model"}
