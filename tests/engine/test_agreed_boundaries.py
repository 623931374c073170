"""Every public call ends the same way on every rank, whatever fails where
(docs/concepts.md, "SPMD rules"; issue 13, item 3).

A failure is injected on the last rank alone: before a call's first collective, between two,
inside one (after the exchange of counts, where the receive buffer is allocated), and after the
last. Every rank must raise the same class with the same message, leave the caller's objects as
they were, and go on to the next call. Under ``mpiexec`` the suite's timeout turns a hang into a
failure; at one process the failure simply passes through.
"""

import numpy as np
import pytest
from _helpers import agreed

import gblas2d as gb
from gblas2d import generators, semiring
from gblas2d.distributed import comm
from gblas2d.distributed import redistribute as _redistribute
from gblas2d.local import backends
from gblas2d.surface import matrix

N = 40
MESSAGE = "injected on the last rank"


def last_rank():
    g = gb.default_grid()
    return g.rank == g.nprocs - 1


def failing(function):
    """``function``, except that it raises MemoryError on the last rank."""

    def call(*args, **kwargs):
        if last_rank():
            raise MemoryError(MESSAGE)
        return function(*args, **kwargs)

    return call


def assert_agreed(excinfo):
    """Every rank raised the MemoryError, which names the rank that ran out of memory."""
    e = excinfo.value
    g = gb.default_grid()
    want = MESSAGE if g.nprocs == 1 else f"rank {g.nprocs - 1}: {MESSAGE}"
    seen = g.comm.allgather_object((type(e).__name__, str(e)))
    assert all(s == ("MemoryError", want) for s in seen), seen


