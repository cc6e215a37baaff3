"""The run around the batched learner: config, a tiny run end to end, resume, a stop on SIGINT, the exploit
probe on the batched engine, a general checkpoint at another table (training/batched/run.py, cli/train.py)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

from agents.checkpoint.format import load_checkpoint, load_trainer_state  # noqa: E402
from cli.train import main as train_main  # noqa: E402
from training.batched.run import BatchedRun  # noqa: E402
from training.config import ConfigError, load_config  # noqa: E402
from training.tables import config_table, resolve_tables  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = ["trainer=batched", "game=toepen", "num_players=4", "total_timesteps=1200", "snapshot_every=400",
        "checkpoint_every=600", "eval.every=0", "eval.deals=3", "eval.baselines=[random]", "eval.ratings_deals=0",
        "batched.envs_per_table=32", "batched.rollout_steps=8", "batched.minibatch_size=256", "batched.epochs=1",
        "torch_threads=1", "batched.net_arch=[16]", "batched.snapshots_kept=2"]


def tiny(out: Path, *more: str):
    return load_config(None, [*TINY, f"out_dir={out}", *more])


# ------------------------------------------------------------------------ config
def test_batched_section_and_tables_are_validated():
    config = load_config(None, ["trainer=batched", "batched.learning_rate=1e-4"])
    assert config.batched.learning_rate == 1e-4 and config.tables == "default"
    for override, words in (("batched.learnin_rate=1", "unknown key 'learnin_rate' in config.batched"),
                            ("trainer=jax", "trainer='jax': one of sb3, batched"),
                            ("tables=[{num_players: 9}]", "tables[0]: num_players=9"),
                            ("tables=[{players: 3}]", "tables[0]: a mapping with keys among"),
                            ("eval.tables=some", "eval.tables: 'default', 'all' or a list"),
                            ("warm_start.tables=[{num_players: 3}]",
                             "warm_start.tables[0]: 3p is not one of the run's tables"),
                            (("trainer=sb3", "warm_start.tables=[{num_players: 4}]"),
                             "warm_start.tables: the batched trainer's"),
                            ("batched.scripted_tables=[{num_players: 3}]",
                             "batched.scripted_tables[0]: 3p is not one of the run's tables"),
                            ("batched.scripted_tables=[{num_players: 9}]",
                             "batched.scripted_tables[0]: num_players=9"),
                            ("batched.scripted_alone_tables=[{num_players: 8}]",
                             "batched.scripted_alone_tables[0]: 8p is not one of the run's tables"),
                            (("tables=[{num_players: 3}, {num_players: 4}]",
                              "batched.scripted_tables=[{num_players: 4}, {num_players: 4}]",
                              "batched.scripted_envs_per_table=[2, 3]"),
                             "batched.scripted_tables names a table twice"),
                            (("tables=[{num_players: 3}, {num_players: 4}]",
                              "batched.scripted_alone_tables=[{num_players: 4}]",
                              "batched.scripted_alone_envs_per_table=[2, 3]"),
                             "batched.scripted_alone_envs_per_table=[2, 3]: one whole number >= 0 for each of the 1"),
                            (("tables=[{num_players: 3}, {num_players: 4}]", "batched.envs_per_table=[48]"),
                             "batched.envs_per_table=[48]: one whole number >= 1 for each of the 2 entries of tables"),
                            (("tables=[{num_players: 3}, {num_players: 4}]", "batched.envs_per_table=[48, 0]"),
                             "batched.envs_per_table=[48, 0]: one whole number >= 1"),
                            (("tables=[{num_players: 4}, {num_players: 4}]",
                              "batched.envs_per_table=[48, 8]"), "tables names a table twice"),
                            ("batched.thedinghausen_carry=maybe",
                             "batched.thedinghausen_carry='maybe': expected true or false")):
        with pytest.raises(ConfigError, match=words.replace("[", r"\[").replace("(", r"\(")):
            overrides = override if isinstance(override, tuple) else (override,)
            load_config(None, ["trainer=batched", *overrides])


def test_slot_counts_per_table_are_read_as_a_list():
    config = load_config(None, ["trainer=batched", "tables=[{num_players: 3}, {num_players: 8}]",
                                "batched.scripted_alone={heuristic: 1.0}",
                                "batched.scripted_alone_tables=[{num_players: 8}, {num_players: 3}]",
                                "batched.scripted_alone_envs_per_table=[192, 64]"])
    assert config.batched.scripted_alone_envs_per_table == [192, 64]
    with pytest.raises(ConfigError, match="for each of the 48 entries of tables"):  # `all`: every table of the game
        load_config(None, ["trainer=batched", "tables=all", "batched.envs_per_table=[2, 3]"])


def test_sb3_configs_keep_their_trainer_and_load_no_learner():
    config = load_config(ROOT / "configs/train/toepen.yaml")
    assert config.trainer == "sb3" and config.batched is None


def test_tables_all_is_every_size_of_every_preset():
    tables = resolve_tables("all", "tippen", None, {})
    assert {t.num_players for t in tables} == set(range(3, 11)) and len({t.preset for t in tables}) > 5
    assert resolve_tables("default", "toepen", 5, {"preset": "siwweschroom"}) == [
        config_table("toepen", 5, {"preset": "siwweschroom"})]
    listed = resolve_tables([{"num_players": 3}, {"num_players": 3}, {}], "toepen", 4, {})
    assert [t.num_players for t in listed] == [3, 4]


@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "configs/train").glob("*.yaml")
                                         if any(key in p.read_text() for key in ("\ntrainer: batched", "\nextends: "))),
                         ids=lambda p: p.stem)
def test_batched_configs_load(path):
    """Every batched config, the fine-tunes' too (their refreshers' actions and anchors are checked on load), and
    those that extend one (``extends:``, their keys laid over its)."""
    config = load_config(path)
    assert config.trainer == "batched" and config.torch_threads >= 1


# ---------------------------------------------------------------------- the run
def test_tiny_run_writes_checkpoint_results_and_tensorboard(tmp_path):
    out = tmp_path / "run"
    assert train_main([str(_yaml(tmp_path, tiny(out))), "--quiet"]) == 0
    meta, state, optimizer = load_checkpoint(out / "last.zip", with_optimizer=True)
    assert meta["trainer"] == "batched" and meta["steps"] >= 1200 and optimizer is not None
    assert meta["config"]["batched"]["envs_per_table"] == 32
    trainer = load_trainer_state(out / "last.zip")
    assert trainer["steps"] == meta["steps"] and len(trainer["league"]["kept"]) == 2  # snapshots every 400
    results = json.loads((out / "results.json").read_text())
    assert results["final"][0]["baseline"] == "random" and results["trainer"] == "batched"
    assert any(p.name.startswith("events.out.tfevents") for p in (out / "tb").iterdir())
    assert (out / "final.zip").exists() and (out / "evaluation.png").exists()
    assert load_trainer_state(out / "final.zip") is None  # final.zip: weights (and Adam) only


def test_resume_continues_steps_league_and_history(tmp_path):
    out = tmp_path / "run"
    first = BatchedRun(tiny(out, "total_timesteps=600"), quiet=True)
    first.train()
    first.evaluate(deals=2)
    first.checkpoint()
    weights = {k: v.clone() for k, v in first.selfplay.policy.state_dict().items()}
    again = BatchedRun(tiny(out, "total_timesteps=1200"), quiet=True)
    again.resume()
    assert again.steps == first.steps and len(again.history) == 1
    assert again.selfplay.league.kept == first.selfplay.league.kept
    assert all(torch.equal(v, again.selfplay.policy.state_dict()[k]) for k, v in weights.items())
    again.train()
    assert again.steps >= 1200 and load_checkpoint(out / "last.zip")[0]["steps"] == again.steps
    straight = BatchedRun(tiny(tmp_path / "straight", "total_timesteps=1200"), quiet=True)
    straight.train()  # never stopped: the same weights, bit for bit (the deals in progress were saved)
    ours, theirs = straight.selfplay.policy.state_dict(), again.selfplay.policy.state_dict()
    assert straight.steps == again.steps and all(torch.equal(ours[k], theirs[k]) for k in ours)


def interrupt_after_an_iteration(monkeypatch) -> None:
    """Ctrl-C as a user presses it, once the run's first iteration is done."""
    iterate = BatchedRun.iterate

    def interrupted(self, bar):
        iterate(self, bar)
        os.kill(os.getpid(), signal.SIGINT)  # the first signal: finish this iteration, save, exit 130

    monkeypatch.setattr(BatchedRun, "iterate", interrupted)


