"""The web client in Debian's Chromium, driven by Playwright: play by clicking, friends, reload, Arabic, replay.

Screenshots of each state go to tests/artifacts/screenshots/ (not committed).
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

import opentrix
from opentrix.cards import Card
from opentrix.contracts import Contract
from opentrix.deal import Phase, can_claim_redeal, redeal_grounds
from opentrix.match import Match
from opentrix.record import Record
from opentrix.rules import Rules
from opentrix.server.storage import SeatRow, TableRow, tables_t
from test_server_kit import LiveServer, Player, live_server

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).parent / "artifacts" / "screenshots"
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Fast bots, no pacing; the end-of-deal summary waits for the player's click. No sweeping in the
    # background: a finished table nobody has open would be put away at the next minute's sweep, which
    # could fall between a match finished over a WebSocket and the page that opens it (tests that want
    # it put away sweep themselves, server.put_away).
    with live_server(tmp_path_factory.mktemp("web"), bot_delay=0.0, deal_pause=600.0, sweep_every=1e9) as s:
        yield s


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def new_page(browser: Browser, device: dict[str, Any], errors: list[str], csp: bool = False) -> Page:
    """A page in a fresh context. The server's Content-Security-Policy forbids evaluating strings,
    which Playwright's wait_for_function does, so tests go around it unless ``csp`` (the test that the
    app itself keeps to the policy)."""
    page = browser.new_context(**device, bypass_csp=not csp).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15000)
    return page


class Line:
    """The page's WebSocket through a line the test can cut: ``cut()`` closes the open socket and
    refuses the page's reconnects until ``mend()`` (a connection lost for a while, as on a phone)."""

    def __init__(self, page: Page) -> None:
        self.down = False
        self.sockets: list[Any] = []
        page.route_web_socket(re.compile(r"/ws/"), self._route)

    def _route(self, ws: Any) -> None:
        if self.down:
            ws.close()
            return
        self.sockets.append(ws)
        ws.connect_to_server()

    def cut(self) -> None:
        self.down = True
        self.sockets[-1].close()

    def mend(self) -> None:
        self.down = False


def seat_url(server: LiveServer, t: dict[str, Any], lang: str = "en") -> str:
    """The table page as its creator opens it: seat 0, with the token ``server.create`` returned."""
    return f"{server.base}/t/{t['id']}?lang={lang}#seat=0&token={t['token']}"


def king_seed(seat: int) -> int:
    """A seed whose first king (holder of 7♥) sits at ``seat``."""
    return next(s for s in range(1000) if Match(Rules(), seed=s).king == seat)


def finish_match(server: LiveServer, t: dict[str, Any]) -> None:
    """Play the table's match to its end over a WebSocket, as seat 0 with random legal moves."""

    async def finish() -> None:
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await me.play_to_end(random.Random(2))
        await me.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        pool.submit(asyncio.run, finish()).result(timeout=60)


def hand_cards(page: Page) -> list[str]:
    return page.locator("[data-testid=hand] .card").evaluate_all("els => els.map(e => e.dataset.card)")


def step(page: Page, contract: str = "queens", stop: Any = None) -> str | None:
    """Do whatever this player must do now by clicking; return what was done. ``stop``, looked at again
    once the hand shows legal cards (the table waits for this player then, so what it sees holds), says
    not to play: the moment a test waits for may come while this step looks."""
    try:
        if page.locator("#contract-dialog").count():
            choice = page.locator(f"#contract-dialog [data-action='contract {contract}']")
            if not choice.count():
                choice = page.locator("#contract-dialog [data-action]").first
            choice.click(timeout=2000)
            return "contract"
        if page.locator("#double-dialog").count():
            page.locator("#double-dialog [data-action='no double']").click(timeout=2000)
            return "double"
        if page.locator("#claim-dialog").count():
            page.locator("#claim-dialog [data-action='no claim']").click(timeout=2000)
            return "claim"
        if page.locator("[data-testid=pass]").count():
            page.locator("[data-testid=pass]").click(timeout=2000)
            return "pass"
        legal = page.locator("[data-testid=hand] .card.legal")
        if legal.count():
            if stop is not None and stop():
                return "stopped"
            legal.last.click(timeout=2000)
            return "card"
    except Exception:  # the table re-rendered under the click: look again
        return None
    return None


def play_until(page: Page, done: Any, contract: str = "queens", limit: float = 60) -> None:
    waited = 0.0
    while not done():
        if step(page, contract, stop=done) is None:
            page.wait_for_timeout(50)
            waited += 0.05
        else:
            page.wait_for_timeout(30)
        if waited >= limit:
            shot(page, "stopped-moving")
            pytest.fail(f"the table stopped moving; the page showed: {stuck_state(page)}")


def stuck_state(page: Page) -> str:
    """What a page waiting for nothing shows, for the failure message: turn line, toast, dialogs,
    the hand with its legal cards, and whether its socket is up."""
    try:
        return str(
            page.evaluate(
                """() => ({
                turn: document.querySelector('[data-testid=turn]')?.innerText,
                toast: document.querySelector('#toast')?.innerText,
                dialogs: [...document.querySelectorAll('[id$=-dialog], #deal-summary, #match-over')].map(d => d.id),
                hand: [...document.querySelectorAll('[data-testid=hand] .card')].map(
                    c => c.dataset.card + (c.classList.contains('legal') ? '*' : '')),
                trick: document.querySelector('[data-testid=trick]')?.innerText,
                banner: document.querySelector('.banner, .offline, [role=status]')?.innerText,
            })"""
            )
        )
    except Exception as e:  # the page itself is gone
        return f"(unreadable: {e})"


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_full_deal_played_by_clicking_cards(browser: Browser, server: LiveServer, device: str) -> None:
    errors: list[str] = []
    page = new_page(browser, DESKTOP if device == "desktop" else PHONE, errors)
    # On the desktop the player is the first king (so chooses the contract), on the phone not.
    king = 0 if device == "desktop" else 1
    page.goto(f"{server.base}/?lang=en&seed={king_seed(king)}")
    shot(page, f"{device}-01-home")
    page.fill("#name", "Lina")
    for i in range(3):
        page.select_option(f"#bot{i}", "easy")
    page.click("#play-bots")
    page.wait_for_selector("[data-testid=board]")
    assert len(hand_cards(page)) == 13
    # The side seats keep to their side of the centre; on the phone, where their card backs are hidden,
    # their badges say how many cards they hold.
    for _ in range(40):  # the table redraws on every update: a box read mid-redraw comes back None
        centre = page.locator(".center").bounding_box()
        left = page.locator(".seat-left .badge").bounding_box()
        right = page.locator(".seat-right .badge").bounding_box()
        if centre and left and right:
            break
        page.wait_for_timeout(50)
    assert centre and left and right
    assert left["x"] + left["width"] <= centre["x"] + 1 and right["x"] >= centre["x"] + centre["width"] - 1
    assert page.locator(".seat-left .badge .count").is_visible() == (device == "phone")
    if device == "phone":
        assert re.fullmatch(r"1[23] cards", page.locator(".seat-left .badge .count").inner_text())  # may have played

    seen_contract_dialog = seen_legal = seen_dim = False
    clicks = 0
    while not page.locator("#deal-summary").count():
        if page.locator("#contract-dialog").count() and not seen_contract_dialog:
            seen_contract_dialog = True
            buttons = page.locator("#contract-dialog [data-action]").count()
            assert buttons == 5  # every contract is still open in the first deal
            shot(page, f"{device}-02-contract-choice")
        if page.locator("[data-testid=hand] .card.legal").count() and not seen_legal:
            seen_legal = True
            # Legal cards are raised and clickable; the rest are dimmed and are not.
            legal = page.locator("[data-testid=hand] .card.legal").count()
            dim = page.locator("[data-testid=hand] .card.dim").count()
            assert legal + dim == len(hand_cards(page))
            assert page.locator("[data-testid=hand] .card.dim[data-play]").count() == 0
            shot(page, f"{device}-03-your-turn")
        dimmed = page.locator("[data-testid=hand] .card.dim")
        if dimmed.count() and not seen_dim:
            # A click on a dimmed card plays nothing and says which rule holds it back.
            seen_dim = True
            before = len(hand_cards(page))
            card = dimmed.first.get_attribute("data-card")
            trick = page.locator("[data-testid=trick] .card").evaluate_all("els => els.map(e => e.dataset.card)")
            dimmed.first.click()
            toast = page.locator("#toast")
            toast.wait_for(state="visible")
            text = toast.inner_text()
            assert len(hand_cards(page)) == before
            if device == "desktop":  # Queens: only following suit holds a card back
                assert trick, (card, text)
                lead = trick[0]
                assert card and card[1] != lead[1], (card, trick, text)
                assert text == f"You must follow suit: play a {'♠♥♦♣'['SHDC'.index(lead[1])]}.", text
            else:
                reasons = (
                    r"You must follow suit: play a [♠♥♦♣]\.",
                    r"You cannot follow suit, so you must discard K♥\.",
                    r"You may not lead a heart while you hold another suit\.",
                    r"\S+ does not fit the layouts yet\. You can place .+\.",
                    r"None of your cards fits the layouts: pass\.",
                )
                assert re.fullmatch("|".join(reasons), text), text
            shot(page, f"{device}-03b-dimmed-card")
        did = step(page)
        clicks += did == "card"
        if clicks == 4:
            shot(page, f"{device}-04-mid-deal")
        page.wait_for_timeout(40 if did else 60)
    assert clicks >= 1
    assert seen_contract_dialog == (king == 0)
    assert seen_dim or device == "phone"  # the desktop deal (seed fixed) has the player follow suit
    summary = page.locator("#deal-summary")
    assert summary.locator("tbody tr").count() == 4
    # The summary closes by itself when the server's pause ends, and says when (600 s on this server).
    assert re.fullmatch(r"The next deal starts in (\d+) s\.", summary.locator("[data-next-in]").inner_text())
    shot(page, f"{device}-05-end-of-deal")
    scores = [int(x) for x in summary.locator("tbody tr td:nth-child(3)").all_inner_texts()]
    goal = summary.locator(".goal-note").inner_text()  # why these scores, for whoever was not king
    assert "costs" in goal or "first out" in goal
    contract = page.locator("[data-testid=contract]").inner_text()
    totals = {"Queens": -100, "Diamonds": -130, "Ltoosh": -195, "King of Hearts": -75, "Trix": 500}
    assert sum(scores) == totals[contract], (contract, scores)
    # The scores drawer and the next deal.
    page.click("#next-deal")
    page.wait_for_selector("#deal-summary", state="detached")
    page.wait_for_function("document.querySelector('.statusbar').innerText.includes('Deal 2')")
    page.click("[data-cmd=scores]")
    assert page.locator("#scores-drawer tbody tr").count() == 1
    # The sheet fits the screen: on a phone it spans the width, not the felt's middle column.
    box = page.locator("#scores-drawer").bounding_box()
    table = page.locator("#scores-drawer table").bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert box and table and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert table["x"] >= box["x"] and table["x"] + table["width"] <= box["x"] + box["width"] + 1
    shot(page, f"{device}-06-scores")
    assert not errors, errors
    page.context.close()


