"""Mauscheln's deal for one deal of the batch: the reference's phase functions, compiled.

Each function mirrors the one of the same name in ``rams_env/games/mauscheln/game.py`` (without
the leading underscore). Mauscheln's phases follow each other without a cycle (knock -> sneak ->
join -> exchange -> tricks -> settlement), so, unlike Toepen's, they call each other as the
reference's do; every move returns DECIDE (a seat must decide) or DEAL_OVER. ``r`` is the deal's
record (state.py), ``k`` the rule data record and ``t`` the trick tables by trump suit (spec.py).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector import bits, potgame
from rams_env.vector.bits import MAIN, ONE, bit, count, draw, lay_aside, lowest, next_order, uniform
from rams_env.vector.kernels import DEAL_OVER, DECIDE
from rams_env.vector.mauscheln.state import ALL_PASSED, PLAYED, THROWN_IN
from rams_env.vector.trickplay import NO_SEAT, clear_tricks, play_card, players


# ------------------------------------------------------------ session and deal
@njit(cache=True)
def new_episode(r, k, t):
    """A session starts: dealer and carried-over chips (queued, drawn, or the rules' bankroll), then a deal."""
    r.dealer = r.pending_dealer if r.pending and r.pending_dealer >= 0 else uniform(r, k.n)
    random_pot = k.pinke * uniform(r, k.carry_pots) if k.random_carry else 0
    potgame.start_session(r, k.n, k.bankroll, random_pot)
    return start_deal(r, k, t)


@njit(cache=True)
def session_over(r, k):
    return r.deals_played >= k.session_deals


@njit(cache=True)
def start_deal(r, k, t):
    """The dealer pays the Pinke and deals four cards each around a turned trump ("Dealing"); ``t`` unused."""
    n = k.n
    for s in range(n):
        set_bid(r, k, s, k.bid_none)
        r.quartets[s] = 0
        r.exchanged[s] = 0
        r.face_down[s] = 0
        r.hands[s] = 0
        r.paid_in[s] = 0
    clear_tricks(r, n)
    r.sneaker, r.knocked, r.turn_up_taken, r.discarded, r.belli_lost_by = NO_SEAT, 0, 0, 0, NO_SEAT
    bits.q_clear(r, MAIN)
    potgame.pay_in(r, r.dealer, k.pinke)
    next_order(r)
    at = 0
    for s in range(n):
        at = draw(r, s, at, k.hand_size)
    r.turned, r.talon_at = r.order[at], at + 1
    r.trump = k.printed_suit[r.turned]
    potgame.update_scores(r, n)  # before the quartets, as the reference: their Pinkes count from the next move
    if k.quartets:
        redeal_quartets(r, k)
    if k.dealer_knock and k.knock_mask & bit(r.turned):
        r.phase, r.to_act = k.ph_knock, r.dealer
        return DECIDE
    return begin_sneaking(r, k)


@njit(cache=True)
def set_bid(r, k, seat, bid):
    r.bids[seat] = bid
    r.active[seat] = bid == k.bid_sneak or bid == k.bid_join


@njit(cache=True)
def talon_size(r, k):
    return k.cards - r.talon_at


@njit(cache=True)
def take_talon(r, k, seat, cards):
    """``cards`` from the top of the talon into ``seat``'s hand."""
    r.talon_at = draw(r, seat, r.talon_at, cards)


@njit(cache=True)
def is_quartet(hand, k):
    if count(hand) != k.hand_size:
        return False
    rank = k.rank[lowest(hand)]
    rest = hand
    while rest:
        if k.rank[lowest(rest)] != rank:
            return False
        rest &= rest - ONE
    return True


@njit(cache=True)
def redeal_quartets(r, k):
    """Four of a kind goes on the bonfire; the holder pays the Pinke and gets a new hand ("Quartets")."""
    for i in range(k.n):
        seat = (r.dealer + 1 + i) % k.n
        while is_quartet(r.hands[seat], k) and talon_size(r, k) >= k.hand_size:
            r.face_down[seat] |= r.hands[seat]
            potgame.pay_in(r, seat, k.pinke)
            r.hands[seat] = 0
            take_talon(r, k, seat, k.hand_size)
            r.quartets[seat] += 1


# ----------------------------------------------------------- knock, sneak, join
@njit(cache=True)
def dealer_decision(r, k, knock):
    if not knock:
        return begin_sneaking(r, k)
    r.knocked, r.sneaker = 1, r.dealer
    set_bid(r, k, r.dealer, k.bid_sneak)
    return begin_joining(r, k)


@njit(cache=True)
def queue_seats(r, k, first, skip):
    """The queue := every seat clockwise from ``first`` except ``skip`` (the reference's ``seats_from``)."""
    bits.q_clear(r, MAIN)
    for i in range(k.n):
        s = (first + i) % k.n
        if s != skip:
            bits.q_push(r, MAIN, s)
    r.to_act = bits.q_front(r, MAIN)


@njit(cache=True)
def begin_sneaking(r, k):
    r.phase = k.ph_sneak
    queue_seats(r, k, r.dealer + 1, NO_SEAT)
    return DECIDE


@njit(cache=True)
def sneak_decision(r, k, seat, sneak):
    bits.q_pop(r, MAIN)
    set_bid(r, k, seat, k.bid_sneak if sneak else k.bid_pass)
    if sneak:
        r.sneaker = seat
        return begin_joining(r, k)
    if not bits.q_empty(r, MAIN):
        r.to_act = bits.q_front(r, MAIN)
        return DECIDE
    return end_deal(r, k, THROWN_IN)  # nobody sneaks: the cards are thrown in and the next player deals


@njit(cache=True)
def begin_joining(r, k):
    r.phase = k.ph_join
    queue_seats(r, k, r.sneaker + 1, r.sneaker)
    return DECIDE


@njit(cache=True)
def join_decision(r, k, seat, join):
    set_bid(r, k, seat, k.bid_join if join else k.bid_pass)
    if bits.pass_on(r, MAIN):
        return DECIDE
    for s in range(k.n):
        if r.bids[s] == k.bid_join:
            return begin_exchange(r, k)
    potgame.take_out(r, r.sneaker, r.pot)  # all fold: the sneaker takes the pot
    return end_deal(r, k, ALL_PASSED)


# ------------------------------------------------------------------ exchange
@njit(cache=True)
def takes_turn_up(r, seat):
    return r.knocked and seat == r.dealer


@njit(cache=True)
def exchange_limit(r, k, seat):
    """Up to four cards, as far as the talon lasts (a knocking dealer also gets the turn-up)."""
    return min(k.max_exchange, talon_size(r, k) + (1 if takes_turn_up(r, seat) else 0))


@njit(cache=True)
def minimum_discards(r, seat):
    return 1 if takes_turn_up(r, seat) else 0


@njit(cache=True)
def begin_exchange(r, k):
    """Active players in turn from forehand; a knocking dealer first ("Knocking")."""
    bits.q_clear(r, MAIN)
    if r.knocked:
        bits.q_push(r, MAIN, r.dealer)
    for i in range(k.n):
        s = (r.dealer + 1 + i) % k.n
        if r.active[s] and not (r.knocked and s == r.dealer):
            bits.q_push(r, MAIN, s)
    r.phase = k.ph_exchange
    return next_exchanger(r, k)


@njit(cache=True)
def next_exchanger(r, k):
    while not bits.q_empty(r, MAIN) and exchange_limit(r, k, bits.q_front(r, MAIN)) == 0:
        bits.q_pop(r, MAIN)
    if not bits.q_empty(r, MAIN):
        r.to_act, r.discarded = bits.q_front(r, MAIN), 0
        return DECIDE
    return begin_play(r, k)


@njit(cache=True)
def discard(r, k, seat, card):
    lay_aside(r, seat, card)
    r.discarded += 1
    if r.discarded == exchange_limit(r, k, seat):
        return finish_exchange(r, k, seat)
    return DECIDE


@njit(cache=True)
def finish_exchange(r, k, seat):
    cards = r.discarded
    if takes_turn_up(r, seat):
        r.hands[seat] |= bit(r.turned)
        r.turn_up_taken = 1
        cards -= 1
    take_talon(r, k, seat, cards)
    r.exchanged[seat] = r.discarded
    bits.q_pop(r, MAIN)
    return next_exchanger(r, k)


# -------------------------------------------------------------------- tricks
@njit(cache=True)
def begin_play(r, k):
    r.phase, r.leader = k.ph_play, r.sneaker
    r.pot_at_play = r.pot
    r.to_act = r.sneaker
    return DECIDE


@njit(cache=True)
def play(r, k, t, seat, card):
    """A card to the trick; a Belli falling to the trump ace costs its holder ("Belli")."""
    best = play_card(r, t[r.trump], k.n, seat, card)
    if best < 0:
        return DECIDE
    if k.belli_penalty and r.trick_card[best] == k.trump_ace[r.trump]:
        for i in range(players(r, k.n)):
            if r.trick_card[i] == k.belli:
                r.belli_lost_by = r.trick_seat[i]
    if r.tricks_played == k.tricks:
        return settle(r, k)
    return DECIDE


@njit(cache=True)
def settle(r, k):
    """Shares per trick out of the pot, then bêtes into it ("Scoring")."""
    pot = r.pot_at_play
    per_trick = (pot if k.share_pot else k.pinke) // k.tricks
    potgame.clear_results(r, k.n)
    for s in range(k.n):
        if r.active[s]:
            r.shares[s] = per_trick * r.tricks_won[s]
            r.betes[s] = bete(r, s, pot)
    potgame.settle_tricks(r, k.n)
    if r.belli_lost_by != NO_SEAT:
        potgame.pay_in(r, r.belli_lost_by, k.belli_penalty)
    return end_deal(r, k, PLAYED)


@njit(cache=True)
def bete(r, seat, pot):
    """Joiner without a trick: the pot; sneaker with one trick: the pot; with none: double."""
    tricks = r.tricks_won[seat]
    if seat == r.sneaker:
        return 2 * pot if tricks == 0 else pot if tricks == 1 else 0
    return pot if tricks == 0 else 0


@njit(cache=True)
def end_deal(r, k, reason):
    r.settled, r.reason, r.result_pot = True, reason, r.pot
    potgame.keep_results(r, k.n)
    r.dealer = (r.dealer + 1) % k.n  # "the next player ... deals"
    r.to_act = NO_SEAT
    bits.q_clear(r, MAIN)
    return DEAL_OVER
