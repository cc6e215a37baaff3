"""What a Tippen player may know: observation layout, encoder, view and rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.cards import SUITS, Pack, codes
from rams_env.encoding import put_cards, put_seat_cards, put_seat_fields, put_trick, relative_order
from rams_env.games.tippen.rules import DealerOption, TrumpFrom
from rams_env.games.tippen.state import Bid, Phase, TippenState
from rams_env.observation import Field, ObservationLayout

if TYPE_CHECKING:
    from rams_env.games.tippen.game import Tippen

PHASES = list(Phase)
POT_SCALE = 64
"""Basic stakes that fill the pot and net fields (values are capped)."""

SEAT_FIELDS: list[tuple[str, str]] = [
    ("leader", "1 for the player who leads (or led) the current trick"),
    ("to_act", "1 for the player whose decision it is"),
    ("dealer", "1 for the dealer"),
    ("playing", "1 if the player plays this deal (tapped, forced, or the privileged dealer)"),
    ("passed", "1 if the player passed (or dropped out)"),
    ("privileged", "1 for the dealer who knocked or sniffed"),
    ("upcard_holder", "1 for the player who took the turned trump card (knock, sniff, rob)"),
    ("tricks_won", "tricks won this deal / tricks per deal"),
    ("exchanged", "cards exchanged this deal / 3"),
    ("net", "chips won in the session, 0.5 + net / (2 x 64 stakes), clipped to [0, 1]"),
]


def layout(n: int, pack: Pack, hand_size: int) -> ObservationLayout:
    size = len(pack)
    return ObservationLayout([
        Field("hand", size, "cards in the observer's hand (empty while the dealer decides to knock blind)"),
        Field("trump_card", size, "the trump card, while every player can see it"),
        Field("trump", len(SUITS), "trump suit one-hot (c s h d), once known to all"),
        Field("own_discards", size, "the observer's discarded cards"),
        Field("trick", n * size, "card each player has played to the current trick, per relative seat"),
        Field("played", n * size, "every card each player has played this deal, per relative seat"),
        *[Field(name, n, doc) for name, doc in SEAT_FIELDS],
        Field("seat", n, "the observer's absolute seat, one-hot"),
        Field("phase", len(PHASES), "decision phase one-hot: " + ", ".join(p.value for p in PHASES)),
        Field("forced", 1, "1 if everyone must play (only the basic stake in the pot)"),
        Field("pot", 1, "chips in the pot / (64 stakes), capped at 1"),
        Field("pot_at_play", 1, "the pot when play began / (64 stakes), capped at 1"),
        Field("talon", 1, "cards left in the talon / pack size"),
        Field("pending", 1, "cards discarded so far by the player exchanging now / 3"),
        Field("trick_number", hand_size, f"tricks completed so far, one-hot 0..{hand_size - 1}"),
    ])


def trump_known(game: Tippen, state: TippenState) -> bool:
    """Trumps are known once the dealer's privilege is settled (the trump is "unfaced" before)."""
    return state.phase not in (Phase.SHOVE, Phase.DEALER)


def known_cards(game: Tippen, state: TippenState) -> set[int]:
    """Cards whose place every player knows: the face-up trump card, wherever it lies."""
    if game.rules.trump_from is TrumpFrom.DEALER_LAST and state.phase is not Phase.SHOVE:
        return {state.trump_card}  # shows trumps and stays in the dealer's hand
    unseen_take = state.upcard_taken_by == state.privileged and game.rules.dealer_option in (
        DealerOption.KNOCK, DealerOption.SNIFF_GRUPP)
    if trump_known(game, state) and not (state.upcard_taken_by is not None and unseen_take):
        return {state.trump_card}
    return set()


def _seat_values(game: Tippen, state: TippenState, order: list[int]) -> dict[str, list]:
    leader = state.trick[0][0] if state.trick else state.leader
    in_play, scale = state.phase is Phase.PLAY, 2 * POT_SCALE * game.rules.stake
    return {
        "leader": [in_play and s == leader for s in order],
        "to_act": [s == state.to_act for s in order],
        "dealer": [s == state.dealer for s in order],
        "playing": [state.active(s) for s in order],
        "passed": [state.bids[s] is Bid.PASS for s in order],
        "privileged": [s == state.privileged for s in order],
        "upcard_holder": [s == state.upcard_taken_by for s in order],
        "tricks_won": [state.tricks_won[s] / game.rules.hand_size for s in order],
        "exchanged": [state.exchanged[s] / 3 for s in order],
        "net": [min(max(0.5 + state.scores[s] / scale, 0.0), 1.0) for s in order],
    }


