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

    index: torch.Tensor  # int32 column indices (half the bytes a minibatch gathers; embedding_bag takes them)
    value: torch.Tensor  # float32 values

    def __getitem__(self, rows) -> SparseObs:
        """The rows ``rows`` (a minibatch's indices, a slice, a mask)."""
        return SparseObs(self.index[rows], self.value[rows])

    def index_select(self, dim: int, rows: torch.Tensor) -> SparseObs:
        """The rows ``rows`` (int64), as ``Tensor.index_select`` (``dim`` 0 only) takes them: a minibatch's gather,
        several times faster than indexing with a tensor."""
        if dim != 0:
            raise ValueError(f"SparseObs selects rows (dim 0), not dim {dim}")
        return SparseObs(self.index.index_select(0, rows), self.value.index_select(0, rows))

    def __len__(self) -> int:
        return len(self.index)

    def dense(self, size: int) -> torch.Tensor:
        """The ``(N, size)`` observations these entries come from."""
        out = torch.zeros((len(self), size), dtype=self.value.dtype)
        return out.scatter_add_(1, self.index.long(), self.value)


def sparse_rows(obs: torch.Tensor | np.ndarray, rows: np.ndarray | None = None) -> SparseObs:
    """``obs`` ``(N, D)`` as its non-zero entries, each row's in column order; ``rows``: those rows of ``obs`` only, in
    that order (the rollout's slots of one policy: no copy of their dense rows is made). Two numba passes over the
    rows (count, then write) where numba is installed: 1.6x faster than numpy's ``flatnonzero`` path, the same
    entries."""
    dense = obs.numpy() if isinstance(obs, torch.Tensor) else obs
    if njit is None:
        return _numpy_sparse_rows(dense if rows is None else dense[rows])
    rows = np.arange(len(dense)) if rows is None else np.asarray(rows, np.int64)
    width = _widest_row(dense, rows)
    index, value = np.zeros((len(rows), width), np.int32), np.zeros((len(rows), width), dense.dtype)
    _write_entries(dense, rows, index, value)
    return SparseObs(torch.from_numpy(index), torch.from_numpy(value))


def _numpy_sparse_rows(dense: np.ndarray) -> SparseObs:
    """:func:`sparse_rows` without numba (numpy's ``flatnonzero`` of a boolean array is several times faster than of
    floats or torch's ``nonzero``)."""
    flat = np.flatnonzero(dense != 0)  # row-major: each row's entries together, columns ascending
    rows, cols = np.divmod(flat, dense.shape[1])
    counts = np.bincount(rows, minlength=len(dense))
    width = max(int(counts.max()), 1) if len(dense) else 1
    place = np.arange(len(flat)) - (np.cumsum(counts) - counts)[rows]  # position within the row
    at = rows * width + place  # the entry's place in the padded (N, width) arrays, flattened
    index = np.zeros(len(dense) * width, np.int32)
    value = np.zeros(len(dense) * width, dense.dtype)
    index[at] = cols
    value[at] = dense.reshape(-1)[flat]
    index, value = index.reshape(len(dense), width), value.reshape(len(dense), width)
    return SparseObs(torch.from_numpy(index), torch.from_numpy(value))


def _widest_row(dense: np.ndarray, rows: np.ndarray) -> int:
    """The most non-zero entries in any of ``dense``'s ``rows`` (1 at least: the arrays keep a column)."""
    widest = 1
    for n in rows:
        count = 0
        for c in range(dense.shape[1]):
            if dense[n, c] != 0:
                count += 1
        widest = max(widest, count)
    return widest


def _write_entries(dense: np.ndarray, rows: np.ndarray, index: np.ndarray, value: np.ndarray) -> None:
    """Row ``r`` of ``index`` / ``value``: the columns and values of the non-zero entries of ``dense[rows[r]]``."""
    for r in range(len(rows)):
        n, k = rows[r], 0
        for c in range(dense.shape[1]):
            v = dense[n, c]
            if v != 0:
                index[r, k] = c
                value[r, k] = v
                k += 1


if njit is not None:
    _widest_row, _write_entries = (njit(cache=True, nogil=True)(f) for f in (_widest_row, _write_entries))


class SparseLinearFunction(torch.autograd.Function):
    """``x W_i^T + b_i`` for ``x`` given as a SparseObs and each layer ``i`` (weights and biases given in turn:
    ``W_0, b_0, W_1, b_1 ...``) over the first ``rows[i]`` rows of ``x``; the gradients go to the weights and
    biases only.

    The forward runs one ``embedding_bag`` a layer (two 256-wide tables are read faster than one 512-wide table
    of both), its bias added in place; the backward reads each entry once for every layer. Until 2026-12-03 the
    layers' weights were concatenated for one ``embedding_bag``, which autograd recorded, and the output split
    (another concatenation in the backward), each bias added into a new tensor and summed again for its gradient:
    about 3 ms of a Toepen minibatch's 19 for the first layers (docs/results.md)."""

    @staticmethod
    def forward(ctx, index: torch.Tensor, value: torch.Tensor, rows: tuple[int, ...],
                *parameters: torch.Tensor) -> tuple[torch.Tensor, ...]:
        ctx.save_for_backward(index, value)
        ctx.in_features = parameters[0].shape[1]
        return tuple(F.embedding_bag(index[:count], weight.t().contiguous(), per_sample_weights=value[:count],
                                     mode="sum").add_(bias)
                     for count, weight, bias in zip(rows, parameters[::2], parameters[1::2], strict=True))

    @staticmethod
    def backward(ctx, *grads: torch.Tensor):
        index, value = ctx.saved_tensors
        weights_t, biases = weight_gradients(index, value, grads, ctx.in_features)
        gradients = (g for weight_t, bias in zip(weights_t, biases, strict=True) for g in (weight_t.t(), bias))
        return None, None, None, *gradients


