"""Vector pieces (``gblas2d.local.piece``): the format follows the density, and the write rule
``C<M, replace> = accum(C, T)`` matches a dense reference in every format pairing, whether it
installs a new piece or patches a bitmap in place.

Local: no communication, so these run only in the one-process session.
"""

import itertools

import numpy as np
import pytest
from gblas2d.semirings import binary

from gblas2d.local.piece import Piece, PieceMask, accumulated, ewise, write

pytestmark = pytest.mark.serial_only

SIZE = 640


def piece_of(present, values, fmt):
    """A piece of the given entries, forced into ``fmt`` ("sparse" or "bitmap")."""
    idx = np.flatnonzero(present)
    if fmt == "bitmap":
        return Piece(len(present), values.dtype, present=present.copy(), values=values.copy())
    return Piece(len(present), values.dtype, idx=idx, vals=values[idx])


def dense(piece):
    return piece.bitmap().copy(), np.where(piece.bitmap(), piece.dense_values(), 0)


def reference_write(c, t, allowed, accum, replace):
    """GraphBLAS's write rule on dense (present, values) pairs."""
    (cp, cv), (tp, tv) = c, t
    if accum is None:
        zp, zv = tp, tv
    else:
        zp = cp | tp
        zv = np.where(tp, tv, cv)
        both = cp & tp
        zv[both] = accum.evaluate(cv[both], tv[both])
    if allowed is None:
        return zp, zv
    keep_c = cp & ~allowed & (not replace)
    return (zp & allowed) | keep_c, np.where(allowed, zv, cv)


@pytest.mark.parametrize("density", [0.0, 0.003, 0.01, 0.03, 0.2, 1.0])
def test_format_follows_density(density):
    rng = np.random.default_rng(int(density * 100))
    present = rng.random(SIZE) < density
    idx = np.flatnonzero(present)
    piece = Piece.from_entries(SIZE, idx, np.ones(len(idx)))
    assert piece.is_bitmap == (len(idx) * 64 > SIZE)
    # A bitmap stays one down to 1/256 density, so a growing set does not switch back and forth.
    kept = Piece.from_entries(SIZE, idx, np.ones(len(idx)), was_bitmap=True)
    assert kept.is_bitmap == (len(idx) * 256 > SIZE)
    got_idx, got_vals = piece.entries()
    assert np.array_equal(got_idx, idx) and np.array_equal(got_vals, np.ones(len(idx)))


def test_lookup_and_contains_agree_in_both_formats():
    rng = np.random.default_rng(3)
    present = rng.random(SIZE) < 0.3
    values = rng.integers(1, 100, SIZE)
    probe = rng.integers(0, SIZE, 200)
    for fmt in ("sparse", "bitmap"):
        piece = piece_of(present, values, fmt)
        found, vals = piece.lookup(probe)
        assert np.array_equal(found, present[probe])
        assert np.array_equal(vals[found], values[probe][found])
        assert np.array_equal(piece.contains(probe), present[probe])


MASKS = [None, ("S", False), ("S", True), ("V", False), ("V", True)]


# replace needs a mask: without one it is not a GraphBLAS call
WRITES = [(mask, replace) for mask in MASKS for replace in (False, True)
          if mask is not None or not replace]


@pytest.mark.parametrize("c_fmt,t_fmt", list(itertools.product(["sparse", "bitmap"], repeat=2)))
@pytest.mark.parametrize("mask,replace", WRITES, ids=str)
@pytest.mark.parametrize("accum", [None, binary.plus])
def test_write_matches_the_dense_rule(c_fmt, t_fmt, mask, accum, replace):
    for seed in range(6):
        rng = np.random.default_rng(seed)
        dens_c, dens_t, dens_m = rng.choice([0.02, 0.1, 0.5, 1.0], 3)
        cp, tp, mp = (rng.random(SIZE) < d for d in (dens_c, dens_t, dens_m))
        cv = rng.integers(1, 50, SIZE).astype(np.int64)
        tv = rng.integers(1, 50, SIZE).astype(np.int64)
        mv = rng.integers(0, 2, SIZE).astype(np.int64)  # zeros make value masks differ
        c, t = piece_of(cp, cv, c_fmt), piece_of(tp, tv, t_fmt)
        allowed, piece_mask = None, None
        if mask is not None:
            kind, complement = mask
            on = mp if kind == "S" else mp & (mv != 0)
            allowed = ~on if complement else on
            piece_mask = PieceMask(piece_of(mp, mv, "sparse"), kind == "S", complement)
        want_p, want_v = reference_write((cp, cv), (tp, tv), allowed, accum, replace)
        before = dense(c)
        change = write(c, t, piece_mask, accum, replace)
        assert change.nvals == int(want_p.sum())
        if change.patch is None:
            # A new piece leaves C as it was.
            assert all(np.array_equal(a, b) for a, b in zip(dense(c), before, strict=True))
        got = change.install()
        got_p, got_v = dense(got)
        assert np.array_equal(got_p, want_p), f"seed {seed}"
        assert np.array_equal(got_v[want_p], want_v[want_p]), f"seed {seed}"
        assert got.nvals == int(want_p.sum())


