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
from agents.table import chosen
from evaluation.carry import add_carry_option, starts_carried
from evaluation.duplicate import MeanEstimate, estimate
from evaluation.strength import HELD_OUT_SEED
from evaluation.tournament import deal_seed, game_seeds
from evaluation.workers import one_torch_thread_when_imported
from rams_env.core.actions import card_words, with_plays

MODES = ("omniscient", "pimc", "rollout")
MIN_WORLDS = 3
"""Fewer consistent worlds than this at a decision: the searcher also re-deals from the present position."""
TRIES_PER_WORLD = 200
"""Re-deals tried per world wanted, before falling back."""


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


class Searcher:
    """The searching seat's choices at one table against one scripted style."""

    def __init__(self, plan: CeilingPlan, rng: np.random.Generator, game=None, own=None) -> None:
        self.plan, self.rng = plan, rng
        self.game = game or rams_env.make_game(plan.game, plan.num_players, preset=plan.preset)
        self.factory = agent_factory(plan.opponent, self.game)
        # the policy improved upon in the searcher's own seat: one shared agent, never copied with a branch (``own``:
        # an agent already built, shared by the search agents of every seat, agents/search.py)
        if own is None and plan.own_policy is not None:
            own = agent_factory(plan.own_policy, self.game)(0)
        self.own = own
        self.searched = searched_actions(self.game, plan.search_actions)
        self.fallbacks = 0
        self.decisions = 0

    @classmethod
    def teacher(cls, game, style: str, worlds: int, rng: np.random.Generator, confidence: float = 0.0,
                own=None) -> Searcher:
        """A rollout searcher over ``style`` at ``game``'s table that re-deals from the present position only (no
        inference, the cheap searcher of docs/results.md): the teacher of expert iteration
        (training/batched/imitation.py) and the search agent (agents/search.py), which ask it with
        :meth:`improved`; with ``confidence`` it keeps the choice of the policy improved upon unless another
        action is clearly better (:func:`clearly_better`). That policy is ``style``'s, or the agent ``own``."""
        plan = CeilingPlan(game.name, None, game.num_players, style, deals=2, mode="rollout", worlds=worlds,
                           tries_per_world=0, confidence=confidence)
        return cls(plan, rng, game, own)

    # ---------------------------------------------------------------- playing
    def scripted(self, seeds: list[int]) -> list:
        """Fresh scripted agents for every seat, reset with the gate's seeds (the searcher's seat unused)."""
        agents = [self.factory(seed) for seed in seeds]
        for agent, seed in zip(agents, seeds, strict=True):
            agent.reset(seed)
        return agents

    def scripted_action(self, state, agents: list) -> int:
        return chosen(self.game, state, agents[state.to_act])

    def base_action(self, state, me: int, agents: list) -> int:
        """What the policy improved upon plays at ``state``: ``own_policy`` in the searcher's seat ``me``, the
        scripted style elsewhere."""
        if self.own is not None and state.to_act == me:
            return chosen(self.game, state, self.own)
        return self.scripted_action(state, agents)

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

    def branched(self, state, action: int, agents: list) -> tuple[object, list]:
        """Copies of ``state`` (``action`` applied) and of the scripted agents, to search on."""
        branch, branch_agents = state.clone(), self.copied(agents)
        self.game.apply(branch, action)
        return branch, branch_agents

    def copied(self, agents: list) -> list:
        """Independent copies of the scripted agents (their generators too) that share the game and its rules:
        those are the table's fixed definition, and copying them with every branch was three quarters of a
        rollout's time."""
        shared = {id(self.game): self.game, id(self.game.rules): self.game.rules}
        return copy.deepcopy(agents, shared)

    def after(self, state, action: int, me: int, agents: list) -> float:
        branch, branch_agents = self.branched(state, action, agents)
        return self.value(branch, me, branch_agents)

    def rolled_out(self, state, action: int, me: int, agents: list) -> float:
        """The searcher's payoff after ``action`` when every seat, its own included, then plays the scripted
        style (its own: ``own_policy`` if given): the rollout algorithm's value of the action (Bertsekas; Tesauro
        and Galperin 1996)."""
        branch, branch_agents = self.branched(state, action, agents)
        while not branch.terminal:
            self.game.apply(branch, self.base_action(branch, me, branch_agents))
        return float(branch.scores[me])

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

    def improved(self, state, agents: list) -> int:
        """The rollout choice at ``state`` (its seat to act; ``agents`` the scripted players of every seat) over
        worlds re-dealt from the present position: what it saw up to here is not used to weigh them."""
        legal = self.game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        return self.best(state, legal, self.present_worlds(state, agents), agents)

    def best(self, state, legal: list[int], worlds: list[tuple[object, list]], agents: list) -> int:
        """The legal action of the best mean value over ``worlds`` (rollouts keep the choice of the policy improved
        upon on ties, and with ``confidence`` unless another action beats it clearly, world by world)."""
        me = state.to_act
        value_of = self.rolled_out if self.plan.mode == "rollout" else self.after
        values = np.array([[value_of(world, action, me, world_agents) for action in legal]
                           for world, world_agents in worlds])  # (worlds, actions)
        if self.plan.mode != "rollout":
            return legal[int(np.argmax(values.sum(0)))]
        own = legal.index(self.base_action(state, me, agents))
        return legal[clearly_better(values, own, self.plan.confidence)]

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

    def present_worlds(self, state, agents: list) -> list[tuple[object, list]]:
        """``plan.worlds`` re-deals of the hidden cards at the present position that look the same to the seat to
        act, each with a copy of the scripted agents."""
        me, mine = state.to_act, self.observe(state, state.to_act)
        kept, tries = [], 0
        while len(kept) < self.plan.worlds:
            tries += 1
            if tries > TRIES_PER_WORLD * self.plan.worlds:  # the observation shows cards the re-deal moves
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
