"""Measure bluffing in Toepen: knocks, stays and folds, dirty-hand claims and challenges.

Each agent plays --deals deals at a table of --opponents (default: the heuristic; "self": copies of
itself), its seat rotating with the deal number; every deal is dealt from (seed, deal), so agents are
compared on the same cards. At each knock, check (not knocking when it could), stay, fold, dirty-hand
claim, keep, challenge or accept, the decider's chance of winning the last trick is estimated from her
own information only (unseen cards re-dealt consistently with what she has seen, the rest of the deal
played out by a reference policy; exact when few cards are unseen). Reported per agent, with Wilson
95% intervals: knock rate, bluff rate (knocks with chance < --bluff-below), value knocks, bluff
success and lives won, fold curve, right folds and stays, false dirty claims, challenges; by trick
and knock number. See docs/bluffing.md.

examples:
  rams bluff heuristic:honest heuristic:bluffer --deals 2000 --workers 2 --markdown bluff.md
  rams bluff "checkpoint:runs/toepen/snapshots/snapshot_*.zip" --opponents self --plots plots/
"""

from __future__ import annotations

import argparse
import sys

from cli.usage import Parser, UsageError, at_least, command, hidden_alias
from evaluation.bluff.metrics import Thresholds
from evaluation.bluff.runner import Study, expand_specs, run_study, validate
from training.outputs import check_outputs


def parser() -> argparse.ArgumentParser:
    p = Parser("rams bluff", __doc__)
    p.add_argument("agents", nargs="+", help="agent specs: random, heuristic[:style], checkpoint:<zip> (globs "
                   "allowed, e.g. the snapshots a training run keeps: runs/toepen/snapshots/snapshot_*.zip, in "
                   "step order), pretrained")
    p.add_argument("--deals", type=int, default=2000, help="deals per agent (default 2000)")
    p.add_argument("--players", type=int, default=4, help="table size, 3 to 8 (default 4)")
    p.add_argument("--preset", default=None, help="Toepen rule preset (docs/rules/toepen.md), e.g. any_time")
    p.add_argument("--opponents", default="heuristic", help="spec of the other seats, or 'self' (default heuristic)")
    p.add_argument("--random-carry", action="store_true",
                   help="start deals from random carried-over lives (knock limits and poverty come into play)")
    p.add_argument("--seed", type=int, default=0, help="deals, agents and estimates depend on it only (default 0)")
    p.add_argument("--samples", type=int, default=32, help="sampled worlds per estimate (default 32)")
    p.add_argument("--exact-limit", type=int, default=1000,
                   help="enumerate all worlds when there are at most this many (default 1000)")
    p.add_argument("--policy", default="low", choices=("low", "random"), help="reference play-out (default low)")
    p.add_argument("--bluff-below", type=float, default=0.25, help="a knock below this chance is a bluff (0.25)")
    p.add_argument("--value-from", type=float, default=0.5, help="a knock from this chance on is a value knock (0.5)")
    p.add_argument("--weak-below", type=float, default=0.2,
                   help="the heuristic's weak threshold, for the self-bluff yardstick (0.2)")
    p.add_argument("--bins", type=int, default=5, help="winning-chance bins of the fold curve (default 5)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    p.add_argument("--json", help="write the full report as JSON here")
    p.add_argument("--markdown", help="write the markdown report here")
    p.add_argument("--plots", help="write the plots (PNG) into this folder")
    p.add_argument("--records", help="write a deal record of every deal played into this folder (JSON, "
                   "replayable step by step in rams serve; docs/web.md)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    hidden_alias(p, "--no-progress", "quiet", action="store_true")  # the spelling before --quiet
    return p


@command("rams bluff")
def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    at_least(args.workers, 1, "--workers")
    from evaluation.bluff import report

    check_outputs(files=[args.json, args.markdown], folders=[args.plots, args.records])
    try:
        thresholds = Thresholds(args.bluff_below, args.value_from, args.weak_below, args.bins)
        study = Study(tuple(expand_specs(args.agents)), args.opponents, args.players, args.preset, args.deals,
                      args.seed, args.samples, args.exact_limit, args.policy, args.random_carry, args.records)
        if not args.quiet:  # a checkpoint agent imports torch: seconds before the bar appears
            print(f"rams bluff: loading {len(study.agents)} agent(s) and the opponents", file=sys.stderr, flush=True)
        validate(study)  # builds the game, the estimator and every agent once
    except ValueError as err:  # a bad number or spec: the study's own checks name it
        raise UsageError(str(err)) from None
    results = run_study(study, workers=args.workers, progress=not args.quiet)
    doc = report.build(results, thresholds)
    print(report.console(doc))
    if args.json:
        report.write_json(doc, args.json)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(report.markdown(doc))
    if args.plots:
        from evaluation.bluff.plots import plot_all

        for path in plot_all(doc, args.plots):
            print(f"wrote {path}")
    return 0
