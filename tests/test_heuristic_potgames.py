"""The heuristic players of Tippen, Mauscheln and Lupfen: exact choices in hand-made positions,
legal play over every preset, table size and style, no peeking at unseen cards, and a measured
advantage over the random agent over duplicate deals."""

from __future__ import annotations

import numpy as np
import pytest

import rams_env
from agents.heuristics.lupfen import LupfenHeuristic
from agents.heuristics.mauscheln import MauschelnHeuristic
from agents.heuristics.tippen import TippenHeuristic
from agents.heuristics.trumpplay import (
    PlayStyle,
    TrumpTable,
    cheapest_winner,
    choose_follow,
    choose_lead,
    discard_order,
    estimate_hand,
    hold_chance,
    unseen_cards,
)
from agents.random_agent import RandomAgent
from agents.registry import AgentSpecError, agent_factory
from evaluation.duplicate import duplicate_match
from rams_env.core.cards import NATURAL_ORDER, PIQUET_32
from tests import tiers

HEURISTICS = {"tippen": TippenHeuristic, "mauscheln": MauschelnHeuristic, "lupfen": LupfenHeuristic}
PACK = PIQUET_32.codes


def position(game: str, hands: list[str], moves: str = "", dealer: int | None = None, pot: int = 0,
             turned: str | None = None, stock: str | None = None, **rules):
    """A fixed deal (reset options) played up to a decision by scripted ``seat:label`` moves."""
    env = rams_env.make(game, len(hands), **rules)
    deal = {"hands": [h.split() for h in hands]}
    if turned:
        deal["turned"] = turned
    if stock:
        deal["stock"] = stock.split()
    dealer = len(hands) - 1 if dealer is None else dealer
    env.reset(seed=0, options={"deal": deal, "dealer": dealer, "pot": pot, "bankrolls": [0] * len(hands)})
    raw = env.unwrapped
    for move in moves.split():
        seat, label = move.split(":")
        assert raw.game_state.to_act == int(seat), f"player_{raw.game_state.to_act} to act, script says {seat}"
        env.step(raw.action_id(label.replace("_", " ")))
    return raw


def decide(raw, style: str = "default", **params) -> str:
    """The label the heuristic chooses for the player to act."""
    game = raw.game
    agent = HEURISTICS[game.name](game, style=style, seed=0, **params)
    name = raw.agent_selection
    obs = raw.observe(name)
    return game.actions.label(agent.act(obs["observation"], obs["action_mask"], raw.view(name)))


def lupfen_stock(hands: list[str], top: str) -> str:
    used = set(" ".join(hands).split()) | {top}
    return " ".join([top, *[c for c in rams_env.make_game("lupfen").pack().codes if c not in used]])


# ------------------------------------------------------------------ trumpplay
def test_trumpplay_cheapest_winner_ducking_and_leads():
    table = TrumpTable.make(NATURAL_ORDER, "h")
    assert cheapest_winner(table, ["Kc", "Ac", "7h"], ["Qc"]) == "Kc"  # a side card before a trump
    assert cheapest_winner(table, ["9s", "7h", "Jh"], ["Ac"]) == "7h"  # the lowest trump that wins
    assert cheapest_winner(table, ["7c", "8c"], ["Ac"]) is None
    unseen = unseen_cards(PACK, ["Kc", "8c", "9s"], ["Ac"])
    assert choose_follow(table, ["Kc", "8c"], ["Ac"], unseen, after=1) == "8c"  # lost anyway: duck low
    assert choose_follow(table, ["9s", "8d", "10h"], ["Ac"], unseen, after=0) == "10h"  # void: trump it
    unseen = unseen_cards(PACK, ["Ah", "Kh", "7c"])
    assert choose_lead(table, ["Ah", "Kh", "7c"], unseen) == "Ah"  # trumps from strength
    unseen = unseen_cards(PACK, ["Ah", "Ac", "7d"])
    assert choose_lead(table, ["Ah", "Ac", "7d"], unseen) == "Ac"  # one trump: cash the side ace first
    assert discard_order(table, ["Ah", "Ac", "7c", "Kd"], unseen) == ["7c", "Kd", "Ac", "Ah"]
    unseen = unseen_cards(PACK, ["Kc", "10c", "7h"], ["9c"])  # Ac, Qc, Jc unseen
    style = PlayStyle(safe_chance=0.8)  # Kc holds with 25/28, 10c with (25/28)^3 = 0.71
    assert choose_follow(table, ["Kc", "10c"], ["9c"], unseen, after=1) == "10c"  # no boss: the cheapest
    assert choose_follow(table, ["Kc", "10c"], ["9c"], unseen, 1, style, hand_size=3) == "Kc"  # likely holds
    assert hold_chance(table, "Kc", unseen, 1, 3) == 1 - 3 / len(unseen)


