"""How much is there to gain over a scripted player at a table? Three searchers bound it.

``rams strength`` asks a trained agent to beat every scripted style alone among them ("agent_alone"). At some
tables little can be gained at all: Tippen's historic presets with forced stakes are three tricks of card
play, and the default heuristic's play there is hard to improve on. This module measures the room by search,
with the strength gate's substitution and deal seeds (evaluation/strength.py): the searcher takes seat k of a
table of scripted players, minus what the scripted player earned in seat k of the all-scripted table.

- ``omniscient``: the searcher sees every card and plays a best response to the scripted players by
  expectimax (it maximises its own payoff, the scripted players play themselves). No agent that sees only its
  own cards can beat it: an **upper bound** of the agent_alone edge against that style.
- ``pimc``: perfect-information Monte Carlo with inference. At each decision the searcher re-deals the cards it
  cannot see (the other hands and the piles, from the deal's start), keeps the worlds in which every scripted
  choice so far would have been made as it was and its own observation is what it is, and plays the action
  whose expectimax value is best on average over ``worlds`` of them (too few kept: worlds re-dealt from the
  present position, its observation unchanged). An agent that exists: a **lower bound** of what can be gained.
- ``rollout``: the same worlds, but each action is valued by playing the deal out with the scripted style in
  every seat, the searcher's own included (the rollout algorithm: Bertsekas, Tsitsiklis and Wu 1997; Tesauro
  and Galperin 1996), ties kept at the scripted choice. PIMC's expectimax plays its own later cards as if it saw
  every hand (strategy fusion); a rollout plays them as the scripted player would, from its own hand, so it
  does not count on knowledge it will not have. In the true deal it never earns less than the scripted player
  (tests/test_ceiling.py); over sampled worlds it is one step of policy improvement on the scripted style.
  With ``own_policy`` (``--own-policy pretrained``) the searcher's own later decisions in a rollout, and the
  choice it keeps on ties, are that agent's instead: one step of policy improvement on a trained agent, against
  the table as it is (the other seats still play their scripted style).

``search_actions`` (``--search-actions sneak pass join``) restricts any mode's search to the decisions where one of
those actions is legal (labels; ``play`` for every card); at its other decisions the searcher's seat plays the
policy improved upon. Where a game is won in its bids and the card play is level with the heuristic's (the pot
games), this searches the bids with every later decision played as the agent would, and leaves the card play,
where worlds re-dealt without inference mislead it most, to the agent.

Scripted opponents must be deterministic for the inference to bite (the heuristics are); the omniscient and PIMC
searches are exact, so they are for tables with short deals (Tippen's three cards); rollouts are linear in the
deal's length (Loup's six cards at five players: 0.04 s of one core a searched decision with 8 worlds).
``python -m evaluation.ceiling --help``.
"""

from __future__ import annotations

import argparse
import copy
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

import rams_env
from agents.registry import agent_factory
from agents.rollout import TRIES_PER_WORLD, RolloutSearch
from evaluation.carry import add_carry_option, starts_carried
from evaluation.duplicate import MeanEstimate, estimate
from evaluation.strength import HELD_OUT_SEED
from evaluation.tournament import deal_seed, game_seeds
from evaluation.workers import one_torch_thread_when_imported
from rams_env.core.actions import card_words, with_plays

MODES = ("omniscient", "pimc", "rollout")
MIN_WORLDS = 3
"""Fewer consistent worlds than this at a decision: the searcher also re-deals from the present position."""


