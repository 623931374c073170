"""What NetworkX reads about the backend at ``import networkx`` (``_nx_gblas2d.get_info``).

Its function list must be exactly the functions ``gblas2d.nx.BackendInterface`` dispatches,
each with a note (``additional_docs``) that NetworkX shows in the function's docstring; and the
module must load without gblas2d, NetworkX or numpy, as NetworkX imports it at its own import.
"""

import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

import _nx_gblas2d

B = "gblas2d"
ROOT = Path(__file__).resolve().parents[2]


def dispatched():
    """The names of the functions BackendInterface exposes to NetworkX."""
    import gblas2d.nx

    return {name for name, f in vars(gblas2d.nx.BackendInterface).items()
            if isinstance(f, staticmethod)} - {"convert_from_nx", "convert_to_nx",
                                               "can_run", "should_run"}


def test_info_lists_exactly_the_dispatched_functions():
    functions = _nx_gblas2d.get_info()["functions"]
    names = dispatched()
    assert sorted(functions) == sorted(names) == list(_nx_gblas2d.FUNCTIONS)
    assert len(names) == 109
    # a function takes a graph, or is a generator or a class's construction (no graph to
    # convert), one of the three
    kinds = [set(_nx_gblas2d.NOTES), set(_nx_gblas2d.GENERATOR_NOTES),
             set(_nx_gblas2d.CLASS_NOTES)]
    assert sum(map(len, kinds)) == len(set().union(*kinds))
    assert set(_nx_gblas2d.CLASS_NOTES) == {"graph__new__", "digraph__new__"}


def test_every_dispatched_function_has_a_note():
    """Non-empty, in three parts: how gblas2d computes it, what can_run declines (multigraphs
    for every function that takes a graph), and how the result compares with NetworkX's."""
    functions = _nx_gblas2d.get_info()["functions"]
    takes_none = {**_nx_gblas2d.GENERATOR_NOTES, **_nx_gblas2d.CLASS_NOTES}
    parts = {**_nx_gblas2d.NOTES, **takes_none}
    for name in dispatched():
        how, _, result = parts[name]
        assert how.strip() and result.strip(), name
        docs = functions[name]["additional_docs"]
        assert docs.strip() and "\nDeclines: " in docs, name
        assert name in takes_none or "\nDeclines: multigraphs" in docs, name
        # no extra keyword arguments: the backend's signatures are NetworkX's
        assert "additional_parameters" not in functions[name]


def test_notes_read_as_plain_text_in_networkx_docs():
    """NetworkX's docs are reStructuredText: no ``|`` (a substitution) and no line that
    starts a list."""
    for name, info in _nx_gblas2d.get_info()["functions"].items():
        for line in info["additional_docs"].splitlines():
            assert "|" not in line and not line.startswith(("* ", "- ", "+ ")), (name, line)
            assert len(line) <= _nx_gblas2d.WIDTH, (name, line)


def test_networkx_shows_the_notes():
    """The entry point NetworkX read is this module, and the docstring carries the note."""
    assert nx.utils.backends.backend_info[B]["functions"] == \
        _nx_gblas2d.get_info()["functions"]
    for f in (nx.pagerank, nx.bfs_layers, nx.bipartite.color, nx.path_graph,
              nx.Graph.__new__):
        note = _nx_gblas2d.additional_docs(f.name)
        assert all(f"      {line}" in f.__doc__ for line in note.splitlines()), f.name


@pytest.mark.serial_only
def test_info_imports_nothing_heavy():
    code = ("import sys, _nx_gblas2d; _nx_gblas2d.get_info(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'gblas2d', 'networkx', 'numpy', 'scipy', 'mpi4py'}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
