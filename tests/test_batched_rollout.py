"""The multi-seat rollout buffer: rewards per seat between its decisions, GAE by hand, carried-over decisions."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from training.batched.rollout import RolloutBuffer

pytest.importorskip("numba")

GAMMA, LAMBDA = 0.9, 0.8


def decide(buffer: RolloutBuffer, seat: int, value: float, ident: float, slot: int = 0) -> None:
    """Seat ``seat`` of ``slot`` decides; ``ident`` is written into the observation to find the decision later."""
    buffer.add(np.array([slot]), np.array([seat]), np.full((1, 2), ident, np.float32), np.ones((1, 3), bool),
               np.array([1]), np.array([-0.5], np.float32), np.array([value], np.float32))


def step(buffer: RolloutBuffer, rewards: list[float], done: bool = False) -> None:
    buffer.reward(np.array([rewards], np.float32), np.array([done]))


def test_gae_of_a_hand_made_two_seat_sequence_and_its_carried_over_decisions():
    buffer = RolloutBuffer(capacity=16, num_slots=1, max_players=2, num_actions=3)
    decide(buffer, 0, 0.5, ident=0)
    step(buffer, [0, 0])
    decide(buffer, 1, 0.2, ident=1)
    step(buffer, [1, -1])
    decide(buffer, 0, 0.4, ident=2)  # seat 0's next decision: decision 0 is complete with r = 1
    step(buffer, [0, 2], done=True)  # decision 1: r = -1 + 2, terminal; decision 2: r = 0, terminal
    decide(buffer, 1, 0.3, ident=3)  # a new deal
    step(buffer, [0.5, 0])  # before seat 0's first decision of the deal: goes to that decision
    decide(buffer, 0, 0.1, ident=4)
    step(buffer, [0, 0])
    batch = buffer.take(GAMMA, LAMBDA)
    assert batch.obs.dense(2)[:, 0].tolist() == [0, 1, 2]
    a2, a1 = 0 - 0.4, (-1 + 2) - 0.2
    a0 = (1 + GAMMA * 0.4 - 0.5) + GAMMA * LAMBDA * a2
    assert batch.advantages == pytest.approx([a0, a1, a2], abs=1e-6)
    assert batch.returns == pytest.approx([a0 + 0.5, a1 + 0.2, a2 + 0.4], abs=1e-6)
    # decisions 3 and 4 were still pending: carried over to the front, completed by the next rollout
    assert buffer.size == 2 and sorted(buffer.observations(slice(0, 2)).dense(2)[:, 0].tolist()) == [3, 4]
    decide(buffer, 1, 0.6, ident=5)
    step(buffer, [1, 1], done=True)
    batch = buffer.take(GAMMA, LAMBDA)
    assert batch.obs.dense(2)[:, 0].tolist() == [3, 4, 5]
    a5 = 1 - 0.6
    assert batch.advantages == pytest.approx([0 + GAMMA * 0.6 - 0.3 + GAMMA * LAMBDA * a5, 0.5 + 1 - 0.1, a5],
                                             abs=1e-6)
    assert batch.log_probs.tolist() == [-0.5] * 3 and buffer.size == 0


def test_a_decision_whose_next_is_pending_is_bootstrapped_with_its_value():
    buffer = RolloutBuffer(capacity=4, num_slots=1, max_players=2, num_actions=3)
    decide(buffer, 0, 0.5, ident=0)
    step(buffer, [1, 0])
    decide(buffer, 0, 0.7, ident=1)
    step(buffer, [0, 0])
    batch = buffer.take(GAMMA, LAMBDA)
    assert batch.obs.dense(2)[:, 0].tolist() == [0] and batch.advantages == pytest.approx([1 + GAMMA * 0.7 - 0.5])
    assert buffer.size == 1 and buffer.pending[0, 0] == 0 and buffer.observations(slice(0, 1)).dense(2)[0, 0] == 1


def test_a_full_buffer_refuses_more_decisions():
    buffer = RolloutBuffer(capacity=1, num_slots=1, max_players=2, num_actions=3)
    decide(buffer, 0, 0.5, ident=0)
    with pytest.raises(RuntimeError, match="full"):
        decide(buffer, 1, 0.5, ident=1)


def test_learner_rewards_per_seat_sum_to_the_seats_deal_score():
    """Every seat of 16 Toepen deals is a learner seat playing at random: for each finished deal, the rewards of a
    seat's decisions add up to the seat's score in that deal, across three rollouts (decisions carried over)."""
    from training.batched.sources import VectorTables
    from training.batched.tables import TableSpec

    source = VectorTables("toepen", [TableSpec(4)], deals=[16])
    source.reset(seed=5)
    slots, n = source.num_slots, source.max_players
    buffer = RolloutBuffer(slots * (n + 60), slots, n, source.mask.shape[1])
    rng = np.random.default_rng(0)
    deal_of, every = np.zeros(slots, np.int64), np.arange(slots)
    score, found, owner = defaultdict(float), defaultdict(float), []  # owner[decision id] = (slot, seat, deal)
    for _ in range(3):
        for _ in range(60):
            actions = (rng.random(source.mask.shape) + source.mask).argmax(1)
            ids = np.broadcast_to(np.arange(len(owner), len(owner) + slots, dtype=np.float32)[:, None],
                                  (slots, source.obs.shape[1])).copy()
            owner += list(zip(every.tolist(), source.to_act.tolist(), deal_of.tolist(), strict=True))
            buffer.add(every, source.to_act.copy(), ids, source.mask, actions, np.zeros(slots, np.float32),
                       np.zeros(slots, np.float32))
            source.step(actions)
            buffer.reward(source.rewards, source.done)
            for slot, seat in zip(*np.nonzero(source.rewards), strict=True):
                score[slot, seat, deal_of[slot]] += float(source.rewards[slot, seat])
            deal_of += source.done
        complete = buffer.complete()
        for ident, reward in zip(buffer.obs_value[:buffer.size, 0][complete], buffer.rewards[:buffer.size][complete],
                                 strict=True):
            found[owner[int(ident)]] += float(reward)
        buffer.take(1.0, 1.0)
    finished = [key for key in found if key[2] < deal_of[key[0]]]
    assert len(finished) > 100
    assert all(found[key] == pytest.approx(score[key], abs=1e-5) for key in finished)
    assert any(score[key] != 0 for key in finished)


@pytest.mark.parametrize("carry", [True, False])
def test_thedinghausen_self_play_starts_inside_a_race_only_with_thedinghausen_carry(carry):
    """``batched.thedinghausen_carry``: the batched Thedinghausen deals start from a drawn race (tricks toward the
    prize, the pot holding everyone's ante, nobody paying) or at a race's start (everyone antes, no tricks)."""
    from training.batched.sources import VectorTables
    from training.batched.tables import TableSpec

    source = VectorTables("fipsen", [TableSpec(5, "thedinghausen"), TableSpec(4)], deals=[64, 64],
                          thedinghausen_carry=carry)
    source.reset(seed=3)
    deals = source.envs[0].deals
    assert bool(deals["race"].any(axis=1).mean() > 0.9) == carry
    assert (deals["bankrolls"][:, :5] == deals["session_start"][:, :5] - (not carry)).all()
    assert not source.envs[1].deals["race"].any()  # the other variants carry nothing


def test_observations_are_kept_as_entries_and_come_back_exact():
    """The buffer keeps each observation's non-zero entries: rows of any width come back as added (the buffer
    widens for a wider row, the batch is as wide as its widest row), and a row written where a wider one was
    keeps nothing of it; the state round-trips them."""
    from training.batched.sparse import sparse_rows

    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    obs = rng.random((6, 9)).astype(np.float32)
    obs[rng.random((6, 9)) > 0.6] = 0
    obs[:, 5:] = 0  # rows of at most 5 entries
    obs[0], obs[3] = 0, 0  # empty rows
    obs[1, :7] = 1  # the widest row, added after narrower ones
    buffer = RolloutBuffer(capacity=8, num_slots=6, max_players=1, num_actions=3)
    for rows in ([0, 2], [1, 3], [4, 5]):
        slots = np.array(rows)
        buffer.add(slots, np.zeros(2, np.int64), sparse_rows(torch.from_numpy(obs[slots])), np.ones((2, 3), bool),
                   np.zeros(2, np.int64), np.zeros(2, np.float32), np.zeros(2, np.float32))
    assert buffer.obs_index.shape[1] == 7
    order = [0, 2, 1, 3, 4, 5]
    assert np.array_equal(buffer.observations(slice(0, 6)).dense(9).numpy(), obs[order])
    buffer.reward(np.zeros((6, 1), np.float32), np.array([True, True, True, False, False, False]))  # 0, 1, 2 end
    batch = buffer.take(GAMMA, LAMBDA)
    assert batch.obs.index.shape[1] == 7 and np.array_equal(batch.obs.dense(9).numpy(), obs[[0, 2, 1]])
    state = buffer.state()
    assert np.array_equal(buffer.observations(slice(0, 3)).dense(9).numpy(), obs[[3, 4, 5]])  # carried over
    narrow = np.zeros((1, 9), np.float32)
    narrow[0, 8] = 2.0
    buffer.add(np.array([0]), np.zeros(1, np.int64), narrow, np.ones((1, 3), bool), np.zeros(1, np.int64),
               np.zeros(1, np.float32), np.zeros(1, np.float32))  # a dense row is converted
    assert np.array_equal(buffer.observations(slice(3, 4)).dense(9).numpy(), narrow)  # row 3 held a wider one
    other = RolloutBuffer(capacity=8, num_slots=6, max_players=1, num_actions=3)
    other.load_state(state)
    assert np.array_equal(other.observations(slice(0, 3)).dense(9).numpy(), obs[[3, 4, 5]])