def test_sigint_stops_at_an_iteration_boundary_and_saves(tmp_path, monkeypatch):
    out = tmp_path / "run"
    interrupt_after_an_iteration(monkeypatch)
    assert train_main([str(_yaml(tmp_path, tiny(out, "total_timesteps=100000"))), "--quiet"]) == 130
    meta, _, _ = load_checkpoint(out / "last.zip")
    assert 0 < meta["steps"] < 100000 and not (out / "results.json").exists()


def test_export_of_a_league_snapshot_writes_its_weights_and_refuses_one_not_held(tmp_path, capsys):
    """``--export --snapshot STEPS`` ships an earlier point of the run: the snapshot frozen on crossing STEPS."""
    from training.batched.league import snapshot_id

    out, config = tmp_path / "run", str(_yaml(tmp_path, tiny(tmp_path / "run")))
    assert train_main([config, "--quiet", "--export", str(tmp_path / "s.zip"), "--snapshot", "800"]) == 0
    meta, weights, optimizer = load_checkpoint(tmp_path / "s.zip", with_optimizer=True)
    league = load_trainer_state(out / "last.zip")["league"]
    held = league["weights"][str(snapshot_id(800, 400))]
    assert meta["steps"] == 800 and meta["snapshot_of"] == {"steps": league_steps(out), "snapshot_every": 400}
    assert optimizer is None and all(torch.equal(weights[k], held[k]) for k in held)
    final = load_checkpoint(out / "final.zip")[1]
    assert any(not torch.equal(final[k], held[k]) for k in held)  # not the final weights
    code = train_main([config, "--quiet", "--resume", "--export", str(tmp_path / "t.zip"), "--snapshot", "2000"])
    held = ", ".join(f"{400 * (int(i) - snapshot_id(400, 400) + 1):,}" for i in sorted(league["weights"], key=int))
    assert code == 2 and f"no snapshot frozen at 2,000 steps (held: {held})" in capsys.readouterr().err
    assert not (tmp_path / "t.zip").exists()


