"""Warm start by imitation: the learner copies a teacher's decisions before PPO begins.

PPO from a random network spends most of its budget rediscovering what a rule-based player
already knows (follow suit sensibly, keep trumps, stay out of weak pots), and in the pot
games it settled level with the heuristic rather than above it (docs/results.md). Starting
from a network that already plays like the teacher lets PPO spend its budget on what the
teacher does *not* know. The same idea opens AlphaGo's and AlphaStar's training.

The warm start records ``decisions`` of the teacher sitting in the learner's seat of the
training environment (the same single-seat view, the same opponent pool and deal mixture),
then fits the network for ``epochs`` by supervised learning:

- the actor: cross-entropy of the teacher's action under the legal-action mask;
- the critic: squared error to the discounted return that followed the decision (in the
  learner's scaled reward units), so PPO's first advantages are not noise from a random
  value head that would pull the copied policy apart.

A tenth of the decisions is held out; the share of its real choices where the network's greedy
action is the teacher's (``agreement``) and the losses are logged to TensorBoard and the run's history.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from tqdm import tqdm

from agents.base import Agent
from training.single_seat import SingleSeatEnv

HELD_OUT = 0.1
"""Share of the recorded decisions kept out of the fit to measure agreement on unseen decisions."""


@dataclass
class Demonstrations:
    """The teacher's decisions in the learner's seat, as tensors the policy consumes."""

    observations: torch.Tensor  # float32 (n, observation size); the batched trainer keeps its records compact
    # (training/batched/imitation.py CompactRows: rows, slices and batches as here, made dense by its ``dense``)
    masks: torch.Tensor  # bool (n, actions)
    actions: torch.Tensor  # int64 (n,)
    returns: torch.Tensor  # float32 (n,): discounted scaled reward from the decision to the deal's end

    def __len__(self) -> int:
        return len(self.actions)

    def split(self, share: float) -> tuple[Demonstrations, Demonstrations]:
        """(fit, held out): the last ``share`` of the decisions held out (whole deals stay mostly together)."""
        cut = len(self) - max(1, int(round(len(self) * share)))
        head = Demonstrations(*(t[:cut] for t in self._tensors()))
        tail = Demonstrations(*(t[cut:] for t in self._tensors()))
        return head, tail

    def batch(self, index: torch.Tensor) -> Demonstrations:
        return Demonstrations(*(t[index] for t in self._tensors()))

    def _tensors(self) -> tuple[torch.Tensor, ...]:
        return self.observations, self.masks, self.actions, self.returns


def discounted(rewards: list[float], gamma: float) -> list[float]:
    """Return-to-go of every step of one episode."""
    out, running = [0.0] * len(rewards), 0.0
    for i in range(len(rewards) - 1, -1, -1):
        running = rewards[i] + gamma * running
        out[i] = running
    return out


def record(env: SingleSeatEnv, teacher: Agent, decisions: int, gamma: float, seed: int,
           progress: bool = True) -> Demonstrations:
    """Play whole deals with ``teacher`` in the learner's seat until ``decisions`` are recorded.

    The teacher is reset before every deal, as the Agent protocol promises (a new episode begins), with a seed
    derived from ``seed`` and the deal's number, so its private randomness is reproducible too.
    """
    observations, masks, actions, returns = [], [], [], []
    obs, _ = env.reset(seed=seed)
    deals = 0
    teacher.reset(seed)
    rewards: list[float] = []
    with tqdm(total=decisions, unit="decision", desc="warm start: recording the teacher", disable=not progress,
              dynamic_ncols=True) as bar:
        while len(actions) < decisions or rewards:
            mask = env.action_masks()
            action = teacher.act(obs, mask, env.aec.view(env.learner))
            observations.append(obs)
            masks.append(mask)
            actions.append(action)
            obs, reward, done, _, _ = env.step(action)
            rewards.append(reward)
            bar.update(1)
            bar.total = max(bar.total, bar.n)  # the last deal is recorded whole, past the count
            if done:  # a deal is recorded whole, so its returns are complete
                returns.extend(discounted(rewards, gamma))
                rewards, deals = [], deals + 1
                obs, _ = env.reset()
                teacher.reset(seed + deals)
    return Demonstrations(torch.as_tensor(np.array(observations), dtype=torch.float32),
                          torch.as_tensor(np.array(masks), dtype=torch.bool),
                          torch.as_tensor(actions, dtype=torch.int64),
                          torch.as_tensor(returns, dtype=torch.float32))


def losses(policy, data: Demonstrations) -> tuple[torch.Tensor, torch.Tensor]:
    """(actor cross-entropy, critic squared error) of ``policy`` on ``data``."""
    values, log_prob, _ = policy.evaluate_actions(data.observations, data.actions, data.masks)
    return -log_prob.mean(), torch.nn.functional.mse_loss(values.flatten(), data.returns)


def agreement(policy, data: Demonstrations) -> float:
    """Share of ``data``'s real choices (two or more legal actions) where the greedy action is the teacher's.

    Forced moves are left out: they are a large share in some games and would flatter any network.
    """
    choices = data.batch(torch.nonzero(data.masks.sum(dim=1) > 1).flatten())
    if not len(choices):
        return 1.0
    with torch.no_grad():
        greedy = policy.get_distribution(choices.observations, action_masks=choices.masks.numpy()).mode()
    return float((greedy == choices.actions).float().mean())


def fit_generator(fit_seed: int) -> torch.Generator | None:
    """The generator of a fit's minibatch order (``warm_start.fit_seed``). 0: None, torch's global generator where
    the network's build left it after the run's seed (how every shipped recipe was fitted); another number: a
    generator of its own seeded by it, so the order no longer depends on what drew from the global one before."""
    return torch.Generator().manual_seed(fit_seed) if fit_seed else None


def fit_epochs(loss, data: Demonstrations, optimizer: torch.optim.Optimizer, parameters, epochs: int,
               batch_size: int, progress: bool, generator: torch.Generator | None = None) -> None:
    """``epochs`` passes of minibatch descent on ``loss(batch)`` over ``data`` in random order (drawn from
    ``generator``, torch's global one when None), the gradient clipped to norm 0.5 as PPO clips it
    (``parameters``: a callable giving the parameters to clip)."""
    for _ in tqdm(range(epochs), desc="warm start: imitating", unit="epoch", disable=not progress,
                  dynamic_ncols=True):
        for index in torch.randperm(len(data), generator=generator).split(batch_size):
            optimizer.zero_grad()
            loss(data.batch(index)).backward()
            torch.nn.utils.clip_grad_norm_(parameters(), 0.5)
            optimizer.step()


def fit(policy, data: Demonstrations, epochs: int, batch_size: int, learning_rate: float,
        value_coef: float, progress: bool = True, fit_seed: int = 0) -> dict[str, float]:
    """Supervised fit of actor and critic on the teacher's decisions; metrics on the held-out share. ``fit_seed``:
    the minibatches' order (:func:`fit_generator`)."""
    train, held_out = data.split(HELD_OUT)
    for group in policy.optimizer.param_groups:  # PPO resets the rate from its own schedule at each update
        group["lr"] = learning_rate

    def loss(batch: Demonstrations) -> torch.Tensor:
        actor, critic = losses(policy, batch)
        return actor + value_coef * critic

    policy.set_training_mode(True)
    fit_epochs(loss, train, policy.optimizer, policy.parameters, epochs, batch_size, progress,
               fit_generator(fit_seed))
    policy.set_training_mode(False)
    with torch.no_grad():
        actor, critic = losses(policy, held_out)
    return {"decisions": len(data), "agreement": agreement(policy, held_out),
            "actor_loss": float(actor), "value_loss": float(critic)}
