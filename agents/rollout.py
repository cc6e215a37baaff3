"""Rollouts over re-deals of the hidden cards: the search at one decision that the search agent (agents/search.py)
plays and the ceiling's searchers (evaluation/ceiling.py) build on.

At the present position the seat to act has its hidden cards dealt again (``Game.shuffle_unseen``: the other
hands and their face-down discards, the piles; where the cards lie is never looked at) into worlds that look the
same to it; every legal action is played out in each world to the deal's end with a scripted style in the other
seats and the policy improved upon in its own (the rollout algorithm: Bertsekas, Tsitsiklis and Wu 1997; Tesauro
and Galperin 1996), and that policy's choice is kept unless another action is clearly better (:func:`clearly_better`).
It lives on the agents' floor because an agent plays it; the ceiling's measurements add their other modes on top.
"""

from __future__ import annotations

import copy

import numpy as np

from agents.lockstep import play_together
from agents.table import chosen

TRIES_PER_WORLD = 200
"""Re-deals tried per world wanted, before giving up (or, in the ceiling's searchers, falling back)."""


class RolloutSearch:
    """The rollout choice of the seat to act over ``worlds`` re-deals at the present position.

    ``factory`` builds the scripted style's agents (the other seats in every world, and the searcher's own seat when
    ``own`` is None); ``own``, the policy improved upon in the searcher's seat, is one shared agent, never copied
    with a branch; ``confidence`` (0: any better mean) is :func:`clearly_better`'s."""

    def __init__(self, game, factory, own, worlds: int, confidence: float, rng: np.random.Generator) -> None:
        self.game, self.factory, self.own, self.rng = game, factory, own, rng
        self.world_count, self.confidence = worlds, confidence
        self.decisions = 0

    # ---------------------------------------------------------------- players
    def scripted(self, seeds: list[int]) -> list:
        """Fresh scripted agents for every seat, reset with ``seeds``."""
        agents = [self.factory(seed) for seed in seeds]
        for agent, seed in zip(agents, seeds, strict=True):
            agent.reset(seed)
        return agents

    def scripted_action(self, state, agents: list) -> int:
        return chosen(self.game, state, agents[state.to_act])

    def base_action(self, state, me: int, agents: list) -> int:
        """What the policy improved upon plays at ``state``: ``own`` in the searcher's seat ``me``, the scripted
        style elsewhere."""
        if self.own is not None and state.to_act == me:
            return chosen(self.game, state, self.own)
        return self.scripted_action(state, agents)

    def copied(self, agents: list) -> list:
        """Independent copies of the scripted agents (their generators too) that share the game and its rules:
        those are the table's fixed definition, and copying them with every branch was three quarters of a
        rollout's time."""
        shared = {id(self.game): self.game, id(self.game.rules): self.game.rules}
        return copy.deepcopy(agents, shared)

    def branched(self, state, action: int, agents: list) -> tuple[object, list]:
        """Copies of ``state`` (``action`` applied) and of the scripted agents, to search on."""
        branch, branch_agents = state.clone(), self.copied(agents)
        self.game.apply(branch, action)
        return branch, branch_agents

    # ----------------------------------------------------------------- search
    def rollout_values(self, legal: list[int], worlds: list[tuple[object, list]], me: int) -> np.ndarray:
        """(worlds, actions) the searcher's payoff after each of ``legal`` in each world when every seat, its own
        included, then plays the policy improved upon: the rollout algorithm's values.

        The branches are played side by side (agents/lockstep.py), so wherever several of them wait for ``own``,
        a greedy network, it decides them in one batched forward, which chooses what its batch-1 ``act`` would
        (a near tie is decided again row by row); every scripted seat of a branch is its own copy, so the
        interleaving changes nothing, and an ``own`` that keeps state is played branch by branch in this order."""
        branches = [self.branched(world, action, world_agents) for world, world_agents in worlds for action in legal]
        play_together(self.game, [branch for branch, _ in branches],
                      [self.seating(branch_agents, me) for _, branch_agents in branches])
        payoffs = [float(branch.scores[me]) for branch, _ in branches]
        return np.array(payoffs).reshape(len(worlds), len(legal))

    def seating(self, agents: list, me: int):
        """A branch's players for :func:`play_together`: ``own`` in the searcher's seat ``me``, the scripted
        copies elsewhere (and in ``me`` too when there is no ``own``)."""
        seated = [self.own if self.own is not None and seat == me else agent for seat, agent in enumerate(agents)]
        return lambda: seated

    def improved(self, state, agents: list) -> int:
        """The rollout choice at ``state`` (its seat to act; ``agents`` the scripted players of every seat) over
        worlds re-dealt from the present position: what it saw up to here is not used to weigh them."""
        legal = self.game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        return self.best(state, legal, self.present_worlds(state, agents), agents)

    def best(self, state, legal: list[int], worlds: list[tuple[object, list]], agents: list) -> int:
        """The legal action of the best mean rollout value over ``worlds``, the choice of the policy improved upon
        kept on ties and, with ``confidence``, unless another action beats it clearly, world by world."""
        me = state.to_act
        values = self.rollout_values(legal, worlds, me)
        own = legal.index(self.base_action(state, me, agents))
        return legal[clearly_better(values, own, self.confidence)]

    # ----------------------------------------------------------------- worlds
    def present_worlds(self, state, agents: list) -> list[tuple[object, list]]:
        """``worlds`` re-deals of the hidden cards at the present position that look the same to the seat to
        act, each with a copy of the scripted agents."""
        me, mine = state.to_act, self.observe(state, state.to_act)
        kept, tries = [], 0
        while len(kept) < self.world_count:
            tries += 1
            if tries > TRIES_PER_WORLD * self.world_count:  # the observation shows cards the re-deal moves
                raise RuntimeError(f"{self.game.name}: no re-deal of the hidden cards looks the same to seat {me}; "
                                   "PIMC here needs a game whose piles are all hidden")
            world = self.redealt(state, me)
            if np.array_equal(self.observe(world, me), mine):
                kept.append((world, self.copied(agents)))
        return kept

    def redealt(self, state, me: int):
        """``state`` with every card seat ``me`` cannot see dealt again among the places that hold them, sizes
        kept: the engine's own definition of what a seat cannot see (``Game.shuffle_unseen``: the other hands and
        their face-down discards, the piles, a hand its owner has not looked at), whose draw depends only on which
        cards are hidden, never on where they lie. (The searcher once re-dealt the hands and piles alone, so its
        worlds knew which cards the others had discarded face down.)"""
        return self.game.shuffle_unseen(state, me, self.rng)

    def observe(self, state, seat: int) -> np.ndarray:
        out = np.zeros(self.game.observation.size, np.float32)
        self.game.encode(state, seat, out)
        return out


def clearly_better(values: np.ndarray, own: int, confidence: float) -> int:
    """The column of ``values`` (worlds x actions) to play: the best mean, unless it is no better than column
    ``own`` (kept on ties), or, with ``confidence`` above 0, unless its advantage over ``own`` world by world has a
    t-statistic at most ``confidence`` (an advantage the same in every world counts as clear).

    Why a test: a rollout over a few worlds values each action with noise, and the best of several noisy means
    is biased upward, so the plain rule leaves a good choice for an action that only drew lucky worlds (the
    winner's curse), the more so where one deal moves several chips (the pot games)."""
    gain = (values - values[:, [own]]).mean(0)  # each action's advantage over own, on average over the worlds
    best = int(np.argmax(gain))
    if gain[best] <= 1e-9:
        return own
    if confidence <= 0:
        return best
    spread = (values - values[:, [own]]).std(0, ddof=1) / np.sqrt(len(values)) if len(values) > 1 \
        else np.zeros(len(gain))
    clear = (gain > 1e-9) & ((spread == 0) | (gain > confidence * spread))
    return int(np.argmax(np.where(clear, gain, -np.inf))) if clear.any() else own
