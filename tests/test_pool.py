"""The opponent pool's snapshot results and prioritised sampling, the single-seat env's end-of-deal hook,
in-process tournament entrants, and the ratings a training run logs at each evaluation."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import rams_env  # noqa: E402
from agents.checkpoint_agent import PolicyAgent, build_policy  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from agents.registry import agent_factory  # noqa: E402
from evaluation.tournament import Plan, Setting, run_tournament  # noqa: E402
from training.config import ConfigError, load_config  # noqa: E402
from training.pool import (  # noqa: E402
    PRIORITY_FLOOR,
    RATE_MEMORY,
    OpponentPool,
    PoolError,
    snapshot_weights,
)
from training.single_seat import SingleSeatEnv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


class Seat:
    """A stand-in agent: only its name matters to the pool's bookkeeping."""

    def __init__(self, name: str) -> None:
        self.name = name


def _pool(sampling="prioritized", kept=3, snapshots=(100, 200)) -> OpponentPool:
    game = rams_env.make_game("toepen", 4)
    pool = OpponentPool(game, {"snapshots": 1.0}, game.observation.size, game.actions.size, [8], kept, sampling)
    live = build_policy(pool.obs_size, pool.n_actions, [8])
    pool.attach(live)
    for steps in snapshots:
        pool.add_snapshot(steps, live)
    return pool


def _run_meta(pool: OpponentPool) -> dict:
    """What a run records about its table and network (training/train.py ``Run.meta``), which a snapshot keeps."""
    game = pool.game
    return {"game": game.name, "num_players": game.num_players, "rules": game.rules.as_dict(),
            "observation_size": pool.obs_size, "observation_version": game.observation.version,
            "action_size": pool.n_actions, "net_arch": pool.net_arch}


def _table(*names: str) -> list[Seat]:
    return [Seat(n) for n in names]


# ------------------------------------------------------------------ results and prioritised weights
def test_prioritized_weights_favour_the_snapshot_that_beats_the_learner():
    pool = _pool()
    assert np.allclose(pool.snapshot_probabilities(), [0.5, 0.5])  # fresh snapshots: one virtual draw each
    # learner in seat 0; snapshot:100 earned more than the learner, snapshot:200 less
    pool.record(_table("snapshot:200", "snapshot:100", "snapshot:200", "random"), [0, 2, -1, -1], learner_seat=0)
    old, new = pool.snapshots
    assert (old.deals, old.rate, new.deals, new.rate) == (1, 0.75, 1, 0.25)  # (1 + 1/2) / 2 and (0 + 1/2) / 2
    expected = np.array([0.75 + PRIORITY_FLOOR, 0.25 + PRIORITY_FLOOR])
    assert np.allclose(pool.snapshot_probabilities(), expected / expected.sum())
    shares = _draw_shares(pool, seed=3)
    assert np.allclose(shares, expected / expected.sum(), atol=0.03), shares  # 4000 draws: sd < 0.01


def _draw_shares(pool: OpponentPool, seed: int) -> list[float]:
    rng = np.random.default_rng(seed)
    names = [a.name for _ in range(1000) for a in pool(rng)]
    return [names.count(f"snapshot:{s.steps}") / len(names) for s in pool.snapshots]


def test_a_snapshot_in_two_seats_is_judged_by_their_mean_and_ties_are_half():
    pool = _pool()
    # snapshot:100 holds seats 1 and 3 (mean 1 = the learner's 1: a tie); snapshot:200 holds seat 2 (-2 < 1)
    pool.record(_table("self", "snapshot:100", "snapshot:200", "snapshot:100"), [1, 3, -2, -1], learner_seat=0)
    assert [(s.deals, s.rate) for s in pool.snapshots] == [(1, 0.5), (1, 0.25)]
    pool.record(_table("snapshot:100", "random", "random", "self"), [1, 0, 0, -1], learner_seat=0)  # its own seat
    assert [s.deals for s in pool.snapshots] == [1, 1]
    pool.record(_table("random", "snapshot:999", "random", "random"), [1, 0, 0, -1], learner_seat=0)  # dropped one
    assert [s.deals for s in pool.snapshots] == [1, 1]


def test_the_win_rate_forgets_old_deals_after_rate_memory():
    pool = _pool(snapshots=(100,))
    snap = pool.snapshots[0]
    for _ in range(3 * RATE_MEMORY):
        pool.record(_table("self", "snapshot:100", "random", "random"), [0, 1, 0, -1], learner_seat=0)
    won = snap.rate
    assert won > 0.95
    for _ in range(RATE_MEMORY):
        pool.record(_table("self", "snapshot:100", "random", "random"), [1, 0, 0, -1], learner_seat=0)
    assert snap.rate == pytest.approx(won * (1 - 1 / RATE_MEMORY) ** RATE_MEMORY)  # an exponential average


