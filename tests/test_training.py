"""Training: the single-seat view, configs, safe checkpoints, a smoke run, kill-and-resume."""

from __future__ import annotations

import io
import json
import os
import pickle
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from agents.checkpoint_agent import CheckpointAgent, build_policy  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from training.checkpoint import CheckpointError, load_checkpoint, save_checkpoint  # noqa: E402
from training.config import ConfigError, load_config  # noqa: E402
from training.single_seat import SingleSeatEnv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = ["total_timesteps=1024", "n_envs=2", "ppo.n_steps=256", "ppo.batch_size=128", "ppo.n_epochs=1",
        "eval.every=0", "eval.deals=4", "checkpoint_every=256", "snapshot_every=512"]


def randoms(rng: np.random.Generator, n: int = 4):
    return [RandomAgent(int(rng.integers(1000))) for _ in range(n)]


# ------------------------------------------------------------------ single seat
@pytest.mark.parametrize("game", ["toepen", "mauscheln", "lupfen", "tippen"])
def test_single_seat_rewards_are_the_learners_own(game):
    """Summed step rewards equal the learner's final score in the underlying game, seat by seat."""
    env = SingleSeatEnv(game, randoms, random_carry=True)
    rng = np.random.default_rng(0)
    for seed in range(40):
        obs, info = env.reset(seed=seed)
        seat, total, done = info["seat"], 0.0, False
        while not done:
            assert env.observation_space.contains(obs)
            legal = np.flatnonzero(env.action_masks())
            assert len(legal) and env.aec.agent_selection == env.learner
            obs, reward, done, _, _ = env.step(int(rng.choice(legal)))
            total += reward
        assert total == env.aec.state.scores[seat]


# ------------------------------------------------------------------------ config
def test_config_rejects_unknown_keys_and_bad_values(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("game: toepen\nppo: {learning_rat: 0.1}\n")
    with pytest.raises(ConfigError, match="learning_rat"):
        load_config(path)
    with pytest.raises(ConfigError, match="totl_steps"):
        load_config(None, ["totl_steps=5"])
    with pytest.raises(ValueError, match="no_rule"):
        load_config(None, ["rules={no_rule: 1}"])
    with pytest.raises(ConfigError, match="opponents"):
        load_config(None, ["opponents={bot: 1}"])
    assert load_config(ROOT / "configs/train/toepen.yaml", ["ppo.learning_rate=1e-4"]).ppo.learning_rate == 1e-4


# ------------------------------------------------------------------- checkpoints
def _meta():
    return {"game": "toepen", "observation_size": 4, "action_size": 3, "net_arch": [8]}


class Payload:
    """Unpickling this would create a marker file: the loader must never do it."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (Path(self.marker),))


def test_checkpoint_round_trip_and_agent_acts_legally(tmp_path):
    policy = build_policy(4, 3, [8])
    path = save_checkpoint(tmp_path / "c.zip", _meta(), policy.state_dict())
    meta, state, _ = load_checkpoint(path)
    assert meta["game"] == "toepen" and set(state) == set(policy.state_dict())
    agent = CheckpointAgent(path)
    for _ in range(20):
        mask = np.array([0, 1, 1], dtype=np.int8)
        assert agent.act(np.random.rand(4).astype(np.float32), mask, {}) in (1, 2)


@pytest.mark.filterwarnings("ignore:Detected pickle protocol:UserWarning")  # the payload's own protocol
def test_hostile_checkpoint_is_refused_without_executing_anything(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "hostile.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("meta.json", json.dumps({**_meta(), "format": "rams-checkpoint", "version": 1}))
        buffer = io.BytesIO()
        torch.save({"w": Payload(str(marker))}, buffer)  # torch.save pickles the payload
        zf.writestr("policy.pt", buffer.getvalue())
    with pytest.raises(CheckpointError, match="refused"):
        CheckpointAgent(path)
    assert not marker.exists()
    with zipfile.ZipFile(path, "w") as zf:  # a raw pickle under the expected name
        zf.writestr("meta.json", json.dumps({**_meta(), "format": "rams-checkpoint", "version": 1}))
        zf.writestr("policy.pt", pickle.dumps(Payload(str(marker))))
    with pytest.raises(CheckpointError):
        load_checkpoint(path)
    assert not marker.exists()


@pytest.mark.parametrize("damage", ["truncate", "garbage", "extra_member", "wrong_format", "wrong_shapes"])
def test_corrupt_checkpoints_are_refused(tmp_path, damage):
    policy = build_policy(4, 3, [8])
    path = save_checkpoint(tmp_path / "c.zip", _meta(), policy.state_dict())
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif damage == "extra_member":
        with zipfile.ZipFile(path, "a") as zf:
            zf.writestr("run.py", "print('hi')")
    elif damage == "wrong_format":
        save_checkpoint(path, {**_meta()}, policy.state_dict())
        with zipfile.ZipFile(path) as zf:
            members = {n: zf.read(n) for n in zf.namelist()}
        members["meta.json"] = json.dumps({**_meta(), "format": "other", "version": 1}).encode()
        with zipfile.ZipFile(path, "w") as zf:
            for name, blob in members.items():
                zf.writestr(name, blob)
    else:
        save_checkpoint(path, {**_meta(), "net_arch": [16]}, policy.state_dict())
    with pytest.raises(CheckpointError):
        CheckpointAgent(path)


# ---------------------------------------------------------------------- training
def test_smoke_training_run_writes_checkpoints_results_and_logs(tmp_path):
    from training.train import main

    assert main(["configs/train/toepen.yaml", "--quiet", *[f"--set={s}" for s in TINY],
                 f"--set=out_dir={tmp_path}"]) == 0
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["steps"] >= 1024 and results["final"][0]["baseline"] == "random"
    agent = CheckpointAgent(tmp_path / "final.zip")
    agent.check_game("toepen", 4)
    assert any((tmp_path / "tb").rglob("events.out.tfevents.*"))


def test_killed_run_resumes_from_its_last_checkpoint(tmp_path):
    overrides = [s.replace("total_timesteps=1024", "total_timesteps=6144") for s in TINY]
    cmd = [sys.executable, "-m", "training.cli", "train", "configs/train/toepen.yaml", "--quiet",
           *[f"--set={s}" for s in overrides], f"--set=out_dir={tmp_path}"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and not (tmp_path / "last.zip").exists():
        time.sleep(0.2)
    time.sleep(1.0)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    meta, _, optimizer = load_checkpoint(tmp_path / "last.zip", with_optimizer=True)
    assert 0 < meta["steps"] < 6144 and optimizer is not None
    done = subprocess.run([*cmd, "--resume"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    final, _, _ = load_checkpoint(tmp_path / "final.zip")
    assert final["steps"] >= 6144


def test_a_small_budget_beats_the_random_agent_with_significance(tmp_path):
    """Learning, not only running: 8k learner steps of Toepen beat random over duplicate deals."""
    from training.train import main

    assert main(["configs/train/toepen.yaml", "--quiet", "--set=total_timesteps=8192", "--set=eval.every=0",
                 "--set=eval.deals=40", f"--set=out_dir={tmp_path}"]) == 0
    final = json.loads((tmp_path / "results.json").read_text())["final"][0]
    assert final["mean"] - final["ci95"] > 0, final
