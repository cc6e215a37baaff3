"""Is an agent stronger than every scripted player, at every table, both ways round?

The question of issue 18's strength gate, answered by *substitution* on duplicate deals. For a deal
seed, a table (preset and size) and a scripted opponent O, the agent A is measured two ways:

- ``agent_alone`` (one agent among scripted players): A takes seat k of a table of O's; its payoff
  minus what O earned in seat k of the all-O table, same cards. Above zero: A does better in that seat
  than the scripted player it replaced.
- ``scripted_alone`` (one scripted player among agents): O takes seat k of a table of A's; what A
  earned in seat k of the all-A table minus O's payoff there. Above zero: the scripted player cannot
  profit from a table of agents (the way a self-play agent that is no best response to itself fails).

Each is averaged over the seats k, so a deal seed gives one sample per way; samples of different deal
seeds are independent and their mean gets Student's t 95% interval (evaluation/duplicate.py). A deal
costs 1 + |opponents| x (2n + 1) games (the all-A table is shared by the opponents). A cell passes when
its interval lies above zero; the agent passes when every cell does.

A deal starts where the plan's ``carry`` says (evaluation/carry.py). By default as the gate deals each table: from
random carried-over state where the table's first deal of a session is not the game (every Lupfen table, whose
first deal is a force round; Fipsen's Thedinghausen, a race over several deals), fresh everywhere else. So one run
is the whole gate, and a run of a few tables gives the full run's cells.

Deal seeds come from ``deal_seed(seed, d)`` (evaluation/tournament.py); pick a ``seed`` no training run
used (the default is held out). Chunks of deal seeds run on worker processes (evaluation/workers.py);
one worker or two give the same numbers.

Two agents measured on the same plan play the same deals with the same seat seeds, so their samples pair up
deal by deal: :func:`paired` gives each cell's difference with its own interval (``rams strength --compare``).
The deal's luck cancels in the difference, so it resolves changes far smaller than either cell's interval: the
question "is this candidate better than the shipped agent, and where?" rather than "is each above zero?".
:func:`ship_rule` is the project's ship rule on it (docs/results.md, "Choosing between two agents"): more cells
better than worse against the scripted styles, random's cells aside (both agents beat random by far, and a
candidate that copies a searcher assuming heuristic opponents may give a little of that back).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import Any

import numpy as np
from tqdm import tqdm

import rams_env
from agents.registry import agent_factory, heuristic_class
from agents.table import Watcher
from evaluation.carry import check_carry, starts_carried
from evaluation.duplicate import MeanEstimate, estimate
from evaluation.tournament import deal_seed, game_seeds, play_deal, play_side_by_side, seat_agents
from evaluation.workers import run_tasks
from rams_env.core.general import preset_tables

WAYS = ("agent_alone", "scripted_alone")
"""The two ways round: one agent among scripted players; one scripted player among agents."""

RANDOM = "random"
"""The uniformly random player: an opponent of every gate, but no scripted *style* (see :func:`ship_rule`)."""

HELD_OUT_SEED = 20_261_123
"""The default tournament seed: deal seeds no trainer in this repository draws."""


def scripted_opponents(game: str) -> list[str]:
    """Every scripted style of ``game``: random, then the heuristic player's styles and personalities."""
    return [RANDOM] + ["heuristic" if style == "default" else f"heuristic:{style}"
                       for style in heuristic_class(game).STYLES]


def every_table(game: str) -> list[tuple[str, int]]:
    """``(preset, table size)`` for every preset and size the game's rules allow (default preset first)."""
    return [(preset, g.num_players) for preset, g in preset_tables(game)]


def seat_seed_key(game: str, table: tuple[str, int]) -> int:
    """The key a table's seat seeds are drawn under: the table's place in :func:`every_table`. Why: a table's cells
    must not depend on which other tables a run measures, so a run of a few tables (``--tables``) and ``rams
    departures`` give the full sweep's cells (only players that draw from their seed, such as random, can tell).
    A table outside the list is refused."""
    keys = _seat_seed_keys(game)
    if table not in keys:
        raise ValueError(f"{game} has no table {table[0]}:{table[1]}; its tables: evaluation.strength.every_table")
    return keys[table]