def test_trumpplay_estimates_are_monotone():
    table = TrumpTable.make(NATURAL_ORDER, "h", ("7d",), 1)
    strong, weak = ["Ah", "7d", "Kh"], ["7c", "8s", "9d"]
    e_strong = estimate_hand(table, strong, unseen_cards(PACK, strong), 3, 3)
    e_weak = estimate_hand(table, weak, unseen_cards(PACK, weak), 3, 3)
    assert e_strong.chances["Ah"] == 1.0 and e_strong.chances["7d"] == 1.0  # the Belli is second to the ace
    assert e_strong.p_blank == 0.0 and e_strong.tricks > 2.0 > 0.5 > e_weak.tricks
    assert abs(sum(e_weak.dist) - 1.0) < 1e-12
    fewer = estimate_hand(table, weak, unseen_cards(PACK, weak), 1, 3)
    assert fewer.tricks > e_weak.tricks  # fewer opponents, more tricks


# --------------------------------------------------------------------- Tippen
def test_tippen_taps_a_strong_hand_and_the_last_player_passes_a_hopeless_one():
    hands = ["Ah Kh 7c", "Qh 8c 9s", "As Ks Qs", "7d 8d 7s"]
    raw = position("tippen", hands, turned="10h", pot=30)
    assert decide(raw) == "tap"
    raw = position("tippen", hands, "0:tap 1:tap 2:tap", turned="10h", pot=30)
    assert decide(raw) == "pass"
    raw = position("tippen", hands, "0:pass 1:pass 2:pass", turned="10h", pot=30)
    assert decide(raw) == "tap"  # everybody passed: the lone player takes the pot


def test_tippen_exchanges_weak_side_cards_and_keeps_trumps_and_aces():
    hands = ["Ah Ac 7s", "Qh 8c 9s", "As Ks Qs", "7d 8d 9d"]
    raw = position("tippen", hands, "0:tap 1:tap 2:pass 3:pass", turned="10h")
    assert decide(raw) == "discard 7s"
    raw = position("tippen", hands, "0:tap 1:tap 2:pass 3:pass 0:discard_7s", turned="10h")
    assert decide(raw) == "done"


def test_tippen_follows_cheaply_and_ducks_with_the_lowest_card():
    hands = ["Ac Ad 7s", "Kc 8c 9s", "Qc Jc 10s"]
    raw = position("tippen", hands, "0:Ac", turned="7h", ruleset="meyers_1905")  # forced: all play
    assert decide(raw) == "8c"  # the ace cannot be beaten: duck low
    raw = position("tippen", hands, "0:Ac 1:8c", turned="7h", ruleset="meyers_1905")
    assert decide(raw) == "Jc"


def test_tippen_dealer_privileges_and_robbing():
    hands = ["Ah Kh 7c", "Qh 8c 9s", "As Ks Qs", "7d 8d 9d"]
    assert decide(position("tippen", hands, turned="10h", pot=30, preset="modern_knocking")) == "knock"
    assert decide(position("tippen", hands, turned="10h", preset="modern_knocking")) == "decline"
    assert decide(position("tippen", hands, turned="10h", preset="modern_knocking"), knock_min_pot=1.0) == "knock"
    robber = ["Ad Kd Jc", "7h 8c 9c", "Qs 10s 9s", "Jd 10d 9d"]
    raw = position("tippen", robber, "0:decline", turned="Ah", ruleset="alvensleben_robbing")
    assert raw.game_state.to_act == 1 and decide(raw) == "rob"
    raw = position("tippen", robber, "0:decline 1:rob", turned="Ah", ruleset="alvensleben_robbing")
    assert decide(raw) == "discard 8c"  # the lowest side card


def test_tippen_sniffer_plays_on_strong_and_drops_out_weak_and_the_dealer_shoves():
    strong = ["7c 8c 9c", "7s 8s 9s", "Js Qs Ks", "Ah Kh Qh"]
    raw = position("tippen", strong, "3:sniff 3:discard_Qh", turned="10h", pot=30, preset="alvensleben_sniffing")
    assert raw.game_state.phase.value == "drop" and decide(raw) == "tap"
    weak = ["7c 8c 9c", "7s 8s 9s", "Js Qs Ks", "7d 8d Ad"]
    raw = position("tippen", weak, "3:sniff 3:discard_7d", turned="10h", pot=30, preset="alvensleben_sniffing")
    assert decide(raw) == "drop"  # one side ace: a double bête of 33 is too likely; dropping costs 3
    raw = position("tippen", weak, pot=30, preset="modern_shoving")
    assert decide(raw) == "shove" and decide(raw, style="tight") == "deal"


