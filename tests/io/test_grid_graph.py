"""The mesh generator: the structure of networkx's grid_2d_graph (and of the king's graph,
the strong product of two paths, with ``diagonal``), and the same Matrix, weights included, at
any rank count: the parts of the edge list concatenate to the one-part list, and the Matrix
built from P parts equals the one built from the whole list.
"""

import networkx as nx
import numpy as np
import pytest
from _io_helpers import agreed, same_entries

import gblas2d as gb
from gblas2d import generators
from gblas2d.io.generators import grid_graph


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 7 edges, so a small mesh spans many chunks (and a short last one)."""
    monkeypatch.setattr(generators, "CHUNK", 7)


def networkx_entries(nrows, ncols, diagonal):
    paths = nx.path_graph(nrows), nx.path_graph(ncols)
    G = nx.strong_product(*paths) if diagonal else nx.grid_2d_graph(nrows, ncols)
    pairs = [(a * ncols + b, x * ncols + y) for (a, b), (x, y) in G.edges()]
    pairs += [(v, u) for u, v in pairs]
    r, c = (np.array(t, dtype=np.int64) for t in zip(*pairs, strict=True)) if pairs else \
        (np.empty(0, np.int64), np.empty(0, np.int64))
    return r, c


@pytest.mark.parametrize("diagonal", [False, True])
@pytest.mark.parametrize("shape", [(1, 1), (1, 6), (6, 1), (4, 5), (9, 13)])
def test_structure_matches_networkx(shape, diagonal):
    A = grid_graph(*shape, diagonal=diagonal)
    r, c = networkx_entries(*shape, diagonal)
    assert A.shape == (shape[0] * shape[1],) * 2
    assert agreed(same_entries(A, r, c, np.ones(len(r)), "FP64"))


def test_zero_rows_is_empty():
    A = grid_graph(0, 5)
    assert A.shape == (0, 0) and A.nvals == 0


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("nparts", [1, 2, 3, 5])
def test_parts_make_the_one_part_list(nparts):
    whole = generators._concatenated(generators._grid_chunks(6, 7, True, 4, 0, 1, True))
    parts = [generators._concatenated(generators._grid_chunks(6, 7, True, 4, p, nparts, True))
             for p in range(nparts)]
    for k in range(3):
        assert np.array_equal(np.concatenate([part[k] for part in parts]), whole[k])


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("diagonal", [False, True])
def test_weighted_matrix_is_the_same_at_any_rank_count(diagonal):
    A = grid_graph(5, 8, diagonal=diagonal, weights="uniform", seed=9, dtype="FP32")
    src, dst, w = generators._concatenated(generators._grid_chunks(5, 8, diagonal, 9, 0, 1, True))
    r, c = np.concatenate([src, dst]), np.concatenate([dst, src])
    want = np.concatenate([w, w]).astype(np.float32)
    assert agreed(same_entries(A, r, c, want, "FP32"))
    assert np.all((0 <= w) & (w < 1))


def test_seeds():
    A = grid_graph(4, 4, weights="uniform", seed=1)
    assert A.isequal(grid_graph(4, 4, weights="uniform", seed=1))
    assert not A.isequal(grid_graph(4, 4, weights="uniform", seed=2))
    # the structure does not depend on the seed
    assert A.apply(gb.unary.one).new().isequal(grid_graph(4, 4, seed=2))


def test_invalid_arguments_rejected():
    with pytest.raises(ValueError, match="nrows"):
        grid_graph(-1, 3)
    with pytest.raises(ValueError, match="ncols"):
        grid_graph(3, 2.5)
    with pytest.raises(ValueError, match="weights"):
        grid_graph(3, 3, weights="normal")
    with pytest.raises(ValueError, match="seed"):
        grid_graph(3, 3, seed=-1)
