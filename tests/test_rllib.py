"""Ray RLlib support (training/rllib/): the env adapter under RLlib's own checker, the masking module and its
export to rams checkpoints, the seat draw, the config section, and (slow) a short PPO run through ``rams train``
whose exported checkpoint ``rams evaluate`` plays, beating random with significance.

Needs the ``rllib`` extra (``pip install -e ".[rllib]"``); skipped without it, except where ``RAMS_REQUIRE_RLLIB``
is set (.ci/run sets it: CI installs the extra, so there these tests must run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import rams_env
from agents.registry import agent_factory
from rams_env.core.general import GeneralSpace
from rams_env.env import IllegalActionWarning
from tests.tiers import slow
from training.config import ConfigError, load_config
from training.rllib.seats import LEARNER, SeatDraw, agent_id, module_of
from training.tables import config_table, resolve_tables

ROOT = Path(__file__).resolve().parent.parent

if not os.environ.get("RAMS_REQUIRE_RLLIB"):
    pytest.importorskip("ray.rllib", reason="the rllib extra is not installed (pip install -e '.[rllib]')")


def make_env(game: str, tables=None, general: bool = False, opponents=None, snapshots: int = 2):
    from training.rllib.env import RamsMultiAgentEnv, env_config

    tables = tables or [config_table(game, None, {})]
    return RamsMultiAgentEnv(env_config(game, tables, {"random_carry": True}, general,
                                        opponents or {"self": 0.5, "snapshots": 0.3, "heuristic": 0.2}, snapshots))


@pytest.mark.parametrize("game", list(rams_env.GAMES))
def test_rllibs_own_env_checker_passes(game):
    """RLlib's checker, unmodified, on every game: it steps a random action, which the AEC env's penalty mode
    answers when it is illegal (the masking module never sends one)."""
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    env = make_env(game)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        for _ in range(10):
            check_multiagent_environments(env)


def play_random(env, deals: int, seed: int):
    """Legal random actions for every agent; yields (rewards per agent of each deal, the AEC env at its end)."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    for _ in range(deals):
        totals = dict.fromkeys(env.agents, 0.0)
        while True:
            assert len(obs) == 1, "one agent acts at a time"
            ((agent, o),) = obs.items()
            assert o["action_mask"].any() and o["observations"].dtype == np.float32
            obs, rewards, terminated, truncated, _ = env.step({agent: rng.choice(np.flatnonzero(o["action_mask"]))})
            assert set(rewards) <= set(env.agents) and not truncated["__all__"]
            for a, r in rewards.items():
                totals[a] += r
            if terminated["__all__"]:
                break
        yield totals, env.env
        obs, _ = env.reset()


@pytest.mark.parametrize("game", ["toepen", "mauscheln"])
def test_each_agent_is_paid_its_seats_score(game):
    """Each agent's rewards over a deal add up to its seat's score (antes included); scripted seats are played by
    the env and never shown to RLlib; every deal seats the learner at least once."""
    env = make_env(game)
    for totals, aec in play_random(env, deals=60, seed=3):
        assert any(module_of(a) == LEARNER for a in env.agents)
        scripted = set(env.bots)
        for seat, agent in env.agent_of.items():
            assert seat not in scripted
            assert totals[agent] == pytest.approx(float(aec.game_state.scores[seat]))


def test_several_tables_share_the_general_space():
    """Tables of 3 and 5 players in one env: general observations and actions, both sizes dealt."""
    tables = resolve_tables([{"num_players": 3}, {"num_players": 5}], "toepen", None, {})
    env = make_env("toepen", tables)
    space = GeneralSpace("toepen")
    assert env.observation_spaces[env.possible_agents[0]]["observations"].shape == (space.obs_size,)
    seen = {aec.game.num_players for _, aec in play_random(env, deals=30, seed=1)}
    assert seen == {3, 5}


def test_the_seat_draw_always_seats_the_learner():
    draw = SeatDraw({"snapshots": 1.0, "heuristic": 1.0}, snapshots=3)
    rng = np.random.default_rng(0)
    for _ in range(200):
        seats = draw.draw(4, rng)
        assert seats.count(LEARNER) == 1 and set(seats) <= {LEARNER, "heuristic", *map("snapshot_{}".format, range(3))}
    assert module_of(agent_id("snapshot_2", 1)) == "snapshot_2"
    with pytest.raises(ValueError, match="no snapshot slot"):
        SeatDraw({"snapshots": 1.0}, snapshots=0)


def module_and_batch(game: str, general: bool):
    """A masking module for a game's spaces and a batch of real observations from the adapter."""
    import torch

    from training.rllib.module import MaskedActorCritic

    env = make_env(game, general=general)
    agent = env.possible_agents[0]
    module = MaskedActorCritic(observation_space=env.observation_spaces[agent], action_space=env.action_spaces[agent],
                               model_config={"net_arch": [32, 16]})
    torch.manual_seed(0)
    for p in module.parameters():  # not the near-uniform initial policy: greedy moves must differ
        p.data.normal_(0, 0.5)
    rows = []
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    while len(rows) < 64:
        ((who, o),) = obs.items()
        rows.append(o)
        obs, _, term, _, _ = env.step({who: rng.choice(np.flatnonzero(o["action_mask"]))})
        if term["__all__"]:
            obs, _ = env.reset()
    batch = {k: torch.as_tensor(np.stack([r[k] for r in rows])) for k in ("observations", "action_mask")}
    return env, module, batch


