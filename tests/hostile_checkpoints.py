"""A corpus of hostile and broken checkpoints, built from a valid one with zipfile, json and torch.

Every file is derived from a real ``last.zip`` of a tiny Toepen run (``net_arch: [8]``, steps
``STEPS``), changing one thing. ``EVERYWHERE`` files must be refused by every entry point that
loads a checkpoint; ``RESUME_ONLY`` files hold valid weights and are refused only by ``--resume``
(their optimizer state or run fields are broken). ``EXPECT`` gives a fragment of each refusal.
A pickled :class:`Payload` would create ``MARKER`` in the corpus folder if anything unpickled it.
"""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

STEPS = 256
NET_ARCH = [8]
MARKER = "pwned"
BOMB_BYTES = 2**29
"""What the zip bombs inflate to (512 MiB of zeros, a few MiB deflated fast): more than the memory bound."""
CHUNK = 2**20


class Payload:
    """Unpickling this creates a marker file: no loader may ever do it."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (Path(self.marker),))


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def write(path: Path | io.BytesIO, items: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> None:
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, blob in items.items():
            zf.writestr(name, blob)


def tensors(obj: Any) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


class Corpus:
    """Builds hostile variants of ``base`` (a valid checkpoint with optimizer state) into ``folder``."""

    def __init__(self, base: Path, folder: Path) -> None:
        self.base, self.folder = members(base), folder
        self.meta = json.loads(self.base["meta.json"])
        self.policy = torch.load(io.BytesIO(self.base["policy.pt"]), weights_only=True)
        self.optimizer = torch.load(io.BytesIO(self.base["optimizer.pt"]), weights_only=True)
        self.marker = str(folder / MARKER)

    def variant(self, name: str, **changes: bytes) -> Path:
        path = self.folder / f"{name}.zip"
        write(path, {**self.base, **changes})
        return path

    def meta_with(self, name: str, **fields: Any) -> Path:
        return self.variant(name, **{"meta.json": json.dumps({**self.meta, **fields}).encode()})

    def without(self, name: str, *keys: str) -> Path:
        return self.variant(name, **{"meta.json": json.dumps(
            {k: v for k, v in self.meta.items() if k not in keys}).encode()})

    def policy_with(self, name: str, change: Callable[[dict], None]) -> Path:
        state = {k: v.clone() for k, v in self.policy.items()}
        change(state)
        return self.variant(name, **{"policy.pt": tensors(state)})

    def optimizer_with(self, name: str, change: Callable[[dict], None]) -> Path:
        state = {"state": {i: dict(s) for i, s in self.optimizer["state"].items()},
                 "param_groups": [dict(g) for g in self.optimizer["param_groups"]]}
        change(state)
        return self.variant(name, **{"optimizer.pt": tensors(state)})

    def raw(self, name: str, data: bytes) -> Path:
        path = self.folder / f"{name}.zip"
        path.write_bytes(data)
        return path


def _corrupt_deflate(corpus: Corpus) -> Path:
    """The policy member's deflate stream garbled in the middle (its header and CRC untouched)."""
    path = corpus.variant("corrupt_deflate")
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("policy.pt")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for i in range(start + 20, start + 60):
        data[i] ^= 0xA5
    return corpus.raw("corrupt_deflate", bytes(data))


