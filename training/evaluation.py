"""Duplicate-deal evaluation: the same seeded deals replayed with the candidate in every seat.

Card luck cancels: for each deal seed the candidate plays once from each seat against
the baseline in all other seats, and the baseline itself plays the same deal in that seat
(the reference). A sample is the candidate's payoff minus the reference payoff, averaged
over the seats; samples of different deals are independent, and the 95% interval is
mean +- 1.96 standard errors. An advantage above zero means: better than the baseline
would have done with the same cards against the same opponents.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import rams_env
from agents.base import Agent, play_episode
from agents.random_agent import RandomAgent

BASELINES: dict[str, Callable[[int], Agent]] = {
    "random": lambda seed: RandomAgent(seed, name="random"),
}
"""Scripted baselines by name (the heuristic players join here)."""


@dataclass
class MatchResult:
    """Candidate against one baseline: mean advantage per deal with its 95% interval, and raw payoffs."""

    baseline: str
    mean: float  # advantage per deal over the baseline in the same seat
    ci95: float
    deals: int
    payoff: float  # the candidate's own mean payoff per deal
    reference: float  # the baseline's mean payoff per deal in the same seats

    def as_dict(self) -> dict[str, Any]:
        return {"baseline": self.baseline, "mean": self.mean, "ci95": self.ci95, "deals": self.deals,
                "payoff": self.payoff, "reference": self.reference}


def duplicate_match(game: str, num_players: int | None, env_kwargs: dict[str, Any], candidate: Agent,
                    baseline: str, deals: int, seed: int = 10_000) -> MatchResult:
    """Advantage per deal of ``candidate`` over ``baseline``, seated against the baseline everywhere else."""
    env = rams_env.make(game, num_players, **env_kwargs)
    n = env.unwrapped.game.num_players
    make_baseline = BASELINES[baseline]
    samples, payoffs, references = [], [], []
    for d in range(deals):
        reference = play_episode(env, [make_baseline(seed + 7919 * d + i) for i in range(n)], seed=seed + d)
        for seat in range(n):
            table = [make_baseline(seed + 7919 * d + i) for i in range(n)]
            table[seat] = candidate
            payoffs.append(play_episode(env, table, seed=seed + d)[seat])
            references.append(reference[seat])
        samples.append(statistics.fmean(p - r for p, r in zip(payoffs[-n:], references[-n:], strict=True)))
    sd = statistics.stdev(samples) if len(samples) > 1 else 0.0
    return MatchResult(baseline, statistics.fmean(samples), 1.96 * sd / math.sqrt(len(samples)), deals,
                       statistics.fmean(payoffs), statistics.fmean(references))


def format_table(results: list[MatchResult], title: str) -> str:
    lines = [title, f"{'baseline':12} {'advantage/deal':>14} {'95% CI':>20} {'payoff':>8} {'baseline':>9} {'deals':>6}"]
    for r in results:
        lines.append(f"{r.baseline:12} {r.mean:14.3f}   [{r.mean - r.ci95:7.3f}, {r.mean + r.ci95:7.3f}] "
                     f"{r.payoff:8.3f} {r.reference:9.3f} {r.deals:6}")
    return "\n".join(lines)
