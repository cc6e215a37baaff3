"""The Toepen bluff study (``rams bluff``, cli/bluff.py): knocks, stays and folds, dirty-hand claims and
challenges, each with the decider's estimated chance of winning the last trick. See docs/bluffing.md.
"""

from __future__ import annotations

from evaluation.bluff.metrics import Thresholds, agent_metrics
from evaluation.bluff.record import Decision, Recorder, record_deals
from evaluation.bluff.runner import Study, run_study
from evaluation.bluff.winchance import ChanceEstimate, WinChance, wilson

__all__ = ["Decision", "ChanceEstimate", "Recorder", "Study", "Thresholds", "WinChance", "agent_metrics",
           "record_deals", "run_study", "wilson"]
