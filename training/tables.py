"""The tables a batched run trains or evaluates at: the config's ``tables`` (and ``eval.tables``) resolved.

A table is a size and the rules in effect (a preset plus option overrides). The config names them as

- ``default``: the config's own ``num_players`` and ``rules`` only (a specialist, like the SB3 trainer's);
- ``all``: every table size of every preset the game's rules allow (a general agent: its checkpoint carries
  ``"observation": "general"`` and plays any ``--players`` / ``--preset``);
- a list of entries ``{num_players: 5, preset: modern_knocking, rules: {lives: 10}}`` (every key optional:
  the config's table size, the default preset, no overrides).

Each table is built once here with ``rams_env.make_game``, so a size or rule the game refuses is a
:class:`~training.config.ConfigError` naming the entry before any training starts. No torch: ``rams train``
checks a config before the trainer loads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import rams_env
from rams_env.core.rules import RulesError
from rams_env.registry import game_class

KEYWORDS = ("default", "all")
ENTRY_KEYS = ("num_players", "preset", "rules")


class TableError(ValueError):
    """A ``tables`` setting the game cannot play; the message names the entry."""


@dataclass(frozen=True)
class Table:
    """One table: its size, the preset (None: the game's default) and option overrides."""

    num_players: int
    preset: str | None
    rules: tuple[tuple[str, Any], ...] = ()

    def options(self) -> dict[str, Any]:
        """Keyword arguments of ``rams_env.make_game`` / ``rams_env.vector.make`` after the size."""
        return {**({"preset": self.preset} if self.preset else {}), **dict(self.rules)}

    def label(self) -> str:
        """``4p``, ``5p modern_knocking``, ``3p lives=10``: for bars, logs and TensorBoard tags."""
        extra = [self.preset] if self.preset else []
        extra += [f"{k}={v}" for k, v in self.rules]
        return " ".join([f"{self.num_players}p", *extra])


def config_table(game: str, num_players: int | None, rules: dict[str, Any]) -> Table:
    """The table of a config's ``num_players`` and ``rules`` (``rules`` may hold ``preset``)."""
    options = dict(rules)
    preset = options.pop("preset", None)
    n = rams_env.make_game(game, num_players, preset=preset, **options).num_players
    return Table(n, preset, tuple(sorted(options.items())))


def every_table(game: str) -> list[Table]:
    """Every table size of every preset of ``game`` (presets in the rules' order, sizes ascending)."""
    out = []
    for preset in game_class(game).rules_type.preset_names():
        lo, hi = rams_env.make_game(game, preset=preset).player_range()
        out.extend(Table(n, preset) for n in range(lo, hi + 1))
    return out


def resolve_tables(setting: Any, game: str, num_players: int | None, rules: dict[str, Any],
                   where: str = "tables") -> list[Table]:
    """The tables a ``tables`` setting names, each checked by building it; raises TableError."""
    if setting == "default":
        return [config_table(game, num_players, rules)]
    if setting == "all":
        return every_table(game)
    if not isinstance(setting, list) or not setting:
        raise TableError(f"{where}: 'default', 'all' or a list of tables ({{num_players, preset, rules}}), "
                         f"got {setting!r}")
    base = config_table(game, num_players, rules)
    tables = [entry_table(entry, game, base, f"{where}[{i}]") for i, entry in enumerate(setting)]
    return list(dict.fromkeys(tables))


def entry_table(entry: Any, game: str, base: Table, where: str) -> Table:
    """One list entry: its keys default to the config's table size, the default preset and no overrides."""
    if not isinstance(entry, dict) or set(entry) - set(ENTRY_KEYS):
        raise TableError(f"{where}: a mapping with keys among {', '.join(ENTRY_KEYS)}, got {entry!r}")
    options = entry.get("rules") or {}
    if not isinstance(options, dict):
        raise TableError(f"{where}.rules: a mapping of rule options, got {options!r}")
    n, preset = entry.get("num_players", base.num_players), entry.get("preset")
    try:
        rams_env.make_game(game, n, preset=preset, **options)
    except (RulesError, TypeError, ValueError) as err:
        raise TableError(f"{where}: {err}") from None
    return Table(int(n), preset, tuple(sorted(options.items())))


def is_general(setting: Any, game: str, num_players: int | None, rules: dict[str, Any]) -> bool:
    """Whether a run at ``setting`` trains a general agent: any table besides the config's own."""
    return resolve_tables(setting, game, num_players, rules) != [config_table(game, num_players, rules)]
