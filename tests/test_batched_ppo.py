"""The PPO update's decisions with one legal action (training/batched/ppo.py, ``choices_first``): the policy tower
skips them (but for a few that round its rows up to a block, ``policy_rows``), and the update is the one that runs
every decision through both towers, to float rounding: the same weights after several minibatch steps, the same
metrics, with and without an anchor."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch

from training.batched import ppo
from training.batched.network import ActorCritic
from training.batched.ppo import UpdateSettings, choices_first, policy_rows, update, with_choices_first
from training.batched.rollout import Batch

OBS, ACTIONS, ROWS = 30, 6, 96
SETTINGS = UpdateSettings(epochs=2, minibatch_size=32, clip=0.2, ent_coef=0.01, vf_coef=0.5, target_kl=None)


def decisions(seed: int, forced_log_prob: float | None = 0.0) -> Batch:
    """Made-up decisions, a third of them with one legal action, spread through the batch. Their stored
    log-probability is 0 as the rollout records it, or (``forced_log_prob=None``) any number, as made-up data may
    hold: the update must not assume it."""
    rng = np.random.default_rng(seed)
    obs = (rng.random((ROWS, OBS)) * (rng.random((ROWS, OBS)) < 0.3)).astype(np.float32)
    mask = rng.random((ROWS, ACTIONS)) < 0.6
    mask[:, 0] = True
    forced = rng.random(ROWS) < 0.35
    mask[forced] = np.eye(ACTIONS, dtype=bool)[rng.integers(0, ACTIONS, forced.sum())]
    actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
    floats = lambda: rng.normal(size=ROWS).astype(np.float32)  # noqa: E731
    log_probs = -np.abs(floats()) - 0.5
    if forced_log_prob is not None:
        log_probs[forced] = forced_log_prob
    return Batch(obs, mask, actions, log_probs, floats(), floats(), floats())


def run_update(net: ActorCritic, batch: Batch, settings: UpdateSettings = SETTINGS,
               anchor: ActorCritic | None = None) -> tuple[dict[str, torch.Tensor], dict[str, float]]:
    net = copy.deepcopy(net)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)  # weights linear in the gradients (Adam's first steps
    # are nearly their signs, blind to a small difference)
    metrics = update(net, optimizer, batch, settings, torch.Generator().manual_seed(0), anchor)
    return net.state_dict(), metrics


def every_row_through_both_towers(monkeypatch) -> None:
    """The update as it ran before: no reordering, the policy tower on every decision."""
    monkeypatch.setattr(ppo, "choices_first", lambda rows, has_choice: rows)
    monkeypatch.setattr(ppo, "with_choices_first", lambda part: (part, len(part["mask"])))


@pytest.mark.parametrize("block", [1, 8, ppo.POLICY_ROW_BLOCK])
@pytest.mark.parametrize("forced_log_prob", [0.0, None])
@pytest.mark.parametrize("anchored", [False, True])
def test_skipping_the_decisions_without_a_choice_changes_no_weight_and_no_metric(monkeypatch, forced_log_prob,
                                                                                 anchored, block):
    """Block 1 skips every decision without a choice, 8 some, the default (64, above these 32-decision
    minibatches) none: the rows the block adds must add nothing either."""
    monkeypatch.setattr(ppo, "POLICY_ROW_BLOCK", block)
    torch.manual_seed(0)
    net, batch = ActorCritic(OBS, ACTIONS, [16, 16]), decisions(1, forced_log_prob)
    anchor, settings = None, SETTINGS
    if anchored:
        anchor = ActorCritic(OBS, ACTIONS, [16, 16])
        settings = UpdateSettings(**{**SETTINGS.__dict__, "anchor_coef": 0.5, "anchored": torch.tensor([1, 2])})
    weights, metrics = run_update(net, batch, settings, anchor)
    every_row_through_both_towers(monkeypatch)
    reference, reference_metrics = run_update(net, batch, settings, anchor)
    moved = max(float((reference[k] - net.state_dict()[k]).abs().max()) for k in reference)
    assert moved > 1e-3  # the steps are not nothing
    for key, value in reference.items():
        assert torch.allclose(weights[key], value, atol=1e-6), key
    assert metrics.keys() == reference_metrics.keys() and ("anchor_kl" in metrics) == anchored
    for name, value in reference_metrics.items():
        assert metrics[name] == pytest.approx(value, rel=1e-5, abs=1e-6), name


def policy_and_value_rows(batch: Batch) -> tuple[list[int], list[int]]:
    """The rows the policy head and the value head read in each minibatch of an update of ``batch``."""
    net = ActorCritic(OBS, ACTIONS, [16, 16])
    seen: list[int] = []
    net.action_net.register_forward_hook(lambda module, inputs, output: seen.append(len(inputs[0])))
    net.value_net.register_forward_hook(lambda module, inputs, output: seen.append(-len(inputs[0])))
    update(net, torch.optim.Adam(net.parameters()), batch, SETTINGS, torch.Generator().manual_seed(0))
    return [n for n in seen if n >= 0], [-n for n in seen if n < 0]


def test_the_policy_tower_reads_only_the_decisions_with_a_choice(monkeypatch):
    monkeypatch.setattr(ppo, "POLICY_ROW_BLOCK", 1)
    batch = decisions(2)
    policy_rows_read, value_rows = policy_and_value_rows(batch)
    assert value_rows == [SETTINGS.minibatch_size] * (SETTINGS.epochs * ROWS // SETTINGS.minibatch_size)
    choices = int((batch.mask.sum(1) > 1).sum())
    assert sum(policy_rows_read) == SETTINGS.epochs * choices < sum(value_rows)


def test_the_policy_tower_reads_its_rows_in_blocks(monkeypatch):
    """With blocks of 8 every minibatch's policy rows are a multiple of 8 (or the whole minibatch), at most 7
    more than its decisions with a choice, which the block-1 update reads in the same minibatches."""
    batch = decisions(2)
    monkeypatch.setattr(ppo, "POLICY_ROW_BLOCK", 1)
    exact, _ = policy_and_value_rows(batch)
    monkeypatch.setattr(ppo, "POLICY_ROW_BLOCK", 8)
    blocked, _ = policy_and_value_rows(batch)
    assert len(blocked) == len(exact) and blocked != exact
    for rows, choices in zip(blocked, exact, strict=True):
        assert rows % 8 == 0 or rows == SETTINGS.minibatch_size
        assert choices <= rows < choices + 8


def test_policy_rows_rounds_up_to_the_block_within_the_minibatch():
    block = ppo.POLICY_ROW_BLOCK
    assert [policy_rows(n, 4096) for n in (0, 1, block, block + 1, 4095)] == [0, block, block, 2 * block, 4096]
    assert policy_rows(3, 40) == min(block, 40) and policy_rows(40, 40) == 40


def test_choices_come_first_in_their_order_whatever_order_the_part_had():
    has_choice = torch.tensor([True, False, True, False, False, True])
    assert choices_first(torch.tensor([5, 4, 3, 2, 1, 0]), has_choice).tolist() == [5, 2, 0, 4, 3, 1]
    mask = has_choice[:, None] | torch.eye(6, 3, dtype=torch.bool)[[2, 0, 1, 0, 1, 1]]  # one legal action or three
    part = {"mask": mask, "actions": torch.arange(6)}
    ordered, choices = with_choices_first(part)
    assert choices == 3 and ordered["actions"].tolist() == [0, 2, 5, 1, 3, 4]
    again, choices = with_choices_first(ordered)
    assert again is ordered and choices == 3  # update() gathers them so: nothing to do
