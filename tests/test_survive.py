"""Training that survives what users do: Ctrl-C, kills mid-write, resumes, reruns and unwritable outputs.

Ctrl-C is a real SIGINT sent to a real training process; unwritable paths are real (a path under a regular
file, a read-only and a full tmpfs where the machine lets us mount one): the machine runs as root, which
ignores permission bits, so chmod would prove nothing.
"""

from __future__ import annotations

import json
import os
import shlex
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

from agents.checkpoint.format import load_checkpoint, save_checkpoint  # noqa: E402
from training.outputs import OutputError, check_outputs  # noqa: E402
from training.rundir import RUN_FILES, prepare_run_dir  # noqa: E402
from training.stopping import StopRequest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = ["n_envs=2", "ppo.n_steps=256", "ppo.batch_size=128", "ppo.n_epochs=1", "eval.every=0", "eval.deals=4",
        "eval.final_deals=0", "checkpoint_every=512", "snapshot_every=256", "snapshots_kept=2",
        "eval.ratings_deals=0", "opponents={self: 0.3, snapshots: 0.3, heuristic: 0.2, random: 0.2}"]
"""A tiny Toepen run: rollouts of 512 steps (2 envs x 256), a snapshot every 256 steps, the pool complete."""


def train_args(out: Path, steps: int, *extra: str) -> list[str]:
    return ["configs/train/toepen.yaml", "--quiet", *[f"--set={s}" for s in TINY],
            f"--set=total_timesteps={steps}", f"--set=out_dir={out}", *extra]


def final_weights(out: Path) -> dict[str, torch.Tensor]:
    return load_checkpoint(out / "final.zip")[1]


def partial_files(out: Path) -> list[Path]:
    return [p for p in out.rglob("*.tmp")]


# ------------------------------------------------------------------ Ctrl-C, resume, same run as without
@pytest.mark.slow
def test_ctrl_c_saves_last_zip_and_the_resumed_run_equals_an_uninterrupted_one(tmp_path):
    """SIGINT mid-training: exit 130, last.zip saved, one line says how to resume; that command finishes the
    run, and its final weights and evaluation equal those of the same run never interrupted."""
    from cli.train import main

    steps = 1536
    stopped, whole = tmp_path / "stopped", tmp_path / "whole"
    cmd = [sys.executable, "-m", "cli", "train", *train_args(stopped, steps)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not (stopped / "last.zip").exists():  # the first checkpoint: 512 steps
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and not (stopped / "final.zip").exists()
    meta, _, optimizer = load_checkpoint(stopped / "last.zip", with_optimizer=True)
    assert 512 <= meta["steps"] < steps and meta["steps"] % 512 == 0 and optimizer is not None  # a rollout's end
    assert f"saved {stopped / 'last.zip'}" in err and not partial_files(stopped)
    resume = shlex.split(err.split("resume with: ")[1].strip())
    assert resume[:2] == ["rams", "train"] and resume[-1] == "--resume"
    done = subprocess.run([sys.executable, "-m", "cli", *resume[1:]], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert main(train_args(whole, steps)) == 0
    first, second = final_weights(stopped), final_weights(whole)
    assert all(torch.equal(first[k], second[k]) for k in second)
    results = [json.loads((out / "results.json").read_text())["final"] for out in (stopped, whole)]
    assert results[0] == results[1]


def test_resumed_env_replays_the_deal_in_progress_and_continues_its_generator():
    """An env rebuilt from state() plays on exactly like the original: same observations, rewards, deals."""
    import rams_env
    from training.pool import OpponentPool
    from training.single_seat import SingleSeatEnv

    game = rams_env.make_game("toepen", 4)
    pool = OpponentPool(game, {"random": 0.5, "heuristic": 0.5}, game.observation.size, game.actions.size, [8])
    original, resumed = (SingleSeatEnv("toepen", pool, random_carry=True) for _ in range(2))
    rng = np.random.default_rng(3)
    original.reset(seed=11)
    for _ in range(9):  # stop in the middle of a deal, a few deals in
        if original.step(int(rng.choice(np.flatnonzero(original.action_masks()))))[2]:
            original.reset()
    assert original.state()["deal"]["moves"]
    resumed.continue_from(json.loads(json.dumps(original.state())))  # as stored in a checkpoint
    obs, _ = resumed.reset(seed=999)  # the recorded state wins over any seed
    assert np.array_equal(obs, original._observe())
    for _ in range(300):  # many deals on: the generator continues, not restarts
        action = int(rng.choice(np.flatnonzero(original.action_masks())))
        a, b = original.step(action), resumed.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:3] == b[1:3]
        assert np.array_equal(original.action_masks(), resumed.action_masks())
        if a[2]:
            assert np.array_equal(original.reset()[0], resumed.reset()[0])


def test_a_signal_asks_to_stop_and_a_second_one_stops_at_once():
    """SIGTERM and SIGINT: the first while training sets the request (exit code 128 + signal), the next one
    (or one outside training) raises KeyboardInterrupt; the previous handlers come back afterwards."""
    before = signal.getsignal(signal.SIGTERM)
    with StopRequest() as stop:
        stop.armed = True
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.requested and stop.exit_code == 143
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
        assert stop.exit_code == 130
    with StopRequest() as stop, pytest.raises(KeyboardInterrupt):  # not armed: at once
        os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGTERM) is before


