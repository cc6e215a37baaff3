"""Bradley-Terry ratings on the Elo scale, fitted to duplicate-deal outcomes, with bootstrap intervals.

Each deal seed of a pair is one game between the two agents: the agent whose seats earned
more over the deal's seatings (the pair's duplicate advantage above zero) wins it, an exact
tie is half a win each. The ratings R maximise the Bradley-Terry likelihood with

    P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))

(the Elo scale: 400 points = 10:1 odds). One virtual drawn game is added to every pair that
met, so that an agent that won every deal still gets a finite rating. Ratings are only
defined up to a constant: the anchor (``random`` when it takes part, else the first agent)
is fixed at 0. Uncertainty: the deal seeds are resampled with replacement (the same
resample for every pair, since pairs share deal seeds) and the fit repeated; the interval
is the 2.5-97.5 percentile range of the refits, drawn from a generator seeded by the
tournament seed, so it is as deterministic as the tournament. The Fisher-information
standard error (which assumes independent games) is reported beside it, and the interval
is widened to at least rating +- 1.96 Fisher SE: when one agent wins every deal seed all
resamples agree and the percentile interval would collapse to a point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

ELO = 400.0 / math.log(10.0)
"""Elo points per unit of natural log-odds."""

FISHER_Z = 1.959963984540054
"""Normal 97.5% quantile for the Fisher interval."""

TIE_TOLERANCE = 1e-9
"""Duplicate advantages closer to zero than this are ties (seat means of integer payoffs)."""


@dataclass(frozen=True)
class Ratings:
    """Elo-scale ratings with bootstrap intervals; ``anchor`` is the agent held at 0."""

    names: list[str]
    rating: list[float]
    sd: list[float]  # bootstrap standard deviation
    low: list[float]  # bootstrap 2.5% percentile
    high: list[float]  # bootstrap 97.5% percentile
    fisher_se: list[float]
    anchor: str
    bootstrap: int

    def as_dict(self) -> dict[str, Any]:
        rows = zip(self.names, self.rating, self.sd, self.low, self.high, self.fisher_se, strict=True)
        def num(x: float) -> float | None:  # JSON has no NaN: no bootstrap, no interval
            return None if math.isnan(x) else x

        return {"anchor": self.anchor, "bootstrap": self.bootstrap, "scale": "elo (400 = 10:1 odds)",
                "agents": [{"agent": n, "rating": r, "sd": num(s), "low": num(lo), "high": num(hi), "fisher_se": f}
                           for n, r, s, lo, hi, f in rows]}


def outcomes(advantage: np.ndarray) -> np.ndarray:
    """Per deal and pair: 1 if the pair's first agent won the duplicate deal, 0 if it lost, 0.5 on a tie."""
    return np.where(advantage > TIE_TOLERANCE, 1.0, np.where(advantage < -TIE_TOLERANCE, 0.0, 0.5))


def win_matrix(outcome: np.ndarray, pairs: list[tuple[int, int]], num_agents: int,
               weights: np.ndarray | None = None) -> np.ndarray:
    """``wins[i, j]``: deals ``i`` won against ``j`` (``weights``: how often each deal counts)."""
    totals = outcome.sum(axis=0) if weights is None else weights @ outcome
    games = outcome.shape[0] if weights is None else weights.sum()
    wins = np.zeros((num_agents, num_agents))
    for p, (i, j) in enumerate(pairs):
        wins[i, j] = totals[p]
        wins[j, i] = games - totals[p]
    return wins


def bradley_terry(wins: np.ndarray, anchor: int = 0, prior: float = 1.0,
                  max_iter: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """(ratings, Fisher standard errors) in Elo points, ``ratings[anchor] == 0``, by Newton's method.

    ``wins[i, j]`` counts the games ``i`` won against ``j``; ``prior`` virtual drawn games are
    added to every pair with at least one game. Raises ValueError if the pairs that met do not
    connect every agent (their ratings would not be comparable).
    """
    wins = np.asarray(wins, dtype=float)
    m = wins.shape[0]
    met = (wins + wins.T) > 0
    np.fill_diagonal(met, False)
    _check_connected(met)
    w = wins + met * (prior / 2.0)
    games = w + w.T
    free = [k for k in range(m) if k != anchor]
    theta = np.zeros(m)
    for _ in range(max_iter):
        grad, hess = _derivatives(theta, w, games)
        step = np.zeros(m)
        step[free] = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        size, before = 1.0, _log_likelihood(theta, w)
        while _log_likelihood(theta + size * step, w) < before - 1e-12 and size > 1e-6:
            size /= 2  # backtracking: Newton's full step can overshoot when one agent wins nearly everything
        theta += size * step
        if np.max(np.abs(size * step)) < 1e-10:
            break
    hess = _derivatives(theta, w, games)[1]
    se = np.zeros(m)
    se[free] = np.sqrt(np.diag(np.linalg.inv(hess[np.ix_(free, free)])))
    return theta * ELO, se * ELO


def _log_likelihood(theta: np.ndarray, w: np.ndarray) -> float:
    diff = theta[:, None] - theta[None, :]
    return float(-(w * np.logaddexp(0.0, -diff)).sum())


def _derivatives(theta: np.ndarray, w: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gradient of the log-likelihood and the observed information (its negative Hessian)."""
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j] = P(i beats j)
    info = games * p * (1.0 - p)
    return (w - games * p).sum(axis=1), np.diag(info.sum(axis=1)) - info


def _check_connected(met: np.ndarray) -> None:
    reached, frontier = {0}, [0]
    while frontier:
        k = frontier.pop()
        for nxt in np.flatnonzero(met[k]):
            if int(nxt) not in reached:
                reached.add(int(nxt))
                frontier.append(int(nxt))
    if len(reached) != met.shape[0]:
        raise ValueError("the agents that met do not connect everyone: ratings would not be comparable")


def anchor_index(names: list[str]) -> int:
    """``random`` when it takes part, else the first agent."""
    return names.index("random") if "random" in names else 0


def fit_ratings(names: list[str], advantage: np.ndarray, pairs: list[tuple[int, int]], seed: int,
                bootstrap: int = 200) -> Ratings:
    """Ratings from a tournament's per-deal advantages (deals x pairs), bootstrapped over deal seeds."""
    outcome = outcomes(advantage)
    anchor = anchor_index(names)
    rating, fisher = bradley_terry(win_matrix(outcome, pairs, len(names)), anchor)
    deals = outcome.shape[0]
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0xB7]))
    refits = np.empty((bootstrap, len(names)))
    for b in range(bootstrap):
        weights = np.bincount(rng.integers(0, deals, deals), minlength=deals).astype(float)
        refits[b] = bradley_terry(win_matrix(outcome, pairs, len(names), weights), anchor)[0]
    if bootstrap > 1:
        sd, low, high = refits.std(axis=0, ddof=1), *np.percentile(refits, [2.5, 97.5], axis=0)
        # the percentile interval collapses when one agent won every deal seed: never report less than Fisher's
        low, high = np.minimum(low, rating - FISHER_Z * fisher), np.maximum(high, rating + FISHER_Z * fisher)
    else:
        sd = low = high = np.full(len(names), math.nan)
    return Ratings(list(names), rating.tolist(), sd.tolist(), low.tolist(), high.tolist(), fisher.tolist(),
                   names[anchor], bootstrap)
