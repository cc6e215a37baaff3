"""A strength run's samples kept on disk, so a later ``rams strength --compare`` reads one agent's half back.

``rams strength --compare`` pairs two agents deal by deal and so plays both. The baseline is most often the shipped
agent, measured again at every comparison: a full Toepen gate is half an hour per agent on two cores. Its samples
(per table, deal seed, opponent and way: :class:`~evaluation.strength.StrengthReport`'s ``samples``) depend only on
the plan and the agents' play, so ``--samples FILE`` keeps them and ``--compare-samples FILE`` reads them back for
any plan they cover: the same game and tournament seed, its tables and opponents among the file's, each table's
deals started alike (fresh or from carried-over state), and at most the file's deal count (deal seed ``d`` is the
same seed in every run, so the first deals of a longer run are a shorter run's deals).

What could make a kept half wrong is the play changing under it. The file names the weights each table's agent
played (the checkpoint's SHA-256) and the commit of the code; a table whose checkpoint now holds other weights is
refused, and a kept half from another commit is named in the report, since the scripted players' and the engine's
code are not in the file. The file is an ``.npz`` of plain arrays and a JSON header, read without pickles.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

import rams_env
from agents.registry import agent_file
from evaluation.strength import WAYS, StrengthPlan, StrengthReport, deals_carried, estimates
from evaluation.throughput import code_commit

FORMAT = 2
"""The layout's version: a file of another is refused rather than misread. Format 1 (before 2026-12-07) named one
``random_carry`` for every table where format 2 names the plan's ``carry``; it is still read (:func:`_plan`)."""

READS = (1, FORMAT)
"""The formats this code reads: every shipped agent's kept gate but Fipsen's was written in format 1."""

HEADER = "header"
"""The array holding the JSON header (UTF-8 bytes)."""

DAMAGED = (KeyError, TypeError, ValueError, IndexError)
"""What reading a header or arrays not as :func:`save_samples` wrote them raises."""


class KeptSamplesError(ValueError):
    """A kept-samples file that cannot answer the plan asked (its message says why and what to do)."""


def save_samples(report: StrengthReport, path: Path) -> None:
    """Write ``report``'s samples and what they measured to ``path`` (``.npz``)."""
    plan = report.plan
    header = {"format": FORMAT, "plan": asdict(plan), "unit": report.unit, "seconds": report.seconds,
              "code": code_commit(), "weights": weights_by_table(plan)}
    arrays = {f"table_{t}": rows for t, rows in report.samples.items()}
    with Path(path).open("wb") as out:  # np.savez would add ".npz" to a name without it
        np.savez_compressed(out, **{HEADER: np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)}, **arrays)


def load_samples(path: Path, plan: StrengthPlan) -> StrengthReport:
    """The kept report at ``path`` cut to ``plan``'s tables, opponents and deals (``plan.agent`` is ignored: the
    report names the kept agent). Raises :class:`KeptSamplesError` when the file cannot answer the plan."""
    header, arrays = _read(Path(path))
    try:
        kept = _plan(header)
        _check_covers(kept, plan, path)
        _check_weights(kept, plan, header["weights"], path)
        opponents = [kept.opponents.index(o) for o in plan.opponents]
        shape = (kept.deals, len(kept.opponents), len(WAYS))
        if any(arrays[f"table_{t}"].shape != shape for t in range(len(kept.tables))):
            raise ValueError(f"every table's samples must be {shape}")
        samples = {t: arrays[f"table_{kept.tables.index(table)}"][:plan.deals][:, opponents]
                   for t, table in enumerate(plan.tables)}
    except KeptSamplesError:
        raise
    except DAMAGED as err:
        raise _damaged(path, err) from None
    commit = header.get("code") or "an unknown commit"
    note = "" if commit == code_commit() else f", measured at {commit}"
    cut = replace(plan, agent=f"{kept.agent} (kept: {Path(path).name}{note})")
    return StrengthReport(cut, estimates(cut, samples), header["unit"], 0.0, samples)


def kept_plan(path: Path) -> StrengthPlan:
    """What the file at ``path`` measured (its agent, tables, opponents, deals, seed), read from its header: which
    runs it can answer (:func:`load_samples` checks the weights and the samples)."""
    header, _ = _read(Path(path))
    try:
        return _plan(header)
    except DAMAGED as err:
        raise _damaged(path, err) from None


