"""The bluff instrument (training/bluff): estimator, recorder, metrics, validation on known personalities.

The estimator is checked against exact enumeration and a hand count; the recorder's rates are
checked against the Toepen personalities whose behaviour is fixed by their parameters
(agents/heuristics/toepen.py): the comparison uses the heuristic's own yardstick
(``hand_strength`` < ``weak_threshold``), which is what ``bluff_rate`` is defined on.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import rams_env
from agents.heuristics.toepen import ToepenHeuristic
from agents.registry import AgentSpecError
from cli.bluff import main
from evaluation.bluff.metrics import Thresholds, agent_metrics, knock_metrics
from evaluation.bluff.position import position, public_voids, unseen_pool
from evaluation.bluff.record import Decision, Recorder, record_deals
from evaluation.bluff.runner import Study, expand_specs, run_study
from evaluation.bluff.winchance import WinChance, wilson
from rams_env.core.cards import cards, suit_of
from rams_env.games.toepen.state import Phase, Signal

PLAIN = {"dirty_hands": False, "announcements": False}


def random_states(game, deals: int, seed: int, keep):
    """(state clone, seat to act) at every decision of random deals where ``keep(state)`` holds."""
    rng = np.random.default_rng(seed)
    for d in range(deals):
        state = game.new_state(np.random.default_rng([seed, d]))
        while not state.terminal:
            if state.in_play(state.to_act) and keep(state):
                yield state.clone(), state.to_act
            game.apply(state, int(rng.choice(game.legal_actions(state))))


def scripted(hands: list[str], dealer: int, moves: list[str], **rules):
    """A Toepen game and state dealt ``hands``, after the action labels ``moves`` (in turn order)."""
    game = rams_env.make_game("toepen", len(hands), **rules)
    state = game.new_state(np.random.default_rng(0), {"deal": {"hands": [h.split() for h in hands]},
                                                      "dealer": dealer})
    for label in moves:
        game.apply(state, game.actions.parse(label))
    return game, state


# ------------------------------------------------------------------ what the decider knows
def test_unseen_pool_is_exactly_what_shuffle_unseen_redeals():
    game = rams_env.make_game("toepen", 4)
    rng = np.random.default_rng(1)
    checked = 0
    for state, seat in random_states(game, 25, 3, lambda s: True):
        clone = game.shuffle_unseen(state, seat, rng)
        assert game.view(clone, seat) == game.view(state, seat)
        assert sorted(unseen_pool(clone, seat)) == unseen_pool(state, seat)
        assert clone.played == state.played and clone.revealed == state.revealed
        checked += 1
    assert checked > 300


def test_voids_replayed_from_history_match_the_trick_and_the_hands():
    game = rams_env.make_game("toepen", 4)
    voids_seen = 0
    for state, _ in random_states(game, 30, 5, lambda s: s.phase is Phase.PLAY):
        voids, trick = public_voids(game, state)
        assert trick == state.trick
        for seat, suits in enumerate(voids):
            assert not any(suit_of(c) in suits for c in state.hands[seat])  # a void is a fact
            voids_seen += len(suits)
    assert voids_seen > 50


def test_announcements_constrain_worlds_and_the_true_world_fits():
    hands = ["7h 8h 9s Ac", "10c 10s 10d 7c", "Kh Qh Ks Qs", "Jh 8c 9c Ad"]
    game, state = scripted(hands, 3, ["silent"] * 4, dirty_hands=False)  # everyone asked about jacks
    assert state.signals[1] is Signal.WHISTLE and state.phase is Phase.PLAY
    pos = position(game, state, 0)
    assert all(pos.consistent(s, state.hands[s]) for s in pos.opponents)
    assert not pos.consistent(1, cards("10c 10s 7c 8c")) and not pos.consistent(2, cards("10h 10c 10s 9h"))
    wc = WinChance(game, samples=64)
    worlds, relaxed = wc._sample_worlds(pos, np.random.default_rng(0), 64)
    assert not relaxed and len(worlds) == 64
    for world in worlds:  # every ten and jack is unseen by seat 0: the whistle means three of either
        tens = sum(c in cards("10c 10s 10d 10h") for c in world[1])
        jacks = sum(c in cards("Jc Js Jd Jh") for c in world[1])
        assert tens == 3 or (tens < 3 and jacks == 3)
        dealt = [c for s in pos.opponents for c in world[s]]
        assert len(set(dealt)) == len(dealt) == 12 and set(dealt) <= set(pos.pool)


# ------------------------------------------------------------------ the estimator
def test_last_trick_exact_chance_is_the_hand_count():
    # 3 players; after three tricks the decider (seat 0) leads her last card 7h to the last trick.
    hands = ["10c 9c 8c 7h", "Ac Kc Qc 9s", "Jc 7d 8d Jd"]
    game, state = scripted(hands, 2, ["10c", "Ac", "Jc", "9c", "Kc", "7d", "8c", "Qc", "8d"], **PLAIN)
    assert state.tricks_played == 3 and state.to_act == 0
    pos = position(game, state, 0)
    # 32 cards - her 4 - the others' 6 played = 22 unseen; seat 2 showed void in clubs (suit 0).
    assert len(pos.pool) == 22 and pos.voids[2] == {0}
    est = WinChance(game).exact(pos)
    higher = len([c for c in pos.pool if c in cards("8h 9h 10h")])  # hearts above 7h, all unseen
    assert higher == 3
    # Seat 1 may hold any unseen card, seat 2 any but a club (7c is the only unseen club).
    worlds = [(a, b) for a in pos.pool for b in pos.pool if a != b and suit_of(b) != 0]
    wins = [(a, b) for a, b in worlds if a not in cards("8h 9h 10h") and b not in cards("8h 9h 10h")]
    assert est.exact and est.samples == len(worlds)
    assert est.p == pytest.approx(len(wins) / len(worlds))
    fast = WinChance(game).estimate_position(pos, np.random.default_rng(0))  # the vectorised last trick
    assert fast.exact and fast.samples == len(worlds) and fast.p == pytest.approx(est.p)


@pytest.mark.parametrize("players", [3, 5])
def test_vectorised_last_trick_equals_enumeration(players):
    game = rams_env.make_game("toepen", players)
    wc = WinChance(game, exact_limit=10**6)
    compared = 0
    for state, seat in random_states(game, 30, 4, lambda s: s.tricks_played == 3):
        pos = position(game, state, seat)
        fast, slow = wc.last_trick(pos), wc.exact(pos)
        assert (fast.samples, fast.exact) == (slow.samples, True) and fast.p == pytest.approx(slow.p)
        compared += 1
    assert compared > 30


@pytest.mark.parametrize("players, policy, tricks, most, rules", [
    (3, "low", 2, 20_000, PLAIN), (3, "random", 2, 3000, PLAIN),
    (4, "low", 3, 5000, {}),  # dirty hands and announcements too
    (4, "low", 3, 5000, {"preset": "laaier"}),  # a folded player cannot win the trick
])
def test_sampling_matches_exact_enumeration_within_its_error(players, policy, tricks, most, rules):
    game = rams_env.make_game("toepen", players, **rules)
    wc = WinChance(game, samples=400, exact_limit=10**6, policy=policy)
    rng = np.random.default_rng(7)
    compared = 0
    for state, seat in random_states(game, 40, 9, lambda s: s.tricks_played >= tricks):
        pos = position(game, state, seat)
        if wc.world_count(pos) > most or compared >= 10:
            continue
        exact = wc.exact(pos)
        sampled = wc.sampled(pos, rng, 400)
        sd = math.sqrt(exact.p * (1 - exact.p) / 400)
        assert abs(sampled.p - exact.p) <= 3.3 * sd + 1e-12, (exact, sampled)  # 99.9% band
        compared += 1
    assert compared == 10


@pytest.mark.parametrize("players", [3, 4])
def test_estimate_is_calibrated_where_nothing_is_revealed_yet(players):
    """At a deal's first lead the unseen cards are uniform: mean estimate = mean hindsight outcome."""
    game = rams_env.make_game("toepen", players, **PLAIN)
    wc = WinChance(game, samples=16)
    rng = np.random.default_rng(3)
    gaps = []
    for d in range(1200):  # standard error of the mean gap about 0.012
        state = game.new_state(np.random.default_rng([21, d]))
        pos = position(game, state, state.to_act)
        gaps.append(wc.hindsight(pos, rng) - wc.estimate_position(pos, rng).p)
    se = np.std(gaps) / math.sqrt(len(gaps))
    assert abs(np.mean(gaps)) <= 3.3 * se


