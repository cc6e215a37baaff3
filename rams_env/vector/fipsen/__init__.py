"""Fipsen for the batched engine: the reference game's rules, compiled (see docs/vector.md).

Every variant is batched. ``random_carry`` is refused for Thedinghausen (the only variant
whose reference draws carried-over state, the race and the pot): not cross-checked yet.
"""

from __future__ import annotations

from typing import Any

from rams_env.core.rules import RulesError
from rams_env.games.fipsen.game import Fipsen
from rams_env.games.fipsen.rules import Variant
from rams_env.vector.batch import BatchEnv

SUPPORTED = tuple(Variant)
"""Variants the kernels play; each is cross-checked against the reference (tests/test_vector_fipsen.py)."""


class FipsenBatch(BatchEnv):
    """B Fipsen deals (or sessions) at once; ``deals`` holds them as arrays (state.py)."""

    def __init__(self, game: Fipsen, num_envs: int, **options: Any) -> None:
        variant = game.rules.variant
        if variant not in SUPPORTED:
            names = ", ".join(v.value for v in SUPPORTED)
            raise RulesError(f"the batched Fipsen engine plays the variants {names} only so far, not "
                             f"{variant.value!r}; use rams_env.make('fipsen', variant={variant.value!r}) for it")
        if variant is Variant.THEDINGHAUSEN and options.get("random_carry"):
            raise RulesError("the batched Fipsen engine does not draw Thedinghausen's carried-over race and pot yet "
                             "(random_carry=True); use random_carry=False, or rams_env.make for it")
        super().__init__(game, num_envs, **options)
