"""Where the array backend's arrays live, and every copy between there and the host.

The array backend (``backends/array.py``) is written once against an array module ``xp`` and a
sparse module: numpy and scipy.sparse on the host (``Host``), cupy and cupyx.scipy.sparse on a
CUDA device (``Cuda``). This is the one file that imports cupy, and only when a ``Cuda`` is
made; ``Host`` is its twin, with the same methods, run on every commit: its arrays are numpy's
behind cupy's rules (``emulated``), so what would fail on a GPU fails here.

A block's arrays stay on the host, where MPI reads them; the device holds its copy of each
block. A product's result stays where its kernel made it: a Vector's piece on the device, read
there by the next product, write, element-wise op or mask (``Piece.on``, ``Piece.xp``). It
comes up where it is sent (a product's fold or gather, ``to_coo``) or read by code that runs on
the host (``Vector.host_piece``); a host operand goes down when it meets a device one.
Each copy is counted in the rank's communication record (``comm.stats()``, through
``record_copies``) as "to_device" or "to_host" in the group "device", so a trace or
``gb.Recorder`` shows the bytes each way. A copy up waits for the device's stream (cupy's
``get`` is synchronous), so no MPI call ever reads an array the device is still writing.
"""

import os
import time

import numpy as np

from ..semirings._arrays import array_module
from . import emulated

__all__ = ["Cuda", "Host", "array_module", "device_of_rank", "moved_to", "on_host",
           "record_copies"]


class Host:
    """The host twin: numpy arrays behind cupy's rules (``emulated``), so a host array mixed
    with a device one, or a device array handed to numpy or MPI, fails here as on a GPU. Its
    copies are counted as a device's are; they cost a copy of the array."""

    name = "host"
    xp = emulated.xp
    sparse = emulated.sparse

    def to_device(self, array):
        return moved_to(self.xp, array)

    def to_host(self, array):
        return on_host(array)

    def held(self, array):
        return array.nbytes if isinstance(array, emulated.Array) else 0


class Cuda:
    """A CUDA device, through cupy (imported here, on first use): this rank's share of the
    node's GPUs (``device_of_rank``), so that ``mpiexec -n 8`` on a node of 8 GPUs gives each
    rank its own."""

    name = "cupy"

    def __init__(self):
        try:
            import cupy
            import cupyx.scipy.sparse
        except ImportError as err:
            raise ImportError("the 'cupy' backend needs CuPy and a CUDA device: "
                              "pip install 'gblas2d[gpu]'") from err
        self.xp, self.sparse = cupy, cupyx.scipy.sparse
        cupy.cuda.Device(device_of_rank(os.environ, cupy.cuda.runtime.getDeviceCount())).use()

    def to_device(self, array):
        return moved_to(self.xp, array)

    def to_host(self, array):
        return on_host(array)

    def held(self, array):
        return array.nbytes


# The node-local rank, as each launcher names it: MPICH's Hydra, Open MPI, MVAPICH, Slurm.
_LOCAL_RANK = ("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK",
               "SLURM_LOCALID")


def device_of_rank(environ, count):
    """The GPU (of ``count`` visible) for this rank: its rank on the node, from the launcher's
    environment (no communication), modulo ``count``; 0 when no launcher says, or when the
    launcher or CUDA_VISIBLE_DEVICES left one GPU visible a rank."""
    for var in _LOCAL_RANK:
        if environ.get(var, "").isdigit():
            return int(environ[var]) % max(count, 1)
    return 0


def on_host(array):
    """``array`` in host memory: itself, or the copy up of a device array (cupy's or the
    twin's, whose ``get`` waits for the device's stream), counted."""
    if isinstance(array, (np.ndarray, np.generic)) or not hasattr(array, "get"):
        return array  # on the host already: numpy's, a number, or None
    start = time.perf_counter()
    out = array.get()
    _count("to_host", out.nbytes, start)
    return out


def moved_to(xp, array):
    """``array`` where module ``xp``'s arrays live: itself when it is there already, else its
    copy (counted)."""
    if xp is np:
        return on_host(array)
    if array is None or isinstance(array, xp.ndarray):
        return array
    if array.size == 0:
        return xp.empty(array.shape, dtype=array.dtype)  # nothing to copy
    start = time.perf_counter()
    host = np.ascontiguousarray(array)
    out = emulated.Array(host.copy()) if xp is emulated.xp else xp.asarray(host)
    _count("to_device", out.nbytes, start)
    return out


_record = [None]


def record_copies(add):
    """Count every copy from now on with ``add(op, nbytes, seconds)``. The communication layer
    registers the rank's record here (``distributed/products.py``): it lies above this one."""
    _record[0] = add


def _count(op, nbytes, start):
    if _record[0] is not None:
        _record[0](op, nbytes, time.perf_counter() - start)
