"""numpy arrays <-> torch tensors in nested dicts and lists: what a batched run saves in ``trainer.pt``
(read back with ``torch.load(weights_only=True)``, which builds tensors, never numpy objects)."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch


def as_tensors(tree: Any) -> Any:
    """``tree`` with every numpy array replaced by a tensor of its own copy (same dtype, same values)."""
    if isinstance(tree, np.ndarray):
        return torch.from_numpy(np.array(tree, copy=True))
    if isinstance(tree, dict):
        return {key: as_tensors(value) for key, value in tree.items()}
    if isinstance(tree, (list, tuple)):
        return [as_tensors(value) for value in tree]
    return tree


def as_arrays(tree: Any) -> Any:
    """The inverse of :func:`as_tensors`: every tensor becomes a numpy array."""
    if torch.is_tensor(tree):
        return tree.numpy()
    if isinstance(tree, dict):
        return {key: as_arrays(value) for key, value in tree.items()}
    if isinstance(tree, list):
        return [as_arrays(value) for value in tree]
    return tree
