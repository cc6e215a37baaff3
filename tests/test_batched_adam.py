"""The batched learner's Adam (training/batched/learner.py ``adam``): torch's fused CPU kernel where torch has it,
the same steps as the loop to float rounding, the loop on a torch without it, and a resumed run keeping its own
kernel whichever one saved the checkpoint (agents/checkpoint/fit.py ``HOW_NOT_WHAT``)."""

from __future__ import annotations

import copy

import pytest
import torch

from agents.checkpoint.fit import fit_optimizer
from training.batched import learner
from training.batched.learner import adam
from training.batched.network import ActorCritic

TORCH_HAS_FUSED_CPU_ADAM = tuple(int(part) for part in torch.__version__.split(".")[:2]) >= (2, 4)


def net() -> ActorCritic:
    torch.manual_seed(0)
    return ActorCritic(20, 5, [16, 16])


def steps(network: ActorCritic, optimizer: torch.optim.Optimizer, count: int = 6) -> None:
    """``count`` steps on gradients that depend only on the step's number, not on the optimizer."""
    for k in range(count):
        generator = torch.Generator().manual_seed(k)
        for parameter in network.parameters():
            parameter.grad = torch.randn(parameter.shape, generator=generator)
        optimizer.step()


@pytest.mark.skipif(not TORCH_HAS_FUSED_CPU_ADAM, reason="torch before 2.4 has no fused Adam on the CPU")
def test_the_learners_adam_is_fused_and_steps_as_the_loop_does():
    fused_net, loop_net = net(), net()
    fused = adam(fused_net.parameters(), 3e-4)
    loop = torch.optim.Adam(loop_net.parameters(), lr=3e-4, eps=1e-5)
    assert fused.param_groups[0]["fused"] is True and not loop.param_groups[0]["fused"]
    steps(fused_net, fused)
    steps(loop_net, loop)
    moved = max(float((a - b).abs().max()) for a, b in zip(fused_net.parameters(), net().parameters(), strict=True))
    assert moved > 1e-3  # six steps of 3e-4 moved the weights
    for a, b in zip(fused_net.parameters(), loop_net.parameters(), strict=True):
        assert torch.allclose(a, b, rtol=0, atol=1e-6)


def test_a_torch_without_the_fused_kernel_gets_the_loop(monkeypatch):
    real = torch.optim.Adam

    def old_torch_adam(parameters, **settings):
        if settings.get("fused"):
            raise RuntimeError("`fused=True` requires all the params to be floating point Tensors of supported "
                               "devices: ['cuda', 'xpu', 'privateuseone'].")
        return real(parameters, **settings)

    monkeypatch.setattr(learner.torch.optim, "Adam", old_torch_adam)
    optimizer = adam(net().parameters(), 3e-4)
    assert not optimizer.param_groups[0]["fused"]
    assert len(optimizer.param_groups[0]["params"]) == len(list(net().parameters()))  # none lost to the first try


@pytest.mark.skipif(not TORCH_HAS_FUSED_CPU_ADAM, reason="torch before 2.4 has no fused Adam on the CPU")
@pytest.mark.parametrize("saved_fused", [False, True])
def test_a_resumed_optimizer_keeps_its_own_kernel_and_the_saved_moments(saved_fused):
    saved_net = net()
    saved = (adam if saved_fused else lambda p, lr: torch.optim.Adam(p, lr=lr, eps=1e-5))(saved_net.parameters(), 3e-4)
    steps(saved_net, saved)
    resumed_net = copy.deepcopy(saved_net)
    resumed = torch.optim.Adam(resumed_net.parameters(), lr=3e-4, eps=1e-5, fused=not saved_fused)
    fit_optimizer(resumed, copy.deepcopy(saved.state_dict()), "last.zip")
    assert bool(resumed.param_groups[0]["fused"]) is (not saved_fused)
    for index, entry in saved.state_dict()["state"].items():
        for key, value in entry.items():
            assert torch.equal(resumed.state_dict()["state"][index][key], value), (index, key)
    steps(saved_net, saved, 2)
    steps(resumed_net, resumed, 2)  # the same two steps on either kernel, from the same moments
    for a, b in zip(saved_net.parameters(), resumed_net.parameters(), strict=True):
        assert torch.allclose(a, b, rtol=0, atol=1e-6)
