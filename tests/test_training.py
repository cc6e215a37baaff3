"""Training: the single-seat view, configs, the opponent pool, safe checkpoints, a smoke run, kill-and-resume,
the exploitability probe, the shipped pretrained agents."""

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

import rams_env  # noqa: E402
from agents.checkpoint.format import CheckpointError, load_checkpoint, save_checkpoint  # noqa: E402
from agents.checkpoint_agent import CheckpointAgent, build_policy  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from training.config import ConfigError, load_config  # noqa: E402
from training.single_seat import SingleSeatEnv  # noqa: E402
from training.streams import snapshots_in_play  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = ["total_timesteps=1024", "n_envs=2", "ppo.n_steps=256", "ppo.batch_size=128", "ppo.n_epochs=1",
        "eval.every=0", "eval.deals=4", "eval.final_deals=0", "checkpoint_every=256", "snapshot_every=256",
        "snapshots_kept=2", "eval.ratings_deals=0",
        "opponents={self: 0.3, snapshots: 0.3, heuristic: 0.2, random: 0.2}"]


def randoms(rng: np.random.Generator, n: int = 4):
    return [RandomAgent(int(rng.integers(1000))) for _ in range(n)]


# ------------------------------------------------------------------ single seat
@pytest.mark.parametrize("game", list(rams_env.GAMES))
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
        assert total == env.aec.game_state.scores[seat]


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
    with pytest.raises(ConfigError, match="eval.random_carry"):
        load_config(None, ["eval.random_carry=sometimes"])
    assert load_config(ROOT / "configs/train/toepen.yaml", ["ppo.learning_rate=1e-4"]).ppo.learning_rate == 1e-4


@pytest.mark.parametrize("override", ["warm_start.epochs=true", "warm_start.batch_size=true",
                                      "warm_start.workers=true", "total_timesteps=true", "seed=false",
                                      "ppo.learning_rate=true", "batched.epochs=true"])
def test_a_size_or_rate_given_as_true_or_false_is_refused_by_name(override):
    """Python counts ``true`` as 1, so without this ``epochs: true`` passed every check of a positive size."""
    key = override.split("=")[0]
    with pytest.raises(ConfigError, match=rf"config\.{key.replace('.', '[.]')}=(true|false): expected a "):
        load_config(None, ["trainer=batched", override])
    load_config(None, ["trainer=batched", f"{key}=2"])  # the same key with a number loads


@pytest.mark.parametrize(("trainer", "override", "key"), [
    ("rllib", "batched.gradient_precision=float32", "batched.gradient_precision"),  # RLlib trains in float32
    ("sb3", "batched.net_arch=[64]", "batched.net_arch"),
    ("batched", "rllib.num_env_runners=3", "rllib.num_env_runners"),
])
def test_another_trainers_setting_is_refused_not_ignored(trainer, override, key):
    """A section the run's trainer never reads must not look as if it took effect; left at its defaults it loads
    (quick.yaml's batched section as written, say, under ``--set trainer=sb3``)."""
    with pytest.raises(ConfigError, match=rf"^{key.replace('.', '[.]')}: the .* trainer's setting, and this run's "
                                          rf"trainer is {trainer}"):
        load_config(ROOT / "configs/train/quick.yaml", [f"trainer={trainer}", override])
    assert load_config(ROOT / "configs/train/quick.yaml", [f"trainer={trainer}"]).trainer == trainer


