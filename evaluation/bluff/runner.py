"""Run a bluff study: agents x deals, cut into chunks, played by worker processes, merged in order.

Every number depends only on the :class:`Study` (agents, opponents, table, deals, seed, estimator
settings): deal ``d`` is dealt from ``(seed, d)``, its agents and estimator draw from generators
seeded by ``(seed, d)``, and chunks are merged in (agent, deal) order, so 1 worker or 2 give the
same records.
"""

from __future__ import annotations

import glob
import math
import re
import time
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

import rams_env
from agents.registry import ALLOW_RULES_MISMATCH, AgentSpecError, agent_factory, split_checkpoint_option
from evaluation.bluff.record import SELF, Decision, record_deals
from evaluation.bluff.winchance import WinChance
from evaluation.workers import run_tasks


@dataclass(frozen=True)
class Study:
    """Everything a study's records depend on (picklable: workers rebuild the same objects)."""

    agents: tuple[str, ...]
    opponents: str = "heuristic"
    players: int = 4
    preset: str | None = None
    deals: int = 2000
    seed: int = 0
    samples: int = 32
    exact_limit: int = 1000
    policy: str = "low"
    random_carry: bool = False  # deals start from random carried-over lives (knock limits, poverty)
    records: str | None = None  # a folder for the deal records of the deals played (no number depends on it)

    def __post_init__(self) -> None:
        if not self.agents:
            raise ValueError("name at least one agent to measure")
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"deals={self.deals!r}: a whole number >= 1")
        if self.seed < 0:
            raise ValueError(f"seed={self.seed} must be >= 0")

    def make_game(self):
        return rams_env.make_game("toepen", self.players, preset=self.preset)

    def estimator(self, game) -> WinChance:
        return WinChance(game, samples=self.samples, exact_limit=self.exact_limit, policy=self.policy)


@dataclass
class Results:
    """The records of a study per agent, in deal order."""

    study: Study
    records: dict[str, list[Decision]]
    seconds: float
    workers: int


def _natural(text: str) -> list[Any]:
    """Sort key with numbers compared as numbers (step_9 before step_10)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def expand_specs(specs: list[str]) -> list[str]:
    """``checkpoint:runs/x/step_*.zip`` -> one spec per matching file, in step order; others unchanged."""
    out: list[str] = []
    for given in specs:
        spec, allow = split_checkpoint_option(given)
        kind, _, arg = spec.partition(":")
        path = arg if kind == "checkpoint" else spec if spec.endswith(".zip") else None
        if path is None or not glob.has_magic(path):
            out.append(given)
            continue
        matches = sorted(glob.glob(path), key=_natural)
        if not matches:
            raise AgentSpecError(f"no checkpoint matches {path!r}")
        option = f",{ALLOW_RULES_MISMATCH}" if allow else ""  # kept on every file the pattern matches
        out.extend(f"checkpoint:{m}{option}" for m in matches)
    return list(dict.fromkeys(out))


def validate(study: Study) -> None:
    """Build the game and every agent once here, so bad input fails before any work starts."""
    game = study.make_game()
    study.estimator(game)
    for spec in {*study.agents, study.opponents} - {SELF}:
        agent_factory(spec, game)


_WORKER: dict[str, Any] = {}


def _init_worker(study: Study) -> None:
    game = study.make_game()
    _WORKER.update(study=study, game=game, estimator=study.estimator(game), factories={})


def _play_chunk(task: tuple[str, int, int]) -> tuple[str, int, list[Decision]]:
    agent, start, stop = task
    study: Study = _WORKER["study"]
    records = record_deals(_WORKER["game"], agent, study.opponents, range(start, stop), _WORKER["estimator"],
                           study.seed, _WORKER["factories"], random_carry=study.random_carry,
                           records_to=study.records, preset=study.preset)
    return agent, start, records


def tasks(study: Study, workers: int) -> list[tuple[str, int, int]]:
    size = max(1, min(50, math.ceil(study.deals / (8 * workers))))
    return [(a, s, min(s + size, study.deals)) for a in study.agents for s in range(0, study.deals, size)]


def run_study(study: Study, workers: int = 1, progress: bool = True) -> Results:
    """Record every agent's decisions over ``study.deals`` deals (raises on bad specs before playing)."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers={workers!r}: a whole number >= 1")
    validate(study)
    jobs = tasks(study, workers)
    began = time.perf_counter()
    with tqdm(total=study.deals * len(study.agents), unit="deal", desc="bluff study", disable=not progress,
              dynamic_ncols=True) as bar:
        parts = run_tasks(jobs, _play_chunk, workers, _init_worker, study,
                          done=lambda job, _: bar.update(job[2] - job[1]))  # in (agent, deal) order
    records: dict[str, list[Decision]] = {a: [] for a in study.agents}
    for agent, _, recs in parts:
        records[agent].extend(recs)
    return Results(study, records, time.perf_counter() - began, workers)
