"""One table of ``rams serve``: the engine's state on the server, a person's seat (or none: agents only), the
agents in the other seats, and what has been said in public.

Every move, the person's and the agents', goes through THE deal loop (agents/table.py ``play``), one decision
at a time: the person's seat holds a :class:`SeatedPerson` whose next action is the move she sent, already
checked. A finished deal waits at its settlement until the person asks for the next one (a spectator's table
goes on by itself). Every move is recorded (rams_env/records.py), so the session can be saved as a deal record.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.base import Agent
from agents.human import refusal
from agents.registry import agent_factories
from agents.table import Turn, Watcher, play
from evaluation.records import RecordingWatcher
from rams_env.core.cards import code
from rams_env.core.game import Game, State
from rams_env.core.observation_seats import SeatBlock
from rams_env.records import Recorder, card_places

LOG_LENGTH = 60
"""Public events kept per table for the page's log (the current and the last deal)."""


class MoveError(ValueError):
    """A move the table refuses (not legal now, not her turn, no such action); nothing changes."""


class SeatedPerson:
    """The person's seat in the deal loop: plays the move she sent (checked before the loop asks)."""

    name = "you"
    reads_observation = False
    reads_view = False

    def __init__(self) -> None:
        self.next: int | None = None

    def reset(self, seed: int | None = None) -> None:
        del seed

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        action, self.next = self.next, None
        return -1 if action is None else action


@dataclass
class Event:
    """Something every seat saw happen: ``seat`` took ``action`` (an action id), or took a trick."""

    seat: int
    action: int | None = None
    trick: list[tuple[int, str]] | None = None  # the cards of a trick ``seat`` took, in play order
    deal: int = 0
    note: str | None = None  # said to the whole table (a deal's end), ``seat`` not meant


@dataclass
class Settlement:
    """A finished deal as each seat saw its last table: a view per seat, the result and the breakdown."""

    number: int
    views: list[dict[str, Any]]
    cards: dict[str, Any]
    result: list[int]
    breakdown: dict[str, Any]
    scores: list[int]
    last_trick: list[tuple[int, str]] | None


@dataclass
class LiveTable:
    """A table's whole state on the server (see the module docstring)."""

    game: Game
    state: State
    seat: int | None  # the person's seat; None: a spectator's table of agents only
    agents: list[Agent]
    names: list[str]
    seed: int
    setup: dict[str, Any]
    recorder: Recorder
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    events: list[Event] = field(default_factory=list)
    settlement: Settlement | None = None  # shown until the next deal is asked for
    last_trick: list[tuple[int, str]] | None = None
    version: int = 0  # counts changes: a connection sends a new message when it moved
    agents_reset_for: int = -1

    # ------------------------------------------------------------------ whose turn
    @property
    def person(self) -> SeatedPerson | None:
        return self.agents[self.seat] if self.seat is not None else None  # type: ignore[return-value]

    def waiting_for_person(self) -> bool:
        return self.seat is not None and self.settlement is None and self.state.to_act == self.seat

    def agent_to_move(self) -> bool:
        """An agent's decision is due (not at a settlement, not the person's turn, not over)."""
        return not self.state.terminal and self.settlement is None and self.state.to_act != self.seat

    # ------------------------------------------------------------------ moves
    def person_moves(self, label: Any) -> None:
        """The person's move by its label; MoveError (nothing changes) unless legal now."""
        if not isinstance(label, str) or not label or len(label) > 40:
            raise MoveError(f"a move is an action label such as 'Ah', 'knock' or 'pass', got {label!r}")
        if self.seat is None:
            raise MoveError("this is a spectator's table: nobody here takes moves from the page")
        if self.state.terminal:
            raise MoveError("the session is over")
        if self.settlement is not None:
            raise MoveError("the deal is over: ask for the next deal first")
        if self.state.to_act != self.seat:
            raise MoveError(f"it is {self.names[self.state.to_act]}'s turn, not yours")
        legal = self.game.legal_actions(self.state)
        labels = [self.game.actions.label(a) for a in legal]
        chosen = next((a for a, text in zip(legal, labels, strict=True) if text.lower() == label.lower()), None)
        if chosen is None:
            view = self.game.view(self.state, self.seat)
            reason = refusal(label, labels, view)
            raise MoveError(reason or f"{label!r} is not a move you can make now; you may: {', '.join(labels)}")
        self.person.next = chosen
        self._one_decision()

    def agent_moves(self) -> None:
        """The next agent's decision (the caller checked :meth:`agent_to_move`)."""
        self._one_decision()

    def next_deal(self) -> None:
        """Leave the settlement on show and go on (MoveError if there is none)."""
        if self.settlement is None:
            raise MoveError("no deal is waiting at its settlement")
        self.settlement = None
        self.version += 1

    def _one_decision(self) -> None:
        if self.agents_reset_for != self.state.deals_played:  # agents are written for deal episodes
            self.agents_reset_for = self.state.deals_played
            for s, agent in enumerate(self.agents):
                agent.reset(self.seed * 1009 + self.state.deals_played * 31 + s)
        play(self.game, self.state, self.agents, RecordingWatcher(self.recorder, _TableWatcher(self)))
        self.version += 1

    # ------------------------------------------------------------------ record
    def record(self) -> dict[str, Any]:
        """The deal record of the finished deals (rams_env/records.py), with who sat where."""
        return {**self.recorder.record, "players": list(self.names)}


