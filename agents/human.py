"""A person at the table: an :class:`~agents.base.Agent` that reads its moves from a text stream.

The human sees the table (a callable that renders it from her seat, or the structured view),
the legal choices numbered with their labels, and types a label (case-insensitive: ``ah``,
``Knock``) or a number. Anything else gets a message saying what went wrong and a new prompt:
bad input never ends the game. ``quit`` or the end of input raises :class:`QuitSession`, so
the caller can end the session cleanly and print the score so far. Streams are injected,
which is how the tests play whole sessions with scripted input.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numpy as np

from rams_env.core.cards import SUIT_NAMES

HELP = """Commands:
  <label>   play that choice, e.g. Ah, 10c, knock, pass, bid 2 good (case does not matter)
  <number>  play the choice with that number in the list
  hand      show your hand again (and the trump, if any)
  table     show the table and your choices again
  help      this list
  quit      end the session now (the score so far is printed)"""

QUIT_WORDS = ("quit", "exit")


def primer(game) -> str:
    """What the table's words mean, from the game's own declarations: card codes, the score's unit and every
    kind of choice with the meaning its action segment documents."""
    lines = textwrap.wrap(f"How to read it: a card is its rank and suit, e.g. Ah = ace of hearts, 10c = ten of "
                          f"clubs (suits: {', '.join(f'{s} {name}' for s, name in SUIT_NAMES.items())}); scores "
                          f"count {game.score_unit}. Your choices mean:", 100)
    for segment in game.actions.segments:
        shown = segment.labels()
        example = shown[0] if len(shown) == 1 else ("a card code" if segment.bare else f"{shown[0]}, ...")
        lines.append(f"  {example:14} {segment.doc}")
    lines.append("Type 'help' for this and the commands, 'quit' to stop.")
    return "\n".join(lines)


def refusal(typed: str, legal: Sequence[str], view: dict[str, Any]) -> str | None:
    """Why a card of the hand may not be played now, read off the engine's legal choices and the trick on the
    table (what the rules demand shows in what they leave); None if ``typed`` is no card of the hand."""
    hand = {card.lower(): card for card in view.get("hand", ())}
    card = hand.get(typed.lower())
    if card is None:
        return None
    allowed = [label for label in legal if label in hand.values()]
    if not allowed:
        return f"{card} cannot be played now: this is not a moment to play a card (you may: {', '.join(legal)})."
    suits = {c[-1] for c in allowed}
    trick = view.get("trick") or []
    led = trick[0][1] if trick else None
    only = f"you may play {', '.join(allowed)}"
    if len(suits) == 1 and led is not None:
        suit = SUIT_NAMES.get(next(iter(suits)), "")
        if led[-1] in suits and card[-1] not in suits:
            return f"{card} is not allowed: {led} was led and you must follow suit with your {suit} ({only})."
        if led[-1] in suits:
            return f"{card} is not allowed: of your {suit} only some may be played on this trick ({only})."
        if view.get("trump") and SUIT_NAMES.get(card[-1]) != suit:
            trumps = " (trumps)" if SUIT_NAMES.get(str(view["trump"])) == suit else ""
            return f"{card} is not allowed: you cannot follow {led}, so you must play {suit}{trumps} ({only})."
    if led is None:
        return f"{card} is not allowed as the lead of this trick ({only})."
    return f"{card} is not allowed on this trick ({only})."


class QuitSession(Exception):
    """The human ended the session: typed ``quit`` (reason "quit") or input ran out ("eof")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidChoice(ValueError):
    """Typed text that is neither a legal label nor a choice number; the message says why."""


