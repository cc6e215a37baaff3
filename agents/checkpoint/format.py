"""Checkpoints that are safe to load: JSON metadata and tensors only, never a pickle, in bounded memory and time.

A checkpoint is a zip holding ``meta.json`` and ``policy.pt`` (a plain ``state_dict`` saved
with ``torch.save``), plus ``optimizer.pt`` for resuming. Loading, in this order, so that
nothing large is decompressed and no network is built before its size is known:

1. the file is at most ``MAX_FILE_BYTES`` on disk, its zip directory small, its members exactly
   the expected ones, stored or deflated, each declared within its cap (agents/checkpoint/safe_zip.py);
2. ``meta.json`` (at most ``MAX_META_BYTES``, read with a hard cap) is JSON nested at most
   ``MAX_JSON_DEPTH`` deep and names the game, the sizes, the network and the steps;
3. the network those sizes describe has at most ``MAX_PARAMETERS`` weights, which caps what
   ``policy.pt`` and ``optimizer.pt`` may hold: their declared sizes are checked again, then they
   are read with that cap, their own records must be stored and their pickle small, and they are
   loaded with ``torch.load(weights_only=True)`` (tensors, dicts, lists, numbers: no arbitrary object);
4. every tensor is float and finite (a NaN weight would otherwise surface mid-game).

Every problem is a :class:`CheckpointError` whose message is one line naming the file and the
problem; the commands print it and exit with status 2. Writes are atomic: a temporary file is
renamed over the target, so a run killed mid-write loses nothing.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from pathlib import Path
from typing import Any

import torch

from agents.checkpoint.atomic import atomic_file
from agents.checkpoint.net_arch import NetArch, towers
from agents.checkpoint.safe_zip import ZipRefused, check_members, check_stored_archive, open_bounded, read_bounded

FORMAT = "rams-checkpoint"
VERSION = 1
META, POLICY, OPTIMIZER = "meta.json", "policy.pt", "optimizer.pt"
TRAINER = "trainer.pt"
"""Optional: what a batched run resumes from besides weights and optimizer (its league's frozen weights, counters,
random generators; training/batched/run.py): tensors, numbers, strings, lists and dicts, read weights-only."""
TRAINER_NETWORKS = 64
"""Networks' worth of tensors ``trainer.pt`` may hold (a league of frozen snapshots of the same network)."""
TRAINER_DEALS_BYTES = 64 * 2**20
"""Beside those, ``trainer.pt``'s deals in progress and carried-over decisions (training/batched/learner.py: about
0.5 KiB per deal and 1 KiB per decision, 2,304 deals about 10 MiB)."""

SPECIALISTS = "specialists"
"""``meta["specialists"]``: a general checkpoint's further networks, each with the tables it plays
(agents/checkpoint/specialists.py); specialist ``i``'s weights are the member :func:`specialist_member` ``(i)``."""
MAX_SPECIALISTS = 8

GENERAL = "general"
"""``meta["observation"]`` of a general checkpoint, whose network reads its game's general space and plays every
table of it (agents/checkpoint/general.py); without the key, the network reads the table's own observation."""

MAX_FILE_BYTES = 256 * 2**20
"""The file on disk."""
MAX_META_BYTES = 4 * 2**20
"""``meta.json`` uncompressed: the config and the evaluation history (under 2 KiB per evaluation: room for
about 2,000; 4 MiB of hostile JSON, e.g. a million empty objects, makes about 100 MB of Python objects)."""
MAX_JSON_DEPTH = 32
"""Nesting of ``meta.json`` (rams writes 5 levels): deeper is refused, never a RecursionError."""
MAX_LAYERS = 8
MAX_PARAMETERS = 8_000_000
"""Weights of the network ``meta.json`` describes: 32 MB of float32, about 50 times the shipped [128, 128]
networks; ``net_arch: [2048, 2048]`` on 500 inputs (10.5 M) is refused before anything is built."""
FLOAT_BYTES = 4
ADAM_MOMENTS = ("exp_avg", "exp_avg_sq")
"""Adam's tensors per weight (first and second moments): what sizes the optimizer file."""
MAX_PICKLE_BYTES = 2**20
"""The pickle inside a ``.pt`` file (names, shapes, settings): a few KiB for any rams network. The tensors'
bytes are separate records; a larger pickle could only be building objects."""
TORCH_OVERHEAD = 2**20
"""What ``torch.save`` adds to the raw tensor bytes (pickle, record headers, alignment): a few KiB in practice."""


class CheckpointError(ValueError):
    """A checkpoint that cannot be trusted or used; nothing from it was executed.

    ``CheckpointError(path, problem)`` reads "path: problem"; a single argument is the whole message. Either
    way the message is one line, whatever the underlying error said."""

    def __init__(self, path: str | Path, problem: str | None = None) -> None:
        message = str(path) if problem is None else f"{path}: {problem}"
        super().__init__(" ".join(message.split()))