@cache
def _seat_seed_keys(game: str) -> dict[tuple[str, int], int]:
    """Once per process: the list is built from every preset's reference games (a second for Tippen)."""
    return {table: index for index, table in enumerate(every_table(game))}


def deals_carried(game: str, table: tuple[str, int], carry: str) -> bool:
    """Whether ``carry`` starts the deals of ``table`` from random carried-over state (evaluation/carry.py;
    ``gate``: every Lupfen table, Fipsen's Thedinghausen)."""
    return starts_carried(_table_game(game, table), carry)


@cache
def _table_game(game: str, table: tuple[str, int]):
    """Once per table and process (a report asks for every table's)."""
    preset, n = table
    return rams_env.make_game(game, n, preset=preset)


@dataclass(frozen=True)
class StrengthPlan:
    """Everything the gate's numbers depend on (picklable: workers rebuild the same tables and agents)."""

    game: str
    agent: str  # agent spec (agents/registry.py), e.g. "pretrained" or "checkpoint:runs/x/final.zip"
    opponents: tuple[str, ...]
    tables: tuple[tuple[str, int], ...]  # (preset, num_players)
    deals: int
    seed: int = HELD_OUT_SEED
    carry: str = "gate"  # where deals start (evaluation/carry.py): the gate's way by default, one run the whole gate

    def __post_init__(self) -> None:
        if self.deals < 2:
            raise ValueError(f"deals={self.deals}: at least 2 deal seeds are needed for an interval")
        if not self.opponents or not self.tables:
            raise ValueError("the gate needs at least one opponent and one table")
        check_carry(self.carry)

    def carried(self) -> tuple[tuple[str, int], ...]:
        """The tables whose deals start from random carried-over state."""
        return tuple(table for table in self.tables if deals_carried(self.game, table, self.carry))


class TableRunner:
    """One table's game and factories, built once per process."""

    def __init__(self, plan: StrengthPlan, table: int) -> None:
        preset, n = plan.tables[table]
        self.plan, self.table = plan, table
        self.game = rams_env.make_game(plan.game, n, preset=preset)
        self.seat_key = seat_seed_key(plan.game, (preset, n))
        self.carried = deals_carried(plan.game, (preset, n), plan.carry)
        self.agent = agent_factory(plan.agent, self.game)
        self.opponents = [agent_factory(spec, self.game) for spec in plan.opponents]

    def samples(self, start: int, stop: int) -> np.ndarray:
        """(deals, opponents, ways) substitution samples of deal seeds ``start..stop-1``: every game of these
        deals played side by side, the agent's decisions in one forward (agents/lockstep.py)."""
        deals = range(start, stop)
        lineups = [self._lineups(d) for d in deals]
        games = [(factories, seeds, env_seed) for deal in lineups for factories, seeds, env_seed in deal]
        scores = iter(scores_together(self.game, games, self.carried))
        return np.stack([self._samples([next(scores) for _ in deal]) for deal in lineups])

    def _lineups(self, d: int) -> list[tuple[list[Callable], list[int], int]]:
        """Deal ``d``'s games as (factories, seat seeds, deal seed), in the order :meth:`_samples` reads them: the
        all-agent table, then per opponent its all-scripted table and the agent alone and the opponent alone in
        each seat. Every game of the deal seeds seat k's agent alike (common random numbers): an agent measured
        against itself gives exactly zero."""
        n, env_seed = self.game.num_players, deal_seed(self.plan.seed, d)
        seeds = game_seeds(n, self.plan.seed, d, self.seat_key)
        games = [[self.agent] * n]
        for opponent in self.opponents:
            games.append([opponent] * n)
            for k in range(n):
                games += [substituted(opponent, self.agent, n, k), substituted(self.agent, opponent, n, k)]
        return [(factories, seeds, env_seed) for factories in games]

    def _samples(self, scores: list[list[int]]) -> np.ndarray:
        """(opponents, ways) one deal's samples from its games' seat payoffs, in :meth:`_lineups`' order."""
        n = self.game.num_players
        all_agents, games = scores[0], iter(scores[1:])
        out = np.zeros((len(self.opponents), len(WAYS)))
        for o in range(len(self.opponents)):
            all_scripted = next(games)
            for k in range(n):
                agent_alone, scripted_alone = next(games), next(games)
                out[o, 0] += (agent_alone[k] - all_scripted[k]) / n
                out[o, 1] += (all_agents[k] - scripted_alone[k]) / n
        return out