@pytest.mark.parametrize("kind", ["mult", "add", "union"])
@pytest.mark.parametrize("a_fmt,b_fmt", list(itertools.product(["sparse", "bitmap"], repeat=2)))
def test_ewise_matches_the_dense_rule(kind, a_fmt, b_fmt):
    rng = np.random.default_rng(11)
    ap, bp = rng.random(SIZE) < 0.3, rng.random(SIZE) < 0.05
    av, bv = rng.integers(1, 9, SIZE), rng.integers(1, 9, SIZE)
    out = ewise(piece_of(ap, av, a_fmt), piece_of(bp, bv, b_fmt), binary.minus, kind,
                (np.int64, np.int64), np.int64, (100, 1000))
    if kind == "mult":
        want_p = ap & bp
        want_v = av - bv
    else:
        want_p = ap | bp
        lone_a = av - 1000 if kind == "union" else av
        lone_b = 100 - bv if kind == "union" else bv
        want_v = np.where(ap & bp, av - bv, np.where(ap, lone_a, lone_b))
    got_p, got_v = dense(out)
    assert np.array_equal(got_p, want_p) and out.nvals == np.count_nonzero(want_p)
    assert np.array_equal(got_v[want_p], want_v[want_p])


def test_accumulated_leaves_both_operands_alone():
    rng = np.random.default_rng(5)
    cp, tp = rng.random(SIZE) < 0.5, rng.random(SIZE) < 0.02
    c, t = piece_of(cp, np.arange(SIZE), "bitmap"), piece_of(tp, np.arange(SIZE), "sparse")
    before_c, before_t = dense(c), dense(t)
    out = accumulated(c, t, binary.plus)
    assert np.array_equal(dense(out)[0], cp | tp)
    assert all(np.array_equal(a, b) for a, b in zip(dense(c), before_c, strict=True))
    assert all(np.array_equal(a, b) for a, b in zip(dense(t), before_t, strict=True))


def test_a_backends_piece_kernels_serve_every_vector_write_and_ewise(monkeypatch):
    """A backend that defines ``write_piece`` / ``ewise_piece`` gets a Vector's writes and
    element-wise ops (``backends.piece_kernel``); one that does not gets numpy's."""
    import gblas2d as gb
    from gblas2d.local import backends, piece

    name = backends.backend_name()
    for kernel, reference in (("write_piece", piece.write), ("ewise_piece", piece.ewise)):
        assert backends.piece_kernel(kernel) is getattr(backends.get(), kernel, reference)
    calls = []

    def counted(kernel, reference):
        def run(*args, **kwargs):
            calls.append(kernel)
            return reference(*args, **kwargs)
        return run

    try:
        for kernel, reference in (("write_piece", piece.write), ("ewise_piece", piece.ewise)):
            monkeypatch.setattr(backends.get(), kernel, counted(kernel, reference),
                                raising=False)
        backends.set_backend(name)
        v = gb.Vector.from_coo([0, 2], [1.0, 2.0], size=4)
        w = gb.Vector.from_coo([2, 3], [5.0, 1.0], size=4)
        u = (v + w).new()
        u(accum=gb.binary.plus) << v
        assert calls.count("ewise_piece") >= 1 and calls.count("write_piece") >= 1
        assert u.to_coo()[1].tolist() == [2.0, 9.0, 1.0]
    finally:
        monkeypatch.undo()
        backends.set_backend(name)
    assert backends.piece_kernel("write_piece") is getattr(backends.get(), "write_piece",
                                                           piece.write)
