"""rams: reinforcement-learning environments for the Rams group of trick-taking games.

``rams_env.make("toepen", num_players=4)`` returns a PettingZoo AEC environment;
``rams_env.toepen_v0.env()`` is the same in PettingZoo's module style, and
``pettingzoo.make("aec", "rams/toepen-v0")`` through PettingZoo's registry (PettingZoo >= 1.27).

Importing the package is light: the names below load on first use (PEP 562), so the rules engine
(``rams_env.core``, ``rams_env.games``) runs with numpy alone and never pulls in PettingZoo or
Gymnasium. The games join PettingZoo's registry as soon as both ``rams_env`` and ``pettingzoo`` are
imported, in either order (``rams_env.pz_registry.register_when_imported``).
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "make": "rams_env.factory", "raw_env": "rams_env.factory", "parallel_env": "rams_env.factory",
    "GAMES": "rams_env.registry", "make_game": "rams_env.registry",
}
_MODULES = ("fipsen_v0", "lupfen_v0", "mauscheln_v0", "tippen_v0", "toepen_v0")

__all__ = ["GAMES", "fipsen_v0", "lupfen_v0", "make", "make_game", "mauscheln_v0", "parallel_env", "raw_env",
           "tippen_v0", "toepen_v0"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    if name in _MODULES:
        return importlib.import_module(f"rams_env.{name}")
    raise AttributeError(f"module 'rams_env' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


from rams_env.pz_registry import register_when_imported  # noqa: E402  (numpy-free, PettingZoo-free)

register_when_imported()