def test_two_friends_at_one_table_through_the_invite_link(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    host = new_page(browser, DESKTOP, errors)
    host.goto(f"{server.base}/?lang=en")
    host.fill("#name", "Lina")
    for i in range(3):
        host.select_option(f"#bot{i}", "easy")
    host.click("#create-invite")
    host.wait_for_selector("[data-testid=lobby]")
    link = host.locator("#invite-link").inner_text()
    assert "/t/" in link
    assert host.locator("[data-testid=local-link]").count() == 1  # 127.0.0.1 reaches nobody else: said
    assert host.locator("[data-testid=seeded]").count() == 0  # the server drew the seed: no "seeded deals"
    shot(host, "friends-01-host-lobby")

    friend = new_page(browser, PHONE, errors)
    friend.goto(link + "?lang=en")
    friend.wait_for_selector("[data-testid=lobby]")
    friend.wait_for_function("document.querySelector('#invite-link')")
    # "only this computer reaches this link; restart the server" is for the host: the friend got here
    assert friend.locator("[data-testid=local-link]").count() == 0
    friend.click("[data-cmd=take][data-seat='2']")  # no name yet: asked for one, not seated as "You"
    friend.wait_for_selector("text=Type your name to take a seat.")
    assert friend.locator("#join-name").count() == 1
    friend.fill("#join-name", "Omar")
    friend.click("[data-cmd=take][data-seat='2']")
    friend.wait_for_selector("#join-name", state="detached")  # seated: the name field is gone
    host.wait_for_selector("[data-lobby-seat='2'] >> text=Omar")
    assert friend.locator("[data-testid=local-link]").count() == 0  # seated, still not the host
    assert host.locator("[data-testid=local-link]").count() == 1
    shot(friend, "friends-02-friend-lobby")
    assert friend.locator("#start-match").count() == 0  # only the host starts
    host.click("#start-match")
    host.wait_for_selector("[data-testid=board]")
    friend.wait_for_selector("[data-testid=board]")
    mine, theirs = set(hand_cards(host)), set(hand_cards(friend))
    assert len(mine) == len(theirs) == 13 and not mine & theirs
    # Neither page holds the other's cards anywhere but in cards already played.
    assert not theirs & set(host.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    shot(host, "friends-03-host-table")
    shot(friend, "friends-04-friend-table")

    def both_played_twice() -> bool:
        return len(hand_cards(host)) <= 11 and len(hand_cards(friend)) <= 11

    waited = 0
    while not both_played_twice():
        acted = step(host) or step(friend)
        if not acted:
            host.wait_for_timeout(60)
            waited += 1
            assert waited < 600, "the table stopped moving"
    played = set(hand_cards(host)) | set(hand_cards(friend))
    assert played <= mine | theirs
    shot(host, "friends-05-host-playing")
    shot(friend, "friends-06-friend-playing")
    assert friend.locator(".badge", has_text="Lina").count() == 1
    # Someone opens the link in another browser: a spectator, counted at the players' table.
    watcher = new_page(browser, DESKTOP, errors)
    watcher.goto(link + "?lang=en")
    watcher.wait_for_selector("[data-testid=board]")
    assert not set(hand_cards(watcher))
    host.wait_for_selector("text=1 watching", timeout=10_000)
    watcher.context.close()
    host.wait_for_selector("text=1 watching", state="detached", timeout=10_000)
    assert not errors, errors
    host.context.close()
    friend.context.close()


def test_a_reload_mid_deal_resumes_the_table(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0))
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("#contract-dialog")
    page.click("#contract-dialog [data-action='contract trix']")

    def placed(n: int) -> Any:
        return lambda: (
            page.locator("[data-testid=layouts] .card").count() >= n
            and bool(page.locator("[data-testid=hand] .card.legal, [data-testid=pass]").count())
        )

    play_until(page, placed(10), contract="trix")
    shot(page, "reload-01-trix-layouts")
    hand_before = hand_cards(page)
    layouts_before = page.locator("[data-testid=layouts] .card").evaluate_all("els => els.map(e => e.dataset.card)")
    page.reload()
    page.wait_for_selector("[data-testid=layouts]")
    page.wait_for_function("document.querySelectorAll('[data-testid=hand] .card').length > 0")
    assert hand_cards(page) == hand_before
    after = page.locator("[data-testid=layouts] .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert after == layouts_before
    shot(page, "reload-02-after-reload")
    # And play goes on after the reload.
    n = len(hand_before)
    play_until(page, lambda: len(hand_cards(page)) < n or page.locator("#deal-summary").count() > 0, contract="trix")
    assert not errors, errors
    page.context.close()


def wikipedia_seed(want: Callable[[int], bool]) -> int:
    """A seed (wikipedia rules) whose first king is seat 0 and whose hand for seat 0 passes ``want``."""
    rules = Rules.preset("wikipedia")
    for s in range(100_000):
        m = Match(rules, seed=s)
        if m.king == 0 and m.pending_hands is not None and want(m.pending_hands[0]):
            return s
    raise AssertionError("no such seed")


def test_the_doubling_and_redeal_dialogs(browser: Browser, server: LiveServer) -> None:
    """Wikipedia rules: doubling a queen shows it on the table; a Trix hand with three 2s and the 3
    of the fourth suit is offered a redeal."""
    errors: list[str] = []
    qs = int(Card.QS)
    t = server.create(
        name="Lina", rules="wikipedia", bots="random", start=True, seed=wikipedia_seed(lambda h: bool(h >> qs & 1))
    )
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.click("#contract-dialog [data-action='contract queens']")
    page.wait_for_selector("#double-dialog")
    assert page.locator("#double-dialog [data-action='double QS']").count() == 1
    assert page.locator("[data-testid=turn]").inner_text() == "Your answer: double?"  # asked, not "Your turn"
    shot(page, "dialogs-01-doubling")
    page.click("#double-dialog [data-action='double QS']")
    # Shown by its holder's name as a tag "×2 Q♠" while he holds it: a label, not a second card.
    tag = page.locator(".seat-bottom .doubled-tag[data-card=QS]")
    tag.wait_for()
    assert " ".join(tag.inner_text().split()) == "×2 Q♠" and tag.get_attribute("title") == "doubled by You"
    assert page.locator("[data-testid=board] .card[data-card=QS]:not([data-testid=hand] *)").count() == 0
    shot(page, "dialogs-02-doubled-queen-shown")

    def queen_gone() -> bool:  # played, and the trick it fell in taken
        trick = page.locator("[data-testid=trick] .card").evaluate_all("els => els.map(e => e.dataset.card)")
        return "QS" not in hand_cards(page) and "QS" not in trick

    play_until(page, queen_gone)
    # Once played, the tag goes; the queen shows once, in the pile of whoever took it, marked ×2.
    assert page.locator(".doubled-tag").count() == 0
    board = page.locator("[data-testid=board] [data-card=QS]")
    assert board.count() == 1, board.count()
    assert "doubled-mark" in (board.get_attribute("class") or "")
    assert board.get_attribute("title") == "doubled by You"
    assert board.evaluate("e => !!e.closest('.taken')")
    shot(page, "dialogs-02b-doubled-queen-taken")
    page.context.close()

    seed = wikipedia_seed(lambda h: can_claim_redeal(h, Contract.TRIX))
    t = server.create(name="Lina", rules="wikipedia", bots="random", start=True, seed=seed)
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.click("#contract-dialog [data-action='contract trix']")
    page.wait_for_selector("#claim-dialog")
    hands = Match(Rules.preset("wikipedia"), seed=seed).pending_hands
    assert hands is not None
    grounds = redeal_grounds(hands[0], Contract.TRIX)
    text = page.locator("#claim-dialog-sub").inner_text()
    assert text.startswith(grounds[0].upper() + grounds[1:] + "."), text  # what in the hand allows it
    shot(page, "dialogs-03-redeal-claim")
    page.click("#claim-dialog [data-action='claim']")
    page.wait_for_selector("#deal-summary")  # a thrown-in deal ends at once
    shot(page, "dialogs-04-thrown-in")
    page.click("#next-deal")
    page.wait_for_selector("#deal-summary", state="detached")
    status = page.locator(".statusbar").inner_text()
    assert "Deal 1" in status and "Deal 2" not in status  # dealt again, it is still the first deal
    assert not errors, errors
    page.context.close()


def test_a_holder_who_did_not_double_is_marked_for_the_deal(browser: Browser, server: LiveServer) -> None:
    """Under sequential doubling only holders are asked, so a "no double" tells the table who holds the
    K♥: the bots keep that in mind, and the table shows it by the holder's name until the K♥ is played."""
    from opentrix.bots.policy import doubles

    rules = Rules.preset("wikipedia")
    kh = int(Card.KH)

    def holder_of_kh(hands: tuple[int, ...]) -> int:
        return next(s for s in range(4) if hands[s] >> kh & 1)

    def fits(hand: int) -> bool:
        return not hand >> kh & 1

    for seed in itertools.count(wikipedia_seed(fits)):  # a basic holder that declines, and claims no redeal
        m = Match(rules, seed=seed)
        hands = m.pending_hands
        if m.king != 0 or hands is None or hands[0] >> kh & 1:
            continue
        holder = holder_of_kh(hands)
        if not can_claim_redeal(hands[holder], Contract.KING_OF_HEARTS) and not doubles(
            rules, int(Contract.KING_OF_HEARTS), hands[holder], 1 << kh
        ):
            break
    errors: list[str] = []
    t = server.create(name="Lina", rules="wikipedia", bots="medium", start=True, seed=seed)
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.click("#contract-dialog [data-action='contract king_of_hearts']")
    tag = page.locator("[data-testid=declined]")
    tag.wait_for()
    assert tag.count() == 1 and " ".join(tag.inner_text().split()) == "held K♥, no double"
    assert tag.evaluate("e => e.closest('.player').querySelector('.badge').dataset.seat") == str(holder)
    shot(page, "dialogs-05-holder-did-not-double")
    page.click("#lang-toggle")
    assert "بلا دبل" in page.locator("[data-testid=declined]").inner_text()
    page.click("#lang-toggle")
    played = "[data-testid=trick] .card[data-card=KH], .taken [data-card=KH]"
    play_until(page, lambda: page.locator(played).count() > 0, contract="king_of_hearts")
    assert page.locator("[data-testid=declined]").count() == 0  # the K♥ is out of his hand: nothing to mark
    assert not errors, errors
    page.context.close()


def test_a_hint_against_bots_points_out_the_hard_bots_card(browser: Browser, server: LiveServer) -> None:
    """Against bots the Hint button asks what the hard bot would do in the player's place: a toast says
    it and the card is ringed; the next move asks afresh. Among friends there is no such button."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="medium", start=True, seed=king_seed(1))
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    button = page.locator("[data-cmd=hint]")
    play_until(page, lambda: page.locator("[data-testid=hand] .card.legal").count() > 1, contract="ltoosh")
    button.click()
    ringed = page.locator("[data-testid=hand] .card.legal.hinted")
    ringed.wait_for()
    card = ringed.get_attribute("data-card")
    assert ringed.count() == 1 and card
    assert page.locator("#toast").inner_text().startswith("Hint: play ")
    shot(page, "hint-01-card-ringed")
    ringed.click()
    page.wait_for_function("c => !document.querySelector(`[data-testid=hand] [data-card='${c}']`)", arg=card)
    assert page.locator(".card.hinted").count() == 0  # a hint is for its own turn
    assert not errors, errors
    page.context.close()
    friends = server.create(name="Lina", bots="medium", seed=1)
    httpx.post(f"{server.base}/api/tables/{friends['id']}/join", json={"name": "Omar"}, timeout=10)
    httpx.post(f"{server.base}/api/tables/{friends['id']}/start", json={"token": friends["token"]}, timeout=10)
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, friends))
    page.wait_for_selector("[data-testid=hand] .card")
    assert page.locator("[data-cmd=hint]").count() == 0
    assert not errors, errors
    page.context.close()


def lina_and_omar(
    browser: Browser,
    server: LiveServer,
    errors: list[str],
    omar_device: dict[str, Any],
    start: bool = True,
    **table: Any,
) -> tuple[dict[str, Any], Page, Page]:
    """A friends' table made by Lina (seat 0) with Omar joined (seat 1) and started through the API
    (unless not ``start``), each in a browser of his own: the table and their pages."""
    t = server.create(name="Lina", bots="random", kingdoms=1, **table)
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10).json()
    assert r["seat"] == 1
    if start:
        httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": t["token"]}, timeout=10)
    lina = new_page(browser, DESKTOP, errors)
    lina.goto(seat_url(server, t))
    omar = new_page(browser, omar_device, errors)
    omar.goto(f"{server.base}/t/{t['id']}?lang=en#seat=1&token={r['token']}")
    return t, lina, omar


def test_friends_chat_at_the_table(browser: Browser, server: LiveServer) -> None:
    """Lina writes in the chat; Omar is told in a note and by the Chat button's count, and reads it when
    he opens the chat; a message typed while the table redraws is not lost; a table against bots has
    no chat button."""
    errors: list[str] = []
    _, lina, omar = lina_and_omar(browser, server, errors, PHONE, seed=king_seed(2))
    for page in (lina, omar):
        page.wait_for_selector("[data-testid=hand] .card")
    lina.click("[data-cmd=chat]")
    lina.locator("#chat-input").wait_for()
    assert lina.evaluate("document.activeElement.id") == "chat-input"  # ready to write in
    assert "No messages yet." in lina.locator("#chat-drawer").inner_text()
    lina.keyboard.type("Ahlan <b>Omar</b>, yalla!")
    lina.keyboard.press("Enter")
    lina.locator("[data-testid=chat-log] li").wait_for()
    said = lina.locator("[data-testid=chat-log] li").text_content()
    assert said == "Lina: Ahlan <b>Omar</b>, yalla!"  # text, not markup
    assert lina.locator("#chat-input").input_value() == ""
    omar.locator("[data-cmd=chat]", has_text="Chat (1 new)").wait_for()
    shot(omar, "chat-01-unread-on-a-phone")
    omar.click("[data-cmd=chat]")
    assert omar.locator("[data-testid=chat-log] li").text_content() == "Lina: Ahlan <b>Omar</b>, yalla!"
    assert omar.locator("[data-cmd=chat]").inner_text() == "Chat"
    omar.fill("#chat-input", "Marhaba")
    omar.press("#chat-input", "Enter")
    lina.locator("[data-testid=chat-log] li").nth(1).wait_for()
    shot(lina, "chat-02-two-messages")
    omar.reload()  # what was said is still there after a reload
    omar.wait_for_selector("[data-testid=hand] .card")
    omar.click("[data-cmd=chat]")
    assert omar.locator("[data-testid=chat-log] li").all_text_contents() == [
        "Lina: Ahlan <b>Omar</b>, yalla!",
        "Omar: Marhaba",
    ]
    assert not errors, errors
    for page in (lina, omar):
        page.context.close()
    alone = server.create(name="Lina", bots="random", start=True)
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, alone))
    page.wait_for_selector("[data-testid=hand] .card")
    assert page.locator("[data-cmd=chat]").count() == 0
    page.context.close()


def test_a_player_hides_the_chat_of_another(browser: Browser, server: LiveServer) -> None:
    """Omar hides Lina's messages: they leave his log, and the next ones bring no note and no count;
    his browser remembers it after a reload, the button says how many are hidden, and showing them
    again brings every one back. Lina sees nothing of it."""
    errors: list[str] = []
    _, lina, omar = lina_and_omar(browser, server, errors, DESKTOP, seed=king_seed(2))
    for page in (lina, omar):
        page.wait_for_selector("[data-testid=hand] .card")
    lina.click("[data-cmd=chat]")
    lina.fill("#chat-input", "Ya Omar!")
    lina.press("#chat-input", "Enter")
    omar.locator("[data-cmd=chat]", has_text="Chat (1 new)").wait_for()
    omar.click("[data-cmd=chat]")
    hide = omar.locator("[data-testid=chat-mutes] [data-cmd=mute]")
    assert hide.all_text_contents() == ["Lina"]  # only those who wrote, never himself
    assert hide.get_attribute("aria-pressed") == "false"
    assert hide.get_attribute("aria-label") == "Hide the messages of Lina"
    hide.click()
    assert omar.locator("[data-testid=chat-log]").count() == 0
    assert omar.locator(".chat-empty").count() == 0  # not "No messages yet": there are, hidden
    assert hide.inner_text() == "Lina (hidden: 1)"
    assert hide.get_attribute("aria-pressed") == "true"
    assert omar.evaluate("document.activeElement.dataset.cmd") == "mute"  # the keys stay on the button
    omar.click("[data-cmd=close]")
    omar.wait_for_function("document.getElementById('toast').hidden")
    lina.fill("#chat-input", "Are you there?")
    lina.press("#chat-input", "Enter")
    lina.locator("[data-testid=chat-log] li").nth(1).wait_for()
    omar.click("[data-cmd=chat]")
    omar.fill("#chat-input", "Yes")  # his own comes back after hers: by then hers has come too
    omar.press("#chat-input", "Enter")
    omar.locator("[data-testid=chat-log] li").wait_for()
    assert omar.locator("[data-testid=chat-log] li").all_text_contents() == ["Omar: Yes"]
    assert omar.locator("#toast").is_hidden()  # no note of hers while the drawer was shut
    omar.click("[data-cmd=close]")
    assert omar.locator("[data-cmd=chat]").inner_text() == "Chat"  # and no count
    omar.reload()
    omar.wait_for_selector("[data-testid=hand] .card")
    omar.click("[data-cmd=chat]")
    assert omar.locator("[data-testid=chat-log] li").all_text_contents() == ["Omar: Yes"]
    hide.wait_for()
    assert hide.inner_text() == "Lina (hidden: 2)"
    shot(omar, "chat-06-hidden")
    hide.click()
    assert omar.locator("[data-testid=chat-log] li").all_text_contents() == [
        "Lina: Ya Omar!",
        "Lina: Are you there?",
        "Omar: Yes",
    ]
    assert hide.get_attribute("aria-pressed") == "false"
    assert lina.locator("[data-testid=chat-mutes] [data-cmd=mute]").all_text_contents() == ["Omar"]
    assert lina.locator("[data-testid=chat-log] li").count() == 3
    assert not errors, errors
    for page in (lina, omar):
        page.context.close()


def test_friends_waiting_in_the_lobby_chat_there(browser: Browser, server: LiveServer) -> None:
    """The lobby shows the chat in the page once two friends are seated: Omar writes while Lina waits
    to start, she reads it there with no note or count, a visitor without a seat reads it too, and what
    was said is still in the table's chat once the match starts, not counted as new."""
    errors: list[str] = []
    t, lina, omar = lina_and_omar(browser, server, errors, PHONE, start=False, seed=king_seed(1))
    for page in (lina, omar):
        page.locator("[data-testid=lobby-chat]").wait_for()
    omar.fill("#chat-input", "Sami is on his way")
    omar.press("#chat-input", "Enter")
    lina.locator("[data-testid=lobby-chat] [data-testid=chat-log] li").wait_for()
    assert lina.locator("[data-testid=chat-log] li").text_content() == "Omar: Sami is on his way"
    assert lina.locator("#toast").is_hidden()  # in view already: no note over the lobby
    visitor = new_page(browser, DESKTOP, errors)
    visitor.goto(f"{server.base}/t/{t['id']}?lang=en")
    visitor.locator("[data-testid=lobby-chat]", has_text="Sami is on his way").wait_for()
    assert "Take a seat to write here." in visitor.locator("[data-testid=lobby-chat]").inner_text()
    assert visitor.locator("#chat-input").count() == 0
    shot(omar, "chat-04-lobby-on-a-phone")
    omar.click("#chat-input")
    omar.keyboard.type("ok")
    lina.click("#start-match")
    # Omar, the king, is typing as the match starts: the chat goes on in its drawer with his keys, and
    # the contract question waits for him (a space must not name a contract).
    omar.wait_for_selector("#contract-dialog")
    omar.keyboard.type(" let's go")
    assert omar.locator("#chat-input").input_value() == "ok let's go"
    assert omar.evaluate("document.activeElement.id") == "chat-input"
    lina.wait_for_selector("[data-testid=hand] .card")
    assert lina.locator("[data-cmd=chat]").inner_text() == "Chat"  # read in the lobby: nothing new
    lina.click("[data-cmd=chat]")
    assert lina.locator("[data-testid=chat-log] li").all_text_contents() == ["Omar: Sami is on his way"]
    assert not errors, errors
    for page in (lina, omar, visitor):
        page.context.close()


def test_a_host_who_closed_the_lobby_hands_the_start_to_the_friend_waiting(browser: Browser, tmp_path: Path) -> None:
    """Lina's connection drops in the lobby before she starts (she went to send the link around); Omar,
    waiting there, is told he is the host now once her grace period (0.5 s on this server) is over, she
    is told so when she is back, and Omar starts the match."""
    errors: list[str] = []
    with live_server(tmp_path, bot_delay=0.0, host_grace=0.5) as quick:
        t = quick.create(name="Lina", bots="random", kingdoms=1)
        r = httpx.post(f"{quick.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10).json()
        lina = new_page(browser, DESKTOP, errors)
        line = Line(lina)
        lina.goto(seat_url(quick, t))
        omar = new_page(browser, PHONE, errors)
        omar.goto(f"{quick.base}/t/{t['id']}?lang=en#seat=1&token={r['token']}")
        omar.locator("[data-testid=lobby]", has_text="Waiting for the host to start").wait_for()
        assert omar.locator("#start-match").count() == 0
        line.cut()  # off to send the link around: her connection drops and cannot come back
        omar.locator("#toast", has_text="you are the host now").wait_for()
        assert "host" in omar.locator("[data-lobby-seat='1']").inner_text()
        line.mend()  # back: she is told why the start is no longer hers
        told = lina.locator("#toast", has_text="is the host now")
        told.wait_for()
        assert told.inner_text() == "You were away, so \u2068Omar\u2069 is the host now and starts the match."
        assert lina.locator("#start-match").count() == 0
        omar.click("#start-match")
        omar.wait_for_selector("[data-testid=hand] .card")
        assert not errors, errors
        for page in (lina, omar):
            page.context.close()


def test_the_host_frees_a_seat_and_its_player_watches_or_sits_again(browser: Browser, server: LiveServer) -> None:
    """Omar sat down from his phone, then again from his laptop; Lina, the host, frees the second
    seat. That page is told, forgets its token, shows the lobby as a visitor sees it, and may sit again."""
    errors: list[str] = []
    t, lina, omar = lina_and_omar(browser, server, errors, PHONE, start=False)
    twice = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10).json()
    laptop = new_page(browser, DESKTOP, errors)
    laptop.goto(f"{server.base}/t/{t['id']}?lang=en#seat={twice['seat']}&token={twice['token']}")
    laptop.locator("[data-testid=lobby]").wait_for()
    free = lina.locator(f"[data-lobby-seat='{twice['seat']}'] [data-cmd=free]")
    assert free.get_attribute("aria-label") == "Free Omar (2)'s seat"
    assert omar.locator("[data-cmd=free]").count() == 0  # the host's button only
    free.click()
    laptop.locator("#toast", has_text="The host gave your seat back to the table").wait_for()
    laptop.locator("#join-name").wait_for()  # a visitor now: a name and a seat to take
    assert laptop.evaluate(f"localStorage.getItem('opentrix:seat:{t['id']}')") is None
    lina.locator(f"[data-lobby-seat='{twice['seat']}']", has_text="Open seat").wait_for()
    lina.wait_for_function(f"document.activeElement.id === 'lobby-seat-{twice['seat']}'")  # the keys stay there
    laptop.fill("#join-name", "Sami")
    laptop.click(f"[data-lobby-seat='{twice['seat']}'] [data-cmd=take]")
    lina.locator(f"[data-lobby-seat='{twice['seat']}']", has_text="Sami").wait_for()
    assert not errors, errors
    for page in (lina, omar, laptop):
        page.context.close()


def test_a_question_arriving_while_you_type_in_the_chat_does_not_take_your_keys(
    browser: Browser, server: LiveServer
) -> None:
    """Lina is typing in the chat when Omar, the king, names Queens and she is asked about doubling her
    Q♣: the keys she goes on typing stay in the chat (a space must not answer the question), and the
    question is there for her when she turns to it."""
    errors: list[str] = []
    _, lina, omar = lina_and_omar(browser, server, errors, DESKTOP, rules="online", seed=0)  # Omar king, Lina Q♣
    lina.wait_for_selector("[data-testid=hand] .card")
    lina.click("[data-cmd=chat]")
    lina.keyboard.type("hello")
    omar.click("#contract-dialog [data-action='contract queens']")
    omar.click("#double-dialog [data-action='no double']")  # the king holds a queen too, and is asked first
    lina.wait_for_selector("#double-dialog")
    shot(lina, "chat-03-question-while-typing")
    lina.keyboard.type(" and good luck ")
    assert lina.evaluate("document.activeElement.id") == "chat-input"
    assert lina.locator("#chat-input").input_value() == "hello and good luck "
    lina.wait_for_timeout(300)
    assert lina.locator("#double-dialog").count() == 1  # not answered by the space
    assert not errors, errors
    for page in (lina, omar):
        page.context.close()


def test_the_tabs_title_says_when_the_table_waits_for_you(browser: Browser, server: LiveServer) -> None:
    """A player in another tab sees from the tab's title that it is his turn; each screen names itself,
    in the page's language."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0))
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("#contract-dialog")  # the king names the contract: his turn
    assert page.title() == f"▶ Your turn · table {t['id']} — opentrix"
    page.click("#lang-toggle")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    assert page.title() == f"▶ دورك · الطاولة {t['id']} — opentrix"
    page.click("#lang-toggle")
    lobby = server.create(name="Lina")  # a friends' table waiting for its players: nobody's turn
    page.goto(f"{server.base}/t/{lobby['id']}?lang=en#seat=0&token={lobby['token']}")
    page.wait_for_selector("[data-testid=lobby]")
    assert page.title() == f"Table {lobby['id']} — opentrix"
    page.click("a[href='/history']")
    page.wait_for_url("**/history")
    assert page.title() == "History — opentrix"
    page.click("a[href='/']")
    page.wait_for_selector("#create-form")
    assert page.title() == "opentrix — Trix, the game of kingdoms"
    assert not errors, errors
    page.context.close()


def test_a_host_who_allows_hints_gives_them_to_friends_too(browser: Browser, server: LiveServer) -> None:
    """Ticked on the front page for a friends' table, hints are said in the lobby's rules line and the
    rules sheet, and every player at the table has the Hint button."""
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/?lang=en")
    page.fill("#name", "Lina")
    page.check("#hints")
    page.click("#create-invite")
    line = page.locator("[data-testid=lobby-rules]")
    line.wait_for()
    assert "· hints allowed" in line.inner_text()
    code = page.url.rsplit("/", 1)[-1]
    assert server.info(code)["options"]["hints"] is True
    page.click("[data-cmd=rules-lobby]")
    assert "The host allowed hints" in page.locator("[data-testid=rules]").inner_text()
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Omar"}, timeout=10)
    omar = new_page(browser, DESKTOP, errors)
    omar.goto(f"{server.base}/t/{code}?lang=en#seat={r.json()['seat']}&token={r.json()['token']}")
    omar.wait_for_selector("[data-testid=lobby]")
    page.keyboard.press("Escape")
    page.click("[data-cmd=start]")
    for who in (page, omar):
        who.wait_for_selector("[data-testid=hand] .card")
        who.locator("[data-cmd=hint]").wait_for()
    shot(omar, "hint-02-friends-table-allows-hints")
    assert not errors, errors
    page.context.close()
    omar.context.close()
    # Against bots the box is not sent: hints are there anyway.
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/?lang=en")
    page.click("#play-bots")
    page.wait_for_selector("[data-testid=hand] .card")
    code = page.url.rsplit("/", 1)[-1]
    assert "hints" not in server.info(code)["options"]
    page.locator("[data-cmd=hint]").wait_for()
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_arabic_table_is_right_to_left(browser: Browser, server: LiveServer, device: str) -> None:
    errors: list[str] = []
    t = server.create(name="لينا", bots="random", start=True, seed=king_seed(0))
    page = new_page(browser, DESKTOP if device == "desktop" else PHONE, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("#contract-dialog")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    page.click("#lang-toggle")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("document.documentElement.lang") == "ar"
    assert page.evaluate("getComputedStyle(document.querySelector('.statusbar')).direction") == "rtl"
    assert page.evaluate("getComputedStyle(document.querySelector('#contract-dialog')).direction") == "rtl"
    # The felt itself keeps its geometry: the next seat still sits on the right.
    assert page.evaluate("getComputedStyle(document.querySelector('.board')).direction") == "ltr"
    dialog = page.locator("#contract-dialog").inner_text()
    for name in ("شيخ الكبة", "البنات", "الديناري", "اللطوش", "تركس"):
        assert name in dialog
    shot(page, f"arabic-{device}-01-contract")
    page.click("#contract-dialog [data-action='contract queens']")
    page.wait_for_selector("[data-testid=contract]")
    assert page.locator("[data-testid=contract]").inner_text() == "البنات"
    play_until(page, lambda: len(hand_cards(page)) <= 10)
    shot(page, f"arabic-{device}-02-play")
    # A link's ?lang= is remembered too: the table reloaded without it stays in Arabic.
    page.goto(f"{server.base}/t/{t['id']}?lang=ar")
    page.wait_for_selector("[data-testid=board]")
    page.goto(f"{server.base}/t/{t['id']}")
    page.wait_for_selector("[data-testid=board]")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    # The choice is remembered: a new page opens in Arabic.
    page.goto(f"{server.base}/")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert "تركس" in page.locator("h1").inner_text()
    shot(page, f"arabic-{device}-03-home")
    page.click("#lang-toggle")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    assert not errors, errors
    page.context.close()


def test_history_and_the_replay_viewer(browser: Browser, server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", start=True, seed=5, kingdoms=1, rules="online")
    finish_match(server, t)
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/history?lang=en")
    row = page.locator(f"tr[data-match='{t['id']}']")
    row.wait_for()
    shot(page, "history-01-list")
    row.locator("a[href^='/replay/']").click()
    page.wait_for_selector("[data-testid=replay-controls]")
    faces = page.locator("[data-testid=board] .card:not(.back)")
    assert faces.count() == 52  # all four hands, face up, before the first card
    for _ in range(6):
        page.click("#replay-next")
    assert "Play 6 of" in page.locator("[data-testid=replay-pos]").inner_text()
    assert page.locator("[data-testid=board] .card.back").count() == 0
    shot(page, "replay-01-six-plays")
    page.click("#replay-nextdeal")
    assert "Deal 2 of" in page.locator("[data-testid=replay-pos]").inner_text()
    page.click("#replay-prev")
    assert "Deal 1 of" in page.locator("[data-testid=replay-pos]").inner_text()
    shot(page, "replay-02-end-of-deal")
    assert page.locator("[data-testid=replay-result]").count() == 0  # the result waits for the match's end
    # At the end of the last deal the replay says who won, with the standings the table showed.
    record = httpx.get(f"{server.base}/api/tables/{t['id']}/replay", timeout=10).json()
    for _ in range(len(record["deals"])):
        page.click("#replay-nextdeal")
    page.click("[data-cmd=end]")
    result = page.locator("[data-testid=replay-result]")
    assert result.locator("#standings tbody tr").count() == 4
    best = max(record["totals"])
    assert str(best) in result.locator("#standings tbody tr").nth(0).inner_text()
    assert "Match over" in result.locator("summary").inner_text() and "won" in result.locator("summary").inner_text()
    shot(page, "replay-03-match-result")
    result.locator("summary").click()  # folded away, it stays folded as the page is redrawn
    page.evaluate("window.dispatchEvent(new Event('langchange'))")
    assert not page.locator("[data-testid=replay-result]").evaluate("d => d.open")
    page.click("#replay-prev")
    assert page.locator("[data-testid=replay-result]").count() == 0
    with page.expect_download() as download:
        page.click("a[download]")
    assert download.value.suggested_filename == f"opentrix-{t['id']}.json"
    # The table itself now shows the final standings.
    page.goto(seat_url(server, t))
    standings = page.locator("#match-over")
    standings.wait_for()
    assert standings.locator("#standings tbody tr").count() == 4
    assert standings.locator("[data-testid=last-deal] tbody tr").count() == 4  # the last deal, not hidden
    shot(page, "match-over-standings")
    assert not errors, errors
    page.context.close()
    # On a phone each finished match is a card: its totals and buttons are on the screen, not off to the side.
    page = new_page(browser, PHONE, errors)
    page.goto(f"{server.base}/history?lang=en")
    row = page.locator(f"tr[data-match='{t['id']}']")
    row.wait_for()
    for part in (row.locator("td[data-label=Totals]"), row.locator("a[href^='/replay/']"), row.locator("a[download]")):
        box = part.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert "(one kingdom)" in row.locator("td[data-label=Rules]").inner_text()  # words, not kingdoms=1
    shot(page, "history-02-phone")
    # Its replay: the position on a row of its own, every arrow together on the row below it.
    page.goto(f"{server.base}/replay/{t['id']}?lang=en")
    position = page.locator("[data-testid=replay-pos]")
    position.wait_for()
    arrows = [page.locator(f"[data-testid=replay-controls] [data-cmd={c}]").bounding_box() for c in CONTROLS]
    pos = position.bounding_box()
    assert pos and all(a and a["y"] == arrows[0]["y"] and a["y"] >= pos["y"] + pos["height"] for a in arrows), arrows
    assert all(a and a["x"] >= 0 and a["x"] + a["width"] <= 390 for a in arrows), arrows
    shot(page, "replay-02-phone")
    assert not errors, errors
    page.context.close()


CONTROLS = ("prevdeal", "start", "prev", "next", "end", "nextdeal")  # the replay's arrows, in order


# -- keyboard and screen reader ------------------------------------------------------------------------

ACTIVE_JS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "body";
  const d = a.dataset || {};
  return a.id ? `#${a.id}` : d.play ? `play ${d.play}` : d.why ? `why ${d.why}` : d.action ? `action ${d.action}`
    : d.cmd ? `cmd ${d.cmd}` : a.getAttribute("data-testid") || a.tagName.toLowerCase();
}"""


def focused(page: Page) -> str:
    """What has the keyboard focus, by the key the page gives it ("#next-deal", "play QS", "cmd scores")."""
    return str(page.evaluate(ACTIVE_JS))


def focus_within(page: Page, selector: str) -> bool:
    return bool(page.evaluate("s => !!document.activeElement && !!document.activeElement.closest(s)", selector))


def test_a_deal_played_with_the_keyboard_alone(browser: Browser, server: LiveServer) -> None:
    """No mouse: every re-render keeps the focus where play goes on, dialogs take it, drawers give it back."""
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/?lang=en&seed={king_seed(0)}")
    for _ in range(10):
        if focused(page) == "#name":
            break
        page.keyboard.press("Tab")
    assert focused(page) == "#name"
    page.keyboard.type("Lina")
    page.keyboard.press("Enter")  # submits with the first button: play against bots
    page.wait_for_selector("#contract-dialog")
    page.wait_for_function("document.activeElement.closest('#contract-dialog')")  # the dialog takes the focus
    assert focused(page) == "action contract king_of_hearts"
    page.keyboard.press("Tab")
    assert focused(page) == "action contract queens"
    page.keyboard.press("Enter")
    plays = 0
    while not page.locator("#deal-summary").count():
        assert page.locator("#double-dialog, #claim-dialog").count() == 0
        if page.locator("[data-testid=hand] [data-play]").count():
            # The focus waits on a playable card: no Tab needed, however often the table was redrawn.
            page.wait_for_function("document.activeElement.matches('[data-testid=hand] [data-play]')", timeout=3000)
            if plays == 0:
                shot(page, "keyboard-01-focused-card")
                first = focused(page)
                page.keyboard.press("End")  # the arrows walk the hand, dimmed cards too
                page.keyboard.press("Home")
                assert focused(page) == first
            page.keyboard.press("Enter")
            plays += 1
        page.wait_for_timeout(40)
    assert plays >= 1
    page.wait_for_function("document.activeElement.id === 'next-deal'")
    # The summary covers the table: Tab goes round its buttons and the top bar's links above its shade
    # (the language switch stays at hand), never to the covered cards.
    place_js = (
        "(() => { const a = document.activeElement;"
        " return a.closest('#deal-summary') ? 'dialog' : a.closest('.topbar') ? 'bar' : 'elsewhere'; })()"
    )
    where = []
    for _ in range(12):
        page.keyboard.press("Tab")
        where.append(page.evaluate(place_js))
    assert "elsewhere" not in where and "bar" in where and where.count("dialog") >= 2, where
    bar_at = where.index("bar")
    assert where[bar_at:].index("dialog") > 0  # after the bar, round to the dialog again
    page.focus("#next-deal")
    assert focus_within(page, "#deal-summary")
    shot(page, "keyboard-02-deal-summary")
    page.keyboard.press("Enter")
    page.wait_for_selector("#deal-summary", state="detached")
    page.wait_for_function("document.activeElement.closest('#contract-dialog')")  # deal 2: the king chooses again
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "cmd scores"
    page.keyboard.press("Enter")
    page.wait_for_selector("#scores-drawer")
    assert focused(page) == "cmd close"
    # The drawer is drawn over the contract dialog it was opened from, not under it.
    box = page.locator("#scores-drawer table").bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert page.evaluate(f"!!document.elementFromPoint({x}, {y}).closest('#scores-drawer')")
    shot(page, "keyboard-03-scores-drawer")
    page.keyboard.press("Escape")
    page.wait_for_selector("#scores-drawer", state="detached")
    assert focused(page) == "cmd scores"
    assert not errors, errors
    page.context.close()


def test_the_table_speaks_to_a_screen_reader(browser: Browser, server: LiveServer) -> None:
    """Cards are named images or buttons, dialogs are named, and moves are announced in one live region
    (not by re-reading the whole page, which is redrawn on every update)."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="easy", start=True, seed=king_seed(0))
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    dialog = page.get_by_role("dialog", name="Choose the contract")
    dialog.wait_for()
    assert page.locator("main").get_attribute("aria-live") is None
    assert page.locator("#announce").get_attribute("aria-live") == "polite"
    hand = page.get_by_role("group", name="Your hand")
    first = hand_cards(page)[0]
    names = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    first_name = f"{names.get(first[0], first[0])} of {suits[first[1]]}"
    assert hand.get_by_role("img", name=first_name, exact=True).count() == 1
    assert page.get_by_role("img", name="13 cards").count() == 3  # the others' hands, face down
    dialog.get_by_role("button", name="Queens").click()
    page.wait_for_selector("[data-testid=hand] [data-play]")
    assert hand.get_by_role("button", name=first_name, exact=True).count() == 1  # now it can be played
    announced = page.locator("#announce")
    page.wait_for_function("document.querySelector('#announce').innerText.includes('Your turn')")
    assert "Contract: Queens" in announced.inner_text()
    page.locator("[data-testid=hand] [data-play]").first.click()
    # Each bot's card is announced with its player, and the cards on the table say whose they are.
    page.wait_for_function("/Samir \\(Easy\\): \\S+ of \\w+/.test(document.querySelector('#announce').innerText)")
    trick = page.get_by_role("group", name="Cards on the table")
    labels = trick.get_by_role("img").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert labels and all(re.fullmatch(r"(You|Samir|Rania|Karim)( \(Easy\))?: \S+ of \w+", x) for x in labels), labels
    assert not errors, errors
    page.context.close()


def test_the_front_page_and_arabic_for_a_screen_reader(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/?lang=en")
    page.wait_for_selector("#create-form")
    snap = page.locator("main").aria_snapshot()
    assert "K ♥" not in snap  # the decorative cards of the banner are not read out
    bots = page.get_by_role("group", name="Bots for empty seats")
    for name in ("Samir", "Rania", "Karim"):  # each bot's level has a name of its own
        assert bots.get_by_role("combobox", name=f"Bots for empty seats: {name}").count() == 1
    toggle = page.get_by_role("button", name="عربي", exact=True)  # named by what it shows, in its language
    assert toggle.get_attribute("lang") == "ar"
    t = server.create(name="لينا", bots="easy", start=True, seed=king_seed(0))
    page.goto(seat_url(server, t, "ar"))
    page.get_by_role("dialog", name="اختر اللعبة").wait_for()
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["ar", "rtl"]
    assert page.get_by_role("button", name="English", exact=True).get_attribute("lang") == "en"
    hand = page.get_by_role("group", name="أوراقك")
    labels = hand.get_by_role("img").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) == 13
    assert all(re.fullmatch(r"(آص|شيخ|بنت|شب|10|[2-9]) (البستوني|الكبة|الديناري|السباتي)", x) for x in labels), labels
    assert not errors, errors
    page.context.close()


def test_typing_a_name_in_the_lobby_survives_a_redraw(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    t = server.create(name="Lina", bots="easy", start=False)
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/t/{t['id']}?lang=en")
    page.wait_for_selector("#join-name")
    page.focus("#join-name")
    page.keyboard.type("Om")
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Zed", "seat": 3}, timeout=10)
    assert r.status_code == 200, r.text
    page.wait_for_selector("[data-lobby-seat='3'] >> text=Zed")  # the lobby was drawn again
    page.keyboard.type("ar")
    assert page.locator("#join-name").input_value() == "Omar"
    assert not errors, errors
    page.context.close()


def test_the_replay_viewer_by_keyboard(browser: Browser, server: LiveServer, tmp_path: Path) -> None:
    m = Match(Rules.preset("classic", kingdoms=1), seed=3)
    rng = random.Random(1)
    while not m.is_over:  # random play, in a millisecond
        actions = m.legal_actions()
        if actions:
            m.apply(rng.choice(actions))
        else:
            m.start_deal()
    path = tmp_path / "record.json"
    path.write_text(Record.from_match(m, players=["Lina", "bot:easy", "bot:easy", "bot:easy"]).dumps())
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/replay?lang=en")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "pbn/2"}')
    page.set_input_files("#record-file", str(bad))  # refused: said on the page, which stays
    page.wait_for_selector("text=That file cannot be shown: 'format' must be")
    page.wait_for_timeout(4000)  # longer than a toast stays
    assert page.locator("text=That file cannot be shown").is_visible()
    # A record that breaks the rules: where, counted as the viewer counts, in the page's language.
    revoke = Path(opentrix.__file__).parent / "examples" / "classic-invalid-revoke.json"
    page.set_input_files("#record-file", str(revoke))
    page.wait_for_selector("text=That file cannot be shown: deal 1, play 6: seat 1 must follow suit ♦")
    page.set_input_files("#record-file", str(path))  # the upload is still there: another file
    forward = page.get_by_role("button", name="Forward one card")  # not "▶"
    forward.wait_for()
    for name in ("Previous deal", "Start of deal", "Back one card", "End of deal", "Next deal"):
        assert page.get_by_role("button", name=name, exact=True).count() == 1
    for _ in range(12):
        if focused(page) == "#replay-next":
            break
        page.keyboard.press("Tab")
    for _ in range(3):
        page.keyboard.press("Enter")
    assert "Play 3 of" in page.locator("[data-testid=replay-pos]").inner_text()
    assert focused(page) == "#replay-next"  # the redrawn viewer keeps the focus on the button
    assert re.search(r"Deal 1 of \d+ · \w.* · Play 3 of \d+ — .+: ", page.locator("#announce").inner_text())
    page.goto(f"{server.base}/replay?lang=ar")
    page.set_input_files("#record-file", str(revoke))
    page.wait_for_selector("text=لا يمكن عرض هذا الملف: التوزيعة 1، الورقة 6: seat 1 must follow suit ♦")
    errors[:] = [e for e in errors if "400 (Bad Request)" not in e]  # the browser's own line for a refusal
    assert not errors, errors
    page.context.close()


# The brightest felt under text: the middle of the radial gradient, with its dotted grain (screenshot).
FELT_BRIGHTEST = (41, 145, 88)
CARD_FACE = (244, 241, 232)  # the darker end of a card's face

COLOURS_JS = """async () => {
  const { renderBoard } = await import("/static/js/board.js");
  const seat = (name, extra) => ({
    name, isKing: false, isTurn: false, status: "", handCount: 13, taken: [], doubled: [], outPlace: 0, ...extra,
  });
  const scene = {
    me: 0, contract: "trix", layouts: [null, ["9H", "QH"], null, null], trick: [], myTurn: true,
    prompt: "Your turn", centerNote: "Samir takes the trick",
    seats: [
      seat("You", { hand: ["QS", "9H", "JD", "2C"], legal: new Set(["JD"]) }),
      seat("Samir", { status: "disconnected" }), seat("Rania", {}), seat("Karim", {}),
    ],
  };
  document.querySelector("#app").innerHTML = `<div class="table-wrap">${renderBoard(scene)}</div>`;
  const layers = (el) => {  // background colours from the element up to the felt
    const out = [];
    for (let e = el; e && !e.classList.contains("board"); e = e.parentElement) {
      out.push(getComputedStyle(e).backgroundColor);
    }
    return out;
  };
  const of = (sel) => {
    const el = document.querySelector(sel);
    return { color: getComputedStyle(el).color, layers: layers(el) };
  };
  const dim = document.querySelector(".card.dim.red");
  return {
    text: { note: of(".center-note"), status: of(".seat-right .status"), prompt: of(".seat-bottom .prompt") },
    empty: { black: of(".layout .empty:not(.red)"), red: of(".layout .empty.red") },
    dim: { filter: getComputedStyle(dim).filter, red: getComputedStyle(dim).color },
  };
}"""


def rgba(css: str) -> tuple[float, float, float, float]:
    nums = [float(x) for x in re.findall(r"[\d.]+", css)]
    return (nums[0], nums[1], nums[2], nums[3] if len(nums) > 3 else 1.0)


def luminance(rgb: tuple[float, ...]) -> float:
    lin = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def over(top: tuple[float, float, float, float], below: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(top[i] * top[3] + below[i] * (1 - top[3]) for i in range(3))


def on_felt(found: dict[str, Any]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(text colour, background) of an element drawn on the felt, at its brightest."""
    bg: tuple[float, ...] = FELT_BRIGHTEST
    for layer in reversed(found["layers"]):
        bg = over(rgba(layer), bg)
    return over(rgba(found["color"]), bg), bg


def filtered(rgb: tuple[float, ...], css_filter: str) -> tuple[float, ...]:
    """``rgb`` through a CSS ``brightness() saturate()`` filter (the W3C filter-effects matrices)."""
    out = list(rgb[:3])
    for name, value in re.findall(r"(brightness|saturate)\(([\d.]+)\)", css_filter):
        v = float(value)
        if name == "brightness":
            out = [c * v for c in out]
        else:
            r, g, b = out
            out = [
                (0.213 + 0.787 * v) * r + (0.715 - 0.715 * v) * g + (0.072 - 0.072 * v) * b,
                (0.213 - 0.213 * v) * r + (0.715 + 0.285 * v) * g + (0.072 - 0.072 * v) * b,
                (0.213 - 0.213 * v) * r + (0.715 - 0.715 * v) * g + (0.072 + 0.928 * v) * b,
            ]
        out = [min(255.0, max(0.0, c)) for c in out]
    return tuple(out)


def test_text_on_the_felt_and_dimmed_cards_are_legible(browser: Browser, server: LiveServer) -> None:
    """WCAG contrast, from the page's own CSS: 4.5:1 for text on the felt (where the felt is brightest)
    and for the rank of a dimmed card, 3:1 for the suit marks of empty Trix layouts."""
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/?lang=en")
    page.wait_for_selector("#create-form")
    found = page.evaluate(COLOURS_JS)
    ratios = {name: contrast(*on_felt(f)) for name, f in found["text"].items()}
    assert all(r >= 4.5 for r in ratios.values()), ratios
    marks = {name: contrast(*on_felt(f)) for name, f in found["empty"].items()}
    assert all(r >= 3 for r in marks.values()), marks
    dim = found["dim"]
    face, rank = filtered(CARD_FACE, dim["filter"]), filtered(rgba(dim["red"]), dim["filter"])
    assert contrast(face, rank) >= 4.5, (dim, face, rank)
    assert contrast(face, CARD_FACE) >= 2  # and still plainly dimmed beside a playable card
    assert not errors, errors
    page.context.close()


def test_a_partnership_match_ends_with_team_standings_kept_after_the_table_is_put_away(
    browser: Browser, server: LiveServer
) -> None:
    t = server.create(name="Lina", bots="random", start=True, seed=5, kingdoms=1, partnership=True)
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    # Watching from before the end: a finished table nobody has open is put away at the server's next
    # sweep, which on a slow machine could fall between the last card and the page's arrival.
    page.goto(f"{server.base}/t/{t['id']}?lang=en")
    page.locator("[data-testid=board]").wait_for()
    finish_match(server, t)
    dialog = page.locator("#match-over")
    dialog.wait_for()
    rows = dialog.locator("#standings tbody tr")
    assert rows.count() == 2 and "Team" in rows.nth(0).inner_text()  # the teams, as the match is decided
    # The whole score sheet stays open when the table is redrawn (it snapped shut on the next redraw).
    dialog.locator("summary").click()
    old = page.locator("#all-scores").element_handle()
    page.evaluate("window.dispatchEvent(new Event('langchange'))")  # a redraw, as any update makes
    assert not old.evaluate("d => d.isConnected")  # the dialog was drawn anew…
    assert page.locator("#all-scores").evaluate("d => d.open")  # …with the sheet still open
    # The top bar stays above the standings' shade: its language switch works with the dialog open.
    page.click("#lang-toggle")
    assert page.locator("#match-over-title").inner_text() == "انتهت المباراة"
    box = page.locator("#match-over").bounding_box()
    bar = page.locator(".topbar").bounding_box()
    assert box and bar and box["y"] >= bar["y"] + bar["height"]  # the dialog starts below the bar
    page.click("#lang-toggle")
    assert page.locator("#match-over-title").inner_text() == "Match over"

    page.goto("about:blank")
    server.put_away(t["id"])  # nobody there any more: the finished table is put away
    stored = httpx.get(f"{server.base}/api/tables/{t['id']}", timeout=10).json()
    assert stored["stored"] is True and stored["match_over"] is True and len(stored["winners"]) in (2, 4)
    assert stored["team_totals"] == [
        stored["totals"][0] + stored["totals"][2],
        stored["totals"][1] + stored["totals"][3],
    ]
    page.goto(f"{server.base}/t/{t['id']}?lang=en")
    panel = page.locator("[data-testid=finished]")
    panel.wait_for()
    text = panel.inner_text()
    assert "won" in text and "Team Lina &" in text
    best = max(stored["team_totals"])
    assert str(best) in panel.locator("#standings tbody tr").nth(0).inner_text()
    shot(page, "finished-01-put-away")
    # The history lists the team totals, which decided the match, and the replay ends on the teams.
    page.goto(f"{server.base}/history?lang=en")
    teams = page.locator(f"tr[data-match='{t['id']}'] .team-totals")
    teams.wait_for()
    assert "Team Lina & " in teams.inner_text() and str(stored["team_totals"][1]) in teams.inner_text()
    page.goto(f"{server.base}/replay/{t['id']}?lang=en")
    page.wait_for_selector("[data-testid=replay-controls]")
    deals = len(httpx.get(f"{server.base}/api/tables/{t['id']}/replay", timeout=10).json()["deals"])
    for _ in range(deals):
        page.click("#replay-nextdeal")
    page.click("[data-cmd=end]")
    rows = page.locator("[data-testid=replay-result] #standings tbody tr")
    assert rows.count() == 2 and str(best) in rows.nth(0).inner_text() and "Team" in rows.nth(0).inner_text()
    assert not errors, errors
    page.context.close()


def test_a_player_without_a_name_is_player_and_a_bad_code_is_no_table(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/?lang=en")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.fill("#name", "")
    page.click("[data-start='1']")
    page.wait_for_selector("[data-testid=board]")
    code = page.evaluate("location.pathname").split("/")[-1]
    seats = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()["seats"]
    assert seats[0]["name"] == "Player"  # "You" read as themselves to everyone else
    page.goto(f"{server.base}/t/%3Cscript%3E?lang=en")
    page.wait_for_selector("text=no table '<script>'")
    assert "<script>" not in page.inner_html("#app")  # shown as text, never as markup
    assert not errors, errors
    page.context.close()


def test_a_phone_held_sideways_shows_the_hand_without_scrolling(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    landscape = {"viewport": {"width": 740, "height": 375}, "is_mobile": True, "has_touch": True}
    page = new_page(browser, landscape, errors)
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(1))
    page.goto(seat_url(server, t))
    page.wait_for_selector("[data-testid=hand] .card")
    # measured in one step: the hand drawn again between a lookup and a measure has no box (seen under load)
    hand = page.wait_for_function(
        "() => { const r = document.querySelector('[data-testid=hand]')?.getBoundingClientRect();"
        " return r && r.height > 0 ? { y: r.y, height: r.height } : null; }"
    ).json_value()
    assert hand["y"] + hand["height"] <= 375, hand
    assert page.evaluate("document.documentElement.scrollHeight") <= 375 + 1
    shot(page, "landscape-01-table")
    assert not errors, errors
    page.context.close()


def test_a_move_made_while_the_connection_is_down_is_refused_aloud(browser: Browser, server: LiveServer) -> None:
    """A click while the socket is closed used to vanish without a word; now it says it was not sent, and
    play goes on once the table reconnects."""
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    line = Line(page)
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(1))
    page.goto(seat_url(server, t))
    legal = page.locator("[data-testid=hand] .card.legal")
    play_until(page, lambda: legal.count() > 0 and not page.locator(".floating-dialog").count())
    before = hand_cards(page)
    line.cut()
    page.wait_for_selector("text=Connection lost")
    legal.first.click()
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert toast.inner_text() == "Not connected, so your move was not sent. Reconnecting…"
    assert hand_cards(page) == before
    line.mend()
    page.wait_for_selector("text=Connection lost", state="detached", timeout=15_000)
    play_until(page, lambda: len(hand_cards(page)) < len(before))
    assert not [e for e in errors if "WebSocket" not in e], errors
    page.context.close()


def test_the_move_timer_shows_its_seconds(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0), timer=30)
    page.goto(seat_url(server, t))
    page.wait_for_selector("#contract-dialog")  # the king's choice is timed too
    secs = page.locator("[data-timer-secs='0']")
    page.wait_for_function("(document.querySelector('[data-timer-secs=\"0\"]') || {}).textContent")
    seconds = int(secs.inner_text().removesuffix(" s"))
    assert 20 < seconds <= 30
    assert not errors, errors
    page.context.close()


def test_the_pages_keep_to_the_content_security_policy(browser: Browser, server: LiveServer) -> None:
    """The policy allows this server's scripts and styles and sockets back to it, nothing inline but
    style attributes: every page of the app, played a little, must not trip it."""
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors, csp=True)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{server.base}/?lang=en&seed={king_seed(0)}")
    page.fill("#name", "Lina")
    page.click("#play-bots")
    page.wait_for_selector("#contract-dialog")
    page.click("#contract-dialog [data-action='contract queens']")
    page.wait_for_selector("[data-testid=hand] .card.legal")
    page.click("[data-cmd=scores]")
    page.wait_for_selector("#scores-drawer")
    for path in ("/history", "/replay"):
        page.goto(f"{server.base}{path}?lang=en")
        page.wait_for_selector(".panel")
    assert page.evaluate("document.querySelector('.panel') !== null")
    assert not refused, refused
    assert not errors, errors
    page.context.close()