def test_recent_sampling_ignores_results_but_still_keeps_them():
    pool = _pool(sampling="recent", snapshots=(100, 200, 300))
    pool.record(_table("self", "snapshot:100", "snapshot:100", "snapshot:100"), [-3, 1, 1, 1], learner_seat=0)
    assert np.allclose(pool.snapshot_probabilities(), snapshot_weights(3))
    assert pool.win_rates() == {100: 0.75}  # only snapshots that have played


def test_snapshot_results_round_trip_through_state_and_restore(tmp_path):
    pool = _pool(snapshots=(100, 200, 300))
    for snap in pool.snapshots:
        pool.save_snapshot(tmp_path, snap, _run_meta(pool))
    for payoffs in ([0, 2, -1, -1], [0, -1, 2, -1], [0, 1, 1, -2], [1, -1, 1, -1]):
        pool.record(_table("self", "snapshot:100", "snapshot:300", "random"), payoffs, learner_seat=0)
    state = json.loads(json.dumps(pool.state()))  # a checkpoint's meta is JSON
    again = _pool(snapshots=())
    again.restore(tmp_path, state)
    assert [(s.steps, s.deals, s.rate) for s in again.snapshots] == [(s.steps, s.deals, s.rate) for s in pool.snapshots]
    assert np.array_equal(again.snapshot_probabilities(), pool.snapshot_probabilities())
    older = {k: v for k, v in state.items() if k != "results"}  # a checkpoint from before results were kept
    again.restore(tmp_path, older)
    assert [(s.deals, s.rate) for s in again.snapshots] == [(0, 0.5)] * 3


def test_unknown_snapshot_sampling_is_rejected_naming_the_key():
    with pytest.raises(ConfigError, match=r"snapshot_sampling='best': one of recent, prioritized"):
        load_config(None, ["snapshot_sampling=best"])
    for bad in (1, -2, "many"):
        with pytest.raises(ConfigError, match="eval.ratings_deals"):
            load_config(None, [f"eval.ratings_deals={bad}"])
    config = load_config(None, ["snapshot_sampling=prioritized", "eval.ratings_deals=0"])
    assert (config.snapshot_sampling, config.eval.ratings_deals) == ("prioritized", 0)
    with pytest.raises(PoolError, match="snapshot_sampling"):
        _pool(sampling="newest")


def test_the_training_docs_state_the_prioritized_rule_with_the_codes_numbers():
    text = (ROOT / "docs/training.md").read_text()
    assert f"weight `rate + {PRIORITY_FLOOR}`" in text and f"after {RATE_MEMORY} deals" in text


# ------------------------------------------------------------------ the single-seat env's hook
class Recording:
    """An opponent factory that keeps score: what SingleSeatEnv must call at the end of every deal."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], list[float], int]] = []

    def __call__(self, rng):
        return [RandomAgent(int(rng.integers(1000)), name=f"seat{i}") for i in range(4)]

    def record(self, table, payoffs, learner_seat):
        self.calls.append(([a.name for a in table], list(payoffs), learner_seat))


def test_single_seat_env_reports_every_finished_deal_to_the_opponent_factory():
    opponents = Recording()
    env = SingleSeatEnv("toepen", opponents, random_carry=True)
    rng = np.random.default_rng(0)
    for seed in range(20):
        _, info = env.reset(seed=seed)
        done, total = False, 0.0
        while not done:
            assert len(opponents.calls) == seed  # nothing before the deal is over
            _, reward, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            total += reward
        names, payoffs, seat = opponents.calls[-1]
        assert seat == info["seat"] and names == [f"seat{i}" for i in range(4)]
        assert payoffs == list(env.aec.game_state.scores) and payoffs[seat] == total
    assert len(opponents.calls) == 20


# ------------------------------------------------------------------ in-process tournament entrants
def test_tournament_plays_in_process_factories_like_the_specs_they_copy():
    setting = Setting("toepen", 4)
    game = setting.make_game()
    by_spec = run_tournament(Plan(setting, ("random", "heuristic"), deals=3, seed=2), progress=False)
    mine = {"mine": agent_factory("random", game)}
    by_factory = run_tournament(Plan(setting, ("mine", "heuristic"), deals=3, seed=2), progress=False, factories=mine)
    assert by_factory.names == ["mine", "heuristic"]
    assert np.array_equal(by_factory.advantage, by_spec.advantage)
    with pytest.raises(ValueError, match="workers=1"):
        run_tournament(Plan(setting, ("mine", "heuristic"), deals=3), workers=2, progress=False, factories=mine)


def test_pool_entrants_rate_a_snapshot_identical_to_the_learner_only_once():
    pool = _pool(snapshots=(100, 200))  # both copies of the live policy
    assert list(pool.entrants()) == ["learner"]
    with torch.no_grad():
        next(pool.current.parameters()).add_(1.0)  # PPO moved on
    entrants = pool.entrants()
    assert list(entrants) == ["learner", "snapshot:100", "snapshot:200"]
    agent = entrants["snapshot:100"](7)
    assert isinstance(agent, PolicyAgent) and agent.deterministic and agent.name == "snapshot:100"


def test_a_tournament_gives_the_caller_its_torch_threads_back():
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        run_tournament(Plan(Setting("toepen", 4), ("random", "heuristic"), deals=2), progress=False)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_greedy_policy_agent_plays_the_mode_of_the_masked_distribution():
    """The fast greedy path (no distribution objects) picks what sb3-contrib's mode() picks."""
    policy = build_policy(30, 12, [16, 16])
    agent = PolicyAgent(policy, deterministic=True)
    rng = np.random.default_rng(0)
    for i in range(500):
        obs = (rng.random(30) * (1 + 20 * (i % 2))).astype(np.float32)  # some far-apart logits too
        mask = rng.random(12) < 0.4
        mask[rng.integers(12)] = True
        with torch.no_grad():
            mode = policy.get_distribution(torch.as_tensor(obs)[None], action_masks=mask[None]).mode().item()
        assert agent.act(obs, mask.astype(np.int8), {}) == mode