def test_estimate_uses_only_the_deciders_information():
    game = rams_env.make_game("toepen", 4)
    wc = WinChance(game, samples=16)
    for state, seat in list(random_states(game, 4, 2, lambda s: s.phase is Phase.PLAY))[:20]:
        other = game.shuffle_unseen(state, seat, np.random.default_rng(99))
        a = wc.estimate(state, seat, np.random.default_rng(5))
        b = wc.estimate(other, seat, np.random.default_rng(5))
        assert a == b  # the hidden cards moved, the estimate did not


def test_bad_estimator_settings_are_named():
    game = rams_env.make_game("toepen", 4)
    with pytest.raises(ValueError, match="samples"):
        WinChance(game, samples=0)
    with pytest.raises(ValueError, match="policy"):
        WinChance(game, policy="best")
    with pytest.raises(ValueError, match="Toepen"):
        WinChance(rams_env.make_game("tippen", 4))


def test_wilson_interval_known_values():
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)


# ------------------------------------------------------------------ metrics on known records
def test_metrics_count_bluffs_values_and_folds_exactly():
    def d(kind, p, **kw):
        return Decision(agent="a", deal=0, seat=0, kind=kind, p=p, se=0.0, exact=True, hindsight=0.0, trick=4,
                        knock=1, stake=2, lives_left=10, **kw)

    rows = [d("knock", 0.1, all_folded=True, others_lost_after=3), d("knock", 0.9, lost_after=0),
            d("check", 0.1), d("check", 0.2), d("check", 0.6), d("fold", 0.1), d("stay", 0.8, lost_after=0)]
    m = agent_metrics(rows, Thresholds())
    k = m["knocks"]
    assert (k["knock_rate"]["k"], k["knock_rate"]["n"]) == (2, 5)
    assert (k["bluff_rate"]["k"], k["bluff_rate"]["n"]) == (1, 3)
    assert (k["value_knock_rate"]["k"], k["value_knock_rate"]["n"]) == (1, 2)
    assert k["bluff_success"]["rate"] == 1.0 and k["bluff_ev"]["mean"] == pytest.approx(1.0)
    f = m["folds"]
    assert f["fold_rate"]["rate"] == 0.5 and f["fold_right"]["rate"] == 1.0 and f["stay_right"]["rate"] == 1.0


