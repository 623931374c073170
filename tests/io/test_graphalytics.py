"""LDBC Graphalytics graphs (NAME.v, NAME.e, NAME.properties): directed and undirected,
weighted or not, non-contiguous ids, against networkx on the same edges; every bad file
rejected with the same message on every rank.

Rank 0 writes each graph into a directory every rank agrees on; every rank then reads it.
"""

import networkx as nx
import numpy as np
import pytest
from _io_helpers import agreed, assert_agreed, grid, same_entries

import gblas2d as gb
from gblas2d.exceptions import InvalidValue
from gblas2d.io import read_graphalytics


def write(directory, name, *, v=None, e=None, properties=None):
    """Collective. Rank 0 writes the files given (``name.v``, ``name.e``,
    ``name.properties``); every rank gets the prefix ``directory/name``."""
    prefix = directory / name
    if grid().rank == 0:
        for suffix, text in ((".v", v), (".e", e), (".properties", properties)):
            if text is not None:
                prefix.with_name(name + suffix).write_text(text)
    grid().comm.barrier()
    return prefix


def directed_line(name, directed):
    return f"graph.{name}.directed = {'true' if directed else 'false'}\n"


# Non-contiguous ids, listed out of order on purpose (Graphalytics lists them ascending).
IDS = [1 << 40, 7, 3, 12, 900, 2**63 - 1, 55]
EDGES = [(7, 3, 0.5), (3, 12, 1.25), (12, 7, 2.0), (900, 2**63 - 1, 3.5), (55, 55, 4.0),
         (1 << 40, 900, 0.125)]


def edge_text(edges, weighted=True):
    return "".join(f"{a} {b} {w}\n" if weighted else f"{a} {b}\n" for a, b, w in edges)


def networkx_entries(directed):
    """(rows, cols, values) of networkx's adjacency matrix of the same graph, vertices in
    ascending id order."""
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(IDS)
    G.add_weighted_edges_from(EDGES)
    M = nx.to_scipy_sparse_array(G, nodelist=sorted(IDS), weight="weight").tocoo()
    return M.row, M.col, M.data


@pytest.mark.parametrize("directed", [True, False])
def test_weighted_graph_matches_networkx(shared_dir, directed):
    name = "directed" if directed else "undirected"
    prefix = write(shared_dir, name, v="".join(f"{i}\n" for i in IDS), e=edge_text(EDGES),
                   properties=f"# a comment\n{directed_line(name, directed)}"
                              f"graph.{name}.edge-properties.names = weight\n")
    A, ids = read_graphalytics(prefix)
    assert A.shape == (len(IDS), len(IDS)) and str(A.dtype) == "FP64"
    assert ids.size == len(IDS) and ids.nvals == len(IDS) and str(ids.dtype) == "INT64"
    r, c, v = networkx_entries(directed)
    assert agreed(same_entries(A, r, c, v.astype(np.float64), "FP64"))
    # ids[i] is the i-th id in ascending order
    assert agreed(np.array_equal(ids.to_dense(), np.sort(np.array(IDS, dtype=np.int64))))


def test_undirected_graph_is_marked_symmetric(shared_dir):
    prefix = write(shared_dir, "u", v="".join(f"{i}\n" for i in IDS), e=edge_text(EDGES),
                   properties=directed_line("u", False))
    A, _ = read_graphalytics(prefix)
    with gb.recording() as rec:
        T = A.T.new()
    r, c, v = A.to_coo()
    assert agreed(same_entries(T, c, r, v, "FP64"))
    assert "alltoallv" not in {op for op, _ in rec.totals}


def test_ids_map_indices_back_to_the_edges(shared_dir):
    prefix = write(shared_dir, "g", v="".join(f"{i}\n" for i in sorted(IDS)),
                   e=edge_text(EDGES), properties=directed_line("g", True))
    A, ids = read_graphalytics(prefix)
    rows, cols, values = A.to_coo()
    # ids.gather(index Vector) maps indices to the original ids, as the command does
    src = ids.gather(gb.Vector.from_dense(rows.astype(np.int64))).new().to_dense()
    dst = ids.gather(gb.Vector.from_dense(cols.astype(np.int64))).new().to_dense()
    got = sorted(zip(src.tolist(), dst.tolist(), values.tolist(), strict=True))
    assert agreed(got == sorted(EDGES))


