"""TensorBoard of a batched run (``out_dir/tb``): scalars at the learner's step count, the hyper-parameters
in the HPARAMS tab, the evaluations as the SB3 path logs them (training/run_report.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from training.config import TrainConfig, as_dict
from training.run_report import log_evaluation, tag

HPARAM_SECTIONS = ("batched",)
"""Config sections flattened into the HPARAMS tab beside the run's top-level settings."""


def open_writer(folder: Path, config: TrainConfig):
    """A SummaryWriter on ``folder`` with the run's hyper-parameters written once (in the writer's own file,
    as SB3 does, not in a sub-run)."""
    from torch.utils.tensorboard import SummaryWriter
    from torch.utils.tensorboard.summary import hparams

    writer = SummaryWriter(str(folder))
    metrics = {f"eval/{tag(b)}_mean": 0.0 for b in config.eval.baselines}
    for summary in hparams(flat_hparams(config), metrics):
        writer.file_writer.add_summary(summary)
    return writer


def flat_hparams(config: TrainConfig) -> dict[str, Any]:
    """The run's settings as scalars and strings (nested values as JSON)."""
    data = as_dict(config)
    flat = {key: value for key, value in data.items() if not isinstance(value, dict)}
    for section in HPARAM_SECTIONS:
        flat.update({f"{section}.{k}": v for k, v in (data.get(section) or {}).items()})
    return {k: v if isinstance(v, (int, float, str, bool)) else json.dumps(v, sort_keys=True)
            for k, v in flat.items() if v is not None}


class ScalarLog:
    """``record(key, value)`` at the learner's current step (what training/run_report.py's ``log_evaluation``
    calls); a no-op until a writer is set."""

    def __init__(self, writer, steps: Callable[[], int]) -> None:
        self.writer, self.steps = writer, steps

    def record(self, key: str, value: float) -> None:
        if self.writer is not None:
            self.writer.add_scalar(key, float(value), self.steps())

    def evaluation(self, entry: dict[str, Any]) -> None:
        log_evaluation(self, entry)

    def flush(self) -> None:
        if self.writer is not None:
            self.writer.flush()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
