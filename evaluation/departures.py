"""Where does an agent's edge over a scripted player come from? From the first decision it plays otherwise.

A cell of the strength gate (evaluation/strength.py) is a mean of substitution samples: in seat k of a deal,
the payoff of one player minus the payoff of the other, every other seat and every card alike. The two games
are the same move for move until the seat's two players first choose differently: the other seats are the
same agents with the same seeds, and the engine's draws follow the moves. So each seat-deal's whole
difference arises at or after that first departure, and grouping seat-deals by the kind of that decision
splits the cell into parts that add up to it exactly:

- ``same``: the two players never chose differently (its part is zero, its share says how often);
- a card play: ``lead`` or ``follow``, and the trick it was in;
- any other decision: what the scripted player chose and what the agent chose (``tap -> pass``), or the
  segment alone for card-valued ones (``discard``).

A part is a mean over deal seeds like the cell (its samples: each deal's sum over its seat-deals of that
kind, divided by the table size), so it has its own 95% interval. It says where the difference starts, not
that the first departure alone caused it: what both players do afterwards is part of it.

Both ways of the gate: ``agent_alone`` (the agent in one seat among scripted players) and
``scripted_alone`` (one scripted player among agents). Deal seeds and seat seeds are the gate's for a plan
whose first table is this one, so the total equals the gate's cell there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

import rams_env
from agents.registry import agent_factory
from agents.table import Turn, Watcher
from evaluation.carry import check_carry
from evaluation.duplicate import MeanEstimate, estimate
from evaluation.strength import (
    HELD_OUT_SEED,
    WAYS,
    deals_carried,
    seat_scores,
    seat_seed_key,
    substituted,
)
from evaluation.tournament import deal_seed, game_seeds
from rams_env.core.actions import PLAY

SAME = "same"
"""The kind of a seat-deal where the two players chose alike at every decision."""


def decision_kind(turn: Turn) -> str:
    """What kind of decision ``turn`` is, for the player who chose ``turn.action`` (see the module text)."""
    return kind_of(turn.game, turn.state, turn.action)


def kind_of(game, state, action: int) -> str:
    """What kind of decision choosing ``action`` at ``state`` is: a card's lead or follow and its trick, a
    card-valued segment's name (``discard``), else the action's label."""
    name, _ = game.actions.segment(action)
    if name == PLAY:
        trick = state.tricks_played + 1
        return f"follow, trick {trick}" if state.trick else f"lead, trick {trick}"
    segment = next(s for s in game.actions.segments if s.name == name)
    return str(name) if segment.pack is not None else game.actions.label(action)


class Choices(Watcher):
    """Every seat's decisions in a game, in order, as (kind, label)."""

    def __init__(self, n: int) -> None:
        self.by_seat: list[list[tuple[str, str]]] = [[] for _ in range(n)]

    def acting(self, turn: Turn) -> None:
        self.by_seat[turn.seat].append((decision_kind(turn), turn.game.actions.label(turn.action)))


def first_departure(scripted: list[tuple[str, str]], agent: list[tuple[str, str]]) -> str:
    """The kind of the first decision the two players chose differently (``same`` if none): the kind itself
    when both chose within it (two cards of one trick, two discards), else ``scripted's choice -> agent's``."""
    for (kind, label), (agent_kind, agent_label) in zip(scripted, agent, strict=False):
        if label != agent_label:
            if kind == agent_kind and kind != label:
                return kind
            return f"{_choice(kind, label)} -> {_choice(agent_kind, agent_label)}"
    return SAME


def _choice(kind: str, label: str) -> str:
    """A choice named for a departure: its label, or what a card-valued one is (a card, a discard)."""
    if kind == label:
        return label
    return "card" if kind.startswith(("lead", "follow")) else kind


@dataclass(frozen=True)
class DeparturePlan:
    """Everything the numbers depend on: one table, one scripted player, one way of the gate."""

    game: str
    agent: str  # agent spec (agents/registry.py)
    opponent: str  # the scripted player's spec
    table: tuple[str, int]  # (preset, num_players)
    deals: int
    way: str = WAYS[0]
    seed: int = HELD_OUT_SEED
    carry: str = "gate"  # where deals start, as the gate's (evaluation.strength.CARRY)

    def __post_init__(self) -> None:
        if self.deals < 2:
            raise ValueError(f"deals={self.deals}: at least 2 deal seeds are needed for an interval")
        if self.way not in WAYS:
            raise ValueError(f"way={self.way!r}: one of {', '.join(WAYS)}")
        check_carry(self.carry)

    def carried(self) -> bool:
        """Whether the deals start from random carried-over state."""
        return deals_carried(self.game, self.table, self.carry)


