"""Bluffing metrics of one agent from its recorded decisions; every rate with a Wilson 95% interval.

Definitions (docs/bluffing.md, "Definitions"); p is the estimated chance of winning the last trick:

- knock opportunity: a knock or a check (a turn where knocking was legal);
- knock rate: knocks / opportunities;
- bluff rate: knocks with p < ``bluff_below`` / opportunities with p < ``bluff_below`` (how often the
  agent knocks when it is weak); bluff share: the fraction of its knocks that are bluffs;
- value-knock rate: knocks with p >= ``value_from`` / opportunities with p >= ``value_from``;
- bluff success: bluffs that everyone folded to; lives: ``Decision.ev`` (others' mean loss minus own
  loss from the knock to the end of the deal), mean with a normal 95% interval;
- fold rate facing a knock (poverty raises excluded), and the fold curve: fold rate per p bin;
  a fold was right if the reference play-out of the true hands says she would have lost the last
  trick; a stay was right if she lost fewer lives from then on than folding cost (stake - 1);
- dirty hands: false claims / dirty-phase decisions holding a hand that is not dirty (self-false-claim
  rate: the same among weak hands by the heuristic's yardstick); challenge rate:
  challenges / claims she could challenge; challenge success: challenged claims that were false;
- the heuristic's yardstick (``strength``, the Toepen heuristic's own estimate from the same view):
  self-bluff rate = knocks with strength < ``weak_below`` / opportunities with strength < ``weak_below``.
  It is what the bluffer's ``bluff_rate`` parameter means, so the validation uses it (like with like).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from evaluation.bluff.record import Decision
from evaluation.bluff.winchance import wilson


@dataclass(frozen=True)
class Thresholds:
    """Where a knock counts as a bluff or a value knock, and the fold-curve bins."""

    bluff_below: float = 0.25
    value_from: float = 0.5
    weak_below: float = 0.2  # the heuristic's default weak_threshold (agents/heuristics/toepen.py)
    bins: int = 5

    def __post_init__(self) -> None:
        for name in ("bluff_below", "value_from", "weak_below"):
            value = getattr(self, name)
            if not 0.0 < value <= 1.0:
                raise ValueError(f"{name}={value!r}: must be in (0, 1]")
        if self.value_from < self.bluff_below:
            raise ValueError(f"value_from={self.value_from} is below bluff_below={self.bluff_below}")
        if not isinstance(self.bins, int) or not 1 <= self.bins <= 50:
            raise ValueError(f"bins={self.bins!r}: a whole number from 1 to 50")


def rate(k: int, n: int) -> dict[str, Any]:
    """``{"k", "n", "rate", "lo", "hi"}``: a proportion and its Wilson 95% interval (rate None if n = 0)."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": k / n if n else None, "lo": lo, "hi": hi}


def mean_ci(values: Iterable[float]) -> dict[str, Any]:
    """Mean with a normal 95% half-width (None with fewer than two values)."""
    xs = list(values)
    if not xs:
        return {"n": 0, "mean": None, "ci95": None}
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else None
    return {"n": len(xs), "mean": statistics.fmean(xs), "ci95": half}


def share(rows: list[Decision], kind: str, where: Callable[[Decision], bool] = lambda r: True) -> dict[str, Any]:
    """Rate of ``kind`` among ``rows`` satisfying ``where``."""
    picked = [r for r in rows if where(r)]
    return rate(sum(r.kind == kind for r in picked), len(picked))


def bin_of(p: float, bins: int) -> int:
    return min(int(p * bins), bins - 1)


def bin_labels(bins: int) -> list[str]:
    return [f"{i / bins:.2f}-{(i + 1) / bins:.2f}" for i in range(bins)]


def knock_metrics(rows: list[Decision], t: Thresholds) -> dict[str, Any]:
    opps = [r for r in rows if r.kind in ("knock", "check")]
    knocks = [r for r in opps if r.kind == "knock"]
    bluffs = [r for r in knocks if r.p < t.bluff_below]
    values = [r for r in knocks if r.p >= t.value_from]
    strong = [r for r in opps if r.strength is not None]
    return {
        "opportunities": len(opps),
        "knock_rate": rate(len(knocks), len(opps)),
        "bluff_rate": share(opps, "knock", lambda r: r.p < t.bluff_below),
        "bluff_share": rate(len(bluffs), len(knocks)),
        "value_knock_rate": share(opps, "knock", lambda r: r.p >= t.value_from),
        "value_share": rate(len(values), len(knocks)),
        "bluff_success": rate(sum(r.all_folded for r in bluffs), len(bluffs)),
        "value_success": rate(sum(r.all_folded for r in values), len(values)),
        "bluff_won_last": rate(sum(r.won_last for r in bluffs), len(bluffs)),
        "bluff_ev": mean_ci(r.ev for r in bluffs),
        "value_ev": mean_ci(r.ev for r in values),
        "check_ev_weak": mean_ci(r.ev for r in opps if r.kind == "check" and r.p < t.bluff_below),
        "self_bluff_rate": share(strong, "knock", lambda r: r.strength < t.weak_below),
        "self_value_rate": share(strong, "knock", lambda r: r.strength >= t.weak_below),
        "weak_agreement": _agreement(strong, t),
        "ev_curve": [{"bin": label, "knock": mean_ci(r.ev for r in knocks if bin_of(r.p, t.bins) == i),
                      "check": mean_ci(r.ev for r in opps if r.kind == "check" and bin_of(r.p, t.bins) == i)}
                     for i, label in enumerate(bin_labels(t.bins))],
    }


