"""Toepen for the batched engine: the reference game's rules, compiled (see docs/vector.md)."""

from __future__ import annotations

from typing import Any

from rams_env.games.toepen.game import Toepen
from rams_env.vector.batch import BatchEnv, Episode
from rams_env.vector.toepen import kernels
from rams_env.vector.toepen.spec import build_spec
from rams_env.vector.toepen.state import allocate


class ToepenBatch(BatchEnv):
    """B Toepen deals (or sessions) at once; ``deals`` holds them as arrays (state.py)."""

    kernels = kernels

    def __init__(self, game: Toepen, num_envs: int, **options: Any) -> None:
        session = Episode(options.get("episode", Episode.DEAL)) is Episode.SESSION
        spec = build_spec(game, session=session, random_carry=bool(options.get("random_carry", False)))
        deals = allocate(num_envs, game.player_range()[1], int(spec["cards"][0]))
        super().__init__(game, num_envs, spec, deals, **options)
