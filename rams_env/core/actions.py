"""Named action segments mapped onto one ``Discrete`` space, with labels both ways.

A game declares its actions once, as segments: ``Segment("play", pack.codes, bare=True)``
gives one action per card labelled by the card code (``"Ac"``), ``Segment("knock")``
one action labelled ``"knock"``, ``Segment("bid", ("2", "3"))`` actions ``"bid 2"``,
``"bid 3"``. Ids, the space size and labels are all computed from that declaration.

A game names its segments once, in an :class:`ActionName` enum (``Act.KNOCK``), and the engine, the
heuristics and the tests use the members, never the bare strings: a misspelt member fails where it is
written, while a misspelt string (``name == "knokc"``) would be quietly false, or a ``KeyError`` deep in
play. The members are strings, so labels and ``start["play"]`` keep working.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rams_env.core.cards import Pack


class UnknownActionLabel(ValueError):
    """A label that names no action of this game."""


class ActionName(StrEnum):
    """Base of a game's segment names (``class Act(ActionName): KNOCK = "knock"``); each value a segment."""


@dataclass(frozen=True)
class Segment:
    """A run of consecutive action ids sharing a name.

    items: one action per item (labelled ``"name item"``, or ``"item"`` when bare);
           ``None`` for a single action labelled by the name alone.
    seen_by_others: what the other players learn of the action when its item is face down (a
           discard: ``"discards a card"``); empty when the label itself is public.
    pack: a card segment (play, discard): one action per card of this pack, in pack order
           (made by :meth:`cards`); the layout converts cards to ids and back.
    """

    name: str
    items: tuple[str, ...] | None = None
    bare: bool = False
    doc: str = ""
    seen_by_others: str = ""
    pack: Pack | None = None

    @classmethod
    def cards(cls, name: str, pack: Pack, *, bare: bool = False, doc: str = "",
              seen_by_others: str = "") -> Segment:
        """One action per card of ``pack``, labelled by its code (``bare``) or ``"name code"``."""
        return cls(name, pack.codes, bare=bare, doc=doc, seen_by_others=seen_by_others, pack=pack)

    @property
    def size(self) -> int:
        return 1 if self.items is None else len(self.items)

    def labels(self) -> list[str]:
        if self.items is None:
            return [str(self.name)]  # a plain string, also when the name is an ActionName
        return [item if self.bare else f"{self.name} {item}" for item in self.items]


PLAY = "play"
"""The name of every trick game's card-play segment (:func:`play_segment`)."""


def play_segment(pack: Pack) -> Segment:
    """Every trick game's first segment: one action per card, labelled by its code."""
    return Segment.cards(PLAY, pack, bare=True, doc="play this card")


def with_plays(names: Sequence[str], labels: Sequence[str], cards: Collection[str]) -> list[str]:
    """``names`` (action labels) with :data:`PLAY` standing for every card-play label among ``labels`` (each card's
    bare code, :func:`play_segment`) and a card segment's name (``discard``) for each of its labels (``discard
    7c``, ...). A config says "every card played" or "every discard" in one word (a card-play refresher:
    ``warm_start.actions: [play, discard]``)."""
    segments = card_segment_labels(labels, cards)
    out: list[str] = []
    for name in names:
        if name == PLAY:
            out += [label for label in labels if label in cards]
        else:
            out += segments[name] if name in segments and name not in labels else [name]
    return list(dict.fromkeys(out))


def card_segment_labels(labels: Sequence[str], cards: Collection[str]) -> dict[str, list[str]]:
    """Each card segment's name among ``labels`` (other than the bare plays) with its labels, ``"<name> <card>"``:
    the one-word names :func:`with_plays` accepts beside :data:`PLAY`."""
    segments: dict[str, list[str]] = {}
    for label in labels:
        name, _, card = label.rpartition(" ")
        if name and card in cards:
            segments.setdefault(name, []).append(label)
    return segments


def card_words(labels: Sequence[str], cards: Collection[str]) -> list[str]:
    """The one-word names :func:`with_plays` expands among ``labels``: :data:`PLAY`, then each card segment's name
    (``discard``). What an error message offers beside the plain labels."""
    return [PLAY, *card_segment_labels(labels, cards)]


