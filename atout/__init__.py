"""atout: double-dummy solving and hand analysis for tarot card games."""

import importlib

from .errors import IllegalCardError, PositionError

__all__ = ["Position", "PositionError", "IllegalCardError", "loads", "parse_position"]
__version__ = "0.1.0"

#: loaded when first asked for, so that `import atout` costs next to nothing: the `atout`
#: command's own first code (atout.client.start) runs before the rules are imported, and a
#: Ctrl-C then is the command's to answer, not a traceback
_FROM_POSITION = ("Position", "loads", "parse_position")
#: the package's public names that live above the rules (users rely on them: the README's
#: ``atout.analyze(obj)``), resolved by name when asked for: this module, the rules' root,
#: imports nothing above them (pyproject.toml's "root" contract)
ALIASES = {"analyze": ("atout.solver.analyze", "analyze")}


def __getattr__(name):
    # Lazy: `import atout` stays light (no rules, no compiled search, no process pools).
    if name in _FROM_POSITION:
        from . import position
        return getattr(position, name)
    if name in ALIASES:
        module, attribute = ALIASES[name]
        return getattr(importlib.import_module(module), attribute)
    try:                            # a submodule: atout.position, atout.batch, ...
        return importlib.import_module(f".{name}", __name__)
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{name}":
            raise
    raise AttributeError(f"module 'atout' has no attribute {name!r}")
