"""The observation core every game shares: an observation declared once, as parts, with its encoder and view.

A game's ``observe.py`` lists the parts of its observation in layout order; the
:class:`Observation` lays out their fields, and the very same declaration encodes the
vector and builds the view, so the two cannot drift apart. A part is what the view
mirrors: the cards a player sees (:class:`Cards`, shown as codes), a number
(:class:`Scalar`, shown raw, written scaled), a choice among a few (:class:`OneHot`), the
table (:class:`Table`: the current trick and every card played), the observer's seat and
the phase (:class:`Position`), the trick number, and the per-player block
(:class:`~rams_env.core.observation_seats.SeatBlock`). Facts the view shows in another form
(bids by name, the rules' stakes) are :class:`Shown` parts: in the view, not the vector.

Enums reach views in one spelling, :func:`label` (the member's name in lower case, which
is also the value of every string-valued state enum).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import partial
from operator import attrgetter
from typing import Any, Protocol

import numpy as np

from rams_env.core.cards import SUITS, Pack, code, code_list, codes
from rams_env.core.encoding import card_slots, seat_slots
from rams_env.core.observation import Field, ObservationLayout
from rams_env.core.observation_seats import SeatBlock, attributes
from rams_env.core.straight_line import GETTER_ARGS, capped, compiled, fused

Getter = Callable[[Any, Any, int], Any]
"""``(game, state, seat) -> value``: what a part reads, for the observer ``seat``."""
Writer = Callable[[Any, Any, int, memoryview], None]
"""``(game, state, seat, out)``: writes a part into ``out``, a float32 memoryview of the zeroed vector (see
:meth:`Observation.encode`)."""
Viewer = Callable[[Any, Any, int, dict], None]


def label(member: Enum) -> str:
    """An enum member as views, renders and docs spell it: its name in lower case."""
    return member.name.lower()


def rotated(values: Sequence[Any], seat: int) -> list[Any]:
    """Per-seat ``values`` in ``seat``'s relative order (her own first)."""
    return [*values[seat:], *values[:seat]]


class Part(Protocol):
    """One piece of an observation: its fields, how it writes them, what the view shows of it.

    ``per_seat`` False: what it writes is the same for every observer (written once when several seats
    observe one position). Parts of one kind that are many in an observation (cards, numbers, one-hots) are
    written together instead: each gives an ``item`` (where it writes, what it reads) and the kind's ``batch``
    makes one writer of all of them, one call per observation instead of one per part."""

    per_seat: bool

    def layout_fields(self, n: int, pack: Pack) -> list[Field]: ...

    def writer(self, at: dict[str, int], n: int, index: dict[int, int]) -> Writer | None: ...

    def viewer(self, n: int) -> Viewer | None: ...


