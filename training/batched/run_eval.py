"""Evaluations of a batched run: the current weights, written as a weights-only checkpoint, played through the
registry's ``checkpoint:`` spec (so a general checkpoint plays any table exactly as ``rams evaluate`` plays it)
in duplicate deals against each baseline (evaluation/duplicate.py), at each table asked."""

from __future__ import annotations

from pathlib import Path

from agents.registry import agent_factory
from evaluation.duplicate import MatchResult, duplicate_match
from training.batched.tables import TableSpec
from training.config import TrainConfig
from training.run_plot import LEARNER
from training.tables import table_options


def evaluate_weights(weights: Path, config: TrainConfig, tables: list[TableSpec], deals: int,
                     progress: bool = False) -> dict[str, list[MatchResult]]:
    """``{table label: [result per baseline]}`` of the greedy checkpoint ``weights`` at each table."""
    played = {}
    for table in tables:
        game = table.make_game(config.game)
        candidate = agent_factory(f"checkpoint:{weights}", game)(config.seed)
        candidate.name = LEARNER
        env_kwargs = {**table_options(table), **config.env, "random_carry": config.eval.random_carry}
        played[table.label()] = [
            duplicate_match(config.game, table.num_players, env_kwargs, candidate, baseline, deals,
                            progress=f"evaluation {table.label()} vs {baseline}" if progress else None)
            for baseline in config.eval.baselines]
    return played