def finished_by_friends(server: LiveServer, seed: int) -> tuple[dict[str, Any], dict[int, str]]:
    """A one-kingdom match Lina (seat 0) and Omar (seat 1) played to its end; the table and their tokens."""
    t = server.create(name="Lina", bots="random", rules="online", kingdoms=1, seed=seed)
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10)
    tokens = {0: t["token"], 1: r.json()["token"]}

    async def finish() -> None:
        players = [await Player.join(server.ws_base, t["id"], tokens[s]) for s in (0, 1)]
        httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": tokens[0]}, timeout=10)
        await asyncio.gather(*(p.play_to_end(random.Random(s)) for s, p in enumerate(players)))
        for p in players:
            await p.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, finish()).result(timeout=120)
    return t, tokens


def test_friends_play_again_with_the_rematch_button(browser: Browser, server: LiveServer) -> None:
    t, tokens = finished_by_friends(server, 6)
    errors: list[str] = []
    lina, omar, watcher = (new_page(browser, d, errors) for d in (DESKTOP, PHONE, DESKTOP))
    lina.goto(f"{server.base}/t/{t['id']}?lang=en#seat=0&token={tokens[0]}")
    omar.goto(f"{server.base}/t/{t['id']}?lang=en#seat=1&token={tokens[1]}")
    watcher.goto(f"{server.base}/t/{t['id']}?lang=en")
    for page in (lina, omar):
        page.locator("#match-over #rematch").wait_for()
    watcher.locator("#match-over").wait_for()  # its page may come up after the players'
    assert watcher.locator("#match-over").count() == 1 and watcher.locator("#rematch").count() == 0
    # The standings cover the table's Chat button, so the chat is in them: "well played" is said there.
    lina.click("#dialog-chat summary")
    lina.wait_for_function("document.activeElement.id === 'chat-input'")  # once the toggle event came
    lina.keyboard.type("Well played, Omar")
    lina.keyboard.press("Enter")
    omar.locator("#dialog-chat summary", has_text="Chat (1 new)").wait_for()
    omar.click("#dialog-chat summary")
    assert omar.locator("#dialog-chat [data-testid=chat-log] li").text_content() == "Lina: Well played, Omar"
    assert omar.locator("#dialog-chat summary").inner_text() == "Chat"
    shot(omar, "chat-05-standings-on-a-phone")
    omar.click("#dialog-chat [data-cmd=mute]")  # he has heard enough from her for one night
    assert omar.locator("#dialog-chat [data-testid=chat-log]").count() == 0
    watcher.click("#dialog-chat summary")
    assert watcher.locator("#dialog-chat [data-testid=chat-log] li").text_content() == "Lina: Well played, Omar"
    assert watcher.locator("#dialog-chat #chat-input").count() == 0
    # Omar asks: he goes straight to the new table's lobby, where he is the host.
    omar.click("#rematch")
    omar.wait_for_selector("[data-testid=lobby]")
    code = omar.url.split("/t/")[1].split("?")[0].split("#")[0]
    assert code != t["id"] and omar.locator("#start-match").count() == 1
    shot(omar, "rematch-01-lobby")
    # Lina is told who asked, and her seat there is waiting for her; the spectator may watch.
    asked = lina.wait_for_selector("[data-testid=rematch-asked]").inner_text()
    assert asked == "\u2068Omar\u2069 asked for a rematch."  # the name isolated: right-to-left text stays in order
    shot(lina, "rematch-02-asked")
    lina.click("#rematch-join")
    lina.wait_for_selector("[data-testid=lobby]")
    assert lina.locator("[data-lobby-seat='0'] .who").inner_text() == "Lina"
    assert "you" in lina.locator("[data-lobby-seat='0']").inner_text()
    lina.fill("#chat-input", "Again!")  # the rematch's chat is new; Omar's choice to hide her is not
    lina.press("#chat-input", "Enter")
    lina.locator("[data-testid=lobby-chat] [data-testid=chat-log] li").wait_for()
    omar.locator("[data-testid=lobby-chat] [data-cmd=mute]", has_text="Lina (hidden: 1)").wait_for()
    assert omar.locator("[data-testid=lobby-chat] [data-testid=chat-log]").count() == 0
    watcher.click("#rematch-watch")
    watcher.wait_for_selector("[data-testid=lobby]")
    assert watcher.locator("[data-cmd=take]").count() == 0  # bots keep their seats: none for a stranger
    assert "(Random)" in watcher.locator("[data-lobby-seat='2']").inner_text()
    omar.click("#start-match")
    for page in (lina, omar, watcher):
        page.wait_for_selector("[data-testid=board]")
    assert len(hand_cards(lina)) == len(hand_cards(omar)) == 13 and not hand_cards(watcher)
    # The old link, once its table is put away, still leads on: to her seat for Lina, to watch for others.
    server.put_away(t["id"])
    lina.goto(f"{server.base}/t/{t['id']}?lang=en")
    lina.locator("[data-testid=finished] #rematch-join").wait_for()
    watcher.goto(f"{server.base}/t/{t['id']}?lang=en")
    watcher.locator("[data-testid=finished] #rematch-watch").click()
    watcher.wait_for_selector("[data-testid=board]")
    assert not errors, errors
    for page in (lina, omar, watcher):
        page.context.close()