# ------------------------------------------------------------------ validation on the personalities
def records(spec: str, deals: int, seed: int = 11) -> list[Decision]:
    game = rams_env.make_game("toepen", 4)
    return record_deals(game, spec, "heuristic", range(deals), WinChance(game, samples=4, exact_limit=0), seed)


def within_99(r: dict, value: float) -> bool:
    lo, hi = wilson(r["k"], r["n"], z=2.576)
    return lo <= value <= hi


def params(style: str, **overrides):
    """The personality's parameters as the heuristic itself reads them."""
    return ToepenHeuristic.params_type(**{**ToepenHeuristic.STYLES[style], **overrides})


@pytest.mark.parametrize("overrides", [{}, {"bluff_rate": 0.2}])
def test_bluffer_knocks_weak_hands_at_its_configured_rate(overrides):
    spec = "heuristic:bluffer" + "".join(f",{k}={v}" for k, v in overrides.items())
    configured = params("bluffer", **overrides)
    assert configured.bluff_rate > 0 and configured.false_dirty_rate > 0
    # Like with like: the rate is defined on the heuristic's own estimate below its own weak threshold.
    m = agent_metrics(records(spec, 300), Thresholds(weak_below=configured.weak_threshold))
    assert m["knocks"]["self_bluff_rate"]["n"] > 150
    assert within_99(m["knocks"]["self_bluff_rate"], configured.bluff_rate)
    assert within_99(m["dirty"]["self_false_claim_rate"], configured.false_dirty_rate)
    assert m["knocks"]["bluff_rate"]["rate"] > 0.1  # the estimator's yardstick sees the bluffs too


def test_honest_never_bluffs_and_its_estimated_bluff_rate_is_near_zero():
    assert params("honest").bluff_rate == 0.0
    m = agent_metrics(records("heuristic:honest", 200), Thresholds(weak_below=params("honest").weak_threshold))
    assert m["knocks"]["self_bluff_rate"]["k"] == 0 and m["knocks"]["self_bluff_rate"]["n"] > 100
    # The estimator's yardstick differs from the heuristic's near the thresholds: near zero, not zero.
    assert m["knocks"]["bluff_rate"]["rate"] < 0.05
    assert m["dirty"]["false_claim_rate"]["k"] == 0


