"""A loop compiled by numba, for the one kernel whose numpy form costs more in numpy's per-call
overhead than in its work: the push of a pattern product whose products are all one (a BFS
level, ``any_pair``). On a 200 x 200 mesh a level pushes from about 100 vertices along 400
edges: numpy's ten array calls take 14 us there, this loop 5 us, SuiteSparse's whole masked
vxm (python-graphblas, one thread) 17 us.

numba comes with python-graphblas. Loading the loop from numba's cache takes about 0.3 s (and
compiling it, about 2 s, the first time after an install), which only thousands of levels
repay, so the numpy backend calls it on blocks of ``MIN_ENTRIES`` entries or more, and only
once it is loaded: the first such call starts the loading in a thread of its own and takes
numpy's form until the loop is there (``ready``), so a program's first traversal does not wait
for it. Where numba is missing (python-graphblas installed without its dependencies, as on the
GPU machine) ``available()`` is False and numpy's form runs.
"""

import functools
import importlib.util
import threading

import numpy as np

__all__ = ["BITMAP", "LIST", "MIN_ENTRIES", "NO_MASK", "available", "load", "reached",
           "reached_loop", "ready"]

MIN_ENTRIES = 1 << 16

_NO_BITS = np.zeros(0, dtype=bool)
_NO_LIST = np.zeros(0, dtype=np.int64)


NO_MASK, BITMAP, LIST = 0, 1, 2


def reached_loop(ptr, ind, rows, bits, listed, mode, complement):
    """The sorted distinct ``ind[p]`` over the storage rows ``rows`` (every p in ptr[r] ..
    ptr[r + 1]), less those the mask forbids: ``mode`` NO_MASK keeps all; BITMAP keeps j with
    ``bits[j] != complement``; LIST keeps j whose presence in the sorted ``listed`` differs
    from ``complement``. Plain Python: numba compiles it (``reached``), and it reads as what
    it computes."""
    total = 0
    for r in rows:
        total += ptr[r + 1] - ptr[r]
    out = np.empty(total, dtype=np.int64)
    k = 0
    for r in rows:
        for p in range(ptr[r], ptr[r + 1]):
            j = ind[p]
            if mode != BITMAP or bits[j] != complement:
                out[k] = j
                k += 1
    out = np.sort(out[:k])
    m = 0
    at = 0  # the first of ``listed`` not below out[i] (both are sorted)
    for i in range(k):
        if i > 0 and out[i] == out[i - 1]:
            continue
        if mode == LIST:
            while at < len(listed) and listed[at] < out[i]:
                at += 1
            if (at < len(listed) and listed[at] == out[i]) == complement:
                continue
        out[m] = out[i]
        m += 1
    return out[:m]


@functools.cache
def available():
    """Whether numba can compile the loop here (found, not imported)."""
    return importlib.util.find_spec("numba") is not None


_loaded = []
_loading = threading.Lock()
_loader = []


def load():
    """The compiled loop, loaded now if no one has (a call the others wait for)."""
    with _loading:
        if not _loaded:
            import numba

            loop = numba.njit(cache=True, nogil=True)(reached_loop)
            # numba compiles, or loads from its cache, at the first call of a signature:
            # made here, once, on the arrays the kernel passes
            none, bits = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool)
            loop(np.zeros(2, dtype=np.int64), none, none[:0], bits, none, NO_MASK, False)
            _loaded.append(loop)
    return _loaded[0]


def ready():
    """Whether the compiled loop is loaded; the first call starts loading it in a thread of
    its own (``load``) and says False until it is there."""
    if _loaded:
        return True
    if not _loader and available():
        _loader.append(threading.Thread(target=load, name="gblas2d-compiled-push",
                                        daemon=True))
        _loader[0].start()
    return False


def reached(ptr, ind, rows, allowed):
    """The sorted distinct outputs that a push from the storage rows ``rows`` reaches, less
    those the mask forbids (``allowed``: None or a PieceMask, its piece a bitmap or a list)."""
    loop = _loaded[0] if _loaded else load()
    if allowed is None:
        return loop(ptr, ind, rows, _NO_BITS, _NO_LIST, NO_MASK, False)
    on = allowed.on
    if on.is_bitmap:
        return loop(ptr, ind, rows, on.present, _NO_LIST, BITMAP, allowed.complement)
    return loop(ptr, ind, rows, _NO_BITS, np.asarray(on.idx, dtype=np.int64), LIST,
                allowed.complement)
