"""Fipsen's scoring: Thedinghausen's race for the hedewigs and the score sheet of the other games.

Kept apart because what a deal is worth (the race to ten tricks, a fipsen call made or failed,
a contract's value with preference and Durch doubling, a conceded Kieker) changes for other
reasons than how the auction or the tricks run. Every way a deal ends goes through
``game.end_deal`` (rams_env/core/game.py). Plain functions of (game, state, ...), like observe.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.games.fipsen.contracts import Contract, Trumps
from rams_env.games.fipsen.state import TRICKS, FipsenState

if TYPE_CHECKING:
    from rams_env.games.fipsen.game import Fipsen


# ------------------------------------------------------ Thedinghausen's race
def race_trick(game: Fipsen, state: FipsenState, winner: int) -> None:
    """Each trick counts toward the race; after the fifth the fipsen call is settled."""
    if not state.race_won:
        state.race[winner] += 1
        if state.race[winner] >= game.rules.race_to:
            _win_race(state, winner)
    if state.tricks_played == TRICKS:
        _settle_fipsen_call(game, state)


def _win_race(state: FipsenState, winner: int) -> None:
    """The first to ten tricks wins the hedewigs in the pot."""
    state.race_won = True
    state.breakdown["race_winner"] = winner
    state.ledger.take_out(winner, state.ledger.pot)


def _settle_fipsen_call(game: Fipsen, state: FipsenState) -> None:
    """A made fipsen counts double (ten tricks); a failed one pays five hedewigs into the pot."""
    caller = state.fipsen
    if caller is not None:
        made = state.tricks_won[caller] == TRICKS
        state.breakdown["fipsen"] = {"player": caller, "made": made}
        if not made:
            state.ledger.pay_in(caller, game.rules.prize)
        elif not state.race_won:
            state.race[caller] += TRICKS
            if state.race[caller] >= game.rules.race_to:
                _win_race(state, caller)
    game.end_deal(state, "played")


# ------------------------------------------------------------ the score sheet
def contract_value(game: Fipsen, state: FipsenState, level: int) -> int:
    """The points of the contract at ``level`` with this deal's trump."""
    return contract_points(game, game.ladder[level], state.trump)


def contract_points(game: Fipsen, contract: Contract, trump: int | None) -> int:
    """The contract's points; naming the preference suit doubles a chosen-trump contract where it does
    (the heuristic values its bids with this too)."""
    doubled = (game.spec.preference_doubles and contract.trumps is Trumps.CHOSEN and not contract.fixed
               and trump == game.preference)
    return contract.value * (2 if doubled else 1)


def award(game: Fipsen, state: FipsenState, seat: int, level: int, made: bool, reason: str,
          durch: bool = False, failed_durch: bool = False) -> None:
    state.contract = level
    value = contract_value(game, state, level)
    if failed_durch:
        points = -value  # the bid was made, the Durch was not
    elif made:
        points = value * (2 if (durch and game.spec.durch_doubles) or state.playing_on else 1)
    else:
        points = -value * (2 if game.spec.durch_doubles else 1)
    record(game, state, seat, points, reason)


def record(game: Fipsen, state: FipsenState, seat: int, points: int, reason: str) -> None:
    state.sheet[seat] += points
    state.breakdown.update({"declarer": seat, "points": points,
                            "contract": game.ladder[state.contract].label if state.contract is not None
                            else None})
    game.end_deal(state, reason)
