"""The run folder of ``rams train``: one run per folder, resumed, replaced or refused, never mixed.

A fresh run into a folder that already holds one would overwrite its ``final.zip``, results and plot,
delete its snapshots and write a second run into the same TensorBoard folder. So:

- a fresh start is refused when the folder holds any file of a run (:data:`RUN_FILES`), with a message that
  names the three ways on: ``--resume`` continues it, ``--overwrite`` deletes it first, ``--set out_dir=...``
  picks another folder;
- ``--overwrite`` deletes exactly the run's own files and folders (nothing else the folder may hold);
- ``--resume`` continues from ``last.zip``; before the first checkpoint exists it starts afresh with a note
  (clearing what an interrupted start left), so a restart script can always pass it.

In every case the folder is checked to be writable first (training/outputs.py) and the temporary files of
writes cut short by a kill are removed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from agents.checkpoint.atomic import remove_partial_files
from training.outputs import check_outputs
from training.pool import SNAPSHOT_DIR

LAST, FINAL = "last.zip", "final.zip"
RUN_FILES = (LAST, FINAL, "results.json", "evaluation.png", "config.yaml", SNAPSHOT_DIR, "tb")
"""What a training run writes into its folder (the TensorBoard logs under ``tb``)."""


class RunDirError(ValueError):
    """A run folder that holds another run (neither --resume nor --overwrite given)."""


def prepare_run_dir(out: str | Path, resume: bool, overwrite: bool) -> str | None:
    """Make ``out`` ready for the run; a note for the user, or None. Raises RunDirError or OutputError."""
    out = Path(out)
    check_outputs(folders=[out])
    remove_partial_files(out, out / SNAPSHOT_DIR)
    if resume:
        if (out / LAST).exists():
            return None
        clear_run(out)
        return f"no checkpoint in {out} yet: starting afresh"
    found = [name for name in RUN_FILES if (out / name).exists()]
    if found and not overwrite:
        raise RunDirError(f"{out} already holds a training run ({', '.join(found)}): --resume continues it, "
                          f"--overwrite deletes it and starts afresh, --set out_dir=<folder> starts elsewhere")
    clear_run(out)
    return f"deleted the previous run in {out} (--overwrite)" if found else None


def clear_run(out: Path) -> None:
    """Delete the files and folders of a run (:data:`RUN_FILES`) from ``out``, nothing else."""
    for name in RUN_FILES:
        path = out / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
