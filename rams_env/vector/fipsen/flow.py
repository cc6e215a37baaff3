"""Fipsen's deal, auction, the declarer's preparations and the score sheet, for one deal of the batch.

Each function mirrors the one of the same name in ``rams_env/games/fipsen/game.py``,
``auction.py`` or ``settle.py``. The reference's flow has no cycle (an all-pass redeal
opens a new auction, it does not call back), so unlike Toepen the compiled functions call
the next phase directly and return DECIDE (a seat must decide) or DEAL_OVER. ``r`` is the
deal's record (state.py), ``k`` the rule data record (spec.py).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import bit, count, draw, lay_aside, next_order, uniform
from rams_env.vector.fipsen.state import ALL_PASSED, KIEKER_CONCEDED, PLAYED, SIEBENER_FIPS
from rams_env.vector.kernels import DEAL_OVER, DECIDE

NO_SEAT = NONE = -1


# ----------------------------------------------------------------- the deal
@njit(cache=True)
def new_episode(r, k, t):
    """A session starts: dealer (queued or drawn), an empty score sheet, Thedinghausen's race, then a deal."""
    r.dealer = r.pending_dealer if r.pending and r.pending_dealer >= 0 else uniform(r, k.n)
    for s in range(k.n):
        r.sheet[s] = r.sheet_start[s] = r.race[s] = 0
        r.bankrolls[s] = r.session_start[s] = k.bankroll
    r.pot, r.race_won = 0, True  # a fresh race starts with everyone's ante
    r.deals_played = 0
    if k.thedinghausen:
        carried_race(r, k)
    return start_deal(r, k, t)


@njit(cache=True)
def carried_race(r, k):
    """Thedinghausen's carried-over state, each part queued or else drawn with random carry as the reference's
    ``random_carry`` draws it: every seat's tricks toward the prize (0..race_to-1; a race under way, so nobody
    antes), and the pot (everyone's ante of that race)."""
    queued_race = r.pending and r.pending_race[0] >= 0
    if queued_race or k.random_carry:
        r.race_won = False
        for s in range(k.n):
            r.race[s] = r.pending_race[s] if queued_race else uniform(r, k.race_to)
    if r.pending and r.pending_pot >= 0:
        r.pot = r.pending_pot
    elif k.random_carry:
        r.pot = k.n


@njit(cache=True)
def start_deal(r, k, t):
    """Thedinghausen: a new race after one was won, everyone antes a hedewig; then the deal (``t`` unused)."""
    if k.thedinghausen and r.race_won:
        r.race_won = False
        for s in range(k.n):
            r.race[s] = 0
            r.bankrolls[s] -= 1
            r.pot += 1
    return deal_cards(r, k)


@njit(cache=True)
def deal_cards(r, k):
    """Deal (again, after an all-pass): five cards each, the skat, the talon; then the auction."""
    next_order(r)
    at = 0
    for s in range(k.n):
        r.hands[s] = r.face_down[s] = r.played[s] = 0
        r.tricks_won[s] = 0
        r.passed[s] = 0
        at = draw(r, s, at, k.hand_size)
    r.skat = r.aside = 0
    r.turned = r.fipsen = NONE
    if k.thedinghausen:  # the next card is turned for trumps
        r.turned = r.order[at]
        at += 1
    for i in range(at, k.cards):
        if i < at + k.skat:
            r.skat |= bit(r.order[i])
        else:
            r.aside |= bit(r.order[i])
    r.trick_len = r.tricks_played = 0
    r.declarer = r.contract = r.highest = r.highest_bidder = r.trump = NONE
    r.playing_on, r.to_discard = False, 0
    r.phase, r.to_act = k.ph_auction, (r.dealer + 1) % k.n  # forehand opens the auction (or the call)
    r.holder, r.challenger, r.holder_to_answer, r.entered = NO_SEAT, r.to_act, False, 1
    if k.thedinghausen:
        r.trump, r.phase = k.card_suit[r.turned], k.ph_call
    return DECIDE