def league_steps(out: Path) -> int:
    return load_checkpoint(out / "last.zip")[0]["steps"]


@pytest.mark.parametrize("args, words", [
    (["--snapshot", "400"], "give --export PATH.zip too"),
    (["--snapshot", "400", "--export", "x.zip", "--set", "trainer=sb3"],
     "batched.envs_per_table: the batched trainer's setting, and this run's trainer is sb3"),
    (["--snapshot", "500", "--export", "x.zip"], "500 is not one")])
def test_a_snapshot_export_that_cannot_work_is_refused_before_training(tmp_path, capsys, args, words):
    code = train_main([str(_yaml(tmp_path, tiny(tmp_path / "run"))), "--quiet", *args])
    assert code == 2 and words in capsys.readouterr().err and not (tmp_path / "run" / "last.zip").exists()


def test_a_snapshot_export_of_an_sb3_run_is_refused_before_training(tmp_path, capsys):
    code = train_main([str(ROOT / "configs/train/toepen.yaml"), "--quiet", "--set", f"out_dir={tmp_path / 'run'}",
                       "--snapshot", "400", "--export", "x.zip"])
    assert code == 2 and "this config's trainer is sb3" in capsys.readouterr().err
    assert not (tmp_path / "run" / "last.zip").exists()


def test_resumed_run_refuses_another_network(tmp_path):
    out = tmp_path / "run"
    BatchedRun(tiny(out, "total_timesteps=300"), quiet=True).train()
    other = BatchedRun(tiny(out, "batched.net_arch=[8]"), quiet=True)
    with pytest.raises(Exception, match="net_arch"):
        other.resume()