@pytest.mark.parametrize("suffix", [".v", ".e", ".properties", ""])
def test_any_of_the_files_or_their_prefix_names_the_graph(shared_dir, suffix):
    prefix = write(shared_dir, "p", v="1\n2\n", e="1 2\n", properties=directed_line("p", True))
    A, ids = read_graphalytics(f"{prefix}{suffix}")
    assert A.shape == (2, 2)
    assert agreed(same_entries(A, [0], [1], [True], "BOOL"))


def test_unweighted_is_bool_and_weights_can_be_dropped_or_cast(shared_dir):
    prefix = write(shared_dir, "w", v="1\n2\n3\n", e="1 2 0.5\n2 3 1.5\n")
    A, _ = read_graphalytics(prefix, directed=True, weighted=False)
    assert agreed(same_entries(A, [0, 1], [1, 2], [True, True], "BOOL"))
    B, _ = read_graphalytics(prefix, directed=True, dtype="FP32")
    assert agreed(same_entries(B, [0, 1], [1, 2], np.float32([0.5, 1.5]), "FP32"))
    unweighted = write(shared_dir, "n", v="1\n2\n", e="1 2\n")
    with pytest.raises(InvalidValue, match="weighted=True needs a third column") as exc:
        read_graphalytics(unweighted, directed=True, weighted=True)
    assert_agreed(exc, InvalidValue)


def test_empty_graphs(shared_dir):
    A, ids = read_graphalytics(write(shared_dir, "empty", v="", e=""), directed=False)
    assert A.shape == (0, 0) and A.nvals == 0 and ids.size == 0
    B, ids = read_graphalytics(write(shared_dir, "lonely", v="4\n8\n", e=""), directed=True)
    assert B.shape == (2, 2) and B.nvals == 0
    assert agreed(np.array_equal(ids.to_dense(), [4, 8]))


def test_properties_continuations_and_separators(shared_dir):
    # Java properties: '!' comments, ':' as the separator, a value continued with '\'
    text = ("! generated\ngraph.c.algorithms = bfs, \\\n    pr\ngraph.c.directed: fal\\\n"
            "  se\n")
    A, _ = read_graphalytics(write(shared_dir, "c", v="1\n2\n", e="1 2\n", properties=text))
    assert agreed(same_entries(A, [0, 1], [1, 0], [True, True], "BOOL"))


# Each bad graph (vertex file, edge file, properties), the reading options, and its error.
BAD = [
    ("1\n2\n", "1 2\n", None, {}, "x.properties: no such file says whether the graph is "
     "directed; give directed=True or False"),
    ("1\n2\n", "1 2\n", "graph.y.directed = true\n", {},
     "x.properties: no 'graph.x.directed' entry says whether"),
    ("1\n2\n", "1 2\n", "graph.x.directed = yes\n", {},
     "x.properties: line 1: graph.x.directed must be 'true' or 'false', got 'yes'"),
    ("1\n2\n", "1 2\n", "\ngraph.x.directed = true\n", {"directed": False},
     "x.properties: line 2: the graph is directed (graph.x.directed = true); it cannot be "
     "read as undirected"),
    ("1\n2\n", "1 2\n", "graph.x.directed = false\n", {"directed": True},
     "the graph is undirected (graph.x.directed = false); it cannot be read as directed"),
    ("1\n5\n2\n", "1 2\n2 3\n", None, {"directed": True},
     "x.e: line 2: vertex 3 is not listed in "),
    ("1\n5\n2\n", "1 2\n7 1\n", None, {"directed": True}, "x.e: line 2: vertex 7 is not listed"),
    ("1\n5\n2\n5\n", "", None, {"directed": True},
     "x.v: line 4: vertex id 5 is listed again (first on line 2): '5'"),
    ("1\n2 3\n", "", None, {"directed": True},
     "x.v: line 2: 2 values where a vertex line holds one id: '2 3'"),
    ("1\n2\n\n3 4\n", "", None, {"directed": True}, "x.v: line 4: 2 values where a vertex"),
    ("1\nx\n", "", None, {"directed": True}, "x.v: line 2: vertex id 'x' is not an integer"),
    ("1\n-3\n", "", None, {"directed": True}, "x.v: line 2: negative vertex id -3"),
    ("1\n99999999999999999999\n", "", None, {"directed": True}, "does not fit in int64"),
    ("1\n2\n", "1 2\n2 x\n", None, {"directed": True},
     "x.e: line 2: vertex id 'x' is not an integer"),
    ("1\n2\n", "1 2 0.5\n2 1\n", None, {"directed": True},
     "x.e: line 2: 2 columns where the first edge line has 3"),
    ("1\n2\n", "1 2\n1 2\n", None, {"directed": True},
     "x.e: repeated edges; a Graphalytics edge file lists each edge once"),
    ("1\n2\n", "1 2\n2 1\n", None, {"directed": False},
     "lists each edge once (in one direction: the graph is undirected)"),
]


