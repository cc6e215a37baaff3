"""The hostile checkpoint corpus (tests/hostile_checkpoints.py), built here and loaded through every entry point
(tests/hostile_runner.py, one subprocess): each file refused with one line naming it, exit status 2, no code
run, within bounded memory and time. The table checks (players, rules, the explicit opt-in) are tested too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import rams_env  # noqa: E402
from agents.checkpoint.format import MAX_PARAMETERS, CheckpointError, load_checkpoint, parameter_count  # noqa: E402
from agents.registry import agent_factory, pretrained_path  # noqa: E402
from tests.hostile_checkpoints import EXPECT, MARKER, NET_ARCH, STEPS, Corpus, build_everywhere, build_resume_only  # noqa: E402
from tests.hostile_runner import SCOPES  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TRAIN = ["total_timesteps=256", "n_envs=2", "ppo.n_steps=128", "ppo.batch_size=128", "ppo.n_epochs=1",
         "eval.every=0", "eval.deals=2", "eval.final_deals=0", f"checkpoint_every={STEPS}",
         f"snapshot_every={STEPS}", "snapshots_kept=2", "eval.ratings_deals=0", f"ppo.net_arch={NET_ARCH}",
         "opponents={self: 0.5, random: 0.5}", "eval.baselines=[random]", "warm_start.teacher=''"]
CONFIG = str(ROOT / "configs/train/toepen.yaml")
PEAK_LIMIT_MIB = 300
"""Memory a refusal may take above what the process held before it (the bombs inflate to 512 MiB)."""
SECONDS_LIMIT = 20
"""Time a refusal may take (building the tiny run of --resume included; shared CI machines are slow)."""


def valid_checkpoint(out: Path) -> Path:
    """A real ``last.zip`` of a tiny Toepen run at STEPS steps, with Adam's moments after one update."""
    from training.config import load_config
    from training.train import Run

    run = Run(load_config(CONFIG, [*TRAIN, f"out_dir={out}"]), quiet=True)
    policy = run.model.policy
    sum(p.sum() for p in policy.parameters()).backward()
    policy.optimizer.step()
    run.model.num_timesteps = STEPS
    return run.save("last.zip")


@pytest.fixture(scope="module")
def refusals(tmp_path_factory) -> list[dict]:
    root = tmp_path_factory.mktemp("hostile")
    corpus = Corpus(valid_checkpoint(root / "base"), (root / "corpus"))
    corpus.folder.mkdir()
    files = {**{k: [str(v), "everywhere"] for k, v in build_everywhere(corpus).items()},
             **{k: [str(v), "resume"] for k, v in build_resume_only(corpus).items()},
             "valid": [str(root / "base" / "last.zip"), "valid"]}
    snapshot_base = corpus.meta_with("snapshot_base", pool={"snapshots": [STEPS], "snapshots_kept": 2, "results": {}})
    plan = {"files": files, "config": CONFIG, "train": TRAIN, "snapshot_base": str(snapshot_base),
            "snapshot_steps": STEPS, "work": str(root / "work")}
    (root / "plan.json").write_text(json.dumps(plan))
    subprocess.run([sys.executable, "-m", "tests.hostile_runner", str(root / "plan.json"), str(root / "out.json")],
                   cwd=ROOT, check=True, timeout=1500)
    assert not (corpus.folder / MARKER).exists(), "a pickle in the corpus was executed"
    return {"files": files, "rows": json.loads((root / "out.json").read_text())}


def hostile(refusals: dict) -> list[dict]:
    return [r for r in refusals["rows"] if r["file"] != "valid"]