class _TableWatcher(Watcher):
    """Keeps the public log, the last trick and each deal's settlement; stops the loop after one decision."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.tricks_before: list[int] = []
        self.trick: list[tuple[int, str]] = []
        self.was_settled = False

    def acting(self, turn: Turn) -> None:
        state, game = turn.state, turn.game
        self.tricks_before = list(getattr(state, "tricks_won", ()))
        self.trick = [(s, code(c)) for s, c in getattr(state, "trick", ())]
        self.trick.append((turn.seat, game.actions.label(turn.action)))
        self._log(Event(turn.seat, turn.action, deal=state.deals_played))

    def settled(self, state: State) -> None:
        self._trick_taken(state)
        table, game = self.table, self.table.game
        seats = range(game.num_players)
        table.settlement = Settlement(state.deals_played, [game.view(state, s) for s in seats],
                                      card_places(game, state), list(state.deal_results[-1]), state.breakdown,
                                      list(state.scores), table.last_trick)
        self.was_settled = True
        self._log(Event(0, deal=state.deals_played, note=f"deal {state.deals_played} is over"))

    def acted(self, turn: Turn) -> bool:
        if not self.was_settled:  # a settled deal's trick was counted before the next deal began
            self._trick_taken(turn.state)
        return True  # one decision at a time

    def _trick_taken(self, state: State) -> None:
        after = getattr(state, "tricks_won", ())
        for s, (before, now) in enumerate(zip(self.tricks_before, after, strict=False)):
            if now > before:
                self.table.last_trick = list(self.trick)
                self._log(Event(s, trick=list(self.trick), deal=state.deals_played))
        self.tricks_before = list(after)

    def _log(self, event: Event) -> None:
        events = self.table.events
        events.append(event)
        del events[:-LOG_LENGTH]


# ---------------------------------------------------------------------------- set-up
@dataclass(frozen=True)
class Setup:
    """What the page asked for: checked by :func:`open_table` (SetupError names what is wrong)."""

    game: str
    players: int | None
    preset: str | None
    opponents: tuple[str, ...]
    seat: int | None  # None: spectate agents only
    seed: int | None
    rules: tuple[tuple[str, Any], ...] = ()


class SetupError(ValueError):
    """A table the page asked for that cannot be set up (game, preset, size, seat or agent)."""


def open_table(setup: Setup) -> LiveTable:
    """A new table: the session dealt, the agents seated (SetupError on any bad choice)."""
    import rams_env
    from agents.registry import AgentSpecError
    from rams_env.core.rules import RulesError

    try:
        game = rams_env.make_game(setup.game, setup.players, preset=setup.preset, session=True, **dict(setup.rules))
    except (RulesError, KeyError, ValueError, TypeError) as err:
        raise SetupError(str(err).strip("'\"")) from None
    n = game.num_players
    if setup.seat is not None and not 0 <= setup.seat < n:
        raise SetupError(f"seat {setup.seat}: this table has seats 0 to {n - 1}")
    specs = _seat_specs(setup, n)
    try:
        factories = agent_factories([s for s in specs if s is not None], game)
    except (AgentSpecError, ImportError, OSError, ValueError) as err:
        raise SetupError(str(err)) from None
    seed = setup.seed if setup.seed is not None else int(np.random.SeedSequence().entropy % 2**31)
    agents: list[Agent] = [SeatedPerson() if spec is None else factories[spec](seed * 1009 + s)
                           for s, spec in enumerate(specs)]
    names = [f"You (seat {s})" if spec is None else f"{spec} (seat {s})" for s, spec in enumerate(specs)]
    state = game.new_state(np.random.default_rng(seed))
    recorder = Recorder(game, seed, None, False, setup.preset)
    facts = describe(game, setup.preset, setup.seat is None)
    return LiveTable(game, state, setup.seat, agents, names, seed, facts, recorder)


def _seat_specs(setup: Setup, n: int) -> list[str | None]:
    """The agent spec of every seat (None: the person), from one spec for all or one per agent seat."""
    seats = n if setup.seat is None else n - 1
    given: Sequence[str] = setup.opponents or ("heuristic",)
    if len(given) == 1:
        given = list(given) * seats
    if len(given) != seats:
        raise SetupError(f"give one opponent for every seat or {seats} (one per agent seat), got {len(given)}")
    remaining = iter(given)
    return [None if s == setup.seat else next(remaining) for s in range(n)]


def describe(game: Game, preset: str | None, spectator: bool) -> dict[str, Any]:
    """The table's fixed facts for the page: game, rules, unit, the pack's card codes, every kind of move and
    what it means, and which keys of a view are seats (markers: a relative seat) or per-seat values (the game's
    seat block)."""
    block = next((p for p in game.observation.parts if isinstance(p, SeatBlock)), None)
    fields = [f for f in block.fields if f.view_key] if block is not None else []
    return {"game": game.name, "preset": preset, "players": game.num_players, "unit": game.score_unit,
            "rules": game.rules.describe(), "spectator": spectator, "codes": list(game.pack().codes),
            "moves": [{"kind": str(seg.name), "doc": seg.doc, "example": seg.labels()[0]}
                      for seg in game.actions.segments],
            "markers": [f.view_key for f in fields if f.marker],
            "per_seat": [f.view_key for f in fields if not f.marker]}