class Observation(ObservationLayout):
    """A layout built from parts, with the encoder and the view those parts generate."""

    def __init__(self, parts: Sequence[Part], n: int, pack: Pack, version: int = 1) -> None:
        seats = next((p for p in parts if isinstance(p, SeatBlock)), None)
        super().__init__([f for p in parts for f in p.layout_fields(n, pack)], version, seats=seats)
        self.parts = tuple(parts)
        single = [(w, p.per_seat) for p in parts
                  if getattr(p, "batch", None) is None and (w := p.writer(self.offsets, n, pack.index)) is not None]
        self._writers = [w for w, _ in self._batched(parts, pack.index, by_seat=False) + single]
        """One observer's writers: one per batched kind (a writer call saved where a kind is both per seat and
        alike for every seat, as Tippen's cards), then the others."""
        apart = self._batched(parts, pack.index, by_seat=True) + single
        self._shared = [w for w, per_seat in apart if not per_seat]
        self._own = [w for w, per_seat in apart if per_seat]
        self._encode, self._encode_shared, self._encode_own = (
            fused(name, writers) for name, writers in (("observation", self._writers),
                                                       ("alike for every seat", self._shared),
                                                       ("each seat's own", self._own)))
        """The writers of each list fused into one function (``straight_line.fused``), ``out`` a numpy vector."""
        self._viewers = [v for p in parts if (v := p.viewer(n)) is not None]

    def _batched(self, parts: Sequence[Part], index: dict[int, int], by_seat: bool) -> list[tuple[Writer, bool]]:
        """One writer for all the parts of each kind that writes in a batch (``by_seat``: and of each ``per_seat``,
        for :meth:`encode_seats`, which writes what every seat sees alike once)."""
        items: dict[tuple[Callable, bool], list] = {}
        for p in parts:
            batch = getattr(p, "batch", None)
            if batch is not None:
                items.setdefault((batch, p.per_seat and by_seat), []).append(p.item(self.offsets, index))
        return [(batch(found), per_seat) for (batch, per_seat), found in items.items()]

    def encode(self, game: Any, state: Any, seat: int, out: np.ndarray) -> None:
        """Fill ``out`` (zeros) with what ``seat`` may know.

        The writers write through a memoryview of ``out``: an element written through it costs about 480
        machine instructions against numpy's 730 (which parses the index and converts the value), a row copy
        1,200 against 2,600; making the view costs 2,300, paid back by the 20-40 writes of an observation.
        Both round a Python float to float32 the same way (to nearest), so the vector is the same."""
        self._encode(game, state, seat, out)

    def bound(self, game: Any) -> Callable[[Any, int, np.ndarray], None]:
        """:meth:`encode` for ``game`` as one call, ``(state, seat, out)``: its fused writers bound to the game."""
        return partial(self._encode, game)

    def encode_seats(self, game: Any, state: Any, seats: Sequence[int], outs: Sequence[np.ndarray]) -> None:
        """:meth:`encode` for several seats of one position (every seat at the end of a deal): the parts
        every seat sees alike are written once and copied."""
        shared = self.zeros()
        self._encode_shared(game, state, seats[0], shared)
        encode_own = self._encode_own
        for seat, out in zip(seats, outs, strict=True):
            out[:] = shared
            encode_own(game, state, seat, out)

    def view(self, game: Any, state: Any, seat: int) -> dict[str, Any]:
        """The same information as :meth:`encode`, as plain Python (relative seats, card codes)."""
        seen: dict[str, Any] = {}
        for show in self._viewers:
            show(game, state, seat, seen)
        return seen


def encode(game: Any, state: Any, seat: int, out: np.ndarray) -> None:
    """Every game's ``observe.encode``: its observation's generated encoder."""
    game.observation.encode(game, state, seat, out)


def view(game: Any, state: Any, seat: int) -> dict[str, Any]:
    """Every game's ``observe.view``: its observation's generated view."""
    return game.observation.view(game, state, seat)


def encode_seats(game: Any, state: Any, seats: Sequence[int], outs: Sequence[np.ndarray]) -> None:
    """Each seat's observation into its zeroed vector in ``outs``, shared parts once (any :class:`Game`)."""
    if isinstance(game.observation, Observation):
        game.observation.encode_seats(game, state, seats, outs)
        return
    for seat, out in zip(seats, outs, strict=True):
        game.encode(state, seat, out)


# ------------------------------------------------------------ cards
class Shows(Enum):
    """How the view shows a card field."""

    CODES = "codes"  # a list of card codes
    CARD = "card"  # one card code, or None when there is none


