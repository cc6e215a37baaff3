"""The web application of ``rams serve`` (Starlette, served by uvicorn): the page, the tables, the replays.

HTTP: ``GET /`` the page; ``GET /api/catalog`` games, presets, table sizes, suggested agents;
``POST /api/tables`` opens a table and answers its token; ``GET /api/tables/<token>/record`` its deal record;
``POST /api/replay`` a record's frames. WebSocket ``/ws/<token>``: the table's messages (web/messages.py) and
the page's moves. The token (unguessable, 24 random bytes) is the only key to a table: a connection reaches
the one table its token names. Every message from the page is checked; a bad one gets ``{"type": "error"}``
and changes nothing. The protocol: docs/web.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from web.catalog import catalog
from web.messages import table_message
from web.replay import frames
from web.requests import RequestError, read_move, read_setup
from web.table import LiveTable, MoveError, SetupError, open_table

STATIC = Path(__file__).resolve().parent / "static"
MAX_TABLES = 256
"""Open tables at once; more are refused (a local server for a few people, not a casino)."""
MAX_BODY = 4_000_000
"""Bytes of a request body (a replayed record) or a WebSocket message."""
SETTLEMENT_PAUSE = 4
"""A spectator's table shows each settlement for this many agent moves' time before dealing on."""


@dataclass
class Seat:
    """A table with what drives it: a condition its connections wait on, the task that plays its agents."""

    table: LiveTable
    pace: float
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    task: asyncio.Task | None = None
    error: str | None = None


class Tables:
    """Every open table by token."""

    def __init__(self) -> None:
        self.by_token: dict[str, Seat] = {}

    def open(self, table: LiveTable, pace: float) -> Seat:
        if len(self.by_token) >= MAX_TABLES:
            self.drop_finished()
        if len(self.by_token) >= MAX_TABLES:
            raise SetupError(f"{MAX_TABLES} tables are under way on this server; finish one or restart the server")
        seat = Seat(table, pace)
        self.by_token[table.token] = seat
        seat.task = asyncio.get_running_loop().create_task(drive(seat))
        return seat

    def drop_finished(self) -> None:
        """Forget the tables whose session is over (their records go with them)."""
        for token in [t for t, seat in self.by_token.items() if seat.table.state.terminal]:
            task = self.by_token.pop(token).task
            if task is not None:
                task.cancel()

    def get(self, token: str) -> Seat | None:
        return self.by_token.get(token) if isinstance(token, str) else None

    def close_all(self) -> None:
        for seat in self.by_token.values():
            if seat.task is not None:
                seat.task.cancel()


async def drive(seat: Seat) -> None:
    """Play the agents' moves at the table's pace, one at a time; a spectator's table deals on by itself."""
    table = seat.table
    spectator = table.seat is None
    while True:
        async with seat.changed:
            await seat.changed.wait_for(lambda: table.agent_to_move() or (
                spectator and table.settlement is not None and not table.state.terminal))
        pause = seat.pace * (SETTLEMENT_PAUSE if table.settlement is not None else 1)
        await asyncio.sleep(pause)
        try:
            if table.agent_to_move():
                table.agent_moves()
            elif table.settlement is not None:
                table.next_deal()
        except Exception as err:  # an agent that fails (a broken checkpoint) stops this table, not the server
            seat.error = f"an agent failed: {err}"
            async with seat.changed:
                seat.changed.notify_all()
            return
        async with seat.changed:
            seat.changed.notify_all()


def error(text: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"type": "error", "error": text}, status_code=status)


async def read_json(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise RequestError(f"the request is {len(body)} bytes; at most {MAX_BODY}")
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise RequestError(f"the request is not JSON ({err})") from None


async def page(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")


async def catalog_route(request: Request) -> JSONResponse:
    return JSONResponse(catalog())


async def open_route(request: Request) -> JSONResponse:
    try:
        setup, pace = read_setup(await read_json(request))
        table = await asyncio.to_thread(open_table, setup)  # a checkpoint loads torch: the other tables go on
        request.app.state.tables.open(table, pace)
    except (RequestError, SetupError) as err:
        return error(str(err))
    return JSONResponse({"token": table.token})


async def record_route(request: Request) -> JSONResponse:
    seat = request.app.state.tables.get(request.path_params["token"])
    if seat is None:
        return error("no table with this token", 404)
    record = seat.table.record()
    if not record["deals"]:
        return error("no deal of this table is finished yet", 404)
    return JSONResponse(record, headers={"Content-Disposition": 'attachment; filename="rams-record.json"'})


async def replay_route(request: Request) -> JSONResponse:
    from rams_env.records import RecordError

    try:
        return JSONResponse(frames(await read_json(request)))
    except (RequestError, RecordError) as err:
        return error(str(err))


async def table_socket(websocket: WebSocket) -> None:
    """One connection to one table: a message after every change, the page's moves checked and applied."""
    await websocket.accept()
    seat = websocket.app.state.tables.get(websocket.path_params["token"])
    if seat is None:
        await websocket.send_json({"type": "error", "error": "no table with this token (the server may have "
                                                             "restarted): open a new table"})
        await websocket.close(code=4404)
        return
    sender = asyncio.get_running_loop().create_task(send_changes(websocket, seat))
    try:
        while True:
            text = await websocket.receive_text()
            problem = await handle(seat, text)
            if problem is not None:
                await websocket.send_json({"type": "error", "error": problem})
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender


async def handle(seat: Seat, text: str) -> str | None:
    """Apply one message of the page; the reason it was refused, or None."""
    table = seat.table
    try:
        kind, action = read_move(text, MAX_BODY)
        if kind == "move":
            table.person_moves(action)
        else:
            table.next_deal()
    except (RequestError, MoveError) as err:
        return str(err)
    async with seat.changed:
        seat.changed.notify_all()
    return None


async def send_changes(websocket: WebSocket, seat: Seat) -> None:
    """The table's message now, then again whenever it changes."""
    table, sent = seat.table, [-1]  # the version last sent
    while True:
        async with seat.changed:
            await seat.changed.wait_for(lambda: table.version != sent[0] or seat.error is not None)
            sent[0] = table.version
            message = table_message(table, table.seat)
        if seat.error is not None:
            message["error"] = seat.error
        await websocket.send_json(message)
        if seat.error is not None:
            return


def create_app() -> Starlette:
    """The application; its tables live as long as the process."""
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        app.state.tables = Tables()
        yield
        app.state.tables.close_all()

    routes = [Route("/", page), Route("/api/catalog", catalog_route),
              Route("/api/tables", open_route, methods=["POST"]),
              Route("/api/tables/{token}/record", record_route),
              Route("/api/replay", replay_route, methods=["POST"]),
              WebSocketRoute("/ws/{token}", table_socket),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    return Starlette(routes=routes, lifespan=lifespan)
