"""The batched trainer's imitation warm start (training/batched/imitation.py): the teacher recorded in every
seat of every table in the general space, the returns each decision is fitted to, the fit, and the run around
it (once per run, kept in checkpoints, not repeated by a resume)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

from agents.checkpoint.format import load_checkpoint  # noqa: E402
from rams_env.core.general import GeneralSpace  # noqa: E402
from tests.test_batched_run import tiny  # noqa: E402
from training.batched.imitation import agreement, fit, record_tables, seat_returns  # noqa: E402
from training.batched.network import ActorCritic  # noqa: E402
from training.batched.run import BatchedRun  # noqa: E402
from training.tables import resolve_tables  # noqa: E402


def test_each_decision_is_fitted_to_its_seats_score_change_up_to_its_next_decision():
    """Seat 0 decides at scores 0 (ante already paid: -1) and -1, ends at +4; seat 1 decides once, ends at -3."""
    who, scores, final = [0, 1, 0], [-1.0, -1.0, -1.0], [4.0, -3.0]
    assert seat_returns(who, scores, final, gamma=1.0, scale=0.5) == [2.0, -1.5, 2.5]
    # discounted over the seat's own decisions: the first gets -1 (its own step) + 0.5 * 5 (the next)
    assert seat_returns(who, scores, final, gamma=0.5, scale=1.0) == [-1.0 + 0.5 * 5.0, -3.0, 5.0]


@pytest.mark.parametrize("game", ["fipsen", "toepen"])
def test_the_teacher_is_recorded_at_every_table_in_the_general_space(game):
    tables = resolve_tables("all", game, None, {})
    decisions = 100 * len(tables)  # more than any deal takes (8 players: 40 and more): every table gets one
    data = record_tables(game, tables, "heuristic", decisions, gamma=1.0, scale=0.1, seed=3, progress=False)
    space = GeneralSpace(game)
    assert len(data) >= decisions and data.observations.shape == (len(data), space.obs_size)
    assert data.masks.shape == (len(data), space.num_actions) and data.masks.any(dim=1).all()
    assert data.masks[torch.arange(len(data)), data.actions].all()  # every recorded action was legal
    features = {tuple(row.tolist()) for row in data.observations[:, space.padded_size:]}
    expected = {tuple(space.table(spec.make_game(game)).features.tolist()) for spec in tables}
    assert features == expected  # round robin: every table (its size and rules) seen
    again = record_tables(game, tables, "heuristic", decisions, gamma=1.0, scale=0.1, seed=3, progress=False)
    assert torch.equal(again.observations, data.observations) and torch.equal(again.returns, data.returns)


def test_the_fit_copies_the_teacher_better_than_a_fresh_network():
    tables = resolve_tables("all", "lupfen", None, {})
    data = record_tables("lupfen", tables, "heuristic", 3000, gamma=1.0, scale=0.1, seed=0, progress=False)
    torch.manual_seed(0)
    fresh = ActorCritic(data.observations.shape[1], data.masks.shape[1], [32])
    policy = ActorCritic(data.observations.shape[1], data.masks.shape[1], [32])
    policy.load_state_dict(fresh.state_dict())
    metrics = fit(policy, data, epochs=8, batch_size=128, learning_rate=3e-3, value_coef=0.5, progress=False)
    held_out = data.split(0.1)[1]
    assert metrics["agreement"] == agreement(policy, held_out)
    assert metrics["agreement"] > agreement(fresh, held_out) + 0.2 and metrics["agreement"] > 0.7


def test_a_run_warm_starts_once_keeps_the_metrics_and_a_resume_does_not_repeat_it(tmp_path):
    warm = ["warm_start.teacher=heuristic", "warm_start.decisions=400", "warm_start.epochs=2",
            "total_timesteps=300"]
    run = BatchedRun(tiny(tmp_path, *warm), quiet=True)
    before = run.selfplay.policy.state_dict()["action_net.weight"].clone()
    metrics = run.warm_start()
    assert metrics["decisions"] >= 400 and 0.0 <= metrics["agreement"] <= 1.0
    assert not torch.equal(before, run.selfplay.policy.state_dict()["action_net.weight"])
    meta, weights, _ = load_checkpoint(tmp_path / "last.zip")  # a resume starts after the warm start
    assert meta["warm_start"] == metrics and meta["steps"] == 0
    assert torch.equal(weights["action_net.weight"], run.selfplay.policy.state_dict()["action_net.weight"])
    run.train()
    again = BatchedRun(tiny(tmp_path, *warm), quiet=True)
    again.resume()
    assert again.warm_metrics == metrics and again.steps == run.steps


def test_no_teacher_no_warm_start(tmp_path):
    run = BatchedRun(tiny(tmp_path), quiet=True)
    before = {k: v.clone() for k, v in run.selfplay.policy.state_dict().items()}
    assert run.warm_start() is None and not (tmp_path / "last.zip").exists()
    assert all(np.array_equal(before[k], v) for k, v in run.selfplay.policy.state_dict().items())