def test_a_narrower_critic_trains_resumes_and_plays_from_its_checkpoint(tmp_path):
    """``batched.net_arch`` as SB3's mapping: the run writes it in its checkpoint, resumes it and refuses a list in
    its place; ``CheckpointAgent`` (SB3's network) plays the file; an exploit probe from the target takes it."""
    from agents.checkpoint_agent import CheckpointAgent
    from training.exploit import build_config

    arch, out = "batched.net_arch={pi: [16], vf: [8]}", tmp_path / "run"
    BatchedRun(tiny(out, "total_timesteps=600", arch), quiet=True).train()
    meta, state, _ = load_checkpoint(out / "last.zip")
    assert meta["net_arch"] == {"pi": [16], "vf": [8]}
    assert tuple(state["value_net.weight"].shape) == (1, 8) and tuple(state["action_net.weight"].shape)[1] == 16
    again = BatchedRun(tiny(out, arch), quiet=True)
    again.resume()
    again.train()
    assert again.steps >= 1200
    with pytest.raises(Exception, match="net_arch is {'pi': \\[16\\], 'vf': \\[8\\]}, this run has \\[16\\]"):
        BatchedRun(tiny(out), quiet=True).resume()
    assert CheckpointAgent(out / "last.zip").policy.value_net.in_features == 8
    assert build_config(str(out / "last.zip"), _probe_args(from_target=True)).batched.net_arch == meta["net_arch"]


def test_a_new_run_starts_from_init_from_and_a_misfit_is_refused(tmp_path):
    """batched.init_from: the learner starts with that checkpoint's weights (a fine-tune), trains from there;
    a network of another shape is refused with the checkpoint's name."""
    from agents.checkpoint.format import CheckpointError

    source = BatchedRun(tiny(tmp_path / "source", "total_timesteps=300", "seed=7"), quiet=True)
    source.train()
    weights = source.save("weights.zip", optimizer=False)
    _, start, _ = load_checkpoint(weights)
    run = BatchedRun(tiny(tmp_path / "tuned", f"batched.init_from={weights}"), quiet=True)
    run.warm_start()
    assert all(torch.equal(run.selfplay.policy.state_dict()[name], start[name]) for name in start)
    run.train()
    assert run.steps >= 1200 and run.meta()["config"]["batched"]["init_from"] == str(weights)
    fresh = BatchedRun(tiny(tmp_path / "fresh"), quiet=True)
    fresh.warm_start()  # nothing to start from: the seed's initial weights stay
    assert not torch.equal(fresh.selfplay.policy.state_dict()["action_net.weight"], start["action_net.weight"])
    other = BatchedRun(tiny(tmp_path / "other", f"batched.init_from={weights}", "batched.net_arch=[8]"), quiet=True)
    with pytest.raises(CheckpointError, match="weights.zip.*shape"):
        other.warm_start()