def _bomb(corpus: Corpus, name: str, member: str) -> Path:
    """``member`` inflating to BOMB_BYTES zeros (streamed: the zeros are never in memory at once)."""
    path = corpus.folder / f"{name}.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:  # fast: a few MiB
        for other, blob in corpus.base.items():
            if other != member:
                zf.writestr(other, blob)
        with zf.open(member, "w") as out:
            zero = bytes(CHUNK)
            for _ in range(BOMB_BYTES // CHUNK):
                out.write(zero)
    return path


def _lying(corpus: Corpus, bomb: Path, member: str, declared: int) -> Path:
    """``bomb`` with both headers of ``member`` claiming ``declared`` bytes uncompressed."""
    data = bytearray(bomb.read_bytes())
    with zipfile.ZipFile(bomb) as zf:
        info = zf.getinfo(member)
    real = info.file_size.to_bytes(4, "little")
    for offset in _find_all(data, real):  # the local header's and the central directory's size fields
        data[offset:offset + 4] = declared.to_bytes(4, "little")
    return corpus.raw("lying_header", bytes(data))


def _find_all(data: bytearray, needle: bytes) -> list[int]:
    found, start = [], data.find(needle)
    while start >= 0:
        found.append(start)
        start = data.find(needle, start + 1)
    return found


def _many_members(corpus: Corpus) -> Path:
    path = corpus.folder / "many_members.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for name, blob in corpus.base.items():
            zf.writestr(name, blob)
        for i in range(20_000):
            zf.writestr(f"x/{i:05d}", b"")
    return path


def _deflated_torch_records(corpus: Corpus) -> Path:
    """policy.pt rewritten with deflated records (torch.save stores them): a bomb torch's reader would inflate."""
    inner = members_of(corpus.base["policy.pt"])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, blob in inner.items():
            zf.writestr(name, blob)
    return corpus.variant("deflated_torch_records", **{"policy.pt": buffer.getvalue()})


BLOAT_ARCH = [1500, 1500]
"""A network under the weight cap (5.9 M) whose policy.pt may hold about 24 MB: room for a bloated pickle."""


def _pickle_bloat(corpus: Corpus) -> Path:
    """A torch file whose pickle is 20 MiB of "empty dict, append": 10 M dicts (about a gigabyte) if unpickled."""
    inner = members_of(corpus.base["policy.pt"])
    pkl = next(name for name in inner if name.endswith("data.pkl"))
    inner[pkl] = b"\x80\x02]" + b"}a" * (10 * 2**20) + b"."
    buffer = io.BytesIO()
    write(buffer, inner, zipfile.ZIP_STORED)
    meta = {**corpus.meta, "net_arch": BLOAT_ARCH}
    return corpus.variant("pickle_bloat", **{"policy.pt": buffer.getvalue(), "meta.json": json.dumps(meta).encode()})


def _shared_references() -> bytes:
    """64 lists, each holding the next one twice: a small pickle, but 2**64 paths for a walker that follows all."""
    shared: list = [1.0]
    for _ in range(64):
        shared = [shared, shared]
    return tensors({"w": shared})


def members_of(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def _nan(state: dict) -> None:
    state["action_net.weight"][0, 0] = float("nan")


def _inf(state: dict) -> None:
    state["value_net.bias"][0] = float("inf")


def _wider(state: dict) -> None:
    state["action_net.weight"] = torch.zeros(state["action_net.weight"].shape[0], 16)


def _float64(state: dict) -> None:
    state["action_net.bias"] = state["action_net.bias"].double()


def _nested(depth: int) -> bytes:
    return ('{"a":' * depth + "1" + "}" * depth).encode()


def build_everywhere(c: Corpus) -> dict[str, Path]:
    """Files every entry point must refuse."""
    bomb = _bomb(c, "bomb_policy", "policy.pt")
    return {
        "pickle_payload": c.variant("pickle_payload", **{"policy.pt": tensors({"w": Payload(c.marker)})}),
        "raw_pickle": c.variant("raw_pickle", **{"policy.pt": pickle.dumps(Payload(c.marker))}),
        "not_a_zip": c.raw("not_a_zip", b"PK\x03\x04" + bytes(range(256)) * 8),
        "truncated": c.raw("truncated", (c.folder / "pickle_payload.zip").read_bytes()[:600]),
        "corrupt_deflate": _corrupt_deflate(c),
        "deep_json": c.variant("deep_json", **{"meta.json": _nested(100_000)}),
        "nested_json": c.variant("nested_json", **{"meta.json": _nested(200)}),
        "meta_not_object": c.variant("meta_not_object", **{"meta.json": b"[1, 2, 3]"}),
        "huge_meta": c.variant("huge_meta", **{"meta.json": b" " * (64 * 2**20) + json.dumps(c.meta).encode()}),
        "bomb_policy": bomb,
        "bomb_meta": _bomb(c, "bomb_meta", "meta.json"),
        "lying_header": _lying(c, bomb, "policy.pt", declared=1000),
        "many_members": _many_members(c),
        "bzip2_member": _bzip2(c),
        "extra_member": c.variant("extra_member", **{"run.py": b"print('hi')"}),
        "missing_policy": _without_member(c, "policy.pt"),
        "deflated_torch_records": _deflated_torch_records(c),
        "pickle_bloat": _pickle_bloat(c),
        "shared_references": c.variant("shared_references", **{"policy.pt": _shared_references()}),
        "nan_weights": c.policy_with("nan_weights", _nan),
        "inf_weights": c.policy_with("inf_weights", _inf),
        "wrong_shapes": c.policy_with("wrong_shapes", _wider),
        "float64_weights": c.policy_with("float64_weights", _float64),
        "huge_net_arch": c.meta_with("huge_net_arch", net_arch=[6000, 6000]),
        "huge_critic": c.meta_with("huge_critic", net_arch={"pi": [8], "vf": [6000, 6000]}),
        "towers_misnamed": c.meta_with("towers_misnamed", net_arch={"pi": [8], "critic": [8]}),
        "missing_steps": c.without("missing_steps", "steps"),
        "string_steps": c.meta_with("string_steps", steps=str(STEPS)),
        "wrong_format": c.meta_with("wrong_format", format="other"),
        "other_game": c.meta_with("other_game", game="lupfen"),
        "other_players": c.meta_with("other_players", num_players=5),
        "other_rules": c.meta_with("other_rules", rules={**c.meta["rules"], "lives": 5}),
    }


def _bzip2(c: Corpus) -> Path:
    path = c.folder / "bzip2_member.zip"
    write(path, c.base, zipfile.ZIP_BZIP2)
    return path


def _without_member(c: Corpus, member: str) -> Path:
    path = c.folder / f"missing_{member.split('.')[0]}.zip"
    write(path, {k: v for k, v in c.base.items() if k != member})
    return path


def _optimizer_of_other_net(state: dict) -> None:
    for entry in state["state"].values():
        entry["exp_avg"] = torch.zeros(3, 3)


def _optimizer_nan(state: dict) -> None:
    state["state"][0]["exp_avg_sq"] = torch.full_like(state["state"][0]["exp_avg_sq"], float("nan"))


def _optimizer_fewer(state: dict) -> None:
    state["param_groups"][0]["params"] = state["param_groups"][0]["params"][:-2]


def _optimizer_string_setting(state: dict) -> None:
    state["param_groups"][0]["eps"] = "tiny"


def build_resume_only(c: Corpus) -> dict[str, Path]:
    """Files with valid weights that ``--resume`` must refuse (optimizer state and run fields)."""
    return {
        "optimizer_pickle": c.variant("optimizer_pickle", **{"optimizer.pt": tensors({"w": Payload(c.marker)})}),
        "optimizer_shapes": c.optimizer_with("optimizer_shapes", _optimizer_of_other_net),
        "optimizer_nan": c.optimizer_with("optimizer_nan", _optimizer_nan),
        "optimizer_fewer_params": c.optimizer_with("optimizer_fewer_params", _optimizer_fewer),
        "optimizer_string_setting": c.optimizer_with("optimizer_string_setting", _optimizer_string_setting),
        "pool_strings": c.meta_with("pool_strings", pool={"snapshots": ["x"]}),
        "pool_not_mapping": c.meta_with("pool_not_mapping", pool="snapshots"),
        "pool_bad_rate": c.meta_with("pool_bad_rate", pool={"snapshots": [], "results": {"1": {"rate": 7}}}),
        "pool_missing_snapshot": c.meta_with("pool_missing_snapshot", pool={"snapshots": [STEPS * 7]}),
        "history_not_list": c.meta_with("history_not_list", history=5),
        "history_bad_entry": c.meta_with("history_bad_entry", history=[{"steps": "a", "results": []}]),
        "warm_start_bad": c.meta_with("warm_start_bad", warm_start=["x"]),
    }


EXPECT = {
    "pickle_payload": "not a plain tensor file", "raw_pickle": "not a zip file", "not_a_zip": "not a zip file",
    "truncated": "zip", "corrupt_deflate": "corrupt", "deep_json": "not JSON", "nested_json": "nested more than",
    "meta_not_object": "not a JSON object", "huge_meta": "declares", "bomb_policy": "declares",
    "bomb_meta": "declares", "lying_header": "corrupt", "many_members": "central directory",
    "bzip2_member": "compression method", "extra_member": "unexpected members", "missing_policy": "missing",
    "deflated_torch_records": "compressed records", "pickle_bloat": "holds a pickle of",
    "shared_references": "must map names to tensors",
    "nan_weights": "NaN", "inf_weights": "NaN",
    "wrong_shapes": "the network needs", "float64_weights": "float32", "huge_net_arch": "weights (limit",
    "huge_critic": "weights (limit", "towers_misnamed": "map pi and vf",
    "missing_steps": "steps must be", "string_steps": "steps must be", "wrong_format": "not a rams-checkpoint",
    "other_game": "trained for lupfen", "other_players": "trained for 5 players, this table has 4",
    "other_rules": "trained with rules lives=5, this table has lives=10",
    "optimizer_pickle": "not a plain tensor file", "optimizer_shapes": "exp_avg of parameter 0",
    "optimizer_nan": "NaN", "optimizer_fewer_params": "parameters, the network has",
    "optimizer_string_setting": "setting eps", "pool_strings": "pool must be", "pool_not_mapping": "pool must be",
    "pool_bad_rate": "pool must be", "pool_missing_snapshot": "cannot read it", "history_not_list": "history must be",
    "history_bad_entry": "history must be", "warm_start_bad": "warm_start must be",
}
"""A fragment of each file's refusal (the whole message is one line naming the file)."""