def test_a_player_away_at_the_rematch_finds_his_seat_from_the_finished_match(
    browser: Browser, server: LiveServer
) -> None:
    """Omar closed his page after the match; Lina asked for a rematch, and the finished table was put
    away before Omar came back, so the new table's token never reached him. His old link still leads
    him to his seat there."""
    t, tokens = finished_by_friends(server, 8)
    errors: list[str] = []
    lina = new_page(browser, DESKTOP, errors)
    lina.goto(f"{server.base}/t/{t['id']}?lang=en#seat=0&token={tokens[0]}")
    lina.click("#match-over #rematch")
    lina.wait_for_selector("[data-testid=lobby]")
    server.put_away(t["id"])
    omar = new_page(browser, PHONE, errors)
    omar.goto(f"{server.base}/t/{t['id']}?lang=en#seat=1&token={tokens[1]}")
    omar.locator("[data-testid=finished] #rematch-join").click()
    omar.wait_for_selector("[data-testid=lobby]")
    assert "you" in omar.locator("[data-lobby-seat='1']").inner_text()
    lina.wait_for_selector("[data-lobby-seat='1'] >> text=Omar")
    assert not errors, errors
    for page in (lina, omar):
        page.context.close()


def test_a_player_who_asked_for_a_rematch_goes_to_it_even_if_another_asked_first(
    browser: Browser, server: LiveServer
) -> None:
    """Lina and Omar press Rematch at the same moment and Omar's ask is the one that counts: Lina, who
    asked too, goes straight to the new table rather than being asked whether to join it."""
    t, tokens = finished_by_friends(server, 7)
    errors: list[str] = []
    lina, omar = new_page(browser, PHONE, errors), new_page(browser, DESKTOP, errors)

    def hold_the_rematch_ask(ws: Any) -> None:  # Lina's ask is "still on its way" when Omar's arrives
        to_server = ws.connect_to_server()
        ws.on_message(lambda m: None if '"rematch"' in str(m) else to_server.send(m))

    lina.route_web_socket(re.compile(r".*/ws/.*"), hold_the_rematch_ask)
    lina.goto(f"{server.base}/t/{t['id']}?lang=en#seat=0&token={tokens[0]}")
    omar.goto(f"{server.base}/t/{t['id']}?lang=en#seat=1&token={tokens[1]}")
    lina.click("#match-over #rematch")
    lina.wait_for_selector("text=Setting up the rematch…")
    omar.click("#match-over #rematch")
    omar.wait_for_selector("[data-testid=lobby]")
    lina.wait_for_selector("[data-testid=lobby]")
    assert lina.url.split("/t/")[1][:6] == omar.url.split("/t/")[1][:6] != t["id"]
    assert not errors, errors
    for page in (lina, omar):
        page.context.close()


