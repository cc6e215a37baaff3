"""The shared core: cards, the one trick implementation, the chip ledger, actions, rules."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rams_env.core.actions import ActionLayout, Segment, UnknownActionLabel
from rams_env.core.cards import (
    FULL_52,
    LUPFEN_20,
    MECKLENBURG_25,
    NATURAL_ORDER,
    PIQUET_32,
    PRISDORF_25,
    WELI_33,
    CardError,
    RankOrder,
    card,
    cards,
    code,
)
from rams_env.core.observation import Field, ObservationLayout
from rams_env.core.rules import Rules, RulesError, require
from rams_env.core.stakes import Ledger, StakeError
from rams_env.core.tricks import NO_TRUMP, Lead, PlayRules, TrickOrder, winner_with_precedence

H, S, D, C = 2, 1, 3, 0  # suit indices of c s h d
ACES_HIGH = RankOrder.parse("A K Q J 10 9 8 7")


def labels(cs):
    return sorted(code(c) for c in cs)


# ------------------------------------------------------------------------ cards
def test_card_codes_round_trip_and_german_mapping():
    assert [code(c) for c in cards("7c 10h Qd As 6d")] == ["7c", "10h", "Qd", "As", "6d"]
    for bad in ("1c", "Ax", "", "10", 7):
        with pytest.raises(CardError):
            card(bad)


@pytest.mark.parametrize(("pack", "size"), [
    (PIQUET_32, 32), (LUPFEN_20, 20), (WELI_33, 33), (FULL_52, 52), (PRISDORF_25, 25), (MECKLENBURG_25, 25)])
def test_pack_sizes(pack, size):
    assert len(pack) == size == len(set(pack.cards))


def test_special_packs_hold_the_right_odd_cards():
    assert card("6d") in WELI_33.index and card("7d") in PRISDORF_25.index and card("Ad") in MECKLENBURG_25.index
    assert card("8d") not in PRISDORF_25.index and card("9c") not in LUPFEN_20.index
    with pytest.raises(CardError, match="9c"):
        LUPFEN_20.parse("Ac 9c")


# ------------------------------------------------------------------------ tricks
NO_TRUMP_ORDER = TrickOrder(RankOrder.parse("10 9 8 7 A K Q J"))


def test_toepen_order_ten_high_jack_low_off_suit_cannot_win():
    assert NO_TRUMP_ORDER.winning_index(cards("7h 9h Ac 10c")) == 1
    assert NO_TRUMP_ORDER.winning_index(cards("Jh Qs Ks 10d")) == 0


@pytest.mark.parametrize(("hand", "trick", "rules", "expected"), [
    # follow suit, else any card (Toepen, Fipsen Holstein)
    ("7h Ac Kd", "9h", PlayRules(), "7h"),
    ("Ac Kd", "9h", PlayRules(), "Ac Kd"),
    # must trump when void (Lupfen); trump spades
    ("Ac 7s 8s", "9h", PlayRules(trump_when_void=True), "7s 8s"),
    ("Ac Kd", "9h", PlayRules(trump_when_void=True), "Ac Kd"),
    # head the trick when able (Tippen, Mauscheln): follow with a higher card
    ("7h Kh As", "Qh", PlayRules(trump_when_void=True, head=True), "Kh"),
    ("7h 8h As", "Qh", PlayRules(trump_when_void=True, head=True), "7h 8h"),  # cannot beat: any heart
    ("Ac 7s Ks", "Qh 9s", PlayRules(trump_when_void=True, head=True), "Ks"),  # void: trump over the 9s
    ("Ac 7s 8s", "Qh As", PlayRules(trump_when_void=True, head=True), "7s 8s"),  # cannot overtrump: any trump
    ("7h", "Qh As", PlayRules(trump_when_void=True, head=True), "7h"),  # trumped trick: follow suit anyway
    # overtrump without heading (Thedinghausen): trumping a trumped trick must beat it if able
    ("Ac 7s Ks", "Qh 9s", PlayRules(trump_when_void=True, overtrump=True), "Ks"),
    ("Ac 7s Ks", "Qh Ah", PlayRules(trump_when_void=True, overtrump=True), "7s Ks"),
    # follow, trump optional (Tippen 1859)
    ("Ac 7s", "Qh", PlayRules(follow=True), "Ac 7s"),
])
def test_legal_plays_table(hand, trick, rules, expected):
    order = TrickOrder(ACES_HIGH, trump=S)
    assert labels(order.legal_plays(cards(hand), cards(trick), rules)) == sorted(expected.split())


def test_lead_a_trump_if_able():
    order = TrickOrder(ACES_HIGH, trump=H)
    assert labels(order.legal_plays(cards("7h Ac Kd"), [], PlayRules(), Lead.TRUMP_IF_ABLE)) == ["7h"]
    assert labels(order.legal_plays(cards("Ac Kd"), [], PlayRules(), Lead.TRUMP_IF_ABLE)) == ["Ac", "Kd"]


def test_permanent_trump_below_the_ace_belli():
    """Belli (7d) ranks after the trump ace and before the king, whatever the trump suit."""
    order = TrickOrder(ACES_HIGH, trump=H, top_trumps=cards("7d"), top_trumps_below=1)
    assert order.is_trump(card("7d"))
    assert order.winning_index(cards("Kh 7d")) == 1
    assert order.winning_index(cards("7d Ah")) == 1
    # trump led: a player holding only the Belli as trump must follow with it
    rules = PlayRules(trump_when_void=True)
    assert labels(order.legal_plays(cards("7d Kd Ac"), cards("9h"), rules)) == ["7d"]
    # diamonds led: the Belli is not a diamond any more
    assert labels(order.legal_plays(cards("7d Kc"), cards("9d"), rules)) == ["7d"]  # void in diamonds: trump


def test_permanent_trumps_above_all_and_without_trump_suit():
    weli_on_top = TrickOrder(ACES_HIGH, trump=S, top_trumps=cards("6d"), top_trumps_below=0)
    assert weli_on_top.winning_index(cards("As 6d")) == 1
    ruten_only = TrickOrder(ACES_HIGH, trump=NO_TRUMP, top_trumps=cards("Ad"))  # "Ruten oewer"
    assert ruten_only.winning_index(cards("As Ks Ad")) == 2
    assert not ruten_only.is_trump(card("As"))


def test_winner_with_precedence_skips_ineligible_players():
    plays = [(0, card("7d")), (1, card("9s")), (2, card("9c"))]
    assert winner_with_precedence(NO_TRUMP_ORDER, plays, [False, True, True], [H, S, D, C]) == 1
    assert winner_with_precedence(NO_TRUMP_ORDER, plays, [True, True, True], [H, S, D, C]) == 0


@settings(max_examples=300, deadline=None)
@given(st.permutations(list(PIQUET_32.cards)), st.integers(2, 6), st.sampled_from([NO_TRUMP, 0, 1, 2, 3]))
def test_legal_plays_never_empty_and_winner_consistent(deck, n, trump):
    order = TrickOrder(ACES_HIGH, trump=trump)
    rules = PlayRules(trump_when_void=True, head=True)
    hands = [deck[i * 4:(i + 1) * 4] for i in range(n)]
    trick: list[int] = []
    for hand in hands:
        legal = order.legal_plays(hand, trick, rules)
        assert legal and set(legal) <= set(hand)
        trick.append(legal[0])
    best = order.winning_index(trick)
    assert all(not order.beats(c, trick[best], order.suit[trick[0]]) for c in trick)


# ------------------------------------------------------------------------ stakes
def test_ledger_conserves_and_rejects_bad_amounts():
    ledger = Ledger([10, 10, 10])
    ledger.pay_in(0, 3)
    ledger.take_out(1, 2)
    ledger.transfer(2, 0, 4)
    ledger.cap_pot(0)
    assert ledger.total == 30 and ledger.set_aside == 1
    ledger.release_set_aside()
    assert ledger.pot == 1 and ledger.total == 30
    for bad in (lambda: ledger.pay_in(0, -1), lambda: ledger.take_out(0, 99), lambda: ledger.pay_in(5, 1),
                lambda: ledger.pay_in(0, 1.5)):
        with pytest.raises(StakeError):
            bad()
    assert ledger.total == 30


def test_trick_shares_leave_the_remainder_in_the_pot():
    from rams_env.games.lupfen.rules import LupfenRules

    ledger = Ledger([0, 0, 0], pot=10)
    per_trick = LupfenRules().share_per_trick(ledger.pot)
    ledger.settle_tricks({0: per_trick * 1, 1: per_trick * 2, 2: 0}, {2: 10})
    assert ledger.bankrolls == [3, 6, -10] and ledger.pot == 1 + 10


# ------------------------------------------------------------------- actions, obs
def test_action_layout_labels_both_ways():
    layout = ActionLayout([Segment("play", ("Ac", "Kc"), bare=True), Segment("bid", ("2", "3")), Segment("pass")])
    assert layout.labels == ("Ac", "Kc", "bid 2", "bid 3", "pass")
    assert layout.parse("bid 3") == 3 and layout.segment(3) == ("bid", 1)
    with pytest.raises(UnknownActionLabel):
        layout.parse("bid 9")
    with pytest.raises(ValueError):
        ActionLayout([Segment("pass"), Segment("pass")])


def test_observation_layout_slices_and_table():
    layout = ObservationLayout([Field("hand", 32, "cards"), Field("pot", 1, "pot")])
    assert layout["pot"] == slice(32, 33) and layout.size == 33
    assert "| 32 | 1 | `pot` | pot |" in layout.describe()


# ------------------------------------------------------------------------- rules
@dataclass(frozen=True)
class DemoRules(Rules):
    stake: int = 3
    PRESETS = {"big": {"stake": 6}}

    def validate(self) -> None:
        require(self.stake % 3 == 0, f"stake={self.stake}: must be divisible by three")


def test_rules_build_presets_and_errors():
    assert DemoRules.build("big").stake == 6
    assert DemoRules.build("big", stake=9).stake == 9
    assert DemoRules.build(stake=9).changed() == {"stake": 9}
    with pytest.raises(RulesError, match="stak"):
        DemoRules.build(stak=3)
    with pytest.raises(RulesError, match="divisible"):
        DemoRules.build(stake=4)
    with pytest.raises(RulesError, match="huge"):
        DemoRules.build("huge")
    assert NATURAL_ORDER.strength(card("Ac")) > NATURAL_ORDER.strength(card("2c"))


@pytest.mark.parametrize("game_name", ["toepen", "tippen"])
def test_a_copied_game_encodes_what_the_original_encodes(game_name):
    """The seat block keeps views of its block (updated in place): a deep copy or a cloudpickle round trip (how
    SuperSuit's vector envs copy an env) must make its own views, not carry stale or broken ones."""
    import copy

    import cloudpickle
    import numpy as np

    import rams_env

    env = rams_env.make(game_name)
    env.reset(seed=3)
    game, rng = env.unwrapped.game, np.random.default_rng(0)
    copies = [copy.deepcopy(game), cloudpickle.loads(cloudpickle.dumps(game))]
    for _ in range(12):
        state = env.unwrapped.game_state
        if state.terminal:
            break
        for seat in range(game.num_players):
            expected = np.zeros(game.observation.size, np.float32)
            game.encode(state, seat, expected)
            for other in copies:
                got = np.zeros(game.observation.size, np.float32)
                other.encode(state, seat, got)
                assert np.array_equal(got, expected)
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]))))