def scores_together(game, games: Sequence[tuple[list[Callable], list[int], int]],
                    random_carry: bool) -> list[list[int]]:
    """Each game's seat payoffs, for games given as (factories, seat seeds, deal seed): fresh agents and
    states, all played side by side (:func:`evaluation.tournament.play_side_by_side`); the numbers :func:`seat_scores`
    gives one game at a time."""
    played = play_side_by_side(game, [env_seed for _, _, env_seed in games],
                               [partial(seat_agents, factories, seeds) for factories, seeds, _ in games], random_carry)
    return [scores for scores, _ in played]


def seat_scores(game, factories: list[Callable], seeds: list[int], env_seed: int, random_carry: bool,
                watcher: Watcher | None = None) -> list[int]:
    """Each seat's payoff of deal ``env_seed`` played by fresh agents from ``factories`` with seat seeds ``seeds``."""
    return play_deal(game, seat_agents(factories, seeds), env_seed, random_carry, watcher)[0]


def substituted(everyone: Callable, one: Callable, n: int, seat: int) -> list[Callable]:
    """The factories of a table of ``everyone`` with ``one`` in ``seat``."""
    return [one if k == seat else everyone for k in range(n)]


_RUNNERS: dict[int, TableRunner] = {}
_PLAN: StrengthPlan | None = None


def _init_worker(plan: StrengthPlan) -> None:
    global _PLAN
    _PLAN = plan
    _RUNNERS.clear()


def _play_chunk(task: tuple[int, int, int]) -> np.ndarray:
    """(table, start, stop) -> that table's samples (the table's runner is built on first use)."""
    assert _PLAN is not None, "worker not initialised"
    table, start, stop = task
    if table not in _RUNNERS:
        _RUNNERS[table] = TableRunner(_PLAN, table)
    return _RUNNERS[table].samples(start, stop)


@dataclass
class StrengthReport:
    """Per table, opponent and way: the mean advantage per deal with its 95% interval."""

    plan: StrengthPlan
    cells: dict[tuple[int, int, int], MeanEstimate]  # (table, opponent, way) -> estimate
    unit: str
    seconds: float
    samples: dict[int, np.ndarray] = field(default_factory=dict, repr=False)  # table -> (deals, opponents, ways)

    def passed(self) -> bool:
        return all(cell.low > 0 for cell in self.cells.values())

    def failures(self) -> list[tuple[int, int, int]]:
        return [key for key, cell in self.cells.items() if cell.low <= 0]

    def as_dict(self) -> dict[str, Any]:
        plan = self.plan
        rows = [{"preset": plan.tables[t][0], "num_players": plan.tables[t][1], "opponent": plan.opponents[o],
                 "way": WAYS[w], **cell.as_dict()} for (t, o, w), cell in self.cells.items()]
        return {"game": plan.game, "agent": plan.agent, "deals": plan.deals, "seed": plan.seed, "carry": plan.carry,
                "carried": [f"{p}:{n}" for p, n in plan.carried()], "unit": self.unit, "passed": self.passed(),
                "cells": rows, "seconds": self.seconds}


