"""The pot-game base and the bookkeeping written once: per-deal fields, seats asked in turn, card actions,
the talon exchange, shares then bêtes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import rams_env
from rams_env.core.actions import ActionLayout, Segment, play_segment
from rams_env.core.cards import LUPFEN_20, card
from rams_env.core.exchange import ExchangeState, TalonExchange, exchange_segments
from rams_env.core.game import State
from rams_env.core.perdeal import per_deal, per_deal_list, per_seat
from rams_env.core.turns import ask_in_turn, ask_next
from rams_env.games.mauscheln.rules import MauschelnRules
from rams_env.games.tippen.rules import TippenRules


@dataclass
class Deal(State):
    stake: int = per_deal(1)
    knocked_by: list[int] = per_seat(0)
    claim: list[int] = per_deal_list()
    redeals: int = per_deal(0, kept_on_redeal=True)
    lives: int = 5  # carried across deals


@dataclass
class Exchanging(ExchangeState):
    NO_BID = "none"


def test_clear_deal_rebuilds_every_per_deal_field_and_nothing_else():
    state = Deal(num_players=3, rng=np.random.default_rng(0))
    state.clear_deal()
    state.stake, state.knocked_by[1], state.redeals, state.lives = 4, 2, 3, 2
    state.claim.append(7)
    state.queue, state.breakdown = [1, 2], {"reason": "x"}
    state.clear_deal(redeal=True)
    assert (state.stake, state.knocked_by, state.claim, state.queue) == (1, [0, 0, 0], [], [])
    assert (state.redeals, state.breakdown, state.lives) == (3, {"reason": "x"}, 2)  # kept on a redeal
    state.clear_deal()
    assert (state.redeals, state.breakdown, state.lives) == (0, {}, 2)


def test_a_mutable_per_deal_value_is_refused():
    with pytest.raises(TypeError, match="per_deal_list"):
        per_deal([])


def test_seats_are_asked_in_turn_and_passed_over_when_they_cannot_act():
    state = Deal(num_players=4, rng=np.random.default_rng(0))
    assert not ask_in_turn(state, [])
    assert ask_in_turn(state, [2, 3, 0]) and state.to_act == 2
    assert ask_next(state, may_act=lambda seat: seat != 3) and state.to_act == 0
    assert not ask_next(state)


def test_card_actions_convert_cards_to_ids_and_back():
    layout = ActionLayout([play_segment(LUPFEN_20), Segment("pass"), Segment.cards("discard", LUPFEN_20)])
    cards = [card("Ah"), card("Jc")]
    ids = layout.card_actions("discard", cards)
    assert ids == sorted(ids) and [layout.label(a) for a in ids] == ["discard Jc", "discard Ah"]
    assert sorted(layout.card(a) for a in ids) == sorted(cards)
    with pytest.raises(ValueError, match="names no card"):
        layout.card(layout.start["pass"])
    with pytest.raises(ValueError, match="not a card segment"):
        layout.card_actions("pass", cards)


def test_the_talon_exchange_discards_draws_and_passes_over_an_empty_talon():
    layout = ActionLayout([play_segment(LUPFEN_20), *exchange_segments(LUPFEN_20, "discard")])
    exchange = TalonExchange(layout, limit=lambda state, seat: min(2, len(state.talon)))
    state = Exchanging(num_players=3, rng=np.random.default_rng(0))
    state.clear_deal()
    hands = [["Ac", "Kc", "Qc"], ["As", "Ks", "Qs"], ["Ah", "Kh", "Qh"]]
    state.hands = [[card(c) for c in hand] for hand in hands]
    state.talon = [card("Jd"), card("Qd")]
    assert exchange.begin(state, [1, 2, 0]) and state.to_act == 1
    assert exchange.legal(state)[-1] == layout.start["done"] and len(exchange.legal(state)) == 4
    assert exchange.discard(state, 1, card("Qs"))
    assert not exchange.discard(state, 1, card("Ks"))  # her limit: she draws, the talon is empty, all done
    assert sorted(state.hands[1]) == sorted(card(c) for c in ("As", "Jd", "Qd"))
    assert state.face_down[1] == [card("Qs"), card("Ks")] and state.exchanged == [0, 2, 0] and not state.talon


def test_the_heuristics_and_the_engine_share_one_rule_for_shares_and_betes():
    tippen = TippenRules.build("modern_sniffing")
    assert tippen.share_per_trick(30) == 10 and tippen.bete_for(30, 0) == tippen.stake
    assert tippen.bete_for(30, 1, privileged=True) == tippen.stake and tippen.bete_for(30, 2, privileged=True) == 0
    mauscheln = MauschelnRules()
    assert [mauscheln.bete_for(20, t, sneaker=True) for t in range(3)] == [40, 20, 0]


def test_a_played_pot_deal_settles_shares_first_then_betes():
    env = rams_env.make("lupfen", 3)
    env.reset(seed=3, options={"pot": 0})
    raw = env.unwrapped
    while not raw.game_state.deal_over and raw.game_state.to_act is not None:
        legal = raw.game.legal_actions(raw.game_state)
        raw.game.apply(raw.game_state, legal[0])
        if raw.game_state.deals_played:
            break
    breakdown = raw.game_state.deal_breakdowns[-1]
    pot = breakdown["pot_at_play"]
    assert breakdown["reason"] == "played"
    assert breakdown["shares"] == {s: pot // 3 * t for s, t in enumerate(breakdown["tricks_won"])}
    assert breakdown["betes"] == {s: pot if t == 0 else 0 for s, t in enumerate(breakdown["tricks_won"])}
    assert breakdown["pot"] == pot - sum(breakdown["shares"].values()) + sum(breakdown["betes"].values())


def test_a_sixth_pot_game_by_the_recipe_plays_sessions_through_the_generic_env(monkeypatch):
    """docs/architecture.md's recipe: a small package on the base plus one registry line is a working game."""
    from rams_env import registry
    from tests.conformance import random_playout

    monkeypatch.setitem(registry.GAMES, "dreiblatt", "tests.sixth_potgame:Dreiblatt")
    rng = np.random.default_rng(0)
    for n in (3, 5):
        for seed in range(5):
            random_playout(rams_env.make("dreiblatt", n, episode="session"), seed, rng, check_hidden_every=3)
    env = rams_env.make("dreiblatt", 3, episode="session")
    env.reset(seed=1, options={"pot": 9, "bankrolls": [10, 20, 30]})
    raw = env.unwrapped
    while not raw.game_state.terminal:
        raw.game.apply(raw.game_state, raw.game.legal_actions(raw.game_state)[0])
    state = raw.game_state
    assert state.deals_played == 5 and state.ledger.total == 9 + 60
    assert state.scores == [b - b0 for b, b0 in zip(state.ledger.bankrolls, [10, 20, 30], strict=True)]
    assert all("reason" in b and "paid_in" in b for b in state.deal_breakdowns)
