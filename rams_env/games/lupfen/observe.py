"""What a Lupfen player may know: observation layout, encoder, view and rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.cards import LUPFEN_20, SUITS, codes
from rams_env.encoding import put_cards, put_seat_cards, put_seat_fields, put_trick, relative_order
from rams_env.games.lupfen.state import Bid, LupfenState, Phase, Round
from rams_env.observation import Field, ObservationLayout

if TYPE_CHECKING:
    from rams_env.games.lupfen.game import Lupfen

CARDS = len(LUPFEN_20)
PHASES = list(Phase)
POT_SCALE = 300
"""Chips that fill the pot and net fields (values are capped)."""

SEAT_FIELDS: list[tuple[str, str]] = [
    ("leader", "1 for the player who leads (or led) the current trick"),
    ("to_act", "1 for the player whose decision it is"),
    ("dealer", "1 for the dealer"),
    ("lifter", "1 for the player who lifted"),
    ("passed", "1 if the player passed this deal"),
    ("playing", "1 if the player plays this deal (lifted, joined, or a force round)"),
    ("tricks_won", "tricks won this deal / 3"),
    ("staender", "1 if the player announced a Ständer (three cards of one suit)"),
    ("looked", "1 if the player has looked at the hand (blind lifting)"),
    ("net", "chips won in the session, 0.5 + net / 600, clipped to [0, 1]"),
]


def layout(n: int) -> ObservationLayout:
    return ObservationLayout([
        Field("hand", CARDS, "cards in the observer's hand (empty until she looks, blind-lift variation)"),
        Field("turned", CARDS, "the card turned for trump (force round or lift), if any"),
        Field("trump", len(SUITS), "trump suit one-hot (c s h d); zeros before the lift"),
        Field("trick", n * CARDS, "card each player has played to the current trick, per relative seat"),
        Field("played", n * CARDS, "every card each player has played this deal, per relative seat"),
        *[Field(name, n, doc) for name, doc in SEAT_FIELDS],
        Field("seat", n, "the observer's absolute seat, one-hot"),
        Field("phase", len(PHASES), "decision phase one-hot: " + ", ".join(p.value for p in PHASES)),
        Field("force", 1, "1 in a force round, 0 in a Lupfen round"),
        Field("blind", 1, "1 if the lift was blind (losers pay double)"),
        Field("pot", 1, "chips in the pot / 300, capped at 1"),
        Field("pot_at_play", 1, "the pot when play began / 300, capped at 1"),
        Field("trick_number", 3, "tricks completed so far, one-hot 0..2"),
    ])


def _seat_values(state: LupfenState, order: list[int]) -> dict[str, list]:
    leader = state.trick[0][0] if state.trick else state.leader
    in_play = state.phase is Phase.PLAY
    return {
        "leader": [in_play and s == leader for s in order],
        "to_act": [s == state.to_act for s in order],
        "dealer": [s == state.dealer for s in order],
        "lifter": [s == state.lifter for s in order],
        "passed": [state.bids[s] is Bid.PASS for s in order],
        "playing": [state.active(s) for s in order],
        "tricks_won": [state.tricks_won[s] / 3 for s in order],
        "staender": [state.staender[s] for s in order],
        "looked": [state.looked[s] for s in order],
        "net": [min(max(0.5 + state.scores[s] / (2 * POT_SCALE), 0.0), 1.0) for s in order],
    }


def encode(game: Lupfen, state: LupfenState, seat: int, out: np.ndarray) -> None:
    lay, n, idx = game.observation, game.num_players, LUPFEN_20.index
    if state.looked[seat]:
        put_cards(out, lay.start("hand"), idx, state.hands[seat])
    if state.turned is not None:
        put_cards(out, lay.start("turned"), idx, [state.turned])
        out[lay.start("trump") + state.trump] = 1.0
    put_trick(out, lay.start("trick"), idx, state.trick, seat, n)
    put_seat_cards(out, lay.start("played"), idx, state.played, seat)
    put_seat_fields(out, lay.start(SEAT_FIELDS[0][0]), [name for name, _ in SEAT_FIELDS],
                    _seat_values(state, relative_order(seat, n)))
    out[lay.start("seat") + seat] = 1.0
    out[lay.start("phase") + PHASES.index(state.phase)] = 1.0
    out[lay.start("force")] = state.round is Round.FORCE
    out[lay.start("blind")] = state.blind
    out[lay.start("pot")] = min(state.ledger.pot / POT_SCALE, 1.0)
    out[lay.start("pot_at_play")] = min(state.pot_at_play / POT_SCALE, 1.0)
    out[lay.start("trick_number") + min(state.tricks_played, 2)] = 1.0


def view(game: Lupfen, state: LupfenState, seat: int) -> dict[str, Any]:
    n = game.num_players
    order = relative_order(seat, n)

    def rel(s: int | None) -> int | None:
        return None if s is None else (s - seat) % n

    return {
        "seat": seat,
        "num_players": n,
        "phase": state.phase.value,
        "round": state.round.value,
        "hand": codes(state.hands[seat]).split() if state.looked[seat] else [],
        "turned": codes([state.turned]) if state.turned is not None else None,
        "trump": SUITS[state.trump] if state.turned is not None else None,
        "trick": [(rel(s), codes([c])) for s, c in state.trick],
        "played": [codes(state.played[s]).split() for s in order],
        "leader": rel(state.trick[0][0] if state.trick else state.leader) if state.phase is Phase.PLAY else None,
        "to_act": rel(state.to_act),
        "dealer": rel(state.dealer),
        "lifter": rel(state.lifter),
        "bids": [state.bids[s].name.lower() for s in order],
        "tricks_won": [state.tricks_won[s] for s in order],
        "tricks_played": state.tricks_played,
        "staender": [state.staender[s] for s in order],
        "looked": [state.looked[s] for s in order],
        "blind": state.blind,
        "pot": state.ledger.pot,
        "pot_at_play": state.pot_at_play,
        "net": [state.scores[s] for s in order],
    }


def render(game: Lupfen, state: LupfenState, seat: int | None = None) -> str:
    status = "over" if state.terminal else f"{state.round.value} round, phase {state.phase.value}"
    trump = codes([state.turned]) if state.turned is not None else "not turned"
    lines = [f"Lupfen  deal {state.deals_played + (0 if state.terminal else 1)}  {status}  trump {trump}"
             f"  pot {state.ledger.pot}"]
    for s in range(game.num_players):
        shown = (s == seat or seat is None) and state.looked[s]
        hand = codes(state.hands[s]) if shown else " ".join("##" for _ in state.hands[s])
        marks = (" D" if s == state.dealer else "") + (" *" if s == state.to_act else "")
        lines.append(f"  player_{s}{marks:5} {state.bids[s].name.lower():6} bankroll {state.ledger.bankrolls[s]:5}"
                     f"  tricks {state.tricks_won[s]}  {hand}")
    trick = "  ".join(f"player_{s}:{codes([c])}" for s, c in state.trick)
    lines.append(f"  trick: {trick or '-'}")
    return "\n".join(lines)
