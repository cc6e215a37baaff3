"""Tippen's rule data for the kernels, taken from the reference engine, never restated.

As for Toepen (``rams_env/vector/toepen/spec.py``): one record ``k`` carries the rule flags of
:class:`TippenRules`, the play obligations (the reference's ``PlayRules`` for the rule set's
play mode), card suits and strengths from its ``TrickOrder``, the action ids from its
``ActionLayout`` and every observation offset from its ``ObservationLayout``.

Every rule set is batched; :func:`check_supported` stays the one place that would refuse a
rule the kernels do not play (a new option of the reference), naming the presets that are.
"""

from __future__ import annotations

import numpy as np

from rams_env.core.cards import rank_of
from rams_env.core.rules import RulesError
from rams_env.games.tippen.game import Tippen
from rams_env.games.tippen.observe import PHASES, POT_SCALE
from rams_env.games.tippen.rules import Bete, DealerOption, TippenRules, TrickPays, TrumpFrom
from rams_env.games.tippen.state import Bid, Phase
from rams_env.vector.records import check_layout, choice_pairs, rule_record
from rams_env.vector.tippen.state import BID_FORCED, BID_NONE, BID_PASS, BID_PLAY, BID_PRIVILEGED
from rams_env.vector.tricks import order_tables, rule_flags

DEALER_OPTIONS = (DealerOption.KNOCK, DealerOption.SNIFF_GRUPP, DealerOption.SNIFF_ALVENSLEBEN)
"""The dealer's privileges, one rule flag each (named by the option's value)."""

OBS_FIELDS = (
    "hand", "trump_card", "trump", "own_discards", "trick", "played", "leader", "to_act", "dealer", "playing",
    "passed", "privileged", "upcard_holder", "tricks_won", "exchanged", "net", "seat", "phase", "forced", "pot",
    "pot_at_play", "talon", "pending", "trick_number",
)
"""Every observation field the encoder writes; the reference layout must hold exactly these."""

ACTIONS = ("done", "tap", "pass", "decline", "rob", "knock", "sniff", "drop", "deal", "shove")
PHASE_NAMES = ("shove", "dealer", "drop", "rob", "discard", "bid", "exchange", "play")
EXCHANGE_SCALE = 3
"""observe.py divides cards exchanged (and pending) by 3; the cross-check pins this copy."""

UNSUPPORTED: dict[str, object] = {}
"""Rules the batched engine does not play yet, with the one value it does (none left)."""

RULE_FLAGS = ("exchange", "max_bete", "trump_from_dealer", "knock", "sniff_grupp", "sniff_alvensleben",
              "shoving", "hop_and_jump",
              "forced_with_basic_stake", "robbing", "first_lead_trump", "ace_to_second_trick",
              "bete_pot", "pays_counter", "pays_counter_then_third", "session", "random_carry", "session_deals")

SPEC_FIELDS = (
    "n", "cards", "hand_size", "tricks", "stake", "num_actions", "obs_size", "pot_scale", "net_scale", "exchange_scale",
    *RULE_FLAGS,
    *(f"ph_{name}" for name in PHASE_NAMES),
    "a_play", "a_discard", *(f"a_{name}" for name in ACTIONS),
    *(f"o_{name}" for name in OBS_FIELDS),
    "seven_mask", "ace_mask", "play_flags", "choices",
)


def supported_presets() -> list[str]:
    return [name for name in TippenRules.preset_names() if _unsupported(TippenRules.build(name)) is None]


def _unsupported(rules: TippenRules) -> str | None:
    for name, value in UNSUPPORTED.items():
        if getattr(rules, name) != value:
            return f"{name}={getattr(rules, name)!r}"
    return None


def check_supported(rules: TippenRules) -> None:
    """Refuse, with what is supported, rules the kernels do not play yet."""
    what = _unsupported(rules)
    if what is not None:
        raise RulesError(f"the batched Tippen engine does not play {what} yet; batched presets: "
                         f"{', '.join(supported_presets())} (any options that keep "
                         f"{', '.join(f'{k}={v!r}' for k, v in UNSUPPORTED.items())})")


def build_spec(game: Tippen, *, session: bool, random_carry: bool) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' view of ``game``: (its rules, table size and layouts as one record, the trick tables
    of its ``TrickOrder`` per trump suit, indexed by the deal's trump)."""
    rules, pack, layout = game.rules, game.pack(), game.observation
    check_supported(rules)
    check_layout(layout, OBS_FIELDS, "tippen")
    if [b.value for b in Bid] != [BID_NONE, BID_PASS, BID_PLAY, BID_FORCED, BID_PRIVILEGED]:
        raise NotImplementedError("rams_env.games.tippen.state.Bid changed: update rams_env/vector/tippen/state.py")
    def cards_where(keep) -> np.uint64:
        return np.uint64(sum(1 << i for i, c in enumerate(pack.cards) if keep(c)))

    values = {
        "n": game.num_players, "cards": len(pack), "hand_size": rules.hand_size, "tricks": rules.hand_size,
        "stake": rules.stake,
        "num_actions": game.actions.size, "obs_size": layout.size, "pot_scale": POT_SCALE * rules.stake,
        "net_scale": 2 * POT_SCALE * rules.stake, "exchange_scale": EXCHANGE_SCALE,
        "exchange": rules.exchange, "max_bete": rules.max_bete, "shoving": int(rules.shoving),
        "hop_and_jump": int(rules.hop_and_jump),
        "trump_from_dealer": int(rules.trump_from is TrumpFrom.DEALER_LAST),
        **{option.value: int(rules.dealer_option is option) for option in DEALER_OPTIONS},
        "forced_with_basic_stake": int(rules.forced_with_basic_stake),
        "robbing": int(rules.robbing), "first_lead_trump": int(rules.first_lead_trump),
        "ace_to_second_trick": int(rules.ace_to_second_trick), "bete_pot": int(rules.bete is Bete.POT),
        "pays_counter": int(rules.trick_pays is TrickPays.COUNTER),
        "pays_counter_then_third": int(rules.trick_pays is TrickPays.COUNTER_THEN_THIRD),
        "session": int(session), "random_carry": int(random_carry),
        "session_deals": rules.session_deals,
        **{f"ph_{name}": PHASES.index(Phase(name)) for name in PHASE_NAMES},
        "a_play": game.actions.start["play"], "a_discard": game.actions.start["discard"],
        **{f"a_{name}": game.ids[name] for name in ACTIONS},
        **{f"o_{name}": layout.start(name) for name in OBS_FIELDS},
        "play_flags": rule_flags(game.play_rules),
        "seven_mask": cards_where(lambda c: rank_of(c) == "7"),
        "ace_mask": cards_where(lambda c: rank_of(c) == "A"),
    }
    privilege = "knock" if values["knock"] else "sniff"
    choices = {"bid": ("tap", "pass"), "drop": ("tap", "drop"), "dealer": (privilege, "decline")}
    values["choices"] = choice_pairs(values, len(PHASES), choices)  # the phases that always offer two actions
    return rule_record(values, SPEC_FIELDS), order_tables(game.trick_orders, pack)
