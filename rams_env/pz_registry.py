"""Every game in PettingZoo's registry: ``pettingzoo.make("aec", "rams/toepen-v0")``.

PettingZoo 1.27 added ``pettingzoo.register`` / ``pettingzoo.make(env_type, id)`` (its SB3
action-mask tutorial builds its environment that way). ``import rams_env`` registers each game
of rams_env.registry as ``rams/<game>-v0``, AEC (``<game>_v0.env``) and parallel
(``<game>_v0.parallel_env``); with an older PettingZoo there is no registry and nothing happens.
"""

from __future__ import annotations

import pettingzoo

from rams_env.registry import GAMES

NAMESPACE = "rams"
VERSION = 0


def env_id(game: str) -> str:
    return f"{NAMESPACE}/{game}-v{VERSION}"


def register_games() -> list[str]:
    """Register every game once (importing rams_env again does not re-register); the ids registered."""
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
