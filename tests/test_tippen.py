"""Tippen across rule sets: legal plays per rule set, variation combinations, invalid rules named.

Source: ../shared/seeds/000_87480ce3960bd8a6.txt, sections "Rules" (Drei Karten 1821, Dreiblatt 1859,
Tippen 1905, late 20th century) and their "Variations". The scenarios per rule set are in
tests/test_tippen_modern.py, _1905.py, _1859.py and _1821_loup.py; their shared table helpers are in
tests/tippen_helpers.py.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import rams_env
from tests import tiers
from tests.conformance import random_playout
from tests.tippen_helpers import H4, legal, play, table


@pytest.mark.parametrize("ruleset", ["modern", "alvensleben_1859", "meyers_1905"])
@tiers.parametrize(("dealer_option", "robbing", "shoving", "hop"),
                   list(itertools.product(["none", "knock", "sniff_grupp", "sniff_alvensleben"],
                                          [False, True], [False, True], [False, True])),
                   lambda dealer_option, *flags: tiers.all_or_none(*flags))
def test_variation_combinations_play_and_conserve(ruleset, dealer_option, robbing, shoving, hop):
    env = rams_env.make("tippen", 4, ruleset=ruleset, dealer_option=dealer_option, robbing=robbing,
                        shoving=shoving, hop_and_jump=hop, random_carry=True)
    rng = np.random.default_rng(5)
    for seed in range(6):
        random_playout(env, seed, rng, check_hidden_every=2)


@pytest.mark.parametrize(("options", "named"), [
    ({"hand_size": 4}, "hand_size"), ({"bete": "all"}, "bete"), ({"ruleset": "1700"}, "1700"),
    ({"trump_from": "dealer_last", "dealer_option": "knock"}, "dealer"),
])
def test_invalid_rules_are_named(options, named):
    with pytest.raises(ValueError, match=named):
        rams_env.make("tippen", 4, **options)


# ======================================= legal plays per rule set, table-driven
H1 = ["7c Ah Kh", "8c 9c Qh", "As Ks Qs", "7d 8d 9d"]
H2 = ["7c 8c 9c", "Ah Kh Qh", "As Ks Qs", "7d 8d 9d"]
H3 = ["7c 8c 9c", "Ah Ks Qs", "Kh As Js", "7d 8d 9d"]


LEGAL_CASES = [
    # (rule set, hands, turned, moves, legal for the player to act)
    ("meyers_1905", H1, "10h", "0:7c", "8c 9c"),  # follow; no duty to head
    ("meyers_1905", H1, "10h", "0:Ah", "Qh"),  # follow trumps
    ("meyers_1905", H1, "10h", "0:7c 1:8c 2:Qs", "7d 8d 9d"),  # void, no trump: any card
    ("meyers_1905", H2, "10h", "0:7c", "Ah Kh Qh"),  # void: must trump, any trump
    ("meyers_1905", H2, "10h", "0:7c 1:Qh", "As Ks Qs"),  # void, no trump, trick trumped: any card
    ("alvensleben_1859", H3, "10h", "", "7c 8c 9c"),  # no trump to lead: any card
    ("alvensleben_1859", H3, "10h", "0:7c", "Ah Ks Qs"),  # void: trump or discard at will
    ("alvensleben_1859", H3, "10h", "0:7c 1:Ah", "As Js Kh"),  # trumped trick: overtrump, discard, or under
    ("alvensleben_1859", H1, "10h", "", "Ah Kh"),  # three or more active: lead a trump
    ("drei_karten_1821", H4, None, "", "7c Ah Kh"),  # no duty to lead a trump
    ("drei_karten_1821", H4, None, "0:7c", "8c 9c"),
    ("drei_karten_1821", H4, None, "0:Ah", "Qh"),
    ("drei_karten_1821", H4, None, "0:Ah 1:Qh 2:As", "9h"),  # the dealer follows with the trump card shown
    ("drei_karten_1821", H4, None, "0:7c 1:8c 2:As", "7d 8d 9h"),  # void: may trump or discard
    ("modern", H2, "10h", "0:tap 1:tap 2:pass 3:pass 0:done 1:done 0:7c", "Ah Kh Qh"),
    ("modern", H3, "10h", "0:tap 1:tap 2:tap 3:pass 0:done 1:done 2:done 0:7c 1:Ah", "Kh"),  # void: trump
]


@pytest.mark.parametrize(("ruleset", "hands", "turned", "moves", "expected"), LEGAL_CASES)
def test_legal_plays_per_rule_set(ruleset, hands, turned, moves, expected):
    env, raw = table(hands=hands, turned=turned, ruleset=ruleset)
    if moves:
        play(env, moves)
    assert legal(raw) == sorted(expected.split())
