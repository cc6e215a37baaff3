"""Loads every file of a hostile corpus through every entry point, in one process, measuring each refusal.

    python -m tests.hostile_runner plan.json results.json

``plan.json``: {"files": {name: [path, scope]}, "config": yaml, "train": [--set ...], "snapshot_base": path,
"work": folder}. For every (file, entry point) it records the exit status, what was printed, the
seconds and the peak memory above the resident size before the call (Linux: the peak is reset
through /proc/self/clear_refs before each call and read from VmHWM after it; None where that is refused).
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import shutil
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rams_env
from agents.registry import agent_factory

SNAPSHOT = "snapshots/snapshot_{:09d}.zip"


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def _reset_peak() -> bool:
    """Reset VmHWM to the current resident size; False where the kernel does not allow it."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def loader(path: Path, _: Path, plan: dict) -> int:
    """The Python loader as commands use it: the registry builds a CheckpointAgent and checks the table."""
    from agents.checkpoint.format import CheckpointError

    try:
        agent_factory(f"checkpoint:{path}", rams_env.make_game("toepen", 4))
    except CheckpointError as err:
        print(err, file=sys.stderr)
        return 2
    return 0


def evaluate(path: Path, _: Path, plan: dict) -> int:
    from cli.evaluate import main

    return main(["--game", "toepen", "--agents", f"checkpoint:{path}", "random", "--deals", "2",
                 "--workers", "1", "--quiet"])


def play(path: Path, _: Path, plan: dict) -> int:
    from cli.play import main

    return main(["toepen", "--opponents", f"checkpoint:{path}", "--deals", "1", "--seed", "0"],
                stdin=io.StringIO(""), stdout=sys.stdout)


def exploit(path: Path, _: Path, plan: dict) -> int:
    from cli.exploit import main

    return main([str(path), "--game", "toepen", "--steps", "64", "--deals", "2", "--quiet"])


def bluff(path: Path, _: Path, plan: dict) -> int:
    from cli.bluff import main

    return main([f"checkpoint:{path}", "--deals", "2", "--no-progress"])


def _train(run: Path, plan: dict, *extra: str) -> int:
    from cli.train import main

    return main([plan["config"], "--quiet", *[f"--set={s}" for s in plan["train"]], f"--set=out_dir={run}", *extra])


def resume(path: Path, run: Path, plan: dict) -> int:
    """``rams train --resume`` with the file as the run's ``last.zip``."""
    run.mkdir(parents=True)
    shutil.copy(path, run / "last.zip")
    return _train(run, plan, "--resume")


def snapshot(path: Path, run: Path, plan: dict) -> int:
    """``rams train --resume`` from a valid ``last.zip`` whose pool holds the file as a snapshot."""
    (run / "snapshots").mkdir(parents=True)
    shutil.copy(plan["snapshot_base"], run / "last.zip")
    shutil.copy(path, run / SNAPSHOT.format(plan["snapshot_steps"]))
    return _train(run, plan, "--resume")


def opponent(path: Path, run: Path, plan: dict) -> int:
    """``rams train`` with the file as a training opponent of the config."""
    return _train(run, plan, f"--set=opponents={{'checkpoint:{path}': 1}}")


ENTRY_POINTS: dict[str, Callable[[Path, Path, dict], int]] = {
    "loader": loader, "evaluate": evaluate, "play": play, "exploit": exploit, "bluff": bluff,
    "resume": resume, "snapshot": snapshot, "opponent": opponent}
SCOPES = {"everywhere": list(ENTRY_POINTS), "resume": ["resume"], "valid": ["loader", "evaluate", "resume", "snapshot"]}
"""Which entry points load the files of each scope: hostile everywhere, hostile only to --resume, valid."""


def measure(call: Callable[[], int]) -> dict[str, Any]:
    """Exit status, output, seconds and peak KiB above the resident size before ``call``."""
    gc.collect()
    resettable = _reset_peak()
    before = _status_kib("VmRSS")
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = call()
        except SystemExit as exit_:
            status = exit_.code
        except BaseException:  # a traceback is a failure the test reports, not a crash of the runner
            traceback.print_exc()
            status = "traceback"
    seconds = time.perf_counter() - start
    return {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue(), "seconds": seconds,
            "peak_kib": _status_kib("VmHWM") - before if resettable else None}


def main(plan_path: str, out_path: str) -> None:
    plan = json.loads(Path(plan_path).read_text())
    work = Path(plan["work"])
    warm = Path(plan["files"]["not_a_zip"][0])
    for name, entry in ENTRY_POINTS.items():  # imports and first-use costs, not measured
        measure(lambda entry=entry, name=name: entry(warm, work / "warm" / name, plan))
    results = []
    for file, (path, scope) in plan["files"].items():
        for name in SCOPES[scope]:
            run = work / file / name
            row = measure(lambda entry=ENTRY_POINTS[name], run=run, path=path: entry(Path(path), run, plan))
            results.append({"file": file, "entry": name, "run": str(run), **row})
    Path(out_path).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main(*sys.argv[1:])
