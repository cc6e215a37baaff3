"""rams serve end to end in a real browser: Debian's Chromium driven by Playwright, clicking as a person does.

A whole Toepen session (with an illegal click and a page reload on the way), a whole pot-game session, and a
replay of the session's record. Slow tier (CI runs them). Without Chromium or the web extra they fail under CI
(CI=true) with the reason, and skip locally with it (tests/web/browser.py).
"""

from __future__ import annotations

import json
import os

import pytest

from tests.tiers import slow
from tests.web.browser import LAPTOP, chromium, live_server, missing_browser, open_table

pytestmark = slow
MAX_TURNS = 2000
WAIT_MS = 20_000


def require_browser() -> None:
    reason = missing_browser()
    if reason is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"the browser tests cannot run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def site():
    require_browser()
    with live_server() as url, chromium() as browser:
        yield url, browser


@pytest.fixture
def page(site):
    url, browser = site
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.base_url = url
    yield page
    context.close()


def settle(page) -> str:
    """Wait until the table needs the person (her turn, a settlement) or the session is over; that state."""
    page.wait_for_function("['mine', 'settled', 'over'].includes(document.body.dataset.state)")
    return page.evaluate("document.body.dataset.state")


def click_and_wait(page, selector: str) -> None:
    """Click, then wait for the server's next message to be drawn."""
    before = page.evaluate("Number(document.body.dataset.version)")
    page.locator(selector).first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")


def one_turn(page) -> str:
    """Answer what the table waits for: the next deal, a legal card, or the first legal move button."""
    state = settle(page)
    if state == "settled":
        assert page.locator("#settlement-lines li").count() > 0, "a settlement comes with its explanation"
        click_and_wait(page, "#next-deal")
    elif state == "mine":
        target = "#hand .card.legal" if page.locator("#hand .card.legal").count() else "#moves button"
        click_and_wait(page, target)
    return state


def try_illegal_card(page) -> bool:
    """Click a card that may not be played now: the reason is shown and nothing changes. False if none is."""
    if settle(page) != "mine" or not page.locator("#hand .card.dim").count() or \
            not page.locator("#hand .card.legal").count():
        return False
    legal, hand = page.evaluate("document.body.dataset.legal"), page.inner_text("#hand")
    page.locator("#hand .card.dim").first.click()
    page.wait_for_selector("#error:not([hidden])")
    assert "not allowed" in page.inner_text("#error")
    assert page.evaluate("document.body.dataset.legal") == legal and page.inner_text("#hand") == hand
    return True


def test_toepen_session_with_an_illegal_click_a_reload_and_a_replay(page, tmp_path):
    open_table(page, page.base_url, game="toepen", seed="7", rules="lives=3")
    illegal_tried = reloaded = False
    for turn in range(MAX_TURNS):
        if not illegal_tried:
            illegal_tried = try_illegal_card(page)
        if turn == 6 and not reloaded:
            hand = page.inner_text("#hand")
            page.reload()
            page.wait_for_selector("#table-view:not([hidden])")
            settle(page)
            assert page.inner_text("#hand") == hand, "the reloaded page resumes the same table"
            reloaded = True
        if one_turn(page) == "over":
            break
    else:
        raise AssertionError("the session did not end")
    assert illegal_tried and reloaded
    assert "session is over" in page.inner_text("#status")
    check_replay(page, tmp_path)


def check_replay(page, tmp_path) -> None:
    """Save the session's record from the page, load it into the replay, step through it with every hand open."""
    href = page.get_attribute("#save-record", "href")
    record = page.request.get(page.base_url + href).json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-controls:not([hidden])")
    assert page.evaluate("document.body.dataset.replay") == "0"
    assert page.locator(".seat .small-cards .card").count() >= 4 * 4  # every hand open at the first position
    for step in range(1, 4):
        page.click("#replay-next")
        assert page.evaluate("document.body.dataset.replay") == str(step)
    page.click("#replay-prev")
    assert page.evaluate("document.body.dataset.replay") == "2"


def test_pot_game_session(page):
    open_table(page, page.base_url, game="mauscheln", seed="3", rules="session_deals=2")
    states = set()
    for _ in range(MAX_TURNS):
        state = one_turn(page)
        states.add(state)
        if state == "over":
            break
    else:
        raise AssertionError("the session did not end")
    assert {"mine", "settled", "over"} <= states
    assert "chips" in page.inner_text("#seats")
