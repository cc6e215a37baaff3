"""Do the card-play features help a network copy the heuristic's card play? An ablation on the same decisions.

The heuristic plays in every seat of deals at the given tables (round robin, the batched trainer's warm start:
training/batched/imitation.py); its decisions are recorded once in the general space. Two networks of the same
seed and size are fitted to them the same way, one reading the observation as it is, one with the card-play
feature columns (rams_env/core/card_features.py) zeroed. Printed: the share of held-out decisions with a real
choice where each network's greedy action is the teacher's, over all decisions and over card play alone (two
or more legal cards). A higher share with the features means they carry what the network could not derive
from the raw card fields in the same data and epochs.

    python benchmarks/card_features_imitation.py --game tippen --tables loup:5 alvensleben_1859:4
    python benchmarks/card_features_imitation.py --game toepen --tables standard:4 standard:8 --decisions 20000
"""

from __future__ import annotations

import argparse

import torch

from evaluation.throughput import measured_code
from rams_env.core.general import GeneralSpace
from training.batched.imitation import agreement, fit, record_tables
from training.batched.network import ActorCritic
from training.batched.tables import TableSpec
from training.imitation import HELD_OUT, Demonstrations


def card_play(space: GeneralSpace, data: Demonstrations) -> Demonstrations:
    """The decisions where two or more cards may be played."""
    plays = torch.tensor([label in set(space.cards) for label in space.labels])
    return data.batch(torch.nonzero((data.masks & plays).sum(dim=1) > 1).flatten())


def without_features(space: GeneralSpace, data: Demonstrations) -> Demonstrations:
    layout = space.card_features
    observations = data.observations.clone()
    observations[:, layout.start:layout.start + layout.size] = 0
    return Demonstrations(observations, data.masks, data.actions, data.returns)


def measure(game: str, tables: list[TableSpec], decisions: int, epochs: int, net_arch: list[int]) -> None:
    space = GeneralSpace(game)
    data = record_tables(game, tables, "heuristic", decisions, gamma=1.0, scale=0.1, seed=0, progress=True)
    for arm, arm_data in (("without", without_features(space, data)), ("with", data)):
        torch.manual_seed(0)
        network = ActorCritic(space.obs_size, space.num_actions, net_arch)
        metrics = fit(network, arm_data, epochs=epochs, batch_size=512, learning_rate=1e-3, value_coef=0.5,
                      progress=False)
        cards = card_play(space, arm_data.split(HELD_OUT)[1])
        print(f"{game} {arm:7s} the features: agreement {metrics['agreement']:.3f} over all choices, "
              f"{agreement(network, cards):.3f} in card play ({len(cards)} held-out card choices, "
              f"{len(arm_data)} decisions)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tippen", help="game (default tippen)")
    parser.add_argument("--tables", nargs="+", default=["loup:5", "alvensleben_1859:4"], metavar="PRESET:N",
                        help="tables the heuristic is recorded at (default loup:5 alvensleben_1859:4)")
    parser.add_argument("--decisions", type=int, default=60_000, help="decisions recorded (default 60,000)")
    parser.add_argument("--epochs", type=int, default=8, help="passes of each fit (default 8)")
    parser.add_argument("--net-arch", type=int, nargs="+", default=[256, 256], help="hidden layers (default 256 256)")
    args = parser.parse_args()
    print(measured_code(), flush=True)
    torch.set_num_threads(1)
    tables = []
    for text in args.tables:
        preset, _, players = text.rpartition(":")
        if not preset or not players.isdigit():
            parser.error(f"--tables: PRESET:N, got {text!r}")
        tables.append(TableSpec(int(players), preset))
    measure(args.game, tables, args.decisions, args.epochs, args.net_arch)


if __name__ == "__main__":
    main()
