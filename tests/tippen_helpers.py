"""Scripted Tippen tables shared by tests/test_tippen*.py (scenarios from 000_87480ce3960bd8a6.txt).

A scenario stacks the deal (hands and the turned trump card), starts every bankroll at 0 so the chips a
test reads are exactly the deal's payments, then plays a script of ``seat:label`` moves.
"""

from __future__ import annotations

from tests.scripting import chips, legal, play, pot_table  # noqa: F401  (re-exported for the rule-set files)

MODERN = ["Ah Kh 7c", "Qh 8c 9s", "As Ks Qs", "7d 8d 9d"]  # trump: the turned 10h
HANDS_1905 = ["7c Ah Kh", "8c 9c Qh", "As Ks Qs", "7d 8d 9d"]
H4 = ["7c Ah Kh", "8c 9c Qh", "As Ks Qs", "7d 8d 9h"]  # 1821: the dealer's last card (9h) shows trumps


def table(hands=MODERN, turned="10h", dealer=3, pot=0, stock=None, **rules):
    """An env dealt ``hands`` (seat order) with ``turned`` as the trump upcard (None for 1821 and Loup, where the
    dealer's last card shows trumps); ``rules`` are the game's rule options. player_3 deals by default."""
    return pot_table("tippen", hands, dealer, pot, turned, stock, **rules)
