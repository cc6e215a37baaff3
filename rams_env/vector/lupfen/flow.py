"""Lupfen's deal flow for one deal of the batch: the reference's methods, compiled.

Each function mirrors the method of the same name in ``rams_env/games/lupfen/game.py``
(without its leading underscore). The reference's calls never loop back (a scrap deals again,
and the new deal cannot scrap before a seat decides), so these call each other directly and
return DECIDE (a seat must decide: ``r.to_act``) or DEAL_OVER (the deal is settled). ``r`` is
the deal's record (state.py), ``k`` the rule data record and ``t`` the trick tables by trump suit (spec.py).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector import bits
from rams_env.vector.bits import MAIN, count, draw, next_order, uniform
from rams_env.vector.kernels import DEAL_OVER, DECIDE
from rams_env.vector.lupfen.state import LIFTER_ALONE, NOBODY_LIFTED, THREE_UNTERS
from rams_env.vector.potgame import shove_on, transfer
from rams_env.vector.trickplay import next_to_play

NO_SEAT = -1


# ------------------------------------------------------------------ chips
@njit(cache=True)
def pay_in(r, seat, amount):
    """``seat`` pays into the pot out of its ``net`` chips (negative: takes out), the pot games' ledger."""
    transfer(r, r.net, seat, amount)


@njit(cache=True)
def set_bid(r, k, s, bid):
    """Seat ``s`` bids ``bid``; ``active``: it plays this deal (lifted, joined, or a force round)."""
    r.bids[s] = bid
    r.active[s] = bid == k.bid_lift or bid == k.bid_join or bid == k.bid_forced


# -------------------------------------------------------------- session / deal
@njit(cache=True)
def new_episode(r, k, t):
    """A session starts: dealer and carried-over pot (queued, drawn, or empty), then its first deal."""
    queued = r.pending_start
    r.pending_start = False
    r.dealer = r.pending_dealer if queued and r.pending_dealer >= 0 else uniform(r, k.n)
    if queued and r.pending_pot >= 0:
        r.pot = r.pending_pot
    else:
        r.pot = k.carry_unit * uniform(r, k.carry_steps) if k.random_carry else 0
    for s in range(k.n):
        r.net[s] = 0
        r.paid[s] = 0
    r.deals_played = 0
    return start_deal(r, k, t)


@njit(cache=True)
def start_deal(r, k, t):
    for s in range(k.n):
        r.paid_in[s] = 0
        r.deal_start[s] = r.net[s]
    r.shoves, r.redeals = 0, 0
    r.force = r.pot == 0
    if k.dealer_fee:
        pay_in(r, r.dealer, k.dealer_fee)
    if k.shoving:
        clear_deal(r, k)
        for s in range(k.n):
            r.hands[s] = 0
        r.stock_at = 0  # not dealt yet
        r.phase, r.to_act = k.ph_shove, r.dealer
        return DECIDE
    return deal(r, k, t)


@njit(cache=True)
def session_over(r, k):
    if r.deals_played >= k.session_deals:
        return True
    return k.end_when_shared_out and r.shared_out


@njit(cache=True)
def clear_deal(r, k):
    for s in range(k.n):
        set_bid(r, k, s, k.bid_none)
        r.looked[s] = not k.blind_lift
        r.staender[s] = 0
        r.tricks_won[s] = 0
        r.played[s] = 0
    r.trump, r.turned, r.lifter, r.blind = -1, -1, NO_SEAT, 0
    bits.q_clear(r, MAIN)
    r.trick_len, r.tricks_played = 0, 0
    r.pot_at_play, r.shared_out = 0, False


@njit(cache=True)
def deal(r, k, t):
    """Three cards each (the queued order or a shuffle); a force round antes, turns the trump and starts play."""
    clear_deal(r, k)
    next_order(r)
    at = 0
    for s in range(k.n):
        r.hands[s] = 0
        at = draw(r, s, at, k.hand_size)
        if k.staender:
            r.staender[s] = flush(t[0], r.hands[s])
    r.stock_at = at
    if r.force:
        return begin_force(r, k, t)
    r.phase = k.ph_lift
    queue_seats(r, k, r.dealer + 1, False)
    r.to_act = bits.q_front(r, MAIN)
    return DECIDE


@njit(cache=True)
def flush(o, hand):
    """A Ständer: three cards of one suit (printed suits: Lupfen has no permanent trumps)."""
    masks = o.suit_masks
    for s in range(masks.shape[0]):
        if hand & masks[s] == hand:
            return 1
    return 0


@njit(cache=True)
def queue_seats(r, k, first, active_only):
    """The main queue := the seats clockwise from ``first`` (those who play this deal, if ``active_only``)."""
    bits.q_clear(r, MAIN)
    for i in range(k.n):
        s = (first + i) % k.n
        if not active_only or r.active[s]:
            bits.q_push(r, MAIN, s)


