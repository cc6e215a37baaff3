"""The batched self-play learner: reproducible from its seed, and it learns to beat random play."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from training.batched.learner import BatchedConfig, SelfPlay
from training.batched.tables import TableSpec, all_tables

pytest.importorskip("numba")

TINY = dict(envs_per_table=32, rollout_steps=40, minibatch_size=64, epochs=2, net_arch=[16])


def test_same_seed_same_config_gives_the_same_weights():
    def weights(seed: int) -> list[torch.Tensor]:
        learner = SelfPlay("toepen", [TableSpec(3), TableSpec(4)], BatchedConfig(**TINY), seed=seed)
        for iteration in range(3):
            learner.iterate()
            if iteration == 0:
                learner.snapshot()  # snapshots play from the second iteration on
        return list(learner.policy.state_dict().values())

    first, again, other = weights(1), weights(1), weights(2)
    assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(torch.equal(a, b) for a, b in zip(first, other, strict=True))


def test_iterate_reports_the_update_and_the_deals():
    learner = SelfPlay("toepen", [TableSpec(4)], BatchedConfig(**TINY), seed=0)
    metrics = learner.iterate()
    for name in ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction", "explained_variance",
                 "steps_per_s", "reward_learner"):
        assert np.isfinite(metrics[name]), name
    assert learner.steps == metrics["decisions"] > 0


def test_state_round_trip_restores_the_league_and_counters():
    learner = SelfPlay("toepen", [TableSpec(4)], BatchedConfig(**TINY), seed=0)
    learner.iterate()
    learner.snapshot()
    learner.iterate()
    state = learner.state()
    other = SelfPlay("toepen", [TableSpec(4)], BatchedConfig(**TINY), seed=7)
    other.load_state(state)
    assert other.steps == learner.steps and other.league.kept == learner.league.kept
    assert other.league.rates == learner.league.rates
    kept = learner.league.kept[0]
    assert all(torch.equal(a, b) for a, b in zip(other.league.snapshots[kept].state_dict().values(),
                                                learner.league.snapshots[kept].state_dict().values(), strict=True))
    assert other.rng.random() == learner.rng.random()


def test_it_learns_to_beat_random_play():
    """One learner seat among random players on Toepen 4p: its edge over them must grow clearly within a
    few thousand decisions (a broken gradient, sign or reward bookkeeping leaves it near 0)."""
    config = BatchedConfig(envs_per_table=256, rollout_steps=16, minibatch_size=512, epochs=4, net_arch=[64],
                           league={"self": 0.0, "random": 1.0}, learning_rate=1e-3)
    learner = SelfPlay("toepen", [TableSpec(4)], config, seed=0)
    edges = [learner.iterate()["reward_edge"] for _ in range(10)]
    assert np.mean(edges[-3:]) > np.mean(edges[:2]) + 0.25, edges


def test_all_tables_lists_every_size_of_every_preset_the_reference_takes():
    tables = all_tables("fipsen")
    assert TableSpec(5, "thedinghausen") in tables and TableSpec(4, "thedinghausen") not in tables
    assert len(all_tables("toepen")) == 6 * len(set(t.preset for t in all_tables("toepen")))


@pytest.mark.parametrize("settings", [{"reward_norm": "none"}, {"reward_norm": "per_table"}, {"anchor_coef": 0.5}])
def test_a_resumed_learner_continues_bit_for_bit(settings):
    """N iterations straight, or N/2, state saved through torch.save / weights-only load into a fresh learner
    of another seed (weights, Adam, state), then N/2: the same weights, the same deals in progress, the same
    generators (and the same anchor, though the fresh learner's own first weights differ)."""
    config = BatchedConfig(**{**TINY, "snapshots_kept": 2, **settings})

    def run(learner: SelfPlay, iterations: range) -> SelfPlay:
        for iteration in iterations:
            learner.iterate()
            if iteration % 2 == 0:
                learner.snapshot()
        return learner

    tables = [TableSpec(3), TableSpec(4)]
    straight = run(SelfPlay("toepen", tables, config, seed=5), range(6))
    half = run(SelfPlay("toepen", tables, config, seed=5), range(3))
    resumed = resumed_from(half, SelfPlay("toepen", tables, config, seed=6))
    assert resumed.buffer.size == half.buffer.size > 0  # decisions carried over into the next rollout
    run(resumed, range(3, 6))
    ours, theirs = straight.policy.state_dict(), resumed.policy.state_dict()
    assert all(torch.equal(ours[k], theirs[k]) for k in ours)
    assert np.array_equal(straight.source.obs, resumed.source.obs)
    assert straight.league.rates == resumed.league.rates and straight.rng.random() == resumed.rng.random()


def resumed_from(learner: SelfPlay, fresh: SelfPlay) -> SelfPlay:
    """``fresh`` with ``learner``'s weights, Adam and state, saved through torch.save and loaded weights-only as a
    checkpoint would be."""
    import io

    buffer = io.BytesIO()
    torch.save({"policy": learner.policy.state_dict(), "optimizer": learner.optimizer.state_dict(),
                "trainer": learner.state()}, buffer)
    saved = torch.load(io.BytesIO(buffer.getvalue()), weights_only=True)
    fresh.policy.load_state_dict(saved["policy"])
    fresh.optimizer.load_state_dict(saved["optimizer"])
    fresh.load_state(saved["trainer"])
    return fresh


def test_per_table_reward_norm_gives_tables_that_pay_little_the_same_weight():
    """Two tables, one paying ten times the other: after some deals both reach the learner with the same spread."""
    from training.batched.reward_norm import TableRewardScale

    rng = np.random.default_rng(0)
    table_of_slot, num_players = np.repeat([0, 1], 50), np.repeat([3, 4], 50)
    norm = TableRewardScale(table_of_slot, num_players, max_players=4)
    pays = np.where(table_of_slot == 0, 10.0, 1.0)[:, None]
    seated = np.arange(4)[None, :] < num_players[:, None]
    for _ in range(200):
        rewards = np.where(seated, rng.choice([-1.0, 1.0], size=(100, 4)) * pays, 0.0)
        scaled = norm(rewards, np.ones(100, bool))  # every deal one step long
    assert norm.scale == pytest.approx([10.0, 1.0], rel=1e-6)
    assert np.abs(scaled[seated]) == pytest.approx(np.ones(seated.sum()), rel=1e-6)
    assert not scaled[~seated].any()


def test_reward_norm_is_validated():
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="batched.reward_norm='per_seat': one of none, per_table"):
        load_config(None, ["trainer=batched", "batched.reward_norm=per_seat"])