def test_a_newcomer_reads_the_tables_rules_in_english_and_arabic(browser: Browser, server: LiveServer) -> None:
    """Someone who has never played can learn the table's rules from it: a Rules sheet with what each
    contract asks and its points (the contract in play marked), the options that change play, and the
    contract chip saying what the contract asks."""
    t = server.create(name="Lina", bots="random", start=True, seed=5, rules="denexa", timer=30)
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("[data-testid=board]")
    page.click("[data-cmd=rules]")
    sheet = page.locator("[data-testid=rules]")
    sheet.wait_for()
    text = " ".join(sheet.inner_text().split())
    assert "A match is 4 kingdoms." in text
    for line in (
        "King of Hearts: do not take the K♥: it costs 75",
        "Queens: each queen you take costs 25",
        "Diamonds: each ♦ you take costs 10",
        "Ltoosh: each trick you take costs 15",
        "First out scores 200, then 150, 100 and 50",
        "Each move has 30 seconds",
        "may double it",  # Denexa doubles
        "The first king is the player dealt the 7♥ in the first deal.",
        "he leads the first trick, and in Trix the first turn is his (a jack, or a pass if he has none)",
        "Play goes counter-clockwise: the next player is on your right.",
        "When a kingdom is over it passes against the direction of play",
        "If the holder takes his own doubled card, he pays double and whoever led that trick gains its value",
        "In Trix, a player with all four 2s, or with three 2s and the 3 of the suit whose 2 he lacks",
        "A redeal scores nothing",
        "The highest total after the last deal wins. If the lead is shared, the leaders share the win.",
    ):
        assert line in text, line
    for line in ("In King of Hearts, a player whose hearts", "stops as soon as", "partner"):  # not at this table
        assert line not in text, line
    assert page.locator("#rules-drawer [data-cmd=close]").evaluate("b => b === document.activeElement")
    shot(page, "rules-01-sheet")
    page.keyboard.press("Escape")
    sheet.wait_for(state="detached")
    play_until(page, lambda: page.locator("[data-testid=contract]").count() > 0)
    goal = page.locator(".chip.contract .goal").inner_text()
    assert "costs" in goal or "first out" in goal
    page.click("#lang-toggle")
    page.click("[data-cmd=rules]")
    sheet_ar = " ".join(page.locator("[data-testid=rules]").inner_text().split())
    assert "شيخ الكبة: لا تأكل شيخ الكبة: يكلّفك 75" in sheet_ar
    assert "دفع الضعف وربح قيمتها من بدأ تلك اللمّة" in sheet_ar and "إن تعادل المتصدرون تقاسموا الفوز." in sheet_ar
    shot(page, "rules-02-sheet-arabic")
    page.click("#lang-toggle")
    assert not errors, errors
    page.context.close()


