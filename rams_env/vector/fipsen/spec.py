"""Fipsen's rule data for the kernels, taken from the reference engine, never restated.

Everything that depends on the variant, the pack or a layout reaches the kernels as one
record argument ``k`` (``spec[0]``), as in ``toepen/spec.py``: the variant's flags
(:class:`VariantSpec`), its bidding ladder as arrays (one entry per rung: tricks, value,
what the declarer picks up and discards, how trumps are set, what the bidder must hold),
the action ids and every observation offset; beside it the trick tables of the compiled
trick core, one per trump suit, from the game's own ``TrickOrder``s. The ladder's talon
kinds are turned into the three things the reference's ``_won_auction`` does with them
(discard the hand, take the skat, take the talon), so the kernel reads flags, not enum names.
"""

from __future__ import annotations

import numpy as np

from rams_env.core.cards import SUITS, card, rank_of, suit_of
from rams_env.games.fipsen.auction import COURTS, KIEKER_CONCESSION, MAX_REDEALS, TALON_DISCARDS, trump_choices
from rams_env.games.fipsen.contracts import Talon, Trumps
from rams_env.games.fipsen.game import Fipsen
from rams_env.games.fipsen.observe import PHASES, SCORE_SCALE
from rams_env.games.fipsen.play import HOLSTEIN_PLAY, THEDINGHAUSEN_PLAY
from rams_env.games.fipsen.rules import Auction
from rams_env.games.fipsen.state import HAND_SIZE, TRICKS, Phase
from rams_env.vector.records import check_layout, choice_pairs, rule_record
from rams_env.vector.tricks import order_tables, rule_flags

OBS_FIELDS = (
    "hand", "turned", "trump", "own_discards", "trick", "played", "leader", "to_act", "dealer", "declarer",
    "passed", "highest_bidder", "tricks_won", "race", "net", "seat", "phase", "highest_bid", "contract",
    "holder_to_answer", "playing_on", "pot", "trick_number",
)
"""Every observation field the encoder writes; the reference layout must hold exactly these."""

ACTIONS = ("hold", "pass", "fipsen", "concede", "play_kieker", "play_on", "stop")
SEGMENTS = ("play", "discard", "bid", "trump")
CHOICES = {"call": ("pass", "fipsen"), "kieker": ("concede", "play_kieker"), "play_on": ("play_on", "stop")}
"""The phases that offer two actions, always both (the reference's ``legal_actions``)."""
LADDER = ("l_tricks", "l_value", "l_discards", "l_discard_hand", "l_takes_skat", "l_takes_aside", "l_preference",
          "l_fixed", "l_no_courts", "l_rutenas", "l_siebener")
POT_SCALE = 20
"""observe.py writes the Thedinghausen pot as pot / 20, capped at 1 (the cross-check pins this copy)."""
RUTENAS = "Ad"
"""The card a Mecklenburg Ruten bid needs (``auction.eligible``'s ``card("Ad")``)."""

SPEC_FIELDS = (
    "n", "cards", "suits", "hand_size", "tricks", "skat", "rungs", "num_actions", "obs_size", "net_scale",
    "max_redeals", "kieker_concession", "preference", "preference_doubles", "play_on", "durch_doubles",
    "single_round", "hold_auction", "thedinghausen", "race_to", "prize", "bankroll", "pot_scale", "session",
    "session_deals", "random_carry", *(f"ph_{p.name.lower()}" for p in Phase),
    *(f"a_{name}" for name in (*SEGMENTS, *ACTIONS)),
    *(f"o_{name}" for name in OBS_FIELDS),
    *LADDER, "trump_suits", "court_mask", "rutenas_mask", "seven_mask", "ace_mask", "card_suit", "play_flags",
    "choices",
)