def parse_choice(text: str, labels: Sequence[str], all_labels: Sequence[str] = ()) -> int:
    """Index into ``labels`` of what was typed: a label (any case, spaces collapsed) or a number 1..n.

    ``all_labels`` (every action of the game) lets the message tell "not legal now" apart from
    "no such action".
    """
    typed = " ".join(text.split())
    n = len(labels)
    numbers = f"a number from 1 to {n}"
    if not typed:
        raise InvalidChoice(f"Nothing typed: type a choice (a label or {numbers}), or 'help'.")
    lowered = [label.lower() for label in labels]
    if typed in labels:  # exact match first, in case two labels differ only by case
        return list(labels).index(typed)
    if typed.lower() in lowered:
        return lowered.index(typed.lower())
    try:
        number = int(typed)
    except ValueError:
        pass
    else:
        if 1 <= number <= n:
            return number - 1
        raise InvalidChoice(f"{number} is not a choice: type {numbers}, or a label.")
    if typed.lower() in (label.lower() for label in all_labels):
        raise InvalidChoice(f"{typed!r} is not allowed now; you may play: {', '.join(labels)}.")
    raise InvalidChoice(f"{typed!r} is not a legal choice: type a label ({', '.join(labels)}) or {numbers}; "
                        "'help' lists the commands.")


def format_choices(labels: Sequence[str]) -> str:
    """``Your choices: [1] Ah  [2] knock`` (the numbers the human may type)."""
    return "Your choices: " + "  ".join(f"[{i}] {label}" for i, label in enumerate(labels, 1))


def format_hand(view: dict[str, Any]) -> str:
    """The human's own cards from the view, with the trump when the game has one."""
    hand = " ".join(view.get("hand", ())) or "(no cards)"
    extra = [f"{key.replace('_', ' ')} {view[key]}" for key in ("trump", "trump_card") if view.get(key)]
    return f"Your hand: {hand}" + (f"   ({', '.join(extra)})" if extra else "")


def format_view(view: dict[str, Any]) -> str:
    """A plain listing of the view, for callers that give no table renderer."""
    return "\n".join(f"  {key}: {value}" for key, value in view.items())


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class HumanAgent:
    """Reads moves from ``stdin``, writes the table and prompts to ``stdout``.

    ``table`` returns the text of the table from the human's seat (e.g. ``env.render()`` of an
    env built with ``render_mode="ansi", render_seat=seat``); without it the view is listed.
    """

    def __init__(self, game, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 table: Callable[[], str] | None = None, name: str = "you") -> None:
        self.game = game
        self.name = name
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.table = table

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the human brings her own randomness."""

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        legal = [int(a) for a in np.flatnonzero(mask)]
        if not legal:
            raise ValueError("HumanAgent asked to act with an empty action mask")
        labels = [self.game.actions.label(a) for a in legal]
        self._show_table(view, labels)
        while True:
            text = self._read_line()
            try:
                return legal[parse_choice(text, labels, self.game.actions.labels)]
            except InvalidChoice as err:
                if not self._command(text.strip().lower(), view, labels):
                    self._say(refusal(" ".join(text.split()), labels, view) or str(err))

    # ------------------------------------------------------------------ helpers
    def _command(self, word: str, view: dict[str, Any], labels: list[str]) -> bool:
        """Run a command word; False if ``word`` is none (labels were tried first)."""
        if word in QUIT_WORDS:
            raise QuitSession("quit")
        if word in ("help", "?"):
            self._say(HELP + "\n\n" + primer(self.game))
        elif word == "hand":
            self._say(format_hand(view))
        elif word == "table":
            self._show_table(view, labels)
        else:
            return False
        return True

    def _show_table(self, view: dict[str, Any], labels: list[str]) -> None:
        self._say(self.table() if self.table is not None else format_view(view))
        self._say(format_choices(labels))

    def _read_line(self) -> str:
        self.stdout.write(f"{self.name}> ")
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:  # Ctrl-C at the prompt: stop like "quit", with the score so far
            self._say("")
            raise QuitSession("quit") from None
        if not line:  # end of input: leave as if the human typed quit
            self._say("")
            raise QuitSession("eof")
        if not _is_terminal(self.stdin):  # scripted input: echo it, so a transcript reads like a session
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        return line

    def _say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)
