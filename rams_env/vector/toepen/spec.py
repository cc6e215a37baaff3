"""Toepen's rule data for the kernels, taken from the reference engine, never restated.

The kernels receive everything that depends on the rules, the table size, the pack or a
layout as one record argument ``k`` (``spec[0][0]``): rule flags from
:class:`ToepenRules`, the action ids from the game's ``ActionLayout`` and every observation
offset from its ``ObservationLayout``; beside it (``spec[1]``) card suits and strengths from the
game's ``TrickOrder`` over ``PIQUET_32`` as trick tables (:mod:`rams_env.vector.tricks`).
Passing them as arguments, not as globals, keeps numba's on-disk cache valid whatever the
rules: the compiled code never bakes in a layout.
"""

from __future__ import annotations

import numpy as np

from rams_env.core.cards import rank_of
from rams_env.games.toepen.game import DIRTY_RANKS, HAND_SIZE, TRICKS, Toepen
from rams_env.games.toepen.observe import MAX_REDRAWS, PHASES
from rams_env.games.toepen.rules import FoldedWinner, KnockTiming
from rams_env.games.toepen.state import Phase, Signal
from rams_env.vector.records import check_layout, choice_pairs, rule_record
from rams_env.vector.tricks import order_tables

KNOCKS_SCALE = 8
"""observe.py divides each seat's knocks by 8 (capped at 1); the cross-check pins this copy."""

OBS_FIELDS = (
    "hand", "own_discards", "revealed", "trick", "played", "leader", "to_act", "tricks_won", "in_play",
    "folded", "out", "lives_lost", "poor", "knocks", "last_knocker", "dealer", "redraws", "claimant",
    "whistled", "stood", "seat", "phase", "trick_number", "stake", "stock",
)
"""Every observation field the encoder writes; the reference layout must hold exactly these."""

ACTIONS = ("knock", "pass", "stay", "fold", "dirty", "keep", "challenge", "accept", "announce", "silent")

RULE_FLAGS = ("any_time", "cannot_win", "dirty_hands", "announcements", "poverty", "play_on", "session",
              "random_carry")

SPEC_FIELDS = (
    "n", "lives", "cards", "hand_size", "tricks", "num_actions", "obs_size", "max_redraws", "max_knocks",
    *RULE_FLAGS,
    *(f"ph_{p.name.lower()}" for p in Phase),
    "sig_whistle", "sig_stand",
    "a_play", *(f"a_{name}" for name in ACTIONS),
    *(f"o_{name}" for name in OBS_FIELDS),
    "precedence", "dirty_mask", "ten_mask", "jack_mask", "choices",
)
CHOICES = {"respond": ("stay", "fold"), "window": ("knock", "pass"), "dirty": ("dirty", "keep"),
           "challenge": ("challenge", "accept")}
"""The phases that offer two actions, always both (the reference's ``legal_actions``)."""


def build_spec(game: Toepen, *, session: bool, random_carry: bool) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' view of ``game``: (its rules, table size, pack and layouts; its trick order as tables)."""
    rules, pack, layout = game.rules, game.pack(), game.observation
    check_layout(layout, OBS_FIELDS, "toepen")

    def cards_where(keep) -> np.uint64:
        return np.uint64(sum(1 << i for i, c in enumerate(pack.cards) if keep(c)))

    values = {
        "n": game.num_players, "lives": rules.lives, "cards": len(pack), "hand_size": HAND_SIZE,
        "tricks": TRICKS, "num_actions": game.actions.size, "obs_size": layout.size,
        "max_redraws": MAX_REDRAWS, "max_knocks": KNOCKS_SCALE,
        "any_time": int(rules.knock_timing is KnockTiming.ANY_TIME),
        "cannot_win": int(rules.folded_winner is FoldedWinner.CANNOT_WIN),
        "dirty_hands": int(rules.dirty_hands), "announcements": int(rules.announcements),
        "poverty": int(rules.poverty), "play_on": int(rules.play_on),
        "session": int(session), "random_carry": int(random_carry),
        **{f"ph_{p.name.lower()}": PHASES.index(p) for p in Phase},
        "sig_whistle": Signal.WHISTLE.value, "sig_stand": Signal.STAND.value,
        "a_play": game.actions.id("play"), **{f"a_{name}": game.actions.singles[name] for name in ACTIONS},
        **{f"o_{name}": layout.start(name) for name in OBS_FIELDS},
        "precedence": np.array(game.precedence, dtype=np.int64),
        "dirty_mask": cards_where(lambda c: rank_of(c) in DIRTY_RANKS),
        "ten_mask": cards_where(lambda c: rank_of(c) == "10"),
        "jack_mask": cards_where(lambda c: rank_of(c) == "J"),
    }
    values["choices"] = choice_pairs(values, len(PHASES), CHOICES)
    return rule_record(values, SPEC_FIELDS), order_tables(game.trick_orders, pack)
