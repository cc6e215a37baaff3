"""The batched Fipsen engine (rams_env.vector.fipsen) against the reference engine, and its API.

As tests/test_vector_toepen.py: the cross-check plays the same deals with the same random
actions in both engines and compares, before every step, the observation, the mask, the seat
to act, the dealer and the score sheet of every slot, and after it the rewards, the episode
ends and the settlement (reason, declarer, points, contract). Deals the reference starts (a
new episode, the session's next deal, a redeal after all passed) are queued into the batched
slot before the step that starts them there. ``RAMS_VECTOR_DEALS`` deals per variant (default
300, CI 2000); the slow tier runs when ``RAMS_VECTOR_SLOW_DEALS`` is set:
``RAMS_VECTOR_SLOW_DEALS=100000 pytest -m slow tests/test_vector_fipsen.py``.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("numba")

import rams_env  # noqa: E402
import rams_env.vector as vector  # noqa: E402
from rams_env.games.fipsen.contracts import Talon  # noqa: E402
from rams_env.games.fipsen.rules import Auction  # noqa: E402
from rams_env.vector.fipsen import SUPPORTED  # noqa: E402
from rams_env.vector.fipsen.state import REASONS  # noqa: E402
from tests import tiers  # noqa: E402

DEALS = int(os.environ.get("RAMS_VECTOR_DEALS", "300"))
SLOW_DEALS = int(os.environ.get("RAMS_VECTOR_SLOW_DEALS", "0"))
VARIANTS = [v.value for v in SUPPORTED]
STYLES = ("uniform", "passing", "low", "always_pass")
"""How a slot's random player bids: uniformly (high contracts, mostly lost), passing often (all-pass
redeals), the lowest bid or a pass (contracts made: play on, stop, Durch; a bid that needs a
holding, Kieker or Ruten, whenever the hand allows it), always passing (slot 0 only: redeals until
the deal ends unplayed). Every way a deal ends is then reached in a few hundred deals."""
PASS_BIAS = 0.5
"""How often the "passing" and "low" styles pass where they may."""
COVERAGE_DEALS = 300
"""From this many deals the cross-check must have met every way a deal ends (and a redeal)."""


# ------------------------------------------------------------------- cross-check
def deal_order(game, state) -> np.ndarray:
    """The pack permutation the reference dealt: hands seat by seat, the turned card, the skat, the talon."""
    turned = [] if state.turned is None else [state.turned]
    cards = [c for hand in state.hands for c in hand] + turned + list(state.skat) + list(state.aside)
    return np.array([game.pack().index[c] for c in cards], np.int64)


def crosscheck(variant: str, deals: int, *, episode: str = "deal", num_envs: int = 16,
               seed: int = 0) -> dict[str, int]:
    """Play ``deals`` deals in both engines, comparing every step; returns what was compared."""
    env = vector.make("fipsen", num_envs=num_envs, variant=variant, episode=episode)
    game = rams_env.make_game("fipsen", variant=variant, session=episode == "session")
    rngs = [np.random.default_rng([seed, b]) for b in range(num_envs)]
    states = [game.new_state(rngs[b]) for b in range(num_envs)]
    for b, state in enumerate(states):
        env.queue_deals([b], deal_order(game, state), [state.dealer])
    env.reset(seed=seed)
    chooser = np.random.default_rng([seed, 99])
    styles = np.arange(num_envs) % (len(STYLES) - 1)
    styles[0] = STYLES.index("always_pass")  # all-pass redeals until the deal ends unplayed
    counts = {"decisions": 0, "deals": 0, "episodes": 0, "redeals": 0, **dict.fromkeys(REASONS, 0)}
    while counts["deals"] < deals:
        actions = np.empty(num_envs, np.int64)
        for b, state in enumerate(states):
            _compare_position(env, game, state, b)
            actions[b] = _choose(game.legal_actions(state), game, STYLES[styles[b]], chooser)
        expected = np.zeros((num_envs, game.num_players), np.float32)
        ended = np.zeros(num_envs, bool)
        settled = {}
        for b in range(num_envs):
            states[b], expected[b], ended[b], settled[b], redealt = _reference_step(game, states[b], int(actions[b]),
                                                                                    rngs[b], env, b)
            counts["redeals"] += redealt
        env.step(actions)
        assert np.array_equal(env.rewards, expected), "rewards differ"
        assert np.array_equal(env.done, ended), f"episode ends differ in deals {np.flatnonzero(env.done != ended)}"
        for b, breakdown in settled.items():
            _compare_settlement(game, env.deals[b], breakdown, b)
            if breakdown is not None:
                counts["deals"] += 1
                counts[breakdown["reason"]] += 1
        counts["decisions"] += num_envs
        counts["episodes"] += int(ended.sum())
    return counts


def _reasons(variant: str) -> list[str]:
    """The ways a deal of ``variant`` can end (the reference's breakdown reasons); "redeals" for all-pass redeals."""
    spec = rams_env.make_game("fipsen", variant=variant).spec
    reasons = ["played"]
    if spec.play_on:
        reasons += ["failed", "stopped"]
    if any(c.talon is Talon.KIEKER_ALL for c in spec.ladder):
        reasons.append("kieker_conceded")
    if spec.auction in (Auction.OPEN, Auction.HOLD):
        reasons += ["all_passed", "redeals"]
    return reasons


def _choose(legal: list[int], game, style: str, chooser: np.random.Generator) -> int:
    """A random legal action in the slot's bidding ``style`` (see STYLES); uniform outside the auction."""
    pass_id = game.ids["pass"]
    if pass_id not in legal or style == "uniform":
        return legal[chooser.integers(len(legal))]
    if style == "always_pass" or chooser.random() < PASS_BIAS:
        return pass_id
    bids = [a for a in legal if game.actions.segment(a)[0] == "bid"]
    if style != "low" or not bids:
        return legal[chooser.integers(len(legal))]
    special = [a for a in bids if game.ladder[a - game.actions.start["bid"]].needs]
    return max(special) if special else min(bids)


def _reference_step(game, state, action, rng, env, b):
    """One reference move; a deal it starts (episode, session's next deal, redeal) is queued into slot ``b``."""
    before, played, redeals = list(state.scores), state.deals_played, state.redeals
    game.apply(state, action)
    reward = np.array(state.scores, np.float32) - np.array(before, np.float32)
    breakdown = state.deal_breakdowns[-1] if state.deals_played > played else None
    if state.terminal:
        state = game.new_state(rng)
        env.queue_deals([b], deal_order(game, state), [state.dealer])
        return state, reward, True, breakdown, False
    redealt = breakdown is None and state.redeals > redeals
    if breakdown is not None or redealt:
        env.queue_deals([b], deal_order(game, state))
    return state, reward, False, breakdown, redealt


def _compare_settlement(game, record, breakdown, b) -> None:
    """The batched record's last settlement against the reference's breakdown."""
    assert bool(record["settled"]) == (breakdown is not None), f"deal {b}: settled differs"
    if breakdown is None:
        return
    assert REASONS[record["reason"]] == breakdown["reason"], f"deal {b}: reason {REASONS[record['reason']]}"
    if "declarer" in breakdown:
        got = (int(record["result_declarer"]), int(record["result_points"]),
               game.ladder[record["result_contract"]].label)
        assert got == (breakdown["declarer"], breakdown["points"], breakdown["contract"]), f"deal {b}: {got}"


def _compare_position(env, game, state, b) -> None:
    seat, n = state.to_act, game.num_players
    expected = game.observation.zeros()
    game.encode(state, seat, expected)
    record = env.deals[b]
    assert env.to_act[b] == seat, f"deal {b}: to act {env.to_act[b]} != {seat}"
    if not np.array_equal(env.obs[b], expected):
        diff = [name for name, s in game.observation.slices.items() if not np.array_equal(env.obs[b][s], expected[s])]
        raise AssertionError(f"deal {b}: observation differs in {diff} (phase {state.phase})")
    legal = np.flatnonzero(env.mask[b]).tolist()
    assert legal == game.legal_actions(state), f"deal {b}: legal {legal} != {game.legal_actions(state)}"
    assert record["sheet"][:n].tolist() == state.sheet, f"deal {b}: sheets differ"
    assert record["dealer"] == state.dealer, f"deal {b}: dealer differs"


@tiers.parametrize("variant", VARIANTS, tiers.reference_preset("fipsen"))
def test_same_as_reference_deal_by_deal(variant):
    counts = crosscheck(variant, DEALS, seed=1)
    assert counts["deals"] >= DEALS and counts["episodes"] == counts["deals"]
    if DEALS >= COVERAGE_DEALS:  # every way a deal ends (in this variant) was compared
        assert all(counts[reason] for reason in _reasons(variant)), counts


@tiers.parametrize("variant", VARIANTS, tiers.reference_preset("fipsen"))
def test_same_as_reference_in_sessions(variant):
    counts = crosscheck(variant, DEALS // 2, episode="session", seed=7)
    assert counts["episodes"] < counts["deals"]  # sessions of several deals were played through


def replay(variant: str, hands: list[str], stock: str, dealer: int, labels: list[str]) -> tuple[list, np.ndarray]:
    """One fixed deal played by both engines with the actions ``labels``, compared on every step;
    returns the reference's breakdowns and the batched rewards summed over the deal."""
    game = rams_env.make_game("fipsen", variant=variant)
    state = game.new_state(np.random.default_rng(0), {"deal": {"hands": [h.split() for h in hands],
                                                               "stock": stock.split()}, "dealer": dealer})
    env = vector.make("fipsen", num_envs=1, variant=variant)
    env.queue_deals([0], deal_order(game, state), [dealer])
    env.reset(seed=0)
    total = np.zeros(game.num_players, np.float32)
    for label in labels:
        _compare_position(env, game, state, 0)
        action = game.actions.parse(label)
        before = np.array(state.scores, np.float32)
        game.apply(state, action)
        env.step(np.array([action]))
        assert np.array_equal(env.rewards[0], np.array(state.scores, np.float32) - before)
        total += env.rewards[0]
    assert state.terminal and env.done[0]
    _compare_settlement(game, env.deals[0], state.deal_breakdowns[-1], 0)
    return state.deal_breakdowns, total


def test_a_siebener_fips_wins_thirty_without_play():
    hands = ["7c 7s 7h 7d Ac", "8c 9c 10c Jc Qc", "8s 9s 10s Js Qs", "8h 9h 10h Jh Qh"]
    breakdowns, total = replay("prisdorf", hands, "Kc Ks Kh As Ah", 3, ["bid siebener"])
    assert breakdowns[-1]["reason"] == "siebener_fips" and total.tolist() == [30, 0, 0, 0]


@pytest.mark.slow
@pytest.mark.skipif(not SLOW_DEALS, reason="set RAMS_VECTOR_SLOW_DEALS (e.g. 100000) for the slow tier")
@pytest.mark.parametrize("variant", VARIANTS)
def test_same_as_reference_slow_tier(variant):
    counts = crosscheck(variant, SLOW_DEALS, num_envs=256, seed=100)
    assert counts["deals"] >= SLOW_DEALS


# ------------------------------------------------------------ hidden information
def _cards(mask) -> list[int]:
    return [i for i in range(64) if int(mask) >> i & 1]


def _shuffle_unseen(env, b: int, seat: int, rng: np.random.Generator) -> None:
    """Re-deal, in deal ``b``'s record, the cards ``seat`` cannot see: other hands and discards, skat, talon."""
    n = env.num_players
    places = [("hands", s) for s in range(n) if s != seat] + [("face_down", s) for s in range(n) if s != seat]
    places += [("skat", None), ("aside", None)]
    held = [_cards(env.deals[f][b] if s is None else env.deals[f][b, s]) for f, s in places]
    pool = rng.permutation([c for group in held for c in group]).tolist()
    for (f, s), group in zip(places, held, strict=True):
        mask = sum(1 << c for c in pool[:len(group)])
        pool = pool[len(group):]
        if s is None:
            env.deals[f][b] = mask
        else:
            env.deals[f][b, s] = mask


@tiers.parametrize("variant", VARIANTS, tiers.reference_preset("fipsen"))
def test_hidden_cards_never_reach_an_observation(variant):
    env = vector.make("fipsen", num_envs=64, variant=variant)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    changed_own = 0
    for step in range(80):
        for seat in range(env.num_players):
            before = env.observe(seat)
            saved = env.deals.copy()
            for b in range(env.num_envs):
                _shuffle_unseen(env, b, seat, rng)
            assert np.array_equal(env.observe(seat), before), f"seat {seat} sees hidden cards (step {step})"
            env.deals["hands"][:, seat] = saved["hands"][:, (seat + 1) % env.num_players]  # the control
            changed_own += int((env.observe(seat) != before).any(axis=1).sum())
            env.deals[:] = saved
        env.step(env.sample_actions())
    assert changed_own > 0, "the control (another hand in the seat's place) must change observations"


# ------------------------------------------------------------------ the API
def test_observations_and_actions_are_the_aec_envs():
    env = vector.make("fipsen", num_envs=4)
    aec = rams_env.make("fipsen")
    assert env.obs_size == aec.observation_space("player_0")["observation"].shape[0]
    assert env.num_actions == aec.action_space("player_0").n
    assert [env.action_label(a) for a in range(env.num_actions)] == list(aec.unwrapped.game.actions.labels)


def _stepped(**options):
    env = vector.make("fipsen", num_envs=16, **options)
    env.reset(seed=11)
    for _ in range(5):
        env.step_random()
    return env


def test_masked_out_and_out_of_range_actions_are_refused_naming_the_deals():
    env = _stepped()
    actions = env.sample_actions()
    illegal = int(np.flatnonzero(env.mask[3] == 0)[0])
    actions[3], actions[9] = illegal, env.num_actions
    saved, obs = env.deals.copy(), env.obs.copy()
    with pytest.raises(vector.IllegalActionsError) as err:
        env.step(actions)
    text = str(err.value)
    assert "2 of 16 deals (deals 3, 9)" in text and "deal 3: player_" in text
    assert f"action {illegal} ({env.action_label(illegal)}) is not legal now" in text
    assert f"deal 9: player_{env.to_act[9]} action {env.num_actions} out of range 0..{env.num_actions - 1}" in text
    assert np.array_equal(env.deals, saved) and np.array_equal(env.obs, obs)


@pytest.mark.parametrize("bad", [np.zeros(16, np.float32), np.zeros(16, bool), [0] * 16, np.zeros((16, 1), int),
                                 np.zeros(15, int)])
def test_wrong_shapes_and_dtypes_are_refused(bad):
    env = _stepped()
    saved = env.deals.copy()
    with pytest.raises((TypeError, ValueError)):
        env.step(bad)
    assert np.array_equal(env.deals, saved)


def test_penalty_ends_only_the_offending_deals():
    env = _stepped(illegal_action="penalty", illegal_reward=-3.0)
    twin = _stepped()
    actions = env.sample_actions()
    assert np.array_equal(actions, twin.sample_actions())
    offender = int(env.to_act[5])
    actions[5] = int(np.flatnonzero(env.mask[5] == 0)[0])
    _, _, _, rewards, done = env.step(actions)
    expected = np.zeros(env.num_players, np.float32)
    expected[offender] = -3.0
    assert done[5] and np.array_equal(rewards[5], expected)
    twin_actions = actions.copy()
    twin_actions[5] = int(np.flatnonzero(twin.mask[5])[0])
    twin.step(twin_actions)
    others = np.arange(16) != 5
    assert np.array_equal(env.obs[others], twin.obs[others])


def test_thedinghausen_random_carry_is_refused_until_cross_checked():
    with pytest.raises(ValueError, match="random_carry"):
        vector.make("fipsen", variant="thedinghausen", random_carry=True)


def test_bad_rules_are_the_references_errors():
    with pytest.raises(ValueError, match="session_deals"):
        vector.make("fipsen", session_deals=0)
    with pytest.raises(ValueError, match="players"):
        vector.make("fipsen", num_players=3)


def test_queued_deals_replay_the_same_cards():
    env = vector.make("fipsen", num_envs=3)
    env.queue_deals([0, 2], np.tile(np.arange(32)[::-1], (2, 1)), dealers=[1, 1])  # a duplicate deal
    obs, _, to_act = env.reset(seed=0)
    assert np.array_equal(obs[0], obs[2]) and not np.array_equal(obs[0], obs[1])
    assert to_act[0] == 2 and env.deals["hands"][0, 0] == sum(1 << c for c in (31, 30, 29, 28, 27))
    assert env.deals["skat"][0] == sum(1 << c for c in (11, 10))
