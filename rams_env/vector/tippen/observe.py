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
from rams_env.vector.tippen.flow import active, active_players, exchange_limit, holds_trump_seven, taken_unseen
from rams_env.vector.tippen.state import BID_PASS
from rams_env.vector.tricks import LEAD_TRUMP, legal_plays


@njit(cache=True)
def encode(r, k, seat, row):
    """Zero ``row`` and write ``seat``'s observation of the deal ``r``."""
    row[:] = 0.0
    n, cards = k.n, k.cards
    deciding = r.phase == k.ph_dealer
    unfaced = deciding or r.phase == k.ph_shove  # no trump until dealt and the dealer's privilege is settled
    if not (deciding and seat == r.dealer and k.knock):  # a knocking dealer decides before looking at the hand
        put_cards(row, k.o_hand, r.hands[seat])
    if not unfaced:
        if k.trump_from_dealer or not taken_unseen(r, k):
            row[k.o_trump_card + r.trump_card] = 1.0
        row[k.o_trump + r.trump] = 1.0
    put_cards(row, k.o_own_discards, r.face_down[seat])
    for i in range(r.trick_len):
        rel = (r.trick_seat[i] - seat + n) % n
        row[k.o_trick + rel * cards + r.trick_card[i]] = 1.0
    playing = r.phase == k.ph_play
    leader = r.trick_seat[0] if r.trick_len else r.leader
    for s in range(n):
        rel = (s - seat + n) % n
        put_cards(row, k.o_played + rel * cards, r.played[s])
        row[k.o_leader + rel] = playing and s == leader
        row[k.o_to_act + rel] = s == r.to_act
        row[k.o_dealer + rel] = s == r.dealer
        row[k.o_playing + rel] = active(r, s)
        row[k.o_passed + rel] = r.bids[s] == BID_PASS
        row[k.o_privileged + rel] = s == r.privileged
        row[k.o_upcard_holder + rel] = s == r.upcard_taken_by
        row[k.o_tricks_won + rel] = r.tricks_won[s] / k.hand_size
        row[k.o_exchanged + rel] = r.exchanged[s] / k.exchange_scale
        row[k.o_net + rel] = max(min(r.net[s] / k.net_scale + 0.5, 1.0), 0.0)
    row[k.o_seat + seat] = 1.0
    row[k.o_phase + r.phase] = 1.0
    row[k.o_forced] = r.forced
    row[k.o_pot] = min(r.pot / k.pot_scale, 1.0)
    row[k.o_pot_at_play] = min(r.pot_at_play / k.pot_scale, 1.0)
    if r.phase != k.ph_shove:
        row[k.o_talon] = (k.cards - r.talon_at) / k.cards
    if r.phase == k.ph_exchange:
        row[k.o_pending] = r.pending / k.exchange_scale
    row[k.o_trick_number + min(r.tricks_played, k.hand_size - 1)] = 1.0


@njit(cache=True)
def legal_mask(r, k, o, row):
    """Zero ``row`` and mark the legal actions of the seat to act in the deal ``r``."""
    row[:] = 0
    seat, phase = r.to_act, r.phase
    if phase == k.ph_play:
        put_cards(row, k.a_play, legal_cards(r, k, o, seat))
    elif phase == k.ph_bid:
        row[k.a_tap] = row[k.a_pass] = 1
    elif phase == k.ph_exchange:
        if r.pending < exchange_limit(r, k):
            put_cards(row, k.a_discard, r.hands[seat])
        row[k.a_done] = 1
    elif phase == k.ph_discard:
        put_cards(row, k.a_discard, r.hands[seat])
    elif phase == k.ph_dealer:
        row[k.a_knock if k.knock else k.a_sniff] = row[k.a_decline] = 1
    elif phase == k.ph_shove:
        row[k.a_deal] = 1
        if r.shoves < k.n - 1:
            row[k.a_shove] = 1
    elif phase == k.ph_drop:
        row[k.a_tap] = row[k.a_drop] = 1
    else:
        row[k.a_decline] = 1
        if holds_trump_seven(r, k, o, seat):
            row[k.a_rob] = 1


@njit(cache=True)
def legal_cards(r, k, o, seat):
    """The cards ``seat`` may play: 1859's first lead (a trump, with three or more players) and trump ace
    to the second trick, else the trick rules (rams_env/vector/tricks.py)."""
    hand, flags = r.hands[seat], k.play_flags
    if r.trick_len == 0 and r.tricks_played == 1 and k.ace_to_second_trick and seat == r.first_trick_winner:
        ace = hand & k.ace_mask & o.suit_masks[o.trump]
        if ace:
            return ace
    if r.trick_len == 0 and r.tricks_played == 0 and k.first_lead_trump and active_players(r, k) >= 3:
        flags |= LEAD_TRUMP
    return legal_plays(o, hand, r.trick_card, r.trick_len, flags)
