"""The exchange with the talon (Tippen's modern rules, Mauscheln): discard face down, draw as many.

The players who play the deal exchange in turn (rams_env/core/turns.py): each discards up to her
limit, one card at a time and face down, and ends with "done" (or reaching the limit); she then draws
as many cards from the top of the talon. A seat with nothing to exchange when her turn comes (the
talon is empty) is passed over. The game supplies the limits and, where some replacements come from
elsewhere (Mauscheln's knocking dealer takes the turn-up first), a ``receive`` hook; the functions
return False once the exchange is over, and the game decides what follows (trick play).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from rams_env.core.actions import ActionLayout, Segment
from rams_env.core.perdeal import per_deal, per_seat, per_seat_lists
from rams_env.core.potgame import PotState
from rams_env.core.turns import ask_in_turn, ask_next


def exchange_segments(pack: Any, discard_doc: str) -> list[Segment]:
    """The exchange's actions: discard a card face down (``discard_doc`` says where), and "done"."""
    return [Segment.cards("discard", pack, doc=discard_doc, seen_by_others="discards a card"),
            Segment("done", doc="end the exchange: receive as many cards from the talon")]


def discard_face_down(state: Any, seat: int, card: int) -> None:
    """``seat`` lays ``card`` from her hand face down in front of her (an exchange, a robber's discard)."""
    state.hands[seat].remove(card)
    state.face_down[seat].append(card)


@dataclass
class ExchangeState(PotState):
    """A pot game with a talon to exchange with."""

    talon: list[int] = field(default_factory=list)  # top first
    face_down: list[list[int]] = per_seat_lists()  # per seat: the cards she discarded this deal
    exchanged: list[int] = per_seat(0)  # cards each seat exchanged this deal (public)
    pending: int = per_deal(0)  # cards discarded so far by the player exchanging now


def _nothing(state: Any, seat: int, count: int = 0) -> int:
    return 0


@dataclass(frozen=True)
class TalonExchange:
    """The exchange of a game: its actions ("discard" cards, "done") and its limits.

    limit(state, seat): cards ``seat`` may exchange now (0: she is passed over).
    minimum(state, seat): cards she must discard before "done" is legal.
    receive(state, seat, count): hands ``seat`` some of her ``count`` replacements from elsewhere than
    the talon, returning how many; the rest come from the top of the talon.
    """

    actions: ActionLayout
    limit: Callable[[Any, int], int]
    minimum: Callable[[Any, int], int] = _nothing
    receive: Callable[[Any, int, int], int] = _nothing

    def begin(self, state: ExchangeState, seats: Iterable[int]) -> bool:
        """``seats`` exchange in this order; False when nobody can (the exchange is over at once)."""
        return self._next_exchanger(state, ask_in_turn(state, seats, self._may_exchange(state)))

    def legal(self, state: ExchangeState) -> list[int]:
        """Discard another card (below the limit), or end the exchange (once the minimum is discarded)."""
        seat = state.to_act
        legal = []
        if state.pending < self.limit(state, seat):
            legal = self.actions.card_actions("discard", state.hands[seat])
        if state.pending >= self.minimum(state, seat):
            legal.append(self.actions.start["done"])
        return legal

    def act(self, state: ExchangeState, seat: int, name: str, card: int) -> bool:
        """One exchange action of ``seat`` (a phase handler's call): "done" ends her exchange, a discard lays
        ``card`` face down. False once the whole exchange is over."""
        return self.finish(state, seat) if name == "done" else self.discard(state, seat, card)

    def discard(self, state: ExchangeState, seat: int, card: int) -> bool:
        """``seat`` discards ``card``; at her limit her exchange ends. False once the whole exchange is over."""
        discard_face_down(state, seat, card)
        state.pending += 1
        if state.pending == self.limit(state, seat):
            return self.finish(state, seat)
        return True

    def finish(self, state: ExchangeState, seat: int) -> bool:
        """``seat`` draws as many cards as she discarded; the next seat exchanges. False once all have."""
        count = state.pending - self.receive(state, seat, state.pending)
        state.hands[seat].extend(state.talon[:count])
        state.talon = state.talon[count:]
        state.exchanged[seat] = state.pending
        return self._next_exchanger(state, ask_next(state, self._may_exchange(state)))

    def _may_exchange(self, state: ExchangeState) -> Callable[[int], bool]:
        return lambda seat: self.limit(state, seat) > 0

    @staticmethod
    def _next_exchanger(state: ExchangeState, asked: bool) -> bool:
        if asked:
            state.pending = 0
        return asked
