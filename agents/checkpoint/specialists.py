"""Specialists: further networks inside a general checkpoint, each playing only the tables it names.

Why: a fine-tune taught at a few tables moves the play at every other table too, however hard that play is held.
The tap refresher run on the seventh Tippen stage won 14 cells at the two presets it taught and lost 18 at the 51
it held, so as one network it was refused (docs/results.md, "Specialists"). Kept as a specialist, it plays the
tables it was taught and the base network plays every other table exactly as before: a lesson no longer costs the
tables it was not about.

A general checkpoint (agents/checkpoint/general.py) may list ``specialists`` in its metadata, each a network of the
same general space (its own ``net_arch``, its weights in a member of their own: agents/checkpoint/format.py) with
the tables it plays, ``{preset, num_players}``. The table alone decides which network plays it: a table is a
specialist's when its size is listed with a preset and its rules are exactly that preset's; any other table,
including one with custom options, is the base's. A table's size and rules are public, so the choice depends on no
hidden card, and every seat the checkpoint fills at a table plays the same network.

``rams compose`` (cli/compose.py) writes such a checkpoint from a base and specialists, each an ordinary general
checkpoint of the game; a specialist plays, unless told otherwise, the tables its warm start taught. A base that is
itself a composite keeps its specialists and gains the new ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import torch

from agents.checkpoint.format import (
    FORMAT,
    SPECIALISTS,
    VERSION,
    CheckpointError,
    check_meta,
    load_checkpoint,
    load_specialist_state,
    save_checkpoint,
)
from agents.checkpoint.general import general_meta, is_general
from agents.checkpoint.net_arch import as_json
from agents.checkpoint.safe_zip import ZipRefused
from rams_env.core.rules import RulesError
from rams_env.registry import make_game

Table = dict[str, Any]
"""``{"preset": name, "num_players": n}``: one table a specialist plays."""

SOURCE_KEYS = ("config", "steps", "trainer", "warm_start")
"""What a specialist entry keeps of its checkpoint's metadata: how it was made (the composite's own keys are the
base's)."""


def specialist_index(meta: dict[str, Any], game, path: str | Path) -> int | None:
    """Which of ``meta``'s specialists plays the table of ``game`` (a rams_env Game), None for the base network."""
    for index, entry in enumerate(meta.get(SPECIALISTS, [])):
        for table in entry["tables"]:
            if table["num_players"] == game.num_players and _rules(meta["game"], table, path) == game.rules:
                return index
    return None


@cache
def _preset_rules(game: str, preset: str, num_players: int):
    return make_game(game, num_players, preset=preset).rules


def _rules(game: str, table: Table, path: str | Path):
    try:
        return _preset_rules(game, table["preset"], table["num_players"])
    except RulesError as err:
        raise CheckpointError(path, f"a specialist's table {table['preset']}:{table['num_players']}: {err}") from None


def network_state(path: str | Path, game) -> tuple[dict[str, Any], dict[str, torch.Tensor], int | None]:
    """(meta, weights, specialist index or None) of the network that plays ``game``'s table in the checkpoint at
    ``path``: what an agent, a league member or a fine-tune seated at that table starts from."""
    meta, state, _ = load_checkpoint(path)
    index = specialist_index(meta, game, path)
    return meta, state if index is None else load_specialist_state(path, index), index


def check_single_network(meta: dict[str, Any], path: str | Path, why: str) -> None:
    """Refuse a checkpoint with specialists where one network is needed and no table says which (``why``)."""
    if meta.get(SPECIALISTS):
        raise CheckpointError(path, f"holds {len(meta[SPECIALISTS])} specialist(s) beside its base network; {why}")


