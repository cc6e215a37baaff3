"""rams serve at the server level (Starlette's TestClient): whole sessions over the WebSocket, every bad message
refused with nothing changed, tables kept apart by their tokens, reconnects, records and replays."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rams_env import records  # noqa: E402
from web.app import create_app  # noqa: E402

MAX_MESSAGES = 5000


@pytest.fixture
def client():
    with TestClient(create_app()) as c:
        yield c


def open_table(client, **setup) -> str:
    reply = client.post("/api/tables", json={"pace": 0, "seed": 3, **setup})
    assert reply.status_code == 200, reply.text
    return reply.json()["token"]


def until(ws, wanted) -> dict:
    """Messages until one satisfies ``wanted``; the person's turns meanwhile answered with her last legal move,
    settlements with 'next' (a table waits for her: it would never get there otherwise)."""
    for _ in range(MAX_MESSAGES):
        message = ws.receive_json()
        assert message["type"] == "table", message
        if wanted(message):
            return message
        if message["settlement"] is not None and not message["session_over"] and not message["spectator"]:
            ws.send_json({"type": "next"})
        elif message["legal"]:
            ws.send_json({"type": "move", "action": message["legal"][-1]["label"]})
    raise AssertionError("the table never got there")


def play_session(ws, pick=lambda legal: legal[-1]) -> dict:
    """Answer every turn with ``pick`` of the legal moves and every settlement with 'next', to the end."""
    for _ in range(MAX_MESSAGES):
        message = ws.receive_json()
        assert message["type"] == "table", message
        if message["session_over"]:
            return message
        if message["settlement"] is not None:
            ws.send_json({"type": "next"})
        elif message["legal"]:
            ws.send_json({"type": "move", "action": pick(message["legal"])["label"]})
    raise AssertionError("the session did not end")


def test_catalog_lists_every_game(client):
    games = client.get("/api/catalog").json()["games"]
    assert set(games) == {"toepen", "tippen", "mauscheln", "lupfen", "fipsen"}
    assert "heuristic:bluffer" in games["toepen"]["agents"]
    assert client.get("/").status_code == 200 and "card table" in client.get("/").text


@pytest.mark.parametrize(("game", "setup"), [("toepen", {"rules": "lives=3"}),
                                             ("mauscheln", {"rules": "session_deals=2"})])
def test_whole_session_and_its_record_replays(client, game, setup):
    token = open_table(client, game=game, opponents=["heuristic"], **setup)
    with client.websocket_connect(f"/ws/{token}") as ws:
        last = play_session(ws)
    assert last["settlement"]["lines"], "the last deal's settlement is explained"
    record = client.get(f"/api/tables/{token}/record").json()
    assert len(record["deals"]) == last["deals_played"]
    final = records.replay(record)
    assert final.terminal and final.scores == last["scores"]  # seat 0: relative = absolute


def test_illegal_and_malformed_messages_change_nothing(client):
    token = open_table(client, game="toepen")
    with client.websocket_connect(f"/ws/{token}") as ws:
        message = until(ws, lambda m: m["legal"] and m["view"]["phase"] == "play")
        legal = {m["label"] for m in message["legal"]}
        illegal_card = next(c for c in message["view"]["hand"] if c not in legal) if len(legal) < 4 else None
        bad = ["not json", json.dumps([1]), json.dumps({"type": "move"}), json.dumps({"type": "move", "action": 3}),
               json.dumps({"type": "fly"}), json.dumps({"type": "next"}), json.dumps({"type": "move", "action": "Zz"}),
               json.dumps({"type": "next", "x": 1}), json.dumps({"type": "move", "action": "x" * 100})]
        if illegal_card:
            bad.append(json.dumps({"type": "move", "action": illegal_card}))
        for text in bad:
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["error"], text
        if illegal_card:
            assert "not allowed" in reply["error"] and "you may play" in reply["error"]
        ws.send_json({"type": "move", "action": message["legal"][0]["label"]})
        after = ws.receive_json()
        assert after["type"] == "table"  # the first change after all the refusals is the legal move
        assert message["legal"][0]["label"] in [e["text"].split(": ")[-1] for e in after["log"]]


def test_tables_are_kept_apart_by_token(client):
    first, second = open_table(client, game="toepen", seed=1), open_table(client, game="tippen", seed=2)
    assert first != second and len(first) >= 32
    with client.websocket_connect(f"/ws/{first}") as a, client.websocket_connect(f"/ws/{second}") as b:
        in_a = until(a, lambda m: bool(m["legal"]))
        in_b = until(b, lambda m: bool(m["legal"]))
        assert in_a["setup"]["game"] == "toepen" and in_b["setup"]["game"] == "tippen"
        a.send_json({"type": "move", "action": in_a["legal"][0]["label"]})
        a.receive_json()
        b.send_json({"type": "move", "action": "garbage-move"})
        assert b.receive_json()["type"] == "error"
    with client.websocket_connect(f"/ws/{second}") as b:
        assert b.receive_json()["log"] == in_b["log"]  # nothing done at one table reached the other
    with client.websocket_connect("/ws/guessed-token") as ws:
        assert "no table" in ws.receive_json()["error"]
    assert client.get("/api/tables/guessed-token/record").status_code == 404


def test_reconnect_resumes_the_table(client):
    token = open_table(client, game="lupfen")
    with client.websocket_connect(f"/ws/{token}") as ws:
        before = until(ws, lambda m: bool(m["legal"]))
    with client.websocket_connect(f"/ws/{token}") as ws:
        again = ws.receive_json()
    assert again == before
    assert client.get(f"/api/tables/{token}/record").status_code == 404  # the deal under way is never in a record


BAD_SETUPS = [{"game": "chess"}, {"game": "toepen", "preset": "nope"}, {"game": "toepen", "seat": 9},
              {"game": "toepen", "opponents": ["wizard"]}, {"game": "toepen", "players": "4"},
              {"game": "toepen", "colour": "red"}, {}, {"game": "toepen", "pace": 99},
              {"game": "toepen", "rules": "lives=many"}, {"game": "toepen", "rules": "lives"}, [1, 2]]


@pytest.mark.parametrize("body", BAD_SETUPS)
def test_bad_setups_are_refused(client, body):
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 400 and reply.json()["error"]


def test_spectator_sees_every_hand_and_the_session_plays_itself(client):
    token = open_table(client, game="fipsen", seat=None, opponents=["heuristic", "random"] * 2,
                       rules="session_deals=2")
    with client.websocket_connect(f"/ws/{token}") as ws:
        first = ws.receive_json()
        assert first["spectator"] and len(first["open"]["hands"]) == 4 and not first["legal"]
        ws.send_json({"type": "move", "action": "pass"})
        refused, last = None, first
        for _ in range(MAX_MESSAGES):  # the refusal and the session's end, in whichever order they come
            if refused is not None and last["session_over"]:
                break
            message = ws.receive_json()
            if message["type"] == "error":
                refused = message["error"]
            else:
                last = message
    assert "spectator" in refused
    assert last["session_over"] and last["deals_played"] == 2


def test_replay_of_a_record_and_of_a_tampered_one(client):
    token = open_table(client, game="toepen", rules="lives=2")
    with client.websocket_connect(f"/ws/{token}") as ws:
        play_session(ws)
    record = client.get(f"/api/tables/{token}/record").json()
    replay = client.post("/api/replay", content=json.dumps(record)).json()
    actions = sum(len(d["actions"]) for d in record["deals"])
    assert len(replay["frames"]) == actions + len(record["deals"])
    assert all(len(f["open"]["hands"]) == 4 for f in replay["frames"])
    record["deals"][0]["actions"][0]["seat"] += 1
    refused = client.post("/api/replay", content=json.dumps(record))
    assert refused.status_code == 400 and "is to act" in refused.json()["error"]
    assert client.post("/api/replay", content=b"{oops").status_code == 400


def test_finished_tables_make_room(client, monkeypatch):
    import web.app

    monkeypatch.setattr(web.app, "MAX_TABLES", 2)
    done = open_table(client, game="toepen", rules="lives=2")
    with client.websocket_connect(f"/ws/{done}") as ws:
        play_session(ws)
    open_table(client, game="toepen")
    third = open_table(client, game="toepen")  # the finished table is forgotten to make room
    assert client.get(f"/api/tables/{done}/record").status_code == 404
    refused = client.post("/api/tables", json={"game": "toepen"})
    assert refused.status_code == 400 and "under way" in refused.json()["error"]
    assert third


def test_rams_serve_command_line(capsys):
    from cli.main import main

    assert main(["serve", "--help"]) == 0
    assert "127.0.0.1" in capsys.readouterr().out
    assert main(["serve", "--port", "0"]) == 2
    assert "--port 0" in capsys.readouterr().err
