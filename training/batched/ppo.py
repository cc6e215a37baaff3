"""The clipped PPO update (Schulman et al. 2017, as CleanRL's ppo.py writes it) over a rollout's batch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from training.batched.network import ActorCritic, entropy, masked_log_probs
from training.batched.rollout import Batch
from training.batched.sparse import sparse_rows

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
           generator: torch.Generator, anchor: ActorCritic | None = None) -> dict[str, float]:
    """``settings.epochs`` passes over ``batch`` in shuffled minibatches; returns the update's metrics.
    ``anchor``: a frozen policy the loss keeps the learner near (``settings.anchor_coef``), or None."""
    tensors = {name: torch.from_numpy(getattr(batch, name)) for name in
               ("mask", "actions", "log_probs", "values", "advantages", "returns")}
    tensors["obs"] = sparse_rows(torch.from_numpy(batch.obs))  # once: every minibatch takes its rows
    if anchor is not None and settings.anchor_coef > 0:  # once too: the anchor is frozen, every epoch reads them
        with torch.no_grad():
            tensors["anchor_log_probs"] = masked_log_probs(anchor.logits(tensors["obs"]), tensors["mask"])
    totals: dict[str, list[float]] = {}
    stopped = False
    for _ in range(settings.epochs):
        order = torch.randperm(len(batch), generator=generator)
        for start in range(0, len(batch), settings.minibatch_size):
            part = {name: t[order[start:start + settings.minibatch_size]] for name, t in tensors.items()}
            metrics = minibatch_step(policy, optimizer, part, settings)
            for name, value in metrics.items():
                totals.setdefault(name, []).append(value)
            if settings.target_kl is not None and metrics["approx_kl"] > settings.target_kl:
                stopped = True
                break
        if stopped:
            break
    out = {name: float(np.mean(values)) for name, values in totals.items()}
    out["explained_variance"] = explained_variance(batch.values, batch.returns)
    out["kl_stop"] = float(stopped)
    return out


def minibatch_step(policy: ActorCritic, optimizer: torch.optim.Optimizer, part: dict[str, Any],
                   settings: UpdateSettings) -> dict[str, float]:
    """One gradient step on one minibatch: clipped surrogate + value loss - entropy bonus (+ the anchor's KL)."""
    logits, values = policy(part["obs"])
    log_probs = masked_log_probs(logits, part["mask"])
    new_log_prob = log_probs.gather(1, part["actions"][:, None]).squeeze(1)
    log_ratio = new_log_prob - part["log_probs"]
    ratio = log_ratio.exp()
    advantages = part["advantages"]
    advantages = (advantages - advantages.mean()) / (advantages.std(unbiased=False) + 1e-8)
    policy_loss = torch.max(-advantages * ratio,
                            -advantages * ratio.clamp(1 - settings.clip, 1 + settings.clip)).mean()
    value_loss = 0.5 * (values - part["returns"]).pow(2).mean()
    entropy_mean = entropy(log_probs).mean()
    loss = policy_loss + settings.vf_coef * value_loss - settings.ent_coef * entropy_mean
    extra = {}
    if "anchor_log_probs" in part:
        rows = None if settings.anchored is None else part["mask"][:, settings.anchored].any(-1)
        extra["anchor_kl"] = anchor_kl(log_probs, part["anchor_log_probs"], rows)
        loss = loss + settings.anchor_coef * extra["anchor_kl"]
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(policy.parameters(), MAX_GRAD_NORM)
    optimizer.step()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - log_ratio).mean()  # the low-variance estimator (CleanRL, J. Schulman's blog)
        clip_fraction = ((ratio - 1).abs() > settings.clip).float().mean()
    return {"policy_loss": float(policy_loss.detach()), "value_loss": float(value_loss.detach()),
            "entropy": float(entropy_mean.detach()),
            "approx_kl": float(approx_kl), "clip_fraction": float(clip_fraction),
            **{name: float(value.detach()) for name, value in extra.items()}}


def anchor_kl(log_probs: torch.Tensor, reference: torch.Tensor, rows: torch.Tensor | None = None) -> torch.Tensor:
    """Mean KL(policy || anchor) over the minibatch's legal actions: the pull back toward the anchor (AlphaStar's
    KL to its supervised policy, R-NaD's regularisation toward a fixed policy), so self-play improves on the
    policy it started from instead of drifting away from what it knew. Illegal actions have probability ~0 under
    both masked policies and add nothing. ``reference``: the anchor's masked log-probabilities, computed once
    per update. ``rows`` (bool): the mean over those decisions only (``batched.anchor_actions``; none in the
    minibatch: 0)."""
    kl = (log_probs.exp() * (log_probs - reference)).sum(-1)
    if rows is None:
        return kl.mean()
    return (kl * rows).sum() / rows.sum().clamp(min=1)


def explained_variance(predicted: np.ndarray, target: np.ndarray) -> float:
    """1 - Var(target - predicted) / Var(target): 1 is a perfect value function, 0 no better than a constant."""
    variance = float(np.var(target))
    return float("nan") if variance == 0 else 1.0 - float(np.var(target - predicted)) / variance
