"""``net_arch`` as SB3 writes it: one list for both towers, or a mapping of each tower's layers."""

from __future__ import annotations

import pytest

from agents.checkpoint.net_arch import Towers, as_json, describe, towers
from training.config import ConfigError, load_config


def test_a_list_is_both_towers_and_a_mapping_each_its_own():
    assert towers([256, 256]) == Towers([256, 256], [256, 256])
    assert towers({"pi": [256, 256], "vf": [128]}) == Towers([256, 256], [128])
    assert towers([]) == Towers([], [])  # no hidden layers: the heads read the observation


def test_json_keeps_the_form_it_was_given():
    assert as_json((64, 32)) == [64, 32]
    assert as_json({"vf": [8], "pi": [16]}) == {"pi": [16], "vf": [8]}
    assert describe([64, 32]) == "[64, 32]"
    assert describe({"pi": [64], "vf": [64]}) == "pi [64] vf [64]"


@pytest.mark.parametrize("bad", [[0], [64, -1], [64.0], [True], "256", {"pi": [64]}, {"pi": [64], "vf": []},
                                 {"pi": [64], "vf": [8], "shared": [8]}, {"actor": [8], "critic": [8]}, None])
def test_anything_else_is_refused_with_the_two_forms_named(bad):
    with pytest.raises(ValueError, match=r"a list of positive layer widths .* \{pi: \[\.\.\.\], vf: \[\.\.\.\]\}"):
        towers(bad)


@pytest.mark.parametrize("section", ["batched", "ppo"])
def test_configs_take_the_mapping_and_refuse_a_bad_one(section):
    trainer = "batched" if section == "batched" else "sb3"
    good = load_config("configs/train/quick.yaml", [f"trainer={trainer}",
                                                    f"{section}.net_arch={{pi: [64, 64], vf: [32]}}"])
    assert getattr(good, section).net_arch == {"pi": [64, 64], "vf": [32]}
    with pytest.raises(ConfigError, match=f"{section}.net_arch: a list of positive layer widths"):
        load_config("configs/train/quick.yaml", [f"trainer={trainer}", f"{section}.net_arch={{pi: [64]}}"])