@pytest.mark.slow
def test_every_hostile_file_is_refused_in_one_line_at_every_entry_point(refusals):
    rows = hostile(refusals)
    assert {r["file"] for r in rows} == set(EXPECT)
    assert [(r["file"], r["entry"]) for r in rows] == [
        (file, entry) for file, (_, scope) in refusals["files"].items() if file != "valid" for entry in SCOPES[scope]]
    for r in rows:
        where = f"{r['file']} at {r['entry']}"
        assert r["status"] == 2, f"{where}: status {r['status']}\n{r['stderr']}"
        lines = [line for line in r["stderr"].strip().splitlines() if not is_progress_note(line)]
        assert len(lines) == 1, f"{where}: {r['stderr']}"
        assert EXPECT[r["file"]] in lines[0], f"{where}: {lines[0]}"
        named = r["run"] if r["entry"] in ("resume", "snapshot") else f"{r['file']}.zip"
        assert named in lines[0], f"{where} does not name the file: {lines[0]}"


def is_progress_note(line: str) -> bool:
    """A command's note that it is loading agents (stderr, so stdout stays clean), not part of the refusal."""
    return "loading" in line and "error" not in line


@pytest.mark.slow
def test_refusals_are_bounded_in_memory_and_time(refusals):
    rows = hostile(refusals)
    if any(r["peak_kib"] is None for r in rows):
        pytest.skip("this kernel does not let a process reset its peak memory (/proc/self/clear_refs)")
    worst = max(rows, key=lambda r: r["peak_kib"])
    slowest = max(rows, key=lambda r: r["seconds"])
    print(f"\n{len(rows)} refusals ({len({r['file'] for r in rows})} files x entry points); worst peak "
          f"{worst['peak_kib'] / 1024:.0f} MiB ({worst['file']} at {worst['entry']}); slowest "
          f"{slowest['seconds']:.2f} s ({slowest['file']} at {slowest['entry']})")
    assert worst["peak_kib"] < PEAK_LIMIT_MIB * 1024, worst
    assert slowest["seconds"] < SECONDS_LIMIT, slowest


@pytest.mark.slow
def test_the_valid_checkpoint_passes_the_same_entry_points(refusals):
    """The corpus is refused for what each file changes, not for something its base already had."""
    valid = {r["entry"]: r for r in refusals["rows"] if r["file"] == "valid"}
    assert list(valid) == SCOPES["valid"]
    for entry, r in valid.items():
        assert r["status"] == 0, f"{entry}: {r['stderr']}"


@pytest.mark.slow
def test_the_command_line_exits_with_status_2_and_one_line(refusals, tmp_path):
    """The entry points above were called in one process; here two run as the real ``rams`` command."""
    paths = {file: path for file, (path, _) in refusals["files"].items()}
    rams = [sys.executable, "-m", "cli"]
    commands = {"bomb_policy": [*rams, "evaluate", "--game", "toepen", "--agents", f"checkpoint:{paths['bomb_policy']}",
                                "random", "--quiet"],
                "pickle_payload": [*rams, "play", "toepen", "--opponents", f"checkpoint:{paths['pickle_payload']}"]}
    for file, command in commands.items():
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        other_output = [line for line in done.stdout.splitlines() if not is_progress_note(line)]
        assert done.returncode == 2 and other_output == [], (file, done.stdout, done.stderr)
        assert done.stderr.count("\n") == 1 and EXPECT[file] in done.stderr, (file, done.stderr)
    assert not (Path(paths["pickle_payload"]).parent / MARKER).exists()


def test_the_peak_memory_measure_sees_a_large_allocation():
    """The bound above would catch a refusal that inflates a bomb: the measure reports what a call allocates."""
    from tests.hostile_runner import measure

    peak = measure(lambda: len(bytearray(400 * 2**20)) and 0)["peak_kib"]
    if peak is None:
        pytest.skip("this kernel does not let a process reset its peak memory (/proc/self/clear_refs)")
    assert peak > 350 * 1024


