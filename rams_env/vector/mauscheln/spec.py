"""Mauscheln's rule data for the kernels, taken from the reference engine, never restated.

The kernels receive ``spec = (k, t)``: ``k`` (``spec[0][0]``) is one record of rule flags
from :class:`MauschelnRules`, the action ids of the game's ``ActionLayout``, every observation
offset and seat-field scale of its ``ObservationLayout`` and the card facts the rules test (rank,
printed suit, knock ranks, Belli, trump aces); ``t`` are the game's four trick orders (one
per trump suit, Belli or Weli placed) as :func:`rams_env.vector.tricks.order_tables`. Passing
them as arguments keeps numba's on-disk cache valid whatever the rules.
"""

from __future__ import annotations

import numpy as np

from rams_env.core.cards import RANKS, SUITS, card, rank_of, suit_of
from rams_env.games.mauscheln.game import BELLI, HAND_SIZE, PLAY_RULES, TRICKS, Mauscheln
from rams_env.games.mauscheln.observe import PHASES, POT_SCALE
from rams_env.games.mauscheln.rules import TrickShare
from rams_env.games.mauscheln.state import Bid
from rams_env.vector.records import check_layout, choice_pairs, rule_record
from rams_env.vector.tricks import order_tables, rule_flags

CARRY_POTS = 8
"""``Mauscheln.random_carry`` draws the pot as Pinke x 0..7; the cross-check pins this copy."""

OBS_FIELDS = (
    "hand", "turned", "trump", "own_discards", "trick", "played", "leader", "to_act", "dealer", "sneaker",
    "passed", "joined", "tricks_won", "exchanged", "quartets", "net", "seat", "phase", "knocked", "pot",
    "pot_at_play", "talon", "pending", "trick_number",
)
"""Every observation field the encoder writes; the reference layout must hold exactly these."""
SCALED = ("tricks_won", "exchanged", "quartets", "net")
"""Numeric seat fields: ``offset + value / scale`` clipped to [0, 1], scales and offsets from the layout."""

ACTIONS = ("done", "sneak", "join", "pass", "knock", "decline")
CHOICES = {"sneak": ("sneak", "pass"), "join": ("join", "pass"), "knock": ("knock", "decline")}
"""The phases that offer two actions, always both (the reference's ``legal_actions``)."""
RULE_FLAGS = ("dealer_knock", "quartets", "belli_penalty", "session", "random_carry")


def build_spec(game: Mauscheln, *, session: bool, random_carry: bool) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' view of ``game`` (its rules, table size, pack, layouts, trick orders)."""
    rules, pack, layout = game.rules, game.pack(), game.observation
    check_layout(layout, OBS_FIELDS, "mauscheln")
    seat_fields = {f.name: f for f in layout.seats.fields}
    orders = game.trick_orders

    def cards_where(keep) -> np.uint64:
        return np.uint64(sum(1 << i for i, c in enumerate(pack.cards) if keep(c)))

    values = {
        "n": game.num_players, "cards": len(pack), "hand_size": HAND_SIZE, "tricks": TRICKS,
        "pinke": rules.pinke, "max_exchange": rules.max_exchange, "bankroll": rules.bankroll,
        "session_deals": rules.session_deals, "carry_pots": CARRY_POTS,
        "share_pot": int(rules.trick_share is TrickShare.POT),
        "dealer_knock": int(rules.dealer_knock), "quartets": int(rules.quartets),
        "belli_penalty": rules.belli_penalty, "session": int(session), "random_carry": int(random_carry),
        "play_flags": rule_flags(PLAY_RULES), "pot_scale": POT_SCALE * rules.pinke,
        **{f"bid_{b.name.lower()}": b.value for b in Bid},
        **{f"ph_{p.name.lower()}": i for i, p in enumerate(PHASES)},
        "a_play": game.actions.start["play"], "a_discard": game.actions.start["discard"],
        **{f"a_{name}": game.actions.singles[name] for name in ACTIONS},
        **{f"o_{name}": layout.start(name) for name in OBS_FIELDS},
        **{f"sc_{name}": float(seat_fields[name].scale) for name in SCALED},
        **{f"off_{name}": float(seat_fields[name].offset) for name in SCALED},
        "rank": np.array([RANKS.index(rank_of(c)) for c in pack.cards], dtype=np.int64),
        "printed_suit": np.array([suit_of(c) for c in pack.cards], dtype=np.int64),
        "knock_mask": cards_where(lambda c: rank_of(c) in rules.knock_ranks),
        "belli": pack.index.get(BELLI, -1) if rules.belli else -1,
        "trump_ace": np.array([pack.index[card("A" + s)] for s in SUITS], dtype=np.int64),
    }
    values["choices"] = choice_pairs(values, len(PHASES), CHOICES)
    return rule_record(values, tuple(values)), order_tables(orders, pack)
