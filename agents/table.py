"""THE deal loop, written once: the agents at a table act until the episode ends.

Every caller that seats agents and lets them play a whole episode goes through :func:`play`: the
tournament (evaluation/tournament.py), the bluff study's recorder (evaluation/bluff/record.py),
:func:`play_episode`, ``rams demo`` and ``rams play`` (cli/). It drives the Game directly,
without the AEC wrapper, so evaluations run at the engine's speed; each agent gets only what it reads
(``reads_observation`` / ``reads_view``, see agents/base.py) and an illegal choice is refused with
:class:`IllegalActionError`, naming the agent. Callers that record or print something at every step
give a :class:`Watcher`.

Many games of one table at once go through agents/lockstep.py's :func:`play_together`, the same steps with a
checkpoint's decisions batched across the games (the strength gate, ``rams evaluate``, the trainers' match).

Two loops stay apart, on purpose: training/single_seat.py steps one decision at a time (Stable-Baselines3
asks for the learner's next observation between the opponents' moves), and evaluation/throughput.py times
the AEC API's own loop, the one PettingZoo users write.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.base import Agent
from rams_env.core.game import Game, State
from rams_env.core.observation import OBS_DTYPE
from rams_env.env import IllegalActionError

_NO_OBSERVATION = np.zeros(0, dtype=OBS_DTYPE)
_NO_OBSERVATION.flags.writeable = False


class Turn:
    """One decision: who acted, what was legal, what she chose; the seat's view, built once if asked for."""

    __slots__ = ("_view", "action", "game", "legal", "seat", "state")

    def __init__(self, game: Game, state: State, seat: int, legal: list[int], view: dict[str, Any] | None) -> None:
        self.game, self.state, self.seat, self.legal, self._view = game, state, seat, legal, view
        self.action = -1

    @property
    def view(self) -> dict[str, Any]:
        """The acting seat's structured view of the position before the action (valid until it is applied)."""
        if self._view is None:
            self._view = self.game.view(self.state, self.seat)
        return self._view


class Watcher:
    """Hears a table's play; a subclass overrides what it needs (every hook does nothing here).

    ``acting`` comes before the action is applied (the position it was chosen at), ``settled`` when a deal
    is over and settled, before a session deals the next one (the deal's last table, its breakdown), and
    ``acted`` after the action (in a session the next deal may have begun); ``acted`` returns True to stop
    the play there.
    """

    def acting(self, turn: Turn) -> None:
        """``turn.action`` is about to be applied at ``turn.state``."""

    def settled(self, state: State) -> None:
        """A deal is over: ``state`` shows its last table and settlement."""

    def acted(self, turn: Turn) -> bool:
        """``turn.action`` has been applied; True stops the play."""
        return False


def reads(agent: Agent) -> tuple[bool, bool]:
    """(observation, view): what ``agent`` reads. Scripted agents skip the costly encodings they never use.

    Agents declare ``reads_observation`` / ``reads_view`` (the random agent reads only the mask,
    heuristics only the view); an agent that declares nothing gets both.
    """
    return bool(getattr(agent, "reads_observation", True)), bool(getattr(agent, "reads_view", True))


def play(game: Game, state: State, agents: Sequence[Agent], watcher: Watcher | None = None) -> int:
    """Let ``agents`` (one per seat) act at ``state`` until it is terminal (or ``watcher`` stops it);
    returns the number of decisions taken. ``state`` is left at the end of the episode."""
    needs = [reads(a) for a in agents]
    settled = watcher.settled if watcher is not None else None
    decisions = 0
    while not state.terminal:
        seat = state.to_act
        legal = game.legal_actions(state)
        read_obs, read_view = needs[seat]
        turn = _turn(game, state, legal, read_view)
        turn.action = _choose(game, state, agents[seat], turn, read_obs)
        if watcher is not None:
            watcher.acting(turn)
        game.apply(state, turn.action, settled)
        decisions += 1
        if watcher is not None and watcher.acted(turn):
            break
    return decisions


def chosen(game: Game, state: State, agent: Agent, legal: list[int] | None = None,
           needs: tuple[bool, bool] | None = None) -> int:
    """``agent``'s legal action in the seat to act at ``state``, for loops that step agents outside :func:`play`
    (the batched trainer's scripted seats, the refresher's teachers, the searchers' rollouts): the same
    encoding on demand and the same refusal of an illegal choice. ``legal`` and ``needs`` (:func:`reads`) may be
    passed when the caller has them already."""
    read_obs, read_view = reads(agent) if needs is None else needs
    turn = _turn(game, state, game.legal_actions(state) if legal is None else legal, read_view)
    return _choose(game, state, agent, turn, read_obs)


def _turn(game: Game, state: State, legal: list[int], read_view: bool) -> Turn:
    """The decision of the seat to act, its view built now if the agent reads one."""
    seat = state.to_act
    return Turn(game, state, seat, legal, game.view(state, seat) if read_view else None)


def _choose(game: Game, state: State, agent: Agent, turn: Turn, read_obs: bool) -> int:
    """The agent's legal action at ``turn`` (its observation encoded only if it reads one; a searching agent,
    agents/search.py, chooses from the state, see agents/base.py)."""
    if getattr(agent, "searches", False):
        return checked(game, agent, turn.seat, turn.legal, agent.act_at(state))
    mask = np.zeros(game.actions.size, dtype=np.int8)
    mask[turn.legal] = 1
    obs = _NO_OBSERVATION
    if read_obs:
        obs = np.zeros(game.observation.size, dtype=OBS_DTYPE)
        game.encode(state, turn.seat, obs)
    action = agent.act(obs, mask, turn._view if turn._view is not None else {})
    return checked(game, agent, turn.seat, turn.legal, action)


def checked(game: Game, agent: Agent, seat: int, legal: list[int], action: Any) -> int:
    """``action`` as an int if it is one of ``legal``; else :class:`IllegalActionError`, naming the agent."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or int(action) not in legal:
        raise IllegalActionError(f"{agent.name} in seat {seat} chose {action!r}; legal: "
                                 f"{', '.join(game.actions.label(a) for a in legal)}")
    return int(action)


def play_episode(env, agents: list[Agent], seed: int | None = None, options: dict | None = None) -> list[float]:
    """One episode of an AEC rams env with one agent per seat; each seat's total reward (its final score:
    rewards are score changes counted from 0 at reset).

    The env deals (``env.reset``: its seeding, options and rules), then :func:`play` drives its game state
    to the end without the AEC bookkeeping: reset the env before stepping it again. Seat ``i``'s agent is
    reset with ``seed * 1009 + i``.
    """
    env.reset(seed=seed, options=options)
    raw = env.unwrapped
    for i, agent in enumerate(agents):
        agent.reset(None if seed is None else seed * 1009 + i)
    play(raw.game, raw.game_state, agents)
    return [float(score) for score in raw.game_state.scores]