def run_strength(plan: StrengthPlan, workers: int = 1, progress: bool = True, chunk: int = 16) -> StrengthReport:
    """Play the gate; agent specs and tables are checked in this process before any work starts."""
    first = TableRunner(plan, 0)  # raises AgentSpecError / RulesError now, not in a worker
    tasks = [(t, a, min(a + chunk, plan.deals)) for t in range(len(plan.tables)) for a in range(0, plan.deals, chunk)]
    _init_worker(plan)  # this process plays too when workers == 1, reusing the runner built above
    _RUNNERS[0] = first
    began = time.perf_counter()
    with tqdm(total=plan.deals * len(plan.tables), unit="deal", desc=f"{plan.game} strength",
              disable=not progress, dynamic_ncols=True) as bar:
        def done(task: tuple[int, int, int], _: np.ndarray) -> None:
            bar.update(task[2] - task[1])

        results = run_tasks(tasks, _play_chunk, workers, _init_worker, plan, in_process=_play_chunk, done=done)
    samples = _per_table(tasks, results)
    return StrengthReport(plan, estimates(plan, samples), first.game.score_unit, time.perf_counter() - began,
                          samples)


def _per_table(tasks: Sequence[tuple[int, int, int]], results: Sequence[np.ndarray]) -> dict[int, np.ndarray]:
    per_table: dict[int, list[np.ndarray]] = {}
    for (table, _, _), block in zip(tasks, results, strict=True):
        per_table.setdefault(table, []).append(block)
    return {table: np.concatenate(blocks) for table, blocks in per_table.items()}


def estimates(plan: StrengthPlan, samples: dict[int, np.ndarray]) -> dict[tuple[int, int, int], MeanEstimate]:
    """Each cell's mean and 95% interval from its table's (deals, opponents, ways) samples."""
    return {(table, o, w): estimate(rows[:, o, w]) for table, rows in samples.items()
            for o in range(len(plan.opponents)) for w in range(len(WAYS))}


def paired(report: StrengthReport, baseline: StrengthReport) -> StrengthReport:
    """Per cell, ``report``'s agent minus ``baseline``'s, deal seed by deal seed, with the difference's 95%
    interval: a cell above zero is one where the agent does better than the baseline agent. Both must have
    measured the same plan but for the agent (the same deals and seat seeds, so the samples pair up)."""
    if replace(report.plan, agent=baseline.plan.agent) != baseline.plan:
        raise ValueError("paired: the two reports measured different tables, opponents or deals")
    differences = {table: rows - baseline.samples[table] for table, rows in report.samples.items()}
    plan = replace(report.plan, agent=f"{report.plan.agent} minus {baseline.plan.agent}")
    return StrengthReport(plan, estimates(plan, differences), report.unit, report.seconds + baseline.seconds,
                          differences)


ABOVE, LEVEL, BELOW = range(3)
"""A cell's verdict (:func:`cell_verdict`): its interval lies above zero, holds it, or lies below it."""


def cell_verdict(cell: MeanEstimate) -> int:
    """:data:`ABOVE`, :data:`LEVEL` or :data:`BELOW` (better, level, worse for a :func:`paired` difference)."""
    return ABOVE if cell.low > 0 else BELOW if cell.high < 0 else LEVEL


def verdict(report: StrengthReport, opponents: Sequence[str] | None = None) -> tuple[int, int, int]:
    """(above zero, level, below zero): how many cells' intervals lie above zero, hold it, lie below it; with
    ``opponents``, only the cells against those."""
    names = report.plan.opponents
    kinds = [cell_verdict(c) for (_, o, _), c in report.cells.items() if opponents is None or names[o] in opponents]
    return kinds.count(ABOVE), kinds.count(LEVEL), kinds.count(BELOW)


def styles(plan: StrengthPlan) -> tuple[str, ...]:
    """The plan's opponents but random: the scripted styles the ship rule weighs (all of them if only random)."""
    return tuple(o for o in plan.opponents if o != RANDOM) or plan.opponents


