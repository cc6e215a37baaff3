"""Python-engine tables with scripted seats: the league's seats alone are asked, rewards add up to the scores."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from training.batched.aec_tables import AecTables
from training.batched.league import LEARNER, SCRIPTED, League
from training.batched.learner import BatchedConfig, SelfPlay
from training.batched.sources import ScriptedSlots
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


@pytest.mark.parametrize("game", ["toepen", "tippen", "mauscheln", "lupfen", "fipsen"])
def test_every_decision_shows_its_state_encoded_afresh(game):
    """The observation a free seat is shown is its state's encoding, not the previous decision's entries with
    the new ones written over them (encode writes into a zeroed vector; a reused row once kept stale bits)."""
    tables = AecTables(game, TableSpec(4), num_envs=6, scripted={"heuristic": 0.5})
    obs, mask, to_act = tables.reset(seed=1)
    rng = np.random.default_rng(2)
    fresh = np.zeros_like(obs[0])
    for _ in range(60):
        for slot, state in enumerate(tables.states):
            fresh[:] = 0
            tables.game.encode(state, state.to_act, fresh)
            assert np.array_equal(obs[slot], fresh)
            assert set(np.flatnonzero(mask[slot])) == set(tables.game.legal_actions(state))
        obs, mask, to_act, _, _ = tables.step((rng.random(mask.shape) + mask).argmax(1))


def test_the_learner_always_sits_at_a_seat_the_source_left_free():
    """With most seats scripted and the league mostly random, a deal without a learner seat gets one among the
    free seats (once it was the k-th seat instead of the k-th free one, so the learner often sat nowhere)."""
    slots, seats = 200, 4
    fixed = np.zeros((slots, seats), bool)
    league = League({"self": 0.1, "random": 0.9}, np.full(slots, seats), fixed, 4, "recent",
                    np.random.default_rng(0))
    rng = np.random.default_rng(1)
    for _ in range(20):
        fixed[:] = rng.random(fixed.shape) < 0.7
        fixed[np.arange(slots), rng.integers(seats, size=slots)] = False  # one free seat at least, anywhere
        league.start_deals(np.arange(slots))
        policy = league.seat_policy
        assert ((policy == SCRIPTED) == fixed).all()
        assert ((policy == LEARNER) & ~fixed).any(1).all()


def test_tables_without_scripted_seats_draw_the_learner_seats_they_always_drew():
    """Where every seat is the league's (the batched engine's slots), the k-th free seat is seat k: the same
    draws as before the fix, so the shipped self-play recipes reproduce their weights."""
    valid = np.arange(6)[None, :] < np.array([3, 4, 6, 5, 6])[:, None]
    league = League({"self": 1.0}, np.array([3, 4, 6, 5, 6]), np.zeros((5, 6), bool), 4, "recent",
                    np.random.default_rng(0))
    league.rng, old = np.random.default_rng(7), np.random.default_rng(7)
    assert (league._any_valid_seat(valid) == (old.random(5) * valid.sum(1)).astype(np.int64)).all()


def test_a_run_with_scripted_seats_resumes_on_fresh_deals_seated_afresh():
    """Python-engine tables cannot save their deals, so a resume deals afresh; the seats the league saved
    belonged to the dropped deals (their scripted seats too) and must not be laid over the new ones (once a
    free seat of a new deal kept the saved SCRIPTED mark and the first decision failed with KeyError -1)."""
    config = BatchedConfig(envs_per_table=4, rollout_steps=16, minibatch_size=64, net_arch=[16],
                           scripted={"heuristic": 0.6}, scripted_envs_per_table=16)
    learner = SelfPlay("toepen", [TableSpec(4)], config, seed=0)
    learner.iterate()
    state = learner.state()
    assert "deals" not in state
    resumed = SelfPlay("toepen", [TableSpec(4)], config, seed=0)
    resumed.policy.load_state_dict(learner.policy.state_dict())
    resumed.load_state(state)
    assert ((resumed.league.seat_policy == SCRIPTED) == resumed.source.fixed).all()
    for _ in range(2):
        metrics = resumed.iterate()
        assert np.isfinite(metrics["reward_edge_scripted"])
    assert resumed.steps > learner.steps


def test_scripted_tables_get_python_engine_slots_and_the_others_only_self_play():
    """`batched.scripted_tables`: the bluffer at the 4-player table only, self-play at every table."""
    config = BatchedConfig(envs_per_table=4, rollout_steps=8, minibatch_size=64, net_arch=[16],
                           scripted={"heuristic:bluffer": 0.5}, scripted_envs_per_table=3)
    tables = [TableSpec(3), TableSpec(4), TableSpec(5)]
    learner = SelfPlay("toepen", tables, config, seed=0, scripted_tables=[TableSpec(4)])
    kinds = [(type(env).__name__, env.num_players) for env in learner.source.envs]
    assert [kind for kind in kinds if kind[0] == "AecTables"] == [("AecTables", 4)]
    assert learner.source.num_slots == 3 * 4 + 3
    everywhere = SelfPlay("toepen", tables, config, seed=0)
    assert sum(type(env).__name__ == "AecTables" for env in everywhere.source.envs) == 3
    learner.iterate()
    assert learner.source.fixed[-3:].any() and not learner.source.fixed[:-3].any()


def test_lone_slots_seat_exactly_one_scripted_player_its_style_by_weight():
    """`lone=True` (batched.scripted_alone): one scripted seat per deal, uniform seat, style drawn by weight."""
    tables = AecTables("toepen", TableSpec(8), num_envs=200, scripted={"heuristic": 0.3, "heuristic:bluffer": 0.1},
                       lone=True)
    tables.reset(seed=4)
    assert (tables.fixed.sum(1) == 1).all()
    seats = tables.fixed.argmax(1)
    assert len(set(seats.tolist())) == 8
    styles = tables.spec_of[tables.fixed]
    assert 0.65 < (styles == 0).mean() < 0.85  # weights 3:1
    for _ in range(30):
        tables.step(tables.mask.argmax(1))
        assert (tables.fixed.sum(1) == 1).all()
        assert not tables.fixed[np.arange(200), tables.to_act].any()


@pytest.mark.parametrize("shares", [{}, {"heuristic": 0.0}, {"heuristic": -0.1, "random": 0.5}])
def test_lone_slots_refuse_shares_without_a_style(shares):
    with pytest.raises(ValueError, match="scripted seat shares"):
        AecTables("toepen", TableSpec(4), num_envs=2, scripted=shares, lone=True)


def test_scripted_alone_slots_sit_beside_the_shared_ones_at_their_tables():
    """`batched.scripted_alone_tables`: the lone slots at 3 and 8 players, the shared ones at 4, self-play at all."""
    config = BatchedConfig(envs_per_table=4, rollout_steps=8, minibatch_size=64, net_arch=[16],
                           scripted={"heuristic:bluffer": 0.7}, scripted_envs_per_table=3,
                           scripted_alone={"heuristic": 0.5, "heuristic:cautious": 0.5},
                           scripted_alone_envs_per_table=2)
    tables = [TableSpec(3), TableSpec(4), TableSpec(8)]
    learner = SelfPlay("toepen", tables, config, seed=0, scripted_tables=[TableSpec(4)],
                       scripted_alone_tables=[TableSpec(3), TableSpec(8)])
    aec = [(env.num_players, env.lone) for env in learner.source.envs if isinstance(env, AecTables)]
    assert aec == [(4, False), (3, True), (8, True)]
    assert learner.source.num_slots == 3 * 4 + 3 + 2 + 2
    learner.iterate()
    lone = learner.source.fixed[-4:]
    assert (lone.sum(1) == 1).all()
    metrics = learner.iterate()
    assert np.isfinite(metrics["reward_edge_scripted"])


def test_a_list_of_slot_counts_gives_each_listed_table_its_own_share():
    """`batched.scripted_alone_envs_per_table: [2, 5]`: 2 lone slots at 3 players and 5 at 8, in the run's table
    order whatever the list's; the per-table list splits between processes table by table."""
    config = BatchedConfig(envs_per_table=4, rollout_steps=8, minibatch_size=64, net_arch=[16],
                           scripted_alone={"heuristic:cautious": 1.0}, scripted_alone_envs_per_table=[5, 2],
                           scripted_alone_tables=[{"num_players": 8}, {"num_players": 3}])
    config.validate()
    tables = [TableSpec(3), TableSpec(4), TableSpec(8)]
    learner = SelfPlay("toepen", tables, config, seed=0, scripted_alone_tables=[TableSpec(8), TableSpec(3)])
    aec = [(env.num_players, env.num_envs) for env in learner.source.envs if isinstance(env, AecTables)]
    assert aec == [(3, 2), (8, 5)]
    assert learner.source.num_slots == 3 * 4 + 2 + 5
    halves = [SelfPlay("toepen", tables, replace(config, processes=2), seed=0, rank=rank,
                       scripted_alone_tables=[TableSpec(8), TableSpec(3)]) for rank in (0, 1)]
    assert [[env.num_envs for env in half.source.envs if isinstance(env, AecTables)] for half in halves] == \
        [[1, 3], [1, 2]]
    learner.iterate()
    assert (learner.source.fixed[-7:].sum(1) == 1).all()


