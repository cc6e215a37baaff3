"""Every game in PettingZoo's registry: ``pettingzoo.make("aec", "rams/toepen-v0")``.

PettingZoo 1.27 added ``pettingzoo.register`` / ``pettingzoo.make(env_type, id)`` (its SB3
action-mask tutorial builds its environment that way). ``import rams_env`` registers each game
of rams_env.registry as ``rams/<game>-v0``, AEC (``<game>_v0.env``) and parallel
(``<game>_v0.parallel_env``); with an older PettingZoo there is no registry and nothing happens.

The engine must import without PettingZoo, so ``import rams_env`` does not import it: the games are
registered when PettingZoo is (or already was) imported, in whichever order the two come.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys

NAMESPACE = "rams"
VERSION = 0


def env_id(game: str) -> str:
    return f"{NAMESPACE}/{game}-v{VERSION}"


def register_games() -> list[str]:
    """Register every game once (importing rams_env again does not re-register); the ids registered."""
    import pettingzoo

    from rams_env.registry import GAMES

    register = getattr(pettingzoo, "register", None)
    if register is None:  # PettingZoo < 1.27
        return []
    registries = {"aec": (pettingzoo.aec_registry, "env"), "parallel": (pettingzoo.parallel_registry, "parallel_env")}
    ids = []
    for game in GAMES:
        for env_type, (registry, function) in registries.items():
            if env_id(game) not in registry:
                register(env_type, env_id(game), entry_point=f"rams_env.{game}_v{VERSION}:{function}")
        ids.append(env_id(game))
    return ids


class _RegisterAfterImport(importlib.abc.MetaPathFinder):
    """Finds ``pettingzoo`` once, with the usual finders, and registers the games when it has loaded."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "pettingzoo":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            exec_module = spec.loader.exec_module

            def exec_then_register(module):
                exec_module(module)
                register_games()

            spec.loader.exec_module = exec_then_register
        return spec


def register_when_imported() -> None:
    """Register now if PettingZoo is loaded, else as soon as something imports it."""
    if "pettingzoo" in sys.modules:
        register_games()
    elif not any(isinstance(finder, _RegisterAfterImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _RegisterAfterImport())
