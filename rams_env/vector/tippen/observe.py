"""What a Tippen seat may know, written straight into the batch's observation and mask rows.

Mirrors ``rams_env/games/tippen/observe.py`` field by field (offsets from the reference layout,
carried in the rule data record ``k``) so the vectors are bit-identical; values are computed in
float64 and rounded to float32 once, as numpy does when the reference fills its array. Nothing
hidden is read: other hands and discards and the talon never reach a row; the turned trump card
is public unless a knocking or (Grupp) sniffing dealer took it unseen.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import put_cards
from rams_env.vector.observation import put_marker, put_scaled, write_core
from rams_env.vector.tippen.flow import exchange_limit, holds_trump_seven, taken_unseen
from rams_env.vector.tippen.state import BID_PASS
from rams_env.vector.trickplay import NO_SEAT, current_leader, players
from rams_env.vector.tricks import LEAD_TRUMP, legal_plays

NET_OFFSET = 0.5
"""Net chips are written as 0.5 + net / net_scale (the reference layout's offset)."""


@njit(cache=True)
def encode(r, k, seat, row):
    """Zero ``row`` and write ``seat``'s observation of the deal ``r``."""
    write_core(r, k, seat, row, current_leader(r) if r.phase == k.ph_play else NO_SEAT)
    n = k.n
    deciding = r.phase == k.ph_dealer
    unfaced = deciding or r.phase == k.ph_shove  # no trump until dealt and the dealer's privilege is settled
    if not (deciding and seat == r.dealer and k.knock):  # a knocking dealer decides before looking at the hand
        put_cards(row, k.o_hand, r.hands[seat])
    if not unfaced:
        if k.trump_from_dealer or not taken_unseen(r, k):
            row[k.o_trump_card + r.trump_card] = 1.0
        row[k.o_trump + r.trump] = 1.0
    put_cards(row, k.o_own_discards, r.face_down[seat])
    put_marker(row, k.o_privileged, r.privileged, seat, n)
    put_marker(row, k.o_upcard_holder, r.upcard_taken_by, seat, n)
    for s in range(n):
        rel = (s - seat + n) % n
        row[k.o_playing + rel] = r.active[s]
        row[k.o_passed + rel] = r.bids[s] == BID_PASS
        row[k.o_tricks_won + rel] = r.tricks_won[s] / k.tricks
        row[k.o_exchanged + rel] = r.exchanged[s] / k.exchange_scale
        put_scaled(row, k.o_net + rel, r.net[s], k.net_scale, NET_OFFSET)
    row[k.o_forced] = r.forced
    row[k.o_pot] = min(r.pot / k.pot_scale, 1.0)
    row[k.o_pot_at_play] = min(r.pot_at_play / k.pot_scale, 1.0)
    if r.phase != k.ph_shove:
        row[k.o_talon] = (k.cards - r.talon_at) / k.cards
    if r.phase == k.ph_exchange:
        row[k.o_pending] = r.discarded / k.exchange_scale


@njit(cache=True)
def legal_choices(r, k, t, seat, row):
    """The exchange and discards, shoving, robbing (cards: :func:`legal_cards`; bids, the dealer's privilege,
    dropping out: spec's ``choices``)."""
    phase = r.phase
    if phase == k.ph_exchange:
        if r.discarded < exchange_limit(r, k):
            put_cards(row, k.a_discard, r.hands[seat])
        row[k.a_done] = 1
    elif phase == k.ph_discard:
        put_cards(row, k.a_discard, r.hands[seat])
    elif phase == k.ph_shove:
        row[k.a_deal] = 1
        if r.shoves < k.n - 1:
            row[k.a_shove] = 1
    elif phase == k.ph_rob:
        row[k.a_decline] = 1
        if holds_trump_seven(r, k, t[r.trump], seat):
            row[k.a_rob] = 1


@njit(cache=True)
def legal_cards(r, k, t, seat):
    """The cards ``seat`` may play: 1859's first lead (a trump, with three or more players) and trump ace
    to the second trick, else the trick rules (rams_env/vector/tricks.py)."""
    hand, flags, o = r.hands[seat], k.play_flags, t[r.trump]
    if r.trick_len == 0 and r.tricks_played == 1 and k.ace_to_second_trick and seat == r.first_trick_winner:
        ace = hand & k.ace_mask & o.suit_masks[o.trump]
        if ace:
            return ace
    if r.trick_len == 0 and r.tricks_played == 0 and k.first_lead_trump and players(r, k.n) >= 3:
        flags |= LEAD_TRUMP
    return legal_plays(o, hand, r.trick_card, r.trick_len, flags)
