"""Fipsen across every variant: random sessions conserve chips and never show hidden cards.

Source: ../shared/seeds/001_f2515c7741548cc2.txt (all sections). The scenarios per variant are in
tests/test_fipsen_<variant>.py: thedinghausen, grossenaspe, prisdorf and mecklenburg (Anseggerfips,
Duttfips); their shared table helpers are in tests/fipsen_helpers.py.
"""

from __future__ import annotations

import numpy as np

import rams_env
from tests import tiers
from tests.conformance import random_playout


@tiers.parametrize("variant", ["thedinghausen", "grossenaspe", "prisdorf", "anseggerfips", "duttfips"],
                   tiers.reference_preset("fipsen"))
def test_sessions_and_hidden_information(variant):
    rng = np.random.default_rng(3)
    for seed in range(10):
        random_playout(rams_env.make("fipsen", variant=variant, episode="session"), seed, rng,
                       check_hidden_every=3)
