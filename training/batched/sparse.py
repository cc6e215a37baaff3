"""The first layer of the actor-critic computed from the observation's non-zero entries only.

A general observation (rams_env/core/general.py) has 768 floats at Toepen but only 27-69 non-zero
(42 on average): the dense first layer of the two towers (768 x 256, twice) was most of the network's
arithmetic. Here an observation batch becomes :class:`SparseObs` (each row's non-zero column
indices and values, padded with index 0 and value 0 to the longest row), and the first layer is
``W x = sum_k value[k] * W[:, index[k]]``: forward by ``embedding_bag`` (a weighted sum of
weight columns), backward by adding each entry's value times its row's gradient into its weight column
(``grad W = g^T X``): a numba loop over the entries, twice as fast as torch's sparse-times-dense product,
which stays where numba is not installed. The observation itself gets no gradient. Same parameters, same
results as ``nn.Linear`` to float rounding (the sums run in another order): tests/test_batched_sparse.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

try:
    from numba import njit
except ImportError:  # the batched engine's extra (vector) is not installed: torch's sparse product instead
    njit = None


@dataclass(frozen=True)
class SparseObs:
    """Rows of observations as their non-zero entries, ``(N, K)`` each; padding is index 0 with value 0."""

    index: torch.Tensor  # int64 column indices
    value: torch.Tensor  # float32 values

    def __getitem__(self, rows) -> SparseObs:
        """The rows ``rows`` (a minibatch's indices, a slice, a mask)."""
        return SparseObs(self.index[rows], self.value[rows])

    def __len__(self) -> int:
        return len(self.index)

    def dense(self, size: int) -> torch.Tensor:
        """The ``(N, size)`` observations these entries come from."""
        out = torch.zeros((len(self), size), dtype=self.value.dtype)
        return out.scatter_add_(1, self.index, self.value)


def sparse_rows(obs: torch.Tensor) -> SparseObs:
    """``obs`` ``(N, D)`` as its non-zero entries, each row's in column order (numpy's ``flatnonzero`` of a
    boolean array is several times faster than of floats or torch's ``nonzero``)."""
    dense = obs.numpy()
    flat = np.flatnonzero(dense != 0)  # row-major: each row's entries together, columns ascending
    rows, cols = np.divmod(flat, dense.shape[1])
    counts = np.bincount(rows, minlength=len(dense))
    width = max(int(counts.max()), 1) if len(dense) else 1
    place = np.arange(len(flat)) - (np.cumsum(counts) - counts)[rows]  # position within the row
    at = rows * width + place  # the entry's place in the padded (N, width) arrays, flattened
    index = np.zeros(len(dense) * width, np.int64)
    value = np.zeros(len(dense) * width, dense.dtype)
    index[at] = cols
    value[at] = dense.reshape(-1)[flat]
    index, value = index.reshape(len(dense), width), value.reshape(len(dense), width)
    return SparseObs(torch.from_numpy(index), torch.from_numpy(value))


class SparseLinearFunction(torch.autograd.Function):
    """``x @ weight_t`` for ``x`` given as a SparseObs and ``weight_t`` ``(D, out)``; the gradient goes to
    ``weight_t`` only."""

    @staticmethod
    def forward(ctx, index: torch.Tensor, value: torch.Tensor, weight_t: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(index, value)
        ctx.in_features = weight_t.shape[0]
        return F.embedding_bag(index, weight_t, per_sample_weights=value, mode="sum")

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        index, value = ctx.saved_tensors
        return None, None, weight_gradient(index, value, grad, ctx.in_features)


def weight_gradient(index: torch.Tensor, value: torch.Tensor, grad: torch.Tensor, in_features: int) -> torch.Tensor:
    """``X^T grad`` ``(in_features, out)`` for ``X`` given by its padded entries: the first layer's weight gradient."""
    if njit is None or grad.dtype != value.dtype:
        rows = torch.arange(len(index)).repeat_interleave(index.shape[1])
        transposed = torch.sparse_coo_tensor(torch.stack([index.reshape(-1), rows]), value.reshape(-1),
                                             (in_features, len(index)), check_invariants=False)  # X^T
        return torch.sparse.mm(transposed, grad)
    out = torch.zeros((in_features, grad.shape[1]), dtype=grad.dtype)
    _add_entries(index.numpy(), value.numpy(), grad.contiguous().numpy(), out.numpy())
    return out


def _add_entries(index: np.ndarray, value: np.ndarray, grad: np.ndarray, out: np.ndarray) -> None:
    """``out[index[n, k]] += value[n, k] * grad[n]`` over every entry (padding, value 0, skipped)."""
    rows, width = index.shape
    for n in range(rows):
        row = grad[n]
        for k in range(width):
            v = value[n, k]
            if v != 0:
                column = out[index[n, k]]
                for h in range(row.shape[0]):
                    column[h] += v * row[h]


if njit is not None:
    _add_entries = njit(cache=True, nogil=True)(_add_entries)


def sparse_linear(obs: SparseObs, layers: list[torch.nn.Linear]) -> list[torch.Tensor]:
    """Each of ``layers`` (same input size) applied to ``obs``, in one pass over its entries (their weights
    side by side, transposed: one copy, the columns ``embedding_bag`` sums)."""
    weight_t = torch.cat([layer.weight.t() for layer in layers], dim=1)
    out = SparseLinearFunction.apply(obs.index, obs.value, weight_t)
    return [part + layer.bias for part, layer in
            zip(out.split([layer.out_features for layer in layers], dim=1), layers, strict=True)]
