"""The conventions PettingZoo clients rely on (issue 15 §1) and reset/lifecycle errors (issue 14 §4).

Registry ids, module attributes, the README's code, ``is_parallelizable``, the global state,
integral actions, the illegal-action convention, replay-buffer-safe infos, refused reset options
that change nothing, and clear errors before reset and after the episode.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
from pettingzoo.utils import aec_to_parallel

import rams_env
from rams_env import pz_registry
from rams_env.core.game import OptionError
from rams_env.core.global_state import Place, encode_global_state
from rams_env.env import INFO_KEYS, IllegalActionError, IllegalActionWarning, ResetNeededError
from tests.conformance import cases

ROOT = Path(__file__).resolve().parent.parent
GAMES = list(rams_env.GAMES)
SMALL_CASES = cases()[::4]


def play_random(env, seed: int, on_step=None) -> None:
    """A whole episode of uniform random legal actions; ``on_step(env)`` before every action."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if on_step is not None:
            on_step(env)
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


# ------------------------------------------------------------------ spellings
@pytest.mark.parametrize("game", GAMES)
def test_registry_ids_make_aec_and_parallel_envs(game):
    aec = pettingzoo.make("aec", f"rams/{game}-v0", num_players=3 if game != "fipsen" else 4)
    assert aec.unwrapped.game.name == game and isinstance(aec, pettingzoo.AECEnv)
    par = pettingzoo.make("parallel", f"rams/{game}-v0")
    assert isinstance(par, pettingzoo.ParallelEnv)
    observations, _ = par.reset(seed=0)
    assert set(observations) == set(par.possible_agents)


def test_registering_again_is_silent_and_old_pettingzoo_is_left_alone(monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pz_registry.register_games() == [f"rams/{g}-v0" for g in GAMES]
    monkeypatch.delattr(pettingzoo, "register")
    assert pz_registry.register_games() == []


@pytest.mark.parametrize("game", GAMES)
def test_versioned_modules_are_attributes_of_the_package(game):
    module = getattr(rams_env, f"{game}_v0")
    for make in (module.env, module.raw_env):
        env = make()
        env.reset(seed=1)
        assert env.unwrapped.game.name == game
    assert module.parallel_env().reset(seed=1)[0]


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.S)


DOCS_WITH_CODE = ["README.md", "docs/environment.md", *(f"docs/rules/{game}.md" for game in GAMES)]
"""Every doc whose python blocks are quick to run (docs/results.md's block is a 1,000-deal evaluation)."""


@pytest.mark.parametrize("doc", DOCS_WITH_CODE)
def test_python_code_blocks_of_the_docs_run(doc, capsys):
    blocks = python_blocks(ROOT / doc)
    assert blocks, f"{doc} has no python block"
    namespace = {"__name__": "__docs__", "rams_env": rams_env}  # the rules docs' snippets assume the import
    for block in blocks:
        exec(compile(block, doc, "exec"), namespace)  # noqa: S102 - our own docs


# ------------------------------------------------------------- is_parallelizable
def test_is_parallelizable_tells_the_truth():
    """The seat to act does not cycle (a knock asks the others out of turn), so the flag is False."""
    env = rams_env.make("toepen")
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)
    order: list[int] = []
    for seed in range(20):
        play_random(env, seed, lambda e: order.append(e.possible_agents.index(e.agent_selection)))
    n = env.unwrapped.game.num_players
    assert any(b != (a + 1) % n for a, b in zip(order, order[1:], strict=False))


# ------------------------------------------------------------------ global state
def check_global_state(env) -> None:
    raw = env.unwrapped
    vector = env.state()
    assert np.array_equal(vector, raw.global_state())
    layout = raw.game.state_layout
    assert raw.state_space.contains(vector)
    for seat, agent in enumerate(raw.possible_agents):
        assert np.array_equal(vector[layout[f"observation_{seat}"]], raw.observe(agent)["observation"])
    pack = raw.game.pack()
    hands = vector[layout["hands"]].reshape(raw.game.num_players, len(pack))
    for seat, hand in enumerate(raw.game_state.hands):
        assert sorted(pack.cards[i] for i in np.flatnonzero(hands[seat])) == sorted(hand)