@dataclass(frozen=True)
class CeilingPlan:
    game: str
    preset: str | None
    num_players: int
    opponent: str  # the scripted style, an agent spec (agents/registry.py)
    deals: int
    mode: str = "omniscient"
    worlds: int = 30  # pimc and rollout: worlds per decision
    tries_per_world: int = TRIES_PER_WORLD  # re-deals from the deal's start tried per world wanted
    seed: int = HELD_OUT_SEED  # the strength gate's held-out deal seeds
    random_carry: bool = False  # deals from random carried-over state (the command's --carry, as rams strength's)
    own_policy: str | None = None  # rollout: the agent spec the searcher improves on (None: the scripted style); a
    # deterministic one (a checkpoint): one shared agent plays every rollout, never copied or reset
    search_actions: tuple[str, ...] = ()  # search only where one of these is legal (labels; `play`: every card,
    # `discard`: every discard); elsewhere the seat plays the policy improved upon. Empty: search every choice
    confidence: float = 0.0  # rollout: leave the choice of the policy improved upon only for an action whose
    # advantage over it, world by world, has a t-statistic above this (0: any better mean, as the rollout algorithm)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode {self.mode!r}: one of {', '.join(MODES)}")
        if self.deals < 2 or self.worlds < 1:
            raise ValueError("at least 2 deals (for an interval) and 1 world")
        if self.tries_per_world < 0:
            raise ValueError(f"tries_per_world={self.tries_per_world}: 0 or more")
        if self.own_policy is not None and self.mode != "rollout":
            raise ValueError(f"own_policy is the rollout searcher's; mode {self.mode!r} plays its own seat by search")
        if self.confidence < 0 or (self.confidence > 0 and self.mode != "rollout"):
            raise ValueError(f"confidence={self.confidence}: 0 or more, and only the rollout searcher has a choice "
                             "of its own to keep")


class Searcher(RolloutSearch):
    """The searching seat's choices at one table against one scripted style: the rollouts of agents/rollout.py
    (from the present position), and from the deal's start with inference, and the omniscient and PIMC modes."""

    def __init__(self, plan: CeilingPlan, rng: np.random.Generator, game=None, own=None) -> None:
        game = game or rams_env.make_game(plan.game, plan.num_players, preset=plan.preset)
        # the policy improved upon in the searcher's own seat: one shared agent, never copied with a branch (``own``:
        # an agent already built, as the search agent's, agents/search.py)
        if own is None and plan.own_policy is not None:
            own = agent_factory(plan.own_policy, game)(0)
        super().__init__(game, agent_factory(plan.opponent, game), own, plan.worlds, plan.confidence, rng)
        self.plan = plan
        self.searched = searched_actions(self.game, plan.search_actions)
        self.fallbacks = 0

    @classmethod
    def teacher(cls, game, style: str, worlds: int, rng: np.random.Generator, confidence: float = 0.0,
                own=None) -> Searcher:
        """A rollout searcher over ``style`` at ``game``'s table that re-deals from the present position only (no
        inference, the cheap searcher of docs/results.md): the teacher of expert iteration
        (training/batched/imitation.py), which asks it with
        :meth:`improved`; with ``confidence`` it keeps the choice of the policy improved upon unless another
        action is clearly better (agents/rollout.py, ``clearly_better``). That policy is ``style``'s, or the agent
        ``own``."""
        plan = CeilingPlan(game.name, None, game.num_players, style, deals=2, mode="rollout", worlds=worlds,
                           tries_per_world=0, confidence=confidence)
        return cls(plan, rng, game, own)

    # ---------------------------------------------------------------- playing
    def play(self, env_seed: int, seeds: list[int], me: int, searching: bool = True) -> list[float]:
        """One deal, the searcher in seat ``me`` (-1: nobody, the all-scripted table; ``searching=False``: the
        policy it improves upon plays that seat, unsearched); every seat's payoff."""
        game = self.game
        state = game.new_state(np.random.default_rng(env_seed), None, random_carry=self.plan.random_carry)
        start, history, agents = copy.deepcopy(state), [], self.scripted(seeds)
        while not state.terminal:
            seat = state.to_act
            if seat != me:
                action = self.scripted_action(state, agents)
            else:
                action = self.choose(state, start, history, agents, seeds) if searching \
                    else self.base_action(state, me, agents)
            history.append((seat, action))
            game.apply(state, action)
        return list(state.scores)

    # ----------------------------------------------------------------- search
    def value(self, state, me: int, agents: list) -> float:
        """The searcher's payoff from ``state`` with best play against the scripted seats (expectimax)."""
        while not state.terminal and state.to_act != me:
            self.game.apply(state, self.scripted_action(state, agents))
        if state.terminal:
            return float(state.scores[me])
        return max(self.after(state, action, me, agents) for action in self.game.legal_actions(state))

    def after(self, state, action: int, me: int, agents: list) -> float:
        branch, branch_agents = self.branched(state, action, agents)
        return self.value(branch, me, branch_agents)

    def choose(self, state, start, history: list[tuple[int, int]], agents: list, seeds: list[int]) -> int:
        legal, me = self.game.legal_actions(state), state.to_act
        if len(legal) == 1:
            return legal[0]
        if self.searched is not None and self.searched.isdisjoint(legal):
            return self.base_action(state, me, agents)
        self.decisions += 1
        if self.plan.mode == "omniscient":
            return legal[int(np.argmax([self.after(state, action, me, agents) for action in legal]))]
        return self.best(state, legal, self.worlds(state, start, history, agents, seeds), agents)

    def best(self, state, legal: list[int], worlds: list[tuple[object, list]], agents: list) -> int:
        """The rollout choice (agents/rollout.py), or in the omniscient and PIMC modes the legal action of the best
        summed expectimax value over ``worlds``."""
        if self.plan.mode == "rollout":
            return super().best(state, legal, worlds, agents)
        me = state.to_act
        values = [[self.after(world, action, me, world_agents) for action in legal] for world, world_agents in worlds]
        return legal[int(np.argmax(np.sum(values, axis=0)))]

    # ----------------------------------------------------------------- worlds
    def worlds(self, state, start, history, agents: list, seeds: list[int]) -> list[tuple[object, list]]:
        """Worlds consistent with everything the searcher saw, re-dealt from the deal's start, each with its
        scripted agents; too few: re-dealt from the present position (the scripted choices then unchecked)."""
        me = state.to_act
        mine = self.observe(state, me)
        kept, tries = [], 0
        while len(kept) < self.plan.worlds and tries < self.plan.tries_per_world * self.plan.worlds:
            tries += 1
            world = self.replayed(self.redealt(start, me), history, me, seeds)
            if world is not None and np.array_equal(self.observe(world[0], me), mine):
                kept.append(world)
        if len(kept) >= MIN_WORLDS:
            return kept
        self.fallbacks += 1
        return self.present_worlds(state, agents)

    def replayed(self, world, history, me: int, seeds: list[int]):
        """``world`` (a re-dealt start) after ``history``, or None if a scripted seat would have chosen otherwise
        or the searcher's own action could not be taken there (a card it drew from a stock dealt otherwise)."""
        agents = self.scripted(seeds)
        for seat, action in history:
            if seat == me and action not in self.game.legal_actions(world):
                return None
            if seat != me and self.scripted_action(world, agents) != action:
                return None
            self.game.apply(world, action)
        return world, agents

