"""The scale model: what the engine does on P ranks, computed in one process from its own
ownership arithmetic and message rules (issue 29). ``counts`` gives the exact bytes each rank
receives per BFS level."""

from .counts import BFSCounts, bfs_counts, block_counts, delegates

__all__ = ["BFSCounts", "bfs_counts", "block_counts", "delegates"]