def test_an_interrupt_while_saving_leaves_the_previous_checkpoint_whole(tmp_path, monkeypatch):
    """A second Ctrl-C lands in the middle of writing last.zip: the old file stays, nothing half-written."""
    import agents.checkpoint.format as checkpoint
    from agents.checkpoint_agent import build_policy

    policy = build_policy(4, 3, [8])
    path = save_checkpoint(tmp_path / "last.zip", {"steps": 1}, policy.state_dict())
    before = path.read_bytes()

    def interrupted(obj):
        raise KeyboardInterrupt

    monkeypatch.setattr(checkpoint, "_tensor_bytes", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(path, {"steps": 2}, policy.state_dict())
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]


# ------------------------------------------------------------------ the run folder
def test_partial_files_of_a_killed_write_are_removed_at_the_next_start(tmp_path):
    """A process killed inside an atomic write leaves its temporary file; the next start removes it and only
    files of that pattern (a user's own .tmp files stay)."""
    (tmp_path / "snapshots").mkdir()
    (tmp_path / "last.zip").write_bytes(b"kept")
    for target in (tmp_path / "last.zip", tmp_path / "snapshots" / "snapshot_000000256.zip"):
        killed = (f"import os; from agents.checkpoint.atomic import atomic_file\n"
                  f"with atomic_file({str(target)!r}) as f:\n    f.write(b'half'); f.flush(); os._exit(9)")
        assert subprocess.run([sys.executable, "-c", killed], cwd=ROOT).returncode == 9
    orphans = partial_files(tmp_path)
    assert len(orphans) == 2
    mine = [tmp_path / "notes.tmp", tmp_path / ".cache.tmp", tmp_path / "data.12345678.tmp"]
    for path in mine:
        path.write_text("mine")
    assert prepare_run_dir(tmp_path, resume=True, overwrite=False) is None
    assert not any(p.exists() for p in orphans) and all(p.exists() for p in mine)
    assert (tmp_path / "last.zip").read_bytes() == b"kept"


