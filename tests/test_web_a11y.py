"""Every screen of the web client checked by axe-core (the engine behind most accessibility audits),
in Debian's Chromium: the front page, the lobby with its chat, each question, each side panel, the
summaries, Trix layouts, history, the replay viewer and the error pages, in English and Arabic, on a
desktop and a phone.

axe finds what a machine can: names, roles, contrast, heading order, labels. The tests in
test_web_table.py check what it cannot (what a screen reader hears as the game moves, focus, keys).
Any violation fails, best practices included: the client has none today, so a new one is a regression.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from opentrix.cards import Card
from test_server_kit import LiveServer
from test_web_table import (
    DESKTOP,
    PHONE,
    browser,
    finish_match,
    king_seed,
    lina_and_omar,
    new_page,
    seat_url,
    server,
    step,
    wikipedia_seed,
)

pytestmark = pytest.mark.browser

__all__ = ["browser", "server"]  # the module-wide Chromium and server, shared as fixtures

DEVICES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


class Audit:
    """Runs axe on a page as it stands and keeps what it found under a name saying which screen."""

    def __init__(self, axe: Axe) -> None:
        self.axe = axe
        self.found: dict[str, list[str]] = {}
        self.screens = 0

    def __call__(self, page: Page, screen: str) -> None:
        page.wait_for_timeout(200)  # let the last redraw settle (the client redraws on every update)
        violations: list[dict[str, Any]] = self.axe.run(page).response["violations"]
        self.screens += 1
        if violations:
            self.found[screen] = [
                f"[{v['impact']}] {v['id']}: {v['help']} at {', '.join(str(n['target']) for n in v['nodes'][:3])}"
                for v in violations
            ]

    def check(self, least: int) -> None:
        assert self.screens >= least, f"only {self.screens} screens were audited"
        assert not self.found, "\n".join(f"{screen}:\n  " + "\n  ".join(v) for screen, v in self.found.items())


@pytest.fixture
def audit(axe: Axe) -> Iterator[Audit]:
    yield Audit(axe)


def open_drawers(page: Page, audit: Audit, screen: str) -> int:
    """Open each side panel the table offers now, audit it, close it again; how many were opened."""
    opened = 0
    for name in ("rules", "scores", "last", "chat"):
        button = page.locator(f"[data-cmd={name}]")
        if not button.count() or not button.first.is_enabled():
            continue
        button.first.click()
        page.locator(f"[data-drawer={name}]").wait_for()
        audit(page, f"{screen}, the {name} panel")
        page.locator("[data-drawer] [data-cmd=close]").click()
        opened += 1
    return opened


def play_to_summary(page: Page, contract: str = "queens") -> None:
    for _ in range(2000):
        if page.locator("#deal-summary").count():
            return
        if step(page, contract) is None:
            page.wait_for_timeout(40)
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_match_against_bots_screen_by_screen(
    browser: Browser, server: LiveServer, audit: Audit, device: str, lang: str
) -> None:
    """Front page, the contract question, a card to play with every side panel open in turn, the end of
    a deal, Trix layouts."""
    errors: list[str] = []
    page = new_page(browser, DEVICES[device], errors)
    page.goto(f"{server.base}/?lang={lang}")
    page.wait_for_selector("#create-form")
    audit(page, "the front page")
    t = server.create(name="Lina", bots="easy", start=True, seed=king_seed(0))
    page.goto(seat_url(server, t, lang))
    page.locator("#contract-dialog").wait_for()
    audit(page, "the contract question")
    page.locator("#contract-dialog [data-action='contract queens']").click()
    page.wait_for_selector("[data-testid=hand] [data-play]")
    audit(page, "a card to play")
    page.locator("[data-testid=hand] [data-play]").first.click()
    page.locator("[data-cmd=last]:not([disabled])").wait_for()  # a trick done: the last-trick panel too
    assert open_drawers(page, audit, "Queens") == 3  # rules, scores, last trick (no chat against bots)
    play_to_summary(page)
    audit(page, "the end of a deal")
    page.locator("#next-deal").click()
    page.locator("#contract-dialog [data-action='contract trix']").click()
    page.locator("[data-testid=hand] .card").first.wait_for()
    for _ in range(12):  # a few cards into the layouts
        if step(page, "trix") is None:
            page.wait_for_timeout(40)
    audit(page, "Trix")
    audit.check(least=8)
    assert not errors, errors
    page.context.close()


def test_friends_in_the_lobby_and_at_the_table(browser: Browser, server: LiveServer, audit: Audit) -> None:
    """The lobby with two friends and their chat, for the host and for a visitor, then the chat panel
    and the doubling question once the match has begun."""
    errors: list[str] = []
    qs = int(Card.QS)
    t, lina, omar = lina_and_omar(
        browser, server, errors, PHONE, start=False, rules="wikipedia", seed=wikipedia_seed(lambda h: bool(h >> qs & 1))
    )
    for page in (lina, omar):
        page.locator("[data-testid=lobby-chat]").wait_for()
    omar.fill("#chat-input", "Sami is on his way")
    omar.press("#chat-input", "Enter")
    lina.locator("[data-testid=chat-log] li").wait_for()
    audit(lina, "the host's lobby")
    audit(omar, "a friend's lobby, on a phone")
    visitor = new_page(browser, DESKTOP, errors)
    visitor.goto(f"{server.base}/t/{t['id']}?lang=ar")
    visitor.locator("[data-testid=lobby-chat] li").wait_for()
    audit(visitor, "a visitor in the lobby, in Arabic")
    lina.click("#start-match")
    lina.click("#contract-dialog [data-action='contract queens']")
    lina.wait_for_selector("#double-dialog")
    audit(lina, "the doubling question")
    lina.locator("#double-dialog [data-action='no double']").click()
    omar.wait_for_selector("#double-dialog")  # he holds Q♦
    audit(omar, "the doubling question, on a phone")
    omar.locator("#double-dialog [data-action='no double']").click()
    omar.locator("[data-cmd=chat]").click()
    omar.locator("[data-testid=chat-log] li").wait_for()
    audit(omar, "the chat panel at the table, on a phone")
    audit(visitor, "a spectator at the table")
    audit.check(least=7)
    assert not errors, errors
    for page in (lina, omar, visitor):
        page.context.close()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_finished_match_its_history_and_replay(
    browser: Browser, server: LiveServer, audit: Audit, device: str
) -> None:
    """The match-over dialog, the finished table once put away, the history, the replay viewer and its
    upload page, and the pages that say something is not there."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=5, kingdoms=1, rules="online")
    finish_match(server, t)
    page = new_page(browser, DEVICES[device], errors)
    page.goto(seat_url(server, t))
    page.locator("#match-over").wait_for()
    audit(page, "the match over")
    page.goto(f"{server.base}/history?lang=en")
    page.locator(f"tr[data-match='{t['id']}']").wait_for()
    audit(page, "the history")
    page.goto(f"{server.base}/replay/{t['id']}?lang=ar")
    page.wait_for_selector("[data-testid=replay-controls]")
    page.click("#replay-next")
    audit(page, "the replay viewer, in Arabic")
    page.goto(f"{server.base}/replay?lang=en")
    page.locator("input[type=file]").wait_for(state="attached")
    audit(page, "the replay's upload page")
    server.put_away(t["id"])
    page.goto(seat_url(server, t))
    page.locator("[data-testid=finished]").wait_for()
    audit(page, "a finished table put away")
    page.goto(f"{server.base}/t/NOSUCH?lang=en")
    page.locator("text=no table").wait_for()
    audit(page, "a code with no table")
    assert httpx.get(f"{server.base}/no/such/page", timeout=10).status_code == 404
    page.goto(f"{server.base}/no/such/page")
    audit(page, "the server's not-found page")
    audit.check(least=7)
    assert not errors, errors
    page.context.close()
