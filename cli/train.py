"""``rams train``: self-play training of an agent for any game, from a YAML config.

    rams train configs/train/quick.yaml                  # batched self-play, Toepen 4p, beats the heuristic
    rams train configs/train/toepen_batched.yaml         # a general agent: every table size and preset
    rams train configs/train/toepen.yaml
    rams train configs/train/toepen.yaml --set total_timesteps=20000 --set ppo.learning_rate=1e-4
    rams train configs/train/toepen.yaml --resume        # continue from <out_dir>/last.zip (or start afresh)
    rams train configs/train/toepen.yaml --overwrite     # delete the previous run in <out_dir> first

    rams train configs/train/toepen.yaml --export agents/pretrained/toepen_4p.zip   # ship the weights
    rams train configs/train/toepen_batched.yaml --resume --export toepen_selfplay.zip --snapshot 15500000
                                                         # ship an earlier league snapshot instead

The config's ``trainer`` picks the trainer. ``batched`` (training/batched/run.py): PPO self-play on
the batched engine, every seat of about a thousand deals at once, the learner against itself, its
frozen snapshots and random play; ``tables: default | all | [...]`` where it trains (``all``: a
general agent that plays any --players / --preset); section ``batched:`` its settings
(docs/training.md). ``sb3`` (the default, the reference path): MaskablePPO in one seat.

With ``sb3`` the learner plays one seat; the other seats are drawn per deal from the opponent pool
(training/pool.py: the current policy, frozen snapshots drawn recent-biased or prioritized,
scripted agents by spec). Progress bar with steps/s and ETA, TensorBoard logs (``tensorboard
--logdir <out_dir>/tb``: rewards, losses, entropy, evaluation per baseline with its 95% bounds,
Elo-scale ratings of learner, snapshots and baselines, the snapshots' win rates against the
learner, hyper-parameters), atomic checkpoints every ``checkpoint_every`` steps, duplicate-deal
evaluation against the baselines during and after training; results in
``<out_dir>/results.json`` and a plot.

Ctrl-C (or SIGTERM) finishes the rollout (batched: the iteration) under way, saves ``last.zip`` and
prints how to resume (exit code 130, or 143); with ``sb3`` ``--resume`` then continues the same random
streams, so the resumed run computes what an uninterrupted one would (training/stopping.py,
training/streams.py); ``batched`` resumes weights, optimizer, league and generators but deals afresh. A folder that
holds another run is refused unless ``--resume`` or ``--overwrite`` (training/rundir.py).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

import torch
import yaml

from agents.checkpoint.atomic import write_text
from agents.checkpoint.format import CheckpointError
from cli.train_args import build_parser
from training.batched.parallel import WorkerFailed
from training.config import ConfigError, as_dict, load_config
from training.outputs import check_outputs
from training.rundir import LAST, RunDirError, prepare_run_dir
from training.stopping import Interrupted, StopRequest


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    return build_parser(__doc__).parse_args(argv)  # cli/train_args.py: the options, without torch


def resume_command(argv: list[str]) -> str:
    """The command line that continues this run: the same arguments, with --resume instead of --overwrite."""
    args = [a for a in argv if a not in ("--overwrite", "--resume")]
    return shlex.join(["rams", "train", *args, "--resume"])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    try:
        config = load_config(args.config, args.overrides)
        check_outputs(files=[args.export])
        check_snapshot_args(args, config)
        note = prepare_run_dir(config.out_dir, args.resume, args.overwrite)
    except (ConfigError, RunDirError, ValueError, OSError) as err:
        print(f"rams train: {err}", file=sys.stderr)
        return 2
    if note:
        print(f"rams train: {note}")
    torch.set_num_threads(config.torch_threads)
    out, run = Path(config.out_dir), None
    with StopRequest() as stop:
        try:
            run = make_run(config, quiet=args.quiet)
            write_text(out / "config.yaml", yaml.safe_dump(as_dict(config), sort_keys=False))
            return train_and_report(run, args, args.resume and (out / LAST).exists(), stop)
        except Interrupted as point:
            print(f"rams train: stopped at step {point.steps}; saved {point.path}\n"
                  f"resume with: {resume_command(argv)}", file=sys.stderr)
        except KeyboardInterrupt:
            print(f"rams train: stopped at once; {saved(out, run)}\nresume with: {resume_command(argv)}",
                  file=sys.stderr)
        except CheckpointError as err:  # the run's own last.zip, or a file the config names (init_from, exploiters)
            print(f"rams train: {'cannot resume' if args.resume else 'a checkpoint the config names'}: {err}",
                  file=sys.stderr)
            return 2
        except WorkerFailed as err:  # batched.processes > 1: another learner process stopped
            print(f"rams train: {err}; {saved(out, run)}\nresume with: {resume_command(argv)}", file=sys.stderr)
            return 1
        except OSError as err:  # e.g. the disk filled up during training
            print(f"rams train: cannot write {err.filename or 'a file'}: {err.strerror or err}; {saved(out, run)}\n"
                  f"free some space, then resume with: {resume_command(argv)}", file=sys.stderr)
            return 1
        return stop.exit_code


def check_snapshot_args(args: argparse.Namespace, config) -> None:
    """``--snapshot`` picks a league snapshot of a batched run for ``--export``; anything else is refused before
    training starts (an SB3 run writes its snapshots as files under <out_dir>/snapshots/)."""
    if args.snapshot is None:
        return
    if not args.export:
        raise ValueError("--snapshot says which weights --export writes; give --export PATH.zip too")
    if config.trainer != "batched":
        raise ValueError(f"--snapshot picks a league snapshot of a batched run; this config's trainer is "
                         f"{config.trainer} (an sb3 run keeps its snapshots as files under <out_dir>/snapshots/)")
    if not config.snapshot_every:
        raise ValueError("--snapshot: this run keeps no snapshots (snapshot_every is 0)")
    from training.batched.league import snapshot_id

    snapshot_id(args.snapshot, config.snapshot_every)  # a multiple of snapshot_every, or a ValueError


def make_run(config, quiet: bool):
    """The run of the config's ``trainer``: SB3 MaskablePPO in one seat (training/train.py), batched
    self-play (training/batched/run.py) or Ray RLlib (training/rllib/run.py); all answer the calls below."""
    if config.trainer == "batched":
        from training.batched.run import BatchedRun

        return BatchedRun(config, quiet=quiet)
    if config.trainer == "rllib":
        from training.rllib.run import RLlibRun

        return RLlibRun(config, quiet=quiet)
    from training.train import Run

    return Run(config, quiet=quiet)


def saved(out: Path, run) -> str:
    """What ``last.zip`` holds after an abrupt stop (its writes are atomic: the last complete one)."""
    if not (out / LAST).exists():
        return "no checkpoint was saved yet"
    step = f" (step {run.checkpointed})" if run is not None and run.checkpointed else ""
    return f"{out / LAST} holds the last checkpoint{step}"


def train_and_report(run, args: argparse.Namespace, resume: bool, stop: StopRequest) -> int:
    """Resume or warm-start, train, evaluate, save and report (main's work, inside the signal handling)."""
    config = run.config
    if resume:
        run.resume()
    elif (metrics := run.warm_start()) is not None:
        print(f"warm start: copied {config.warm_start.teacher} on {metrics['decisions']} decisions; the network "
              f"plays its move in {metrics['agreement']:.1%} of held-out decisions with a real choice")
        if "rest_flips" in metrics:
            print(f"warm start: at the held decisions the policy moved by a KL of {metrics['rest_drift']:.4f} and "
                  f"its greedy move changed in {metrics['rest_flips']:.1%} of those with a real choice")
    start = time.perf_counter()
    run.train(stop)
    results = run.evaluate(deals=config.eval.final_deals or None, progress=not args.quiet)
    run.save("final.zip")
    if args.export and args.snapshot is not None:
        try:
            path = run.save_snapshot(args.export, args.snapshot)
            print(f"exported the snapshot at {args.snapshot:,} steps to {path}")
        except ValueError as err:
            print(f"rams train: cannot export: {err}", file=sys.stderr)
            return 2
    elif args.export:
        print(f"exported the final weights to {run.save(args.export, optimizer=False)}")
    print(run.report(results, time.perf_counter() - start))
    print(f"checkpoints, results.json, evaluation.png: {run.out}/   TensorBoard: tensorboard --logdir {run.out / 'tb'}")
    return 0



if __name__ == "__main__":
    sys.exit(main())
