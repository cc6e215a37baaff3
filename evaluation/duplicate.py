"""Duplicate-deal evaluation: the statistics every evaluator shares, and the trainer's one-candidate match.

Card games are noisy, so an agent is judged on *duplicate deals*: the same seeded deal is
replayed with the agents in different seats, and the results of one deal seed are averaged
into one sample. Samples of different deal seeds are independent; the 95% interval of their
mean is Student's t interval (mean +- t(0.975, n-1) * sd / sqrt(n)). Tournaments among many
agents are in ``evaluation/tournament.py``; this module keeps the trainer's API:

``duplicate_match`` plays one candidate *object* (e.g. the learner's policy, in process) from
every seat against a baseline in all other seats, and the baseline itself in that seat as the
reference. A sample is the candidate's payoff minus the reference payoff, averaged over the
seats: above zero means better than the baseline would have done with the same cards
against the same opponents.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from tqdm import tqdm

import rams_env
from agents.base import Agent
from agents.registry import agent_factory
from evaluation.tournament import play_side_by_side

_Z975 = 1.959963984540054


def t_quantile(df: int) -> float:
    """Two-sided 95% quantile of Student's t with ``df`` degrees of freedom (Cornish-Fisher, < 1e-3 off for df >= 3).

    The normal 1.96 under-covers for the few dozen deal seeds of a quick evaluation, and
    scipy is not a dependency, so the expansion in 1/df is used.
    """
    if df < 1:
        return math.inf
    exact = {1: 12.706205, 2: 4.302653, 3: 3.182446, 4: 2.776445}
    if df in exact:
        return exact[df]
    z = _Z975
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(term / df ** (k + 1) for k, term in enumerate(terms))


@dataclass(frozen=True)
class MeanEstimate:
    """A mean over independent samples (deal seeds) with the half-width of its 95% interval."""

    mean: float
    ci95: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.ci95

    @property
    def high(self) -> float:
        return self.mean + self.ci95

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def as_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "ci95": self.ci95, "low": self.low, "high": self.high, "n": self.n}


def estimate(samples: Sequence[float]) -> MeanEstimate:
    """Mean and 95% t interval of independent samples (an infinite interval for a single sample)."""
    values = [float(x) for x in samples]
    if not values:
        raise ValueError("an estimate needs at least one sample")
    mean = math.fsum(values) / len(values)
    if len(values) == 1:
        return MeanEstimate(mean, math.inf, 1)
    sd = statistics.stdev(values)
    return MeanEstimate(mean, t_quantile(len(values) - 1) * sd / math.sqrt(len(values)), len(values))


# ------------------------------------------------------------------ the trainer's match (in process)
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


MATCH_BLOCK = 16
"""Deals a match plays side by side (agents/lockstep.py); the progress bar moves a block at a time."""


def duplicate_match(game: str, num_players: int | None, env_kwargs: dict[str, Any], candidate: Agent,
                    baseline: str, deals: int, seed: int = 10_000, progress: str | None = None) -> MatchResult:
    """Advantage per deal of ``candidate`` over ``baseline``, seated against the baseline everywhere else.

    Each deal is ``env.reset(seed=seed + d)`` played 1 + n times (the baseline everywhere, then the candidate in
    each seat), every seat's agent reset as :func:`agents.table.play_episode` resets it; a block of deals is played
    side by side, a greedy checkpoint's decisions in one forward (the same numbers as one game at a time).
    ``progress``: the label of a progress bar over the deals (None: no bar)."""
    env = rams_env.make(game, num_players, **{"illegal_action": "raise", **env_kwargs})  # an agent's bug must show
    table_game, carry = env.unwrapped.game, env.unwrapped.random_carry
    n = table_game.num_players
    make_baseline = agent_factory(baseline, table_game)

    def seated(d: int, seat: int | None) -> list[Agent]:
        """Deal ``d``'s table: the baseline in every seat, the candidate in ``seat`` (None: nowhere)."""
        table = [make_baseline(seed + 7919 * d + i) for i in range(n)]
        if seat is not None:
            table[seat] = candidate
        for i, agent in enumerate(table):
            agent.reset((seed + d) * 1009 + i)
        return table

    samples, payoffs, references = [], [], []
    with tqdm(total=deals, desc=progress, unit="deal", disable=progress is None, dynamic_ncols=True,
              leave=False) as bar:
        for start in range(0, deals, MATCH_BLOCK):
            games = [(d, seat) for d in range(start, min(start + MATCH_BLOCK, deals)) for seat in (None, *range(n))]
            played = play_side_by_side(table_game, [seed + d for d, _ in games],
                                       [partial(seated, d, seat) for d, seat in games], carry)
            scores = iter([float(x) for x in seat_scores] for seat_scores, _ in played)
            for _ in range(len(games) // (n + 1)):
                reference = next(scores)
                for seat in range(n):
                    payoffs.append(next(scores)[seat])
                    references.append(reference[seat])
                samples.append(statistics.fmean(p - r for p, r in zip(payoffs[-n:], references[-n:], strict=True)))
            bar.update(len(games) // (n + 1))
    result = estimate(samples)
    return MatchResult(baseline, result.mean, result.ci95, deals, statistics.fmean(payoffs),
                       statistics.fmean(references))


def format_table(results: list[MatchResult], title: str) -> str:
    lines = [title, f"{'baseline':12} {'advantage/deal':>14} {'95% CI':>20} {'payoff':>8} {'baseline':>9} {'deals':>6}"]
    for r in results:
        lines.append(f"{r.baseline:12} {r.mean:14.3f}   [{r.mean - r.ci95:7.3f}, {r.mean + r.ci95:7.3f}] "
                     f"{r.payoff:8.3f} {r.reference:9.3f} {r.deals:6}")
    return "\n".join(lines)
