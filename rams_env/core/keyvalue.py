"""``key=value`` text, read once for every caller: rule options (``--rules lives=5``, configs' ``rules:``
overrides), agent parameters (``heuristic:bluffer,bluff_rate=0.3``) and config overrides (``--set a.b=1``).

Values are YAML scalars (``5`` an int, ``true`` a bool, ``any_time`` a string). Each caller names what it
reads (``label``) and the error type its users know, so a bad item is one clear line that names it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def yaml_problem(err: Exception) -> str:
    """A YAML error on one line: the problem and where (PyYAML's own text spans several lines)."""
    problem = getattr(err, "problem", None)
    mark = getattr(err, "problem_mark", None)
    if problem is None or mark is None:
        return "malformed YAML: " + " ".join(str(err).split())
    return f"malformed YAML: {problem} at line {mark.line + 1}, column {mark.column + 1}"


def parse_assignment(item: str, label: str, error: type[Exception] = ValueError,
                     example: str = "") -> tuple[str, Any]:
    """``"lives=5"`` -> ``("lives", 5)``; ``error`` naming ``label`` and the item when it is not key=value."""
    import yaml  # only the callers that read text need PyYAML

    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise error(f"{label} {item!r} is not key=value" + (f", e.g. {example}" if example else ""))
    try:
        return key.strip(), yaml.safe_load(value)
    except yaml.YAMLError as err:
        raise error(f"{label} {item!r}: {yaml_problem(err)}") from None


def parse_assignments(items: Iterable[str], label: str, error: type[Exception] = ValueError) -> dict[str, Any]:
    """``["lives=15", "knock_timing=any_time"]`` -> ``{"lives": 15, "knock_timing": "any_time"}``."""
    return dict(parse_assignment(item, label, error) for item in items)
