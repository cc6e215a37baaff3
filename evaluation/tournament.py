"""Round-robin tournaments among agents over duplicate deals: parallel, deterministic, seat-fair.

The scheme. Deal ``d`` of a tournament with seed ``s`` is the environment's
``reset(seed=deal_seed(s, d))``: the same cards and dealer whoever sits where. For every pair
of agents (A, B) each deal is played at every distinct *seating* of

    A in one seat and B in the n-1 others, rotated through the n seats, and
    B in one seat and A in the n-1 others, rotated likewise

(2n seatings; 2 at a two-seat table, where both patterns coincide). Over these seatings A and
B hold every seat's cards equally often, so the luck of the cards cancels. The pair's sample
for the deal is the mean over its seatings of (mean payoff of A's seats - mean payoff of B's
seats): how much more a seat held by A earns per deal than a seat held by B. Deal seeds are
the independent units (each one averaged over its seatings first), so intervals come from
the spread between deal seeds (see evaluation/duplicate.py).

Every game of a deal seeds its agents from (s, d, pair, seating), so a result depends on
nothing but the plan: deals are cut into chunks, played by worker processes ('spawn'
context), and merged in seed order; 1 worker or 2 give identical numbers.

Entrants need not be registry specs: ``run_tournament(..., factories={name: factory})`` plays
agents that exist only in this process (the trainer's live policy and its snapshots) under
those names, with one worker since such factories cannot be sent to another process.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np
from tqdm import tqdm

import rams_env
from agents.base import Agent
from agents.lockstep import Seating, play_together
from agents.random_agent import RandomAgent
from agents.registry import AgentFactory, agent_factory
from agents.table import Watcher, play
from evaluation import records
from evaluation.carry import starts_carried
from evaluation.workers import run_tasks
from rams_env.env import Episode


@dataclass(frozen=True)
class Setting:
    """The table: game, size, rules and episode kind (picklable, so workers rebuild the same game)."""

    game: str
    players: int | None = None
    preset: str | None = None
    rules: tuple[tuple[str, Any], ...] = ()
    episode: str = "deal"  # "deal" or "session"
    random_carry: bool = False  # deals start from random carried-over lives / pot

    @property
    def session(self) -> bool:
        """Whether an episode is a whole session (else one deal)."""
        return Episode(self.episode) is Episode.SESSION

    def make_game(self):
        """The rams Game (raises RulesError naming a bad game, preset, option or table size)."""
        return rams_env.make_game(self.game, self.players, preset=self.preset, session=self.session, **dict(self.rules))

    def dealt(self, carry: str) -> Setting:
        """This table with its deals started as ``carry`` says (evaluation/carry.py: ``gate`` where the rules say a
        measured deal starts mid-session; a whole-session episode starts fresh)."""
        return replace(self, random_carry=starts_carried(self.make_game(), carry, session=self.session))


@dataclass(frozen=True)
class Plan:
    """Everything a tournament's numbers depend on."""

    setting: Setting
    agents: tuple[str, ...]  # agent specs (agents/registry.py); the same spec twice is two entrants
    deals: int
    seed: int = 0
    records: str | None = None  # a folder to write each game's deal record into (evaluation/records.py); no number
    # depends on it

    def __post_init__(self) -> None:
        if len(self.agents) < 2:
            raise ValueError(f"a tournament needs at least two agents, got {list(self.agents)}")
        if self.deals < 2:
            raise ValueError(f"deals={self.deals}: at least 2 deal seeds are needed for an interval")
        if self.seed < 0:
            raise ValueError(f"seed={self.seed} must be >= 0")


