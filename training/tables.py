"""The tables a batched run trains or evaluates at: the config's ``tables`` (and ``eval.tables``) resolved into
the learner's ``TableSpec`` (training/batched/tables.py).

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

from typing import Any

import rams_env
from rams_env.core.rules import RulesError
from training.batched.tables import TableSpec, all_tables

ENTRY_KEYS = ("num_players", "preset", "rules")


class TableError(ValueError):
    """A ``tables`` setting the game cannot play; the message names the entry."""


def table_options(table: TableSpec) -> dict[str, Any]:
    """Keyword arguments of ``rams_env.make`` / ``make_game`` after the size: the preset, if any, and the rules."""
    return {**({"preset": table.preset} if table.preset else {}), **table.rules}


def config_table(game: str, num_players: int | None, rules: dict[str, Any]) -> TableSpec:
    """The table of a config's ``num_players`` and ``rules`` (``rules`` may hold ``preset``)."""
    options = dict(rules)
    preset = options.pop("preset", None)
    n = rams_env.make_game(game, num_players, preset=preset, **options).num_players
    return TableSpec(n, preset, options)


def resolve_tables(setting: Any, game: str, num_players: int | None, rules: dict[str, Any],
                   where: str = "tables") -> list[TableSpec]:
    """The tables a ``tables`` setting names, each checked by building it; raises TableError."""
    if setting == "default":
        return [config_table(game, num_players, rules)]
    if setting == "all":
        return all_tables(game)
    if not isinstance(setting, list) or not setting:
        raise TableError(f"{where}: 'default', 'all' or a list of tables ({{num_players, preset, rules}}), "
                         f"got {setting!r}")
    base = config_table(game, num_players, rules)
    tables = [entry_table(entry, game, base, f"{where}[{i}]") for i, entry in enumerate(setting)]
    return distinct(tables)


def distinct(tables: list[TableSpec]) -> list[TableSpec]:
    """``tables`` without repeats, in order."""
    return [t for i, t in enumerate(tables) if t not in tables[:i]]


def entry_table(entry: Any, game: str, base: TableSpec, where: str) -> TableSpec:
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
    return TableSpec(int(n), preset, dict(options))


def is_general(setting: Any, game: str, num_players: int | None, rules: dict[str, Any]) -> bool:
    """Whether a run at ``setting`` trains a general agent: any table besides the config's own."""
    return resolve_tables(setting, game, num_players, rules) != [config_table(game, num_players, rules)]
