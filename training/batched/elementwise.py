"""Elementwise functions by numpy's vectorised loops where torch's CPU kernels are slow.

torch's CPU ``tanh`` is correctly rounded and costs about 3 ns an element (torch 2.13, AVX-512); its ``exp`` leaves
the vector path for arguments far below zero, as a masked action's log-probability (``MASKED_LOGIT``, -1e8) is, and
costs 8 ns an element there. numpy's are within one (tanh) or two (exp) units in the last place
(tests/test_batched_network.py) at 0.1-0.4 ns. Each is an autograd function whose gradient torch computes from
the saved output. Other tensors (a GPU's, a non-contiguous or half-precision one) take torch's own.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from torch import nn

NUMPY_DTYPES = (torch.float32, torch.float64)


def numpy_can(x: torch.Tensor) -> bool:
    """Whether ``x``'s memory is a numpy array's: a contiguous CPU tensor of float32 or float64."""
    return x.device.type == "cpu" and x.dtype in NUMPY_DTYPES and x.is_contiguous()


class NumpyElementwise(torch.autograd.Function):
    """``function`` (a numpy ufunc) of ``x``; the gradient ``derivative(grad, out)`` from the saved output."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, function: np.ufunc, derivative: Callable) -> torch.Tensor:
        out = torch.empty_like(x)
        function(x.detach().numpy(), out=out.numpy())
        ctx.save_for_backward(out)
        ctx.derivative = derivative
        return out

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        (out,) = ctx.saved_tensors
        return ctx.derivative(grad, out), None, None


class Tanh(nn.Tanh):
    """``nn.Tanh`` with the same results to a unit in the last place, 5-7 times faster on the CPU: torch's tanh was
    10-12% of a general network's update, more than its 256-wide matrix products' biases and activations together.
    A module without parameters: state dicts and SB3's layer indices are unchanged. Its gradient is torch's
    ``tanh_backward`` (1 - tanh^2)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return NumpyElementwise.apply(x, np.tanh, torch.ops.aten.tanh_backward) if numpy_can(x) else torch.tanh(x)


def exp(x: torch.Tensor) -> torch.Tensor:
    """``x.exp()``: the probabilities of masked log-probabilities at 0.1 ns an element, not torch's 8; the gradient
    ``grad * exp``."""
    return NumpyElementwise.apply(x, np.exp, torch.mul) if numpy_can(x) else x.exp()
