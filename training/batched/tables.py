"""The tables a batched run trains on: a table size, a preset and rule options each."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rams_env.core.general import preset_tables
from rams_env.registry import game_class, make_game


@dataclass(frozen=True)
class TableSpec:
    """One kind of table: ``rams_env.make_game(game, num_players, preset=preset, **rules)``."""

    num_players: int
    preset: str | None = None  # None: the game's default rules
    rules: dict[str, Any] = field(default_factory=dict, hash=False)  # option overrides on top of the preset

    def make_game(self, game: str):
        """The reference game of this table (checks the rules, with the reference's error messages)."""
        return make_game(game, self.num_players, preset=self.preset, **self.rules)

    def label(self) -> str:
        """A short name for logs and metrics: ``4p`` or ``5p_blind``."""
        rules = "".join(f"_{key}={value}" for key, value in sorted(self.rules.items()))
        return f"{self.num_players}p" + (f"_{self.preset}" if self.preset else "") + rules


def all_tables(game: str) -> list[TableSpec]:
    """Every table size of every preset the game's rules allow (combinations the reference refuses are skipped,
    e.g. Fipsen's Thedinghausen at 4 players); presets in the rules' order, sizes ascending."""
    default = game_class(game).rules_type.DEFAULT_PRESET
    return [TableSpec(table.num_players, None if preset == default else preset)
            for preset, table in preset_tables(game)]