class ActionLayout:
    """The action space of a game: segments laid end to end."""

    def __init__(self, segments: Sequence[Segment], names: type[ActionName] | None = None) -> None:
        """``names``: the game's segment-name enum; it must name exactly the segments declared, and the
        segments' names become its members (shared segments such as :func:`play_segment` spell strings)."""
        if names is not None:
            if {seg.name for seg in segments} != set(names):
                raise ValueError(f"{names.__name__} must name exactly the action segments declared")
            segments = [replace(seg, name=names(seg.name)) for seg in segments]
        self.segments = tuple(segments)
        self.start: dict[str, int] = {}
        labels: list[str] = []
        for seg in self.segments:
            if seg.name in self.start:
                raise ValueError(f"action segment {seg.name!r} declared twice")
            self.start[seg.name] = len(labels)
            labels.extend(seg.labels())
        if len(set(labels)) != len(labels):
            raise ValueError("action labels must be unique")
        self.labels = tuple(labels)
        self._ids = {label: i for i, label in enumerate(labels)}
        self._segment_of = [seg for seg in self.segments for _ in range(seg.size)]
        self._named = {seg.name: seg for seg in self.segments}
        self._decoded = [self._decode(action) for action in range(len(self.labels))]
        """Every action's (segment name, item), made once: decoding is a list index at every move."""
        self._card_ids = {seg.name: {card: self.start[seg.name] + i for i, card in enumerate(seg.pack.cards)}
                          for seg in self.segments if seg.pack is not None}
        """Each card segment's action id of every card."""

    @property
    def size(self) -> int:
        return len(self.labels)

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def singles(self) -> dict[str, int]:
        """Action id of every one-action segment by name (``"knock"``, ``"pass"``...)."""
        return {seg.name: self.start[seg.name] for seg in self.segments if seg.items is None}

    def id(self, name: str, item_index: int = 0) -> int:
        """Action id of the ``item_index``-th item of segment ``name``."""
        return self.start[name] + item_index

    def card_actions(self, name: str, cards: Iterable[int]) -> list[int]:
        """Sorted action ids of ``cards`` in the card segment ``name`` (the legal plays, discards)."""
        ids = self._card_ids.get(name)
        if ids is None:
            self._card_segment(name)  # raises: not a card segment
        return sorted([ids[c] for c in cards])

    def names_card(self, action: int) -> bool:
        """Whether an action belongs to a card segment (play, discard): :meth:`card` names its card."""
        return self._segment_of[action].pack is not None

    def card(self, action: int) -> int:
        """The card an action of a card segment names."""
        if not self.names_card(action):
            raise ValueError(f"action {action} ({self.labels[action]!r}) names no card")
        return self.decode(action)[1]

    def decode(self, action: int) -> tuple[str, int]:
        """(segment name, item) of an action id, the item being the card itself in a card segment (play,
        discard) and the index in its segment otherwise: what the phase handlers are handed."""
        return self._decoded[action]

    def _decode(self, action: int) -> tuple[str, int]:
        seg = self._segment_of[action]
        index = action - self.start[seg.name]
        return seg.name, index if seg.pack is None else seg.pack.cards[index]

    def _card_segment(self, name: str) -> Segment:
        seg = self._named[name]
        if seg.pack is None:
            raise ValueError(f"action segment {name!r} is not a card segment (declare it with Segment.cards)")
        return seg

    def label(self, action: int) -> str:
        return self.labels[action]

    def public_label(self, action: int) -> str:
        """The action as the other players see it: a face-down discard names no card."""
        return self._segment_of[action].seen_by_others or self.labels[action]

    def parse(self, label: str) -> int:
        """Action id of a label (``"Ac"``, ``"knock"``, ``"bid 3"``)."""
        try:
            return self._ids[label]
        except KeyError:
            raise UnknownActionLabel(f"no action labelled {label!r}") from None

    def segment(self, action: int) -> tuple[str, int]:
        """(segment name, item index) of an action id."""
        seg = self._segment_of[action]
        return seg.name, action - self.start[seg.name]

    def describe(self) -> str:
        """Markdown table of the action layout (generated into the docs)."""
        rows = ["| ids | segment | labels | meaning |", "| --- | --- | --- | --- |"]
        for seg in self.segments:
            first = self.start[seg.name]
            ids = f"{first}" if seg.size == 1 else f"{first}-{first + seg.size - 1}"
            shown = seg.labels()
            text = " ".join(shown) if len(shown) <= 4 else f"{shown[0]} ... {shown[-1]}"
            rows.append(f"| {ids} | {seg.name} | `{text}` | {seg.doc} |")
        return "\n".join(rows)
