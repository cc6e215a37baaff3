"""What a Toepen player may know: the observation layout, its encoder, the view, rendering.

All seat-indexed fields are seat-relative: index 0 is the observer, 1 the player on
her left, and so on. Nothing hidden is read: other hands, the stock's order and
face-down discards never reach the vector (tested by re-dealing unseen cards).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core import observation_core as core
from rams_env.core import observation_seats as seats
from rams_env.core.cards import PIQUET_32, codes
from rams_env.core.observation_core import Cards, Observation, Scalar, Shown, encode, view
from rams_env.core.observation_render import deal_number, render_table, seat_marks, status
from rams_env.games.toepen.state import TRICKS, Phase, Signal, ToepenState

if TYPE_CHECKING:
    from rams_env.games.toepen.game import Toepen

__all__ = ["PHASES", "MAX_REDRAWS", "layout", "encode", "view", "render"]

CARDS = len(PIQUET_32)
PHASES = list(Phase)
MAX_REDRAWS = 8


def seat_block(n: int, lives: int) -> seats.SeatBlock:
    """Toepen's per-player fields (seat-relative), in layout order."""
    return seats.SeatBlock([
        seats.LEADER,
        seats.TO_ACT,
        seats.tricks_won_field(TRICKS),
        seats.SeatField("in_play", "1 if dealt in this deal and not folded",
                        lambda s: [not (out or folded) for out, folded in zip(s.out, s.folded, strict=True)],
                        reads=("out", "folded")),
        seats.seat_list("folded", "1 if folded this deal"),
        seats.seat_list("out", "1 if out of the session (lost all lives, play-on variation)"),
        seats.seat_list("lives_lost", "lives lost in the session / lives (capped at 1)", scale=lives),
        seats.SeatField("poor", "1 if exactly one life left (armoede)",
                        lambda s: [lives - lost == 1 for lost in s.lives_lost], view=None, reads=("lives_lost",)),
        seats.seat_list("knocks", "knocks made this deal / 8 (capped at 1)", "knocked_by", scale=8),
        seats.marker("last_knocker", "1 for the player who knocked last", "last_knocker"),
        seats.DEALER,
        seats.seat_list("redraws", "dirty-hand redraws this deal / 8", scale=MAX_REDRAWS),
        seats.marker("claimant", "1 for the player whose dirty-hand claim is open to challenge",
                     "claimant"),
        seats.SeatField("whistled", "1 if the player whistled (three tens, or three jacks by choice)",
                        lambda s: [signal is Signal.WHISTLE for signal in s.signals], view=None, reads=("signals",)),
        seats.SeatField("stood", "1 if the player stood up (four tens, or four jacks by choice)",
                        lambda s: [signal is Signal.STAND for signal in s.signals], view=None, reads=("signals",)),
    ], n)


def layout(n: int, lives: int) -> Observation:
    """The Toepen observation for ``n`` players (sizes computed from the pack and ``n``)."""
    return Observation([
        core.hand(),
        core.own_discards("the observer's own face-down cards (dirty discards, folded hand)"),
        Cards("revealed", "dirty hands turned face up by a challenge", lambda game, state, seat: state.revealed),
        *core.around_the_table(seat_block(n, lives), PHASES,
                               seat_doc="the observer's absolute seat, one-hot (the only absolute field)"),
        core.TrickNumber(TRICKS),
        Scalar("stake", "lives at stake for a player who stays in and loses / lives (capped at 1)", "stake", lives),
        Scalar("stock", "cards left in the stock / 32", lambda game, state, seat: len(state.stock), CARDS),
        core.rule("lives"),
        core.seat_labels("signals", "signals"),
        Shown("can_knock", lambda game, state, seat: state.to_act == seat and game.can_knock(state, seat)),
    ], n, PIQUET_32)


def render(game: Toepen, state: ToepenState, seat: int | None = None) -> str:
    """A text table: every hand (seat None, for debugging) or one seat's view."""
    header = (f"Toepen  deal {deal_number(state)}  {status(state)}  stake {state.stake}"
              f"  trick {min(state.tricks_played + 1, TRICKS)}/{TRICKS}  stock {len(state.stock)}")
    lines = render_table(game, state, seat, header, player_status, marks_width=10,
                         marks=lambda s: seat_marks(state, s) + signal_mark(state.signals[s]))
    if state.revealed:
        lines.append(f"  revealed dirty hands: {codes(state.revealed)}")
    return "\n".join(lines)


def signal_mark(signal: Signal) -> str:
    return "" if signal is Signal.NONE else f" {core.label(signal)}"


def player_status(game: Toepen, state: ToepenState, s: int) -> str:
    """In, folded or out; lives left (count-down scoring) or lost."""
    lives, lost = game.rules.lives, state.lives_lost[s]
    score = f"{lives - lost} lives left" if game.rules.count_down else f"{lost}/{lives} lost"
    played = "out" if state.out[s] else "folded" if state.folded[s] else "in"
    return f"{played:7} {score:14} "
