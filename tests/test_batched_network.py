"""The batched learner's network is sb3-contrib's maskable MLP: same weights, same outputs; masked sampling."""

from __future__ import annotations

import pytest
import torch

from agents.checkpoint_agent import build_policy
from training.batched.network import ActorCritic, act, entropy, masked_log_probs, sample

OBS, ACTIONS, ARCH = 12, 7, [16, 8]
NARROW_CRITIC = {"pi": [16, 8], "vf": [6]}
"""SB3's mapping form: each tower its own layers (agents/checkpoint/net_arch.py)."""


@pytest.mark.parametrize("arch", [ARCH, NARROW_CRITIC], ids=["list", "pi-vf"])
def test_state_dict_names_and_shapes_are_sb3s(arch):
    ours = ActorCritic(OBS, ACTIONS, arch).state_dict()
    theirs = build_policy(OBS, ACTIONS, arch).state_dict()
    assert {k: v.shape for k, v in ours.items()} == {k: v.shape for k, v in theirs.items()}


def test_a_mapping_gives_each_tower_its_own_layers():
    net = ActorCritic(OBS, ACTIONS, NARROW_CRITIC)
    assert [layer.out_features for layer in net.mlp_extractor.policy_net[::2]] == [16, 8]
    assert [layer.out_features for layer in net.mlp_extractor.value_net[::2]] == [6]
    assert (net.action_net.in_features, net.value_net.in_features) == (8, 6)
    assert net.net_arch == NARROW_CRITIC


@pytest.mark.parametrize("arch", [ARCH, NARROW_CRITIC], ids=["list", "pi-vf"])
def test_weights_load_both_ways_with_the_same_outputs(arch):
    torch.manual_seed(3)
    ours, theirs = ActorCritic(OBS, ACTIONS, arch), build_policy(OBS, ACTIONS, arch)
    obs = torch.rand(5, OBS)
    mask = torch.rand(5, ACTIONS) > 0.4
    mask[:, 0] = True
    for source, target in ((ours, theirs), (theirs, ours)):
        target.load_state_dict(source.state_dict())
        logits, value = ours(obs)
        with torch.no_grad():
            their_values, _, _ = theirs.evaluate_actions(obs, torch.zeros(5), action_masks=mask.numpy())
            dist = theirs.get_distribution(obs, action_masks=mask.numpy())
        assert torch.allclose(value, their_values.squeeze(-1), atol=1e-6)
        assert torch.allclose(masked_log_probs(logits, mask).exp(), dist.distribution.probs, atol=1e-6)
        assert torch.allclose(entropy(masked_log_probs(logits, mask)), dist.entropy(), atol=1e-5)
        torch.manual_seed(4)
        ours.__init__(OBS, ACTIONS, arch)  # fresh weights for the other direction


def test_initialisation_is_orthogonal_with_sb3_gains():
    net = ActorCritic(64, 5, [32, 32])
    first = net.mlp_extractor.policy_net[0].weight  # (32, 64): orthonormal rows times sqrt(2)
    assert torch.allclose(first @ first.T, 2 * torch.eye(32), atol=1e-4)
    assert torch.allclose(net.action_net.weight @ net.action_net.weight.T, 1e-4 * torch.eye(5), atol=1e-7)
    assert not net.value_net.bias.any()


def test_sampling_respects_the_mask_and_the_probabilities():
    generator = torch.Generator().manual_seed(0)
    logits = torch.tensor([[0.0, 1.0, 2.0, 5.0]]).repeat(20000, 1)
    mask = torch.tensor([[True, True, True, False]]).repeat(20000, 1)
    actions = sample(masked_log_probs(logits, mask), generator)
    assert (actions != 3).all()
    share = torch.bincount(actions, minlength=4).float() / len(actions)
    assert torch.allclose(share[:3], torch.softmax(torch.tensor([0.0, 1.0, 2.0]), 0), atol=0.015)


def test_act_returns_the_log_probability_of_the_action_taken():
    net, generator = ActorCritic(OBS, ACTIONS, ARCH), torch.Generator().manual_seed(1)
    obs, mask = torch.rand(50, OBS), torch.rand(50, ACTIONS) > 0.5
    mask[:, 2] = True
    actions, log_probs, values = act(net, obs, mask, generator)
    assert mask[torch.arange(50), actions].all()
    expected = masked_log_probs(net(obs)[0], mask)[torch.arange(50), actions]
    assert torch.allclose(log_probs, expected) and values.shape == (50,)


def test_tanh_is_torchs_to_a_unit_in_the_last_place_with_its_gradient():
    """The network's Tanh (numpy's, for speed) against torch's: values within one float32 unit in the last
    place of the exact tanh, the same gradient; a tensor numpy cannot take (non-contiguous) takes torch's."""
    from training.batched.elementwise import Tanh

    x = (torch.randn(300, 64, generator=torch.Generator().manual_seed(5)) * 4).requires_grad_()
    ours, exact = Tanh()(x), torch.tanh(x.detach().double())
    ulp = torch.finfo(torch.float32).eps * exact.abs().clamp(min=torch.finfo(torch.float32).tiny)
    assert ((ours.detach().double() - exact).abs() <= ulp).all()
    grad = torch.randn_like(x)
    (ours * grad).sum().backward()
    assert torch.allclose(x.grad, grad * (1 - ours.detach() ** 2), atol=1e-6)
    strided = x.detach().t()
    assert not strided.is_contiguous() and torch.equal(Tanh()(strided), torch.tanh(strided))


def test_exp_is_within_two_ulps_with_its_gradient_at_masked_log_probs():
    """``elementwise.exp`` (numpy's: torch's leaves its vector path at masked log-probabilities) against the exact
    exp: within two float32 ulps (torch's is correctly rounded, numpy's float32 exp within 1.7 eps), exactly 0 at
    ``MASKED_LOGIT``, the gradient ``grad * exp``; entropy unchanged."""
    from agents.checkpoint_agent import MASKED_LOGIT
    from training.batched.elementwise import exp

    generator = torch.Generator().manual_seed(6)
    mask = torch.rand(200, 30, generator=generator) < 0.4
    mask[:, 0] = True
    log_probs = masked_log_probs(torch.randn(200, 30, generator=generator) * 3, mask).requires_grad_()
    ours, exact = exp(log_probs), torch.exp(log_probs.detach().double())
    ulp = torch.finfo(torch.float32).eps * exact.clamp(min=torch.finfo(torch.float32).tiny)
    assert ((ours.detach().double() - exact).abs() <= 2 * ulp).all()
    assert (log_probs[~mask] <= MASKED_LOGIT / 2).all() and (ours[~mask] == 0).all()
    grad = torch.randn_like(log_probs)
    (ours * grad).sum().backward()
    assert torch.allclose(log_probs.grad, grad * ours.detach())
    torch_entropy = -(log_probs.detach().exp() * log_probs.detach()).sum(-1)
    assert torch.allclose(entropy(log_probs.detach()), torch_entropy, rtol=1e-6, atol=1e-6)
