"""A tower's dense layers, tanh and head in the update, on bfloat16 copies, each tanh one pass over memory.

With the update's products in bfloat16 (precision.py, ``update_forward_precision: gradient``) a tower of
``nn.Linear`` and ``Tanh`` modules spends more time moving its activations than multiplying them: each dense layer's
product comes out in bfloat16 and is widened to float32, its bias added in another pass, the tanh taken in a third,
and the result narrowed to bfloat16 again for the next product; the backward widens and narrows each gradient the
same way. Those conversions, the bias and the tanh with its derivative took a third of a general Toepen iteration
in the profiler (docs/results.md, "The tower's tanh in one pass").

:class:`BFloat16Tower` does the same arithmetic in one pass per tanh: a numba kernel reads the product's bfloat16
result, adds the bias and takes the tanh in float32, and writes only the bfloat16 copy the next product reads.
Its backward recomputes the tanh from the saved product (exactly the forward's value), multiplies the incoming
gradient by its derivative in float32, adds the bias gradient in float64 and writes the bfloat16 copy both
gradient products read. The numbers are those of the modules' path (the products' operands and results rounded to
bfloat16 as there, sums and derivatives in float32) but for the tanh itself: a rational approximation within 4.4
units in the last place of float32 (Eigen's, which vectorises; numpy's is within 1.4), and the bias gradients' order of
summation (tests/test_batched_tower.py). The rollout and frozen opponents keep the modules' float32 path.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from training.batched.elementwise import Tanh
from training.batched.precision import Linear

try:
    from numba import njit
except ImportError:  # the batched engine's extra (vector) is not installed: the modules' path instead
    njit = None

TANH_CLAMP = np.float32(7.90531110763549805)
"""Beyond it the rational tanh below is 1 to float32's precision (Eigen's ``generic_fast_tanh_float``)."""


def _tanh(x):
    """tanh in float32 as a rational function of odd degree 13 over even degree 6 (Eigen's coefficients): within 4.4
    units in the last place, and only multiplies, adds and one division, which LLVM vectorises (a call of libm's
    ``tanhf`` would not be)."""
    x = min(max(x, -TANH_CLAMP), TANH_CLAMP)
    x2 = x * x
    p = x2 * np.float32(-2.76076847742355e-16) + np.float32(2.00018790482477e-13)
    p = x2 * p + np.float32(-8.60467152213735e-11)
    p = x2 * p + np.float32(5.12229709037114e-08)
    p = x2 * p + np.float32(1.48572235717979e-05)
    p = x2 * p + np.float32(6.37261928875436e-04)
    p = x2 * p + np.float32(4.89352455891786e-03)
    q = x2 * np.float32(1.19825839466702e-06) + np.float32(1.18534705686654e-04)
    q = x2 * q + np.float32(2.26843463243900e-03)
    q = x2 * q + np.float32(4.89352518554385e-03)
    return np.float32(x * p / q)


def _widen(bits):
    """The float32 value of bfloat16 ``bits`` (a uint16): its upper half."""
    return np.uint32(np.uint32(bits) << np.uint32(16)).view(np.float32)


def _narrow(x):
    """``x`` (float32) rounded to bfloat16's bits, to nearest with ties to even, NaN kept NaN: torch's rounding."""
    bits = np.float32(x).view(np.uint32)
    rounded = np.uint32(bits + np.uint32(0x7FFF) + np.uint32(np.uint32(bits >> np.uint32(16)) & np.uint32(1)))
    return np.uint16(0x7FC0) if x != x else np.uint16(rounded >> np.uint32(16))


def _tanh_of_first(z, out):
    """``out = bf16(tanh(z))`` for the first layer's float32 output ``z`` (its bias already added)."""
    for i in range(z.shape[0]):
        for j in range(z.shape[1]):
            out[i, j] = _narrow(_tanh(z[i, j]))


def _tanh_of_product(z, bias, out):
    """``out = bf16(tanh(z + bias))`` for a dense layer's bfloat16 product ``z``."""
    for i in range(z.shape[0]):
        for j in range(z.shape[1]):
            out[i, j] = _narrow(_tanh(_widen(z[i, j]) + bias[j]))


def _gradient_of_product(grad, z, bias, out, bias_grad):
    """Through ``tanh(z + bias)``: ``g = grad * (1 - tanh^2)`` in float32, ``out = bf16(g)``, ``bias_grad += g``
    over the rows (float64). A row at a time through a buffer: with the sum in the same loop LLVM could not prove
    ``bias_grad`` apart from the other arrays, and left the loop unvectorised (2.5 times slower)."""
    row = np.empty(z.shape[1], np.float32)
    for i in range(z.shape[0]):
        for j in range(z.shape[1]):
            y = _tanh(_widen(z[i, j]) + bias[j])
            row[j] = _widen(grad[i, j]) * (np.float32(1) - y * y)
        for j in range(z.shape[1]):
            out[i, j] = _narrow(row[j])
            bias_grad[j] += row[j]


def _gradient_of_first(grad, z, out):
    """Through ``tanh(z)``: ``out = grad * (1 - tanh(z)^2)`` in float32 (the sparse first layer's gradient)."""
    for i in range(z.shape[0]):
        for j in range(z.shape[1]):
            y = _tanh(z[i, j])
            out[i, j] = _widen(grad[i, j]) * (np.float32(1) - y * y)


if njit is not None:
    # numpy's error model (no division check) and fused multiply-adds: LLVM vectorises the loops, 1.2-1.4x faster
    options = {"error_model": "numpy", "fastmath": {"contract"}}
    _compile = njit(cache=True, nogil=True, **options)
    _tanh, _widen, _narrow = (njit(inline="always", **options)(f) for f in (_tanh, _widen, _narrow))
    _tanh_of_first, _tanh_of_product, _gradient_of_product, _gradient_of_first = (
        _compile(f) for f in (_tanh_of_first, _tanh_of_product, _gradient_of_product, _gradient_of_first))


def bits(x: torch.Tensor) -> np.ndarray:
    """A bfloat16 tensor's memory as numpy's uint16 (numpy has no bfloat16)."""
    return x.view(torch.int16).numpy().view(np.uint16)


def bfloat16_like(x: torch.Tensor) -> torch.Tensor:
    """An uninitialised bfloat16 tensor of ``x``'s shape (a kernel writes every element)."""
    return torch.empty(x.shape, dtype=torch.bfloat16)


class BFloat16Tower(torch.autograd.Function):
    """``head(tanh(... tanh(W_1 tanh(z) + b_1) ...))`` for a tower's first-layer output ``z`` (float32), its dense
    layers ``W_k, b_k`` and its head ``W_h, b_h`` given in turn; the result in float32."""

    @staticmethod
    def forward(ctx, z: torch.Tensor, *parameters: torch.Tensor) -> torch.Tensor:
        weights = [w.to(torch.bfloat16) for w in parameters[::2]]
        biases = parameters[1::2]
        inputs = [bfloat16_like(z)]  # each dense product's input: the bfloat16 tanh before it
        _tanh_of_first(z.detach().numpy(), bits(inputs[0]))
        products = []  # each hidden dense layer's bfloat16 product, from which its backward recomputes the tanh
        for weight, bias in zip(weights[:-1], biases[:-1], strict=True):
            products.append(torch.mm(inputs[-1], weight.t()))
            inputs.append(bfloat16_like(products[-1]))
            _tanh_of_product(bits(products[-1]), bias.detach().numpy(), bits(inputs[-1]))
        ctx.layers = len(weights)
        ctx.save_for_backward(z, *weights, *biases[:-1], *inputs, *products)
        return torch.mm(inputs[-1], weights[-1].t()).float().add_(biases[-1])

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        layers, saved = ctx.layers, ctx.saved_tensors  # the dense layers with the head; what forward saved
        z, weights, biases = saved[0], saved[1:1 + layers], saved[1 + layers:2 * layers]
        inputs, products = saved[2 * layers:3 * layers], saved[3 * layers:]
        gradients = [None] * (2 * layers)
        grad_low = grad.to(torch.bfloat16)
        gradients[-2:] = (grad_low.t() @ inputs[-1]).float(), grad.sum(0)
        for k in reversed(range(layers - 1)):
            grad_input = grad_low @ weights[k + 1]  # bfloat16, as the product rounds it
            grad_low, bias_grad = bfloat16_like(grad_input), torch.zeros(grad_input.shape[1], dtype=torch.float64)
            _gradient_of_product(bits(grad_input), bits(products[k]), biases[k].detach().numpy(), bits(grad_low),
                                 bias_grad.numpy())
            gradients[2 * k:2 * k + 2] = (grad_low.t() @ inputs[k]).float(), bias_grad.float()
        grad_input = grad_low @ weights[0]
        grad_z = torch.empty(z.shape, dtype=torch.float32)
        _gradient_of_first(bits(grad_input), z.detach().numpy(), grad_z.numpy())
        return grad_z, *gradients


def tower_applies(modules: nn.Sequential, head: nn.Module, first: torch.Tensor) -> bool:
    """Whether :class:`BFloat16Tower` computes ``head(modules(first))``: in training, with numba, ``modules`` a tanh
    and then dense layers each followed by a tanh (mlp() after its first layer), every dense layer and the head with
    a bias and both products in bfloat16 (``update_forward_precision: gradient`` on such a CPU), ``first`` a
    contiguous float32 CPU tensor."""
    if njit is None or not torch.is_grad_enabled():
        return False
    if first.dtype != torch.float32 or first.device.type != "cpu" or not first.is_contiguous() or first.dim() != 2:
        return False
    kinds = [type(module) for module in modules]
    if len(kinds) % 2 == 0 or any(kind is not (Tanh if k % 2 == 0 else Linear) for k, kind in enumerate(kinds)):
        return False
    return all(type(layer) is Linear and layer.bias is not None and
               layer.gradient_dtype == layer.forward_dtype == torch.bfloat16 for layer in [*modules[1::2], head])


def bfloat16_tower(modules: nn.Sequential, head: Linear, first: torch.Tensor) -> torch.Tensor:
    """``head(modules(first))`` by :class:`BFloat16Tower` (``tower_applies`` must hold)."""
    parameters = [p for layer in [*modules[1::2], head] for p in (layer.weight, layer.bias)]
    return BFloat16Tower.apply(first, *parameters)
