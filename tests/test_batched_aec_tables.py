"""Python-engine tables with scripted seats: the league's seats alone are asked, rewards add up to the scores."""

from __future__ import annotations

import numpy as np
import pytest

from training.batched.aec_tables import AecTables
from training.batched.league import SCRIPTED
from training.batched.learner import BatchedConfig, SelfPlay
from training.batched.tables import TableSpec

pytest.importorskip("numba")


def test_free_seats_act_and_rewards_add_up_to_each_deals_scores():
    tables = AecTables("toepen", TableSpec(4), num_envs=8, scripted={"heuristic": 0.5})
    obs, mask, to_act = tables.reset(seed=3)
    rng = np.random.default_rng(0)
    total, deals = np.zeros((8, 4)), 0
    for _ in range(150):
        assert not tables.fixed[np.arange(8), to_act].any()  # a scripted seat is never handed to the learner
        assert (tables.fixed.sum(1) < 4).all()
        before = list(tables.states)
        _, mask, to_act, rewards, done = tables.step((rng.random(mask.shape) + mask).argmax(1))
        total += rewards
        for slot in np.flatnonzero(done).tolist():
            assert total[slot] == pytest.approx(before[slot].scores)
            total[slot], deals = 0, deals + 1
    assert deals > 10 and tables.fixed.any()


def test_bad_scripted_shares_are_refused():
    with pytest.raises(ValueError, match="at most 1"):
        AecTables("toepen", TableSpec(4), num_envs=2, scripted={"heuristic": 0.8, "random": 0.4})


def test_the_league_leaves_scripted_seats_alone():
    config = BatchedConfig(envs_per_table=16, rollout_steps=40, minibatch_size=64, net_arch=[16],
                           scripted={"heuristic": 0.6}, scripted_envs_per_table=8)
    learner = SelfPlay("toepen", [TableSpec(4)], config, seed=0)
    metrics = learner.iterate()
    assert ((learner.league.seat_policy == SCRIPTED) == learner.source.fixed).all()
    assert learner.source.fixed[16:].any() and not learner.source.fixed[:16].any()
    assert metrics["deals_edge_scripted"] > 0 and np.isfinite(metrics["reward_edge_scripted"])
