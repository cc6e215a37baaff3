"""``net_arch``: the hidden layers of a checkpoint's two towers, written as SB3 writes them.

SB3's ``MlpExtractor`` (and so sb3-contrib's ``MaskableActorCriticPolicy``, which every rams checkpoint is) builds a
policy tower and a value tower from ``net_arch``: a list gives both towers those layers (``[256, 256]``), a mapping
gives each its own (``{pi: [256, 256], vf: [128, 128]}``). The second form lets the critic be narrower than the
actor: its state dict has the same names, only some shapes differ. Everything that builds, sizes, checks or names
a network reads the layers through :func:`towers`, so a list and a mapping are handled in one place.
"""

from __future__ import annotations

from typing import Any, NamedTuple

NetArch = list[int] | dict[str, list[int]]
"""What a config and ``meta.json`` hold: both towers' widths, or each tower's."""
TOWER_KEYS = ("pi", "vf")
"""SB3's names of the policy and the value tower in a ``net_arch`` mapping."""


class Towers(NamedTuple):
    """The hidden layer widths of the policy tower and of the value tower."""

    pi: list[int]
    vf: list[int]


def towers(net_arch: Any, key: str = "net_arch") -> Towers:
    """``net_arch`` (a list of widths, or a mapping of exactly ``pi`` and ``vf`` to lists) as its two towers;
    ValueError naming ``key`` (the config's, e.g. ``batched.net_arch``) and both forms for anything else. An empty
    list is a network without hidden layers; in a mapping each tower has at least one layer (one tower without any
    would read the observation itself, which the batched learner's sparse first layer does not compute)."""
    if _is_widths(net_arch):
        return Towers(list(net_arch), list(net_arch))
    if isinstance(net_arch, dict) and set(net_arch) == set(TOWER_KEYS) and all(
            _is_widths(net_arch[tower]) and net_arch[tower] for tower in TOWER_KEYS):
        return Towers(list(net_arch["pi"]), list(net_arch["vf"]))
    raise ValueError(f"{key}: a list of positive layer widths ([256, 256]: both towers), or {{pi: [...], "
                     f"vf: [...]}} (each tower its own, at least one layer each), not {net_arch!r}")


def _is_widths(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(type(width) is int and width >= 1 for width in value)


def as_json(net_arch: Any) -> NetArch:
    """``net_arch`` as a checkpoint's ``meta.json`` and SB3's ``policy_kwargs`` take it: a list when both towers are
    given as one, else ``{"pi": [...], "vf": [...]}`` (checked by :func:`towers`)."""
    both = towers(net_arch)
    return both.pi if _is_widths(net_arch) else {"pi": both.pi, "vf": both.vf}


def describe(net_arch: Any) -> str:
    """A label for tables and logs: ``[256, 256]``, or ``pi [256, 256] vf [128, 128]``."""
    both = towers(net_arch)
    return str(both.pi) if _is_widths(net_arch) else f"pi {both.pi} vf {both.vf}"