@pytest.mark.parametrize("forward, forward_dtype", [("gradient", torch.bfloat16), ("float32", torch.float32)])
def test_the_precisions_are_validated_and_reach_every_dense_layer(forward, forward_dtype):
    from training.batched.precision import Linear
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="batched.gradient_precision='fp16': one of auto, float32, bfloat16"):
        load_config(None, ["trainer=batched", "batched.gradient_precision=fp16"])
    with pytest.raises(ConfigError, match="batched.update_forward_precision='bfloat16': one of gradient, float32"):
        load_config(None, ["trainer=batched", "batched.update_forward_precision=bfloat16"])
    config = BatchedConfig(envs_per_table=4, rollout_steps=4, minibatch_size=64, net_arch=[16],
                           gradient_precision="bfloat16", update_forward_precision=forward)
    learner = SelfPlay("toepen", [TableSpec(3)], config, seed=0)
    layers = [m for m in learner.policy.modules() if isinstance(m, Linear)]
    assert len(layers) == 4 and {layer.gradient_dtype for layer in layers} == {torch.bfloat16}
    assert {layer.forward_dtype for layer in layers} == {forward_dtype}
    assert 0 < learner.iterate()["value_loss"] < np.inf  # an update runs with them


@pytest.mark.parametrize("override, message", [
    ("batched.envs_per_table=0", "batched.envs_per_table=0: a whole number >= 1"),
    ("batched.minibatch_size=-5", "batched.minibatch_size=-5: a whole number >= 1"),
    ("batched.epochs=0", "batched.epochs=0: a whole number >= 1"),
    ("batched.scripted_envs_per_table=-1", r"batched.scripted_envs_per_table=-1: a whole number >= 0 \(0: none\)"),
])
def test_sizes_are_validated_before_any_table_is_built(override, message):
    """A size of 0 used to reach the engine and end in a traceback from deep inside it; now the config says
    which key and what it takes."""
    from training.config import ConfigError, load_config

    with pytest.raises(ConfigError, match=message):
        load_config(None, ["trainer=batched", override])
    load_config(None, ["trainer=batched", "batched.scripted_envs_per_table=0"])  # 0 scripted slots: none