# ------------------------------------------------------------------ a training run with both features
# rollouts of 256 steps; snapshots at their last steps (256, 512, 768: each taken before the update), evaluation at 512
TINY = ["total_timesteps=768", "n_envs=2", "ppo.n_steps=128", "ppo.batch_size=128", "ppo.n_epochs=1",
        "eval.every=512", "eval.deals=2", "eval.final_deals=0", "eval.ratings_deals=2", "eval.baselines=[random]",
        "checkpoint_every=256", "snapshot_every=256", "snapshots_kept=2", "snapshot_sampling=prioritized",
        "opponents={self: 0.2, snapshots: 0.6, random: 0.2}"]


def _train(out: Path) -> dict:
    from cli.train import main

    assert main(["configs/train/toepen.yaml", "--quiet", *[f"--set={s}" for s in TINY], f"--set=out_dir={out}"]) == 0
    return json.loads((out / "results.json").read_text())


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory) -> tuple[Path, dict, dict]:
    first = tmp_path_factory.mktemp("first")
    return first, _train(first), _train(tmp_path_factory.mktemp("second"))


@pytest.mark.slow
def test_training_logs_ratings_and_snapshot_win_rates_deterministically(two_runs):
    out, first, second = two_runs
    periodic, final = first["history"]
    assert (periodic["steps"], final["steps"]) == (512, 768)
    # at 512 the snapshot just taken is the learner itself and is not rated twice; at the end every kept one is
    assert list(periodic["ratings"]) == ["learner", "snapshot:256", "random"]
    assert list(final["ratings"]) == ["learner", "snapshot:512", "snapshot:768", "random"]
    assert periodic["ratings"]["random"] == final["ratings"]["random"] == 0.0
    assert list(periodic["snapshot_winrates"]) == ["256"] and 0 <= periodic["snapshot_winrates"]["256"] <= 1
    assert set(final["snapshot_winrates"]) == {"512"}  # 768 was taken at the last step and never played
    assert first["history"] == second["history"]  # same seed, same config: the same run, ratings included
    tags = _scalar_tags(out / "tb")
    assert {"ratings/learner", "ratings/random", "ratings/snapshot_256", "pool/snapshot_256_winrate"} <= tags


def _scalar_tags(logdir: Path) -> set[str]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    tags: set[str] = set()
    for events in logdir.rglob("events.out.tfevents.*"):
        accumulator = EventAccumulator(str(events))
        accumulator.Reload()
        tags |= set(accumulator.Tags()["scalars"])
    return tags


@pytest.mark.slow
def test_snapshot_results_survive_resume(two_runs):
    from agents.checkpoint.format import load_checkpoint
    from training.train import Run

    out = two_runs[0]
    meta, _, _ = load_checkpoint(out / "last.zip")
    results = meta["pool"]["results"]
    assert any(r["deals"] for r in results.values())
    run = Run(load_config(ROOT / "configs/train/toepen.yaml", [*TINY, f"out_dir={out}"]), quiet=True)
    run.resume()
    assert {str(s.steps): {"deals": s.deals, "rate": s.rate} for s in run.pool.snapshots} == results
    assert run.pool.sampling == "prioritized"


@pytest.mark.slow
def test_evaluation_plot_has_a_ratings_panel_when_ratings_were_taken(two_runs, tmp_path):
    from training.run_plot import plot_history

    out, first, _ = two_runs
    assert (out / "evaluation.png").stat().st_size > 0
    import matplotlib.image

    with_ratings = matplotlib.image.imread(out / "evaluation.png")
    assert plot_history([{**h, "ratings": {}} for h in first["history"]], ["random"], "toepen", tmp_path / "p.png")
    without = matplotlib.image.imread(tmp_path / "p.png")
    assert with_ratings.shape[1] > 1.5 * without.shape[1]  # a second panel beside the advantage curves
