"""The global state vector (PettingZoo's ``state()``): the whole position, for centralised critics.

A seat's observation holds what that seat may know; the global state holds what the table
as a whole knows plus what nobody sees. It is laid out, like the observation, as named
fields (``game.state_layout``, its table generated into docs/rules/<game>.md):

1. every place that holds cards, in absolute seat order: the hands, and the places a game
   declares in ``Game.card_places`` (face-down discards, the stock or talon, a skat...);
2. every seat's own observation, seat 0 first (so the history each observation summarises,
   public and private, is in it exactly as the seats see it).

Piles keep their order: a card's value is ``1 - depth / pack size`` (the top card is 1, a card
absent 0), so a critic can tell what will be drawn next. Nothing here imports Gymnasium.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.core.observation import Field, ObservationLayout
from rams_env.core.observation_core import encode_seats

if TYPE_CHECKING:
    from rams_env.core.game import Game, State


class Place(Enum):
    """How a State field holds cards."""

    SEATS = "seats"  # a list of cards per seat (hands, face-down discards)
    PILE = "pile"  # one list of cards, top first (stock, talon, skat)
    CARD = "card"  # one card id, or None / -1 when there is none


def _single_card(value: Any) -> list[int]:
    """A CARD field's value as a list of at most one card."""
    return [] if value is None or value < 0 else [value]


def state_layout(game: Game) -> ObservationLayout:
    """The global state's fields for ``game`` (sizes from its pack, table size and observation)."""
    cards, n = len(game.pack()), game.num_players
    fields = []
    for name, place in game.card_places.items():
        if place is Place.SEATS:
            fields.append(Field(name, n * cards, f"`{name}` of each seat, one-hot, absolute seat order"))
        elif place is Place.PILE:
            fields.append(Field(name, cards, f"`{name}`, top first: 1 - depth / {cards} (top card 1, absent 0)"))
        else:
            fields.append(Field(name, cards, f"`{name}`, one-hot (all 0 when there is none)"))
    for seat in range(n):
        fields.append(Field(f"observation_{seat}", game.observation.size,
                            f"player_{seat}'s observation (its own layout, seat-relative to player_{seat})"))
    return ObservationLayout(fields, version=1)


def encode_global_state(game: Game, state: State, out: np.ndarray) -> None:
    """Write the global state of ``state`` into the zeroed vector ``out``."""
    layout, index = game.state_layout, game.pack().index
    cards = len(index)
    for name, place in game.card_places.items():
        start, value = layout.start(name), getattr(state, name)
        if place is Place.SEATS:
            for seat, held in enumerate(value):
                out[[start + seat * cards + index[c] for c in held]] = 1.0
        elif place is Place.PILE:
            for depth, c in enumerate(value):
                out[start + index[c]] = 1.0 - depth / cards
        else:
            out[[start + index[c] for c in _single_card(value)]] = 1.0
    seats = range(game.num_players)
    encode_seats(game, state, seats, [out[layout[f"observation_{seat}"]] for seat in seats])