def test_a_folder_holding_a_run_is_refused_and_overwrite_deletes_only_the_run(tmp_path, capsys):
    from cli.train import main

    for name in RUN_FILES:
        (tmp_path / name).mkdir() if "." not in name else (tmp_path / name).write_text(name)
    (tmp_path / "tb" / "ppo_1").mkdir()
    (tmp_path / "notes.txt").write_text("mine")
    assert main(train_args(tmp_path, 512)) == 2
    err = capsys.readouterr().err
    assert "already holds a training run" in err and "--resume" in err and "--overwrite" in err
    assert (tmp_path / "final.zip").read_text() == "final.zip" and (tmp_path / "tb" / "ppo_1").is_dir()
    assert "deleted the previous run" in prepare_run_dir(tmp_path, resume=False, overwrite=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_resume_before_the_first_checkpoint_starts_afresh_with_a_note(tmp_path, capsys):
    """A restart script always passes --resume: with no last.zip yet (here a start killed before its first
    checkpoint left config.yaml and a TensorBoard run) it starts afresh, in one TensorBoard run."""
    from cli.train import main

    (tmp_path / "config.yaml").write_text("left over")
    (tmp_path / "tb" / "ppo_1").mkdir(parents=True)
    (tmp_path / "tb" / "ppo_1" / "events.out.tfevents.0.old").write_text("")
    assert main(train_args(tmp_path, 512, "--resume")) == 0
    assert "no checkpoint in" in capsys.readouterr().out
    assert load_checkpoint(tmp_path / "final.zip")[0]["steps"] == 512
    runs = list((tmp_path / "tb").iterdir())
    assert len(runs) == 1 and not list(runs[0].glob("*.old"))
    with zipfile.ZipFile(tmp_path / "last.zip") as zf:  # a deal in progress with a move no one may make
        members = {name: zf.read(name) for name in zf.namelist()}
    meta = json.loads(members["meta.json"])
    meta["streams"]["envs"][0]["deal"]["moves"].append(10**6)
    members["meta.json"] = json.dumps(meta).encode()
    with zipfile.ZipFile(tmp_path / "last.zip", "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    assert main(train_args(tmp_path, 512, "--resume")) == 2
    err = capsys.readouterr().err
    assert "cannot resume" in err and "random streams" in err and "Traceback" not in err


def test_resume_and_overwrite_together_are_refused(tmp_path):
    from cli.train import main

    with pytest.raises(SystemExit):
        main(train_args(tmp_path, 512, "--resume", "--overwrite"))


# ------------------------------------------------------------------ unwritable outputs, every subcommand
def blocked(tmp_path: Path) -> Path:
    """A path under a regular file: no one, root included, can create it."""
    (tmp_path / "file").write_text("")
    return tmp_path / "file" / "out"


def commands(bad: Path) -> dict[str, list[str]]:
    """Each subcommand that writes, with one output under ``bad`` (a run that would take a while otherwise)."""
    return {"train": train_args(bad, 512),
            "train --export": [*train_args(bad.parent.parent / "run", 512), "--export", str(bad / "x.zip")],
            "evaluate": ["--agents", "heuristic", "random", "--deals", "50", "--json", str(bad / "x.json")],
            "baselines": ["--deals", "2", "--rating-deals", "2", "--throughput-deals", "2", "--out", str(bad / "b.md")],
            "exploit": ["random", "--game", "toepen", "--steps", "512", "--out", str(bad)],
            "bluff": ["heuristic", "--deals", "20", "--markdown", str(bad / "x.md")]}


MODULES = {"train": "cli.train", "evaluate": "cli.evaluate", "baselines": "cli.baselines",
           "exploit": "cli.exploit", "bluff": "cli.bluff"}


@pytest.mark.parametrize("command", ["train", "train --export", "evaluate", "baselines", "exploit", "bluff"])
def test_an_unwritable_output_is_refused_before_any_work(tmp_path, capsys, command):
    import importlib

    bad = blocked(tmp_path)
    main = importlib.import_module(MODULES[command.split()[0]]).main
    start = time.process_time()
    assert main(commands(bad)[command]) == 2
    assert time.process_time() - start < 5  # no training, no tournament
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot write" in err and str(tmp_path / "file") in err, err
    assert f"{tmp_path / 'file'} is a file, not a folder" in err


def mount_tmpfs(where: Path, options: str) -> Path:
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    return where


@pytest.fixture
def tmpfs(tmp_path):
    mounted = []

    def mount(name: str, options: str) -> Path:
        mounted.append(mount_tmpfs(tmp_path / name, options))
        return mounted[-1]

    yield mount
    for where in mounted:
        subprocess.run(["umount", str(where)], check=True)


def test_read_only_and_full_file_systems_are_refused(tmpfs, capsys):
    from cli.train import main

    read_only = tmpfs("ro", "ro,size=1m")
    with pytest.raises(OutputError, match="Read-only file system"):
        check_outputs(files=[read_only / "results.json"])
    full = tmpfs("full", "size=1m")
    (full / "ballast").write_bytes(b"\0" * 2**20)  # tmpfs rounds to pages: fill what it takes
    with pytest.raises(OutputError, match="No space left"):
        check_outputs(folders=[full / "run"], min_free=0)
    (full / "ballast").unlink()
    assert main(train_args(full / "run", 512)) == 2  # 1 MiB free: less than a run needs
    assert "MiB free" in capsys.readouterr().err


def test_a_disk_that_fills_up_during_training_ends_with_one_clear_message(tmpfs, monkeypatch, capsys):
    """The check passed, then the disk filled up (another process): no traceback, exit code 1, the file that
    could not be written named, and no partial file left behind."""
    import cli.train as train

    disk = tmpfs("filling", "size=20m")
    checked = train.prepare_run_dir

    def then_fill(*args):
        note = checked(*args)
        (disk / "ballast").write_bytes(b"\0" * (os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize - 2**18))
        return note

    monkeypatch.setattr(train, "prepare_run_dir", then_fill)
    assert train.main(train_args(disk / "run", 2048)) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "No space left on device" in err and "Traceback" not in err, err
    assert f"cannot write {disk / 'run' / 'snapshots' / 'snapshot_000000256.zip'}" in err  # the first large file
    assert not partial_files(disk)


def test_a_snapshot_the_pool_forgot_is_read_back_for_a_deal_that_seats_it(tmp_path):
    """A deal in progress may seat a snapshot dropped from the pool since it began: its file outlives pruning,
    and after a resume the pool reads it back to replay that deal."""
    import rams_env
    from agents.checkpoint_agent import build_policy
    from tests.test_pool import _run_meta
    from training.pool import OpponentPool, snapshot_path

    game = rams_env.make_game("toepen", 4)
    pool = OpponentPool(game, {"snapshots": 1.0}, game.observation.size, game.actions.size, [8], snapshots_kept=1)
    live = build_policy(pool.obs_size, pool.n_actions, [8])
    pool.attach(live)
    first = pool.add_snapshot(256, live)
    pool.save_snapshot(tmp_path, first, _run_meta(pool))
    with torch.no_grad():
        next(live.parameters()).add_(1.0)
    pool.save_snapshot(tmp_path, pool.add_snapshot(512, live), _run_meta(pool))
    pool.prune(tmp_path, in_play={256})
    assert snapshot_path(tmp_path, 256).exists()
    pool.restore(tmp_path, pool.state())  # a resumed run: the pool holds 512 only
    [agent] = pool.build(["snapshot:256"])
    restored, saved = agent.policy.state_dict(), first.policy.state_dict()
    assert agent.name == "snapshot:256" and all(torch.equal(restored[k], saved[k]) for k in saved)
    pool.prune(tmp_path)
    assert not snapshot_path(tmp_path, 256).exists()