def card_places(game, state) -> list:
    """Every declared place's cards (hands as sets: their order means nothing)."""
    places = []
    for name, place in game.card_places.items():
        value = getattr(state, name)
        places.append([sorted(v) for v in value] if place is Place.SEATS else value)
    return places


@pytest.mark.parametrize(("game", "preset", "n"), SMALL_CASES)
def test_global_state_holds_every_observation_and_every_hidden_card(game, preset, n):
    env = rams_env.make(game, n, preset=preset)
    raw, rng, differing = env.unwrapped, np.random.default_rng(5), 0
    for seed in range(4):
        play_random(env, seed, check_global_state)
        env.reset(seed=seed)
        state, g = raw.game_state, raw.game
        for seat in range(n):  # two positions with different hidden cards never share a state vector
            other = g.shuffle_unseen(state, seat, rng)
            out_a, out_b = (np.zeros(g.state_layout.size, np.float32) for _ in range(2))
            encode_global_state(g, state, out_a)
            encode_global_state(g, other, out_b)
            if card_places(g, state) != card_places(g, other):
                differing += 1
                assert not np.array_equal(out_a, out_b)
    assert differing


def test_the_old_state_attribute_names_the_new_one():
    env = rams_env.make("toepen")
    env.reset(seed=0)
    assert env.state().shape == env.unwrapped.state_space.shape
    with pytest.raises(AttributeError, match=r"env\.unwrapped\.game_state\.hands"):
        env.unwrapped.state.hands  # noqa: B018 - the old spelling must fail loudly
    with pytest.raises(AttributeError, match="game_state"):
        env.unwrapped.state = env.unwrapped.game_state


# ------------------------------------------------------------------------ actions
def test_every_integral_scalar_discrete_accepts_is_an_action():
    raw = rams_env.raw_env("toepen")
    space = raw.action_space("player_0")
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16):
        raw.reset(seed=3)
        legal = raw.legal_actions()[0]
        for action in (dtype(legal), np.array(legal, dtype=dtype)):
            assert space.contains(action)
            raw.reset(seed=3)
            raw.step(action)
            assert raw.game_state.history[-1][1] == legal
    for bad in (np.array([legal]), np.array(float(legal)), float(legal), np.float32(legal), True, np.bool_(True)):
        raw.reset(seed=3)
        with pytest.raises(IllegalActionError, match="not an integer action id"):
            raw.step(bad)


# ---------------------------------------------------------------- illegal actions
def masked_out(raw) -> int:
    return next(a for a in range(raw.game.actions.size) if a not in raw.legal_actions())


@pytest.mark.parametrize("game", GAMES)
def test_env_ends_the_game_on_a_masked_out_action_like_pettingzoo_classic(game):
    env = getattr(rams_env, f"{game}_v0").env(illegal_reward=-3)
    env.reset(seed=1)
    raw, agent = env.unwrapped, env.agent_selection
    bad = masked_out(raw)
    labels = ", ".join(f"{a}={raw.action_label(a)}" for a in raw.legal_actions())
    with pytest.warns(IllegalActionWarning, match=re.escape(f"{agent}: action {bad} ({raw.action_label(bad)})")) as w:
        env.step(bad)
    assert labels in str(w[0].message)
    assert all(env.terminations.values())
    assert env.rewards == {a: (-3.0 if a == agent else 0.0) for a in env.possible_agents}
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match="out of range"):  # malformed input is a bug in every mode
        env.step(10**6)


@pytest.mark.parametrize("make", [rams_env.raw_env, lambda g: rams_env.make(g, illegal_action="raise")])
def test_raw_env_and_raise_mode_refuse_and_change_nothing(make):
    env = make("lupfen")
    env.reset(seed=1)
    raw = env.unwrapped
    before = raw.observe(env.agent_selection)["observation"].copy()
    with pytest.raises(IllegalActionError, match="legal:"):
        env.step(masked_out(raw))
    assert np.array_equal(raw.observe(env.agent_selection)["observation"], before)
    assert not any(env.terminations.values())


