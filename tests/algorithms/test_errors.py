"""Bad input is rejected before any work, with a named error whose text is the same on every
rank and on both engines; the next collective still works.

Each case is a call that must raise; it runs on gblas2d and on python-graphblas objects, and
the two messages must match (they come from the algorithms' own checks).
"""

import graphblas as G
import numpy as np
import pytest
import scipy.sparse as sp
from _graphs import (
    ENGINES,
    LIBS,
    assert_agreed,
    assert_dense,
    assert_same_error_everywhere,
    graph,
    levels_ref,
)
from gblas2d.algorithms import (
    bfs_levels,
    bfs_parents,
    connected_components,
    engine,
    pagerank,
    sssp,
    validate_bfs_tree,
)

import gblas2d as gb
from gblas2d.exceptions import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue

N = 34  # karate


def square(lib):
    return graph("karate").on(lib)


def rectangular(lib):
    return ENGINES[lib].Matrix.from_coo([0, 1], [1, 2], 1.0, nrows=3, ncols=4)


def boolean(lib):
    return graph("ldbc-directed-example-bool").on(lib)


def int_vector(lib, size=N, dtype="INT64"):
    return ENGINES[lib].Vector.from_coo([0, 1], [0, 0], dtype=dtype, size=size)


# (id, expected class, call on the engine named by lib, a fragment of the message)
CASES = [
    ("bfs-source-too-large", IndexOutOfBound, lambda L: bfs_levels(square(L), N), "(=34)"),
    ("bfs-source-negative", IndexOutOfBound, lambda L: bfs_levels(square(L), -1), "(=-1)"),
    ("parents-batch-out-of-range", IndexOutOfBound,
     lambda L: bfs_parents(square(L), [0, 3, N + 2]), "(=36)"),
    ("sssp-source-out-of-range", IndexOutOfBound, lambda L: sssp(square(L), N), "34 vertices"),
    ("validate-source-out-of-range", IndexOutOfBound,
     lambda L: validate_bfs_tree(square(L), N, int_vector(L)), "(=34)"),
    ("bfs-float-source", TypeError, lambda L: bfs_levels(square(L), 1.0), "float"),
    ("bfs-bool-source", TypeError, lambda L: bfs_levels(square(L), True), "bool"),
    ("bfs-none-source", TypeError, lambda L: bfs_parents(square(L), None), "NoneType"),
    ("bfs-float-in-batch", TypeError, lambda L: bfs_levels(square(L), [0, 2.0]), "float"),
    ("bfs-string-source", TypeError, lambda L: bfs_levels(square(L), "0"), "str"),
    ("sssp-float-source", TypeError, lambda L: sssp(square(L), np.float64(2)), "float"),
    ("validate-float-source", TypeError,
     lambda L: validate_bfs_tree(square(L), 0.0, int_vector(L)), "float"),
    ("bfs-empty-batch", InvalidValue, lambda L: bfs_levels(square(L), []), "at least one"),
    ("bfs-rectangular", DimensionMismatch, lambda L: bfs_levels(rectangular(L), 0), "(=4)"),
    ("parents-rectangular", DimensionMismatch, lambda L: bfs_parents(rectangular(L), 0),
     "(=4)"),
    ("validate-rectangular", DimensionMismatch,
     lambda L: validate_bfs_tree(rectangular(L), 0, int_vector(L, 3)), "(=4)"),
    ("pagerank-rectangular", DimensionMismatch, lambda L: pagerank(rectangular(L)), "(=4)"),
    ("cc-rectangular", DimensionMismatch, lambda L: connected_components(rectangular(L)),
     "(=4)"),
    ("sssp-rectangular", DimensionMismatch, lambda L: sssp(rectangular(L), 0), "(=4)"),
    ("validate-parents-size", DimensionMismatch,
     lambda L: validate_bfs_tree(square(L), 0, int_vector(L, N + 1)), "(=35)"),
    ("sssp-bool", DomainMismatch, lambda L: sssp(boolean(L), 0), "BOOL"),
    ("sssp-bool-delta", DomainMismatch, lambda L: sssp(boolean(L), 0, "delta_stepping"),
     "BOOL"),
    ("validate-float-parents", DomainMismatch,
     lambda L: validate_bfs_tree(square(L), 0, int_vector(L, dtype="FP64")), "FP64"),
    ("validate-float-levels", DomainMismatch,
     lambda L: validate_bfs_tree(square(L), 0, int_vector(L), levels=int_vector(L, dtype="FP32")),
     "FP32"),
    ("sssp-delta-zero", InvalidValue,
     lambda L: sssp(square(L), 0, "delta_stepping", delta=0), "(=0)"),
    ("sssp-delta-nan", InvalidValue,
     lambda L: sssp(square(L), 0, "delta_stepping", delta=float("nan")), "(=nan)"),
    ("cc-method", InvalidValue, lambda L: connected_components(square(L), "dfs"), "'dfs'"),
    ("sssp-method", InvalidValue, lambda L: sssp(square(L), 0, "dijkstra"), "'dijkstra'"),
    ("pagerank-variant", InvalidValue, lambda L: pagerank(square(L), variant="nx"), "'nx'"),
    ("pagerank-damping-one", InvalidValue, lambda L: pagerank(square(L), 1.0), "(=1.0)"),
    ("pagerank-damping-negative", InvalidValue, lambda L: pagerank(square(L), -0.1), "(=-0.1)"),
    ("pagerank-damping-nan", InvalidValue, lambda L: pagerank(square(L), float("nan")), "nan"),
    ("pagerank-tol-zero", InvalidValue, lambda L: pagerank(square(L), tol=0), "(=0)"),
    ("pagerank-tol-negative", InvalidValue, lambda L: pagerank(square(L), tol=-1e-3), "(=-0.001)"),
    ("pagerank-max-iter", InvalidValue, lambda L: pagerank(square(L), max_iter=0), "(=0)"),
    ("pagerank-max-iter-fraction", InvalidValue, lambda L: pagerank(square(L), max_iter=2.5),
     "(=2.5)"),
]
NOT_A_MATRIX = [
    ("numpy", lambda L: np.eye(3)),
    ("scipy", lambda L: sp.eye_array(3, format="csr")),
    ("list", lambda L: [[0, 1], [1, 0]]),
    ("vector", lambda L: int_vector(L, 3)),
]
ALGORITHMS = [
    ("bfs_levels", lambda A: bfs_levels(A, 0)),
    ("bfs_parents", lambda A: bfs_parents(A, 0)),
    ("validate_bfs_tree", lambda A: validate_bfs_tree(A, 0, None)),
    ("pagerank", pagerank),
    ("connected_components", connected_components),
    ("sssp", lambda A: sssp(A, 0)),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input(case):
    _, cls, call, fragment = case
    assert_same_error_everywhere(cls, call, fragment)


@pytest.mark.parametrize("kind,make", NOT_A_MATRIX, ids=[k[0] for k in NOT_A_MATRIX])
@pytest.mark.parametrize("algorithm,call", ALGORITHMS, ids=[a[0] for a in ALGORITHMS])
def test_not_a_matrix(kind, make, algorithm, call):
    # A Vector belongs to an engine too, but is no graph.
    for lib in LIBS:
        A = make(lib)
        with pytest.raises(TypeError) as exc:
            call(A)
        assert_agreed(exc, TypeError)
        assert type(A).__name__ in str(exc.value)


@pytest.mark.parametrize("parents", [np.zeros(N, dtype=np.int64), [0] * N, None],
                         ids=["numpy", "list", "none"])
def test_parents_not_a_vector(parents):
    for lib in LIBS:
        with pytest.raises(TypeError) as exc:
            validate_bfs_tree(square(lib), 0, parents)
        assert_agreed(exc, TypeError)
        assert type(parents).__name__ in str(exc.value)
        if parents is None:
            continue  # levels=None asks for the depths in the tree
        with pytest.raises(TypeError) as exc:
            validate_bfs_tree(square(lib), 0, int_vector(lib), levels=parents)
        assert_agreed(exc, TypeError)


def test_collectives_line_up_after_the_errors():
    # Every rank raised at the same point above, so the next collectives pair up: run every
    # error again, then a search that needs the whole grid.
    for _, cls, call, _ in CASES:
        with pytest.raises(cls) as exc:
            call("gblas2d")
        assert_agreed(exc, cls)
    g = graph("karate")
    assert_dense(bfs_levels(g.gb, 0), levels_ref(g, 0), "INT64")
    assert_dense(connected_components(g.gb), np.zeros(N, dtype=np.int64), "INT64")


def test_the_engine_of_an_input_is_public_and_refuses_anything_else():
    """``engine`` (issue 32): the namespace a user's algorithm makes its workspace from."""
    ours, theirs = engine(gb.Vector(int, 3)), engine(G.Vector(int, 3))
    assert ours.name == "gblas2d" and ours.Vector is gb.Vector
    assert theirs.Matrix is G.Matrix and theirs.semiring is G.semiring
    with pytest.raises(TypeError, match="expected a gblas2d or python-graphblas Matrix or "
                                        "Vector, got list"):
        engine([1, 2])
