"""Deal records: a played episode as a JSON document that replays exactly through the engine.

A record holds what the episode was dealt from and every decision taken in it; replaying the actions from
the same seed and reset options rebuilds every position, so a deal that an analysis flags (a bluff, a
strange fold) can be opened, stepped through with every hand open, and checked. The format (docs/web.md):

    {"format": "rams-deal-record", "version": 1,
     "game": "toepen", "num_players": 4, "preset": null, "rules": {...every rule in effect...},
     "episode": "deal" | "session", "seed": 7 (an int or a list of ints: numpy's default_rng seed),
     "random_carry": false, "options": {reset options: "dealer", "lives_lost", "pot", "bankrolls", ...},
     "deals": [{"number": 1, "dealer": 2, "cards": {"hands": [["Ah", ...], ...], "stock": [...], ...},
                "actions": [{"seat": 2, "action": "dirty"}, ...],
                "result": [0, -1, 0, 0], "breakdown": {...}}, ...]}

``cards`` is every card place of the game (``Game.card_places``: hands, stock or talon, the turned trump,
face-down discards...) at the deal's first decision, card codes top first. ``result`` is each seat's net
result of the deal in the game's units and ``breakdown`` its settlement (``RamsEnv.last_breakdown``), both as
JSON gives them back. Only finished deals are recorded.

Replaying (:func:`replay`) deals from ``seed`` and ``options`` as ``RamsEnv.reset`` does, checks that the
cards of every deal, the seat to act, every action, every result and settlement are the recorded ones, and
raises one :class:`RecordError` naming the first difference: a malformed, tampered or foreign record never
replays into a wrong position. numpy and json only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rams_env.core.cards import code
from rams_env.core.game import Game, OptionError, State
from rams_env.core.rules import RulesError

FORMAT = "rams-deal-record"
VERSION = 1
EPISODES = ("deal", "session")
MAX_ACTIONS = 100_000
"""More recorded decisions than any session plays: a bound on what a file makes the engine do."""


class RecordError(ValueError):
    """A record that is malformed, or that does not replay to what it says."""


def as_json(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists, int keys as strings, numpy numbers as numbers)."""
    return json.loads(json.dumps(value, default=_plain))


def _plain(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)


def card_places(game: Game, state: State) -> dict[str, Any]:
    """Every card place of the game as card codes: a list per seat, a list, or one card (None for none)."""
    out: dict[str, Any] = {}
    for name in game.card_places:
        value = getattr(state, name, None)
        out[name] = _codes(value)
    return out


def _codes(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, (int, np.integer)):
        return code(int(value))
    return [_codes(v) for v in value]


class Recorder:
    """Builds the record of an episode as it is played: :meth:`acting` before every action is applied,
    :meth:`settled` when a deal is over (the hooks of agents/table.py's Watcher call them)."""

    def __init__(self, game: Game, seed: Any, options: Mapping[str, Any] | None = None, random_carry: bool = False,
                 preset: str | None = None) -> None:
        self.game = game
        self.record: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": game.name, "num_players": game.num_players,
            "preset": preset, "rules": as_json(game.rules.as_dict()),
            "episode": "session" if game.session else "deal", "seed": as_json(seed),
            "random_carry": bool(random_carry), "options": as_json(dict(options or {})), "deals": []}
        self.current: dict[str, Any] | None = None

    def acting(self, state: State, seat: int, action: int) -> None:
        """``seat`` is about to take ``action`` at ``state``."""
        if self.current is None:
            self.current = {"number": state.deals_played + 1, "dealer": int(state.dealer),
                            "cards": card_places(self.game, state), "actions": []}
        self.current["actions"].append({"seat": int(seat), "action": self.game.actions.label(action)})

    def settled(self, state: State) -> None:
        """A deal is over: its result and settlement close its entry."""
        if self.current is None:
            return
        self.current["result"] = as_json(state.deal_results[-1])
        self.current["breakdown"] = as_json(state.breakdown)
        self.record["deals"].append(self.current)
        self.current = None


# ---------------------------------------------------------------------------- reading
def load(path: str | Path) -> dict[str, Any]:
    """A record read from a JSON file (checked for its shape; :func:`replay` checks the rest)."""
    try:
        text = Path(path).read_text()
    except OSError as err:
        raise RecordError(f"cannot read record {path}: {err}") from None
    return parse(text, str(path))


def parse(text: str, where: str = "record") -> dict[str, Any]:
    """A record from JSON text, its shape checked."""
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise RecordError(f"{where}: not JSON ({err})") from None
    check_shape(record, where)
    return record


