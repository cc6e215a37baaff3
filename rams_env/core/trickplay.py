"""Card play written once for the pot and auction games: the fields and the step of a trick.

The trick rules themselves (legal cards, the winner) are in tricks.py; this module keeps
the bookkeeping every game repeats: the card leaves the hand, joins the trick and the
record of play, the next player still in the deal acts, and a complete trick goes to its
winner, who leads the next. Toepen, whose folded players and knock windows change who
plays and who wins, keeps its own version of the step (its State has these fields).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rams_env.core.game import State
from rams_env.core.perdeal import per_deal, per_deal_list, per_seat, per_seat_lists
from rams_env.core.seating import next_seat
from rams_env.core.tricks import TrickOrder


@dataclass
class TrickState(State):
    """Fields of a deal played in tricks."""

    hands: list[list[int]] = field(default_factory=list)
    leader: int = 0
    trick: list[tuple[int, int]] = per_deal_list()  # (seat, card) in play order
    tricks_played: int = per_deal(0)
    tricks_won: list[int] = per_seat(0)
    played: list[list[int]] = per_seat_lists()  # every card each seat played this deal


def play_card(state: TrickState, seat: int, card: int, order: TrickOrder,
              plays: Callable[[int], bool]) -> list[tuple[int, int]] | None:
    """Play ``card``; returns the completed trick (its winner now leads) or None (the next player acts).

    ``plays(seat)`` tells who takes part in this deal's tricks.
    """
    state.hands[seat].remove(card)
    state.trick.append((seat, card))
    state.played[seat].append(card)
    done = {s for s, _ in state.trick}
    nxt = next_seat(state.num_players, seat, lambda s: plays(s) and s not in done)
    if nxt is not None:
        state.to_act = nxt
        return None
    trick = state.trick
    winner = trick[order.winning_index([c for _, c in trick])][0]
    state.tricks_won[winner] += 1
    state.tricks_played += 1
    state.trick, state.leader, state.to_act = [], winner, winner
    return trick
