"""Deal records of the deals an evaluation plays (``rams evaluate --records DIR``, ``rams bluff --records DIR``).

A :class:`RecordingWatcher` listens to THE deal loop (agents/table.py's Watcher hooks) and fills a
rams_env.records.Recorder; :func:`write` saves it under a name that says which deal and seating it was, so a
deal an analysis flags can be opened in ``rams serve``'s replay (docs/web.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.table import Turn, Watcher
from rams_env.records import Recorder, save


class RecordingWatcher(Watcher):
    """Records every action and every settled deal of one episode (and passes them to ``inner``, if given)."""

    def __init__(self, recorder: Recorder, inner: Watcher | None = None) -> None:
        self.recorder, self.inner = recorder, inner

    def acting(self, turn: Turn) -> None:
        self.recorder.acting(turn.state, turn.seat, turn.action)
        if self.inner is not None:
            self.inner.acting(turn)

    def settled(self, state) -> None:
        self.recorder.settled(state)
        if self.inner is not None:
            self.inner.settled(state)

    def acted(self, turn: Turn) -> bool:
        return self.inner.acted(turn) if self.inner is not None else False


def watcher(folder: str | None, game, seed: Any, random_carry: bool, preset: str | None,
            inner: Watcher | None = None) -> RecordingWatcher | Watcher | None:
    """A recording watcher when ``folder`` is set, else ``inner`` alone."""
    if folder is None:
        return inner
    return RecordingWatcher(Recorder(game, seed, None, random_carry, preset), inner)


def write(folder: str | None, name: str, watching: Watcher | None, players: list[str] | None = None) -> None:
    """Save the record ``watching`` gathered as ``folder/name.json`` (nothing when not recording); ``players``
    (the agent in each seat) go into the record's ``"players"``."""
    if folder is None or not isinstance(watching, RecordingWatcher):
        return
    record = watching.recorder.record
    if players:
        record["players"] = list(players)
    Path(folder).mkdir(parents=True, exist_ok=True)
    save(record, Path(folder) / f"{name}.json")
