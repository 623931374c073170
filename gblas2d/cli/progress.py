"""A progress display on a terminal, and nothing in pipes and logs.

Only rank 0 draws, only when stderr is a terminal and ``--quiet`` was not given. Drawn by
``rich``, whose own thread redraws it: a step with no known length (loading a graph, a
reference check that runs one long networkx call) still shows a moving spinner and the time
spent; one with a known length shows a bar and its count. The display is erased when the step
ends, so what stays on the terminal is the report.
"""

import sys


class Progress:
    """``with Progress(label, total, enabled) as bar: ... bar.step()``; ``total`` None: a
    step whose length is unknown."""

    def __init__(self, label, total, enabled):
        self.label, self.total = label, total
        self.enabled = enabled and sys.stderr.isatty()
        self._display = self._task = None

    def __enter__(self):
        if not self.enabled:
            return self
        # imported here: runs without a terminal (tests, batch jobs) never load rich
        from rich import progress
        from rich.console import Console

        columns = [progress.SpinnerColumn(), progress.TextColumn("{task.description}")]
        if self.total:
            columns += [progress.BarColumn(), progress.MofNCompleteColumn()]
        columns.append(progress.TimeElapsedColumn())
        self._display = progress.Progress(*columns, console=Console(file=sys.stderr),
                                          transient=True, refresh_per_second=5,
                                          redirect_stdout=False, redirect_stderr=False)
        self._task = self._display.add_task(self.label, total=self.total)
        self._display.start()
        return self

    def step(self, count=1):
        if self._display is not None:
            self._display.advance(self._task, count)

    def __exit__(self, *exc):
        if self._display is not None:
            self._display.stop()
