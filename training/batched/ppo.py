"""The clipped PPO update (Schulman et al. 2017, as CleanRL's ppo.py writes it) over a rollout's batch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from training.batched.elementwise import exp
from training.batched.network import ActorCritic, entropy, masked_log_probs
from training.batched.parallel import SOLO, Solo, minibatch_parts
from training.batched.rollout import Batch
from training.batched.sparse import SparseObs, sparse_rows

MAX_GRAD_NORM = 0.5
"""Global gradient-norm clip, SB3's and CleanRL's default."""


@dataclass(frozen=True)
class UpdateSettings:
    """The update's knobs (copied from the run's BatchedConfig)."""

    epochs: int
    minibatch_size: int
    clip: float
    ent_coef: float
    vf_coef: float
    target_kl: float | None  # stop the epochs early once a minibatch's approx_kl exceeds it
    anchor_coef: float = 0.0  # weight of KL(policy || anchor) in the loss (0: no anchor)
    anchored: torch.Tensor | None = None  # action ids: the KL only at decisions where one is legal (None: all)


def update(policy: ActorCritic, optimizer: torch.optim.Optimizer, batch: Batch, settings: UpdateSettings,
           generator: torch.Generator, anchor: ActorCritic | None = None, group: Solo = SOLO) -> dict[str, float]:
    """``settings.epochs`` passes over ``batch`` in shuffled minibatches; returns the update's metrics.
    ``anchor``: a frozen policy the loss keeps the learner near (``settings.anchor_coef``), or None. ``group``: the
    learner processes (parallel.py); with several, each passes its own batch and every minibatch takes a part of
    each, so together they take the steps one process would take on all their decisions."""
    tensors = {name: torch.from_numpy(getattr(batch, name)) for name in
               ("mask", "actions", "log_probs", "values", "advantages", "returns")}
    tensors["obs"] = batch.obs if isinstance(batch.obs, SparseObs) else sparse_rows(torch.from_numpy(batch.obs))
    if anchor is not None and settings.anchor_coef > 0:  # once too: the anchor is frozen, every epoch reads them
        with torch.no_grad():
            tensors["anchor_log_probs"] = masked_log_probs(anchor.logits(tensors["obs"]), tensors["mask"])
    count, rows, totals = minibatch_parts(group.counts(len(batch)), settings.minibatch_size, group.rank)
    has_choice = tensors["mask"].sum(1) > 1
    history: dict[str, list[float]] = {}
    stopped = False
    for _ in range(settings.epochs):
        order = torch.randperm(len(batch), generator=generator)
        for k in range(count):
            chosen = choices_first(order[k * rows:(k + 1) * rows], has_choice)
            part = {name: t.index_select(0, chosen) for name, t in tensors.items()}  # 4x faster than t[chosen]
            metrics = minibatch_step(policy, optimizer, part, settings, group, totals[k])
            for name, value in metrics.items():
                history.setdefault(name, []).append(value)
            if settings.target_kl is not None and metrics["approx_kl"] > settings.target_kl:
                stopped = True
                break
        if stopped:
            break
    out = {name: float(np.mean(values)) for name, values in history.items()}
    out["explained_variance"] = explained_variance(batch.values, batch.returns)
    out["kl_stop"] = float(stopped)
    return out


def choices_first(rows: torch.Tensor, has_choice: torch.Tensor) -> torch.Tensor:
    """``rows`` (a minibatch's decisions) with those that had a choice of actions first, each part in its order.
    A decision with one legal action has log-probability 0 under every masked policy, so its policy gradient,
    entropy and KL are 0: only the value tower needs it, and the policy tower, half the network, runs on the
    leading rows only (minibatch_loss). A fifth of a general Toepen batch is such decisions (the last trick's
    card, for one); the network's forward and backward take about 1.1x less time (docs/results.md)."""
    chosen = has_choice.index_select(0, rows)
    return torch.cat([rows[chosen], rows[~chosen]])


METRICS = ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction")
"""The per-decision means every minibatch reports (and ``anchor_kl`` with an anchor)."""


def minibatch_step(policy: ActorCritic, optimizer: torch.optim.Optimizer, part: dict[str, Any],
                   settings: UpdateSettings, group: Solo = SOLO, total: int | None = None) -> dict[str, float]:
    """One gradient step on one minibatch: clipped surrogate + value loss - entropy bonus (+ the anchor's KL).
    ``total``: the minibatch's decisions over every process (``part`` holds this one's, perhaps none). Every term is
    a sum over this process's decisions divided by the minibatch's count over all of them, the advantages are
    normalised by the minibatch's mean and spread over all of them, and the gradients and metrics are added over the
    processes before the step: the loss of the whole minibatch, whichever process computed which part."""
    total = len(part["actions"]) if total is None else total
    anchored = part_rows_anchored(part, settings)
    stats = group.add(torch.tensor([part["advantages"].double().sum(), part["advantages"].double().pow(2).sum(),
                                    anchored.sum() if anchored is not None else 0], dtype=torch.float64))
    held = max(float(stats[2]), 1.0) if anchored is not None else total  # the decisions the anchor's KL covers
    optimizer.zero_grad(set_to_none=True)
    sums = torch.zeros(len(METRICS) + 1, dtype=torch.float64)
    if len(part["actions"]):
        loss, sums = minibatch_loss(policy, part, settings, stats, total, held)
        loss.backward()
    add_gradients(policy, sums, group)
    torch.nn.utils.clip_grad_norm_(policy.parameters(), MAX_GRAD_NORM)
    optimizer.step()
    out = {name: float(value) / total for name, value in zip(METRICS, sums, strict=False)}
    if "anchor_log_probs" in part:
        out["anchor_kl"] = float(sums[-1]) / held
    return out


def part_rows_anchored(part: dict[str, Any], settings: UpdateSettings) -> torch.Tensor | None:
    """The decisions the anchor holds (``batched.anchor_actions``), or None: all of them, or no anchor."""
    if "anchor_log_probs" not in part or settings.anchored is None:
        return None
    return part["mask"][:, settings.anchored].any(-1)


def minibatch_loss(policy: ActorCritic, part: dict[str, Any], settings: UpdateSettings, stats: torch.Tensor,
                   total: int, held: float) -> tuple[torch.Tensor, torch.Tensor]:
    """This process's share of the minibatch's loss, and its metrics' sums (``METRICS``, then the anchor's KL).
    ``stats``: the advantages' sum and sum of squares over every process; ``held``: the decisions the anchor's KL
    is averaged over."""
    part, choices = with_choices_first(part)
    read = policy_rows(choices, len(part["actions"]))  # the policy tower's rows: those with a choice, and a few more
    logits, values = policy(part["obs"], policy_rows=read)
    log_probs = masked_log_probs(logits, part["mask"][:read])
    new_log_prob = F.pad(log_probs.gather(1, part["actions"][:read, None]).squeeze(1),
                         (0, len(values) - read))  # a decision with one legal action: log-probability 0
    log_ratio = new_log_prob - part["log_probs"]
    ratio = log_ratio.exp()
    mean = stats[0] / total
    spread = (stats[1] / total - mean * mean).clamp(min=0).sqrt()
    advantages = ((part["advantages"] - mean) / (spread + 1e-8)).float()
    policy_loss = torch.max(-advantages * ratio,
                            -advantages * ratio.clamp(1 - settings.clip, 1 + settings.clip)).sum()
    value_loss = 0.5 * (values - part["returns"]).pow(2).sum()
    entropy_sum = entropy(log_probs).sum()
    loss = (policy_loss + settings.vf_coef * value_loss - settings.ent_coef * entropy_sum) / total
    kl = torch.zeros((), dtype=loss.dtype)
    if "anchor_log_probs" in part:
        anchored = part_rows_anchored(part, settings)
        kl = anchor_kl_sum(log_probs, part["anchor_log_probs"][:read],
                           None if anchored is None else anchored[:read])
        loss = loss + settings.anchor_coef * kl / held
    with torch.no_grad():
        approx_kl = ((ratio - 1) - log_ratio).sum()  # the low-variance estimator (CleanRL, J. Schulman's blog)
        clip_fraction = ((ratio - 1).abs() > settings.clip).float().sum()
    sums = torch.stack([policy_loss, value_loss, entropy_sum, approx_kl, clip_fraction, kl]).detach().double()
    return loss, sums


POLICY_ROW_BLOCK = 64
"""The policy tower's rows in a minibatch are rounded up to a multiple of this (policy_rows)."""


def policy_rows(choices: int, rows: int) -> int:
    """How many of a minibatch's leading ``rows`` the policy tower reads: its ``choices`` (the decisions with a choice
    come first), rounded up to a multiple of ``POLICY_ROW_BLOCK``. The rows it adds are decisions with one legal
    action, whose log-probability is exactly 0 under every masked policy, so they add exactly nothing to the loss,
    its gradient or a metric. Why: oneDNN, which computes the bfloat16 gradient products (precision.py), compiles a
    kernel for every new matrix shape and keeps it for the next; the count of decisions with a choice differs in
    every minibatch, so each step compiled four (about 2 ms each on an Intel Xeon with AMX, a fifth of the update).
    Rounded, the shapes repeat from the first iterations on: the learner about 1.1x per CPU-second there (7 alternated
    pairs of processes, median 1.12x), for at most 63 rows more through half the network (docs/results.md, "The
    policy tower's rows in blocks of 64")."""
    return min(rows, -(-choices // POLICY_ROW_BLOCK) * POLICY_ROW_BLOCK)


def with_choices_first(part: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``part`` with its decisions that had a choice (more than one legal action) first, and how many they are;
    update() gathers them so already (choices_first), and ``part`` is then returned as it is."""
    has_choice = part["mask"].sum(1) > 1
    choices = int(has_choice.sum())
    if not bool(has_choice[:choices].all()):
        order = choices_first(torch.arange(len(has_choice)), has_choice)
        part = {name: t.index_select(0, order) for name, t in part.items()}
    return part, choices


def add_gradients(policy: ActorCritic, sums: torch.Tensor, group: Solo) -> None:
    """Every process's gradients and metric sums added (one exchange; nothing to add for one process)."""
    if group.size == 1:
        return
    for parameter in policy.parameters():
        if parameter.grad is None:  # this process had no decision in the minibatch (or none yet reached it)
            parameter.grad = torch.zeros_like(parameter)
    group.add_all([*(p.grad for p in policy.parameters()), sums])


def anchor_kl_sum(log_probs: torch.Tensor, reference: torch.Tensor, rows: torch.Tensor | None = None) -> torch.Tensor:
    """KL(policy || anchor) summed over the decisions (``rows``, bool: those only, ``batched.anchor_actions``): the
    pull back toward the anchor (AlphaStar's KL to its supervised policy, R-NaD's regularisation toward a fixed
    policy), so self-play improves on the policy it started from instead of drifting away from what it knew. The
    loss divides it by the decisions it covers. Illegal actions have probability ~0 under both masked policies and
    add nothing. ``reference``: the anchor's masked log-probabilities, computed once per update."""
    kl = (exp(log_probs) * (log_probs - reference)).sum(-1)
    return kl.sum() if rows is None else (kl * rows).sum()


def explained_variance(predicted: np.ndarray, target: np.ndarray) -> float:
    """1 - Var(target - predicted) / Var(target): 1 is a perfect value function, 0 no better than a constant."""
    variance = float(np.var(target))
    return float("nan") if variance == 0 else 1.0 - float(np.var(target - predicted)) / variance