def test_parameter_count_is_that_of_the_built_network():
    from agents.checkpoint_agent import build_policy

    for obs, actions, arch in [(428, 42, [128, 128]), (7, 3, [5]), (20, 9, [16, 4, 8]),
                               (30, 11, {"pi": [16, 8], "vf": [4]})]:
        built = sum(p.numel() for p in build_policy(obs, actions, arch).parameters())
        assert parameter_count(obs, actions, arch) == built
    assert parameter_count(500, 50, [2048, 2048]) > MAX_PARAMETERS > parameter_count(500, 50, [512, 512, 512])


# ------------------------------------------------------------------------ tables
def pretrained(spec: str, game: str, **rules):
    return agent_factory(spec, rams_env.make_game(game, 4, **rules))


def test_pretrained_plays_its_default_rules_and_refuses_others_by_name():
    for game in rams_env.GAMES:  # every shipped agent passes the table check at its default 4-player table
        assert pretrained("pretrained", game)(0).meta["game"] == game
    with pytest.raises(CheckpointError, match="trained with rules variant=grossenaspe, this table has "
                                              "variant=prisdorf; its 437 inputs cannot read this table's 356"):
        pretrained("checkpoint:agents/pretrained/fipsen_4p.zip", "fipsen", preset="prisdorf")
    table_agent = "checkpoint:agents/pretrained/toepen_4p.zip"  # Toepen's 4-player agent, beside the general one
    with pytest.raises(CheckpointError, match="lives=10, this table has lives=5; add ,allow_rules_mismatch"):
        pretrained(table_agent, "toepen", lives=5)
    with pytest.raises(CheckpointError, match="trained for 4 players, this table has 5"):
        agent_factory(table_agent, rams_env.make_game("toepen", 5))


def test_a_general_agent_reads_rules_it_was_not_trained_on_when_its_space_holds_them():
    """The general space carries the rules in effect as inputs: lives=5 (no preset has it) is read, not refused."""
    if not pretrained_path("toepen").exists():
        pytest.skip("no general Toepen agent shipped")
    assert pretrained("pretrained", "toepen", lives=5)(0).table is not None


def test_allow_rules_mismatch_plays_only_when_the_sizes_fit():
    agent = pretrained("checkpoint:agents/pretrained/toepen_4p.zip,allow_rules_mismatch", "toepen", lives=5)(0)
    env = rams_env.make("toepen", 4, lives=5)
    env.reset(seed=1)
    observation = env.observe(env.agent_selection)
    assert observation["action_mask"][agent.act(observation["observation"], observation["action_mask"], {})]
    with pytest.raises(CheckpointError, match="cannot read"):
        pretrained("checkpoint:agents/pretrained/fipsen_4p.zip,allow_rules_mismatch", "fipsen", preset="prisdorf")
    with pytest.raises(ValueError, match="applies to checkpoint and pretrained agents"):
        pretrained("heuristic,allow_rules_mismatch", "toepen")


def test_an_option_added_after_training_counts_as_its_default(tmp_path):
    """A checkpoint that does not record an option was trained before it existed: with its default."""
    from tests.hostile_checkpoints import members, write

    items = members(ROOT / "agents/pretrained/toepen_4p.zip")
    meta = json.loads(items["meta.json"])
    del meta["rules"]["lives"]
    write(tmp_path / "old.zip", {**items, "meta.json": json.dumps(meta).encode()})
    agent_factory(f"checkpoint:{tmp_path / 'old.zip'}", rams_env.make_game("toepen", 4))
    with pytest.raises(CheckpointError, match="lives=10, this table has lives=5"):
        agent_factory(f"checkpoint:{tmp_path / 'old.zip'}", rams_env.make_game("toepen", 4, lives=5))
    assert load_checkpoint(tmp_path / "old.zip")[0]["game"] == "toepen"


def test_a_checkpoint_error_is_one_line_however_it_is_raised():
    assert str(CheckpointError("x.zip", "policy.pt: size mismatch\n\tfor action_net")) == \
        "x.zip: policy.pt: size mismatch for action_net"
    assert str(CheckpointError("the saved streams\ncannot be restored")) == "the saved streams cannot be restored"
