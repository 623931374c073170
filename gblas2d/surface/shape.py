"""Operations that make or change a shape: ``A.kronecker(B)``, ``A.diag(k)``, ``A.power(n)``,
``u.outer(v)``, a Vector spread over a Matrix (``A + v``), ``resize`` of a Matrix or a
Vector in place and ``reposition`` (a shifted copy).

Each builds the result's local part on the rank that will own it, or sends each entry there
from the rank that made it; no rank ever holds a whole operand. ``matrix.py`` and ``vector.py``
hook these functions in as methods, so this module imports neither.
"""

import operator

import numpy as np

from ..distributed import redistribute as redist
from ..distributed import shape as dist_shape
from ..distributed.products import MatMat
from ..distributed.vector import piece_at_owners
from ..exceptions import InvalidValue, NotImplementedException
from .expr import (
    MatrixExpression,
    VectorExpression,
    as_op,
    check_domain,
    check_size,
    ewise_input_types,
    product_compute,
)
from .inputs import type_name

__all__ = ["broadcast", "diagonal", "dimension", "kronecker", "outer", "power", "reposition",
           "resized_block", "resized_piece"]


def _integer(value, what):
    """``value`` (an int, a numpy integer or a Scalar) as an int; TypeError otherwise."""
    value = getattr(value, "value", value)
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {type_name(value)}") from None


def dimension(value, what):
    """A new dimension for ``resize``: a non-negative integer."""
    n = _integer(value, what)
    if n < 0:
        raise InvalidValue(f"{what} must be non-negative, got {n}")
    return n


def _sorted(keys, vals):
    order = np.argsort(keys)
    return keys[order], vals[order]


# ---- kronecker ----
def kronecker(A, B, op):
    """``C = kron(A, B)``: ``C(ia * mB + ib, ja * nB + jb) = A(ia, ja) op B(ib, jb)``, of shape
    ``(mA * mB, nA * nB)``; ``op`` a BinaryOp or a Monoid (its op), as in python-graphblas.

    Collective when computed: A stays where it is and B's blocks pass round the ring of ranks,
    one a stage (P stages). At each stage a rank pairs its A entries with the B block it holds
    and sends the products to their owners (an alltoallv), so it holds one B block at a time.
    Cost per rank: O(nnz(A_p) nnz(B)) products made, O(nnz(C) / P) kept, nnz(B) received.

    Examples
    --------
    >>> A = Matrix.from_coo([0, 1], [1, 0], [1, 2], nrows=2, ncols=2)
    >>> B = Matrix.from_coo([0], [0], [10], nrows=1, ncols=2)
    >>> A.kronecker(B, binary.minus).new().to_coo()[2].tolist()
    [-9, -8]
    """
    if not isinstance(B, MatrixExpression.output_class):
        raise TypeError(f"kronecker expects a Matrix, got {type_name(B)}")
    binop = as_op(op, "binary")
    out_type = check_domain(binop, A.dtype, B.dtype)
    nrows, ncols = A.nrows * B.nrows, A.ncols * B.ncols

    def compute(mask, opts):
        grid = A.grid
        if not (A.nvals and B.nvals):
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=out_type.np_type)
        a_rows, a_cols, a_vals = A.block.global_coo(A.row_offset, A.col_offset)
        b = B.block
        # B's entries as one global key each (row * B.ncols + col) and their values.
        b_keys = (b.rows + B.row_offset) * B.ncols + (b.cols + B.col_offset)
        b_vals = np.ascontiguousarray(b.values)
        me, p = grid.rank, grid.nprocs
        keys, vals = [], []
        for stage in range(p):
            if stage:
                # B's blocks move one rank down the ring: at stage s this rank holds rank
                # (me + s) % p's block.
                b_keys = grid.comm.sendrecv(b_keys, (me - 1) % p, (me + 1) % p)
                b_vals = grid.comm.sendrecv(b_vals, (me - 1) % p, (me + 1) % p)
            rows, cols, products = _kronecker_pairs(a_rows, a_cols, a_vals, b_keys, b_vals, B,
                                                    binop)
            got = redist.to_blocks(grid, nrows, ncols, rows, cols,
                             products.astype(out_type.np_type, copy=False))
            keys.append(got[0])
            vals.append(got[1])
        # Every (A entry, B entry) pair lands on one position, so the keys are unique.
        return _sorted(np.concatenate(keys), np.concatenate(vals))

    return MatrixExpression("kronecker", (A, B, binop), out_type, nrows, ncols, compute,
                            A.grid)


def _kronecker_pairs(a_rows, a_cols, a_vals, b_keys, b_vals, B, binop):
    """Every pair of the given A and B entries: global (rows, cols) in C, and ``a op b``."""
    na, nb = len(a_vals), len(b_vals)
    ia, ja = np.repeat(a_rows, nb), np.repeat(a_cols, nb)
    ib, jb = np.divmod(np.tile(b_keys, na), B.ncols)
    x, y = np.repeat(a_vals, nb), np.tile(b_vals, na)
    products = binop.evaluate(x, y, ia, ja, ib, jb) if binop.index_aware else \
        binop.evaluate(x, y)
    return ia * B.nrows + ib, ja * B.ncols + jb, products


