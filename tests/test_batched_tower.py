"""The update's towers in one autograd function (training/batched/tower.py): its tanh within 5 units in the last place,
its rounding to bfloat16 torch's own, its outputs and gradients those of the modules' bfloat16 path within bfloat16's
rounding, and the rollout's path untouched."""

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

from training.batched import tower  # noqa: E402
from training.batched.network import ActorCritic  # noqa: E402
from training.batched.sparse import sparse_rows  # noqa: E402

BFLOAT16_STEP = 2.0 ** -8


def test_tanh_is_within_five_units_in_the_last_place():
    x = np.concatenate([np.linspace(-12, 12, 200_001), np.logspace(-30, 1.2, 20_001), [0.0, 7.9, 8.0, 50.0]])
    x = np.concatenate([x, -x]).astype(np.float32)
    ours = np.array([tower._tanh(v) for v in x[::7]], np.float32)  # the compiled scalar function, as the kernels
    exact = np.tanh(x[::7].astype(np.float64))
    units = np.abs(ours - exact) / np.spacing(np.abs(exact).astype(np.float32))
    assert units.max() <= 5, units.max()  # 4.4 at most measured; numpy 1.4
    out = torch.empty(len(x), dtype=torch.bfloat16)
    tower._tanh_of_first(x[None], tower.bits(out)[None])
    exact = torch.from_numpy(np.tanh(x))
    assert ((out.float() - exact).abs() <= BFLOAT16_STEP * exact.abs()).all()  # one rounding to bfloat16 away


def test_rounding_to_bfloat16_is_torchs():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(100_000).astype(np.float32) * 10.0 ** rng.integers(-40, 38, 100_000),
                        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38, 1.00390625, 1.01171875],
                                 np.float32)]).astype(np.float32)  # the last two are ties to even, down and up
    ours = np.array([tower._narrow(v) for v in x], np.uint16)
    theirs = tower.bits(torch.from_numpy(x).bfloat16())
    nan = np.isnan(x)
    assert np.array_equal(ours[~nan], theirs[~nan])
    assert np.isnan(torch.from_numpy(ours.view(np.int16)).view(torch.bfloat16).float().numpy()[nan]).all()
    widened = np.array([tower._widen(b) for b in theirs[:2000]], np.float32)
    assert np.array_equal(widened, torch.from_numpy(x[:2000]).bfloat16().float().numpy())


def network(net_arch, seed: int) -> ActorCritic:
    torch.manual_seed(seed)
    net = ActorCritic(70, 9, net_arch)
    net.set_precision(torch.bfloat16, torch.bfloat16)
    return net


def outputs_and_gradients(net: ActorCritic, obs, fused: bool, monkeypatch):
    """The network's logits and values for ``obs`` and the gradients of a fixed loss, with the tower fused or not."""
    monkeypatch.setattr(tower, "njit", tower.njit if fused else None)  # tower_applies: no numba, the modules' path
    net.zero_grad()
    logits, values = net(obs, policy_rows=len(obs) - 5)
    weights = torch.linspace(-1, 1, logits.numel()).view_as(logits)
    (logits * weights).sum().add_((values * values).sum()).backward()
    return [logits.detach(), values.detach()] + [p.grad.clone() for p in net.parameters()]


@pytest.mark.parametrize("net_arch", [[48], [64, 32], [40, 40, 24], {"pi": [64, 64], "vf": [16]}])
def test_the_fused_tower_is_the_modules_path_within_bfloat16_rounding(net_arch, monkeypatch):
    net = network(net_arch, seed=len(str(net_arch)))
    generator = torch.Generator().manual_seed(3)
    obs = sparse_rows((torch.rand(301, 70, generator=generator) < 0.2).float() * torch.rand(301, 70,
                                                                                        generator=generator))
    fused = outputs_and_gradients(net, obs, True, monkeypatch)
    modules = outputs_and_gradients(net, obs, False, monkeypatch)
    names = ["logits", "values"] + [name for name, _ in net.named_parameters()]
    for name, a, b in zip(names, fused, modules, strict=True):
        error = (a - b).norm() / b.norm().clamp(min=1e-12)
        assert error < BFLOAT16_STEP, (name, float(error))  # a value near a tie may round the other way
    assert any(not torch.equal(a, b) for a, b in zip(fused, modules, strict=True))  # the fused path did run


def test_the_update_takes_it_and_the_rollout_does_not():
    net = network([32, 32], seed=1)
    obs = sparse_rows(torch.rand(20, 70))
    logits, values = net(obs)
    assert type(logits.grad_fn).__name__ == "BFloat16TowerBackward"
    assert "BFloat16Tower" in type(values.grad_fn.next_functions[0][0]).__name__  # the squeeze before it
    with torch.no_grad():  # the rollout: float32 modules, as CheckpointAgent plays them
        exact = net(obs)
    net.set_precision(torch.float32, torch.float32)
    with torch.no_grad():
        assert all(torch.equal(a, b) for a, b in zip(exact, net(obs), strict=True))
    logits, _ = net(obs)
    assert type(logits.grad_fn).__name__ != "BFloat16TowerBackward"  # float32 products: the modules' path
    net.set_precision(torch.bfloat16, torch.float32)
    assert type(net(obs)[0].grad_fn).__name__ != "BFloat16TowerBackward"  # a float32 forward too
    net.set_precision(torch.bfloat16, torch.bfloat16)
    net.mlp_extractor.policy_net[2].forward_dtype = torch.float32  # one layer of the tower set apart: not fused
    logits, values = net(obs)
    assert type(logits.grad_fn).__name__ != "BFloat16TowerBackward"
    assert "BFloat16Tower" in type(values.grad_fn.next_functions[0][0]).__name__  # the other tower still is


def test_no_rows_and_a_tower_without_hidden_layers():
    net = network([16], seed=2)
    logits, values = net(sparse_rows(torch.rand(6, 70)), policy_rows=0)
    assert logits.shape == (0, 9) and values.shape == (6,)
    (logits.sum() + values.sum()).backward()
    assert all(torch.isfinite(p.grad).all() for p in net.parameters())
    assert not math.isnan(float(net.action_net.weight.grad.abs().sum()))
    flat = network([], seed=3)  # no hidden layer: the heads read the observation, nothing to fuse
    logits, _ = flat(sparse_rows(torch.rand(4, 70)))
    assert type(logits.grad_fn).__name__ != "BFloat16TowerBackward"