def weight_gradients(index: torch.Tensor, value: torch.Tensor, grads: tuple[torch.Tensor, ...],
                     in_features: int) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """For each of ``grads``: ``X^T grad`` ``(in_features, out)`` for ``X`` given by its padded entries (its first
    ``len(grad)`` rows), and ``grad``'s column sums: each layer's weight gradient (transposed) and bias gradient."""
    if njit is None or any(grad.dtype != value.dtype for grad in grads):
        return [torch.sparse.mm(transposed_rows(index[:len(grad)], value[:len(grad)], in_features), grad)
                for grad in grads], [grad.sum(0) for grad in grads]
    outs = [torch.zeros((in_features, grad.shape[1]), dtype=grad.dtype) for grad in grads]
    biases = [torch.zeros(grad.shape[1], dtype=torch.float64) for grad in grads]  # 4,096 rows added one by one
    arrays = [(grad.contiguous().numpy(), out.numpy(), bias.numpy()) for grad, out, bias in zip(grads, outs, biases,
                                                                                               strict=True)]
    if len(arrays) % 2:  # a layer without a partner is paired with one of no rows
        none = np.zeros((0, 1), value.numpy().dtype)
        arrays.append((none, none.copy(), np.zeros(1)))
    for (grad_a, out_a, bias_a), (grad_b, out_b, bias_b) in zip(arrays[::2], arrays[1::2], strict=True):
        _add_entries(index.numpy(), value.numpy(), grad_a, grad_b, out_a, out_b, bias_a, bias_b)
    return outs, [bias.to(grad.dtype) for bias, grad in zip(biases, grads, strict=True)]


def transposed_rows(index: torch.Tensor, value: torch.Tensor, in_features: int) -> torch.Tensor:
    """``X^T`` ``(in_features, N)`` as a sparse tensor, for the rows ``X`` given by their padded entries."""
    rows = torch.arange(len(index)).repeat_interleave(index.shape[1])
    return torch.sparse_coo_tensor(torch.stack([index.reshape(-1).long(), rows]), value.reshape(-1),
                                   (in_features, len(index)), check_invariants=False)


def _add_entries(index: np.ndarray, value: np.ndarray, grad_a: np.ndarray, grad_b: np.ndarray, out_a: np.ndarray,
                 out_b: np.ndarray, bias_a: np.ndarray, bias_b: np.ndarray) -> None:
    """For two layers ``a`` and ``b``: ``out[index[n, k]] += value[n, k] * grad[n]`` over every entry of the rows
    ``grad`` has (the first ones; padding, value 0, skipped), and ``bias += grad[n]`` over those rows (in float64: a
    sum of thousands of rows in order); each entry read once for both layers. Two layers by name, not a tuple of
    layers looped over: numba compiled that loop 1.6 times slower (8.8 ms against 14.2 for a 4,096-row Toepen
    minibatch's two 256-wide towers; docs/results.md)."""
    rows, width = index.shape
    rows_a, rows_b = grad_a.shape[0], grad_b.shape[0]
    for n in range(rows):
        if n < rows_a:
            for h in range(grad_a.shape[1]):
                bias_a[h] += grad_a[n, h]
        if n < rows_b:
            for h in range(grad_b.shape[1]):
                bias_b[h] += grad_b[n, h]
        for k in range(width):
            v = value[n, k]
            if v != 0:
                column = index[n, k]
                if n < rows_a:
                    for h in range(grad_a.shape[1]):
                        out_a[column, h] += v * grad_a[n, h]
                if n < rows_b:
                    for h in range(grad_b.shape[1]):
                        out_b[column, h] += v * grad_b[n, h]


if njit is not None:
    _add_entries = njit(cache=True, nogil=True)(_add_entries)


def sparse_linear(obs: SparseObs, layers: list[torch.nn.Linear], rows: list[int] | None = None) -> list[torch.Tensor]:
    """Each of ``layers`` (same input size) applied to ``obs`` from its non-zero entries; ``rows[i]``: layer ``i``
    reads the first so many rows only (None: all of them)."""
    counts = tuple(len(obs) for _ in layers) if rows is None else tuple(min(int(r), len(obs)) for r in rows)
    parameters = [p for layer in layers for p in (layer.weight, layer.bias)]
    return list(SparseLinearFunction.apply(obs.index, obs.value, counts, *parameters))
