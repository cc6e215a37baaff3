"""What a Tippen player may know: observation layout, encoder, view and rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.core import observation_core as core
from rams_env.core.cards import SUITS, Pack, codes
from rams_env.core.encoding import put_cards
from rams_env.core.observation import Field, ObservationLayout
from rams_env.core.observation_core import SeatBlock, marker
from rams_env.games.tippen.rules import DealerOption, TrumpFrom
from rams_env.games.tippen.state import Bid, Phase, TippenState

if TYPE_CHECKING:
    from rams_env.games.tippen.game import Tippen

PHASES = list(Phase)
PHASE_INDEX = core.phase_index(PHASES)
POT_SCALE = 64
"""Basic stakes that fill the pot and net fields (values are capped)."""

def seat_block(n: int, hand_size: int, stake: int) -> SeatBlock:
    """Tippen's per-player fields (seat-relative), in layout order."""
    return SeatBlock([
        *core.play_markers(Phase.PLAY),
        core.playing_field("1 if the player plays this deal (tapped, forced, or the privileged dealer)", n),
        core.bid_field("passed", "1 if the player passed (or dropped out)", Bid.PASS),
        marker("privileged", "1 for the dealer who knocked or sniffed", lambda s: s.privileged),
        marker("upcard_holder", "1 for the player who took the turned trump card (knock, sniff, rob)",
               lambda s: s.upcard_taken_by),
        core.tricks_won_field(hand_size, "tricks per deal"),
        core.seat_list("exchanged", "cards exchanged this deal / 3", scale=3),
        core.net_field(2 * POT_SCALE * stake, "(2 x 64 stakes)"),
    ], n)


def layout(n: int, pack: Pack, hand_size: int, stake: int) -> ObservationLayout:
    size = len(pack)
    seats = seat_block(n, hand_size, stake)
    position, trick_number = core.position_fields(n, PHASES, hand_size)
    return ObservationLayout([
        Field("hand", size, "cards in the observer's hand (empty while the dealer decides to knock blind)"),
        Field("trump_card", size, "the trump card, while every player can see it"),
        Field("trump", len(SUITS), "trump suit one-hot (c s h d), once known to all"),
        Field("own_discards", size, "the observer's discarded cards"),
        *core.table_fields(n, size),
        *seats.layout_fields(),
        *position,
        Field("forced", 1, "1 if everyone must play (only the basic stake in the pot)"),
        Field("pot", 1, "chips in the pot / (64 stakes), capped at 1"),
        Field("pot_at_play", 1, "the pot when play began / (64 stakes), capped at 1"),
        Field("talon", 1, "cards left in the talon / pack size"),
        Field("pending", 1, "cards discarded so far by the player exchanging now / 3"),
        *trick_number,
    ], seats=seats)


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


def encode(game: Tippen, state: TippenState, seat: int, out: np.ndarray) -> None:
    lay, pack = game.observation, game.pack()
    at, idx = lay.offsets, pack.index
    if not game.hand_is_hidden(state, seat):
        put_cards(out, at["hand"], idx, state.hands[seat])
    put_cards(out, at["trump_card"], idx, known_cards(game, state))
    if trump_known(game, state):
        out[at["trump"] + state.trump] = 1.0
    put_cards(out, at["own_discards"], idx, state.face_down[seat])
    core.write_table(out, at, idx, state, seat, game.num_players)
    lay.seats.encode(state, seat, out, at[lay.seats.first])
    core.write_position(out, at, PHASE_INDEX, state, seat, game.rules.hand_size)
    out[at["forced"]] = state.forced
    core.write_pot(out, at, state, POT_SCALE * game.rules.stake)
    out[at["talon"]] = len(state.talon) / len(pack) if state.phase is not Phase.SHOVE else 0.0
    out[at["pending"]] = state.pending / 3 if state.phase is Phase.EXCHANGE else 0.0


def view(game: Tippen, state: TippenState, seat: int) -> dict[str, Any]:
    n = game.num_players
    known = known_cards(game, state)
    seen = {
        **core.position_view(state, seat, n),
        "hand": [] if game.hand_is_hidden(state, seat) or state.phase is Phase.SHOVE
        else codes(state.hands[seat]).split(),
        "trump_card": codes(known) if known else None,
        "trump": SUITS[state.trump] if trump_known(game, state) else None,
        "own_discards": codes(state.face_down[seat]).split(),
        **core.table_view(state, seat, n),
        "bids": [state.bids[(seat + r) % n].name.lower() for r in range(n)],
        "forced": state.forced,
        **core.pot_view(state),
        "stake": game.rules.stake,
        "talon": len(state.talon) if state.phase is not Phase.SHOVE else 0,
        "pending": state.pending if state.phase is Phase.EXCHANGE else 0,
    }
    game.observation.seats.view(state, seat, seen)
    return seen


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