# ---- diagonal of a Matrix ----
def diagonal(A, k, *, transposed=False):
    """Diagonal ``k`` of A (of A.T with ``transposed``, which is A's diagonal ``-k``) as a
    VectorExpression: ``d(i) = A(i, i + k)`` for ``k >= 0``, ``d(i) = A(i - k, i)`` below the
    main diagonal; of size ``min(ncols - k, nrows)`` (``min(nrows + k, ncols)`` for ``k < 0``),
    at least 0, as python-graphblas's ``Matrix.diag``.

    Collective when computed (one alltoallv of the diagonal's entries). A rank searches only
    the rows of its block that the diagonal crosses, by bisection inside each row: O(d log
    degree) for d such rows, never a pass over the whole block.

    Examples
    --------
    >>> A = Matrix.from_coo([0, 1, 2], [1, 2, 0], [1, 2, 3], nrows=3, ncols=3)
    >>> A.diag(1).to_coo()[1].tolist()
    [1, 2]
    """
    k = _integer(k, "k")
    k = -k if transposed else k
    size = max(0, min(A.nrows + k, A.ncols) if k < 0 else min(A.ncols - k, A.nrows))
    dtype = A.dtype.np_type

    def compute(mask, opts):
        grid, b = A.grid, A.block
        row_lo, col_lo = A.row_offset, A.col_offset
        # The rows r of this block whose diagonal column r + k lies in the block's columns.
        first = max(row_lo, col_lo - k)
        rows = np.arange(first, max(first, min(row_lo + b.nrows, col_lo + b.ncols - k)),
                         dtype=np.int64)
        found, pos = b.find(rows - row_lo, rows + k - col_lo)
        at = rows[found] + min(k, 0)
        # Indexing the values array (not values_at) spreads an iso block's one value out.
        # Arriving sorted: blocks come in rank order, row-major over the grid, and along the
        # diagonal a later grid row or a later grid column holds later positions.
        return piece_at_owners(grid, size, at, b.values[pos[found]], dtype)

    return VectorExpression("diag", (A, k), A.dtype, size, compute, A.grid)


# ---- power ----
def _exponent(n):
    """``n`` as an int, as python-graphblas takes it (an integral float too)."""
    n = getattr(n, "value", n)
    try:
        return operator.index(n)
    except TypeError:
        if isinstance(n, float) and n.is_integer():
            return int(n)
    raise TypeError(f"n must be a nonnegative integer; got bad type: {type(n)}")


def power(A, n, op):
    """``A^n`` over the semiring ``op`` by repeated squaring, as python-graphblas's
    ``Matrix.power``: the result has A's dtype, the products run in the semiring typed to A's
    dtype, and ``n = 0`` gives the diagonal of the multiply's identity (its monoid's).

    Collective when computed: about log2(n) squarings and popcount(n) - 1 further products,
    the intermediates made as Matrices; the last product is written under the output's mask.

    Examples
    --------
    >>> A = Matrix.from_coo([0, 1], [1, 0], [2, 3], nrows=2, ncols=2)
    >>> A.power(3).new().to_coo()[2].tolist()
    [12, 18]
    """
    check_size("power", A.nrows, A.ncols, "Matrix.nrows", "Matrix.ncols")
    n = _exponent(n)
    if n < 0:
        raise ValueError(f"n must be a nonnegative integer; got: {n}")
    sr = as_op(op, "semiring")
    check_domain(sr, A.dtype, A.dtype)
    if sr.type is None:
        sr = sr[A.dtype]
    if n == 0 and sr.binaryop.monoid is None:
        raise ValueError(f"Binary operator of {sr!r} semiring does not have a monoid with an "
                         "identity. When n=0, the result is a diagonal matrix with values "
                         "equal to the identity of the binaryop, so the binaryop must be "
                         "associated with a monoid.")

    def compute(mask, opts):
        if n == 0:
            return _identity_entries(A, sr.binaryop.monoid.identity_of(A.dtype))
        if n == 1:
            return A.block
        left, right = _power_factors(A, n, sr, opts)
        # The last product alone sees the output's mask.
        return product_compute(MatMat(left.dist, right.dist, sr, check_domain))(mask, opts)

    return MatrixExpression("power", (A, n, sr), A.dtype, A.nrows, A.ncols, compute, A.grid)


