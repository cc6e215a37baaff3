"""The update's dense-layer products in bfloat16: the gradient products, and by default the forward ones too.

Most of a general network's update is three matrix products per dense layer: the forward ``x W^T``, the input
gradient ``g W`` and the weight gradient ``g^T x``. On a CPU with bfloat16 dot products (AVX512-BF16, AMX) oneDNN
computes a product of bfloat16 matrices 2.4 times (AMD EPYC) to 7.5 times (Intel Xeon with AMX) faster than of
float32 ones; it adds in float32 and rounds the result. So the two gradient products take bfloat16 copies of their
operands (``batched.gradient_precision``), as mixed-precision training keeps its weights and optimizer in float32
and rounds products (Micikevicius et al. 2018, "Mixed Precision Training"; Kalamkar et al. 2019 for bfloat16).

The update's forward products take the same copies (``batched.update_forward_precision: gradient``, since
2026-12-05): the operands and the product's result are rounded to bfloat16, the bias added in float32 after. The
rollout, frozen opponents and ``CheckpointAgent`` keep float32 (no gradient: ``nn.Linear`` exactly), so PPO's
probability ratio compares the update's rounded log-probabilities with the rollout's exact ones: on the shipped
general Toepen agent the two differ by 2.8e-4 on average (5.7e-3 at the 99th percentile), an approx KL of 6.5e-7,
where an update's own is about 2e-3 and the clip is at 0.2; the values differ by 0.4% of their spread
(docs/results.md, "The update's forward in bfloat16"). ``float32`` keeps the update's forward exact, as runs trained
before that day.

``batched.gradient_precision``: ``auto`` (bfloat16 where the CPU has bfloat16 dot products, else float32: emulated
bfloat16 would be slower), ``float32`` or ``bfloat16``. The sparse first layer (sparse.py) is not a product of
dense matrices and keeps float32. With both products in bfloat16 the update runs each tower after its first layer
as one function whose every tanh is one pass over memory (tower.py).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

GRADIENT_PRECISIONS = ("auto", "float32", "bfloat16")
UPDATE_FORWARD_PRECISIONS = ("gradient", "float32")
"""``batched.update_forward_precision``: the update's forward products in the gradient products' dtype, or float32."""


def gradient_dtype(precision: str) -> torch.dtype:
    """The dtype of the dense layers' gradient products for ``batched.gradient_precision``."""
    if precision not in GRADIENT_PRECISIONS:
        raise ValueError(f"batched.gradient_precision={precision!r}: one of {', '.join(GRADIENT_PRECISIONS)}")
    if precision == "auto":
        return torch.bfloat16 if cpu_has_bfloat16_products() else torch.float32
    return getattr(torch, precision)


def forward_dtype(precision: str, gradient: torch.dtype) -> torch.dtype:
    """The dtype of the update's forward products for ``batched.update_forward_precision``, the gradient products
    being in ``gradient``."""
    if precision not in UPDATE_FORWARD_PRECISIONS:
        raise ValueError(f"batched.update_forward_precision={precision!r}: one of "
                         f"{', '.join(UPDATE_FORWARD_PRECISIONS)}")
    return gradient if precision == "gradient" else torch.float32


def update_dtypes(gradient_precision: str, update_forward_precision: str) -> tuple[torch.dtype, torch.dtype]:
    """The update's gradient and forward dtypes for the two keys (``ActorCritic.set_precision`` takes them); a bad
    key is a ValueError naming the choices."""
    gradient = gradient_dtype(gradient_precision)
    return gradient, forward_dtype(update_forward_precision, gradient)


def cpu_has_bfloat16_products() -> bool:
    """Whether this CPU multiplies bfloat16 matrices natively (AVX512-BF16 or AMX), as torch reports it."""
    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    return any(getattr(torch.cpu, check, lambda: False)() for check in checks)


class LowPrecisionGradient(torch.autograd.Function):
    """``x W^T + b``: its product in float32 or on ``forward`` copies of ``x`` and ``W`` (the result back in
    float32, the bias added there); its backward's two products on ``dtype`` copies, the results in float32."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, dtype: torch.dtype,
                forward: torch.dtype) -> torch.Tensor:
        x_low, weight_low = x.to(dtype), weight.to(dtype)
        ctx.save_for_backward(x_low, weight_low)  # the copies the backward needs, at half the memory
        if forward == dtype:
            return torch.mm(x_low, weight_low.t()).float().add_(bias)
        return torch.addmm(bias, x, weight.t())

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        x_low, weight_low = ctx.saved_tensors
        grad_low = grad.to(x_low.dtype)
        grad_x = (grad_low @ weight_low).float() if ctx.needs_input_grad[0] else None
        return grad_x, (grad_low.t() @ x_low).float(), grad.sum(0), None, None


class Linear(nn.Linear):
    """``nn.Linear`` (same parameters and state dict) whose products in training run in ``gradient_dtype`` (the
    backward's) and ``forward_dtype`` (the forward's); without gradients (the rollout, frozen opponents) or at
    float32 it is ``nn.Linear`` exactly."""

    gradient_dtype: torch.dtype = torch.float32  # set per network: ActorCritic.set_precision
    forward_dtype: torch.dtype = torch.float32

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if (self.gradient_dtype == x.dtype or not torch.is_grad_enabled() or x.dtype != torch.float32
                or x.device.type != "cpu" or self.bias is None or x.dim() != 2):
            return F.linear(x, self.weight, self.bias)
        return LowPrecisionGradient.apply(x, self.weight, self.bias, self.gradient_dtype, self.forward_dtype)