@pytest.fixture
def graph():
    rng = np.random.default_rng(7)
    keys = np.unique(rng.integers(0, N, 200) * N + rng.integers(0, N, 200))
    A = gb.Matrix.from_coo(keys // N, keys % N, 1.0, nrows=N, ncols=N)
    x = gb.Vector.from_coo(np.arange(0, N, 3), 1.0, size=N)
    return A, x


def snapshot(obj):
    return obj.nvals, tuple(a.tolist() for a in obj.to_coo())


def still_works(A, x, before):
    """The objects are as they were, and the next collective calls run on every rank."""
    assert snapshot(x) == before
    y = A.mxv(x, semiring.plus_times).new()
    assert agreed(y.nvals == A.mxv(x, semiring.plus_times).new().nvals)


def test_between_collectives_the_local_product(graph, monkeypatch):
    A, x = graph
    before = snapshot(x)
    plan = backends.plan

    def failing_plan(kernel, *args, **kwargs):
        """The planned kernel, failing on the last rank when it is the local product."""
        chosen = plan(kernel, *args, **kwargs)
        return failing(chosen) if kernel == "spmv" else chosen

    monkeypatch.setattr(backends, "plan", failing_plan)
    with pytest.raises(MemoryError) as excinfo:
        x(mask=x.S, accum=gb.binary.plus) << A.mxv(x, semiring.plus_times)
    assert_agreed(excinfo)
    monkeypatch.undo()
    still_works(A, x, before)


def test_inside_an_exchange_after_the_counts(graph, monkeypatch):
    """The receive buffer cannot be allocated on one rank once the counts are known."""
    A, x = graph
    before = snapshot(x)
    real = np.empty

    class Numpy:
        def __getattr__(self, name):
            return getattr(np, name)

        @staticmethod
        def empty(shape, *args, **kwargs):
            # Only the data buffers (about N entries here): the counts and flags are a few
            # entries, or a table of them.
            if last_rank() and isinstance(shape, int) and shape >= N // 2:
                raise MemoryError(MESSAGE)
            return real(shape, *args, **kwargs)

    monkeypatch.setattr(comm, "np", Numpy())
    build = lambda: gb.Vector.from_coo(np.arange(N), np.arange(N), size=N,  # noqa: E731
                                        distributed=True)
    if gb.default_grid().nprocs == 1:
        assert build().nvals == N  # one process exchanges nothing
    else:
        with pytest.raises(MemoryError) as excinfo:
            build()
        assert_agreed(excinfo)
    monkeypatch.undo()
    still_works(A, x, before)


def test_routing_a_distributed_build(graph, monkeypatch):
    A, x = graph
    before = snapshot(A)
    monkeypatch.setattr(_redistribute, "_send_grouped", failing(_redistribute._send_grouped))
    build = lambda: gb.Matrix.from_coo([1, 2], [3, 4], 1.0, nrows=N, ncols=N,  # noqa: E731
                                        distributed=True)
    if gb.default_grid().nprocs == 1:
        assert build().nvals == 2  # one process routes nothing
    else:
        with pytest.raises(MemoryError) as excinfo:
            build()
        assert_agreed(excinfo)
    monkeypatch.undo()
    assert snapshot(A) == before
    still_works(A, x, snapshot(x))


def test_after_the_last_collective(graph, monkeypatch):
    """``to_coo`` sorts what it gathered: nothing follows but the call's own end."""
    A, x = graph
    monkeypatch.setattr(np, "lexsort", failing(np.lexsort))
    with pytest.raises(MemoryError) as excinfo:
        A.to_coo()
    monkeypatch.undo()
    assert_agreed(excinfo)
    still_works(A, x, snapshot(x))


def test_in_a_reduction_before_its_fold(graph, monkeypatch):
    A, x = graph
    before = snapshot(x)
    monkeypatch.setattr(matrix, "held_as_bitmap", failing(matrix.held_as_bitmap))
    with pytest.raises(MemoryError) as excinfo:
        x << A.reduce_rowwise()
    monkeypatch.undo()
    assert_agreed(excinfo)
    still_works(A, x, before)


def test_before_the_first_collective_of_a_generator(graph, monkeypatch):
    A, x = graph
    monkeypatch.setattr(generators, "vertex_permutation",
                        failing(generators.vertex_permutation))
    with pytest.raises(MemoryError) as excinfo:
        generators.rmat(5, 4, seed=3)
    monkeypatch.undo()
    assert_agreed(excinfo)
    still_works(A, x, snapshot(x))


def test_a_failure_that_is_not_an_exception_class_of_the_library(graph, monkeypatch):
    """A class the other ranks cannot rebuild from its message still arrives, by name."""
    A, x = graph

    class Odd(Exception):
        def __init__(self, a, b):
            super().__init__(f"{a}/{b}")

    def odd(*args, **kwargs):
        if last_rank():
            raise Odd(1, 2)
        return real(*args, **kwargs)

    real = matrix.held_as_bitmap
    monkeypatch.setattr(matrix, "held_as_bitmap", odd)
    with pytest.raises(Exception) as excinfo:
        A.reduce_rowwise().new()
    monkeypatch.undo()
    e = excinfo.value
    seen = gb.default_grid().comm.allgather_object(str(e))
    assert isinstance(e, Odd) if last_rank() else "Odd" in str(e) and "1/2" in str(e)
    assert all("1/2" in s for s in seen), seen
    still_works(A, x, snapshot(x))


def test_numpys_own_memory_error_is_a_memory_error_on_every_rank(graph, monkeypatch):
    """numpy's MemoryError (``_ArrayMemoryError``, which cannot be rebuilt from its message) on
    one rank: a MemoryError on every rank, naming that rank and the size it asked for, not a
    RuntimeError elsewhere (issue 46)."""
    A, x = graph
    real = matrix.held_as_bitmap

    def huge(*args, **kwargs):
        if last_rank():
            np.empty(1 << 50, dtype=np.int64)
        return real(*args, **kwargs)

    monkeypatch.setattr(matrix, "held_as_bitmap", huge)
    with pytest.raises(MemoryError) as excinfo:
        A.reduce_rowwise().new()
    monkeypatch.undo()
    g = gb.default_grid()
    size = "Unable to allocate 8.00 PiB for an array with shape (1125899906842624,) and " \
           "data type int64"
    e = excinfo.value
    seen = g.comm.allgather_object((type(e) is MemoryError, str(e)))
    if g.nprocs == 1:
        assert seen == [(False, size)]  # numpy's own, passed through
    else:
        assert all(s == (True, f"rank {g.nprocs - 1}: {size}") for s in seen), seen
    still_works(A, x, snapshot(x))


COLLECTIVES = ("step", "allreduce", "allgatherv", "exchange", "sendrecv")


def failing_at(monkeypatch, k, when):
    """Make the last rank raise MemoryError at its k-th collective call (counted from 0),
    ``before`` it enters it or ``after`` it returns; returns the counter (k < 0: count only)."""
    seen = [0]
    for name in COLLECTIVES:
        real = getattr(comm.Comm, name)

        def call(self, *args, _real=real, **kwargs):
            n = seen[0]
            seen[0] += 1
            if n == k and when == "before" and last_rank():
                raise MemoryError(MESSAGE)
            out = _real(self, *args, **kwargs)
            if n == k and when == "after" and last_rank():
                raise MemoryError(MESSAGE)
            return out

        monkeypatch.setattr(comm.Comm, name, call)
    return seen


@pytest.mark.parametrize("orient", ["vxm", "mxv"])
@pytest.mark.parametrize("direction", [None, "push", "pull"])
def test_one_rank_failing_at_each_collective_of_a_product_in_turn(graph, monkeypatch, orient,
                                                                    direction):
    """BFS's masked step, with the last rank failing at each of its collectives in turn, on
    the way in and on the way out (issue 28): every rank raises the same MemoryError, the
    output is unchanged, and the next products run (the groups are in step again)."""
    A, x = graph
    visited = gb.Vector.from_coo(np.arange(0, N, 4), True, size=N)
    q = gb.Vector.from_coo(np.arange(1, N, 9), True, size=N)
    expr = q.vxm(A, semiring.any_pair) if orient == "vxm" else A.mxv(q, semiring.any_pair)
    opts = {} if direction is None else {"direction": direction}
    w = gb.Vector.from_coo([0, 1], True, size=N)
    before = snapshot(w)
    scratch = w.dup()
    scratch(~visited.S, replace=True, **opts) << expr  # warm: the degrees are cached
    seen = failing_at(monkeypatch, -1, "before")
    scratch(~visited.S, replace=True, **opts) << expr
    monkeypatch.undo()
    mine = seen[0] if last_rank() else 0
    calls = int(gb.default_grid().comm.allreduce(np.array([mine]), "max")[0])
    assert calls >= 1
    for k in range(calls):
        # The last call is the write's final step, after which only the install of the agreed
        # result runs (``Write.install``, which allocates nothing): the call ends there.
        for when in ("before", "after") if k < calls - 1 else ("before",):
            failing_at(monkeypatch, k, when)
            with pytest.raises(MemoryError) as excinfo:
                w(~visited.S, replace=True, **opts) << expr
            monkeypatch.undo()
            assert_agreed(excinfo)
            assert snapshot(w) == before
    still_works(A, x, snapshot(x))