def save(record: Mapping[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n")


def _need(ok: bool, where: str, message: str) -> None:
    if not ok:
        raise RecordError(f"{where}: {message}")


def check_shape(record: Any, where: str = "record") -> None:
    """The fields and types every record has (docs/web.md), before the engine is asked anything."""
    _need(isinstance(record, dict), where, "a record is a JSON object")
    _need(record.get("format") == FORMAT, where, f"'format' must be {FORMAT!r}, got {record.get('format')!r}")
    _need(record.get("version") == VERSION, where, f"version {record.get('version')!r}; this rams reads {VERSION}")
    _need(isinstance(record.get("game"), str), where, "'game' must be a game's name")
    players = record.get("num_players")
    _need(isinstance(players, int) and not isinstance(players, bool), where, "'num_players' must be an integer")
    _need(record.get("preset") is None or isinstance(record.get("preset"), str), where, "'preset' must be a name")
    for key in ("rules", "options"):
        _need(isinstance(record.get(key), dict), where, f"{key!r} must be an object")
    _need(record.get("episode") in EPISODES, where, f"'episode' must be one of {', '.join(EPISODES)}")
    _need(_is_seed(record.get("seed")), where, "'seed' must be a non-negative integer or a list of them")
    _need(isinstance(record.get("random_carry"), bool), where, "'random_carry' must be true or false")
    deals = record.get("deals")
    _need(isinstance(deals, list) and len(deals) > 0, where, "'deals' must be a non-empty list")
    total = 0
    for k, deal in enumerate(deals):
        _check_deal_shape(deal, f"{where}: deal {k + 1}")
        total += len(deal["actions"])
    _need(total <= MAX_ACTIONS, where, f"{total} actions; a record holds at most {MAX_ACTIONS}")


def _is_seed(seed: Any) -> bool:
    def natural(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and x >= 0
    return natural(seed) or (isinstance(seed, list) and 0 < len(seed) <= 8 and all(natural(x) for x in seed))


def _check_deal_shape(deal: Any, where: str) -> None:
    _need(isinstance(deal, dict), where, "a deal is an object")
    for key, kind in (("cards", dict), ("actions", list), ("result", list), ("breakdown", dict)):
        _need(isinstance(deal.get(key), kind), where, f"{key!r} must be a{'n' if kind is list else ''} "
                                                      f"{'list' if kind is list else 'object'}")
    for k, step in enumerate(deal["actions"]):
        ok = (isinstance(step, dict) and isinstance(step.get("seat"), int) and isinstance(step.get("action"), str)
              and set(step) == {"seat", "action"})
        _need(ok, where, f"action {k + 1} must be {{\"seat\": int, \"action\": label}}, got {step!r}")


# ---------------------------------------------------------------------------- replaying
def make_game(record: Mapping[str, Any]) -> Game:
    """The record's game with its rules (every rule in effect, over its preset)."""
    from rams_env.registry import make_game as build

    try:
        return build(record["game"], record["num_players"], preset=record["preset"],
                     session=record["episode"] == "session", **record["rules"])
    except (RulesError, KeyError, TypeError, ValueError) as err:
        raise RecordError(f"record: cannot set up its table: {err}") from None


def start(game: Game, record: Mapping[str, Any]) -> State:
    """The episode's first position, dealt as ``RamsEnv.reset(seed, options)`` deals it."""
    seed = record["seed"]
    try:
        return game.new_state(np.random.default_rng(seed), record["options"], random_carry=record["random_carry"])
    except (OptionError, ValueError, TypeError) as err:
        raise RecordError(f"record: its reset options cannot start the episode: {err}") from None


@dataclass
class Position:
    """A step of a replay: the state before ``action`` (None after a deal's last action) of deal ``deal``."""

    state: State
    deal: int  # index into record["deals"]
    step: int  # index into that deal's actions
    seat: int
    action: int


def positions(record: Mapping[str, Any], game: Game | None = None,
              settled: Callable[[State], None] | None = None) -> Iterator[Position]:
    """Every decision of the record in order, each checked before it is applied (see the module docstring);
    the state is shared and moves on after each yield. ``settled`` hears each finished deal's last table."""
    check_shape(record)
    game = game if game is not None else make_game(record)
    state = start(game, record)
    deals = record["deals"]
    for d, deal in enumerate(deals):
        where = f"record: deal {d + 1}"
        _need(not state.terminal, where, "the episode was already over")
        _need(card_places(game, state) == deal["cards"], where, "the cards dealt differ from the recorded ones "
                                                                 "(a changed seed, option or card)")
        yield from _replay_deal(game, state, deal, d, where, settled)
        _need(state.deals_played == d + 1, where, "the recorded actions do not finish the deal")
        _need(as_json(state.deal_results[-1]) == deal["result"], where,
              f"result {deal['result']} recorded, the engine gives {as_json(state.deal_results[-1])}")
        _need(as_json(state.deal_breakdowns[-1]) == deal["breakdown"], where,
              "the recorded settlement differs from the engine's")


def _replay_deal(game: Game, state: State, deal: Mapping[str, Any], d: int, where: str,
                 settled: Callable[[State], None] | None) -> Iterator[Position]:
    actions = deal["actions"]
    for k, step in enumerate(actions):
        _need(state.deals_played == d and not state.terminal, where,
              f"the deal ended after {k} of its {len(actions)} recorded actions")
        _need(step["seat"] == state.to_act, where,
              f"action {k + 1} ({step['action']}) is recorded for seat {step['seat']}, seat {state.to_act} is to act")
        try:
            action = game.actions.parse(step["action"])
        except (KeyError, ValueError) as err:
            raise RecordError(f"{where}: action {k + 1}: no action {step['action']!r} in {game.name} ({err})") from None
        legal = game.legal_actions(state)
        _need(action in legal, where, f"action {k + 1} ({step['action']}) is not legal there; legal: "
                                      f"{', '.join(game.actions.label(a) for a in legal)}")
        yield Position(state, d, k, step["seat"], action)
        game.apply(state, action, settled)


def replay(record: Mapping[str, Any]) -> State:
    """Replay the whole record, checking it; the final state (:class:`RecordError` on the first difference)."""
    game = make_game(record)
    state = None
    for position in positions(record, game):
        state = position.state
    return state if state is not None else start(game, record)
