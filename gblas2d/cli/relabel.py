"""``--relabel``: run on a randomly relabeled graph P A P^T, for load balance, and map the
answer back, so the output is in the input's labels.

A graph whose dense rows cluster at low ids (a mesh, a crawl ordered by discovery) puts most
entries on a few ranks of the 2D grid; a random permutation spreads them evenly.
"""

import numpy as np

from .. import Matrix, Vector, monoid


def relabel(A, seed):
    """Collective. ``(B, perm)`` with ``B[perm[i], perm[j]] = A[i, j]``; ``perm`` is drawn from
    ``seed`` alone, so every rank draws the same one."""
    perm = np.random.default_rng([seed, 0x5E1A]).permutation(A.nrows)
    row_lo, col_lo, rows, cols, values = A.local_block()
    B = Matrix.from_coo(perm[rows + row_lo], perm[cols + col_lo], values, dtype=A.dtype,
                        nrows=A.nrows, ncols=A.ncols, distributed=True)
    return B, perm


def restore(name, result, perm):
    """Collective. The result of algorithm ``name`` on B, in A's labels."""
    n = len(perm)
    # back[v] = result[perm[v]]
    back = result.gather(Vector.from_dense(perm)).new()
    if name == "bfs_parents":
        # parents are B's vertex ids: back[v] = perm^-1[back[v]]
        back = Vector.from_dense(np.argsort(perm)).gather(back).new()
    elif name == "connected_components":
        # labels name a B vertex: label each component by its smallest id in A instead
        smallest = Vector.from_dense(np.arange(n)).scatter(back, n, monoid.min).new()
        back = smallest.gather(back).new()
    return back