def test_a_complex_table_with_a_king_of_hearts_tiebreak_explains_that_deal(
    browser: Browser, server: LiveServer
) -> None:
    """Classic with Complex ticked: a shared lead is settled by a King of Hearts deal, where the hearts-lead
    ban applies, so the sheet says so (it was left out with the King of Hearts contract)."""
    t = server.create(name="Lina", bots="random", start=True, seed=5, complex=True)
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("[data-testid=board]")
    page.click("[data-cmd=rules]")
    text = " ".join(page.locator("[data-testid=rules]").inner_text().split())
    assert "In King of Hearts nobody may lead a heart" in text and "one more King of Hearts deal decides" in text
    page.click("#rules-drawer [data-cmd=close]")
    page.locator("[data-testid=rules]").wait_for(state="detached")
    page.click("#lang-toggle")
    page.click("[data-cmd=rules]")
    sheet_ar = " ".join(page.locator("[data-testid=rules]").inner_text().split())
    assert "وفي التركس الدور الأول له" in sheet_ar and "اللاعب التالي على يمينك" in sheet_ar
    page.click("#lang-toggle")
    assert not errors, errors
    page.context.close()


def test_a_partnership_table_says_a_partner_gains_nothing_and_the_team_wins(
    browser: Browser, server: LiveServer
) -> None:
    """The doubling texts said "whoever else takes it pays twice, and the holder earns its value", which
    is wrong when the taker is the holder's partner; and the rules named one winner, not a team."""
    qs = int(Card.QS)
    seed = wikipedia_seed(lambda h: bool(h >> qs & 1))
    t = server.create(name="Lina", rules="online", partnership=True, bots="random", start=True, seed=seed)
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("#contract-dialog")
    page.click("[data-cmd=rules]")
    text = " ".join(page.locator("[data-testid=rules]").inner_text().split())
    for line in (
        "an opponent who takes it pays double and the holder gains its value; a partner who takes it pays double"
        " and nobody gains.",
        "If the holder takes his own doubled card, he pays its plain value and nobody gains.",
        "A trick contract stops as soon as its last penalty card is taken",
        "The team with the higher total after the last deal wins, both partners alike.",
        "If the two teams are level, a further kingdom decides, and another after it until one team leads.",
    ):
        assert line in text, line
    assert "whoever else takes it" not in text and "The highest total" not in text
    page.click("#rules-drawer [data-cmd=close]")
    page.locator("[data-testid=rules]").wait_for(state="detached")
    page.click("#lang-toggle")
    page.click("[data-cmd=rules]")
    sheet_ar = " ".join(page.locator("[data-testid=rules]").inner_text().split())
    assert "وإن أكلها شريكه دفع الضعف ولا يربح أحد." in sheet_ar
    assert "يفوز الفريق صاحب المجموع الأعلى بعد آخر توزيعة" in sheet_ar
    assert "إن تعادل الفريقان حسمت الفوزَ مملكةٌ إضافية" in sheet_ar
    page.click("#rules-drawer [data-cmd=close]")
    page.locator("[data-testid=rules]").wait_for(state="detached")
    page.click("#lang-toggle")
    page.click("#contract-dialog [data-action='contract queens']")
    sub = page.locator("#double-dialog-sub")
    sub.wait_for()
    assert sub.inner_text() == (
        "Doubling shows the card to everyone: if an opponent takes it, he pays double and you gain its value;"
        " if your partner takes it, he pays double and nobody gains."
    )
    assert not errors, errors
    page.context.close()


def test_the_lobby_says_the_tables_rules_and_enter_takes_a_seat(browser: Browser, server: LiveServer) -> None:
    t = server.create(name="Lina", bots="easy", rules="denexa", timer=20, kingdoms=1)
    errors: list[str] = []
    friend = new_page(browser, DESKTOP, errors)
    friend.goto(f"{server.base}/t/{t['id']}?lang=en")
    line = friend.locator("[data-testid=lobby-rules]")
    line.wait_for()
    assert "Rules: Denexa · doubling · one kingdom · 20 s a move" in line.inner_text()
    seat = friend.locator("[data-lobby-seat='1'] .seat-where")
    assert seat.inner_text() == "Seat 2"  # no partners at this table
    lobby = friend.locator("[data-testid=lobby]").inner_text()
    assert "The table's invite link:" in lobby and "Send this link" not in lobby  # the host's words are his
    friend.click("[data-cmd=rules-lobby]")
    assert "A match is one kingdom, with one king" in friend.locator("[data-testid=rules]").inner_text()
    assert friend.locator("#rules-drawer [data-cmd=close]").evaluate("b => b === document.activeElement")
    friend.keyboard.press("Escape")  # closed, and focus back on the button that opened it
    friend.locator("[data-testid=rules]").wait_for(state="detached")
    assert friend.locator("[data-cmd=rules-lobby]").evaluate("b => b === document.activeElement")
    friend.fill("#join-name", "Omar")
    friend.press("#join-name", "Enter")  # as a form: the first open seat
    friend.wait_for_selector("#join-name", state="detached")
    lobby = friend.locator("[data-testid=lobby]").inner_text()
    assert "The table's invite link:" in lobby and "Send this link" not in lobby  # a guest, not the host
    assert server.info(t["id"])["seats"][1]["name"] == "Omar"
    assert not errors, errors
    friend.context.close()
    # at a partnership table each seat says whom it plays with
    t = server.create(name="Lina", bots="easy", kingdoms=1, partnership=True)
    friend = new_page(browser, DESKTOP, errors)
    friend.goto(f"{server.base}/t/{t['id']}?lang=en")
    where = friend.locator(".seat-where")
    where.first.wait_for()
    assert where.all_inner_texts() == [f"Seat {s + 1} · partners with seat {(s + 2) % 4 + 1}" for s in range(4)]
    assert not errors, errors
    friend.context.close()


def test_the_last_trick_drawer_shows_it_and_trix_has_no_such_button(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0))
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("#contract-dialog")
    assert page.locator("[data-cmd=last]").count() == 1  # before the contract: offered (no trick yet)
    page.click("#contract-dialog [data-action='contract ltoosh']")
    play_until(page, lambda: len(hand_cards(page)) <= 11, contract="ltoosh")
    page.click("[data-cmd=last]")
    drawer = page.locator("#last-trick")
    drawer.wait_for()
    assert drawer.locator(".card").count() == 4 and "takes the trick" in drawer.inner_text()
    # a bot's name fits its column: the level, which cut it short, is in the title
    labels = drawer.locator(".last-trick small")
    bots = [i for i in range(4) if "(" in (labels.nth(i).get_attribute("title") or "")]
    assert len(bots) == 3, [labels.nth(i).get_attribute("title") for i in range(4)]
    for i in bots:
        assert "(" not in labels.nth(i).inner_text()
        assert labels.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth"), labels.nth(i).inner_text()
    page.keyboard.press("Escape")
    drawer.wait_for(state="detached")
    page.context.close()
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0))
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.click("#contract-dialog [data-action='contract trix']")
    page.wait_for_selector("[data-testid=contract]")
    assert page.locator("[data-cmd=last]").count() == 0  # Trix has no tricks to show
    assert not errors, errors
    page.context.close()


