"""A progress line on a terminal, and nothing in pipes and logs.

Only rank 0 draws, only when stderr is a terminal and ``--quiet`` was not given; the line is
redrawn in place with a carriage return and erased when the step ends.
"""

import sys
import time


class Progress:
    """``with Progress(label, total, enabled) as bar: ... bar.step()``."""

    def __init__(self, label, total, enabled):
        self.label, self.total, self.done = label, total, 0
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.perf_counter()

    def __enter__(self):
        self._draw()
        return self

    def step(self, count=1):
        self.done += count
        self._draw()

    def _draw(self):
        if not self.enabled:
            return
        seconds = time.perf_counter() - self.start
        total = f"/{self.total}" if self.total else ""
        sys.stderr.write(f"\r{self.label}: {self.done}{total}  {seconds:.1f} s")
        sys.stderr.flush()

    def __exit__(self, *exc):
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