def test_slots_by_table_reads_one_number_or_a_count_per_listed_table():
    """One number goes to each listed table (every table of the run when none is listed), a list pairs with its
    tables entry for entry; the scripted slots then read only the mapping."""
    run = [TableSpec(3), TableSpec(4), TableSpec(8)]
    one = BatchedConfig(scripted_envs_per_table=5)
    assert one.slots_by_table("scripted_envs_per_table", run, None) == dict.fromkeys(run, 5)
    assert one.slots_by_table("scripted_envs_per_table", run, [TableSpec(8)]) == {TableSpec(8): 5}
    listed = BatchedConfig(scripted_alone_envs_per_table=[2, 7])
    assert listed.slots_by_table("scripted_alone_envs_per_table", run, [TableSpec(8), TableSpec(3)]) == \
        {TableSpec(8): 2, TableSpec(3): 7}
    slots = ScriptedSlots({"heuristic": 1.0}, {TableSpec(8): 2, TableSpec(3): 7})
    assert [(env.num_players, env.num_envs) for env in slots.build("toepen", run)] == [(3, 7), (8, 2)]
    assert ScriptedSlots({}, {TableSpec(8): 2}).build("toepen", run) == []


def test_a_list_of_slot_counts_must_pair_with_its_tables():
    with pytest.raises(ValueError, match="one whole number >= 0 for each of the 2 entries"):
        BatchedConfig(scripted_envs_per_table=[1, 2, 3]).slots_by_table(
            "scripted_envs_per_table", [TableSpec(3), TableSpec(4)], [TableSpec(3), TableSpec(4)])
    with pytest.raises(ValueError, match=r"scripted_envs_per_table=\[1, 2\]: one whole number >= 0 for each of the 1"):
        BatchedConfig(scripted_envs_per_table=[1, 2], scripted_tables=[{"num_players": 4}]).validate()
    with pytest.raises(ValueError, match="it lists none"):
        BatchedConfig(scripted_alone_envs_per_table=[1]).validate()
    whole = r"envs_per_table=\[4\]: one whole number >= 1 for each of the 2 entries of tables"
    with pytest.raises(ValueError, match=whole):
        BatchedConfig(envs_per_table=[4]).slots_by_table("envs_per_table", [TableSpec(3), TableSpec(4)], None)
    with pytest.raises(ValueError, match=r"rollout_steps=\[4\]: a whole number >= 1$"):
        BatchedConfig(rollout_steps=[4]).validate()


