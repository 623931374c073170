"""The fixtures the command's tests share."""

import pytest

from gblas2d.cli import main


@pytest.fixture
def command(monkeypatch, capsys):
    """The command in this process: ``command(*args)`` gives (exit code, stdout, stderr)."""
    monkeypatch.delenv("GBLAS2D_GRID", raising=False)

    def call(*args):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return call