def test_a_config_extends_another_beside_it_section_by_section(tmp_path):
    (tmp_path / "base.yaml").write_text("game: tippen\nseed: 3\nppo: {learning_rate: 0.01, n_epochs: 2}\n")
    (tmp_path / "mid.yaml").write_text("extends: base.yaml\nseed: 5\nppo: {n_epochs: 7}\n")
    (tmp_path / "top.yaml").write_text("extends: mid.yaml\ntotal_timesteps: 1000\n")
    config = load_config(tmp_path / "top.yaml", ["ppo.batch_size=64"])
    assert (config.game, config.seed, config.total_timesteps) == ("tippen", 5, 1000)
    assert (config.ppo.learning_rate, config.ppo.n_epochs, config.ppo.batch_size) == (0.01, 7, 64)
    (tmp_path / "loop.yaml").write_text("extends: loop2.yaml\n")
    (tmp_path / "loop2.yaml").write_text("extends: loop.yaml\n")
    with pytest.raises(ConfigError, match="extends itself"):
        load_config(tmp_path / "loop.yaml")
    (tmp_path / "lost.yaml").write_text("extends: nowhere.yaml\n")
    with pytest.raises(ConfigError, match="nowhere.yaml"):
        load_config(tmp_path / "lost.yaml")
    (tmp_path / "bad.yaml").write_text("extends: base.yaml\nppo: {learning_rat: 1}\n")
    with pytest.raises(ConfigError, match="learning_rat"):  # keys checked after the merge, as ever
        load_config(tmp_path / "bad.yaml")


def test_every_game_has_a_valid_training_config_with_default_rules_and_table():
    import rams_env

    paths = sorted(p for p in (ROOT / "configs/train").glob("*.yaml") if p.stem in rams_env.GAMES)
    assert {p.stem for p in paths} == set(rams_env.GAMES)  # the batched ones: tests/test_batched_run.py
    for path in paths:
        config = load_config(path)  # validates keys, rules, opponent and baseline specs
        assert config.game == path.stem and config.rules == {}
        assert config.num_players == rams_env.make_game(path.stem, None).num_players
        assert config.out_dir == f"runs/{path.stem}"


# ------------------------------------------------------------------- checkpoints
def _meta(observation_size: int = 4, action_size: int = 3, net_arch: tuple[int, ...] = (8,)):
    return {"game": "toepen", "observation_size": observation_size, "action_size": action_size,
            "net_arch": list(net_arch), "steps": 0}


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


def test_a_loaded_agent_is_the_saved_network_whatever_its_network_was_built_with(tmp_path):
    """CheckpointAgent builds its network without SB3's orthogonal initialisation (1.5 s of QR for a general
    network) because every tensor is then loaded: nothing of the network lies outside its state_dict."""
    policy = build_policy(6, 4, [16, 16])
    assert {name for name, _ in policy.named_parameters()} | {name for name, _ in policy.named_buffers()} \
        == set(policy.state_dict())
    agent = CheckpointAgent(save_checkpoint(tmp_path / "c.zip", _meta(6, 4, (16, 16)), policy.state_dict()))
    for name, tensor in policy.state_dict().items():
        assert torch.equal(agent.policy.state_dict()[name], tensor), name
    obs = torch.rand(5, 6)
    torch.testing.assert_close(agent.policy.get_distribution(obs).distribution.logits,
                               policy.get_distribution(obs).distribution.logits, rtol=0, atol=0)


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
@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> Path:
    """One tiny Toepen run (pool with self, snapshots, heuristic and random), shared by the tests below."""
    from cli.train import main

    out = tmp_path_factory.mktemp("tiny")
    assert main(["configs/train/toepen.yaml", "--quiet", *[f"--set={s}" for s in TINY], f"--set=out_dir={out}",
                 "--export", str(out / "export.zip")]) == 0
    return out


def test_smoke_training_run_writes_checkpoints_results_and_logs(tiny_run):
    results = json.loads((tiny_run / "results.json").read_text())
    assert results["steps"] >= 1024 and [r["baseline"] for r in results["final"]] == ["random", "heuristic"]
    agent = CheckpointAgent(tiny_run / "final.zip")
    agent.check_table(rams_env.make_game("toepen", 4))
    assert any((tiny_run / "tb").rglob("events.out.tfevents.*"))
    with zipfile.ZipFile(tiny_run / "export.zip") as zf:  # shipped weights carry no optimizer state
        assert set(zf.namelist()) == {"meta.json", "policy.pt"}
    exported, final = CheckpointAgent(tiny_run / "export.zip"), agent
    assert all(torch.equal(exported.policy.state_dict()[k], v) for k, v in final.policy.state_dict().items())