def deal_seed(seed: int, deal: int) -> int:
    """The environment seed of deal ``deal`` (independent streams for different tournament seeds)."""
    return int(np.random.SeedSequence([seed, deal]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def pairs(num_agents: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(num_agents) for j in range(i + 1, num_agents)]


def seatings(num_players: int) -> list[tuple[bool, ...]]:
    """Distinct seatings of a pair, True where the pair's first agent sits (see the module docstring)."""
    out: list[tuple[bool, ...]] = []
    for alone in (True, False):
        for seat in range(num_players):
            pattern = tuple((k == seat) == alone for k in range(num_players))
            if pattern not in out:
                out.append(pattern)
    return out


def play_deal(game, agents: list[Agent], seed: int, random_carry: bool = False,
              watcher: Watcher | None = None) -> tuple[list[int], int]:
    """Each seat's payoff of one episode (as ``env.reset(seed=seed)`` would deal it) and the decisions taken,
    played by the deal loop (agents/table.py); the payoffs equal the environment's summed rewards."""
    state = deal_state(game, seed, random_carry)
    decisions = play(game, state, agents, watcher)
    return list(state.scores), decisions


def deal_state(game, seed: int, random_carry: bool = False):
    """The state ``env.reset(seed=seed)`` deals (a random carry-over of lives or pot if asked)."""
    return game.new_state(np.random.default_rng(seed), None, random_carry=random_carry)


def play_side_by_side(game, seeds: Sequence[int], seatings: Sequence[Seating],
                      random_carry: bool = False) -> list[tuple[list[int], int]]:
    """(seat payoffs, decisions) of each game: deal ``seeds[g]`` (:func:`deal_state`) played by the agents
    ``seatings[g]()`` seats, every game side by side (agents/lockstep.py: the numbers of :func:`play_deal`)."""
    states = [deal_state(game, seed, random_carry) for seed in seeds]
    decisions = play_together(game, states, seatings)
    return [(list(state.scores), steps) for state, steps in zip(states, decisions, strict=True)]


def game_seeds(num_players: int, *keys: int) -> list[int]:
    """One seed per seat for the game named by ``keys`` (tournament seed, deal, pair, seating...)."""
    return [int(x) for x in np.random.SeedSequence(list(keys)).generate_state(num_players)]


def seat_agents(factories: Sequence[AgentFactory], seeds: Sequence[int]) -> list[Agent]:
    """A fresh agent per seat, seeded by its factory (nothing carries over from another game) and reset
    with its seed (a factory may hand out one shared object, e.g. a checkpoint's network)."""
    table = [factory(seed) for factory, seed in zip(factories, seeds, strict=True)]
    for agent, seed in zip(table, seeds, strict=True):
        if type(agent) is not RandomAgent:  # seeded by its constructor
            agent.reset(seed)
    return table


def win_shares(scores: list[int]) -> list[float]:
    """A session's win split among the seats with the best score."""
    best = max(scores)
    winners = sum(1 for s in scores if s == best)
    return [1.0 / winners if s == best else 0.0 for s in scores]


@dataclass
class Block:
    """Per-deal results of a run of consecutive deal seeds."""

    start: int
    advantage: np.ndarray  # (deals, pairs): first agent's seats minus second agent's seats, per seat and deal
    payoff: np.ndarray  # (deals, agents): mean payoff per seat, over the agent's games of the deal
    wins: np.ndarray  # (deals, agents): mean session-win share per seat (sessions only)
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time: a speed that other load on the machine does not skew


class TournamentRunner:
    """A process's game and agent factories, built once from the picklable plan (``factories``: in-process
    entrants by name, used instead of the registry for those names)."""

    def __init__(self, plan: Plan, factories: Mapping[str, AgentFactory] | None = None) -> None:
        self.plan = plan
        self.game = plan.setting.make_game()
        given = factories or {}
        self.factories = [given[spec] if spec in given else agent_factory(spec, self.game) for spec in plan.agents]
        self.pairs = pairs(len(plan.agents))
        self.seatings = seatings(self.game.num_players)

    def play_deals(self, start: int, stop: int) -> Block:
        """Deals ``start..stop-1``: every pair at every seating. Without records, every game of the chunk is
        played side by side, a checkpoint's decisions in one forward (agents/lockstep.py: the same numbers)."""
        began, cpu = time.perf_counter(), time.process_time()
        m, k = len(self.plan.agents), stop - start
        block = Block(start, np.zeros((k, len(self.pairs))), np.zeros((k, m)), np.zeros((k, m)))
        games = [(d, p, s) for d in range(start, stop) for p in range(len(self.pairs))
                 for s in range(len(self.seatings))]
        if self.plan.records is None:
            results = play_side_by_side(self.game, [deal_seed(self.plan.seed, d) for d, _, _ in games],
                                        [partial(self._table, *game) for game in games], self.plan.setting.random_carry)
        else:
            results = [self._recorded(game, self._table(*game)) for game in games]
        for (d, p, s), (scores, steps) in zip(games, results, strict=True):
            self._count(block, d - start, p, self.seatings[s], scores, steps)
        games_of = (m - 1) * len(self.seatings)  # every agent plays every other at every seating of each deal
        block.payoff /= games_of
        block.wins /= games_of
        block.seconds = time.perf_counter() - began
        block.cpu_seconds = time.process_time() - cpu
        return block

    def _table(self, d: int, p: int, s: int) -> list[Agent]:
        """Fresh agents for deal ``d``, pair ``p`` at seating ``s``, seeded by (tournament seed, d, p, s)."""
        i, j = self.pairs[p]
        seeds = game_seeds(self.game.num_players, self.plan.seed, d, p, s)
        return seat_agents([self.factories[i if mine else j] for mine in self.seatings[s]], seeds)

    def _recorded(self, game: tuple[int, int, int], table: list[Agent]) -> tuple[list[int], int]:
        """One game played alone with its record written (evaluation/records.py): (scores, decisions)."""
        (d, p, s), plan = game, self.plan
        i, j = self.pairs[p]
        pattern, env_seed, carry = self.seatings[s], deal_seed(plan.seed, d), plan.setting.random_carry
        watching = records.watcher(plan.records, self.game, env_seed, carry, plan.setting.preset)
        scores, decisions = play_deal(self.game, table, env_seed, carry, watching)
        records.write(plan.records, f"deal{d:05d}_pair{p}_seating{s}", watching,
                      [plan.agents[i if mine else j] for mine in pattern])
        return scores, decisions

    def _count(self, block: Block, row: int, p: int, pattern: tuple[bool, ...], scores: list[int],
               decisions: int) -> None:
        """One game's payoffs and session wins added into ``block`` row ``row`` for pair ``p``."""
        i, j = self.pairs[p]
        shares = win_shares(scores)
        mean_i, mean_j = _seat_mean(scores, pattern, True), _seat_mean(scores, pattern, False)
        block.advantage[row, p] += (mean_i - mean_j) / len(self.seatings)
        block.payoff[row, i] += mean_i
        block.payoff[row, j] += mean_j
        block.wins[row, i] += _seat_mean(shares, pattern, True)
        block.wins[row, j] += _seat_mean(shares, pattern, False)
        block.games += 1
        block.decisions += decisions


def _seat_mean(values: list[float], pattern: tuple[bool, ...], mine: bool) -> float:
    """Mean of ``values`` over the seats where ``pattern`` is ``mine``."""
    seats = [values[t] for t in range(len(pattern)) if pattern[t] == mine]
    return sum(seats) / len(seats)


_RUNNER: TournamentRunner | None = None


def _init_worker(plan: Plan) -> None:
    global _RUNNER
    _RUNNER = TournamentRunner(plan)


def _play_chunk(bounds: tuple[int, int]) -> Block:
    assert _RUNNER is not None, "worker not initialised"
    return _RUNNER.play_deals(*bounds)


@dataclass
class Tournament:
    """The per-deal results of a plan, merged in seed order, and where they came from."""

    plan: Plan
    names: list[str]
    num_players: int
    pairs: list[tuple[int, int]]
    seatings: list[tuple[bool, ...]]
    advantage: np.ndarray
    payoff: np.ndarray
    wins: np.ndarray | None  # None unless episode="session"
    games: int
    decisions: int
    seconds: float  # wall time, worker start-up included
    play_seconds: float  # time spent playing, summed over workers
    cpu_seconds: float  # CPU time spent playing, summed over workers
    workers: int
    meta: dict[str, Any] = field(default_factory=dict)


def display_names(specs: tuple[str, ...]) -> list[str]:
    """The specs, with ``#2``, ``#3``... on repeated ones so every entrant has its own name."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


GAMES_PER_CHUNK = 128
"""About how many games a chunk holds by default: a few seconds even with checkpoint agents, so the bar moves."""


def chunks(deals: int, workers: int, size: int | None = None, games_per_deal: int = 1) -> list[tuple[int, int]]:
    """Consecutive deal ranges (the size changes only how work is shared and how often the bar moves, never a
    result)."""
    size = size or max(1, min(64, math.ceil(deals / (8 * workers)), math.ceil(GAMES_PER_CHUNK / games_per_deal)))
    return [(a, min(a + size, deals)) for a in range(0, deals, size)]


def run_tournament(plan: Plan, workers: int = 1, progress: bool = True, chunk: int | None = None,
                   factories: Mapping[str, AgentFactory] | None = None, label: str = "tournament") -> Tournament:
    """Play ``plan`` on ``workers`` processes; raises AgentSpecError / RulesError before any work starts.

    ``factories`` maps entrant names of ``plan.agents`` to in-process agent factories (one worker only).
    """
    if workers < 1:
        raise ValueError(f"workers={workers} must be >= 1")
    if factories and workers > 1:
        raise ValueError("in-process factories need workers=1: they cannot be sent to worker processes")
    table = TournamentRunner(plan, factories)  # validates the game, rules and agent specs in this process
    blocks, seconds = _play_blocks(plan, table, workers, label if progress else None, chunk)
    session = plan.setting.session
    return Tournament(
        plan=plan, names=display_names(plan.agents), num_players=table.game.num_players, pairs=table.pairs,
        seatings=table.seatings, advantage=np.concatenate([b.advantage for b in blocks]),
        payoff=np.concatenate([b.payoff for b in blocks]),
        wins=np.concatenate([b.wins for b in blocks]) if session else None,
        games=sum(b.games for b in blocks), decisions=sum(b.decisions for b in blocks), seconds=seconds,
        play_seconds=sum(b.seconds for b in blocks), cpu_seconds=sum(b.cpu_seconds for b in blocks), workers=workers,
        meta={"rules_in_effect": table.game.rules.as_dict(), "unit": table.game.score_unit})


def _play_blocks(plan: Plan, table: TournamentRunner, workers: int, label: str | None,
                 chunk: int | None) -> tuple[list[Block], float]:
    """The plan's deals in chunks, in this process or on ``workers`` spawned ones; (blocks in order, wall time).

    The bar (``label``; None: no bar) counts games (one seating of one deal seed), the unit of the reported
    speed."""
    per_deal = len(table.pairs) * len(table.seatings)
    parts = chunks(plan.deals, workers, chunk, per_deal)
    began = time.perf_counter()
    with tqdm(total=plan.deals * per_deal, unit="game", desc=f"{plan.setting.game} {label}",
              disable=label is None, dynamic_ncols=True) as bar:
        def done(_: tuple[int, int], block: Block) -> None:
            bar.set_postfix_str("", refresh=False)
            bar.update(block.games)

        def starting(processes: int) -> None:
            bar.set_postfix_str(f"starting {processes} worker processes (each loads the game and the agents)")

        blocks = run_tasks(parts, _play_chunk, workers, _init_worker, plan, in_process=lambda b: table.play_deals(*b),
                           done=done, starting=starting)
    return blocks, time.perf_counter() - began