def _power_factors(A, n, sr, opts):
    """Collective. Two Matrices whose product is ``A^n`` (n >= 2), the powers below it made:
    ``A^n = (A^(n // 2))^2``, times A when n is odd."""
    half = A
    if n // 2 > 1:
        left, right = _power_factors(A, n // 2, sr, opts)
        half = left.mxm(right, sr).new(**opts)
    if n % 2 == 0:
        return half, half
    return half.mxm(half, sr).new(**opts), A


def _identity_entries(A, value):
    """This rank's (keys, values) of the diagonal matrix of A's shape holding ``value``:
    the positions (d, d) of its block, no communication."""
    b = A.block
    row_lo, col_lo = A.row_offset, A.col_offset
    first = max(row_lo, col_lo)
    d = np.arange(first, max(first, min(row_lo + b.nrows, col_lo + b.ncols)), dtype=np.int64)
    return (d - row_lo) * b.ncols + (d - col_lo), np.full(len(d), value, dtype=A.dtype.np_type)


# ---- outer ----
def outer(u, v, op):
    """``C(i, j) = u(i) op v(j)``, of shape ``(u.size, v.size)``; ``op`` a BinaryOp or a
    Monoid (its op), as in python-graphblas.

    Collective when computed: rank (I, J) needs only u's entries in its row block and v's in
    its column block, which it gathers as ``mxv`` gathers x (u along ``row_comm``, v along
    ``col_comm``), then fills its block: O(m / R + n / C) received, O(its entries) made.

    Examples
    --------
    >>> u = Vector.from_coo([0, 2], [1, 2], size=3)
    >>> v = Vector.from_coo([1], [10], size=2)
    >>> u.outer(v, binary.minus).new().to_coo()[2].tolist()
    [-9, -8]
    """
    vector_class = VectorExpression.output_class
    if not isinstance(v, vector_class):
        raise TypeError(f"outer expects a Vector, got {type_name(v)}")
    binop = as_op(op, "binary")
    out_type = check_domain(binop, u.dtype, v.dtype)

    def compute(mask, opts):
        return dist_shape.outer_block(u.dist, v.dist, binop, out_type, opts.get("exchange"))

    return MatrixExpression("outer", (u, v, binop), out_type, u.size, v.size, compute, u.grid)


# ---- resize ----
def resized_block(A, nrows, ncols, row_offset=0, col_offset=0):
    """Collective (one alltoallv). This rank's Block of A resized to ``nrows`` x ``ncols``
    (``distributed.shape.resized_block``)."""
    A.grid.comm.check_replicated("Matrix.resize", nrows, ncols, row_offset, col_offset)
    return dist_shape.resized_block(A.dist, nrows, ncols, row_offset, col_offset)


def resized_piece(v, size, offset=0):
    """Collective (one alltoallv). This rank's Piece of v resized to ``size``: the entries
    below ``size``, moved to their owners under it. With ``offset``, v(i) goes to
    i + offset first (``reposition``)."""
    v.grid.comm.check_replicated("Vector.resize", size, offset)
    idx, vals = v.host_piece().entries()
    start, stop = np.searchsorted(idx, [-offset - v.offset, size - offset - v.offset])
    at = idx[start:stop] + (v.offset + offset)
    # Arriving sorted: pieces come in rank order, and rank k's positions precede rank k+1's.
    return piece_at_owners(v.grid, size, at, vals[start:stop], v.dtype.np_type)


def reposition(x, offsets, shape):
    """``x`` (a Matrix or Vector) with each entry moved by ``offsets`` (rows, then columns) in
    an object of ``shape``; what lands outside it is dropped (python-graphblas's
    ``reposition``). Lazy; collective when computed: one alltoallv, each entry to its owner."""
    offsets = tuple(_integer(k, "offset") for k in offsets)
    names = ("nrows", "ncols") if len(shape) == 2 else ("size",)
    shape = tuple(dimension(n, what) for n, what in zip(shape, names, strict=True))
    if len(shape) == 1:
        return VectorExpression("reposition", (x, *offsets), x.dtype, shape[0],
                                lambda mask, opts: resized_piece(x, shape[0], offsets[0]),
                                x.grid)
    return MatrixExpression("reposition", (x, *offsets), x.dtype, *shape,
                            lambda mask, opts: resized_block(x, *shape, *offsets), x.grid)


# ---- a Vector spread over a Matrix ----
def broadcast(A, v, op, kind, method, defaults, *, v_first):
    """``A op v`` with C(i, j) = A(i, j) op v(j) (v along every row), and ``v op A`` with
    C(i, j) = v(i) op A(i, j) (v down every column): python-graphblas's element-wise forms of a
    Matrix and a Vector, ``kind`` "add", "mult" or "union".

    Collective when computed: each block gathers v's entries over its columns (its rows, for
    ``v op A``), as ``mxv`` gathers x. An intersection looks v up at the block's entries alone;
    a union spreads v's entries over every row (column) of the block, as its definition asks.
    """
    n, dim = (A.nrows, "nrows") if v_first else (A.ncols, "ncols")
    check_size(method, v.size, n, "Vector.size", f"Matrix.{dim}")
    binop = as_op(op, "binary")
    if binop.index_aware:
        raise NotImplementedException(f"{method} of a Matrix and a Vector with a positional op")
    types = (v.dtype, A.dtype) if v_first else (A.dtype, v.dtype)
    in_types = ewise_input_types(kind, *types, *defaults)
    out_type = check_domain(binop, *in_types)

    def compute(mask, opts):
        return dist_shape.spread_block(A.dist, v.dist, binop, kind, v_first, in_types, out_type,
                                       defaults, opts.get("exchange"))

    return MatrixExpression(method, (A, v, binop) + tuple(defaults), out_type, A.nrows,
                            A.ncols, compute, A.grid)
