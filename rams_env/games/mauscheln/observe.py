"""What a Mauscheln player may know: observation layout, encoder, view and rendering.

Seat fields are seat-relative (0 = the observer). Other hands, the talon and the
bonfire stay hidden; so does the dealer's own hand while she decides to knock blind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.cards import SUITS, Pack, codes
from rams_env.encoding import put_cards, put_seat_cards, put_seat_fields, put_trick, relative_order
from rams_env.games.mauscheln.state import Bid, MauschelnState, Phase
from rams_env.observation import Field, ObservationLayout

if TYPE_CHECKING:
    from rams_env.games.mauscheln.game import Mauscheln

PHASES = list(Phase)
POT_SCALE = 64
"""Pinkes that fill the pot and bankroll fields (values are capped at 1)."""

SEAT_FIELDS: list[tuple[str, str]] = [
    ("leader", "1 for the player who leads (or led) the current trick"),
    ("to_act", "1 for the player whose decision it is"),
    ("dealer", "1 for the dealer"),
    ("sneaker", "1 for the sneaker (or the knocking dealer)"),
    ("passed", "1 if the player passed this deal"),
    ("joined", "1 if the player joined the sneaker"),
    ("tricks_won", "tricks won this deal / 4"),
    ("exchanged", "cards exchanged this deal / 4"),
    ("quartets", "quartet redeals this deal / 2 (capped at 1)"),
    ("net", "chips won in the session, 0.5 + net / (2 x 64 Pinkes), clipped to [0, 1]"),
]


def layout(n: int, pack: Pack) -> ObservationLayout:
    size = len(pack)
    return ObservationLayout([
        Field("hand", size, "cards in the observer's hand (empty while the dealer decides to knock blind)"),
        Field("turned", size, "the turned trump card"),
        Field("trump", len(SUITS), "trump suit one-hot (c s h d)"),
        Field("own_discards", size, "the observer's cards on the bonfire (exchanged or a quartet)"),
        Field("trick", n * size, "card each player has played to the current trick, per relative seat"),
        Field("played", n * size, "every card each player has played this deal, per relative seat"),
        *[Field(name, n, doc) for name, doc in SEAT_FIELDS],
        Field("seat", n, "the observer's absolute seat, one-hot"),
        Field("phase", len(PHASES), "decision phase one-hot: " + ", ".join(p.value for p in PHASES)),
        Field("knocked", 1, "1 if the dealer knocked"),
        Field("pot", 1, "chips in the pot / (64 Pinkes), capped at 1"),
        Field("pot_at_play", 1, "the pot when play began (what bêtes are measured by) / (64 Pinkes)"),
        Field("talon", 1, "cards left in the talon / pack size"),
        Field("pending", 1, "cards discarded so far by the player exchanging now / 4"),
        Field("trick_number", 4, "tricks completed so far, one-hot 0..3"),
    ])


def _seat_values(game: Mauscheln, state: MauschelnState, order: list[int]) -> dict[str, list]:
    leader = state.trick[0][0] if state.trick else state.leader
    scale = 2 * POT_SCALE * game.rules.pinke
    in_play = state.phase is Phase.PLAY
    return {
        "leader": [in_play and s == leader for s in order],
        "to_act": [s == state.to_act for s in order],
        "dealer": [s == state.dealer for s in order],
        "sneaker": [s == state.sneaker for s in order],
        "passed": [state.bids[s] is Bid.PASS for s in order],
        "joined": [state.bids[s] is Bid.JOIN for s in order],
        "tricks_won": [state.tricks_won[s] / 4 for s in order],
        "exchanged": [state.exchanged[s] / 4 for s in order],
        "quartets": [min(state.quartets[s] / 2, 1) for s in order],
        "net": [min(max(0.5 + state.scores[s] / scale, 0.0), 1.0) for s in order],
    }


def encode(game: Mauscheln, state: MauschelnState, seat: int, out: np.ndarray) -> None:
    lay, n, pack = game.observation, game.num_players, game.pack()
    idx, pot_scale = pack.index, POT_SCALE * game.rules.pinke
    if not game.hand_is_hidden(state, seat):
        put_cards(out, lay.start("hand"), idx, state.hands[seat])
    put_cards(out, lay.start("turned"), idx, [state.turned])
    out[lay.start("trump") + state.trump] = 1.0
    put_cards(out, lay.start("own_discards"), idx, state.face_down[seat])
    put_trick(out, lay.start("trick"), idx, state.trick, seat, n)
    put_seat_cards(out, lay.start("played"), idx, state.played, seat)
    values = _seat_values(game, state, relative_order(seat, n))
    put_seat_fields(out, lay.start(SEAT_FIELDS[0][0]), [name for name, _ in SEAT_FIELDS], values)
    out[lay.start("seat") + seat] = 1.0
    out[lay.start("phase") + PHASES.index(state.phase)] = 1.0
    out[lay.start("knocked")] = state.knocked
    out[lay.start("pot")] = min(state.ledger.pot / pot_scale, 1.0)
    out[lay.start("pot_at_play")] = min(state.pot_at_play / pot_scale, 1.0)
    out[lay.start("talon")] = len(state.talon) / len(pack)
    out[lay.start("pending")] = state.pending / 4 if state.phase is Phase.EXCHANGE else 0.0
    out[lay.start("trick_number") + min(state.tricks_played, 3)] = 1.0


def view(game: Mauscheln, state: MauschelnState, seat: int) -> dict[str, Any]:
    """The same information as :func:`encode`, as plain Python (relative seats, card codes)."""
    n = game.num_players
    order = relative_order(seat, n)

    def rel(s: int | None) -> int | None:
        return None if s is None else (s - seat) % n

    hidden = game.hand_is_hidden(state, seat)
    return {
        "seat": seat,
        "num_players": n,
        "phase": state.phase.value,
        "hand": [] if hidden else codes(state.hands[seat]).split(),
        "turned": codes([state.turned]),
        "trump": SUITS[state.trump],
        "own_discards": codes(state.face_down[seat]).split(),
        "trick": [(rel(s), codes([c])) for s, c in state.trick],
        "played": [codes(state.played[s]).split() for s in order],
        "leader": rel(state.trick[0][0] if state.trick else state.leader) if state.phase is Phase.PLAY else None,
        "to_act": rel(state.to_act),
        "dealer": rel(state.dealer),
        "sneaker": rel(state.sneaker),
        "bids": [state.bids[s].name.lower() for s in order],
        "tricks_won": [state.tricks_won[s] for s in order],
        "tricks_played": state.tricks_played,
        "exchanged": [state.exchanged[s] for s in order],
        "quartets": [state.quartets[s] for s in order],
        "knocked": state.knocked,
        "pot": state.ledger.pot,
        "pot_at_play": state.pot_at_play,
        "pinke": game.rules.pinke,
        "net": [state.scores[s] for s in order],
        "talon": len(state.talon),
        "pending": state.pending if state.phase is Phase.EXCHANGE else 0,
    }


def render(game: Mauscheln, state: MauschelnState, seat: int | None = None) -> str:
    status = "over" if state.terminal else f"phase {state.phase.value}"
    lines = [f"Mauscheln  deal {state.deals_played + (0 if state.terminal else 1)}  {status}  "
             f"trump {codes([state.turned])}  pot {state.ledger.pot}  talon {len(state.talon)}"]
    for s in range(game.num_players):
        shown = (s == seat or seat is None) and not game.hand_is_hidden(state, s)
        hand = codes(state.hands[s]) if shown else " ".join("##" for _ in state.hands[s])
        marks = (" D" if s == state.dealer else "") + (" *" if s == state.to_act else "")
        lines.append(f"  player_{s}{marks:5} {state.bids[s].name.lower():6} bankroll {state.ledger.bankrolls[s]:5}"
                     f"  tricks {state.tricks_won[s]}  {hand}")
    trick = "  ".join(f"player_{s}:{codes([c])}" for s, c in state.trick)
    lines.append(f"  trick: {trick or '-'}")
    return "\n".join(lines)