def ship_rule(difference: StrengthReport) -> dict[str, Any]:
    """The ship rule's paired half on :func:`paired`'s cells, spelled out: the styles it weighs, how many of their
    cells are better, level and worse, and whether the first agent would replace the second (more better than
    worse). Its other half, a best response gaining less than the agent's edge, is ``rams exploit``'s."""
    weighed = styles(difference.plan)
    better, level, worse = verdict(difference, weighed)
    return {"styles": list(weighed), "better": better, "level": level, "worse": worse, "replaces": better > worse}


def replaces(difference: StrengthReport) -> bool:
    """Would the first agent of :func:`paired`'s cells replace the second, by :func:`ship_rule`?"""
    return ship_rule(difference)["replaces"]


def markdown(report: StrengthReport) -> str:
    """A table per way: rows are tables, columns opponents, cells ``mean [low, high]`` with a mark."""
    plan = report.plan
    verdict_text = "every cell above zero" if report.passed() else f"{len(report.failures())} of " \
                                                                    f"{len(report.cells)} cells not above zero"
    carried = _carried_text(plan)
    head = (f"{plan.game}: `{plan.agent}`, {plan.deals} deal seeds (seed {plan.seed}{carried}), {report.unit} "
            f"per deal, 95% intervals; {verdict_text}.")
    return _tables(report, head, _WAY_TEXT, _cell)


def _carried_text(plan: StrengthPlan) -> str:
    """Which tables' deals start from random carried-over state, for a report's first line."""
    carried = plan.carried()
    if not carried:
        return ""
    where = "" if carried == plan.tables else " at " + ", ".join(f"{p}:{n}" for p, n in carried)
    return f", deals from random carried-over state{where}"


def paired_markdown(difference: StrengthReport) -> str:
    """:func:`paired`'s cells as :func:`markdown` lays them out, marked better or worse, and the count of each."""
    plan = difference.plan
    better, level, worse = verdict(difference)
    mean = float(np.mean([c.mean for c in difference.cells.values()]))
    head = (f"{plan.game}: `{plan.agent}`, paired over the same {plan.deals} deal seeds (seed {plan.seed}), "
            f"{difference.unit} per deal, 95% intervals of the difference: **{better} cells better, {level} level, "
            f"{worse} worse**; mean cell difference {mean:+.4f}. {_ship_rule(difference)}")
    texts = {way: f"the first agent's cell minus the second's, {text}" for way, text in _WAY_TEXT.items()}
    return _tables(difference, head, texts, _difference)


def _ship_rule(difference: StrengthReport) -> str:
    rule = ship_rule(difference)
    outcome = "would replace" if rule["replaces"] else "would not replace"
    return (f"Against the scripted styles ({', '.join(rule['styles'])}): {rule['better']} better, {rule['level']} "
            f"level, {rule['worse']} worse, so by the paired ship rule the first agent {outcome} the second.")


def _tables(report: StrengthReport, head: str, way_texts: dict[str, str], cell: Callable) -> str:
    plan, lines = report.plan, [head]
    for w, way in enumerate(WAYS):
        lines += ["", f"**{way}** ({way_texts[way]})", "",
                  "| preset | players | " + " | ".join(f"`{o}`" for o in plan.opponents) + " |",
                  "| --- | ---: |" + " ---: |" * len(plan.opponents)]
        for t, (preset, n) in enumerate(plan.tables):
            cells = [cell(report.cells[(t, o, w)]) for o in range(len(plan.opponents))]
            lines.append(f"| {preset} | {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


_WAY_TEXT = {"agent_alone": "the agent in one seat among scripted players, against the scripted player there",
             "scripted_alone": "the agent in a table of agents, against one scripted player in its seat"}


def _cell(cell: MeanEstimate) -> str:
    mark = "" if cell.low > 0 else " ✗"
    return f"{cell.mean:+.3f} [{cell.low:+.3f}, {cell.high:+.3f}]{mark}"


def _difference(cell: MeanEstimate) -> str:
    mark = " better" if cell.low > 0 else " worse" if cell.high < 0 else ""
    return f"{cell.mean:+.3f} [{cell.low:+.3f}, {cell.high:+.3f}]{mark}"
