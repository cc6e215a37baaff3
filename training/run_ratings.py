"""Ratings at a training run's evaluations, shared by both trainers (training/train.py, training/batched/run.py):
Elo-scale ratings (random = 0) of the greedy learner, its snapshots and the baselines from a short duplicate-deal
round robin in this process (evaluation/tournament.py, evaluation/ratings.py), at the config's table."""

from __future__ import annotations

from typing import Any

from agents.registry import AgentFactory
from evaluation.ratings import Ratings, fit_ratings
from evaluation.tournament import Plan, Setting, run_tournament
from training.config import TrainConfig

RATINGS_ANCHOR = "random"
"""Always among the rated agents: the Elo scale's zero (evaluation/ratings.py), comparable across runs."""


def rate(cfg: TrainConfig, entrants: dict[str, AgentFactory], progress: bool = False) -> Ratings:
    """The ``entrants`` (name -> factory: learner, snapshots) with ``eval.baselines`` and the anchor, each pair
    over ``eval.ratings_deals`` duplicate deals."""
    specs = list(dict.fromkeys([*cfg.eval.baselines, RATINGS_ANCHOR]))
    rules = dict(cfg.rules)
    setting = Setting(cfg.game, cfg.num_players, rules.pop("preset", None), tuple(rules.items()),
                      cfg.env.get("episode", "deal"), cfg.eval.random_carry)
    plan = Plan(setting, (*entrants, *specs), cfg.eval.ratings_deals, cfg.seed)
    played = run_tournament(plan, progress=progress, factories=entrants, label="ratings")
    return fit_ratings(played.names, played.advantage, played.pairs, plan.seed, bootstrap=0)


def add_ratings(entry: dict[str, Any], ratings: Ratings) -> None:
    """An evaluation's history entry gains ``ratings`` and ``ratings_fisher_se`` (name -> Elo points)."""
    entry["ratings"] = dict(zip(ratings.names, ratings.rating, strict=True))
    entry["ratings_fisher_se"] = dict(zip(ratings.names, ratings.fisher_se, strict=True))