# ----------------------------------------------------------------------- exploit
def test_batched_exploit_of_a_checkpoint_reports_a_gain(tmp_path, capsys):
    from cli.exploit import main as exploit_main

    out = tmp_path / "target"
    BatchedRun(tiny(out, "total_timesteps=300"), quiet=True).save("weights.zip", optimizer=False)
    code = exploit_main([str(out / "weights.zip"), "--steps", "600", "--deals", "3", "--json", "--quiet",
                         "--set", "batched.envs_per_table=32", "--set", "batched.rollout_steps=8",
                         "--set", "torch_threads=1", "--set", "batched.minibatch_size=256"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["trainer"] == "batched" and result["steps"] >= 600 and result["deals"] == 3
    assert result["lower"] <= result["gain"] <= result["upper"]


def _probe_args(**more):
    import argparse

    fields = dict(game=None, players=None, steps=600, deals=3, seed=0, trainer=None, from_target=False,
                  overrides=["batched.envs_per_table=32", "batched.rollout_steps=8", "torch_threads=1",
                             "batched.minibatch_size=256"])
    return argparse.Namespace(**{**fields, **more})


def test_a_probe_from_the_target_starts_with_the_targets_weights_and_its_shape(tmp_path):
    """--from-target: the learner's network is the target's (net_arch read from the checkpoint, not the config's
    [256, 256]); from scratch it is not."""
    from training.exploit import batched_run, build_config

    run = BatchedRun(tiny(tmp_path / "target", "total_timesteps=300", "seed=7"), quiet=True)
    run.train()  # trained, and from another seed: weights no fresh learner starts with
    weights = run.save("weights.zip", optimizer=False)
    _, target_state, _ = load_checkpoint(weights)
    for from_target in (True, False):
        config = build_config(str(weights), _probe_args(from_target=from_target))
        config.out_dir = str(tmp_path / f"probe_{from_target}")
        assert (config.batched.net_arch == [16]) is from_target
        if not from_target:
            config.batched.net_arch = [16]  # the same shape, so that only the start differs
        state = batched_run(config, quiet=True, from_target=from_target).selfplay.policy.state_dict()
        same = all(torch.equal(state[name], target_state[name]) for name in target_state)
        assert same is from_target


def test_a_probe_from_the_target_is_refused_for_scripted_targets_and_other_shapes(tmp_path):
    from agents.checkpoint.format import CheckpointError
    from training.exploit import batched_run, build_config

    with pytest.raises(ConfigError, match="--from-target"):
        build_config("heuristic", _probe_args(game="toepen", from_target=True))
    with pytest.raises(ConfigError, match="--from-target"):
        build_config("pretrained", _probe_args(game="toepen", trainer="sb3", from_target=True))
    out = tmp_path / "target"
    weights = BatchedRun(tiny(out, "total_timesteps=300"), quiet=True).save("weights.zip", optimizer=False)
    config = build_config(str(weights), _probe_args(from_target=True, overrides=[
        *_probe_args().overrides, "batched.net_arch=[8]"]))
    config.out_dir = str(tmp_path / "probe")
    with pytest.raises(CheckpointError, match="shape"):
        batched_run(config, quiet=True, from_target=True)


def test_the_batched_probe_plays_its_one_table_with_as_many_deals_as_the_config_plays_over_all():
    """toepen_batched.yaml trains on every table (48 deals each): the probe's one table gets all of them at once,
    and a --set still wins."""
    import argparse

    from training.exploit import CONFIGS, build_config, deals_side_by_side
    from training.tables import resolve_tables

    config = load_config(CONFIGS / "toepen_batched.yaml")
    everywhere = config.batched.envs_per_table * len(resolve_tables(config.tables, "toepen", 4, {}))
    assert deals_side_by_side(CONFIGS / "toepen_batched.yaml", "toepen") == everywhere > 2000
    args = argparse.Namespace(game="toepen", players=4, steps=1000, deals=5, seed=0, trainer="batched", overrides=[])
    assert build_config("agents/pretrained/toepen_4p.zip", args).batched.envs_per_table == everywhere
    args.overrides = ["batched.envs_per_table=32"]
    assert build_config("agents/pretrained/toepen_4p.zip", args).batched.envs_per_table == 32


def test_the_batched_probe_seats_no_scripted_player_beside_its_target():
    """fipsen_batched.yaml trains with 64 Python-engine deals a table, the heuristic in 70% of their seats: the
    probe of a Fipsen agent must meet the agent alone (until 2026-12-06 it trained mostly in those deals, a best
    response to a table of heuristics more than to the agent), its one table playing as many batched deals as the
    config plays deals of both kinds."""
    import argparse

    from training.exploit import CONFIGS, build_config, deals_side_by_side
    from training.tables import resolve_tables

    config = load_config(CONFIGS / "fipsen_batched.yaml")
    assert config.batched.scripted_envs_per_table > 0 and config.batched.scripted  # what the probe must undo
    tables = len(resolve_tables(config.tables, "fipsen", 4, {}))
    everywhere = (config.batched.envs_per_table + config.batched.scripted_envs_per_table) * tables
    assert deals_side_by_side(CONFIGS / "fipsen_batched.yaml", "fipsen") == everywhere
    args = argparse.Namespace(game="fipsen", players=4, steps=1000, deals=5, seed=0, trainer="batched", overrides=[])
    probe = build_config("agents/pretrained/fipsen.zip", args)
    assert probe.batched.scripted_envs_per_table == probe.batched.scripted_alone_envs_per_table == 0
    assert probe.batched.scripted == {} and probe.batched.envs_per_table == everywhere
    assert probe.batched.league == {"snapshots": 1}


def test_the_probe_counts_per_table_slot_lists_once_each(tmp_path):
    """A list of Python-engine slot counts is one count per listed table, not one for every table; so is one number
    with its tables listed (until 2026-12-06 it was counted at every table of the run)."""
    from training.exploit import CONFIGS, deals_side_by_side

    config = tmp_path / "toepen_batched.yaml"
    config.write_text((CONFIGS / "toepen_batched.yaml").read_text() + "  scripted_alone: {heuristic: 1.0}\n"
                      "  scripted_alone_tables: [{num_players: 3}, {num_players: 8}]\n"
                      "  scripted_alone_envs_per_table: [64, 192]\n")
    assert deals_side_by_side(config, "toepen") == deals_side_by_side(CONFIGS / "toepen_batched.yaml", "toepen") + 256
    config.write_text((CONFIGS / "toepen_batched.yaml").read_text() + "  scripted: {heuristic: 1.0}\n"
                      "  scripted_tables: [{num_players: 3}]\n  scripted_envs_per_table: 64\n")
    assert deals_side_by_side(config, "toepen") == deals_side_by_side(CONFIGS / "toepen_batched.yaml", "toepen") + 64


def test_the_probe_counts_a_list_of_batched_deals_once_each(tmp_path):
    """`batched.envs_per_table` as a list: each of the run's tables its own count, summed by the probe."""
    from training.exploit import deals_side_by_side

    config = tmp_path / "toepen_batched.yaml"
    config.write_text("game: toepen\ntrainer: batched\ntables: [{num_players: 3}, {num_players: 8}]\n"
                      "batched:\n  envs_per_table: [48, 5]\n")
    assert deals_side_by_side(config, "toepen") == 53


# ----------------------------------------------------------------------- general
def test_general_checkpoint_plays_another_table_through_rams_evaluate(tmp_path):
    pytest.importorskip("rams_env.core.general")
    from cli.evaluate import main as evaluate_main

    out = tmp_path / "run"
    run = BatchedRun(tiny(out, "total_timesteps=300", "tables=[{num_players: 3}, {num_players: 4}]"), quiet=True)
    run.train()
    assert run.meta()["observation"] == "general"
    path = run.save(tmp_path / "general.zip", optimizer=False)
    assert evaluate_main(["--game", "toepen", "--players", "5", "--agents", f"checkpoint:{path}", "random",
                          "--deals", "2", "--workers", "1", "--bootstrap", "0", "--quiet"]) == 0


def _yaml(folder: Path, config) -> Path:
    import yaml

    from training.config import as_dict

    path = folder / "config.yaml"
    path.write_text(yaml.safe_dump(as_dict(config)))
    return path


def test_a_native_target_plays_its_greedy_move_in_the_general_space(tmp_path):
    import numpy as np

    import rams_env
    from agents.checkpoint.format import save_checkpoint
    from rams_env.core.general import GeneralSpace
    from training.batched.network import ActorCritic
    from training.batched.target import frozen_target

    game = rams_env.make_game("toepen", 4)
    native = ActorCritic(game.observation.size, game.actions.size, [16])
    path = save_checkpoint(tmp_path / "native.zip", {"game": "toepen", "observation_size": game.observation.size,
                                                    "action_size": game.actions.size, "net_arch": [16],
                                                    "steps": 0}, native.state_dict())
    space = GeneralSpace("toepen")
    table = space.table(game)
    target = frozen_target(path, space, table)
    rng = np.random.default_rng(0)
    obs = rng.random((64, game.observation.size)).astype(np.float32)
    mask = rng.random((64, game.actions.size)) < 0.5
    mask[:, 0] = True
    with torch.no_grad():
        expected = torch.where(torch.from_numpy(mask), native.logits(torch.from_numpy(obs)), -1e9).argmax(1)
        general = target.logits(torch.from_numpy(table.obs(obs)))
        chosen = torch.where(torch.from_numpy(table.mask(mask)), general, -1e30).argmax(1)
    assert np.array_equal(table.native_actions(chosen.numpy()), expected.numpy())


def test_evaluations_rate_the_learner_and_its_snapshots(tmp_path):
    """As the SB3 path: ratings (random = 0) of the learner, the league's kept snapshots and the baselines at
    each evaluation, in the history (results.json) and TensorBoard (ratings/<agent>)."""
    run = BatchedRun(tiny(tmp_path / "run", "total_timesteps=600", "eval.ratings_deals=2",
                          "eval.baselines=[random, heuristic]"), quiet=True)
    run.train()
    run.evaluate(deals=2)
    entry = run.history[-1]
    snapshots = [f"snapshot_{ident}" for ident in run.selfplay.league.kept]
    assert snapshots and set(entry["ratings"]) == {"learner", "random", "heuristic", *snapshots}
    assert entry["ratings"]["random"] == 0 and set(entry["snapshot_winrates"]) == {
        str(i) for i in run.selfplay.league.kept}
