"""``gb.config``: python-graphblas's switches that gblas2d reads.

    gb.config.get("autocompute")                  # True
    with gb.config.set(autocompute=False):        # restored on leaving the block
        ...
    gb.config.set(autocompute=False)              # or set until set again

``autocompute`` (default True): a lazy object (an expression, ``A[rows, cols]``,
``A.reduce_scalar()``) used where a Vector, Matrix or value is needed (an operand,
``expr.nvals``, ``expr.value``, ``int(expr)``) is computed there (``.new()``, collective). Off,
such a use raises TypeError and the script writes ``.new()`` where it computes, which is
python-graphblas's stricter mode (its own tests run in it). ``mapnumpy`` is taken for
python-graphblas's scripts and has no effect: gblas2d's op names are its own.

The settings are this process's: an SPMD script sets them alike on every rank, as it makes
every other call.
"""

__all__ = ["config", "Config"]

DEFAULTS = {"autocompute": True, "mapnumpy": True}


class Config:
    """The settings, python-graphblas's ``gb.config`` for the keys in ``DEFAULTS``."""

    def __init__(self, defaults):
        self._settings = dict(defaults)

    def get(self, key, default=None):
        """The setting ``key`` (``default`` for a key gblas2d does not have)."""
        return self._settings.get(key, default)

    def __getitem__(self, key):
        return self._settings[key]

    def set(self, options=None, **kwargs):
        """Set the given keys now; as a context manager, restore them on leaving."""
        options = {**(options or {}), **kwargs}
        unknown = sorted(set(options) - set(self._settings))
        if unknown:
            raise KeyError(f"Unknown gblas2d.config key(s): {', '.join(unknown)}; "
                           f"the keys are {', '.join(sorted(self._settings))}")
        return _Setting(self, options)

    def __repr__(self):
        return f"gblas2d.config({self._settings})"


class _Setting:
    """What ``set`` returns: applied when made, undone by ``with``'s end."""

    def __init__(self, config, options):
        self._config = config
        self._saved = {key: config._settings[key] for key in options}
        config._settings.update(options)

    def __enter__(self):
        return self._config

    def __exit__(self, *exc_info):
        self._config._settings.update(self._saved)


config = Config(DEFAULTS)


def needs_autocompute(what, output):
    """The TypeError for a lazy object read as ``what`` with autocompute off."""
    return TypeError(f"{what} not enabled for objects of type {output}.  Use `.new()` to "
                     "create it first.\n\nHint: use `gblas2d.config.set(autocompute=True)` "
                     "to enable automatic computation of expressions.")


def computes(what, output):
    """Raise ``needs_autocompute`` unless autocompute is on."""
    if not config.get("autocompute"):
        raise needs_autocompute(what, output)
