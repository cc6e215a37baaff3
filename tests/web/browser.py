"""A live ``rams serve`` on loopback and Debian's Chromium driven by Playwright, for the end-to-end tests and
the screenshots of docs/web.md (``python -m tests.web.browser`` writes them).

No browser is downloaded: Playwright launches the system's Chromium (``apt-get install chromium``; .ci/setup
installs it under CI). Without it the tests fail under CI (CI=true) and skip locally, saying why.
"""

from __future__ import annotations

import contextlib
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
    """Fill the page's set-up form and open the table."""
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
    page.wait_for_selector("#table-view:not([hidden])")


def main() -> None:
    """The screenshots of docs/web.md, at a laptop's size."""
    DOCS.mkdir(parents=True, exist_ok=True)
    with live_server() as url, chromium() as browser:
        page = browser.new_page(viewport=LAPTOP)
        open_table(page, url, seed="11", pace="0.05")
        page.wait_for_function("document.body.dataset.state === 'mine'")
        page.screenshot(path=str(DOCS / "toepen-table.png"))
        print("wrote", DOCS / "toepen-table.png")


if __name__ == "__main__":
    main()
