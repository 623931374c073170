"""Which array module holds some arrays: numpy, or the module of another array library whose
arrays an engine passes (cupy, from gblas2d's GPU backend). The algebra's ops evaluate on
either, so a kernel on a GPU calls the same ops as one on the host. Nothing is imported here:
an array's own module is already loaded."""

import sys

import numpy as np

__all__ = ["array_module"]


def array_module(*arrays):
    """The module of the first of ``arrays`` that is not numpy's (cupy's, say), else numpy."""
    for a in arrays:
        if type(a) is np.ndarray:
            # the common case, on every op evaluation and merge: no string work
            continue
        # the emulated device's arrays name their module (gblas2d/local/emulated.py)
        module = getattr(type(a), "gblas2d_array_module", None)
        if module is not None:
            return module
        root = type(a).__module__.partition(".")[0]
        if root not in ("numpy", "builtins") and hasattr(sys.modules.get(root), "asarray"):
            return sys.modules[root]
    return np