@njit(cache=True)
def call(r, k, seat, fipsen):
    """Thedinghausen: in turn, announce "fipsen" (all five tricks) or pass; a call starts play at once."""
    if fipsen:
        r.fipsen = seat
    if fipsen or seat == r.dealer:  # the dealer is asked last
        return begin_play(r, k)
    r.to_act = (seat + 1) % k.n
    return DECIDE


@njit(cache=True)
def session_over(r, k):
    return (k.thedinghausen and r.race_won) or r.deals_played >= k.session_deals


@njit(cache=True)
def score(r, k, s):
    """Seat ``s``'s score change in the session: hedewigs in Thedinghausen, sheet points elsewhere."""
    if k.thedinghausen:
        return r.bankrolls[s] - r.session_start[s]
    return r.sheet[s] - r.sheet_start[s]


# ------------------------------------------------------ Thedinghausen's race
@njit(cache=True)
def race_trick(r, k, winner):
    """Each trick counts toward the race; after the fifth the fipsen call is settled."""
    if not r.race_won:
        r.race[winner] += 1
        if r.race[winner] >= k.race_to:
            win_race(r, winner)
    if r.tricks_played == k.tricks:
        return settle_fipsen_call(r, k)
    return DECIDE


@njit(cache=True)
def win_race(r, winner):
    """The first to ten tricks wins the hedewigs in the pot."""
    r.race_won = True
    r.bankrolls[winner] += r.pot
    r.reward[winner] += r.pot
    r.pot = 0


@njit(cache=True)
def settle_fipsen_call(r, k):
    """A made fipsen counts double (ten tricks); a failed one pays five hedewigs into the pot."""
    caller = r.fipsen
    if caller != NONE:
        if r.tricks_won[caller] != k.tricks:
            r.bankrolls[caller] -= k.prize
            r.reward[caller] -= k.prize
            r.pot += k.prize
        elif not r.race_won:
            r.race[caller] += k.tricks
            if r.race[caller] >= k.race_to:
                win_race(r, caller)
    return end_deal(r, k, PLAYED)


# ------------------------------------------------------------------- auction
@njit(cache=True)
def eligible(r, k, seat, level):
    """Whether ``seat`` holds what the rung needs (Kieker: no K, Q or J; a Ruten bid: the Rutenas)."""
    hand = r.hands[seat]
    if k.l_no_courts[level]:
        return (hand & k.court_mask) == 0
    if k.l_rutenas[level]:
        return (hand & k.rutenas_mask) != 0
    if k.l_siebener[level]:
        return count(hand & k.seven_mask) == 4 and (hand & k.ace_mask) != 0
    return True


@njit(cache=True)
def auction_step(r, k, seat, level, hold):
    """A bid (``level`` >= 0), a hold or a pass (-1), under the variant's auction."""
    if level >= 0:
        r.highest, r.highest_bidder = level, seat
        if k.l_siebener[level]:  # wins without play
            r.contract = level
            return award(r, k, seat, True, SIEBENER_FIPS, False, False)
    elif not hold:
        r.passed[seat] = 1
    if k.hold_auction:
        return hold_step(r, k, seat, level >= 0, hold)
    if k.single_round:  # Duttfips: each player once, from forehand; the dealer is last
        if seat != r.dealer:
            r.to_act = (seat + 1) % k.n
            return DECIDE
        return next_bidder(r, k)
    for step in range(1, k.n + 1):  # in turn: bid higher or pass for good until one bidder is left
        s = (seat + step) % k.n
        if not r.passed[s] and s != r.highest_bidder:
            r.to_act = s
            return DECIDE
    return next_bidder(r, k)


@njit(cache=True)
def hold_step(r, k, seat, bid, hold):
    """Prisdorf: players enter in turn from forehand; the earlier of the bidding pair holds, bids higher or
    passes on each higher bid of the later one; whoever of the pair passes makes way for the next player."""
    if r.holder == NO_SEAT:  # nobody has bid yet: the entering player opened or passed
        if bid:
            r.holder = seat
        return next_challenger(r, k)
    if seat == r.challenger and bid:
        r.holder_to_answer, r.to_act = True, r.holder
        return DECIDE
    if seat == r.holder and (bid or hold):  # hold (same level) or bid higher still
        if hold:
            r.highest_bidder = r.holder
        r.holder_to_answer, r.to_act = False, r.challenger
        return DECIDE
    if seat == r.holder:  # the holder passes: the challenger's bid stands and she holds from now on
        r.holder = r.challenger
    r.holder_to_answer = False
    return next_challenger(r, k)