def searched_actions(game, labels: tuple[str, ...]) -> frozenset[int] | None:
    """The action ids of ``labels`` (``play``: every card; a card segment's name such as ``discard``: each of its
    cards) at ``game``'s table; None for none given (search every decision). An unknown label is refused with the
    game's labels."""
    if not labels:
        return None
    known = [game.actions.label(a) for a in range(game.actions.size)]
    wanted = with_plays(labels, known, game.pack().codes)
    unknown = [label for label in wanted if label not in known]
    if unknown:
        codes = game.pack().codes
        named = ", ".join(dict.fromkeys([*card_words(known, codes),
                                         *(label for label in known if label.split()[-1] not in codes)]))
        with_card = next((label for label in known if " " in label and label.split()[-1] in codes), None)
        example = f", or a card's label such as {with_card!r}" if with_card else ""
        raise ValueError(f"search_actions {unknown}: not an action of {game.name}; one of {named}, a card{example}")
    return frozenset(known.index(label) for label in wanted)


@dataclass(frozen=True)
class CeilingResult:
    """Per deal, averaged over the seats, with 95% intervals."""

    edge: MeanEstimate  # the searcher alone among the scripted players, minus the scripted player in its seat
    over_own: MeanEstimate | None  # with own_policy: the searcher minus that agent alone in its seat (paired on
    # the same deals: the search's own gain); the agent's edge is edge minus this


