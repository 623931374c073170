"""python-graphblas's objects over the 2D layer: ``Matrix``, ``Vector``, ``Scalar``, lazy
expressions, masks, Python's operators, indexing, views, formats, aggregators and random
values.

A container checks its arguments from replicated metadata, builds an expression, and hands the
computation to ``gblas2d.distributed``; it writes the result and agrees on its nvals. It imports the
2D and local layers, the algebra and the exceptions; the public names are re-exported by
``gblas2d``.
"""