def parameter_count(observation_size: int, action_size: int, net_arch: NetArch) -> int:
    """Weights of the maskable actor-critic MLP (agents/checkpoint_agent.build_policy): a policy and a value
    tower (agents/checkpoint/net_arch.py), then the action head on the first and the value head on the second
    (tested against the built network)."""
    policy, value = towers(net_arch)
    pi_weights, pi_width = _tower_count(observation_size, policy)
    vf_weights, vf_width = _tower_count(observation_size, value)
    return pi_weights + vf_weights + (pi_width + 1) * action_size + vf_width + 1


def _tower_count(observation_size: int, widths: list[int]) -> tuple[int, int]:
    """Weights and biases of one tower of ``widths`` on ``observation_size`` inputs, and the width it ends at."""
    total, width = 0, observation_size
    for layer in widths:
        total += width * layer + layer
        width = layer
    return total, width


def specialist_member(index: int) -> str:
    return f"specialist_{index}.pt"


def member_caps(meta: dict[str, Any] | None = None) -> dict[str, int]:
    """Most bytes each member may inflate to: for the largest allowed network, or for the one ``meta`` describes
    (and each of its specialists, whose sizes are the base's and whose ``net_arch`` is its own)."""
    weights = MAX_PARAMETERS if meta is None else parameter_count(
        meta["observation_size"], meta["action_size"], meta["net_arch"])
    specialists = [MAX_PARAMETERS] * MAX_SPECIALISTS if meta is None else [
        parameter_count(meta["observation_size"], meta["action_size"], entry["net_arch"])
        for entry in meta.get(SPECIALISTS, [])]
    return {META: MAX_META_BYTES, POLICY: weights * FLOAT_BYTES + TORCH_OVERHEAD,
            OPTIMIZER: len(ADAM_MOMENTS) * weights * FLOAT_BYTES + TORCH_OVERHEAD,
            TRAINER: TRAINER_NETWORKS * weights * FLOAT_BYTES + TRAINER_DEALS_BYTES + TORCH_OVERHEAD,
            **{specialist_member(i): count * FLOAT_BYTES + TORCH_OVERHEAD for i, count in enumerate(specialists)}}


def _tensor_bytes(obj: Any) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


def save_checkpoint(path: str | Path, meta: dict[str, Any], policy_state: dict[str, torch.Tensor],
                    optimizer_state: dict[str, Any] | None = None, trainer_state: dict[str, Any] | None = None,
                    specialist_states: list[dict[str, torch.Tensor]] = ()) -> Path:
    """Write a checkpoint atomically (agents/checkpoint/atomic.py: temporary file in the same folder, then rename);
    ``trainer_state`` (tensors and plain data) goes into the optional member ``trainer.pt``, the weights of
    ``meta["specialists"]`` (one state_dict each, in their order) into their own members."""
    if len(specialist_states) != len(meta.get(SPECIALISTS, [])):
        raise ValueError(f"{len(specialist_states)} specialists' weights for {len(meta.get(SPECIALISTS, []))} "
                         f"entries of meta[{SPECIALISTS!r}]")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {**meta, "format": FORMAT, "version": VERSION}
    with atomic_file(path) as raw, zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(META, json.dumps(meta, indent=2, default=str))
        zf.writestr(POLICY, _tensor_bytes({k: v.detach().cpu() for k, v in policy_state.items()}))
        if optimizer_state is not None:
            zf.writestr(OPTIMIZER, _tensor_bytes(optimizer_state))
        if trainer_state is not None:
            zf.writestr(TRAINER, _tensor_bytes(trainer_state))
        for index, state in enumerate(specialist_states):
            zf.writestr(specialist_member(index), _tensor_bytes({k: v.detach().cpu() for k, v in state.items()}))
    return path


