"""Where the array backend's arrays live, and every copy between there and the host.

The array backend (``backends/array.py``) is written once against an array module ``xp`` and a
sparse module: numpy and scipy.sparse on the host (``Host``), cupy and cupyx.scipy.sparse on a
CUDA device (``Cuda``). This is the one file that imports cupy, and only when a ``Cuda`` is
made; ``Host`` is its twin, with the same methods, run on every commit: its arrays are numpy's
behind cupy's rules (``emulated``), so what would fail on a GPU fails here.

The engine keeps vectors and the blocks' own arrays on the host, where MPI reads them; the
device holds its copy of each block. So the copies are the communication points of a product:
its input segment goes down after the expand, its partial result comes up before the fold.
Each copy is counted in the rank's communication record (``comm.stats()``, through
``record_copies``) as "to_device" or "to_host" in the group "device", so a trace or
``gb.Recorder`` shows the bytes each way. A copy up waits for the device's stream
(``cupy.asnumpy`` is synchronous), so no MPI call ever reads an array the device is still
writing.
"""

import time

import numpy as np

from ...semirings._arrays import array_module
from . import emulated

__all__ = ["Cuda", "Host", "array_module", "record_copies"]


class Host:
    """The host twin: numpy arrays behind cupy's rules (``emulated``), so a host array mixed
    with a device one, or a device array handed to numpy or MPI, fails here as on a GPU. Its
    copies are counted as a device's are; they cost a copy of the array."""

    name = "host"
    xp = emulated.xp
    sparse = emulated.sparse

    def to_device(self, array):
        if isinstance(array, emulated.Array):
            return array
        start = time.perf_counter()
        out = emulated.Array(np.array(array))
        _count("to_device", out.nbytes, start)
        return out

    def to_host(self, array):
        if not isinstance(array, emulated.Array):
            return array
        start = time.perf_counter()
        out = array.get()
        _count("to_host", out.nbytes, start)
        return out

    def held(self, array):
        return array.nbytes if isinstance(array, emulated.Array) else 0


class Cuda:
    """The current CUDA device, through cupy (imported here, on first use)."""

    name = "cupy"

    def __init__(self):
        try:
            import cupy
            import cupyx.scipy.sparse
        except ImportError as err:
            raise ImportError("the 'cupy' backend needs CuPy and a CUDA device: "
                              "pip install 'gblas2d[gpu]'") from err
        self.xp, self.sparse = cupy, cupyx.scipy.sparse

    def to_device(self, array):
        if isinstance(array, self.xp.ndarray):
            return array
        start = time.perf_counter()
        out = self.xp.asarray(np.ascontiguousarray(array))
        _count("to_device", array.nbytes, start)
        return out

    def to_host(self, array):
        if not isinstance(array, self.xp.ndarray):
            return array
        start = time.perf_counter()
        out = self.xp.asnumpy(array)
        _count("to_host", out.nbytes, start)
        return out

    def held(self, array):
        return array.nbytes


_record = [None]


def record_copies(add):
    """Count every copy from now on with ``add(op, nbytes, seconds)``. The communication layer
    registers the rank's record here (``distributed/products.py``): it lies above this one."""
    _record[0] = add


def _count(op, nbytes, start):
    if _record[0] is not None:
        _record[0](op, nbytes, time.perf_counter() - start)