def test_the_front_page_says_what_each_preset_plays(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/?lang=en")
    note = page.locator("[data-testid=preset-note]")
    page.select_option("#rules", "classic")
    assert "No doubling" in note.inner_text()
    page.select_option("#rules", "denexa")
    assert "the kingdom passes against the direction of play" in note.inner_text()
    complex_box = page.locator("#complex")
    assert "only to a tiebreak deal" not in note.inner_text()
    complex_box.check()  # the Complex contract added to the denexa preset: its King of Hearts rules are a tie's
    assert "With Complex, each kingdom is Complex and Trix" in note.inner_text()
    page.select_option("#rules", "complex")
    assert "Two contracts a kingdom" in note.inner_text() and "With Complex" not in note.inner_text()
    assert complex_box.is_checked() and complex_box.is_disabled()  # part of this preset, not a choice
    page.select_option("#rules", "classic")
    assert complex_box.is_checked() and not complex_box.is_disabled()  # the choice made for the others
    assert "With Complex" in note.inner_text()  # still ticked for classic
    complex_box.uncheck()
    assert "With Complex" not in note.inner_text()
    page.select_option("#rules", "complex")
    page.select_option("#rules", "classic")
    assert not complex_box.is_checked()
    page.select_option("#rules", "complex")
    assert page.locator("#doubling option").all_inner_texts() == ["as the preset says", "on", "off"]
    # named for players: the rule set, not "Encyclopedia" (the wikipedia preset)
    names = ["Classic", "Common (Wikipedia)", "Denexa", "Online apps", "Trix Complex"]
    assert page.locator("#rules option").all_inner_texts() == names
    page.click("#lang-toggle")  # drawn again in Arabic, the choices kept
    assert "لعبتان في كل مملكة" in page.locator("[data-testid=preset-note]").inner_text()
    assert page.locator("#rules").input_value() == "complex"
    arabic = ["كلاسيكي", "الشائعة (ويكيبيديا)", "دينكسا", "التطبيقات", "تركس كومبلكس"]
    assert page.locator("#rules option").all_inner_texts() == arabic
    page.click("#lang-toggle")
    # the same name in a lobby's rules line and in the history
    t = server.create(name="Lina", bots="easy", rules="wikipedia", kingdoms=1)
    page.goto(f"{server.base}/t/{t['id']}?lang=en")
    line = page.locator("[data-testid=lobby-rules]")
    line.wait_for()
    assert "Rules: Common (Wikipedia) · doubling · one kingdom" in line.inner_text()
    page.goto(f"{server.base}/t/{t['id']}?lang=ar")
    assert "الشائعة (ويكيبيديا)" in page.locator("[data-testid=lobby-rules]").inner_text()
    page.goto(f"{server.base}/?lang=en")
    t = server.create(name="Lina", bots="random", start=True, seed=5, kingdoms=1, rules="wikipedia")
    finish_match(server, t)
    page.goto(f"{server.base}/history?lang=en")
    row = page.locator(f"tr[data-match='{t['id']}']")
    row.wait_for()
    assert "Common (Wikipedia)" in row.inner_text() and "Encyclopedia" not in page.locator("main").inner_text()
    assert not errors, errors
    page.context.close()


def test_the_invite_link_names_the_address_friends_can_reach(browser: Browser, server: LiveServer) -> None:
    """A host who opened the page on 127.0.0.1 (what ``opentrix serve --host 0.0.0.0`` prints for this
    machine) must not send friends a 127.0.0.1 link: the server tells the page its network address."""
    assert server.base.startswith("http://127.0.0.1:")
    server.app.state.invite = {"base": "http://192.0.2.7:8765", "always": False}
    errors: list[str] = []
    host = new_page(browser, DESKTOP, errors)
    try:
        host.goto(f"{server.base}/?lang=en")
        host.fill("#name", "Lina")
        host.click("#create-invite")
        host.wait_for_selector("[data-testid=lobby]")
        host.wait_for_function(
            "document.querySelector('#invite-link').textContent.startsWith('http://192.0.2.7:8765/t/')"
        )
        assert host.locator("[data-testid=local-link]").count() == 0  # friends can reach this one
        assert not errors, errors
    finally:
        server.app.state.invite = None
        host.context.close()


def test_a_hand_that_cannot_claim_a_redeal_does_not_answer_at_once(browser: Browser, server: LiveServer) -> None:
    """Every seat is asked about a redeal in King of Hearts; the page answers for a hand that cannot
    claim, but after a pause like a short thought: an instant answer would tell the table which hands
    could (a bare K♥ or A♥), since those take a moment to decide."""
    errors: list[str] = []
    seed = wikipedia_seed(lambda h: not can_claim_redeal(h, Contract.KING_OF_HEARTS))
    t = server.create(name="Lina", rules="wikipedia", bots="random", start=True, seed=seed)
    table = server.app.state.hub.get(t["id"])
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.click("#contract-dialog [data-action='contract king_of_hearts']")
    chosen = time.monotonic()
    while table.match.phase in (Phase.CHOOSE_CONTRACT, Phase.CLAIM):  # the bots (no pacing here) answer at once
        assert time.monotonic() - chosen < 10, "the page never answered"
        time.sleep(0.02)
    assert time.monotonic() - chosen >= 1.1
    assert page.locator("#claim-dialog").count() == 0  # nothing to decide: no dialog
    assert not errors, errors
    page.context.close()


def test_a_phone_holds_the_hand_in_two_rows_of_cards_wide_enough_to_tap(browser: Browser, server: LiveServer) -> None:
    """Thirteen cards in one row of a 390-pixel screen left a 24-pixel strip of each: two rows now, each
    card showing at least 44 pixels across; Trix says what to do, and Last trick waits for a trick."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0))
    page = new_page(browser, PHONE, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("#contract-dialog")
    rows = page.locator("[data-testid=hand] .hand-row").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('.card')].map(c => c.getBoundingClientRect().left))"
    )
    assert [len(r) for r in rows] == [7, 6]
    for lefts in rows:
        steps = [abs(b - a) for a, b in itertools.pairwise(lefts)]
        assert min(steps) >= 44, steps  # what shows of each card before the next covers it
    page.click("#contract-dialog [data-action='contract queens']")
    page.wait_for_selector("[data-testid=board] .statusbar, .statusbar")
    assert page.locator(".statusbar [data-cmd=last]").is_disabled()  # no trick taken yet
    assert not errors, errors
    page.context.close()


def test_arabic_counts_take_their_plural_forms_and_scores_keep_their_sign_on_the_left(
    browser: Browser, server: LiveServer
) -> None:
    errors: list[str] = []
    page = new_page(browser, PHONE, errors)
    page.goto(f"{server.base}/?lang=ar")
    page.wait_for_selector("#play-bots")
    forms = page.evaluate(
        """async () => { const { t } = await import("/static/js/i18n.js");
        return [1, 2, 3, 11].map((n) => t("table.cardsleft", { n }))
          .concat([2, 5].map((n) => t("table.tricks", { n }))); }"""
    )
    assert forms == ["ورقة واحدة", "ورقتان", "3 أوراق", "11 ورقة", "لمّتان", "5 لمّات"]
    finished, _ = finished_by_friends(server, 9)
    page.goto(f"{server.base}/t/{finished['id']}?lang=ar")
    page.wait_for_selector("#standings")
    cells = page.locator("#standings td.neg bdi, #standings td.pos bdi")
    assert cells.count() >= 1 and cells.first.get_attribute("dir") == "ltr"  # −25, not 25−
    assert not errors, errors
    page.context.close()


# The centre of every playable card, and whether a tap there reaches that card.
PLAYABLE_HITS_JS = """() => [...document.querySelectorAll('[data-testid=hand] [data-play]')].map((c) => {
  const r = c.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return [c.dataset.play, !!hit && hit.closest('[data-play]') === c];
})"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def boxes(page: Page, *selectors: str) -> list[dict[str, float]]:
    """Boxes measured in one step (the table redraws between two lookups), waited for until all are there."""
    found = page.wait_for_function(
        """(sels) => { const out = sels.map((s) => { const e = document.querySelector(s);
          if (!e) return null; const r = e.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height }; });
          return out.every((b) => b && b.height > 0) ? out : null; }""",
        arg=list(selectors),
    ).json_value()
    return list(found)


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_side_panels_leave_the_hand_and_the_trick_in_view(
    browser: Browser, server: LiveServer, device: str
) -> None:
    """Scores, Last trick and Rules open beside the trick on a wide screen and at the top of the felt on a
    phone: never over the hand, whose every playable card can still be tapped. A tap outside puts a panel
    away; on a phone, where it covers the trick, so does the player's turn coming round."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0))
    page = new_page(browser, DESKTOP if device == "desktop" else PHONE, errors)
    page.goto(seat_url(server, t))
    page.click("#contract-dialog [data-action='contract queens']")

    def my_turn_after_a_trick() -> bool:
        return (
            len(hand_cards(page)) <= 11
            and page.locator("[data-testid=hand] [data-play]").count() > 0
            and page.locator("[data-cmd=last]:not([disabled])").count() > 0
        )

    play_until(page, my_turn_after_a_trick)
    page.wait_for_timeout(1200)  # the trick just taken lingers, then the one in play shows
    for cmd, drawer in (("scores", "#scores-drawer"), ("last", "#last-trick"), ("rules", "#rules-drawer")):
        page.click(f"[data-cmd={cmd}]")
        page.wait_for_selector(drawer)
        hits = page.evaluate(PLAYABLE_HITS_JS)
        assert hits and all(ok for _, ok in hits), (cmd, hits)
        box, hand, trick = boxes(page, drawer, "[data-testid=hand]", "[data-testid=trick]")
        assert not overlaps(box, hand), (cmd, box, hand)
        if device == "desktop":
            assert not overlaps(box, trick), (cmd, box, trick)  # in the felt's empty side
        else:
            width = page.viewport_size["width"] if page.viewport_size else 0
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
        if cmd == "last":  # one row of four cards: sized to it, not to most of the screen
            assert box["height"] <= 260, box
        shot(page, f"drawers-{device}-{cmd}")
        page.click(f"[data-cmd={cmd}]")  # the same button closes it
        page.wait_for_selector(drawer, state="detached")
    # A tap outside the panel, on the felt, puts it away.
    page.click("[data-cmd=scores]")
    page.wait_for_selector("#scores-drawer")
    page.locator(".seat-bottom .badge").click()
    page.wait_for_selector("#scores-drawer", state="detached")
    # Opened while it is the player's turn it stays; once the turn comes round again (the card played
    # from the keyboard, no tap outside), a phone puts away the rules sheet, which reaches down over the
    # trick, and a wide screen keeps it beside the trick.
    page.click("[data-cmd=rules]")
    page.wait_for_selector("#rules-drawer")
    before = len(hand_cards(page))
    page.locator("[data-testid=hand] [data-play]").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=hand] .card').length < n"
        " && document.querySelector('[data-testid=hand] [data-play]')",
        arg=before,
    )
    assert page.locator("#rules-drawer").count() == (1 if device == "desktop" else 0)
    assert not errors, errors
    page.context.close()


def test_a_phone_gives_every_control_a_fingertip(browser: Browser, server: LiveServer) -> None:
    """On a phone every control is at least 44 pixels tall: the top bar's links and language button, the
    status bar's buttons, a panel's Close, the lobby's Take this seat and Copy link. The desktop keeps
    its slimmer top bar."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="easy", kingdoms=1)
    page = new_page(browser, PHONE, errors)
    page.goto(f"{server.base}/t/{t['id']}?lang=en")
    page.wait_for_selector("[data-cmd=take]")
    heights_js = (
        "els => els.filter(e => e.getClientRects().length)"
        ".map(e => [e.textContent.trim(), e.getBoundingClientRect().height])"
    )

    def too_small(selector: str) -> list[Any]:
        found = page.locator(selector).evaluate_all(heights_js)
        assert found, selector
        return [f for f in found if f[1] < 44]

    for selector in (".topbar nav a", "#lang-toggle", "[data-cmd=take]", "[data-cmd=copy]", "[data-cmd=rules-lobby]"):
        assert not too_small(selector), (selector, too_small(selector))
    page.context.close()
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(1))
    page = new_page(browser, PHONE, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("[data-cmd=scores]")
    page.click("[data-cmd=scores]")
    page.wait_for_selector("#scores-drawer")
    for selector in (".statusbar .bar-buttons .btn", "#scores-drawer [data-cmd=close]"):
        assert not too_small(selector), (selector, too_small(selector))
    page.context.close()
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/?lang=en")
    assert page.locator(".topbar nav a").first.evaluate("e => e.getBoundingClientRect().height") < 30
    assert not errors, errors
    page.context.close()


def test_a_phones_top_bar_keeps_all_its_links_on_the_screen(browser: Browser, server: LiveServer) -> None:
    """New table, History, Replay and the language switch, each on one line and within the screen, down
    to a 320-pixel phone in either language (the heart then stands for the name, which is still read)."""
    errors: list[str] = []
    for width in (320, 390):
        for lang in ("en", "ar"):
            page = new_page(browser, {**PHONE, "viewport": {"width": width, "height": 700}}, errors)
            page.goto(f"{server.base}/history?lang={lang}")
            page.locator(".topbar nav a[href='/replay']").wait_for()
            boxes = page.locator(".topbar nav a, #lang-toggle, .brand-suit").evaluate_all(
                "els => els.map(e => [e.textContent.trim(), e.getBoundingClientRect().toJSON()])"
            )
            assert len(boxes) == 5, boxes
            for text, box in boxes:
                assert box["left"] >= 0 and box["right"] <= width, (width, lang, text, box)
                assert box["height"] <= 44, (width, lang, text, box)  # one line: a wrapped link is taller
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert page.locator(".brand").get_attribute("href") == "/"
            assert page.locator(".brand-name").text_content() == "opentrix"  # for a screen reader
            page.context.close()
    assert not errors, errors


def test_the_front_page_leads_back_to_a_table_left_mid_match(browser: Browser, server: LiveServer) -> None:
    """The top bar's "New table" asks before it leaves a match in play (Stay, or Escape, keeps the
    player at the table); leaving, the front page then offers the way back to it (its seat token is kept
    in this browser), with the hand as it was."""
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/?lang=en&seed={king_seed(1)}")
    assert page.locator("[data-testid=resume]").count() == 0  # nothing to go back to yet
    page.fill("#name", "Lina")
    page.click("#play-bots")
    page.wait_for_selector("[data-testid=hand] .card")
    code = page.url.rsplit("/", 1)[1]
    hand = sorted(hand_cards(page))
    leave = page.locator("#leave-dialog")
    page.click(".topbar nav a[href='/']")
    leave.wait_for()
    assert "bot plays it while you are away" in leave.inner_text()
    assert page.evaluate("document.activeElement.closest('#leave-dialog') !== null")  # the question has the focus
    shot(page, "resume-00-leave-dialog")
    leave.locator("[data-cmd=stay]").click()
    assert leave.count() == 0 and page.url.endswith(f"/t/{code}") and sorted(hand_cards(page)) == hand
    page.click(".topbar nav a[href='/history']")
    leave.wait_for()
    page.keyboard.press("Escape")
    assert leave.count() == 0 and page.url.endswith(f"/t/{code}")
    page.go_back()  # the Back button (a phone's back gesture) asks too, and staying keeps the address
    leave.wait_for()
    assert page.url.endswith(f"/t/{code}")
    leave.locator("[data-cmd=stay]").click()
    assert leave.count() == 0 and sorted(hand_cards(page)) == hand
    page.click(".topbar nav a[href='/']")
    leave.locator("[data-cmd=leave]").click()
    back = page.locator("[data-testid=resume]")
    back.wait_for()
    assert code in page.locator("[data-testid=resume-panel]").inner_text()
    shot(page, "resume-01-front-page")
    back.click()
    page.wait_for_selector("[data-testid=hand] .card")
    assert page.url.endswith(f"/t/{code}")
    assert sorted(hand_cards(page)) == hand  # the same seat, its cards as they were
    assert page.locator(".banner.info").count() == 0  # seated, not watching
    page.click("#lang-toggle")  # and in Arabic
    page.click(".topbar nav a[href='/']")
    assert "تغادر هذه المباراة" in leave.inner_text()
    leave.locator("[data-cmd=leave]").click()
    page.locator("[data-testid=resume]").wait_for()
    assert "العودة إلى طاولتك" in page.locator("[data-testid=resume]").inner_text()
    page.click("#lang-toggle")
    # Once the match is over it is no longer offered, nor asked about again (so finished tables never
    # crowd out an older one still in play); its seat token stays for joining a rematch.
    key = f"opentrix:seat:{code}"
    token = page.evaluate("k => JSON.parse(localStorage.getItem(k)).token", key)
    finish_match(server, {"id": code, "token": token})
    page.reload()
    page.wait_for_function("k => JSON.parse(localStorage.getItem(k)).done === true", arg=key)
    assert page.locator("[data-testid=resume]").count() == 0
    assert page.evaluate("k => JSON.parse(localStorage.getItem(k)).token", key) == token
    page.goto(f"{server.base}/t/{code}")  # over: a link leaves it without asking
    page.locator("#match-over").wait_for()
    page.click("#match-over a[href='/']")
    page.wait_for_url(f"{server.base}/")
    assert leave.count() == 0
    assert not errors, errors
    page.context.close()


# Every card of the hand, and whether it lies whole inside the screen with a tap at its centre and in its
# top-left corner (where its rank is) reaching that card rather than a dialog over it.
HAND_IN_VIEW_JS = """() => [...document.querySelectorAll('[data-testid=hand] .card')].map((c) => {
  const r = c.getBoundingClientRect();
  const spots = [[r.x + r.width / 2, r.y + r.height / 2], [r.x + 5, r.y + 5],
    [r.x + r.width * 0.25, r.y + r.height * 0.15]];
  const reached = spots.every(([x, y]) => {
    const e = document.elementFromPoint(x, y); return !!e && e.closest('.card') === c; });
  const inside = r.x >= 0 && r.y >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
  return [c.dataset.card, reached && inside];
})"""

# A dialog that shows every answer without being scrolled, each answer whole on the screen and a
# fingertip tall.
DIALOG_WHOLE_JS = """(sel) => { const d = document.querySelector(sel);
  const answers = [...d.querySelectorAll('[data-action]')].map((b) => { const r = b.getBoundingClientRect();
    return r.height >= 44 && r.y >= 0 && r.bottom <= innerHeight && r.x >= 0 && r.right <= innerWidth; });
  return { scrolls: d.scrollHeight > d.clientHeight + 1, answers: answers.length, whole: answers.every(Boolean) }; }"""

SMALL_PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}


@pytest.mark.parametrize(("device", "lang"), [("small", "ar"), ("small", "en"), ("phone", "en"), ("phone", "ar")])
def test_the_contract_and_doubling_dialogs_leave_the_whole_hand_in_view(
    browser: Browser, server: LiveServer, device: str, lang: str
) -> None:
    """The king with three queens decides what to double looking at his hand: the contract dialog, and the
    doubling one with eight answers, sit on the felt above the hand, compact enough on a 360x640 phone to
    need no scrolling, and every card of the hand stays whole and in view."""
    errors: list[str] = []
    queens = [int(c) for c in (Card.QS, Card.QH, Card.QD, Card.QC)]
    seed = wikipedia_seed(lambda h: sum(h >> q & 1 for q in queens) == 3)
    t = server.create(name="Lina", rules="wikipedia", bots="random", start=True, seed=seed)
    page = new_page(browser, SMALL_PHONE if device == "small" else PHONE, errors)
    page.goto(seat_url(server, t, lang))
    page.wait_for_selector("#contract-dialog")
    page.wait_for_timeout(100)  # the web fonts settle
    hidden = [card for card, ok in page.evaluate(HAND_IN_VIEW_JS) if not ok]
    assert not hidden, hidden
    assert page.evaluate(DIALOG_WHOLE_JS, "#contract-dialog") == {"scrolls": False, "answers": 5, "whole": True}
    shot(page, f"dialogs-{device}-{lang}-01-contract")
    page.click("#contract-dialog [data-action='contract queens']")
    page.wait_for_selector("#double-dialog")
    page.wait_for_timeout(100)
    hidden = [card for card, ok in page.evaluate(HAND_IN_VIEW_JS) if not ok]
    assert not hidden, hidden
    assert page.evaluate(DIALOG_WHOLE_JS, "#double-dialog") == {"scrolls": False, "answers": 8, "whole": True}
    # the cards alone on a phone ("Q♠ + Q♥", under "Double?"), but the whole answer for a screen reader
    word = "Double" if lang == "en" else "دبّل"
    two = page.locator("#double-dialog [data-action='double QS QH']")
    assert two.locator("bdi").inner_text() == "Q♠ + Q♥"
    assert two.locator(".dbl-word").evaluate("e => e.getBoundingClientRect().width <= 1")  # out of sight
    assert page.get_by_role("button", name=f"{word} Q♠ + Q♥", exact=True).count() == 1
    shot(page, f"dialogs-{device}-{lang}-02-doubling")
    page.click("#double-dialog [data-action='double QS QH']")
    page.wait_for_selector("#double-dialog", state="detached")
    assert not errors, errors
    page.context.close()