def test_a_list_of_batched_deals_gives_each_of_the_run_tables_its_own_count():
    """`batched.envs_per_table: [4, 1, 2]` at 3, 4 and 8 players: a table can be added with few self-play deals (the
    share of the learner's decisions at the others kept) and its scripted slots; every process plays one of each."""
    config = BatchedConfig(envs_per_table=[4, 1, 2], rollout_steps=8, minibatch_size=64, net_arch=[16],
                           scripted_alone={"heuristic:cautious": 1.0}, scripted_alone_envs_per_table=3)
    config.validate()  # the list's length is the run's to check (TrainConfig, slots_by_table)
    tables = [TableSpec(3), TableSpec(4), TableSpec(8)]
    learner = SelfPlay("toepen", tables, config, seed=0, scripted_alone_tables=[TableSpec(8)])
    assert [(env.num_players, env.num_envs) for env in learner.source.envs] == [(3, 4), (4, 1), (8, 2), (8, 3)]
    halves = [SelfPlay("toepen", tables, replace(config, processes=2), seed=0, rank=rank,
                       scripted_alone_tables=[TableSpec(8)]) for rank in (0, 1)]
    assert [[env.num_envs for env in half.source.envs] for half in halves] == [[2, 1, 1, 2], [2, 1, 1, 1]]
    learner.iterate()
    assert (learner.source.fixed[-3:].sum(1) == 1).all() and not learner.source.fixed[:-3].any()
