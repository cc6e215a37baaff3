"""The dense layers' gradient products in bfloat16, their forward in float32.

Half of a general network's update is three matrix products per dense layer: the forward ``x W^T``, the input
gradient ``g W`` and the weight gradient ``g^T x``. On a CPU with bfloat16 dot products (AVX512-BF16, AMX) oneDNN
computes a product of bfloat16 matrices 2.4 times faster than of float32 ones (4096 x 256 by 256 x 256 on one core
here: 2.7 ms against 6.5; it adds in float32 and rounds the result). So the two gradient products take bfloat16
copies of their operands; the forward stays float32. That keeps what PPO compares exact: the logits, values,
probability ratios and clipping of the update are the float32 network's, the same numbers the rollout and
``CheckpointAgent`` compute. Only the gradient is rounded: each element to about 0.3% (tests/test_batched_precision.py),
far below the noise of a minibatch's gradient, as mixed-precision training keeps its weights and optimizer in float32
and rounds products (Micikevicius et al. 2018, "Mixed Precision Training"; Kalamkar et al. 2019 for bfloat16).

``batched.gradient_precision``: ``auto`` (bfloat16 where the CPU has bfloat16 dot products, else float32: emulated
bfloat16 would be slower), ``float32`` or ``bfloat16``. The sparse first layer (sparse.py) is not a product of
dense matrices and keeps float32.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

GRADIENT_PRECISIONS = ("auto", "float32", "bfloat16")


def gradient_dtype(precision: str) -> torch.dtype:
    """The dtype of the dense layers' gradient products for ``batched.gradient_precision``."""
    if precision not in GRADIENT_PRECISIONS:
        raise ValueError(f"batched.gradient_precision={precision!r}: one of {', '.join(GRADIENT_PRECISIONS)}")
    if precision == "auto":
        return torch.bfloat16 if cpu_has_bfloat16_products() else torch.float32
    return getattr(torch, precision)


def cpu_has_bfloat16_products() -> bool:
    """Whether this CPU multiplies bfloat16 matrices natively (AVX512-BF16 or AMX), as torch reports it."""
    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    return any(getattr(torch.cpu, check, lambda: False)() for check in checks)


class LowPrecisionGradient(torch.autograd.Function):
    """``x W^T + b`` in float32; its backward's two products on ``dtype`` copies, the results back in float32."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
        ctx.save_for_backward(x.to(dtype), weight)  # the copy the weight gradient needs, at half the memory
        return torch.addmm(bias, x, weight.t())

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        x_low, weight = ctx.saved_tensors
        grad_low = grad.to(x_low.dtype)
        grad_x = (grad_low @ weight.to(x_low.dtype)).float() if ctx.needs_input_grad[0] else None
        return grad_x, (grad_low.t() @ x_low).float(), grad.sum(0), None


class Linear(nn.Linear):
    """``nn.Linear`` (same parameters and state dict) whose gradient products run in ``gradient_dtype``; without
    gradients (the rollout, frozen opponents) or at float32 it is ``nn.Linear`` exactly."""

    gradient_dtype: torch.dtype = torch.float32  # set per network: ActorCritic.set_gradient_dtype

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if (self.gradient_dtype == x.dtype or not torch.is_grad_enabled() or x.dtype != torch.float32
                or x.device.type != "cpu" or self.bias is None or x.dim() != 2):
            return F.linear(x, self.weight, self.bias)
        return LowPrecisionGradient.apply(x, self.weight, self.bias, self.gradient_dtype)