def taught_tables(meta: dict[str, Any], path: str | Path) -> list[Table]:
    """The tables a checkpoint's warm start taught (``warm_start.tables`` of its run's config): where it is a
    specialist unless ``rams compose`` is told other tables."""
    tables = ((meta.get("config") or {}).get("warm_start") or {}).get("tables")
    if not isinstance(tables, list) or not tables:
        raise CheckpointError(path, "its run taught no list of tables (warm_start.tables); name the tables it "
                                    "plays: rams compose --specialist <file>=<preset>:<players>,...")
    if not all(isinstance(t, dict) and not t.get("rules") and "num_players" in t for t in tables):
        raise CheckpointError(path, f"its warm_start.tables {tables} are not all a preset and a size; name the "
                                    f"tables it plays: rams compose --specialist <file>=<preset>:<players>,...")
    return [{"preset": t.get("preset") or _default_preset(meta["game"]), "num_players": int(t["num_players"])}
            for t in tables]


def _default_preset(game: str) -> str:
    return type(make_game(game).rules).DEFAULT_PRESET


def compose(base: str | Path, specialists: list[tuple[str | Path, list[Table] | None]], out: str | Path,
            without: Sequence[int] = ()) -> Path:
    """Write ``out``: the general checkpoint ``base`` with ``specialists`` (each a general checkpoint of the same game
    and layout, with the tables it plays or None for the tables it was taught). The base's metadata is kept; each
    specialist's entry keeps how it was made (:data:`SOURCE_KEYS`) and the file it came from. A base that is a
    composite keeps its specialists, bit for bit, and the new ones follow them: a shipped agent gains a specialist
    without its others having to be made again (a fit is the same only on the machine that made it). ``without``
    names base specialists (by index, as ``rams compose <base>`` lists them) left out, so that a better fit of the
    same tables can replace one while the others stay as they are."""
    meta, state, _ = load_checkpoint(base)
    kept = meta.get(SPECIALISTS, [])
    _check_part({key: value for key, value in meta.items() if key != SPECIALISTS}, meta, base)
    _check_without(without, len(kept), base)
    indices = [index for index in range(len(kept)) if index not in without]
    entries, states = [kept[index] for index in indices], [load_specialist_state(base, index) for index in indices]
    for path, tables in specialists:
        part, weights, _ = load_checkpoint(path)
        _check_part(part, meta, path)
        tables = taught_tables(part, path) if tables is None else tables
        for table in tables:
            _rules(meta["game"], table, path)  # a preset and a size the game plays
        entries.append({"tables": tables, "net_arch": as_json(part["net_arch"]), "source": str(path),
                        **{key: part[key] for key in SOURCE_KEYS if key in part}})
        states.append(weights)
    composed = {**meta, SPECIALISTS: entries}
    try:  # what any reader will check (no table twice, at most MAX_SPECIALISTS), before anything is written
        check_meta({**composed, "format": FORMAT, "version": VERSION})
    except ZipRefused as err:
        raise CheckpointError(out, str(err)) from None
    return save_checkpoint(out, composed, state, specialist_states=states)


def _check_without(without: Sequence[int], count: int, base: str | Path) -> None:
    """Refuse a ``without`` index the base does not have, or one given twice."""
    for index in without:
        if not 0 <= index < count:
            raise CheckpointError(base, f"has no specialist {index} to leave out (it holds {count}: "
                                        f"rams compose {base} lists them)")
    if len(set(without)) != len(without):
        raise CheckpointError(base, f"specialists to leave out {list(without)} name one twice")


def _check_part(part: dict[str, Any], base: dict[str, Any], path: str | Path) -> None:
    """A part of a composite: a general checkpoint of the base's game and layout, with no specialists of its own."""
    if not is_general(part):
        raise CheckpointError(path, "not a general checkpoint: a specialist reads its game's general space")
    if part["game"] != base["game"]:
        raise CheckpointError(path, f"a {part['game']} checkpoint; the base plays {base['game']}")
    expected = general_meta(part["game"])
    if any(part.get(key) != value for key, value in expected.items()):
        raise CheckpointError(path, f"written for another general layout than today's {part['game']} space")
    check_single_network(part, path, "compose from its own networks' files")