# ------------------------------------------------------------------ Mauscheln
MAUSCHELN = ["Ah Kh Qh 7c", "Jh 10h 8c 9c", "As Ks 7s 8s", "7d 8d 9d Js"]


def test_mauscheln_sneaks_strong_passes_weak_and_joins_with_a_trick():
    assert decide(position("mauscheln", MAUSCHELN, turned="9h")) == "sneak"
    weak = ["7c 9s 10d 10c", *MAUSCHELN[1:]]
    assert decide(position("mauscheln", weak, turned="9h", pot=40)) == "pass"
    joining = ["7c 8c 10c Jc", "Ah Kh Qh 7d", "As Ks 7s 8s", "Jd 8d 9d Js"]
    raw = position("mauscheln", joining, "0:sneak", turned="9h", pot=40)
    assert decide(raw) == "join"  # the three top trumps
    raw = position("mauscheln", joining, "0:sneak 1:join 2:pass", turned="9h", pot=40, max_exchange=0)
    assert decide(raw) == "pass"  # no trump, no ace against two players, no exchange


def test_mauscheln_exchanges_then_wins_with_the_cheapest_card():
    raw = position("mauscheln", MAUSCHELN, "0:sneak 1:join 2:pass 3:pass", turned="9h")
    assert decide(raw) == "discard 7c"
    raw = position("mauscheln", MAUSCHELN, "0:sneak 1:join 2:pass 3:pass 0:done 1:done 0:7c", turned="9h")
    assert sorted(raw.legal_labels()) == ["8c", "9c"] and decide(raw) == "8c"


def test_mauscheln_knocking_dealer_must_discard():
    raw = position("mauscheln", MAUSCHELN, turned="Ad", dealer=3, preset="knocking")
    assert decide(raw) == "knock" and decide(raw, style="tight") == "decline"
    raw = position("mauscheln", MAUSCHELN, "3:knock 0:join 1:pass 2:pass", turned="Ad", preset="knocking")
    assert raw.view(raw.agent_selection)["hand"] == ["7d", "8d", "9d", "Js"]
    assert "done" not in raw.legal_labels() and decide(raw) == "discard Js"  # room for the trump ace


# --------------------------------------------------------------------- Lupfen
LUPFEN = ["Ac As Ah", "10h Kh Jc", "Qc Qs Qd", "Jh Jd Kd"]


def test_lupfen_lifts_strong_passes_weak_and_plays_along_with_trumps():
    stock = lupfen_stock(LUPFEN, "Ad")
    assert decide(position("lupfen", LUPFEN, stock=stock, pot=12)) == "lift"
    raw = position("lupfen", LUPFEN, "0:lift", stock=lupfen_stock(LUPFEN, "Ad"), pot=12)
    assert decide(raw) == "pass"  # no diamond, nothing higher than a king
    stock = lupfen_stock(LUPFEN, "Qh")
    raw = position("lupfen", LUPFEN, "0:lift", stock=stock, pot=12)
    assert decide(raw) == "mit"  # the 10 and the King of trumps
    weak = ["Js Qs Jd", "Ac As Ah", "10h Kh Jc", "Qc Kd 10d"]
    assert decide(position("lupfen", weak, stock=lupfen_stock(weak, "Ad"), pot=12)) == "pass"


def test_lupfen_three_unters_lift_and_scrap_calls_off_a_hopeless_deal():
    unters = ["Jc Js Jh", "Ac As Ah", "Qc Qs Qd", "Kh Kd Kc"]
    assert decide(position("lupfen", unters, stock=lupfen_stock(unters, "10d"), pot=12)) == "lift"
    raw = position("lupfen", unters, stock=lupfen_stock(unters, "10d"))  # a force round: declare at once
    assert raw.legal_labels() == ["declare"] and decide(raw) == "declare"
    scrap = ["Jc Js Qd", "Ac As Ah", "10c 10s 10h", "Kh Kd Kc"]
    raw = position("lupfen", scrap, stock=lupfen_stock(scrap, "Ad"))  # a force round
    assert sorted(raw.legal_labels()) == ["keep", "scrap"] and decide(raw) == "scrap"