def build_spec(game: Fipsen, *, session: bool, random_carry: bool) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' view of ``game``: (the rule record, the trick tables by trump suit).

    The trick tables (``rams_env.vector.tricks``) are the reference's ``Fipsen.order`` for each
    trump suit; a deal plays with ``tables[trump]``. ``random_carry``: Thedinghausen's episodes start inside a race
    (flow.py ``carried_race``); the other variants carry nothing over.
    """
    spec, pack, layout, ladder = game.spec, game.pack(), game.observation, game.ladder
    check_layout(layout, OBS_FIELDS, "fipsen")

    def cards_where(keep) -> np.uint64:
        return np.uint64(sum(1 << i for i, c in enumerate(pack.cards) if keep(c)))

    values = {
        "n": game.num_players, "cards": len(pack), "suits": len(SUITS), "hand_size": HAND_SIZE, "tricks": TRICKS,
        "skat": spec.skat,        "rungs": len(ladder), "num_actions": game.actions.size, "obs_size": layout.size,
        "net_scale": 2 * SCORE_SCALE, "max_redeals": MAX_REDEALS, "kieker_concession": KIEKER_CONCESSION,
        "preference": game.preference, "preference_doubles": int(spec.preference_doubles),
        "play_on": int(spec.play_on), "durch_doubles": int(spec.durch_doubles),
        "thedinghausen": int(game.thedinghausen), "race_to": game.rules.race_to, "prize": game.rules.prize,
        "bankroll": game.rules.bankroll, "pot_scale": POT_SCALE,
        "single_round": int(spec.auction is Auction.SINGLE_ROUND), "hold_auction": int(spec.auction is Auction.HOLD),
        "session": int(session), "session_deals": game.rules.session_deals, "random_carry": int(random_carry),
        **{f"ph_{p.name.lower()}": PHASES.index(p) for p in Phase},
        **{f"a_{name}": game.actions.id(name) for name in SEGMENTS},
        **{f"a_{name}": game.actions.singles[name] for name in ACTIONS},
        **{f"o_{name}": layout.start(name) for name in OBS_FIELDS},
        **ladder_arrays(ladder),
        "trump_suits": trump_choices(game),
        "play_flags": rule_flags(THEDINGHAUSEN_PLAY if game.thedinghausen else HOLSTEIN_PLAY),
        "card_suit": [suit_of(c) for c in pack.cards],
        "court_mask": cards_where(lambda c: rank_of(c) in COURTS),
        "rutenas_mask": cards_where(lambda c: c == card(RUTENAS)),
        "seven_mask": cards_where(lambda c: rank_of(c) == "7"), "ace_mask": cards_where(lambda c: rank_of(c) == "A"),
    }
    values["choices"] = choice_pairs(values, len(PHASES), CHOICES)
    return rule_record(values, SPEC_FIELDS), order_tables(game.trick_orders, pack)


def ladder_arrays(ladder) -> dict[str, list]:
    """The bidding ladder, one entry per rung (:data:`LADDER`): tricks, value, what the declarer picks up
    and discards, how trumps are set, what the bidder must hold."""
    taking = (Talon.SKAT, Talon.DUTT, Talon.KIEKER, Talon.KIEKER_ALL)
    return {
        "l_tricks": [c.tricks for c in ladder], "l_value": [c.value for c in ladder],
        "l_discards": [TALON_DISCARDS[c.talon] for c in ladder],
        "l_discard_hand": [c.talon is Talon.KIEKER_ALL for c in ladder],
        "l_takes_skat": [c.talon in taking for c in ladder],
        "l_takes_aside": [c.talon in (Talon.KIEKER, Talon.KIEKER_ALL) for c in ladder],
        "l_preference": [c.trumps is Trumps.PREFERENCE for c in ladder],
        "l_fixed": [c.fixed for c in ladder], "l_no_courts": [c.needs == "no_courts" for c in ladder],
        "l_rutenas": [c.needs == "rutenas" for c in ladder], "l_siebener": [c.needs == "siebener" for c in ladder],
    }
