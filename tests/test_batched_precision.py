"""The dense layers' gradient products in bfloat16 (training/batched/precision.py): the forward exact, the gradient
within bfloat16's rounding, float32 and no-grad calls nn.Linear's own, the config's choice validated."""

import pytest

torch = pytest.importorskip("torch")

from torch import nn  # noqa: E402
from torch.nn import functional as F  # noqa: E402

from training.batched.network import ActorCritic  # noqa: E402
from training.batched.precision import GRADIENT_PRECISIONS, Linear, gradient_dtype  # noqa: E402

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
    net.set_gradient_dtype(torch.bfloat16)
    layers = [m for m in net.modules() if isinstance(m, Linear)]
    assert len(layers) == 6 and all(layer.gradient_dtype == torch.bfloat16 for layer in layers)
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