@pytest.mark.parametrize("k", range(len(BAD)))
def test_bad_graph_is_rejected_on_every_rank(shared_dir, k):
    v, e, properties, options, problem = BAD[k]
    folder = shared_dir / f"bad{k}"
    if grid().rank == 0:
        folder.mkdir()
    prefix = write(folder, "x", v=v, e=e, properties=properties)
    with pytest.raises(InvalidValue) as exc:
        read_graphalytics(prefix, **options)
    assert_agreed(exc, InvalidValue)
    assert str(exc.value).startswith(str(folder) + "/")
    assert problem in str(exc.value)


def test_missing_files_and_bad_options(shared_dir):
    prefix = write(shared_dir, "half", v="1\n", properties=directed_line("half", True))
    with pytest.raises(FileNotFoundError) as exc:
        read_graphalytics(prefix)
    assert_agreed(exc, FileNotFoundError)
    assert str(exc.value) == f"{prefix}.e: No such file or directory"
    for options in ({"directed": "yes"}, {"weighted": 1.5}):
        with pytest.raises(ValueError) as exc:
            read_graphalytics(prefix, **options)
        assert_agreed(exc, ValueError)


@pytest.mark.parametrize("order", ["ascending", "shuffled"])
@pytest.mark.parametrize("directed", [True, False])
def test_a_larger_graph_matches_networkx_read_in_parallel_or_on_rank_0(shared_dir, order,
                                                                      directed):
    """A vertex file in ascending order is read in parallel (each rank its lines, the
    endpoints' positions asked of the ranks holding them); shuffled, rank 0 sorts it. Both
    give networkx's graph, and an endpoint missing from the vertex file deep in the edge
    file is blamed by its line."""
    rng = np.random.default_rng(8)
    ids = np.unique(rng.integers(0, 1 << 50, 400))
    listed = ids if order == "ascending" else rng.permutation(ids)
    a, b = rng.choice(ids, 1500), rng.choice(ids, 1500)
    pairs = np.unique(np.stack([np.minimum(a, b), np.maximum(a, b)], axis=1), axis=0)
    weights = np.round(rng.random(len(pairs)) * 10, 3)
    edges = [(int(u), int(v), float(w)) for (u, v), w in zip(pairs, weights, strict=True)]
    vertex_text = "".join(f"{i}\n" for i in listed)
    name = f"big-{order}-{directed}"
    prefix = write(shared_dir, name, v=vertex_text, e=edge_text(edges),
                   properties=directed_line(name, directed))
    A, got_ids = read_graphalytics(prefix)
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(ids.tolist())
    G.add_weighted_edges_from(edges)
    M = nx.to_scipy_sparse_array(G, nodelist=ids.tolist(), weight="weight").tocoo()
    assert agreed(same_entries(A, M.row, M.col, M.data, "FP64"))
    assert got_ids.to_coo()[1].tolist() == ids.tolist()
    edges[1000] = (int(ids[3]), 5, 1.0)  # 5 is no vertex
    bad = write(shared_dir, name + "-bad", v=vertex_text, e=edge_text(edges),
                properties=directed_line(name + "-bad", directed))
    with pytest.raises(InvalidValue, match=r"line 1001: vertex 5 is not listed in") as exc:
        read_graphalytics(bad)
    assert_agreed(exc, InvalidValue)
