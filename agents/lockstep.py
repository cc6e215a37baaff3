"""Many tables at once: the deal loop of agents/table.py with one batched forward per network.

An evaluator that plays hundreds of games of one table (the strength gate plays 1 + opponents x (2n + 1) games a
deal) spent most of its time in a checkpoint agent's batch-1 forward: about 600 us a decision, 70% of a Tippen
sweep, where the same network takes a few microseconds a row in a batch (docs/results.md, "What the gate
costs"). :func:`play_together` plays the games side by side: each game's scripted seats act at once, as in
:func:`agents.table.play`; where a game reaches a seat whose agent can act on a batch (:func:`batches`), it waits;
then every waiting game's decision for that agent is taken in one call of its ``act_batch``, and the games go on.

The results are the sequential loop's, game for game: the same states, the same legal actions, the same refusal
of an illegal choice. A game's agents are its own objects (the factories make one per seat), so the order in
which the games' steps interleave changes nothing for them; the one object several games share, a checkpoint's
network, acts on a batch only when it is greedy and keeps no state between decisions, and its ``act_batch``
chooses what its ``act`` would have (agents/checkpoint_agent.py: a near tie is decided again row by row).
Where some other agent object sits in more than one game (a factory that hands out one object that keeps
state), its state would carry from one game into another in an order the sequential loop never played, so the
games are played one by one instead, each game's agents seated again just before it, as the sequential loop
seated them: a game is given as a callable that seats its agents (fresh and reset), not as the agents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from agents.base import Agent
from agents.table import checked, chosen, play, reads
from rams_env.core.game import Game, State
from rams_env.core.observation import OBS_DTYPE


def batches(agent: Agent) -> bool:
    """Whether ``agent`` acts on a batch: it has ``act_batch`` and says its choice depends on nothing but the
    observation and the mask (``acts_on_batches``, e.g. a greedy policy)."""
    return bool(getattr(agent, "acts_on_batches", False)) and callable(getattr(agent, "act_batch", None))


Seating = Callable[[], Sequence[Agent]]
"""Seats one game's agents, one per seat, fresh and reset for that game."""


def play_together(game: Game, states: Sequence[State], seatings: Sequence[Seating]) -> list[int]:
    """Play every ``states[g]`` to its end with the agents ``seatings[g]()`` seats; the decisions taken in each
    game. The states are left at their episodes' ends, as :func:`agents.table.play` leaves one."""
    if len(states) != len(seatings):
        raise ValueError(f"{len(states)} states for {len(seatings)} tables of agents")
    tables = [list(seat()) for seat in seatings]
    if _shares_state(tables):  # seated again, each just before its game, as the sequential loop seats them
        return [play(game, state, list(seat())) for state, seat in zip(states, seatings, strict=True)]
    decisions = [0] * len(states)
    needs = [[reads(agent) for agent in agents] for agents in tables]
    batching = [[batches(agent) for agent in agents] for agents in tables]
    playing = list(range(len(states)))
    while playing:
        waiting: dict[int, _Requests] = {}
        for g in playing:
            decisions[g] += _play_until_batch(game, states[g], tables[g], needs[g], batching[g])
            state = states[g]
            if not state.terminal:
                agent = tables[g][state.to_act]
                waiting.setdefault(id(agent), _Requests(agent)).add(game, g, state, needs[g][state.to_act][0])
        for requests in waiting.values():
            requests.answer(game, states)
            for g in requests.games:
                decisions[g] += 1
        playing = [g for g in playing if not states[g].terminal]
    return decisions


def _play_until_batch(game: Game, state: State, agents: Sequence[Agent], needs: list[tuple[bool, bool]],
                      batching: list[bool]) -> int:
    """Step ``state`` as :func:`agents.table.play` does until it ends or a batching seat is to act; the steps."""
    steps = 0
    while not state.terminal and not batching[state.to_act]:
        seat = state.to_act
        game.apply(state, chosen(game, state, agents[seat], needs=needs[seat]), None)
        steps += 1
    return steps


class _Requests:
    """The games waiting for one batching agent: their observations and masks, as agents/table.py builds them."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.games: list[int] = []
        self.legal: list[list[int]] = []
        self.observations: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []

    def add(self, game: Game, g: int, state: State, read_obs: bool) -> None:
        seat, legal = state.to_act, game.legal_actions(state)
        mask = np.zeros(game.actions.size, dtype=np.int8)
        mask[legal] = 1
        obs = np.zeros(game.observation.size if read_obs else 0, dtype=OBS_DTYPE)
        if read_obs:
            game.encode(state, seat, obs)
        self.games.append(g)
        self.legal.append(legal)
        self.observations.append(obs)
        self.masks.append(mask)

    def answer(self, game: Game, states: Sequence[State]) -> None:
        """One ``act_batch`` call for every waiting game; each choice checked and applied."""
        actions = self.agent.act_batch(np.stack(self.observations), np.stack(self.masks))
        if len(actions) != len(self.games):
            raise ValueError(f"{self.agent.name}.act_batch gave {len(actions)} actions for {len(self.games)} rows")
        for g, legal, action in zip(self.games, self.legal, actions, strict=True):
            game.apply(states[g], checked(game, self.agent, states[g].to_act, legal, action), None)


def _shares_state(tables: Sequence[Sequence[Agent]]) -> bool:
    """Whether an agent object that may keep state (one that does not act on batches) sits in two games."""
    owner: dict[int, int] = {}
    for g, agents in enumerate(tables):
        for agent in agents:
            if not batches(agent) and owner.setdefault(id(agent), g) != g:
                return True
    return False
