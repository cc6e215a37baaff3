"""A live ``rams serve`` on loopback and Debian's Chromium driven by Playwright, for the end-to-end tests and
the screenshots of docs/web.md (``python -m tests.web.browser`` writes them).

No browser is downloaded: Playwright launches the system's Chromium (``apt-get install chromium``; .ci/setup
installs it under CI). Without it the tests fail under CI (CI=true) and skip locally, saying why.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser")
LAPTOP = {"width": 1366, "height": 768}
"""The screen size the table must be readable at (docs/web.md's screenshots)."""
DOCS = Path(__file__).resolve().parents[2] / "docs" / "web"


def chromium_path() -> str | None:
    """The system's Chromium (RAMS_CHROMIUM overrides), or None."""
    given = os.environ.get("RAMS_CHROMIUM")
    if given:
        return given if Path(given).exists() else None
    return next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as err:
        return f"the web extra is not installed ({err}): pip install -e '.[web]'"
    if chromium_path() is None:
        return "no Chromium: apt-get install -y chromium (or set RAMS_CHROMIUM to a Chromium binary)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def live_server() -> Iterator[str]:
    """``rams serve``'s application on a free loopback port, in a thread; yields its address."""
    import uvicorn

    from web.app import create_app

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def chromium() -> Iterator:
    """A headless Chromium (the system's) under Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_path(), headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


def open_table(page, url: str, game: str = "toepen", preset: str | None = None, seat: str = "0",
               pace: str = "0", seed: str = "5", opponents: list[str] | None = None, rules: str = "") -> None:
    """Fill the page's set-up form and open the table (a table the page was at is left, not resumed)."""
    page.goto(url)
    page.evaluate("localStorage.clear()")
    page.goto(url)
    page.select_option("#game", game)
    if preset:
        page.select_option("#preset", preset)
    page.select_option("#seat", seat)
    for i, spec in enumerate(opponents or []):
        page.locator("#opponents input").nth(i).fill(spec)
    page.fill("#pace", pace)
    page.fill("#seed", seed)
    page.fill("#rules", rules)
    page.click("#open")
    page.wait_for_selector("#table-view:not([hidden])", timeout=120_000)  # a trained agent loads torch first


def play_until(page, done: str, limit: int = 400) -> None:
    """Click the first legal card or move (and 'next deal') until the JavaScript condition ``done`` holds."""
    for _ in range(limit):
        page.wait_for_function("['mine', 'settled', 'over'].includes(document.body.dataset.state)")
        if page.evaluate(done):
            return
        state = page.evaluate("document.body.dataset.state")
        if state == "over":
            raise RuntimeError("the session ended first")
        before = page.evaluate("Number(document.body.dataset.version)")
        target = "#next-deal" if state == "settled" else (
            "#hand .card.legal" if page.locator("#hand .card.legal").count() else "#moves button")
        page.locator(target).first.click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    raise RuntimeError(f"never got to {done}")


MID_TRICK = "document.body.dataset.state === 'mine' && document.querySelectorAll('#trick .card').length >= 2"
SETTLED = "document.body.dataset.state === 'settled'"


def shoot(page, name: str) -> None:
    page.wait_for_timeout(300)
    page.screenshot(path=str(DOCS / name))
    print("wrote", DOCS / name)


def main() -> None:
    """The screenshots of docs/web.md, at a laptop's size."""
    import tempfile

    DOCS.mkdir(parents=True, exist_ok=True)
    with live_server() as url, chromium() as browser:
        page = browser.new_page(viewport=LAPTOP)
        open_table(page, url, seed="11", pace="0.02", opponents=["heuristic:bluffer", "pretrained", "heuristic:caller"])
        play_until(page, MID_TRICK)
        shoot(page, "toepen-table.png")
        play_until(page, SETTLED)
        shoot(page, "toepen-settlement.png")
        record = page.request.get(url + page.get_attribute("#save-record", "href")).json()
        open_table(page, url, game="mauscheln", seed="4", pace="0.02")
        play_until(page, MID_TRICK)
        shoot(page, "mauscheln-table.png")
        open_table(page, url, game="tippen", seat="spectate", seed="2", pace="0.25")
        page.wait_for_timeout(3500)
        shoot(page, "spectator.png")
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(record, f)
        page.set_input_files("#record-file", f.name)
        page.wait_for_selector("#replay-controls:not([hidden])")
        for _ in range(14):
            page.click("#replay-next")
        shoot(page, "replay.png")
        os.unlink(f.name)


if __name__ == "__main__":
    main()