# -------------------------------------------------------------------------- infos
@pytest.mark.parametrize("game", GAMES)
def test_infos_are_fixed_shape_numbers_and_the_breakdown_stays_available(game):
    env = rams_env.make(game, episode="session")
    ends = []

    def check(e):
        raw = e.unwrapped
        for info in e.infos.values():
            assert tuple(info) == INFO_KEYS and all(type(v) in (int, float) for v in info.values())
        assert json.loads(raw.breakdown_json()) == json.loads(json.dumps(raw.last_breakdown()))
        if raw.game_state.terminal and len(e.infos) == len(e.possible_agents):  # the moment the episode ends
            ends.append(raw.game_state.deals_played)
            for seat, agent in enumerate(e.possible_agents):
                assert e.infos[agent] == {"deal_result": raw.game_state.deal_results[-1][seat],
                                          "score": raw.game_state.scores[seat],
                                          "deals_played": raw.game_state.deals_played}
            assert raw.last_breakdown() == raw.game_state.deal_breakdowns[-1]

    play_random(env, 2, check)
    assert ends and ends[0] >= 1


# ------------------------------------------------------------------ reset options
def first_deal(env) -> list:
    return [sorted(h) for h in env.unwrapped.game_state.hands]


BAD_OPTIONS = [
    ([1, 2], "reset options must be a mapping"),
    (7, "reset options must be a mapping"),
    ("deal", "reset options must be a mapping"),
    ({"deal": {"hands": None}}, "'hands' must be a list"),
    ({"deal": {"hands": [None, [], [], []]}}, "hand 0 must be a list"),
    ({"deal": {"hands": [["Ac"]] * 4, "stock": 3}}, "option 'deal'"),
    ({"deal": [1]}, "option 'deal' must be a mapping"),
    ({"dealer": "0"}, "option 'dealer'"),
    ({"lives_lost": "none"}, "option 'lives_lost'"),
    ({"lives_lost": [0, 0, 0, 10]}, "option 'lives_lost'"),
]


@pytest.mark.parametrize(("options", "message"), BAD_OPTIONS)
def test_refused_reset_names_the_option_and_changes_nothing(options, message):
    reference = rams_env.raw_env("toepen")
    reference.reset(seed=5)
    reference.reset()
    expected = first_deal(reference)

    env = rams_env.raw_env("toepen")
    env.reset(seed=5)
    env.step(env.legal_actions()[0])
    during = (env.observe(env.agent_selection)["observation"].copy(), list(env.game_state.history))
    for seed in (None, 99):
        with pytest.raises(OptionError, match=re.escape(message)):
            env.reset(seed=seed, options=options)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], during[0])
    assert env.game_state.history == during[1]
    env.reset()
    assert first_deal(env) == expected  # the live generator was not touched


def test_refused_carry_after_a_drawn_dealer_puts_the_generator_back():
    """The game's own carry check runs after the dealer is drawn: the draw is undone."""
    a, b = rams_env.raw_env("tippen"), rams_env.raw_env("tippen")
    a.reset(seed=8)
    b.reset(seed=8)
    with pytest.raises(OptionError, match="bankrolls"):
        b.reset(options={"bankrolls": [1, 2]})
    a.reset()
    b.reset()
    assert first_deal(a) == first_deal(b) and a.game_state.dealer == b.game_state.dealer


# ------------------------------------------------------------------ lifecycle
@pytest.mark.parametrize("call", ["observe", "step", "last", "view", "state", "last_breakdown"])
def test_raw_env_before_reset_says_so(call):
    env = rams_env.raw_env("mauscheln")
    args = {"observe": ("player_0",), "view": ("player_0",), "step": (0,)}.get(call, ())
    with pytest.raises(ResetNeededError, match=r"reset\(\) needs to be called"):
        getattr(env, call)(*args)


def test_raw_env_after_the_episode_says_so():
    env = rams_env.raw_env("toepen")
    play_random(env, 4)
    assert env.agents == []
    with pytest.raises(ResetNeededError, match="episode is over"):
        env.step(0)
    env.reset(seed=4)  # and reset starts again
    assert env.agents