def kl_to_start(learner: SelfPlay, start: torch.nn.Module, obs: np.ndarray, mask: np.ndarray) -> float:
    from training.batched.network import masked_log_probs

    with torch.no_grad():
        ours = masked_log_probs(learner.policy.logits(torch.from_numpy(obs)), torch.from_numpy(mask))
        theirs = masked_log_probs(start.logits(torch.from_numpy(obs)), torch.from_numpy(mask))
    return float((ours.exp() * (ours - theirs)).sum(-1).mean())


def test_the_anchor_keeps_the_learner_near_the_policy_it_started_from():
    """batched.anchor_coef: the same run with a strong anchor ends far closer (KL on the first observations)
    to its first policy than without; its KL is reported; the anchor is a frozen copy, not the learner."""
    import copy

    config = dict(TINY, learning_rate=3e-3, epochs=4)
    free = SelfPlay("toepen", [TableSpec(4)], BatchedConfig(**config), seed=3)
    held = SelfPlay("toepen", [TableSpec(4)], BatchedConfig(**config, anchor_coef=20.0), seed=3)
    assert free.anchor is None and held.anchor is not held.policy
    start = copy.deepcopy(held.policy)
    obs, mask = held.source.obs.copy(), held.source.mask.copy()
    for _ in range(4):
        free.iterate()
        metrics = held.iterate()
    assert metrics["anchor_kl"] >= 0
    assert all(torch.equal(a, b) for a, b in zip(held.anchor.state_dict().values(), start.state_dict().values(),
                                                  strict=True))
    assert kl_to_start(held, start, obs, mask) < 0.5 * kl_to_start(free, start, obs, mask)


def test_a_negative_anchor_weight_is_refused():
    with pytest.raises(ValueError, match="anchor_coef"):
        BatchedConfig(anchor_coef=-1.0).validate()


def test_an_anchor_on_some_actions_holds_only_the_decisions_where_they_are_legal():
    """batched.anchor_actions: the KL is summed over the decisions where a listed action is legal (the loss divides
    by how many); the others (and a minibatch without any) add nothing."""
    from training.batched.learner import anchored_actions
    from training.batched.ppo import anchor_kl_sum

    log_probs = torch.log(torch.tensor([[0.5, 0.5], [0.9, 0.1], [0.2, 0.8]]))
    reference = torch.log(torch.tensor([[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]))
    every = anchor_kl_sum(log_probs, reference)
    second = anchor_kl_sum(log_probs, reference, torch.tensor([False, True, False]))
    assert second == anchor_kl_sum(log_probs[1:2], reference[1:2]) > 0 and every > second
    assert anchor_kl_sum(log_probs, reference, torch.zeros(3, dtype=torch.bool)) == 0
    assert anchor_kl_sum(log_probs[:1], reference[:1]) == 0  # the same policy
    space = SelfPlay("toepen", [TableSpec(4)], BatchedConfig(**TINY), seed=0).source.space
    knock = space.labels.index("knock")
    assert anchored_actions(space, ["knock"]).tolist() == [knock] and anchored_actions(space, []) is None
    cards = [space.labels.index(code) for code in space.cards]  # "play": every card's action, once
    assert anchored_actions(space, ["play", "knock", "7h"]).tolist() == [*cards, knock]
    with pytest.raises(ValueError, match="anchor_actions: \\['knok'\\]"):
        anchored_actions(space, ["knok"])