@dataclass(frozen=True)
class Cards:
    """A pack-sized one-hot of the cards ``cards(game, state, seat)``; the view shows their codes."""

    name: str
    doc: str
    cards: Getter
    shows: Shows = Shows.CODES
    per_seat: bool = True
    """False for cards every seat sees alike (a face-up card): written once for all seats at the end of a deal."""

    def layout_fields(self, n: int, pack: Pack) -> list[Field]:
        return [Field(self.name, len(pack), self.doc)]

    def item(self, at: dict[str, int], index: dict[int, int]) -> tuple[dict[int, int], Getter]:
        """Where each card is written, and the cards."""
        return card_slots(at[self.name], index), self.cards

    @staticmethod
    def batch(items: Sequence[tuple[dict[int, int], Getter]]) -> Writer:
        """One loop over each part's cards, written out (``straight_line``)."""
        body, constants = [], {}
        for k, (slot, cards) in enumerate(items):
            constants[f"slot{k}"], constants[f"cards{k}"] = slot, cards
            body += [f"for c in cards{k}({GETTER_ARGS}):", f"    out[slot{k}[c]] = 1.0"]
        return compiled("cards", body, constants)

    def viewer(self, n: int) -> Viewer:
        name, cards, one = self.name, self.cards, self.shows is Shows.CARD

        def show(game: Any, state: Any, seat: int, into: dict) -> None:
            held = cards(game, state, seat)
            into[name] = (codes(held) if held else None) if one else code_list(held)
        return show


def hand(doc: str = "cards in the observer's hand", hidden: Getter | None = None) -> Cards:
    """The observer's hand; empty while ``hidden(game, state, seat)`` (a dealer deciding blind)."""
    if hidden is None:
        return Cards("hand", doc, lambda game, state, seat: state.hands[seat])
    return Cards("hand", doc, lambda game, state, seat: () if hidden(game, state, seat) else state.hands[seat])


def hand_seen_after_knock() -> Cards:
    """The hand of a game whose dealer may knock blind: empty while ``game.hand_is_hidden(state, seat)``."""
    return Cards("hand", "cards in the observer's hand (empty while the dealer decides to knock blind)",
                 _hand_unless_hidden)


def _hand_unless_hidden(game: Any, state: Any, seat: int) -> Any:
    """The hand, empty while ``game.hand_is_hidden``: one call at every observation (not a getter around one)."""
    return () if game.hand_is_hidden(state, seat) else state.hands[seat]


def own_discards(doc: str) -> Cards:
    """The observer's own face-down cards."""
    return Cards("own_discards", doc, lambda game, state, seat: state.face_down[seat])


def turned(doc: str, name: str = "turned") -> Cards:
    """The card ``state.turned`` (face up for everyone), if any; the view shows its code or None."""
    return Cards(name, doc, lambda game, state, seat: () if state.turned is None else (state.turned,), Shows.CARD,
                 per_seat=False)


# ------------------------------------------------------------ numbers and choices
@dataclass(frozen=True)
class Scalar:
    """One number: ``value / scale`` capped at 1 in the vector, the value itself in the view.

    ``get`` names a state attribute (dotted names read through: ``ledger.pot``) or is a :data:`Getter`;
    ``shown`` False keeps it out of the view (which then shows the fact another way).
    """

    name: str
    doc: str
    get: str | Getter
    scale: float = 1.0
    shown: bool = True
    per_seat: bool = False
    """True if the value depends on the observer (the getter's ``seat``)."""

    def layout_fields(self, n: int, pack: Pack) -> list[Field]:
        return [Field(self.name, 1, self.doc)]

    def value(self) -> Getter:
        if callable(self.get):
            return self.get
        read = attrgetter(self.get)  # a dotted name reads through (``ledger.pot``)
        return lambda game, state, seat: read(state)

    def item(self, at: dict[str, int], index: dict[int, int]) -> tuple[int, str | Getter, float]:
        return at[self.name], self.get, self.scale

    @staticmethod
    def batch(items: Sequence[tuple[int, str | Getter, float]]) -> Writer:
        """The numbers named by a state attribute read in one call, the others through their getters, each
        divided by its scale and written if not 0 (``straight_line.capped``), one block per number."""
        named = [(start, get, scale) for start, get, scale in items if isinstance(get, str)]
        computed = [(start, get, scale) for start, get, scale in items if not isinstance(get, str)]
        body, constants = [], {"read": attributes([get for _, get, _ in named])}
        if named:
            body.append(f"{''.join(f'v{k}, ' for k in range(len(named)))}= read(state)")
        for k, (start, _, scale) in enumerate(named):
            constants[f"scale{k}"] = scale
            body += [f"v{k} /= scale{k}", *capped(start, f"v{k}")]
        for k, (start, get, scale) in enumerate(computed):
            constants[f"get{k}"], constants[f"by{k}"] = get, scale
            body += [f"w{k} = get{k}({GETTER_ARGS}) / by{k}", *capped(start, f"w{k}")]
        return compiled("numbers", body, constants)

    def viewer(self, n: int) -> Viewer | None:
        if not self.shown:
            return None
        return Shown(self.name, self.value()).viewer(n)


