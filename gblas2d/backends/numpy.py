"""The reference backend: numpy and scipy kernels for every op (see ``_kernels``)."""

from .._kernels import ewise_block, select_values, spmv, transpose_block, write_block
from .._kernels import spgemm_block as spgemm

__all__ = ["SCIPY_DENSE_PULL", "SMALL_PUSH", "ewise_block", "select_values",
           "small_push_in_numpy", "spgemm", "spmv", "transpose_block", "write_block"]

# An unmasked plus_times/first/second pull over a full vector goes to scipy's compiled CSR
# product (``_products._pull_scipy``).
SCIPY_DENSE_PULL = True

# No call overhead to avoid: every push runs here.
SMALL_PUSH = 0


def small_push_in_numpy(block, orient):
    return True