def _plan(header: dict[str, Any]) -> StrengthPlan:
    plan = dict(header["plan"])
    if header["format"] == 1:  # one flag for every table: carried everywhere or nowhere
        plan["carry"] = "random" if plan.pop("random_carry") else "fresh"
    return StrengthPlan(**{**plan, "opponents": tuple(plan["opponents"]),
                           "tables": tuple((preset, n) for preset, n in plan["tables"])})


def _damaged(path: Path, err: Exception) -> KeptSamplesError:
    return KeptSamplesError(f"{path}: a samples file with a damaged header or arrays ({err!r})")


def weights_by_table(plan: StrengthPlan) -> dict[str, str | None]:
    """Per table (``preset:players``), the SHA-256 of the checkpoint the agent plays there (None: no file)."""
    return {f"{preset}:{n}": _digest(agent_file(plan.agent, rams_env.make_game(plan.game, n, preset=preset)))
            for preset, n in plan.tables}


def _digest(path: Path | None) -> str | None:
    if path is None:
        return None
    if not Path(path).is_file():
        raise KeptSamplesError(f"{path}: the kept agent's checkpoint is gone, so the weights it measured cannot be "
                               "checked: measure it again (--compare SPEC)")
    return file_digest(path)


def file_digest(path: str | Path) -> str:
    """The SHA-256 of a file's bytes, as a kept file names its agents' checkpoints (and a picture its kept file)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _read(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    if not path.is_file():
        raise KeptSamplesError(f"{path}: no such file (write it with rams strength --samples {path})")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        header = json.loads(arrays.pop(HEADER).tobytes().decode())
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:  # not a zip, a pickle, no header, bad JSON
        raise KeptSamplesError(f"{path}: not a samples file written by rams strength --samples ({err})") from None
    if not isinstance(header, dict) or header.get("format") not in READS:
        raise KeptSamplesError(f"{path}: samples format {header.get('format') if isinstance(header, dict) else '?'}"
                               f", this rams reads formats {', '.join(map(str, READS))}: measure it again with "
                               "--samples")
    return header, arrays


def _check_covers(kept: StrengthPlan, plan: StrengthPlan, path: Path) -> None:
    """The plan's deals must be among the kept ones: same game and seed; tables, opponents, deal count within
    the file's; each table's deals started alike."""
    for name in ("game", "seed"):
        if getattr(kept, name) != getattr(plan, name):
            raise KeptSamplesError(f"{path}: kept with {name}={getattr(kept, name)!r}, this run asks "
                                   f"{getattr(plan, name)!r}")
    missing = [f"{p}:{n}" for p, n in plan.tables if (p, n) not in kept.tables]
    missing += [o for o in plan.opponents if o not in kept.opponents]
    if missing:
        raise KeptSamplesError(f"{path}: holds no samples of {', '.join(missing)} (it has "
                               f"{', '.join(f'{p}:{n}' for p, n in kept.tables)} against {', '.join(kept.opponents)})")
    if plan.deals > kept.deals:
        raise KeptSamplesError(f"{path}: holds {kept.deals} deals, this run asks {plan.deals}")
    _check_carry(kept, plan, path)


def _check_carry(kept: StrengthPlan, plan: StrengthPlan, path: Path) -> None:
    """Each asked table's deals must start where the kept ones did (fresh, or from random carried-over state)."""
    starts = {True: "carried-over", False: "fresh"}
    for table in plan.tables:
        was, asked = (deals_carried(p.game, table, p.carry) for p in (kept, plan))
        if was != asked:
            raise KeptSamplesError(f"{path}: kept {starts[was]} deals at {table[0]}:{table[1]}, this run asks "
                                   f"{starts[asked]} ones (--carry {plan.carry})")


def _check_weights(kept: StrengthPlan, plan: StrengthPlan, weights: dict[str, str | None], path: Path) -> None:
    """Each asked table's checkpoint must still hold the weights that were measured."""
    now = weights_by_table(replace(kept, tables=plan.tables))
    changed = [table for table, digest in now.items() if digest != weights.get(table)]
    if changed:
        raise KeptSamplesError(f"{path}: {kept.agent} now plays other weights at {', '.join(changed)} than the ones "
                               "measured: measure it again (--compare SPEC)")
