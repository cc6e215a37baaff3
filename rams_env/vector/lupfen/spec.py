"""Lupfen's rule data for the kernels, taken from the reference engine, never restated.

As Toepen's (``rams_env/vector/toepen/spec.py``): one record ``k`` with the rule options of
:class:`LupfenRules`, the table size, its ``PLAY_RULES``, the action ids from its
``ActionLayout`` and every observation offset and scale from its ``ObservationLayout``; beside
it ``t``, the game's ``TrickOrder`` for each trump suit over ``LUPFEN_20`` (``t[trump]``, tables
of :mod:`rams_env.vector.tricks`). The compiled code never bakes in a layout.
"""

from __future__ import annotations

import numpy as np

from rams_env.core.cards import LUPFEN_20, rank_of
from rams_env.games.lupfen.game import HAND_SIZE, HEARTS, PLAY_RULES, TRICKS, Lupfen
from rams_env.games.lupfen.observe import PHASES, POT_SCALE
from rams_env.games.lupfen.rules import SessionEnd
from rams_env.games.lupfen.state import Bid
from rams_env.vector.records import check_layout, choice_pairs, rule_record
from rams_env.vector.tricks import order_tables, rule_flags

CARRY_POT_UNIT, CARRY_POT_STEPS = 3, 12
"""``Lupfen.random_carry`` draws the pot as 3 x (0..11) chips; the cross-check pins this copy."""

OBS_FIELDS = (
    "hand", "turned", "trump", "trick", "played", "leader", "to_act", "dealer", "lifter", "passed", "playing",
    "tricks_won", "staender", "looked", "net", "seat", "phase", "force", "blind", "pot", "pot_at_play",
    "trick_number",
)
"""Every observation field the encoder writes; the reference layout must hold exactly these."""

ACTIONS = ("lift", "mit", "pass", "blind", "look", "scrap", "declare", "keep", "deal", "shove")

RULE_FLAGS = ("shoving", "compulsory_hearts", "compulsory_lift", "blind_lift", "three_unters", "scrap", "staender")

SPEC_FIELDS = (
    "n", "cards", "hand_size", "tricks", "ante", "dealer_fee", *RULE_FLAGS, "session", "random_carry",
    "session_deals", "end_when_shared_out", "carry_unit", "carry_steps", "hearts",
    *(f"ph_{p.name.lower()}" for p in PHASES),
    *(f"bid_{b.name.lower()}" for b in Bid),
    "a_play", *(f"a_{name}" for name in ACTIONS),
    *(f"o_{name}" for name in OBS_FIELDS),
    "tricks_scale", "net_scale", "net_offset", "pot_scale",
    "play_flags", "jack_mask", "queen_mask", "ace_mask", "choices",
)


def build_spec(game: Lupfen, *, session: bool, random_carry: bool) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' view of ``game``: (its rules, table size, pack, layouts; its trick orders as tables)."""
    rules, pack, layout = game.rules, LUPFEN_20, game.observation
    check_layout(layout, OBS_FIELDS, "lupfen")
    seat_fields = {f.name: f for f in layout.seats.fields}

    def cards_where(keep) -> np.uint64:
        return np.uint64(sum(1 << i for i, c in enumerate(pack.cards) if keep(c)))

    values = {
        "n": game.num_players, "cards": len(pack), "hand_size": HAND_SIZE, "tricks": TRICKS,
        "ante": rules.ante, "dealer_fee": rules.dealer_fee,
        **{name: int(getattr(rules, name)) for name in RULE_FLAGS},
        "session": int(session), "random_carry": int(random_carry), "session_deals": rules.session_deals,
        "end_when_shared_out": int(rules.session_end is SessionEnd.POT_EMPTY),
        "carry_unit": CARRY_POT_UNIT, "carry_steps": CARRY_POT_STEPS, "hearts": HEARTS,
        **{f"ph_{p.name.lower()}": PHASES.index(p) for p in PHASES},
        **{f"bid_{b.name.lower()}": b.value for b in Bid},
        "a_play": game.actions.id("play"), **{f"a_{name}": game.ids[name] for name in ACTIONS},
        **{f"o_{name}": layout.start(name) for name in OBS_FIELDS},
        "tricks_scale": seat_fields["tricks_won"].scale, "net_scale": seat_fields["net"].scale,
        "net_offset": seat_fields["net"].offset, "pot_scale": POT_SCALE,
        "play_flags": rule_flags(PLAY_RULES),
        "jack_mask": cards_where(lambda c: rank_of(c) == "J"),
        "queen_mask": cards_where(lambda c: rank_of(c) == "Q"),
        "ace_mask": cards_where(lambda c: rank_of(c) == "A"),
    }
    values["choices"] = choice_pairs(values, len(PHASES), {})  # every phase's choices depend on the hand or rules
    return rule_record(values, SPEC_FIELDS), order_tables(game.trick_orders, pack)