@njit(cache=True)
def next_challenger(r, k):
    """The next player in turn enters the auction; when none is left it ends (declarer, or a redeal)."""
    if r.entered < k.n:
        r.challenger = r.to_act = (r.dealer + 1 + r.entered) % k.n
        r.entered += 1
        return DECIDE
    r.challenger = NO_SEAT
    return next_bidder(r, k)


@njit(cache=True)
def next_bidder(r, k):
    """Nobody is left to bid: the highest bidder declares, or (all passed) the same dealer deals again."""
    if r.highest == NONE:
        r.redeals += 1
        if r.redeals > k.max_redeals:
            return end_deal(r, k, ALL_PASSED)
        return deal_cards(r, k)
    return won_auction(r, k)


# -------------------------------------------------------------- the declarer
@njit(cache=True)
def won_auction(r, k):
    """The highest bidder declares and picks up what the contract's talon gives her."""
    seat, level = r.highest_bidder, r.highest
    r.declarer, r.contract, r.to_act = seat, level, seat
    if k.l_discard_hand[level]:
        r.face_down[seat] |= r.hands[seat]
        r.hands[seat] = 0
    if k.l_takes_skat[level]:
        r.hands[seat] |= r.skat
        r.skat = 0
    if k.l_takes_aside[level]:
        r.hands[seat] |= r.aside
        r.aside = 0
    r.to_discard = k.l_discards[level]
    if r.to_discard:
        r.phase = k.ph_discard
        return DECIDE
    return after_discards(r, k)


@njit(cache=True)
def discard(r, k, seat, card):
    lay_aside(r, seat, card)
    r.to_discard -= 1
    return after_discards(r, k) if r.to_discard == 0 else DECIDE


@njit(cache=True)
def after_discards(r, k):
    if k.l_discard_hand[r.contract]:  # Kieker: concede or play
        r.phase = k.ph_kieker
        return DECIDE
    return choose_trumps(r, k)


@njit(cache=True)
def kieker(r, k, seat, concede):
    if concede:
        return record(r, k, seat, -k.kieker_concession, KIEKER_CONCEDED)
    return choose_trumps(r, k)


@njit(cache=True)
def choose_trumps(r, k):
    if k.l_preference[r.contract]:
        r.trump = k.preference
        return begin_play(r, k)
    r.phase = k.ph_trump
    return DECIDE


@njit(cache=True)
def begin_play(r, k):
    r.phase = k.ph_play
    r.leader = r.to_act = (r.dealer + 1) % k.n  # forehand leads
    return DECIDE


# ------------------------------------------------------------- the score sheet
@njit(cache=True)
def contract_value(r, k, level):
    """The rung's points; naming the preference suit doubles a chosen-trump contract where it does."""
    doubled = (k.preference_doubles and not k.l_preference[level] and not k.l_fixed[level]
               and r.trump == k.preference)
    return k.l_value[level] * (2 if doubled else 1)


@njit(cache=True)
def award(r, k, seat, made, reason, durch, failed_durch):
    value = contract_value(r, k, r.contract)
    if failed_durch:
        points = -value  # the bid was made, the Durch was not
    elif made:
        points = value * (2 if (durch and k.durch_doubles) or r.playing_on else 1)
    else:
        points = -value * (2 if k.durch_doubles else 1)
    return record(r, k, seat, points, reason)


@njit(cache=True)
def record(r, k, seat, points, reason):
    r.sheet[seat] += points
    r.reward[seat] += points
    r.result_declarer, r.result_points, r.result_contract = seat, points, r.contract
    return end_deal(r, k, reason)


@njit(cache=True)
def end_deal(r, k, reason):
    """Every way a deal ends: the next player clockwise deals."""
    r.settled, r.reason = True, reason
    r.dealer = (r.dealer + 1) % k.n
    r.redeals = 0
    r.to_act = NO_SEAT
    return DEAL_OVER
