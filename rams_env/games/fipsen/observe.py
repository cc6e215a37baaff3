"""What a Fipsen player may know: observation layout, encoder, view and rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.cards import SUITS, Pack, codes
from rams_env.encoding import put_cards, put_seat_cards, put_seat_fields, put_trick, relative_order
from rams_env.games.fipsen.state import FipsenState, Phase
from rams_env.observation import Field, ObservationLayout

if TYPE_CHECKING:
    from rams_env.games.fipsen.game import Fipsen

PHASES = list(Phase)
SCORE_SCALE = 100
"""Points (or hedewigs) that fill the net field (values are clipped)."""

SEAT_FIELDS: list[tuple[str, str]] = [
    ("leader", "1 for the player who leads (or led) the current trick"),
    ("to_act", "1 for the player whose decision it is"),
    ("dealer", "1 for the dealer"),
    ("declarer", "1 for the declarer (or the player who called fipsen)"),
    ("passed", "1 if the player has passed in the auction"),
    ("highest_bidder", "1 for the player holding the highest bid"),
    ("tricks_won", "tricks won this deal / 5"),
    ("race", "Thedinghausen: tricks toward the prize / race_to"),
    ("net", "score change in the session, 0.5 + net / 200, clipped to [0, 1]"),
]


def layout(n: int, pack: Pack, ladder: int) -> ObservationLayout:
    size = len(pack)
    return ObservationLayout([
        Field("hand", size, "cards in the observer's hand"),
        Field("turned", size, "Thedinghausen: the turned trump card"),
        Field("trump", len(SUITS), "trump suit one-hot (c s h d), once set"),
        Field("own_discards", size, "the observer's discarded cards (declarer)"),
        Field("trick", n * size, "card each player has played to the current trick, per relative seat"),
        Field("played", n * size, "every card each player has played this deal, per relative seat"),
        *[Field(name, n, doc) for name, doc in SEAT_FIELDS],
        Field("seat", n, "the observer's absolute seat, one-hot"),
        Field("phase", len(PHASES), "decision phase one-hot: " + ", ".join(p.value for p in PHASES)),
        Field("highest_bid", ladder + 1, "highest bid so far, one-hot over the ladder (0: none)"),
        Field("contract", ladder + 1, "the declarer's contract, one-hot over the ladder (0: none)"),
        Field("holder_to_answer", 1, "Prisdorf: the earlier player must hold or pass"),
        Field("playing_on", 1, "Grossenaspe: the declarer plays on for a Durch"),
        Field("pot", 1, "Thedinghausen: hedewigs in the pot / 20, capped at 1"),
        Field("trick_number", 5, "tricks completed so far, one-hot 0..4"),
    ])


def _seat_values(game: Fipsen, state: FipsenState, order: list[int]) -> dict[str, list]:
    leader = state.trick[0][0] if state.trick else state.leader
    in_play = state.phase is Phase.PLAY
    declarer = state.declarer if state.declarer is not None else state.fipsen
    return {
        "leader": [in_play and s == leader for s in order],
        "to_act": [s == state.to_act for s in order],
        "dealer": [s == state.dealer for s in order],
        "declarer": [s == declarer for s in order],
        "passed": [state.passed[s] for s in order],
        "highest_bidder": [s == state.highest_bidder for s in order],
        "tricks_won": [state.tricks_won[s] / 5 for s in order],
        "race": [min(state.race[s] / game.rules.race_to, 1.0) for s in order],
        "net": [min(max(0.5 + state.scores[s] / (2 * SCORE_SCALE), 0.0), 1.0) for s in order],
    }


def encode(game: Fipsen, state: FipsenState, seat: int, out: np.ndarray) -> None:
    lay, n, idx = game.observation, game.num_players, game.pack().index
    put_cards(out, lay.start("hand"), idx, state.hands[seat])
    if state.turned is not None:
        put_cards(out, lay.start("turned"), idx, [state.turned])
    if state.trump is not None:
        out[lay.start("trump") + state.trump] = 1.0
    put_cards(out, lay.start("own_discards"), idx, state.face_down[seat])
    put_trick(out, lay.start("trick"), idx, state.trick, seat, n)
    put_seat_cards(out, lay.start("played"), idx, state.played, seat)
    put_seat_fields(out, lay.start(SEAT_FIELDS[0][0]), [name for name, _ in SEAT_FIELDS],
                    _seat_values(game, state, relative_order(seat, n)))
    out[lay.start("seat") + seat] = 1.0
    out[lay.start("phase") + PHASES.index(state.phase)] = 1.0
    out[lay.start("highest_bid") + (0 if state.highest is None else state.highest + 1)] = 1.0
    out[lay.start("contract") + (0 if state.contract is None else state.contract + 1)] = 1.0
    out[lay.start("holder_to_answer")] = state.holder_to_answer
    out[lay.start("playing_on")] = state.playing_on
    out[lay.start("pot")] = min(state.ledger.pot / 20, 1.0)
    out[lay.start("trick_number") + min(state.tricks_played, 4)] = 1.0


def view(game: Fipsen, state: FipsenState, seat: int) -> dict[str, Any]:
    n = game.num_players
    order = relative_order(seat, n)

    def rel(s: int | None) -> int | None:
        return None if s is None else (s - seat) % n

    def label(level: int | None) -> str | None:
        return None if level is None else game.ladder[level].label

    return {
        "seat": seat,
        "num_players": n,
        "variant": game.rules.variant.value,
        "phase": state.phase.value,
        "hand": codes(state.hands[seat]).split(),
        "turned": codes([state.turned]) if state.turned is not None else None,
        "trump": SUITS[state.trump] if state.trump is not None else None,
        "own_discards": codes(state.face_down[seat]).split(),
        "trick": [(rel(s), codes([c])) for s, c in state.trick],
        "played": [codes(state.played[s]).split() for s in order],
        "leader": rel(state.trick[0][0] if state.trick else state.leader) if state.phase is Phase.PLAY else None,
        "to_act": rel(state.to_act),
        "dealer": rel(state.dealer),
        "declarer": rel(state.declarer),
        "fipsen": rel(state.fipsen),
        "passed": [state.passed[s] for s in order],
        "highest_bid": label(state.highest),
        "highest_bidder": rel(state.highest_bidder),
        "contract": label(state.contract),
        "holder_to_answer": state.holder_to_answer,
        "playing_on": state.playing_on,
        "tricks_won": [state.tricks_won[s] for s in order],
        "tricks_played": state.tricks_played,
        "race": [state.race[s] for s in order],
        "pot": state.ledger.pot,
        "net": [state.scores[s] for s in order],
    }


def render(game: Fipsen, state: FipsenState, seat: int | None = None) -> str:
    status = "over" if state.terminal else f"phase {state.phase.value}"
    trump = SUITS[state.trump] if state.trump is not None else "-"
    contract = game.ladder[state.contract].label if state.contract is not None else "-"
    lines = [f"Fipsen ({game.rules.variant.value})  deal {state.deals_played + (0 if state.terminal else 1)}"
             f"  {status}  trump {trump}  contract {contract}"]
    for s in range(game.num_players):
        shown = s == seat or seat is None
        hand = codes(state.hands[s]) if shown else " ".join("##" for _ in state.hands[s])
        marks = (" D" if s == state.dealer else "") + (" *" if s == state.to_act else "")
        lines.append(f"  player_{s}{marks:5} score {state.scores[s]:5}  tricks {state.tricks_won[s]}  {hand}")
    trick = "  ".join(f"player_{s}:{codes([c])}" for s, c in state.trick)
    lines.append(f"  trick: {trick or '-'}")
    return "\n".join(lines)
