"""Toepen's deal flow for one deal of the batch: the reference's phase functions, compiled.

Each function mirrors the one of the same name in ``rams_env/games/toepen/openings.py`` or
``play.py`` and, as the reference's, calls the next phase directly, up to a decision (DECIDE)
or the end of the deal (DEAL_OVER). One edge of the reference's calls closes a cycle (a trick
over -> the next trick -> its window -> ... -> a trick over); numba cannot compile recursion, so
that edge returns the continuation :data:`NEXT_TRICK` and ``kernels.run`` loops on it. ``r`` is
the deal's record (state.py), ``k`` the rule data record (spec.py), ``o`` the trick order.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector import bits
from rams_env.vector.bits import CHALLENGERS, MAIN, RESPONDERS, count, draw, next_order, uniform
from rams_env.vector.kernels import DEAL_OVER, DECIDE

NEXT_TRICK = DEAL_OVER + 1
"""The flow's one continuation: trick play begins, or a trick is over; ``kernels.run`` starts the next trick.
Every other phase function calls the next one directly (the flow has no other cycle)."""

NO_SEAT = -1


# ------------------------------------------------------------------ seats
@njit(cache=True)
def in_play(r, s):
    return r.out[s] == 0 and r.folded[s] == 0


@njit(cache=True)
def players_in(r, k):
    total = 0
    for s in range(k.n):
        total += in_play(r, s)
    return total


@njit(cache=True)
def next_in_play(r, k, after):
    """The first seat clockwise after ``after`` still in play (``after`` itself last), else -1."""
    for step in range(1, k.n + 1):
        s = (after + step) % k.n
        if in_play(r, s):
            return s
    return NO_SEAT


@njit(cache=True)
def lives_left(r, k, s):
    return k.lives - r.lives_lost[s]


@njit(cache=True)
def lose(r, s, lives):
    r.lives_lost[s] += lives
    r.reward[s] -= lives


@njit(cache=True)
def can_knock(r, k, s):
    """Not twice in a row, lives enough to cover the raised stake, someone else still in."""
    return (in_play(r, s) and s != r.last_knocker and lives_left(r, k, s) >= r.stake + 1
            and players_in(r, k) > 1)


@njit(cache=True)
def may_announce(r, k, s):
    """Three or four jacks and fewer than three tens: a choice; everyone else stays silent."""
    return count(r.hands[s] & k.jack_mask) >= 3 and count(r.hands[s] & k.ten_mask) < 3


# ----------------------------------------------------------------- the deal
@njit(cache=True)
def new_episode(r, k):
    """A session starts: dealer and carried-over lives (queued, drawn, or none lost), then a deal."""
    if r.pending and r.pending_dealer >= 0:
        r.dealer = r.pending_dealer
    else:
        r.dealer = uniform(r, k.n)
    for s in range(k.n):
        if r.pending and r.pending_lives[0] >= 0:
            r.lives_lost[s] = r.pending_lives[s]
        elif k.random_carry:
            r.lives_lost[s] = uniform(r, k.lives)
        else:
            r.lives_lost[s] = 0
        r.out[s] = r.lives_lost[s] >= k.lives
    r.deals_played = 0
    return start_deal(r, k)


@njit(cache=True)
def start_deal(r, k):
    n = k.n
    for s in range(n):
        r.folded[s] = 0
        r.knocked_by[s] = 0
        r.redraws[s] = 0
        r.tricks_won[s] = 0
        r.signals[s] = 0
        r.hands[s] = 0
        r.face_down[s] = 0
        r.played[s] = 0
    r.stake, r.last_knocker, r.revealed, r.claim, r.claimant = 1, NO_SEAT, 0, 0, NO_SEAT
    r.trick_len, r.tricks_played = 0, 0
    bits.q_clear(r, MAIN)
    if r.out[r.dealer]:
        r.dealer = next_not_out(r, k, r.dealer)
    next_order(r)
    at = 0
    for s in range(n):
        if not r.out[s]:
            at = draw(r, s, at, k.hand_size)
    r.stock_at = at
    r.leader = next_not_out(r, k, r.dealer)
    return begin_dirty(r, k)


@njit(cache=True)
def next_not_out(r, k, after):
    for step in range(1, k.n + 1):
        s = (after + step) % k.n
        if not r.out[s]:
            return s
    return NO_SEAT


@njit(cache=True)
def session_over(r, k):
    if k.play_on:
        left = 0
        for s in range(k.n):
            left += r.out[s] == 0
        return left <= 1
    for s in range(k.n):  # noqa: SIM110 (a plain loop compiles to a plain loop in numba)
        if r.lives_lost[s] >= k.lives:
            return True
    return False


# ------------------------------------------------------- dirty hands ("Deal")
@njit(cache=True)
def stock_size(r, k):
    return k.cards - r.stock_at


@njit(cache=True)
def queue_in_play(r, k, q, first, seats):
    """Queue ``q`` := those of the ``seats`` seats clockwise from ``first`` still in play (the reference's
    ``seats_from``; ``seats = n - 1`` from a seat's left neighbour leaves her out)."""
    bits.q_clear(r, q)
    for i in range(seats):
        s = (first + i) % k.n
        if in_play(r, s):
            bits.q_push(r, q, s)


@njit(cache=True)
def ask_queue(r, phase):
    r.phase = phase
    r.to_act = bits.q_front(r, MAIN)
    return DECIDE


@njit(cache=True)
def begin_dirty(r, k):
    if k.dirty_hands and stock_size(r, k) >= k.hand_size:
        queue_in_play(r, k, MAIN, r.leader, k.n)
        return ask_queue(r, k.ph_dirty)
    return begin_announce(r, k)


@njit(cache=True)
def dirty_decision(r, k, seat, discard):
    if not discard:
        bits.q_pop(r, MAIN)
        return continue_dirty(r, k)
    r.claim, r.claimant = r.hands[seat], seat
    r.hands[seat] = 0
    r.stock_at = draw(r, seat, r.stock_at, k.hand_size)
    r.redraws[seat] += 1
    queue_in_play(r, k, CHALLENGERS, seat + 1, k.n - 1)
    r.phase = k.ph_challenge
    r.to_act = bits.q_front(r, CHALLENGERS)
    return DECIDE


@njit(cache=True)
def challenge_decision(r, k, seat, challenge):
    """A challenge turns the claim face up: whoever was wrong loses a life."""
    claimant = r.claimant
    if challenge:
        honest = (r.claim & ~k.dirty_mask) == 0
        lose(r, seat if honest else claimant, 1)
        r.revealed |= r.claim
    else:
        if bits.pass_on(r, CHALLENGERS):
            return DECIDE
        r.face_down[claimant] |= r.claim
    r.claim, r.claimant = 0, NO_SEAT
    return continue_dirty(r, k)


@njit(cache=True)
def continue_dirty(r, k):
    if not bits.q_empty(r, MAIN) and stock_size(r, k) >= k.hand_size:
        return ask_queue(r, k.ph_dirty)
    return begin_announce(r, k)


# ------------------------------------------- announcements ("Announcing tens...")
@njit(cache=True)
def begin_announce(r, k):
    """Tens are announced at once; then every seat still in is asked from forehand (most can only be silent)."""
    bits.q_clear(r, MAIN)
    if not k.announcements:
        return begin_poverty(r, k)
    queue_in_play(r, k, MAIN, r.leader, k.n)
    for i in range(r.queue_len[MAIN]):
        s = r.queues[MAIN, i]
        tens = count(r.hands[s] & k.ten_mask)
        if tens >= 3:
            r.signals[s] = k.sig_stand if tens == 4 else k.sig_whistle
    return ask_queue(r, k.ph_announce)


@njit(cache=True)
def announce_decision(r, k, seat, announce):
    if announce:
        r.signals[seat] = k.sig_stand if count(r.hands[seat] & k.jack_mask) == 4 else k.sig_whistle
    return DECIDE if bits.pass_on(r, MAIN) else begin_poverty(r, k)


# ------------------------------------------------------- poverty ("Variations")
@njit(cache=True)
def poor(r, k, s):
    return lives_left(r, k, s) == 1


@njit(cache=True)
def begin_poverty(r, k):
    if not k.poverty:
        return NEXT_TRICK
    anyone_poor = False
    for s in range(k.n):
        anyone_poor |= in_play(r, s) and poor(r, k, s)
    if not anyone_poor:
        return NEXT_TRICK
    r.stake = 2
    bits.q_clear(r, RESPONDERS)
    for i in range(k.n):
        s = (r.leader + i) % k.n
        if in_play(r, s) and not poor(r, k, s):
            bits.q_push(r, RESPONDERS, s)
    if bits.q_empty(r, RESPONDERS):
        return NEXT_TRICK
    r.resume = NO_SEAT
    r.phase, r.to_act = k.ph_respond, bits.q_front(r, RESPONDERS)
    return DECIDE