def load_checkpoint(path: str | Path, with_optimizer: bool = False) -> tuple[dict, dict, dict | None]:
    """(meta, policy state_dict, optimizer state or None), validated; raises CheckpointError."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as err:
        raise CheckpointError(path, f"cannot read it ({err.strerror or err})") from None
    if size > MAX_FILE_BYTES:
        raise CheckpointError(path, f"{size} bytes on disk (limit {MAX_FILE_BYTES // 2**20} MiB); refused")
    try:
        with open_bounded(path, member_caps()) as zf:
            meta, state, optimizer = _read(zf, path, with_optimizer)
    except ZipRefused as err:
        raise CheckpointError(path, f"{err}; refused") from None
    except OSError as err:
        raise CheckpointError(path, f"cannot read it ({err.strerror or err})") from None
    from agents.checkpoint.general import upgraded  # it imports this module
    return upgraded(meta, state, optimizer, path)


def load_trainer_state(path: str | Path) -> dict[str, Any] | None:
    """The optional ``trainer.pt`` of a checkpoint (None when absent), after the checks of :func:`load_checkpoint`;
    loaded weights-only, so it holds tensors, numbers, strings, lists and dicts, never an object."""
    meta, _, _ = load_checkpoint(path)
    state = _read_member(path, meta, TRAINER, lambda zf, member, cap: _load_tensors(
        read_bounded(zf, member, cap), member, cap))
    if state is not None and not isinstance(state, dict):
        raise CheckpointError(path, f"{TRAINER} must hold a mapping")
    return state


def load_specialist_state(path: str | Path, index: int) -> dict[str, torch.Tensor]:
    """The weights of specialist ``index`` of the checkpoint at ``path`` (agents/checkpoint/specialists.py), after
    the checks of :func:`load_checkpoint`, with the bounds and tensor checks of ``policy.pt``."""
    meta, _, _ = load_checkpoint(path)  # it refuses a file that lacks a listed specialist's member
    if not 0 <= index < len(meta.get(SPECIALISTS, [])):
        raise CheckpointError(path, f"has no specialist {index}")
    return _read_member(path, meta, specialist_member(index), _weights)


def _read_member(path: str | Path, meta: dict[str, Any], member: str, read) -> Any:
    """``read(zf, member, cap)`` on the checkpoint at ``path`` (its ``meta`` already checked), None if the member is
    absent; every refusal a CheckpointError."""
    caps = member_caps(meta)
    try:
        with open_bounded(Path(path), caps) as zf:
            return read(zf, member, caps[member]) if member in zf.namelist() else None
    except ZipRefused as err:
        raise CheckpointError(path, f"{err}; refused") from None
    except OSError as err:
        raise CheckpointError(path, f"cannot read it ({err.strerror or err})") from None


def _weights(zf: zipfile.ZipFile, member: str, cap: int) -> dict[str, torch.Tensor]:
    """A member holding one network's state_dict: names to float32 tensors, read within ``cap``."""
    state = _load_tensors(read_bounded(zf, member, cap), member, cap)
    if not isinstance(state, dict) or not all(isinstance(k, str) and torch.is_tensor(v) for k, v in state.items()):
        raise ZipRefused(f"{member} must map names to tensors")
    if any(v.dtype != torch.float32 for v in state.values()):
        raise ZipRefused(f"{member} holds tensors that are not float32")
    return state


def _read(zf: zipfile.ZipFile, path: Path, with_optimizer: bool) -> tuple[dict, dict, dict | None]:
    names = set(zf.namelist())
    if not {META, POLICY} <= names:
        raise ZipRefused(f"missing {sorted({META, POLICY} - names)}; a checkpoint holds {META} and {POLICY}")
    meta = check_meta(parse_json(read_bounded(zf, META, MAX_META_BYTES)))
    caps = member_caps(meta)
    check_members(zf.infolist(), caps)  # now against the network the metadata describes
    wanted = {specialist_member(i) for i in range(len(meta.get(SPECIALISTS, [])))}
    if not wanted <= names:
        raise ZipRefused(f"missing {sorted(wanted - names)}, the weights of its {SPECIALISTS}")
    state = _weights(zf, POLICY, caps[POLICY])
    optimizer = None
    if with_optimizer and OPTIMIZER in names:
        optimizer = _load_tensors(read_bounded(zf, OPTIMIZER, caps[OPTIMIZER]), OPTIMIZER, caps[OPTIMIZER])
    return meta, state, optimizer


def parse_json(data: bytes) -> dict[str, Any]:
    """``meta.json`` as a dict nested at most MAX_JSON_DEPTH deep."""
    try:
        meta = json.loads(data)
    except (ValueError, RecursionError) as err:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ZipRefused(f"{META} is not JSON ({type(err).__name__})") from None
    if not isinstance(meta, dict):
        raise ZipRefused(f"{META} is not a JSON object")
    if depth(meta, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise ZipRefused(f"{META} is nested more than {MAX_JSON_DEPTH} levels deep")
    return meta


def depth(value: Any, limit: int) -> int:
    """Nesting depth of JSON containers, counted without recursion and stopping just past ``limit``."""
    deepest, stack = 0, [(value, 1)]
    while stack and deepest <= limit:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in children)
    return deepest


def _count(meta: dict[str, Any], key: str, minimum: int) -> int:
    value = meta.get(key)
    if type(value) is not int or value < minimum:  # bool is an int subclass: refused too
        raise ZipRefused(f"{META}: {key} must be an integer of at least {minimum}, not {value!r}")
    return value


