"""The one timing loop for raw environment speed: uniform random legal play through the AEC API.

Shared by ``benchmarks/env_throughput.py`` (beside PettingZoo peers) and ``rams baselines``
(beside the evaluator), so both quote the same loop: the one PettingZoo's users write
(seed once, then ``reset()`` for every further episode), timed on a CPU clock of the
measuring process so that other processes on a shared machine do not count.
"""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np


def cpu_seconds() -> float:
    """User plus system CPU time of this process (``os.times``), children excluded."""
    times = os.times()
    return times.user + times.system


def pin_one_core() -> int | None:
    """Run on one core (the first this process may use), as the peers' figures assume."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


def measured_code() -> str:
    """Which rams code a measurement imports: its directory and that checkout's commit (``+`` if modified); on a
    second line the machine (``measured_machine``).

    Why: the package is installed editable, so a script run from another checkout (a git worktree sharing the
    virtualenv) imports the installed checkout's code, not its own, unless PYTHONPATH names it. A before/after
    comparison of two worktrees then measures one code twice; the benchmarks print this line so it shows.
    """
    root = Path(__file__).resolve().parent.parent
    return f"code measured: {root} at {code_commit() or 'an unknown commit'}\n{measured_machine()}"


def code_commit() -> str:
    """The commit of the rams checkout this process imports, with ``+`` if its tracked files are modified ("":
    not a git checkout)."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return f"{commit}{'+' if dirty and commit else ''}"


def measured_machine(cpuinfo: str | None = None) -> str:
    """The CPU a measurement ran on: its model, the cores this process may use, and its bfloat16 dot products.

    Why: a ratio to a peer moves with the kind of CPU, not only with the code (2026-12-05, docs/results.md: the
    batched learner's ratio to Leduc's MaskablePPO was 8.9-11.2x on an AMD EPYC and 6.4-8.0x on an Intel Xeon,
    whose faster cores speed Leduc's Python-bound steps more than the learner's arrays). ``cpuinfo``: the text of
    /proc/cpuinfo (read from the machine when None; elsewhere the platform's processor name)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            cpuinfo = ""
    fields = dict(line.split(":", 1) for line in cpuinfo.splitlines()[:60] if ":" in line)
    fields = {key.strip(): value.strip() for key, value in fields.items()}
    model = fields.get("model name") or platform.processor() or "an unknown CPU"
    flags = set(fields.get("flags", "").split())
    bfloat16 = "AMX" if "amx_bf16" in flags else "AVX512-BF16" if "avx512_bf16" in flags else "none"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"machine: {model}, {cores} cores for this process, bfloat16 dot products: {bfloat16}"


def random_play(env, seconds: float, seed: int = 0,
                clock: Callable[[], float] = cpu_seconds) -> tuple[float, float]:
    """(decisions/s, deals/s) of uniform random legal play for about ``seconds`` of ``clock``.

    The environment is seeded once (``reset(seed=seed)``) and then reset without a seed,
    as in PettingZoo's examples; reseeding every deal costs a poker env several times
    what a rams deal costs and would flatter the ratio. The loop is the AEC API's own (``agent_iter``,
    ``last``, ``step``), not the deal loop of agents/table.py: it is what this measures.
    """
    rng = np.random.default_rng(seed)
    decisions = deals = 0
    env.reset(seed=seed)
    start = clock()
    while True:
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
        if elapsed >= seconds:
            return decisions / elapsed, deals / elapsed
        env.reset()


def preset_for(game: str, n: int) -> str | None:
    """The default preset if it seats ``n`` players, else the first preset that does, else None."""
    from rams_env.registry import game_class, make_game

    rules = game_class(game).rules_type
    for preset in rules.preset_names():
        low, high = make_game(game, None, preset=preset).player_range()
        if low <= n <= high:
            return preset
    return None
