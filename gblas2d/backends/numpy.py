"""The reference backend: numpy and scipy kernels for every op (see ``_kernels``)."""

from .._kernels import ewise_block, spmv

__all__ = ["ewise_block", "spmv"]