def test_cautious_never_knocks_and_folds_to_every_knock():
    m = agent_metrics(records("heuristic:cautious", 100), Thresholds())
    assert m["knocks"]["opportunities"] > 100 and m["knocks"]["knock_rate"]["k"] == 0
    assert m["folds"]["responses"] > 50 and m["folds"]["fold_rate"]["rate"] == 1.0


def test_caller_never_folds():
    m = agent_metrics(records("heuristic:caller", 100), Thresholds())
    assert m["folds"]["responses"] > 50 and m["folds"]["fold_rate"]["k"] == 0


def test_knock_outcomes_are_consistent_with_the_deal():
    rows = records("random", 60, seed=4)
    knocks = [r for r in rows if r.kind == "knock"]
    assert knocks and all(not (r.all_folded and r.lost_after) for r in knocks)  # a knock all fold to costs nothing
    assert all(r.won_last <= (r.lost_after == 0) for r in rows if r.kind in ("knock", "check"))
    assert knock_metrics(rows, Thresholds())["opportunities"] == sum(r.kind in ("knock", "check") for r in rows)


# ------------------------------------------------------------------ the study and the command
def test_workers_do_not_change_the_records():
    study = Study(("random",), deals=6, samples=4, exact_limit=50)
    one = run_study(study, workers=1, progress=False).records["random"]
    two = run_study(study, workers=2, progress=False).records["random"]
    assert [r.as_dict() for r in one] == [r.as_dict() for r in two] and one


def test_checkpoint_globs_expand_in_step_order(tmp_path):
    for step in (10, 2, 100):
        (tmp_path / f"step_{step}.zip").write_bytes(b"")
    specs = expand_specs([f"checkpoint:{tmp_path}/step_*.zip", "heuristic"])
    assert specs == [f"checkpoint:{tmp_path}/step_{s}.zip" for s in (2, 10, 100)] + ["heuristic"]
    with pytest.raises(AgentSpecError, match="no checkpoint matches"):
        expand_specs([f"checkpoint:{tmp_path}/none_*.zip"])


def test_self_table_measures_every_seat():
    game = rams_env.make_game("toepen", 4)
    rows = record_deals(game, "random", "self", range(6), WinChance(game, samples=4), seed=2)
    assert {r.seat for r in rows} == {0, 1, 2, 3}


@pytest.mark.parametrize("preset, phase, other", [("any_time", Phase.WINDOW, "pass"), ("standard", Phase.PLAY, "7h")])
def test_not_knocking_when_a_knock_is_legal_is_a_check(preset, phase, other):
    hands = ["7h 8h 9s Ac", "10c 9c 8c 7c", "Kh Qh Ks Qs", "Jh 8d 9d Ad"]
    game, state = scripted(hands, 3, [], preset=preset, **PLAIN)
    recorder = Recorder(game, WinChance(game))
    legal = game.legal_actions(state)
    assert state.phase is phase and state.to_act == 0
    assert recorder.kind(state, legal, game.actions.parse("knock")) == "knock"
    assert recorder.kind(state, legal, game.actions.parse(other)) == "check"


def test_command_writes_reports_and_rejects_bad_input(tmp_path, capsys):
    out = tmp_path / "r.json"
    md = tmp_path / "r.md"
    assert main(["random", "heuristic:honest", "--deals", "4", "--samples", "4", "--json", str(out),
                 "--markdown", str(md), "--plots", str(tmp_path / "plots"), "--no-progress"]) == 0
    doc = json.loads(out.read_text())
    assert set(doc["agents"]) == {"random", "heuristic:honest"} and "Fold rate" in md.read_text()
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == [
        "bluff_ev.png", "fold_curves.png", "winchance_knock_vs_check.png"]
    assert main(["heuristic:nosuchstyle", "--deals", "2", "--no-progress"]) == 2
    assert "nosuchstyle" in capsys.readouterr().err
    assert main(["random", "--deals", "0", "--no-progress"]) == 2
    assert main(["random", "--players", "2", "--no-progress"]) == 2
    assert main(["random", "--json", str(out / "r.json"), "--no-progress"]) == 2  # under a file: checked first
    assert f"{out} is a file, not a folder" in capsys.readouterr().err