def test_a_reload_on_a_touch_phone_does_not_show_a_card_as_picked(browser: Browser, server: LiveServer) -> None:
    """After a reload on his turn a player with a finger sees no focus ring on a card, nor a card raised
    above the others as if picked: the page leads only a keyboard user to the move."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(1))
    page = new_page(browser, PHONE, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("[data-testid=hand] [data-play]")
    page.reload()
    page.wait_for_selector("[data-testid=hand] [data-play]")
    page.wait_for_timeout(300)
    assert page.evaluate("!document.activeElement.closest('[data-testid=hand]')"), focused(page)
    # every playable card of a row raised alike (a focused one went 20 pixels up, the others 8)
    lifts = page.locator("[data-testid=hand] [data-play]").evaluate_all(
        "els => els.map(e => [e.parentElement.classList.contains('second'), getComputedStyle(e).transform])"
    )
    assert len({transform for _, transform in lifts}) == 1, lifts
    shot(page, "reload-touch-01-no-card-picked")
    # (a keyboard user is still led to the playable cards: test_a_deal_played_with_the_keyboard_alone)
    assert not errors, errors
    page.context.close()


def test_a_question_open_at_a_page_load_takes_the_focus(browser: Browser, server: LiveServer) -> None:
    """The king reloads while choosing: the contract question takes the focus (a screen reader reads it
    and Tab starts in it), though nobody has pressed a key yet; on a touch screen no answer is ringed."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0))
    for device in (DESKTOP, PHONE):
        page = new_page(browser, device, errors)
        page.goto(seat_url(server, t))
        page.wait_for_selector("[role=dialog] [data-action]")
        page.reload()
        page.wait_for_selector("[role=dialog] [data-action]")
        page.wait_for_function("document.activeElement && document.activeElement.closest('[role=dialog]')")
        assert page.evaluate("document.activeElement.matches('[role=dialog]')"), focused(page)  # the box itself
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('[role=dialog]')"), focused(page)
        page.context.close()
    assert not errors, errors


def test_the_table_counts_down_to_the_bot_that_stands_in_for_a_friend_who_left(
    browser: Browser, server: LiveServer
) -> None:
    """A friend's connection drops: the others read under his name when a bot takes his seat, counting
    down the server's grace period (60 s here), in English and in Arabic."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", seed=king_seed(1), kingdoms=1)
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar", "seat": 1}, timeout=10)
    assert r.status_code == 200, r.text
    host = new_page(browser, DESKTOP, errors)
    host.goto(seat_url(server, t))
    friend = new_page(browser, PHONE, errors)
    friend.goto(f"{server.base}/t/{t['id']}?lang=en#seat=1&token={r.json()['token']}")
    friend.wait_for_selector("[data-testid=lobby]")
    host.wait_for_selector("[data-lobby-seat='1'] >> text=Omar")
    host.click("#start-match")
    host.wait_for_selector("[data-testid=board]")
    friend.wait_for_selector("[data-testid=board]")
    assert host.locator("[data-testid=standin]").count() == 0  # he is here
    friend.context.close()
    countdown = host.locator(".seat-right [data-testid=standin]")
    countdown.wait_for()
    first = re.fullmatch(r"disconnected · a bot plays in (\d+) s", countdown.inner_text())
    assert first and 50 <= int(first[1]) <= 60, countdown.inner_text()
    # Omar (seat 1) is the king: the status bar says his choice waits, and for how long
    host.wait_for_function(
        "n => { const m = /a bot plays in (\\d+) s/.exec(document.querySelector('.seat-right [data-testid=standin]')"
        ".textContent); return m && Number(m[1]) < n; }",
        arg=int(first[1]),
        timeout=5000,
    )
    chip = host.locator("[data-testid=standin-turn]").inner_text()
    assert re.fullmatch(r"A bot plays for Omar in \d+ s", chip), chip
    # and a screen reader is told once, when he drops
    assert re.search(r"A bot plays for Omar in \d+ s", host.locator("#announce").inner_text())
    shot(host, "standin-01-countdown")
    host.click("#lang-toggle")
    assert re.fullmatch(r"انقطع الاتصال · يلعب روبوت بعد \d+ ث", host.locator("[data-testid=standin]").inner_text())
    shot(host, "standin-02-countdown-ar")
    host.click("#lang-toggle")
    assert not errors, errors
    host.context.close()


@pytest.mark.parametrize("device", ["small", "phone"])
def test_trix_layouts_on_a_phone_use_the_felt(browser: Browser, server: LiveServer, device: str) -> None:
    """On a phone the Trix layouts take the felt's width and height: cards well above the 36 to 40 pixels
    they had in the middle column, every row still whole between the seats above and the hand below."""
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0))
    page = new_page(browser, SMALL_PHONE if device == "small" else PHONE, errors)
    page.goto(seat_url(server, t, "ar" if device == "small" else "en"))
    page.click("#contract-dialog [data-action='contract trix']")
    play_until(
        page,
        lambda: (
            page.locator("[data-testid=layouts] .card").count() >= 12
            and bool(page.locator("[data-testid=hand] .card.legal, [data-testid=pass]").count())
        ),
        contract="trix",
    )
    page.wait_for_timeout(100)
    found = page.evaluate(
        """() => { const box = (e) => { const r = e.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height }; };
        const stacks = [...document.querySelectorAll('.layout')].map(box);
        const above = [...document.querySelectorAll('.seat-top .badge, .seat-left .badge, .seat-right .badge')]
          .map(box);
        const run = Number(document.querySelector('.layouts').style.getPropertyValue('--run'));
        return { width: document.querySelector('.layout .card').getBoundingClientRect().width, stacks, above,
                 hand: box(document.querySelector('[data-testid=hand]')), run }; }"""
    )
    least = 56 if device == "phone" else (44 if found["run"] <= 10 else 38)
    assert found["width"] >= least, found
    for stack in found["stacks"]:
        assert not overlaps(stack, found["hand"]), found
        assert not any(overlaps(stack, badge) for badge in found["above"]), found
    shot(page, f"trix-{device}-01-layouts")
    assert not errors, errors
    page.context.close()


NARROW_PHONE: dict[str, Any] = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}


def test_a_long_name_keeps_to_a_phones_width_and_a_bot_never_shares_a_players_name(
    browser: Browser, server: LiveServer
) -> None:
    """A 40-letter name without a space (the form allows it) widened the lobby's seat grid past a phone's
    screen, and the scores' columns past their panel; a friend called Karim sat beside a bot called
    Karim, who could not be told apart."""
    errors: list[str] = []
    long_name = "W" * 40
    t = server.create(name=long_name, bots="random", kingdoms=1, seed=king_seed(0))  # the king's chip names him
    friend = new_page(browser, NARROW_PHONE, errors)
    friend.goto(f"{server.base}/t/{t['id']}?lang=en")
    friend.locator("[data-testid=lobby]").wait_for()
    fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
    assert friend.evaluate(fits), friend.evaluate("document.documentElement.scrollWidth")
    shot(friend, "long-name-phone-lobby")
    friend.fill("#join-name", "Samir")
    friend.click("[data-cmd=take][data-seat='3']")  # seat 1's bot is called Samir
    friend.wait_for_selector("#join-name", state="detached")
    host = new_page(browser, DESKTOP, errors)
    host.goto(seat_url(server, t))
    host.locator("[data-lobby-seat='3'] .who").wait_for()
    host.click("[data-cmd=start]")
    host.wait_for_selector("[data-testid=board]")
    badges = host.locator(".badge .name").all_inner_texts()
    assert sum("Samir" in b for b in badges) == 1, badges  # the friend's; the bot has another name
    friend.wait_for_selector("[data-testid=board]")
    friend.wait_for_selector(".chip.king")
    chip = "() => { const c = document.querySelector('.chip.king').getBoundingClientRect();"
    chip += " return c.right <= innerWidth && c.left >= 0; }"
    assert friend.evaluate(chip)
    shot(friend, "long-name-phone-table")
    assert friend.evaluate(fits), friend.evaluate("document.documentElement.scrollWidth")  # the chip is cut short
    friend.click("[data-cmd=scores]")
    assert friend.locator("[data-cmd=scores]").get_attribute("aria-expanded") == "true"
    friend.wait_for_selector("#scores-drawer table.scores")
    assert friend.evaluate(fits)
    inside = "() => { const t = document.querySelector('#scores-drawer table.scores');"
    inside += " return t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right + 1; }"
    assert friend.evaluate(inside)
    shot(friend, "long-name-phone-scores")
    assert not errors, errors
    friend.context.close()
    host.context.close()


def test_the_servers_refusals_are_in_the_pages_language_and_a_typed_code_is_cleaned(
    browser: Browser, server: LiveServer
) -> None:
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/t/ZZZZZZ?lang=ar")
    page.wait_for_selector("text=لا توجد طاولة 'ZZZZZZ'")
    t = server.create(name="Lina", bots="random", kingdoms=1)
    page.goto(f"{server.base}/t/{t['id']}?lang=ar")
    page.fill("#join-name", "You")
    page.click("[data-cmd=take][data-seat='1']")
    page.wait_for_selector("text=«You» هو ما يظهر لكل لاعب مكان اسمه")
    page.goto(f"{server.base}/?lang=en")
    code = t["id"]
    page.fill("#code", f" {code[:3].lower()} {code[3:].lower()} ")  # read out over the phone, with a space
    page.press("#code", "Enter")
    page.wait_for_function("c => location.pathname === '/t/' + c", arg=code)
    page.goto(f"{server.base}/?lang=en")
    page.fill("#code", f"http://192.168.1.20:8000/t/{code}")  # or the whole invite link pasted
    page.press("#code", "Enter")
    page.wait_for_function("c => location.pathname === '/t/' + c", arg=code)
    page.goto(f"{server.base}/?lang=en")
    page.fill("#code", f"{server.base}/t/{code}#seat=0&token={t['token']}")  # the host's own link: his seat
    page.press("#code", "Enter")
    page.wait_for_selector("[data-cmd=start]")  # the host's button, no one else's
    page.goto(f"{server.base}/?lang=en")
    page.fill("#code", "../api")
    page.press("#code", "Enter")
    page.wait_for_selector("#toast >> text=That is not a table's link")
    page.fill("#code", "ab?c")
    page.press("#code", "Enter")
    page.wait_for_selector("#toast >> text=no table 'AB?C'")
    assert page.evaluate("location.pathname") == "/"
    assert not errors, errors
    page.context.close()


def test_a_question_moves_clear_of_a_side_panel_opened_beside_it(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", start=True, seed=king_seed(0))
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.wait_for_selector("#contract-dialog")
    for size in ({"width": 800, "height": 700}, {"width": 1280, "height": 800}):  # narrow, then wide
        page.set_viewport_size(size)
        for cmd, drawer in (("rules", "#rules-drawer"), ("scores", "#scores-drawer")):
            page.click(f"[data-cmd={cmd}]")
            dialog, box, left = boxes(page, "#contract-dialog", drawer, ".seat-left .badge")
            assert not overlaps(dialog, box), (size, cmd, dialog, box)
            if size["width"] >= 1280:  # room enough to stay clear of the left player too
                assert not overlaps(dialog, left), (size, cmd, dialog, left)
            shot(page, f"question-beside-{cmd}-{size['width']}")
            page.click(f"[data-cmd={cmd}]")
            page.wait_for_selector(drawer, state="detached")
    centred = boxes(page, "#contract-dialog")[0]
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert abs(centred["x"] + centred["width"] / 2 - width / 2) < 40  # back in the middle once it is closed
    assert page.locator("[data-cmd=invite]").inner_text() == "Watch link"  # every seat is played: one watches
    assert not errors, errors
    page.context.close()


def test_history_pages_through_older_matches(browser: Browser, tmp_path: Path) -> None:
    """The history page listed the newest 50 finished matches and no way to the older ones."""
    with live_server(tmp_path) as server:
        storage = server.app.state.hub.storage

        def finished(i: int) -> None:
            code = f"OLD{i:03d}"
            seats = [SeatRow(0, "human", f"Player {i}", "medium"), *(SeatRow(s, "bot", "", "easy") for s in (1, 2, 3))]
            storage.create_table(TableRow(code, "playing", "classic", i, {}, 0, seats))
            with storage.engine.begin() as conn:  # finished long ago, by a server gone since
                done = {
                    "status": "finished",
                    "totals": f"[{i}, 0, 0, 0]",
                    "winners": "[0]",
                    "finished_at": datetime.now(UTC),
                }
                conn.execute(tables_t.update().where(tables_t.c.id == code).values(**done))

        for i in range(53):
            finished(i)
        errors: list[str] = []
        page = new_page(browser, DESKTOP, errors)
        page.goto(f"{server.base}/history?lang=en")
        page.wait_for_selector("tr[data-match]")
        assert page.locator("tr[data-match]").count() == 50
        finished(53)  # one more finishes meanwhile: the oldest shown moves to the next page, and is not shown twice
        page.click("[data-cmd=older]")
        page.wait_for_function("() => document.querySelectorAll('tr[data-match]').length === 53")
        assert page.locator("[data-cmd=older]").count() == 0  # the last page was not a full one
        codes = page.locator("tr[data-match]").evaluate_all("rows => rows.map((r) => r.dataset.match)")
        assert sorted(codes) == [f"OLD{i:03d}" for i in range(53)]  # each once
        assert page.evaluate("document.activeElement.closest('tr').dataset.match") == codes[50]
        assert not errors, errors
        page.context.close()


def test_a_token_that_is_no_good_is_let_go_and_the_replay_arrows_follow_arabic(
    browser: Browser, server: LiveServer
) -> None:
    errors: list[str] = []
    t = server.create(name="Lina", bots="random", kingdoms=1, start=True)
    page = new_page(browser, DESKTOP, errors)
    page.goto(f"{server.base}/t/{t['id']}?lang=ar#seat=1&token=not-a-token")
    page.wait_for_selector("#toast >> text=رمز المقعد هذا غير صالح على هذه الطاولة")
    assert page.evaluate(f"localStorage.getItem('opentrix:seat:{t['id']}')") is None  # not kept for next time
    page.goto(f"{server.base}/?lang=en")
    page.fill("#code", f"{server.base}/replay/{t['id']}")
    page.press("#code", "Enter")
    page.wait_for_selector("#toast >> text=That is not a table's link")
    finish_match(server, t)
    page.goto(f"{server.base}/replay/{t['id']}?lang=ar")
    page.wait_for_selector("#replay-prev")
    assert (page.inner_text("#replay-prev"), page.inner_text("#replay-next")) == ("▶", "◀")  # back points right
    assert page.inner_text("[data-cmd=prevdeal]") == "«"  # which the browser mirrors itself in Arabic
    page.goto(f"{server.base}/replay/{t['id']}?lang=en")
    page.wait_for_selector("#replay-prev")
    assert (page.inner_text("#replay-prev"), page.inner_text("#replay-next")) == ("◀", "▶")
    assert not errors, errors
    page.context.close()


def test_the_page_waits_for_a_match_its_stopped_server_had_open_then_offers_the_rematch(
    browser: Browser, server: LiveServer
) -> None:
    """A server on another machine stopped with Lina at the final standings; until its lease runs out
    this one cannot take the match up. Her page waits (not the stored record without a rematch), and
    once the lease has run out it shows the standings with the Rematch button."""
    t = server.create(name="Lina", bots="random", start=True, kingdoms=1, rules="online")
    finish_match(server, t)
    server.put_away(t["id"])
    server.held_elsewhere(t["id"], 300)
    errors: list[str] = []
    page = new_page(browser, DESKTOP, errors)
    page.goto(seat_url(server, t))
    page.wait_for_timeout(1500)  # a few tries of the socket meanwhile
    assert page.locator("#rematch").count() == 0 and page.locator("[data-testid=finished]").count() == 0
    server.held_elsewhere(t["id"], -1)
    page.locator("#match-over #rematch").wait_for()
    assert not errors, errors
    page.context.close()
