"""The dense layers' products in bfloat16 (training/batched/precision.py): the gradient within bfloat16's rounding, the
forward exact or within that rounding as chosen, float32 and no-grad calls nn.Linear's own, the choices validated."""

import pytest

torch = pytest.importorskip("torch")

from torch import nn  # noqa: E402
from torch.nn import functional as F  # noqa: E402

from training.batched.network import ActorCritic  # noqa: E402
from training.batched.precision import (  # noqa: E402
    GRADIENT_PRECISIONS,
    Linear,
    forward_dtype,
    gradient_dtype,
    update_dtypes,
)

BFLOAT16_STEP = 2.0 ** -8  # bfloat16 keeps 8 significant bits: a rounding moves a value by at most half this


def layer_pair(out_features: int, seed: int) -> tuple[Linear, nn.Linear]:
    """A bfloat16-gradient Linear and an nn.Linear with the same weights."""
    torch.manual_seed(seed)
    ours = Linear(96, out_features)
    ours.gradient_dtype = torch.bfloat16
    reference = nn.Linear(96, out_features)
    reference.load_state_dict(ours.state_dict())
    return ours, reference


@pytest.mark.parametrize("out_features", [64, 7, 1])
def test_forward_is_float32_exact_and_gradients_within_bfloat16_rounding(out_features):
    ours, reference = layer_pair(out_features, out_features)
    x = torch.randn(512, 96, generator=torch.Generator().manual_seed(1))
    grad = torch.randn(512, out_features, generator=torch.Generator().manual_seed(2))
    inputs = x.clone().requires_grad_(), x.clone().requires_grad_()
    outputs = ours(inputs[0]), reference(inputs[1])
    assert outputs[0].dtype == torch.float32 and torch.equal(outputs[0], outputs[1])  # addmm either way
    for out in outputs:
        out.backward(grad)
    pairs = ((inputs[0].grad, inputs[1].grad), (ours.weight.grad, reference.weight.grad),
             (ours.bias.grad, reference.bias.grad))
    for low, exact in pairs:
        assert low.dtype == torch.float32
        error = (low - exact).norm() / exact.norm()
        assert error < 4 * BFLOAT16_STEP, error  # operands and result each rounded once
    assert not torch.equal(ours.weight.grad, reference.weight.grad)  # the products did run in bfloat16
    assert torch.equal(ours.bias.grad, reference.bias.grad)  # a sum of float32 gradients, not a product


@pytest.mark.parametrize("out_features", [64, 7, 1])
def test_a_bfloat16_forward_is_within_its_rounding_and_its_gradient_is_the_same(out_features):
    """The update's forward in bfloat16 (``update_forward_precision: gradient``): the output within bfloat16's
    rounding of the exact one, in float32, and the gradients those of the float32 forward (the backward reads the
    same bfloat16 copies either way); without gradients (the rollout) the forward stays exact."""
    ours, reference = layer_pair(out_features, out_features + 10)
    rounded, _ = layer_pair(out_features, out_features + 10)
    rounded.forward_dtype = torch.bfloat16
    x = torch.randn(512, 96, generator=torch.Generator().manual_seed(6))
    grad = torch.randn(512, out_features, generator=torch.Generator().manual_seed(7))
    inputs = x.clone().requires_grad_(), x.clone().requires_grad_()
    exact, low = ours(inputs[0]), rounded(inputs[1])
    assert low.dtype == torch.float32 and not torch.equal(low, exact)  # the product did run in bfloat16
    assert (low - exact).norm() / exact.norm() < 4 * BFLOAT16_STEP  # operands and result each rounded once
    exact.backward(grad)
    low.backward(grad)
    for a, b in ((inputs[0].grad, inputs[1].grad), (ours.weight.grad, rounded.weight.grad),
                 (ours.bias.grad, rounded.bias.grad)):
        assert torch.equal(a, b)
    with torch.no_grad():
        assert torch.equal(rounded(x), reference(x))


def test_float32_and_no_grad_are_nn_linear_exactly():
    ours, reference = layer_pair(32, 3)
    x = torch.randn(64, 96, generator=torch.Generator().manual_seed(4))
    with torch.no_grad():
        assert torch.equal(ours(x), F.linear(x, reference.weight, reference.bias))
    ours.gradient_dtype = torch.float32
    ours(x).sum().backward()
    reference(x).sum().backward()
    assert torch.equal(ours.weight.grad, reference.weight.grad)


def test_the_network_sets_every_dense_layer_and_keeps_its_state_dict():
    net = ActorCritic(40, 9, [32, 32])
    keys = list(net.state_dict())
    net.set_precision(torch.bfloat16, torch.float32)
    layers = [m for m in net.modules() if isinstance(m, Linear)]
    assert len(layers) == 6 and all(layer.gradient_dtype == torch.bfloat16 for layer in layers)
    assert all(layer.forward_dtype == torch.float32 for layer in layers)
    assert list(net.state_dict()) == keys and "mlp_extractor.policy_net.2.weight" in keys
    assert ActorCritic(40, 9, [32]).action_net.gradient_dtype == torch.float32  # a new network: float32


def test_precision_choices(monkeypatch):
    assert gradient_dtype("float32") == torch.float32 and gradient_dtype("bfloat16") == torch.bfloat16
    for avx512_bf16, amx, expected in ((False, False, torch.float32), (True, False, torch.bfloat16),
                                       (False, True, torch.bfloat16)):
        monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda value=avx512_bf16: value)
        monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda value=amx: value)
        assert gradient_dtype("auto") == expected
    monkeypatch.delattr(torch.cpu, "_is_avx512_bf16_supported")  # a torch without the check: float32, no error
    monkeypatch.delattr(torch.cpu, "_is_amx_tile_supported")
    assert gradient_dtype("auto") == torch.float32
    with pytest.raises(ValueError, match="gradient_precision='half'.*auto, float32, bfloat16"):
        gradient_dtype("half")
    assert GRADIENT_PRECISIONS[0] == "auto"
    assert forward_dtype("gradient", torch.bfloat16) == torch.bfloat16
    assert forward_dtype("gradient", torch.float32) == forward_dtype("float32", torch.bfloat16) == torch.float32
    with pytest.raises(ValueError, match="update_forward_precision='bf16'.*gradient, float32"):
        forward_dtype("bf16", torch.bfloat16)
    assert update_dtypes("bfloat16", "gradient") == (torch.bfloat16, torch.bfloat16)
    assert update_dtypes("bfloat16", "float32") == (torch.bfloat16, torch.float32)
    assert update_dtypes("float32", "gradient") == (torch.float32, torch.float32)
    with pytest.raises(ValueError, match="update_forward_precision='fp8'"):
        update_dtypes("bfloat16", "fp8")