@pytest.mark.parametrize("general", [False, True])
def test_the_module_masks_and_exports_to_a_checkpoint_agent(tmp_path, general):
    """Illegal actions get no probability; the exported weights (a state_dict copy) make a CheckpointAgent that
    plays the module's greedy move on every position, native or general."""
    import torch

    from training.rllib.export import save_rams_checkpoint, table_meta

    env, module, batch = module_and_batch("toepen", general)
    with torch.no_grad():
        logits = module.forward_inference({"obs": batch})["action_dist_inputs"]
    probs = torch.softmax(logits, -1)
    assert (probs[batch["action_mask"] == 0] == 0).all()
    game = env.env.game
    meta = {**table_meta("toepen", game, general), "net_arch": [32, 16], "steps": 0}
    path = save_rams_checkpoint(tmp_path / "m.zip", meta, module.state_dict())
    agent = agent_factory(f"checkpoint:{path}", game)(0)
    space = GeneralSpace("toepen").table(game) if general else None
    for row, mask, greedy in zip(batch["observations"].numpy(), batch["action_mask"].numpy(),
                                 logits.argmax(-1).tolist(), strict=True):
        if space is None:
            assert agent.act(row, mask.astype(np.int8), {}) == greedy
        else:
            native_mask = mask[space.action_of_native].astype(np.int8)
            native_row = row[space.obs_index]
            assert agent.act(native_row, native_mask, {}) == int(space.native_actions(greedy))


@pytest.mark.parametrize(("override", "message"), [
    ("rllib.algorithm=dqn", "one of ppo, appo, impala"),
    ("rllib.nope=1", "unknown key 'nope'"),
    ("rllib.minibatch_size=9000", "exceeds train_batch_size"),
    ("snapshot_sampling=prioritized", "recent rule only"),
    ("warm_start.teacher=heuristic", "the rllib trainer has none"),
])
def test_the_rllib_section_is_validated(override, message):
    with pytest.raises(ConfigError, match=message):
        load_config(ROOT / "configs/train/toepen_rllib.yaml", [override])


def test_ray_stays_out_of_the_other_imports():
    """``rams train``'s command line, the config and the other trainers load without Ray."""
    code = ("import sys, cli.train, training.config, training.train, training.batched.run; "
            "load = __import__('training.config', fromlist=['x']).load_config; "
            "load('configs/train/toepen_rllib.yaml'); print('ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip() == "False", out.stderr


@slow
def test_a_short_ppo_run_beats_random_and_rams_evaluate_plays_it(tmp_path):
    """``rams train`` with ``trainer: rllib`` (PPO, local Ray on 2 CPUs, 2 env runners) for a few thousand
    decisions: its final duplicate-deal evaluation (the exported weights played as a checkpoint agent, learner in
    every seat against random elsewhere) has a 95% interval above zero (the initial network, logits near zero,
    plays about as random does), and its ratings (eval.ratings_deals) rate the learner. ``rams evaluate`` then plays
    the exported file. About a minute and a half on 2
    busy cores, a third of it Ray's start."""
    from cli.train import main as train

    out, export = tmp_path / "run", tmp_path / "rllib.zip"
    code = train([str(ROOT / "configs/train/toepen_rllib.yaml"), "--quiet", "--export", str(export),
                  "--set", f"out_dir={out}", "--set", "total_timesteps=8000", "--set", "snapshot_every=3000",
                  "--set", "eval.every=0", "--set", "eval.final_deals=100", "--set", "eval.baselines=[random]",
                  "--set", "eval.ratings_deals=2", "--set", "rllib.num_cpus=2", "--set", "rllib.num_env_runners=2",
                  "--set", "rllib.train_batch_size=1000", "--set", "rllib.minibatch_size=250"])
    assert code == 0 and (out / "final.zip").exists() and export.exists()
    written = json.loads((out / "results.json").read_text())
    final = written["final"][0]
    assert "learner" in written["history"][-1]["ratings"], written["history"][-1]
    print(f"rllib learner vs random: {final['mean']:+.3f} ± {final['ci95']:.3f}")
    assert final["baseline"] == "random" and final["mean"] - final["ci95"] > 0, final
    report = tmp_path / "eval.json"
    subprocess.run([sys.executable, "-m", "cli", "evaluate", "--game", "toepen", "--agents", f"checkpoint:{export}",
                    "random", "--deals", "10", "--quiet", "--json", str(report)], cwd=ROOT, check=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True)
    played = json.loads(report.read_text())
    assert played["specs"][0] == f"checkpoint:{export}" and played["games"] > 0