@njit(cache=True)
def begin_force(r, k, t):
    if r.redeals == 0:
        for s in range(k.n):
            pay_in(r, s, k.ante)
    for s in range(k.n):
        set_bid(r, k, s, k.bid_forced)
        r.looked[s] = 1  # nothing to lift blind in a force round
    turn_trump(r, t)
    return declare_or_continue(r, k)


@njit(cache=True)
def turn_trump(r, t):
    r.turned = r.order[r.stock_at]
    r.trump = t[0].suit[r.turned]


# ----------------------------------------------------------- shoving, Lupfen round
@njit(cache=True)
def shove_decision(r, k, t, seat, shove):
    """The fee stays in the pot and the next player deals, paying a fee too (once per player and deal)."""
    if not shove:
        return deal(r, k, t)
    shove_on(r, k.n, seat)
    pay_in(r, r.dealer, k.dealer_fee)
    r.force = r.pot == 0
    return DECIDE


@njit(cache=True)
def look(r, seat):
    r.looked[seat] = 1
    return DECIDE


@njit(cache=True)
def lift(r, k, t, seat, blind):
    set_bid(r, k, seat, k.bid_lift)
    r.lifter, r.blind = seat, blind
    r.looked[seat] = 1
    bits.q_pop(r, MAIN)
    turn_trump(r, t)
    r.phase = k.ph_join
    return next_decider(r, k)


@njit(cache=True)
def lift_pass(r, k, seat):
    set_bid(r, k, seat, k.bid_pass)
    if bits.pass_on(r, MAIN):
        return DECIDE
    return end_deal(r, k, NOBODY_LIFTED)  # thrown in, the pot stays


@njit(cache=True)
def join_decision(r, k, seat, join):
    set_bid(r, k, seat, k.bid_join if join else k.bid_pass)
    bits.q_pop(r, MAIN)
    return next_decider(r, k)


@njit(cache=True)
def next_decider(r, k):
    if not bits.q_empty(r, MAIN):
        r.to_act = bits.q_front(r, MAIN)
        r.looked[r.to_act] = 1  # the lift is on the table: everybody looks now
        return DECIDE
    for s in range(k.n):
        if r.bids[s] == k.bid_join:
            return declare_or_continue(r, k)
    pay_in(r, r.lifter, -r.pot)  # nobody plays: the lifter wins the pot
    return end_deal(r, k, LIFTER_ALONE)


# ------------------------------------------------------ special combinations
@njit(cache=True)
def three_unters_holder(r, k):
    if k.three_unters:
        for s in range(k.n):
            if r.active[s] and count(r.hands[s] & k.jack_mask) == k.hand_size:
                return s
    return NO_SEAT


@njit(cache=True)
def scrap_hand(r, k, s):
    """Two Unters and an Ober: the weakest hand ("Scrap")."""
    hand = r.hands[s]
    return count(hand & k.jack_mask) == 2 and count(hand & k.queen_mask) == 1 and count(hand) == k.hand_size


@njit(cache=True)
def declare_or_continue(r, k):
    """Three Unters are declared once the game is on (the holder's only action), else scrap or play."""
    holder = three_unters_holder(r, k)
    if holder != NO_SEAT:
        r.phase, r.to_act = k.ph_declare, holder
        return DECIDE
    return begin_scrap_or_play(r, k)


@njit(cache=True)
def three_unters_win(r, k, holder):
    """The holder takes the pot; every other player in the game pays the pot."""
    pot = r.pot
    pay_in(r, holder, -pot)
    for s in range(k.n):
        if s != holder and r.active[s]:
            pay_in(r, s, pot)
    r.three_unters = holder
    return end_deal(r, k, THREE_UNTERS)


@njit(cache=True)
def begin_scrap_or_play(r, k):
    """Every player in the game is asked in turn (rams_env/core/private_choice.py), so being asked tells nothing."""
    if k.scrap:
        queue_seats(r, k, r.dealer + 1, True)
        if not bits.q_empty(r, MAIN):
            r.phase, r.to_act = k.ph_scrap, bits.q_front(r, MAIN)
            return DECIDE
    return begin_play(r, k)


@njit(cache=True)
def scrap_decision(r, k, t, scrap):
    if scrap:  # the deal starts again: same dealer, no payment
        r.redeals += 1
        return deal(r, k, t)
    return DECIDE if bits.pass_on(r, MAIN) else begin_play(r, k)


@njit(cache=True)
def begin_play(r, k):
    r.phase = k.ph_play
    r.pot_at_play = r.pot
    r.leader = r.to_act = next_to_play(r, k.n, r.dealer)
    return DECIDE


@njit(cache=True)
def end_deal(r, k, reason):
    r.settled, r.reason, r.result_pot = True, reason, r.pot
    if reason != THREE_UNTERS:
        r.three_unters = NO_SEAT
    for s in range(k.n):
        r.result[s] = r.net[s] - r.deal_start[s]
    r.shared_out = not r.force and r.pot == 0
    r.dealer = (r.dealer + 1) % k.n
    r.to_act = NO_SEAT
    bits.q_clear(r, MAIN)
    return DEAL_OVER
