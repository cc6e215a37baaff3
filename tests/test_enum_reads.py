"""The code a decision runs reads enum members bound to module names, not from their classes (StateEnum's docstring:
about 1,000 machine instructions a read in CPython 3.11); benchmarks/env_enum_reads.py finds the lines that do."""

from __future__ import annotations

import enum
import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "env_enum_reads.py"


def _enum_reads():
    spec = importlib.util.spec_from_file_location("env_enum_reads", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.enum_reads


@pytest.mark.parametrize("case", ["tippen:3", "lupfen:3", "mauscheln:3", "toepen:4"])
def test_a_decision_reads_few_enum_members_from_their_class(case):
    reads, decisions = _enum_reads()(case, 20)
    per_decision = sum(reads.values()) / decisions
    assert decisions > 0
    # before the sixth round of issue 17 Tippen 3p read 7.5 a decision (plus 4.5 in state.active), now under 1
    assert per_decision < 2.5, f"{case}: {per_decision:.2f} a decision; busiest: {reads.most_common(3)}"
    assert "__getattribute__" not in enum.EnumType.__dict__  # the hook is gone