@dataclass
class DepartureReport:
    """The cell (``total``) and its parts by kind of first departure, with how many seat-deals each has."""

    plan: DeparturePlan
    total: MeanEstimate
    parts: dict[str, MeanEstimate]
    seat_deals: dict[str, int]
    unit: str

    def rows(self) -> list[tuple[str, int, MeanEstimate]]:
        """(kind, seat-deals, part), the largest losses first, ``same`` last."""
        kinds = sorted((k for k in self.parts if k != SAME), key=lambda k: (self.parts[k].mean, k))
        return [(k, self.seat_deals[k], self.parts[k]) for k in [*kinds, SAME] if k in self.parts]

    def as_dict(self) -> dict[str, Any]:
        plan = self.plan
        return {"game": plan.game, "agent": plan.agent, "opponent": plan.opponent, "preset": plan.table[0],
                "num_players": plan.table[1], "way": plan.way, "deals": plan.deals, "seed": plan.seed,
                "carry": plan.carry, "carried": plan.carried(), "unit": self.unit, "total": self.total.as_dict(),
                "parts": [{"kind": k, "seat_deals": n, **part.as_dict()} for k, n, part in self.rows()]}


def run_departures(plan: DeparturePlan, progress: bool = True) -> DepartureReport:
    """Play the plan's deals (one process: a table at a time is quick) and split the cell by first departure."""
    preset, n = plan.table
    game = rams_env.make_game(plan.game, n, preset=preset)
    agent, scripted = agent_factory(plan.agent, game), agent_factory(plan.opponent, game)
    everyone, one = (scripted, agent) if plan.way == WAYS[0] else (agent, scripted)
    deals = [_deal(plan, game, everyone, one, d)
             for d in tqdm(range(plan.deals), unit="deal", desc=f"{plan.game} departures", disable=not progress,
                           dynamic_ncols=True)]
    kinds = sorted({kind for parts, _ in deals for kind in parts})
    return DepartureReport(plan, estimate([sum(parts.values()) for parts, _ in deals]),
                           {k: estimate([parts.get(k, 0.0) for parts, _ in deals]) for k in kinds},
                           {k: sum(counts[k] for _, counts in deals) for k in kinds}, game.score_unit)


def _deal(plan: DeparturePlan, game, everyone: Callable, one: Callable, d: int) -> tuple[dict[str, float], Counter]:
    """Deal ``d``: per kind of first departure, the sum of its seat-deals' samples over the table size, and how
    many seat-deals it has."""
    n, env_seed = game.num_players, deal_seed(plan.seed, d)
    seeds = game_seeds(n, plan.seed, d, seat_seed_key(plan.game, plan.table))  # as the gate draws them
    alike, carried = Choices(n), plan.carried()
    base = seat_scores(game, [everyone] * n, seeds, env_seed, carried, alike)
    parts: dict[str, float] = {}
    counts: Counter = Counter()
    for k in range(n):
        changed = Choices(n)
        scores = seat_scores(game, substituted(everyone, one, n, k), seeds, env_seed, carried, changed)
        if plan.way == WAYS[0]:  # agent_alone: the agent substituted, minus the scripted player at the alike table
            kind, sample = first_departure(alike.by_seat[k], changed.by_seat[k]), scores[k] - base[k]
        else:  # scripted_alone: the agent at the alike table, minus the scripted player substituted
            kind, sample = first_departure(changed.by_seat[k], alike.by_seat[k]), base[k] - scores[k]
        parts[kind] = parts.get(kind, 0.0) + sample / n
        counts[kind] += 1
    return parts, counts


def markdown(report: DepartureReport) -> str:
    """The total and one row per kind of first departure."""
    plan, total = report.plan, report.total
    carried = ", from random carried-over state" if plan.carried() else ""
    lines = [f"{plan.game} {plan.table[0]}:{plan.table[1]}, {plan.way}: `{plan.agent}` against `{plan.opponent}`, "
             f"{plan.deals} deal seeds (seed {plan.seed}{carried}), {report.unit} per deal, 95% intervals",
             "", f"total (the strength gate's cell): {_interval(total)}", "",
             "| first departure (scripted -> agent) | seat-deals | share | part of the total |",
             "| --- | ---: | ---: | ---: |"]
    seat_deals = sum(report.seat_deals.values())
    for kind, count, part in report.rows():
        lines.append(f"| {kind} | {count} | {count / seat_deals:.1%} | {_interval(part)} |")
    return "\n".join(lines) + "\n"


def _interval(cell: MeanEstimate) -> str:
    return f"{cell.mean:+.3f} [{cell.low:+.3f}, {cell.high:+.3f}]"