def encode(game: Tippen, state: TippenState, seat: int, out: np.ndarray) -> None:
    lay, n, pack = game.observation, game.num_players, game.pack()
    idx, pot_scale = pack.index, POT_SCALE * game.rules.stake
    if not game.hand_is_hidden(state, seat):
        put_cards(out, lay.start("hand"), idx, state.hands[seat])
    put_cards(out, lay.start("trump_card"), idx, known_cards(game, state))
    if trump_known(game, state):
        out[lay.start("trump") + state.trump] = 1.0
    put_cards(out, lay.start("own_discards"), idx, state.face_down[seat])
    put_trick(out, lay.start("trick"), idx, state.trick, seat, n)
    put_seat_cards(out, lay.start("played"), idx, state.played, seat)
    put_seat_fields(out, lay.start(SEAT_FIELDS[0][0]), [name for name, _ in SEAT_FIELDS],
                    _seat_values(game, state, relative_order(seat, n)))
    out[lay.start("seat") + seat] = 1.0
    out[lay.start("phase") + PHASES.index(state.phase)] = 1.0
    out[lay.start("forced")] = state.forced
    out[lay.start("pot")] = min(state.ledger.pot / pot_scale, 1.0)
    out[lay.start("pot_at_play")] = min(state.pot_at_play / pot_scale, 1.0)
    out[lay.start("talon")] = len(state.talon) / len(pack) if state.phase is not Phase.SHOVE else 0.0
    out[lay.start("pending")] = state.pending / 3 if state.phase is Phase.EXCHANGE else 0.0
    out[lay.start("trick_number") + min(state.tricks_played, game.rules.hand_size - 1)] = 1.0


def view(game: Tippen, state: TippenState, seat: int) -> dict[str, Any]:
    n = game.num_players
    order = relative_order(seat, n)

    def rel(s: int | None) -> int | None:
        return None if s is None else (s - seat) % n

    known = known_cards(game, state)
    return {
        "seat": seat,
        "num_players": n,
        "phase": state.phase.value,
        "hand": [] if game.hand_is_hidden(state, seat) or state.phase is Phase.SHOVE
        else codes(state.hands[seat]).split(),
        "trump_card": codes(known) if known else None,
        "trump": SUITS[state.trump] if trump_known(game, state) else None,
        "own_discards": codes(state.face_down[seat]).split(),
        "trick": [(rel(s), codes([c])) for s, c in state.trick],
        "played": [codes(state.played[s]).split() for s in order],
        "leader": rel(state.trick[0][0] if state.trick else state.leader) if state.phase is Phase.PLAY else None,
        "to_act": rel(state.to_act),
        "dealer": rel(state.dealer),
        "bids": [state.bids[s].name.lower() for s in order],
        "privileged": rel(state.privileged),
        "upcard_holder": rel(state.upcard_taken_by),
        "tricks_won": [state.tricks_won[s] for s in order],
        "tricks_played": state.tricks_played,
        "exchanged": [state.exchanged[s] for s in order],
        "forced": state.forced,
        "pot": state.ledger.pot,
        "pot_at_play": state.pot_at_play,
        "stake": game.rules.stake,
        "net": [state.scores[s] for s in order],
        "talon": len(state.talon) if state.phase is not Phase.SHOVE else 0,
        "pending": state.pending if state.phase is Phase.EXCHANGE else 0,
    }


def render(game: Tippen, state: TippenState, seat: int | None = None) -> str:
    status = "over" if state.terminal else f"phase {state.phase.value}"
    trump = SUITS[state.trump] if trump_known(game, state) else "?"
    lines = [f"Tippen  deal {state.deals_played + (0 if state.terminal else 1)}  {status}  trump {trump}"
             f"  pot {state.ledger.pot}  talon {len(state.talon)}"]
    for s in range(game.num_players):
        shown = (s == seat or seat is None) and not game.hand_is_hidden(state, s)
        hand = codes(state.hands[s]) if shown else " ".join("##" for _ in state.hands[s])
        marks = (" D" if s == state.dealer else "") + (" *" if s == state.to_act else "")
        lines.append(f"  player_{s}{marks:5} {state.bids[s].name.lower():10} bankroll {state.ledger.bankrolls[s]:5}"
                     f"  tricks {state.tricks_won[s]}  {hand}")
    trick = "  ".join(f"player_{s}:{codes([c])}" for s, c in state.trick)
    lines.append(f"  trick: {trick or '-'}")
    return "\n".join(lines)