def _agreement(rows: list[Decision], t: Thresholds) -> dict[str, int]:
    """Cross-tab of the two yardsticks at knock opportunities: estimator p vs the heuristic's strength."""
    out = {"both_weak": 0, "only_p_weak": 0, "only_strength_weak": 0, "neither": 0}
    for r in rows:
        pw, sw = r.p < t.bluff_below, r.strength < t.weak_below
        out["both_weak" if pw and sw else "only_p_weak" if pw else "only_strength_weak" if sw else "neither"] += 1
    return out


def fold_metrics(rows: list[Decision], t: Thresholds) -> dict[str, Any]:
    resp = [r for r in rows if r.kind in ("stay", "fold") and r.knock >= 1]
    folds = [r for r in resp if r.kind == "fold"]
    stays = [r for r in resp if r.kind == "stay"]
    curve = []
    for i, label in enumerate(bin_labels(t.bins)):
        inside = [r for r in resp if bin_of(r.p, t.bins) == i]
        curve.append({"bin": label, **share(inside, "fold")})
    return {
        "responses": len(resp),
        "fold_rate": rate(len(folds), len(resp)),
        "fold_curve": curve,
        "fold_right": rate(sum(r.hindsight < 0.5 for r in folds), len(folds)),
        "stay_right": rate(sum(r.lost_after < r.stake - 1 for r in stays), len(stays)),
        "stay_won_last": rate(sum(r.won_last for r in stays), len(stays)),
        "poverty_responses": sum(r.kind in ("stay", "fold") and r.knock == 0 for r in rows),
    }


def dirty_metrics(rows: list[Decision], t: Thresholds) -> dict[str, Any]:
    dirty_phase = [r for r in rows if r.kind in ("dirty", "keep")]
    claims = [r for r in rows if r.kind in ("challenge", "accept")]
    challenges = [r for r in claims if r.kind == "challenge"]
    return {
        "claims": sum(r.kind == "dirty" for r in dirty_phase),
        "false_claim_rate": share(dirty_phase, "dirty", lambda r: not r.honest),
        "true_claim_rate": share(dirty_phase, "dirty", lambda r: bool(r.honest)),
        "self_false_claim_rate": share(dirty_phase, "dirty", lambda r: not r.honest and r.strength is not None
                                       and r.strength < t.weak_below),
        "challenge_rate": rate(len(challenges), len(claims)),
        "challenge_success": rate(sum(not r.honest for r in challenges), len(challenges)),
    }


def splits(rows: list[Decision], t: Thresholds, key: str) -> dict[int, dict[str, Any]]:
    """Knock, bluff and fold rates per value of ``key`` (``"knock"`` number or ``"trick"`` number)."""
    out = {}
    for value in sorted({getattr(r, key) for r in rows if r.kind in ("knock", "check", "stay", "fold")}):
        sub = [r for r in rows if getattr(r, key) == value]
        opps = [r for r in sub if r.kind in ("knock", "check")]
        resp = [r for r in sub if r.kind in ("stay", "fold")]
        out[value] = {"knock_rate": share(opps, "knock"),
                      "bluff_rate": share(opps, "knock", lambda r: r.p < t.bluff_below),
                      "fold_rate": share(resp, "fold")}
    return out


def estimator_metrics(rows: list[Decision], t: Thresholds) -> dict[str, Any]:
    """How the estimates were made, and their calibration against the hindsight play-out."""
    calibration = []
    for i, label in enumerate(bin_labels(t.bins)):
        inside = [r for r in rows if r.kind != "fold" and bin_of(r.p, t.bins) == i]
        calibration.append({"bin": label, "n": len(inside),
                            "mean_p": statistics.fmean(r.p for r in inside) if inside else None,
                            "hindsight": statistics.fmean(r.hindsight for r in inside) if inside else None})
    return {"decisions": len(rows), "exact": sum(r.exact for r in rows), "relaxed": sum(r.relaxed for r in rows),
            "mean_se": statistics.fmean(r.se for r in rows) if rows else None, "calibration": calibration}


def histogram(rows: list[Decision], kind: str, bins: int = 10) -> list[int]:
    counts = [0] * bins
    for r in rows:
        if r.kind == kind:
            counts[bin_of(r.p, bins)] += 1
    return counts


def agent_metrics(rows: list[Decision], t: Thresholds) -> dict[str, Any]:
    """Everything the report shows for one agent."""
    deals = len({r.deal for r in rows})
    return {
        "deals_with_decisions": deals,
        "knocks": knock_metrics(rows, t),
        "folds": fold_metrics(rows, t),
        "dirty": dirty_metrics(rows, t),
        "by_knock": splits(rows, t, "knock"),
        "by_trick": splits(rows, t, "trick"),
        "estimator": estimator_metrics(rows, t),
        "histograms": {"knock": histogram(rows, "knock"), "check": histogram(rows, "check")},
    }
