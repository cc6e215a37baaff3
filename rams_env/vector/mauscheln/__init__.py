"""Mauscheln for the batched engine: the reference game's rules, compiled (see docs/vector.md)."""

from __future__ import annotations

from typing import Any

from rams_env.games.mauscheln.game import Mauscheln
from rams_env.vector.batch import Episode
from rams_env.vector.mauscheln import kernels
from rams_env.vector.mauscheln.spec import build_spec
from rams_env.vector.mauscheln.state import allocate
from rams_env.vector.potgame import PotBatch


class MauschelnBatch(PotBatch):
    """B Mauscheln deals (or sessions) at once; ``deals`` holds them as arrays (state.py)."""

    kernels = kernels

    def __init__(self, game: Mauscheln, num_envs: int, **options: Any) -> None:
        session = Episode(options.get("episode", Episode.DEAL)) is Episode.SESSION
        spec = build_spec(game, session=session, random_carry=bool(options.get("random_carry", False)))
        deals = allocate(num_envs, game.player_range()[1], len(game.pack()))
        super().__init__(game, num_envs, spec, deals, **options)