def run_ceiling(plan: CeilingPlan, progress: bool = True, search_seed: int = 0) -> tuple[CeilingResult, Searcher]:
    """The searcher's agent_alone edge over ``plan.opponent``, and with ``own_policy`` its gain over that agent."""
    searcher = Searcher(plan, np.random.default_rng(search_seed))
    n, edges, gains = plan.num_players, [], []
    for d in tqdm(range(plan.deals), desc=f"{plan.mode} search", unit="deal", disable=not progress):
        env_seed, seeds = deal_seed(plan.seed, d), game_seeds(n, plan.seed, d, 0)
        base = searcher.play(env_seed, seeds, -1)
        searched = [searcher.play(env_seed, seeds, k)[k] for k in range(n)]
        edges.append(sum(searched[k] - base[k] for k in range(n)) / n)
        if plan.own_policy is not None:
            own = [searcher.play(env_seed, seeds, k, searching=False)[k] for k in range(n)]
            gains.append(sum(searched[k] - own[k] for k in range(n)) / n)
    return CeilingResult(estimate(edges), estimate(gains) if gains else None), searcher


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evaluation.ceiling", description=__doc__.split("\n\n")[0],
                                     epilog="e.g. python -m evaluation.ceiling --game tippen --preset meyers_1905 "
                                            "--players 4 --mode pimc --deals 300")
    parser.add_argument("--game", default="tippen")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponent", default="heuristic", help="the scripted style (agent spec)")
    parser.add_argument("--mode", choices=MODES, default="omniscient")
    parser.add_argument("--deals", type=int, default=200, help="held-out deal seeds (the strength gate's)")
    parser.add_argument("--worlds", type=int, default=30, help="pimc and rollout: worlds per decision")
    parser.add_argument("--tries", type=int, default=TRIES_PER_WORLD,
                        help="re-deals from the deal's start tried per world wanted before re-dealing from the "
                             "present position (fewer: faster, less inference)")
    parser.add_argument("--own-policy", default=None, metavar="AGENT",
                        help="rollout: improve on this agent (e.g. pretrained) in the searcher's seat instead of "
                             "the scripted style; the other seats stay scripted")
    parser.add_argument("--search-actions", nargs="+", default=(), metavar="LABEL",
                        help="search only the decisions where one of these actions is legal (e.g. sneak pass "
                             "join; play: every card; discard: every discard); the seat plays the policy "
                             "improved upon elsewhere")
    parser.add_argument("--confidence", type=float, default=0.0, metavar="T",
                        help="rollout: leave the choice of the policy improved upon only for an action whose "
                             "advantage over it across the worlds has a t-statistic above T (default 0: any "
                             "better mean)")
    add_carry_option(parser)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    one_torch_thread_when_imported()  # an agent plays one decision at a time: a second thread only waits
    carried = starts_carried(rams_env.make_game(args.game, args.players, preset=args.preset), args.carry)
    plan = CeilingPlan(args.game, args.preset, args.players, args.opponent, args.deals, args.mode, args.worlds,
                       args.tries, random_carry=carried, own_policy=args.own_policy,
                       search_actions=tuple(args.search_actions), confidence=args.confidence)
    result, searcher = run_ceiling(plan, progress=not args.quiet)
    unit = searcher.game.score_unit
    carried = ", random carry" if plan.random_carry else ""
    over = f" over {args.own_policy}" if args.own_policy else ""
    over += f" (searching only where {' / '.join(args.search_actions)} is legal)" if args.search_actions else ""
    over += f", t > {args.confidence:g} to leave its choice" if args.confidence else ""
    edge = result.edge
    print(f"{args.game} {args.preset or 'default'} {args.players}p{carried}, {args.mode} searcher{over} alone among "
          f"{args.opponent}: {edge.mean:+.3f} [{edge.low:+.3f}, {edge.high:+.3f}] {unit}/deal over "
          f"{edge.n} deals; {searcher.decisions} searched decisions, {searcher.fallbacks} fell back")
    if result.over_own is not None:
        gain = result.over_own
        print(f"  minus {args.own_policy} alone in its seat, deal by deal: {gain.mean:+.3f} [{gain.low:+.3f}, "
              f"{gain.high:+.3f}] {unit}/deal (the search's own gain)")


if __name__ == "__main__":
    main()