# -------------------------------------------------------------- every preset
def all_cases() -> list[tuple[str, str, int]]:
    out = []
    for game in HEURISTICS:
        g = rams_env.make_game(game)
        for preset in type(g.rules).preset_names():
            lo, hi = rams_env.make_game(game, preset=preset).player_range()
            out.extend((game, preset, n) for n in sorted({lo, (lo + hi) // 2, hi}))
    return out


DEALS_PER_CASE = {"tippen": 2, "mauscheln": 2, "lupfen": 5}


@pytest.mark.parametrize("game", list(HEURISTICS))
def test_every_style_plays_every_preset_and_table_legally(game):
    """Heuristics of every style (and random players among them) over every preset and table size."""
    steps, phases = 0, set()
    for _, preset, n in [c for c in all_cases() if c[0] == game]:
        for carry in (False, True):
            env = rams_env.make(game, n, preset=preset, random_carry=carry)
            raw, styles = env.unwrapped, list(HEURISTICS[game].STYLES)
            for deal in range(DEALS_PER_CASE[game]):
                env.reset(seed=deal)
                agents = [RandomAgent(s) if s == deal % n else
                          HEURISTICS[game](raw.game, style=styles[(s + deal) % len(styles)], seed=s)
                          for s in range(n)]
                for name in env.agent_iter():
                    _, _, term, trunc, _ = env.last()
                    if term or trunc:
                        env.step(None)
                        continue
                    obs = env.observe(name)
                    seat, view = raw.possible_agents.index(name), raw.view(name)
                    env.step(agents[seat].act(obs["observation"], obs["action_mask"], view))
                    steps += 1
                    if not isinstance(agents[seat], RandomAgent):
                        phases.add(view["phase"])
    assert steps > 1000
    assert phases >= PHASES[game], f"{game}: decisions never met: {sorted(PHASES[game] - phases)}"


PHASES = {
    "tippen": {"shove", "dealer", "drop", "rob", "discard", "bid", "exchange", "play"},
    "mauscheln": {"sneak", "join", "exchange", "play"},  # the knock (a turned ace): the positions above
    "lupfen": {"shove", "lift", "join", "play"},  # three Unters and scrap: the hand-made positions above
}


@pytest.mark.parametrize("game", list(HEURISTICS))
def test_choices_do_not_change_when_unseen_cards_are_redealt(game):
    rng = np.random.default_rng(11)
    for preset in type(rams_env.make_game(game).rules).preset_names():
        env = rams_env.make(game, 4, preset=preset, random_carry=True)
        raw = env.unwrapped
        gm = raw.game
        for deal in range(4):
            env.reset(seed=100 + deal)
            while not raw.game_state.terminal:
                state, seat = raw.game_state, raw.game_state.to_act
                other = gm.shuffle_unseen(state, seat, rng)
                choices = []
                for st in (state, other):
                    obs = gm.observation.zeros()
                    gm.encode(st, seat, obs)
                    mask = np.zeros(gm.actions.size, dtype=np.int8)
                    mask[gm.legal_actions(st)] = 1
                    choices.append(HEURISTICS[game](gm, seed=1).act(obs, mask, gm.view(st, seat)))
                assert choices[0] == choices[1], f"{game} {preset}: choice depends on unseen cards"
                env.step(choices[0])


def test_styles_and_parameters_are_validated():
    game = rams_env.make_game("tippen")
    with pytest.raises(AgentSpecError, match="unknown style"):
        agent_factory("heuristic:reckless", game)
    with pytest.raises(AgentSpecError, match="tap_marg"):
        agent_factory("heuristic:tap_marg=1", game)
    with pytest.raises(ValueError, match="join_rate"):
        agent_factory("heuristic:join_rate=2", game)(0)
    for name in HEURISTICS:
        agent = agent_factory(f"heuristic:configs/agents/{name}.yaml", rams_env.make_game(name))(0)
        assert agent.params != HEURISTICS[name].params_type()  # the example file changes something


# ------------------------------------------------------------ against random
@tiers.parametrize(("game", "preset"), [(g, p) for g in HEURISTICS
                                         for p in type(rams_env.make_game(g).rules).preset_names()],
                   tiers.reference_rules)
def test_default_heuristic_beats_random_over_duplicate_deals(game, preset):
    """Mid-session pots (random carry) so that every bidding decision matters; 3 players keep it quick."""
    g = rams_env.make_game(game, 3, preset=preset)
    result = duplicate_match(game, 3, {"preset": preset, "random_carry": True}, agent_factory("heuristic", g)(0),
                             "random", deals=DEALS.get(game, 60), seed=2024)
    assert result.mean - result.ci95 > 0, f"{game} {preset}: {result.mean:.2f} +- {result.ci95:.2f}"


DEALS = {"tippen": 150, "mauscheln": 80, "lupfen": 100}
