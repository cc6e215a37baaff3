"""Checkpoints that are safe to load: JSON metadata and tensors only, never a pickle.

A checkpoint is a zip holding ``meta.json`` and ``policy.pt`` (a plain ``state_dict``
saved with ``torch.save``), plus ``optimizer.pt`` for resuming. Loading uses
``torch.load(weights_only=True)``, which refuses arbitrary Python objects, checks every
tensor name and shape against a freshly built network, and turns any problem (corrupt,
truncated, hostile, wrong game) into a :class:`CheckpointError`. Writes are atomic: a
temporary file is renamed over the target, so a run killed mid-write loses nothing.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import torch

from training.outputs import atomic_file

FORMAT = "rams-checkpoint"
VERSION = 1
MEMBERS = {"meta.json", "policy.pt", "optimizer.pt"}
MAX_BYTES = 256 * 2**20


class CheckpointError(ValueError):
    """A checkpoint that cannot be trusted or used; nothing from it was executed."""


def _tensor_bytes(obj: Any) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


def save_checkpoint(path: str | Path, meta: dict[str, Any], policy_state: dict[str, torch.Tensor],
                    optimizer_state: dict[str, Any] | None = None) -> Path:
    """Write a checkpoint atomically (training/outputs.py: temporary file in the same folder, then rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {**meta, "format": FORMAT, "version": VERSION}
    with atomic_file(path) as raw, zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("meta.json", json.dumps(meta, indent=2, default=str))
        zf.writestr("policy.pt", _tensor_bytes({k: v.detach().cpu() for k, v in policy_state.items()}))
        if optimizer_state is not None:
            zf.writestr("optimizer.pt", _tensor_bytes(optimizer_state))
    return path


def _load_tensors(data: bytes, member: str, path: Path) -> Any:
    try:
        return torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as err:  # UnpicklingError for hostile payloads, RuntimeError for corrupt data
        raise CheckpointError(f"{path}: {member} is not a plain tensor file ({type(err).__name__}); refused") from None


def load_checkpoint(path: str | Path, with_optimizer: bool = False) -> tuple[dict, dict, dict | None]:
    """(meta, policy state_dict, optimizer state or None), validated; raises CheckpointError."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise CheckpointError(f"{path}: larger than {MAX_BYTES // 2**20} MiB; refused")
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if not names <= MEMBERS or not {"meta.json", "policy.pt"} <= names:
                raise CheckpointError(f"{path}: unexpected contents {sorted(names)}; expected {sorted(MEMBERS)}")
            meta = json.loads(zf.read("meta.json"))
            policy = zf.read("policy.pt")
            optimizer = zf.read("optimizer.pt") if with_optimizer and "optimizer.pt" in names else None
    except CheckpointError:
        raise
    except (OSError, zipfile.BadZipFile, json.JSONDecodeError, UnicodeDecodeError, KeyError) as err:
        raise CheckpointError(f"{path}: not a readable rams checkpoint ({err})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise CheckpointError(f"{path}: not a {FORMAT} v{VERSION} file")
    state = _load_tensors(policy, "policy.pt", path)
    if not isinstance(state, dict) or not all(isinstance(k, str) and torch.is_tensor(v) for k, v in state.items()):
        raise CheckpointError(f"{path}: policy.pt must map names to tensors")
    opt_state = _load_tensors(optimizer, "optimizer.pt", path) if optimizer is not None else None
    return meta, state, opt_state
