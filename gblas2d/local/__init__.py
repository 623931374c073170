"""One rank's storage and arithmetic, with no communication.

``block`` holds a rank's block of a Matrix, ``piece`` its piece of a Vector (sparse or
bitmap) with GraphBLAS's write rule on pieces, ``keys`` the sorted-key primitives they share,
and ``backends`` the local kernels (numpy, suitesparse) with the plan that chooses one.

It imports only the algebra (``gblas2d.semirings``); arrays in, arrays out.
"""
