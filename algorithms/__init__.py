"""Graph algorithms written with the public gblas2d API only (installed as gblas2d.algorithms).

Each algorithm takes and returns Matrix/Vector objects, runs unchanged at any rank count, and
imports neither mpi4py nor cupy (tests/semirings/test_layering.py checks this). The algorithms
themselves (BFS, PageRank, connected components, SSSP, ...) are the work of the Algorithms
issues and are not here yet.
"""

__all__ = []