@pytest.mark.slow
def test_killed_run_resumes_from_its_last_checkpoint(tmp_path):
    overrides = [s.replace("total_timesteps=1024", "total_timesteps=6144") for s in TINY]
    cmd = [sys.executable, "-m", "cli", "train", "configs/train/toepen.yaml", "--quiet",
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
    kept = meta["pool"]["snapshots"]  # snapshots every 256 steps, the last 2 kept, files written first
    assert kept == [s for s in (meta["steps"] - 256, meta["steps"]) if s > 0]
    assert all((tmp_path / "snapshots" / f"snapshot_{s:09d}.zip").exists() for s in kept)
    done = subprocess.run([*cmd, "--resume"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    final, _, _ = load_checkpoint(tmp_path / "final.zip")
    assert final["steps"] >= 6144
    assert final["pool"]["snapshots"] == [final["steps"] - 256, final["steps"]]
    last, _, _ = load_checkpoint(tmp_path / "last.zip")  # forgotten snapshots were pruned, unless a deal in
    in_play = snapshots_in_play(last["streams"], "snapshot:")  # progress seats them (a resume replays it)
    assert sorted(p.name for p in (tmp_path / "snapshots").iterdir()) == [
        f"snapshot_{s:09d}.zip" for s in sorted({*final["pool"]["snapshots"], *in_play})]


@pytest.mark.slow
def test_a_small_budget_beats_the_random_agent_with_significance(tmp_path):
    """Learning, not only running: 8k learner steps of Toepen beat random over duplicate deals."""
    from cli.train import main

    assert main(["configs/train/toepen.yaml", "--quiet", "--set=total_timesteps=8192", "--set=eval.every=0",
                 "--set=eval.deals=40", "--set=eval.final_deals=0", "--set=eval.baselines=[random]",
                 f"--set=out_dir={tmp_path}"]) == 0
    final = json.loads((tmp_path / "results.json").read_text())["final"][0]
    assert final["mean"] - final["ci95"] > 0, final


# ------------------------------------------------------------------ opponent pool
def test_snapshot_weights_follow_the_recent_biased_rule():
    from training.pool import snapshot_weights

    assert snapshot_weights(1).tolist() == [1.0]
    expected = np.array([1 / 3, 1 / 2, 1.0])  # oldest first: ages 2, 1, 0 -> 1 / (age + 1)
    assert np.allclose(snapshot_weights(3), expected / expected.sum())


def _pool(opponents, kept=3):
    import rams_env
    from training.pool import OpponentPool

    game = rams_env.make_game("toepen", 4)
    return OpponentPool(game, opponents, game.observation.size, game.actions.size, [8], kept)


def test_pool_keeps_the_last_snapshots_and_draws_them_by_the_rule():
    pool = _pool({"snapshots": 1.0}, kept=3)
    live = build_policy(pool.obs_size, pool.n_actions, [8])
    pool.attach(live)
    assert {a.name for a in pool(np.random.default_rng(0))} == {"self"}  # no snapshot yet: the current policy
    for steps in range(1, 6):
        pool.add_snapshot(steps * 100, live)
    assert [s.steps for s in pool.snapshots] == [300, 400, 500]
    rng = np.random.default_rng(1)
    names = [a.name for _ in range(1000) for a in pool(rng)]
    shares = [names.count(f"snapshot:{s}") / len(names) for s in (300, 400, 500)]
    assert np.allclose(shares, [2 / 11, 3 / 11, 6 / 11], atol=0.03), shares  # 4000 draws: sd < 0.01


def test_pool_mixes_kinds_by_weight_and_builds_registry_specs():
    pool = _pool({"self": 0.5, "random": 0.25, "heuristic:cautious": 0.25})
    pool.attach(build_policy(pool.obs_size, pool.n_actions, [8]))
    rng = np.random.default_rng(2)
    names = [a.name for _ in range(500) for a in pool(rng)]
    assert set(names) == {"self", "random", "heuristic:cautious"}
    assert abs(names.count("self") / len(names) - 0.5) < 0.05
    assert abs(names.count("random") / len(names) - 0.25) < 0.05


def test_pool_state_survives_resume(tiny_run):
    from training.train import Run

    config = load_config(ROOT / "configs/train/toepen.yaml", [*TINY, f"out_dir={tiny_run}"])
    meta, _, _ = load_checkpoint(tiny_run / "last.zip")
    run = Run(config, quiet=True)
    run.resume()
    assert [s.steps for s in run.pool.snapshots] == meta["pool"]["snapshots"] == [meta["steps"] - 256, meta["steps"]]
    _, newest, _ = load_checkpoint(tiny_run / "snapshots" / f"snapshot_{meta['steps']:09d}.zip")
    restored = run.pool.snapshots[-1].policy.state_dict()
    assert all(torch.equal(restored[k], v) for k, v in newest.items())
    assert run.model.num_timesteps == meta["steps"]


def test_config_validates_opponent_and_baseline_specs(tmp_path):
    for bad in ("bogus", "heuristic:nostyle", "heuristic:cautious,no_param=1", f"checkpoint:{tmp_path}/none.zip"):
        with pytest.raises(ConfigError, match=bad.split(":")[-1].split(",")[-1].split("=")[0]):
            load_config(None, [f"opponents={{self: 1, '{bad}': 1}}"])
    with pytest.raises(ConfigError, match="random.*-1"):
        load_config(None, ["opponents={random: -1}"])
    with pytest.raises(ConfigError, match="zero"):
        load_config(None, ["opponents={random: 0}"])
    with pytest.raises(ConfigError, match="eval.baselines.*nobody"):
        load_config(None, ["eval.baselines=[random, nobody]"])
    config = load_config(None, ["opponents={self: 0.5, snapshots: 0.2, heuristic: 0.2, random: 0.1}"])
    assert config.opponents["snapshots"] == 0.2


def test_same_seed_same_config_same_weights(tmp_path):
    from cli.train import main

    def weights(out):
        small = [s.replace("total_timesteps=1024", "total_timesteps=512") for s in TINY]
        assert main(["configs/train/toepen.yaml", "--quiet", *[f"--set={s}" for s in small], f"--set=out_dir={out}",
                     "--set=eval.deals=2"]) == 0
        return load_checkpoint(out / "final.zip")[1]

    first, second = weights(tmp_path / "a"), weights(tmp_path / "b")
    assert all(torch.equal(first[k], second[k]) for k in first)


# ---------------------------------------------------------------------- exploit
@pytest.mark.slow
def test_exploit_reports_the_gain_of_a_best_response(tiny_run, capsys):
    from cli.exploit import main

    small = ["--steps", "512", "--deals", "6", "--quiet", "--set", "n_envs=2", "--set", "ppo.n_steps=256",
             "--set", "ppo.batch_size=128"]
    assert main([str(tiny_run / "final.zip"), "--json", *small]) == 0  # a checkpoint names its own game
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "toepen" and result["num_players"] == 4 and result["deals"] == 6
    assert result["steps"] >= 512 and result["lower"] <= result["gain"] <= result["upper"]
    # the gain per deal is the learner's payoff minus the frozen agent's own in the same seats
    assert result["gain"] == pytest.approx(result["learner_payoff"] - result["agent_payoff"])
    assert main(["heuristic:bluffer", "--game", "toepen", "--json", *small]) == 0
    assert json.loads(capsys.readouterr().out)["agent"] == "heuristic:bluffer"
    assert main(["heuristic", "--game", "lupfen", "--json", *small]) == 0  # its config warm-starts; the probe not
    assert json.loads(capsys.readouterr().out)["warm_start"] is None
    assert main(["heuristic", "--game", "lupfen", "--json", *small, "--set", "warm_start.teacher=heuristic",
                 "--set", "warm_start.decisions=300", "--set", "warm_start.epochs=1"]) == 0
    assert json.loads(capsys.readouterr().out)["warm_start"]["decisions"] >= 300
    assert main(["random", *small]) == 2  # a spec other than a checkpoint needs --game
    assert main(["nobody", "--game", "toepen", *small]) == 2
    assert "nobody" in capsys.readouterr().err


# ------------------------------------------------------------------- pretrained
@pytest.mark.parametrize("game", list(rams_env.GAMES))
def test_pretrained_agents_load_through_the_registry_and_play_legally(game):
    import rams_env
    from agents.registry import PRETRAINED_DIR, agent_factory, pretrained_for
    from agents.table import play_episode

    env = rams_env.make(game, None, illegal_action="raise")
    table = env.unwrapped.game
    if not any(PRETRAINED_DIR.glob(f"{game}*.zip")):
        pytest.skip(f"no pretrained agent shipped for {game}")
    from agents.checkpoint.format import SPECIALISTS, specialist_member

    path = pretrained_for(table)  # the general agent if there is one, else the table's
    specialists = [specialist_member(i) for i in range(len(load_checkpoint(path)[0].get(SPECIALISTS, [])))]
    assert path.stat().st_size < 5 * 2**20 * (1 + len(specialists))  # exported: weights, no optimizer state
    with zipfile.ZipFile(path) as zf:
        assert set(zf.namelist()) == {"meta.json", "policy.pt", *specialists}
    pretrained = agent_factory("pretrained", table)
    others = agent_factory("random", table)
    for seed in range(3):  # the env raises IllegalActionError on any masked-out action
        seats = [pretrained(seed), others(seed + 1), pretrained(seed + 2), others(seed + 3)][: table.num_players]
        assert len(play_episode(env, seats, seed=seed)) == table.num_players



BATCHED_TRAINING_KEYS = ("game", "num_players", "rules", "tables", "env", "seed", "total_timesteps",
                         "snapshot_every", "batched", "warm_start")
"""What decides a batched run's weights (evaluation settings, paths and threads do not)."""


GENERAL_RECIPES = {
    "toepen_selfplay.zip": "toepen_batched.yaml",
    "toepen_bluffer.zip": "toepen_bluffer.yaml",  # a fine-tune of toepen_selfplay.zip (its batched.init_from)
    "toepen_styles.zip": "toepen_styles.yaml",  # a fine-tune of toepen_bluffer.zip
    "toepen_alone.zip": "toepen_alone.yaml",  # toepen_styles.zip meeting a lone scripted player at 3, 4 and 8 players
    "toepen_harden1.zip": "toepen_harden.yaml",  # toepen_alone.zip meeting its best response (an exploiter)
    "toepen_harden2.zip": "toepen_harden2.yaml",  # the round before meeting both exploiters so far
    "toepen_harden3.zip": "toepen_harden3.yaml",
    "toepen.zip": "toepen_harden3_lone.yaml",  # round 3 with bluffers at 8 players and twice the lone strangers
    "tippen_selfplay.zip": "tippen_batched.yaml",
    "tippen_blind.zip": "tippen_styles.yaml",  # a fine-tune of tippen_selfplay.zip: its blind choices refreshed
    "tippen_tap.zip": "tippen_tap.yaml",  # tippen_blind.zip with its tap refreshed where the bete is a stake
    "tippen_cardplay.zip": "tippen_cardplay.yaml",  # a card-play stage on tippen_tap.zip
    "tippen_cardplay_tap.zip": "tippen_cardplay_tap.yaml",  # tippen_cardplay.zip, its tap refreshed again
    "tippen_loup_search.zip": "tippen_loup_search.yaml",  # tippen_cardplay_tap.zip copying the searcher at Loup
    "tippen_loup_search_320k.zip": "tippen_loup_search_320k.yaml",  # the same recipe, twice the searched decisions
    "tippen.zip": "tippen_loup_search_320k.yaml",  # its base network: tippen_loup_search_320k.zip (COMPOSITES)
    "lupfen.zip": "lupfen_batched.yaml",
    "mauscheln.zip": "mauscheln_batched.yaml",
    "fipsen_base.zip": "fipsen_batched.yaml",
    "fipsen_cardplay.zip": "fipsen_cardplay.yaml",  # a card-play stage on fipsen_base.zip
    "fipsen_per_table.zip": "fipsen_per_table.yaml",  # fipsen_cardplay.zip, each table's rewards scaled by its spread
    "fipsen_race.zip": "fipsen_race.yaml",  # fipsen_per_table.zip trained on, Thedinghausen's self-play inside a race
    "fipsen_harden1.zip": "fipsen_harden.yaml",  # fipsen_race.zip meeting its best response (an exploiter)
    "fipsen_harden2.zip": "fipsen_harden2.yaml",  # the round before meeting both exploiters so far
    "fipsen_harden3.zip": "fipsen_harden3.yaml",
    "fipsen.zip": "fipsen_harden4.yaml",
}
"""Every general checkpoint in agents/pretrained/ and the config under configs/train/ that made it (docs/results.md)."""


def _deciding_warm_start(section: dict) -> dict:
    """A run's or a recipe's ``warm_start`` as far as it decides the weights: keys added since a checkpoint was
    written at their defaults, and without ``cache`` (where recorded chunks are kept: a path, and the records read
    from it are the uncached ones bit for bit, tests/test_batched_imitation.py)."""
    from dataclasses import asdict

    from training.config import WarmStartConfig

    return {k: v for k, v in {**asdict(WarmStartConfig()), **section}.items() if k != "cache"}


def _general_checkpoints() -> list[str]:
    from agents.checkpoint.general import is_general
    from agents.registry import PRETRAINED_DIR

    return sorted(path.name for path in PRETRAINED_DIR.glob("*.zip") if is_general(load_checkpoint(path)[0]))


def test_every_shipped_general_agent_has_its_recipe():
    """A general checkpoint shipped without a recipe listed here would go unchecked by the test below."""
    assert set(_general_checkpoints()) <= set(GENERAL_RECIPES)


@pytest.mark.parametrize("name", _general_checkpoints())
def test_shipped_general_agents_were_trained_by_their_batched_config_as_it_stands(name):
    """`rams train configs/train/<recipe> --export agents/pretrained/<name>` (with `--snapshot` for a league
    snapshot of the run) made them (docs/results.md, "The general Toepen agent"); a fine-tune starts from
    another shipped general agent (`batched.init_from`), itself checked here. A composite's metadata is its base
    network's (its specialists: the test below)."""
    from agents.registry import PRETRAINED_DIR

    meta, _, _ = load_checkpoint(PRETRAINED_DIR / name)
    _check_batched_recipe(meta, GENERAL_RECIPES[name])


def _check_batched_recipe(meta: dict, recipe_file: str) -> dict:
    """``meta`` (a checkpoint's, or a specialist entry's) records the run of ``configs/train/<recipe_file>`` as it
    stands; the recipe's config."""
    from dataclasses import asdict

    from agents.registry import PRETRAINED_DIR
    from training.batched.learner import BatchedConfig
    from training.config import as_dict

    config = as_dict(load_config(ROOT / "configs/train" / recipe_file))
    assert meta["trainer"] == "batched"
    trained = {k: meta["config"][k] for k in BATCHED_TRAINING_KEYS}
    trained["batched"] = {**asdict(BatchedConfig()), **trained["batched"]}  # knobs added since: their defaults
    trained["warm_start"] = _deciding_warm_start(trained["warm_start"])
    recipe = {k: config[k] for k in BATCHED_TRAINING_KEYS}
    recipe["warm_start"] = _deciding_warm_start(recipe["warm_start"])
    assert trained == recipe
    start = config["batched"]["init_from"]
    assert not start or ((ROOT / start).parent == PRETRAINED_DIR and Path(start).name in GENERAL_RECIPES)
    assert all((ROOT / path).is_file() for path in config["batched"]["exploiters"])  # shipped beside it
    # the run's end, or a league snapshot of a run that went the whole way (`--export --snapshot`)
    run_steps = meta["snapshot_of"]["steps"] if "snapshot_of" in meta else meta["steps"]
    assert run_steps >= config["total_timesteps"] and meta["steps"] <= run_steps
    return config


COMPOSITES = {"tippen.zip": ("tippen_loup_search_320k.zip", [("tippen_alvensleben_specialist.yaml", None),
                                                             ("tippen_forced_specialist_refit.yaml", None),
                                                             ("tippen_tap_specialist_refit.yaml", None),
                                                             ("tippen_sniffing_specialist_refit.yaml", None)])}
"""Shipped checkpoints with specialists (agents/checkpoint/specialists.py): the shipped file that is their base
network, and each specialist's recipe, in order, with the tables it plays (None: the tables the recipe taught;
`rams compose <base> --specialist <its final.zip>[=<tables>] ...`)."""


def test_every_shipped_composite_is_listed():
    from agents.checkpoint.format import SPECIALISTS
    from agents.registry import PRETRAINED_DIR

    assert {path.name for path in PRETRAINED_DIR.glob("*.zip")
            if load_checkpoint(path)[0].get(SPECIALISTS)} == set(COMPOSITES)


@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_a_shipped_composite_is_its_base_and_specialists_made_by_their_recipes(name):
    """The base network is the named shipped file's, bit for bit; each specialist was made by its recipe as it
    stands and plays the tables listed for it, tables that recipe taught."""
    from agents.checkpoint.format import SPECIALISTS
    from agents.checkpoint.specialists import taught_tables
    from agents.registry import PRETRAINED_DIR
    from tests.test_imitation import same_weights

    base_name, recipes = COMPOSITES[name]
    meta, weights, _ = load_checkpoint(PRETRAINED_DIR / name)
    base_meta, base_weights, _ = load_checkpoint(PRETRAINED_DIR / base_name)
    assert weights.keys() == base_weights.keys() and same_weights(weights, base_weights)
    assert {k: v for k, v in meta.items() if k != SPECIALISTS} == base_meta
    assert len(meta[SPECIALISTS]) == len(recipes)
    for entry, (recipe, tables) in zip(meta[SPECIALISTS], recipes, strict=True):
        config = _check_batched_recipe(entry, recipe)
        taught = taught_tables({"game": meta["game"], "config": config}, recipe)
        assert entry["tables"] == (taught if tables is None else tables)
        assert all(table in taught for table in entry["tables"])


TRAINING_KEYS = ("game", "num_players", "rules", "env", "seed", "total_timesteps", "n_envs", "reward_scale",
                 "opponents", "snapshot_every", "snapshots_kept", "ppo", "warm_start")
"""What decides a run's weights (evaluation settings and paths do not)."""


@pytest.mark.parametrize("game", ["tippen", "mauscheln", "lupfen", "fipsen"])
def test_shipped_pot_game_agents_were_trained_by_their_config_as_it_stands(game):
    """`rams train configs/train/<game>.yaml --export ...` is how they were made (docs/results.md)."""
    from agents.registry import pretrained_path
    from training.config import as_dict

    meta, _, _ = load_checkpoint(pretrained_path(game, 4))
    config = as_dict(load_config(ROOT / f"configs/train/{game}.yaml"))
    trained = {k: meta["config"][k] for k in TRAINING_KEYS}
    trained["warm_start"] = _deciding_warm_start(trained["warm_start"])
    recipe = {k: config[k] for k in TRAINING_KEYS}
    recipe["warm_start"] = _deciding_warm_start(recipe["warm_start"])
    assert trained == recipe
    assert meta["steps"] >= config["total_timesteps"] and meta["warm_start"]["decisions"] >= 100_000


@pytest.mark.parametrize("carry", [False, True])
def test_evaluation_deals_follow_eval_random_carry(monkeypatch, tmp_path, carry):
    """Lupfen's first deals are force rounds: eval.random_carry decides whether evaluations see Lupfen rounds."""
    import training.train as train

    seen = []

    def spy(game, players, env_kwargs, candidate, baseline, deals, seed=10_000, progress=None):
        seen.append(env_kwargs)
        return train.MatchResult(baseline, 0.0, 0.0, deals, 0.0, 0.0)

    monkeypatch.setattr(train, "duplicate_match", spy)
    config = load_config("configs/train/lupfen.yaml", [f"eval.random_carry={str(carry).lower()}",
                                                       "eval.ratings_deals=0", f"out_dir={tmp_path}"])
    train.Run(config, quiet=True).evaluate()
    assert [kw["random_carry"] for kw in seen] == [carry] * len(config.eval.baselines)
    assert load_config("configs/train/lupfen.yaml").eval.random_carry is True
