"""Rule variants as validated data: a frozen dataclass per game, built from options.

Each game's ``Rules`` subclass lists every option as a field with a comment, its
default being the game's reference rules, and named presets for the historical or
regional rule sets. ``Rules.build(preset=..., **options)`` rejects unknown options
and bad values at construction, naming the option, so a typo never silently plays
the default game.
"""

from __future__ import annotations

import dataclasses
import typing
from enum import Enum
from typing import Any, ClassVar


class RulesError(ValueError):
    """An unknown option, an unknown preset, or an invalid option value."""


@dataclasses.dataclass(frozen=True)
class Rules:
    """Base of every game's rules dataclass.

    Subclasses add fields and override :meth:`validate`; ``PRESETS`` maps preset names
    to option overrides (the empty preset ``DEFAULT_PRESET`` is the reference rules).
    """

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    DEFAULT_PRESET: ClassVar[str] = "standard"

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise :class:`RulesError` for inconsistent options (subclasses extend)."""

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def build(cls, preset: str | None = None, **options: Any) -> Rules:
        """Rules from a preset name plus option overrides, validated."""
        unknown = sorted(set(options) - set(cls.option_names()))
        if unknown:
            raise RulesError(
                f"unknown option {', '.join(map(repr, unknown))} for {cls.__name__}; "
                f"valid options: {', '.join(cls.option_names())}"
            )
        name = preset or cls.DEFAULT_PRESET
        if name not in cls.PRESETS and name != cls.DEFAULT_PRESET:
            raise RulesError(f"unknown preset {name!r} for {cls.__name__}; presets: {', '.join(cls.preset_names())}")
        merged = {**cls.PRESETS.get(name, {}), **options}
        return cls(**cls._coerce(merged))

    @classmethod
    def preset_names(cls) -> tuple[str, ...]:
        return tuple(dict.fromkeys((cls.DEFAULT_PRESET, *cls.PRESETS)))

    @classmethod
    def _coerce(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Turn strings into enum members and lists into tuples, naming bad values."""
        hints = typing.get_type_hints(cls)
        out = {}
        for key, value in options.items():
            kind = hints.get(key)
            if isinstance(kind, type) and issubclass(kind, Enum) and not isinstance(value, kind):
                try:
                    value = kind(value)
                except ValueError:
                    choices = ", ".join(repr(m.value) for m in kind)
                    raise RulesError(f"option {key}={value!r} is not one of {choices}") from None
            elif isinstance(value, list):
                value = tuple(value)
            out[key] = value
        return out

    def changed(self) -> dict[str, Any]:
        """Options that differ from the defaults (for labels, metadata, logs)."""
        default = type(self)()
        return {
            f.name: _plain(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    def as_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def describe(self) -> str:
        """The options that differ from the reference rules as ``key=value`` text, for people to read."""
        changed = self.changed()
        return ", ".join(f"{key}={value}" for key, value in changed.items()) if changed else "reference rules"


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def require(condition: bool, message: str) -> None:
    """Validation helper for ``Rules.validate``: raises RulesError (works under -O)."""
    if not condition:
        raise RulesError(message)
