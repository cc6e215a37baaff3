"""The compiled trick core (rams_env/vector/tricks.py) against the reference TrickOrder.

Every pack and trick order the five games build (each preset, plus Mauscheln's Belli with the
52-card pack and a trump suit of permanent trumps alone) is checked over random tricks under
every combination of play rules and leads: the same legal cards and the same winner.
"""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

pytest.importorskip("numba")

from rams_env.core.cards import MECKLENBURG_25, NATURAL_ORDER, card  # noqa: E402
from rams_env.core.tricks import NO_TRUMP, Lead, PlayRules, TrickOrder  # noqa: E402
from rams_env.registry import GAMES, game_class, make_game  # noqa: E402
from rams_env.vector.tricks import legal_plays, order_tables, rule_flags, winning_index  # noqa: E402

TRICKS_PER_ORDER = int(os.environ.get("RAMS_VECTOR_TRICKS", "150"))
ALL_RULES = [PlayRules(*flags) for flags in itertools.product((False, True), repeat=4)]


def _game_orders():
    """(label, pack, trick orders) of every game and preset, deduplicated by pack and tables."""
    seen: dict = {}
    extra = [("mauscheln", {"belli": True, "large_pack": True})]
    for name in GAMES:
        configs = [(name, {"preset": p}) for p in game_class(name).rules_type.preset_names()]
        for game_name, options in configs + [e for e in extra if e[0] == name]:
            game = make_game(game_name, **options)
            orders = game.trick_orders  # one per trump suit (Toepen: a single order without trumps)
            pack = game.pack()
            key = (pack.cards, tuple((tuple(o.suit), tuple(o.power)) for o in orders))
            label = f"{game_name}-{'-'.join(str(v) for v in options.values())}"
            seen[key] = (f"{seen[key][0]}+{label}", pack, orders) if key in seen else (label, pack, orders)
    out = list(seen.values())
    # "Ruten oewer": the Rutenas as the only trump, a trump suit of its own.
    out.append(("rutenas-alone", MECKLENBURG_25, [TrickOrder(NATURAL_ORDER, NO_TRUMP, [card("Ad")])]))
    return out


ORDERS = _game_orders()


def test_every_game_contributes_orders():
    labels = " ".join(label for label, _, _ in ORDERS)
    assert all(name in labels for name in GAMES)
    assert any(o.top_trumps for _, _, orders in ORDERS for o in orders)  # Belli / Weli are covered


@pytest.mark.parametrize("label,pack,orders", ORDERS, ids=[label for label, _, _ in ORDERS])
def test_legal_plays_and_winner_match_reference(label, pack, orders):
    rng = np.random.default_rng(len(label))
    tables = order_tables(orders, pack)
    flag_sets = [(rules, lead, rule_flags(rules, lead)) for rules in ALL_RULES for lead in Lead]
    checked = 0
    for _ in range(TRICKS_PER_ORDER):
        t = int(rng.integers(len(orders)))
        order, table = orders[t], tables[t]
        shuffled = rng.permutation(len(pack))
        hand_size, trick_size = int(rng.integers(1, 9)), int(rng.integers(0, 8))
        hand_idx, trick_idx = shuffled[:hand_size], shuffled[hand_size:hand_size + trick_size]
        hand = [pack.cards[i] for i in hand_idx]
        trick = [pack.cards[i] for i in trick_idx]
        hand_bits = np.uint64(sum(1 << int(i) for i in hand_idx))
        trick_arr = np.zeros(8, dtype=np.int64)
        trick_arr[:trick_size] = trick_idx
        for rules, lead, flags in flag_sets:
            got = int(legal_plays(table, hand_bits, trick_arr, trick_size, flags))
            want = sum(1 << pack.index[c] for c in order.legal_plays(hand, trick, rules, lead))
            assert got == want, (label, order.describe(), hand, trick, rules, lead)
        if trick_size:
            assert winning_index(table, trick_arr, trick_size) == order.winning_index(trick)
            checked += 1
    assert checked > TRICKS_PER_ORDER // 2


def test_rule_flags_are_distinct():
    assert len({rule_flags(r, lead) for r in ALL_RULES for lead in Lead}) == 2 * len(ALL_RULES)