def check_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """The fields every rams checkpoint has, typed and within limits (the network's size above all)."""
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise ZipRefused(f"not a {FORMAT} v{VERSION} file (format {meta.get('format')!r}, "
                         f"version {meta.get('version')!r})")
    if not isinstance(meta.get("game"), str):
        raise ZipRefused(f"{META}: game must be a name, not {meta.get('game')!r}")
    obs, actions = _count(meta, "observation_size", 1), _count(meta, "action_size", 1)
    _count(meta, "steps", 0)
    arch = meta.get("net_arch")
    _check_arch(arch, obs, actions, "net_arch")
    if "num_players" in meta:
        _count(meta, "num_players", 1)
    if meta.get("observation", GENERAL) != GENERAL:
        raise ZipRefused(f"{META}: observation must be {GENERAL!r} or absent, not {meta['observation']!r}")
    if not isinstance(meta.get("rules", {}), dict):
        raise ZipRefused(f"{META}: rules must be a mapping, not {meta.get('rules')!r}")
    _check_specialists(meta, obs, actions)
    return meta


def _check_arch(arch: Any, obs: int, actions: int, what: str) -> None:
    """A list of 1 to MAX_LAYERS positive widths, or SB3's {pi: [...], vf: [...]} of such lists (net_arch.py),
    within MAX_PARAMETERS weights."""
    try:
        layers = towers(arch)
    except ValueError:
        layers = None
    if layers is None or not all(1 <= len(tower) <= MAX_LAYERS for tower in layers):
        raise ZipRefused(f"{META}: {what} must list 1 to {MAX_LAYERS} positive layer widths, or map pi and vf to "
                         f"such lists, not {arch!r}")
    weights = parameter_count(obs, actions, arch)
    if weights > MAX_PARAMETERS:
        raise ZipRefused(f"{META}: {what} {arch} on {obs} inputs means {weights:,} weights "
                         f"(limit {MAX_PARAMETERS:,})")


def _check_specialists(meta: dict[str, Any], obs: int, actions: int) -> None:
    """``meta["specialists"]``, if present: at most MAX_SPECIALISTS entries of a general checkpoint, each with its
    network's ``net_arch`` (within the limits) and a non-empty list of tables (preset and size), no table twice."""
    entries = meta.get(SPECIALISTS)
    if entries is None:
        return
    if meta.get("observation") != GENERAL:
        raise ZipRefused(f"{META}: only a general checkpoint holds {SPECIALISTS}")
    if not (isinstance(entries, list) and 1 <= len(entries) <= MAX_SPECIALISTS):
        raise ZipRefused(f"{META}: {SPECIALISTS} must list 1 to {MAX_SPECIALISTS} entries")
    seen: set[tuple[str, int]] = set()
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ZipRefused(f"{META}: {SPECIALISTS}[{index}] must be a mapping")
        _check_arch(entry.get("net_arch"), obs, actions, f"{SPECIALISTS}[{index}].net_arch")
        tables = entry.get("tables")
        if not (isinstance(tables, list) and tables and all(
                isinstance(t, dict) and set(t) == {"preset", "num_players"} and isinstance(t["preset"], str)
                and type(t["num_players"]) is int for t in tables)):
            raise ZipRefused(f"{META}: {SPECIALISTS}[{index}].tables must list {{preset, num_players}} tables")
        for table in tables:
            key = (table["preset"], table["num_players"])
            if key in seen:
                raise ZipRefused(f"{META}: table {key[0]}:{key[1]} has two specialists")
            seen.add(key)


def _load_tensors(data: bytes, member: str, cap: int) -> Any:
    """``torch.load(weights_only=True)`` of a torch zip whose records are stored and within ``cap``; all
    tensors finite."""
    check_stored_archive(data, member, cap, MAX_PICKLE_BYTES)
    try:
        obj = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as err:  # UnpicklingError for hostile payloads, RuntimeError for corrupt data
        raise ZipRefused(f"{member} is not a plain tensor file ({type(err).__name__})") from None
    if not all_finite(obj):
        raise ZipRefused(f"{member} holds NaN or infinite values")
    return obj


def all_finite(obj: Any) -> bool:
    """Whether every float tensor and float in a loaded structure is finite. No recursion (any nesting), and each
    container is visited once: a pickle can share one list at every level, a tree of 2**64 paths in 64 lists."""
    stack, seen = [obj], set()
    while stack:
        item = stack.pop()
        if isinstance(item, (dict, list, tuple)):
            if id(item) in seen:
                continue
            seen.add(id(item))
        if torch.is_tensor(item):
            if item.is_floating_point() and not bool(torch.isfinite(item).all()):
                return False
        elif isinstance(item, float):
            if not math.isfinite(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return True
