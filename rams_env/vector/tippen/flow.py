"""Tippen's deal flow for one deal of the batch: the reference's phase functions, compiled.

Each function mirrors the one of the same name in ``rams_env/games/tippen/game.py``,
``privileges.py``, ``bidding.py`` or ``play.py``. Tippen's flow has no cycle (deal, robbing,
bidding, exchange, play, settlement follow each other), so the functions call each other as the
reference's do and return :data:`DECIDE` (a seat must decide) or :data:`DEAL_OVER`. ``r`` is the
deal's record (state.py), ``k`` the rule data record and ``o`` the trick tables of the deal's
trump (spec.py).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector import trickplay
from rams_env.vector.bits import bit, draw, lay_aside, next_order, uniform
from rams_env.vector.kernels import DEAL_OVER, DECIDE
from rams_env.vector.potgame import shove_on
from rams_env.vector.tippen.state import (
    BID_FORCED,
    BID_NONE,
    BID_PASS,
    BID_PLAY,
    BID_PRIVILEGED,
    REASON_ALL_PASSED,
    REASON_LONE,
    REASON_PLAYED,
)

NO_SEAT = -1
CARRY_POTS = 8
"""``random_carry``: the pot starts with 0..7 basic stakes (the reference's ``random_carry``)."""


# ------------------------------------------------------------------ seats and chips
@njit(cache=True)
def set_bid(r, s, bid):
    """Seat ``s`` bids ``bid``; ``active``: it plays this deal's tricks (played, forced or privileged)."""
    r.bids[s] = bid
    r.active[s] = bid in (BID_PLAY, BID_FORCED, BID_PRIVILEGED)


@njit(cache=True)
def pay_in(r, s, amount, rewarded):
    """Seat ``s`` pays into the pot (the reference's ``Ledger.pay_in``); ``rewarded``: part of this step's reward."""
    r.net[s] -= amount
    r.pot += amount
    if rewarded:
        r.reward[s] -= amount


@njit(cache=True)
def take_out(r, s, amount):
    r.net[s] += amount
    r.pot -= amount
    r.reward[s] += amount


@njit(cache=True)
def queue_seats(r, k, first, only_active, only_undecided):
    """The queue := seats clockwise from ``first`` (the reference's ``seats_from``), filtered."""
    r.queue_head, r.queue_len = 0, 0
    for i in range(k.n):
        s = (first + i) % k.n
        if (not only_active or r.active[s]) and (not only_undecided or r.bids[s] == BID_NONE):
            r.queue[r.queue_len] = s
            r.queue_len += 1


@njit(cache=True)
def pop_queue(r):
    """The seat to act has decided: the next of the queue acts; False once it is empty."""
    r.queue_head += 1
    if r.queue_head >= r.queue_len:
        return False
    r.to_act = r.queue[r.queue_head]
    return True


@njit(cache=True)
def talon_size(r, k):
    return k.cards - r.talon_at


# ----------------------------------------------------------------- the deal
@njit(cache=True)
def new_episode(r, k, tables):
    """A session starts: dealer and carried-over pot (queued, drawn, or empty), then a deal.

    The new dealer's ante is part of the new episode's first position, not of a step's reward."""
    r.dealer = r.pending_dealer if r.pending and r.pending_dealer >= 0 else uniform(r, k.n)
    if r.pending and r.pending_pot >= 0:
        r.pot = r.pending_pot
    else:
        r.pot = k.stake * uniform(r, CARRY_POTS) if k.random_carry else 0
    for s in range(k.n):
        r.net[s] = 0
    r.deals_played, r.set_aside = 0, 0
    return start_deal(r, k, tables, False)


@njit(cache=True)
def start_deal(r, k, tables, rewarded):
    """The dealer antes and deals (or, with shoving, decides first whether to deal).

    ``tables``: the trick tables of every trump suit (the deal's trump is known once dealt)."""
    pay_in(r, r.dealer, k.stake, rewarded)
    if k.max_bete:  # play for at most the maximum; the rest waits for later deals
        r.pot += r.set_aside
        r.set_aside = max(r.pot - k.max_bete, 0)
        r.pot -= r.set_aside
    if k.hop_and_jump:
        hop_and_jump(r, k, rewarded)
    for s in range(k.n):
        set_bid(r, s, BID_NONE)
        r.exchanged[s], r.tricks_won[s] = 0, 0
        r.hands[s], r.face_down[s], r.played[s] = 0, 0, 0
    r.upcard_taken_by, r.first_trick_winner, r.privileged = NO_SEAT, NO_SEAT, NO_SEAT
    r.trick_len, r.tricks_played, r.discarded, r.pot_at_play, r.queue_len, r.queue_head = 0, 0, 0, 0, 0, 0
    r.shoves = 0
    if k.shoving:  # the dealer deals, or shoves the deal on, before any card is dealt
        r.phase, r.to_act = k.ph_shove, r.dealer
        return DECIDE
    return deal(r, k, tables)


@njit(cache=True)
def hop_and_jump(r, k, rewarded):
    """While the cut shows an ace or a seven (at most once around) the deal passes on and the new dealer antes.

    A queued deal replays its queued number of hops instead of cutting."""
    hops = 0
    if r.pending and r.pending_hops >= 0:
        hops, r.pending_hops = r.pending_hops, NO_SEAT
    else:
        while hops < k.n - 1 and bit(uniform(r, k.cards)) & (k.ace_mask | k.seven_mask):
            hops += 1
    for _ in range(hops):
        r.dealer = (r.dealer + 1) % k.n
        pay_in(r, r.dealer, k.stake, rewarded)


@njit(cache=True)
def shove_decision(r, k, tables, seat, shove):
    """Shoving: the next player antes too and deals; each may shove once, so a deal happens."""
    if not shove:
        return deal(r, k, tables)
    shove_on(r, k.n, seat)
    pay_in(r, r.dealer, k.stake, True)
    return DECIDE


@njit(cache=True)
def deal(r, k, tables):
    """Hands seat by seat, the trump card, the talon (queued cards, or shuffled)."""
    next_order(r)
    at = 0
    for s in range(k.n):
        at = draw(r, s, at, k.hand_size)
    if k.trump_from_dealer:  # the dealer's last card shows trumps and stays in her hand
        r.trump_card, r.talon_at = r.order[(r.dealer + 1) * k.hand_size - 1], at
    else:
        r.trump_card, r.talon_at = r.order[at], at + 1
    r.trump = tables[0].suit[r.trump_card]
    r.forced = k.forced_with_basic_stake and not k.hop_and_jump and r.pot == k.stake
    if has_privilege(k):
        r.phase, r.to_act = k.ph_dealer, r.dealer
        return DECIDE
    return offer_robbing(r, k, tables[r.trump])


# ---------------------------------------------------------- the dealer's privilege
@njit(cache=True)
def has_privilege(k):
    return k.knock or k.sniff_grupp or k.sniff_alvensleben


@njit(cache=True)
def dealer_decision(r, k, o, seat, use):
    """The dealer knocks or sniffs (taking the trump card, to discard one) or declines."""
    if not use:
        return offer_robbing(r, k, o)
    r.privileged = seat
    set_bid(r, seat, BID_PRIVILEGED)
    r.hands[seat] |= bit(r.trump_card)
    r.upcard_taken_by = seat
    r.phase = k.ph_discard
    return DECIDE


@njit(cache=True)
def taken_unseen(r, k):
    """A knocking or (Grupp) sniffing dealer took the upcard unseen: it is hers alone to know."""
    return r.upcard_taken_by != NO_SEAT and r.upcard_taken_by == r.privileged and (k.knock or k.sniff_grupp)


@njit(cache=True)
def drop_decision(r, k, o, seat, drop):
    if drop:  # "drop out and pay a simple bête i.e. a single stake"
        pay_in(r, seat, k.stake, True)
        set_bid(r, seat, BID_PASS)
        r.privileged = NO_SEAT
    return offer_robbing(r, k, o)


# ---------------------------------------------------------------- robbing
@njit(cache=True)
def trump_seven(k, o):
    return k.seven_mask & o.suit_masks[o.trump]


@njit(cache=True)
def holds_trump_seven(r, k, o, s):
    return (r.hands[s] & trump_seven(k, o)) != 0


@njit(cache=True)
def offer_robbing(r, k, o):
    """Every player is asked in turn from forehand while the upcard (not the trump seven) lies on the table."""
    if k.robbing and r.upcard_taken_by == NO_SEAT and not (bit(r.trump_card) & k.seven_mask):
        queue_seats(r, k, (r.dealer + 1) % k.n, False, False)
        r.phase, r.to_act = k.ph_rob, r.queue[0]
        return DECIDE
    return begin_bidding(r, k, o)


@njit(cache=True)
def rob_decision(r, k, o, seat, rob):
    if not rob:
        return DECIDE if pop_queue(r) else begin_bidding(r, k, o)
    r.queue_len, r.queue_head = 0, 0  # nobody else can hold the trump seven
    r.hands[seat] |= bit(r.trump_card)
    r.upcard_taken_by = seat
    r.phase = k.ph_discard
    return DECIDE


@njit(cache=True)
def discard(r, k, o, seat, card):
    """The knocker, sniffer or robber lays one card face down for the upcard taken."""
    lay_aside(r, seat, card)
    if seat == r.privileged and k.sniff_alvensleben:
        r.phase = k.ph_drop  # play, or drop out paying a simple bête
        return DECIDE
    if seat == r.privileged:
        return offer_robbing(r, k, o)
    return begin_bidding(r, k, o)


# ----------------------------------------------------------------- bidding
@njit(cache=True)
def begin_bidding(r, k, o):
    first = (r.dealer + 1) % k.n
    if r.forced:
        for s in range(k.n):
            if r.bids[s] == BID_NONE:
                set_bid(r, s, BID_FORCED)
        return after_bidding(r, k, o)
    queue_seats(r, k, first, False, True)
    r.phase, r.to_act = k.ph_bid, r.queue[0]
    return DECIDE


@njit(cache=True)
def bid(r, k, o, seat, play_deal):
    """Tap (play this deal) or pass, in turn."""
    set_bid(r, seat, BID_PLAY if play_deal else BID_PASS)
    return DECIDE if pop_queue(r) else after_bidding(r, k, o)


@njit(cache=True)
def after_bidding(r, k, o):
    players, last = 0, NO_SEAT
    for s in range(k.n):
        if r.active[s]:
            players += 1
            last = s
    if players == 0:  # all pass: the next dealer antes too and deals
        return end_deal(r, k, REASON_ALL_PASSED)
    if players == 1:  # a lone player wins the pot
        take_out(r, last, r.pot)
        return end_deal(r, k, REASON_LONE)
    if k.exchange:
        r.phase = k.ph_exchange
        queue_seats(r, k, (r.dealer + 1) % k.n, True, False)
        return next_exchanger(r, k, o)
    return begin_play(r, k)


# ---------------------------------------------------------------- exchange
@njit(cache=True)
def exchange_limit(r, k):
    return min(k.exchange, talon_size(r, k))


@njit(cache=True)
def next_exchanger(r, k, o):
    if r.queue_head < r.queue_len and exchange_limit(r, k) > 0:
        r.to_act, r.discarded = r.queue[r.queue_head], 0
        return DECIDE
    return begin_play(r, k)


@njit(cache=True)
def exchange_discard(r, k, o, seat, card):
    lay_aside(r, seat, card)
    r.discarded += 1
    if r.discarded == exchange_limit(r, k):
        return finish_exchange(r, k, o, seat)
    return DECIDE


@njit(cache=True)
def finish_exchange(r, k, o, seat):
    """The talon replaces as many cards as were discarded; the next player exchanges."""
    r.talon_at = draw(r, seat, r.talon_at, r.discarded)
    r.exchanged[seat] = r.discarded
    r.queue_head += 1
    return next_exchanger(r, k, o)


# -------------------------------------------------------------------- tricks
@njit(cache=True)
def begin_play(r, k):
    r.phase, r.discarded, r.pot_at_play = k.ph_play, 0, r.pot
    r.leader = r.to_act = trickplay.next_to_play(r, k.n, r.dealer)
    return DECIDE


@njit(cache=True)
def play_card(r, k, o, seat, card):
    """The card joins the trick; a complete trick goes to its winner, who leads the next."""
    if trickplay.play_card(r, o, k.n, seat, card) < 0:
        return DECIDE
    if r.tricks_played == 1:
        r.first_trick_winner = r.leader
    if r.tricks_played == k.hand_size:
        return settle(r, k)
    return DECIDE


# ---------------------------------------------------------------- settlement
@njit(cache=True)
def per_trick(k, pot):
    if k.pays_counter or (k.pays_counter_then_third and pot == k.stake):
        return 1
    return pot // 3


@njit(cache=True)
def penalty(r, k, s, bete):
    """What a player pays after play: the bête, or the privileged dealer's own scale."""
    tricks = r.tricks_won[s]
    if s != r.privileged:
        return bete if tricks == 0 else 0
    if k.knock:  # "double stake" with no trick, "single stake" with one
        return k.stake * max(0, 2 - tricks)
    if k.sniff_grupp:  # must take two tricks: single bête for one, double for none
        return bete * max(0, 2 - tricks)
    return 2 * bete if tricks == 0 else 0  # Alvensleben: a sniffer without a trick pays a double bête


@njit(cache=True)
def settle(r, k):
    """Every share is taken out of the pot first, then every bête paid in (the reference's ``settle_tricks``)."""
    pot = r.pot_at_play
    bete = pot if k.bete_pot else k.stake
    for s in range(k.n):
        r.share[s], r.bete[s] = 0, 0
        if r.active[s]:
            r.share[s] = per_trick(k, pot) * r.tricks_won[s]
            r.bete[s] = penalty(r, k, s, bete)
            take_out(r, s, r.share[s])
    for s in range(k.n):
        if r.active[s]:
            pay_in(r, s, r.bete[s], True)
    return end_deal(r, k, REASON_PLAYED)


@njit(cache=True)
def end_deal(r, k, reason):
    r.dealer = (r.dealer + 1) % k.n
    r.settled, r.reason, r.settled_pot, r.settled_set_aside = True, reason, r.pot, r.set_aside
    r.to_act = NO_SEAT
    return DEAL_OVER


@njit(cache=True)
def session_over(r, k):
    return r.deals_played >= k.session_deals