@dataclass(frozen=True)
class OneHot:
    """One of ``size`` choices, ``index(game, state, seat)`` (None: none yet); the view shows ``show``."""

    name: str
    size: int
    doc: str
    index: Getter
    show: Getter
    per_seat: bool = False

    def layout_fields(self, n: int, pack: Pack) -> list[Field]:
        return [Field(self.name, self.size, self.doc)]

    def item(self, at: dict[str, int], index: dict[int, int]) -> tuple[int, Getter]:
        return at[self.name], self.index

    @staticmethod
    def batch(items: Sequence[tuple[int, Getter]]) -> Writer:
        """Each one-hot's choice, written out (``straight_line``)."""
        body, constants = [], {}
        for k, (start, chosen) in enumerate(items):
            constants[f"chosen{k}"] = chosen
            body += [f"i{k} = chosen{k}({GETTER_ARGS})", f"if i{k} is not None:", f"    out[{start} + i{k}] = 1.0"]
        return compiled("one-hots", body, constants)

    def viewer(self, n: int) -> Viewer:
        return Shown(self.name, self.show).viewer(n)


def trump(doc: str, known: Callable[[Any, Any], bool]) -> OneHot:
    """The trump suit one-hot (c s h d) once ``known(game, state)``; the view shows the suit's letter or None."""
    return OneHot("trump", len(SUITS), doc, lambda game, state, seat: state.trump if known(game, state) else None,
                  lambda game, state, seat: SUITS[state.trump] if known(game, state) else None)


def pot(scale: float, unit: str) -> list[Scalar]:
    """The pot games' pot now and when play began (what bêtes are measured by), / ``scale`` (``unit``)."""
    return [Scalar("pot", f"chips in the pot / {unit}, capped at 1", "ledger.pot", scale),
            Scalar("pot_at_play", f"the pot when play began (what bêtes are measured by) / {unit}, capped at 1",
                   "pot_at_play", scale)]


def exchange(pack_size: int, most: int, exchanging: Enum, talon_hidden: Enum | None = None) -> list[Scalar]:
    """The exchange games' talon (cards left / pack size; 0 while ``talon_hidden`` lasts) and the cards the
    player exchanging now has discarded so far / ``most`` (0 outside the ``exchanging`` phase)."""
    return [Scalar("talon", "cards left in the talon / pack size",
                   lambda game, state, seat: 0 if state.phase is talon_hidden else len(state.talon), pack_size),
            Scalar("pending", f"cards discarded so far by the player exchanging now / {most}",
                   lambda game, state, seat: state.pending if state.phase is exchanging else 0, most)]


def pot_game_end(scale: float, unit: str, tricks: int, exchange: Sequence[Scalar] = ()) -> list[Part]:
    """How the pot games' observations end: the :func:`pot`, the :func:`exchange` if the game has one, the
    trick number; the view lists every player's bid."""
    return [*pot(scale, unit), *exchange, TrickNumber(tricks), seat_labels("bids", "bids")]


# ------------------------------------------------------------ view only
@dataclass(frozen=True)
class Shown:
    """A fact the view shows and the vector does not (or shows in another form)."""

    key: str
    get: Getter

    def layout_fields(self, n: int, pack: Pack) -> list[Field]:
        return []

    def writer(self, at: dict[str, int], n: int, index: dict[int, int]) -> None:
        return None

    def viewer(self, n: int) -> Viewer:
        key, get = self.key, self.get

        def show(game: Any, state: Any, seat: int, into: dict) -> None:
            into[key] = get(game, state, seat)
        return show


