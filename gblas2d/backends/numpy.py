"""The reference backend: numpy and scipy kernels for every semiring (see ``_kernels``)."""

from .._kernels import spmv

__all__ = ["spmv"]
