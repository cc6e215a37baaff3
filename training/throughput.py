"""The one timing loop for raw environment speed: uniform random legal play through the AEC API.

Shared by ``benchmarks/env_throughput.py`` (wall clock, beside PettingZoo peers) and
``rams baselines`` (CPU clock, beside the evaluator), so both quote the same loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np


def random_play(env, seconds: float, seed: int = 0,
                clock: Callable[[], float] = time.perf_counter) -> tuple[float, float]:
    """(decisions/s, deals/s) of uniform random legal play for about ``seconds`` of ``clock``."""
    rng = np.random.default_rng(seed)
    decisions = deals = 0
    start = clock()
    while clock() - start < seconds:
        env.reset(seed=seed + deals)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            decisions += 1
        deals += 1
    elapsed = clock() - start
    return decisions / elapsed, deals / elapsed