def seat_labels(key: str, attr: str) -> Shown:
    """The per-seat enums ``state.<attr>`` (bids, signals) by :func:`label`, in relative seat order."""
    return Shown(key, lambda game, state, seat: [label(v) for v in rotated(getattr(state, attr), seat)])


def rule(key: str) -> Shown:
    """A rule the view repeats (``game.rules.<key>``: lives, the stake...)."""
    return Shown(key, lambda game, state, seat: getattr(game.rules, key))


# ------------------------------------------------------------ the table, the seat, the phase
class Table:
    """The current trick and the cards played this deal, one pack-sized row per relative seat."""

    per_seat = True

    def layout_fields(self, n: int, pack: Pack) -> list[Field]:
        size = len(pack)
        return [Field("trick", n * size, "card each player has played to the current trick, per relative seat"),
                Field("played", n * size, "every card each player has played this deal, per relative seat")]

    def writer(self, at: dict[str, int], n: int, index: dict[int, int]) -> Writer:
        trick_slots, played_slots = seat_slots(at["trick"], n, index), seat_slots(at["played"], n, index)
        return compiled("table", [
            "slots = trick_slots[seat]",
            "for s, c in state.trick:",
            "    out[slots[s][c]] = 1.0",
            "slots = played_slots[seat]",
            "for s, cards in enumerate(state.played):  # one slot table per seat: not zip(strict=True), a keyword call",
            "    slot = slots[s]",
            "    for c in cards:",
            "        out[slot[c]] = 1.0",
        ], {"trick_slots": trick_slots, "played_slots": played_slots})

    def viewer(self, n: int) -> Viewer:
        def show(game: Any, state: Any, seat: int, into: dict) -> None:
            into["trick"] = [((s - seat) % n, code(c)) for s, c in state.trick]
            into["played"] = [code_list(cards) for cards in rotated(state.played, seat)]
            into["tricks_played"] = state.tricks_played
        return show


@dataclass(frozen=True)
class Position:
    """The observer's absolute seat and the phase one-hot; the view adds the table size."""

    phases: Sequence[Enum]
    seat_doc: str = "the observer's absolute seat, one-hot"
    per_seat = True

    def layout_fields(self, n: int, pack: Pack) -> list[Field]:
        return [Field("seat", n, self.seat_doc),
                Field("phase", len(self.phases), "decision phase one-hot: " + ", ".join(map(label, self.phases)))]

    def writer(self, at: dict[str, int], n: int, index: dict[int, int]) -> Writer:
        body = [f"out[{at['seat']} + seat] = 1.0", f"out[{at['phase']} + phase_index[state.phase]] = 1.0"]
        return compiled("position", body, {"phase_index": {p: i for i, p in enumerate(self.phases)}})

    def viewer(self, n: int) -> Viewer:
        def show(game: Any, state: Any, seat: int, into: dict) -> None:
            into.update(seat=seat, num_players=n, phase=label(state.phase))
        return show


def around_the_table(seats: SeatBlock, phases: Sequence[Enum], seat_doc: str | None = None) -> list[Part]:
    """What every game shows in the middle of its observation, in this order: the :class:`Table`, the
    per-player block, the observer's :class:`Position` and the phase."""
    position = Position(phases) if seat_doc is None else Position(phases, seat_doc)
    return [Table(), seats, position]


@dataclass(frozen=True)
class TrickNumber:
    """Tricks completed so far, one-hot (the view has ``tricks_played`` from the :class:`Table`)."""

    tricks: int
    per_seat = False

    def layout_fields(self, n: int, pack: Pack) -> list[Field]:
        return [Field("trick_number", self.tricks, f"tricks completed so far, one-hot 0..{self.tricks - 1}")]

    def writer(self, at: dict[str, int], n: int, index: dict[int, int]) -> Writer:
        last = self.tricks - 1
        return compiled("trick number", ["done = state.tricks_played",
                                         f"out[{at['trick_number']} + (done if done < {last} else {last})] = 1.0"], {})

    def viewer(self, n: int) -> None:
        return None
