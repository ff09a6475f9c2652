"""The scorer's page shares its group's position (issue 48, items 1, 2 and 8).

A real ``pace serve`` over round R1 for today on Louiseville, whose map is the demo's
(``pace.demo.geography``), with positions allowed (``pace round positions on``). Its clock
starts at 07:59 and runs 60 times as fast as the real one, so that a group's walk of two holes
(half an hour) takes half a minute: the page works on the server's clock (docs/protocol.md,
"The server's rate"), so its fixes carry the server's instants, as its taps would.

Headless Chromium on a 360 px wide phone with an emulated geolocation
(``context.set_geolocation``) moved along group 1's walk (``pace.demo.phones.walk``: from the
clubhouse to the first tee, down the hole, on the green, to the second tee and down the
second hole): the page asks once in plain words, the group agrees (``positions_consented``),
a reload does not ask again, the server infers the first hole's completion from the fixes
(``hole_completed``, source ``position``), and after "Stop sharing" (``positions_stopped``)
no more fixes go. "Not now" sends nothing (in Dutch); a refused location says so plainly
and sends nothing.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from browser.conftest import sign_in
from livesupport import (
    ROUND,
    LiveServer,
    clocked,
    live_server,
    pace,
    server_now,
    setup_round,
    wait_for,
)
from playwright.sync_api import Page, expect
from positioned import allow_positions, demo_geometry

from pace.demo.phones import walk
from pace.rules.positions import CourseShape

pytestmark = pytest.mark.browser

SPEED = 60
PHONE = {"width": 360, "height": 740}
SCORECARD = f"/rounds/{ROUND}/scorecard"
SHOTS = Path("/tmp/pace-positions-page")
#: a Socket.IO event the page emits: 42, the ack's id, then [name, payload]
FRAME = re.compile(r"^42\d*(\[.*\])$", re.S)


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("positions-page")
    db = setup_round(folder)
    allow_positions(folder, db)
    args = clocked("07:59", tick=0.2, speed=SPEED)
    with live_server(folder, db=db, extra_args=args) as s:
        s.shape = CourseShape.of(  # type: ignore[attr-defined]
            demo_geometry()
        )
        yield s


class Frames:
    """The Socket.IO events a page sends, read off its websockets."""

    def __init__(self, page: Page) -> None:
        self.sent: list[tuple[str, dict]] = []
        page.on("websocket", lambda ws: ws.on("framesent", self._read))

    def _read(self, payload: str | bytes) -> None:
        m = FRAME.match(payload if isinstance(payload, str) else payload.decode())
        if m:
            name, *rest = json.loads(m.group(1))
            self.sent.append((name, rest[0] if rest else {}))

    def of(self, name: str) -> list[dict]:
        return [p for n, p in self.sent if n == name]


def phone(browser, server: LiveServer, *, locale: str = "en-GB", where=None, allow=True):
    """A scorer's phone: 360 px wide, signed in with a scorer's code, its location granted
    (``allow``) and first at ``where`` (lon, lat)."""
    options: dict = {"viewport": PHONE, "is_mobile": True, "has_touch": True, "locale": locale}
    if allow:
        options["permissions"] = ["geolocation"]
    if where is not None:
        options["geolocation"] = {"longitude": where[0], "latitude": where[1], "accuracy": 8}
    context = browser.new_context(**options)
    sign_in(context, server, "scorer")
    return context


def events(server: LiveServer, type: str, group: str) -> list[dict]:
    log = server.get_json(f"/api/rounds/{ROUND}/events")["events"]
    return [e for e in log if e["type"] == type and e["payload"].get("group") == group]


#: the page is hidden or visible again (a phone locked, then unlocked): what the browser says
#: to the page
VISIBILITY = """(state) => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def stored_fixes(page: Page) -> list[dict]:
    """Return the fixes the phone keeps and has not had acknowledged: queued in its outbox,
    or waiting for their batch (localStorage)."""
    return page.evaluate(
        """() => {
      const read = (key) => JSON.parse(localStorage.getItem(key) || "[]");
      const queued = read("pace.positions.R1")
        .filter((e) => e.kind === "send_positions" && e.state !== "confirmed")
        .flatMap((e) => e.payload.fixes);
      return queued.concat(read("pace.positions.pending.R1.1").map((p) => p.fix));
    }"""
    )


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def wide(page: Page) -> bool:
    """Whether anything of the page runs past the phone's width."""
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


def test_a_group_walking_two_holes_shares_its_position_until_it_stops(server, browser):
    shape: CourseShape = server.shape  # type: ignore[attr-defined]
    clubhouse = (shape.holes[1].tee[0] - 40, shape.holes[1].tee[1] - 30)
    context = phone(browser, server, where=shape.frame.lonlat(*clubhouse))
    page = context.new_page()
    frames = Frames(page)
    page.goto(server.url + SCORECARD)
    box = page.locator("#share")
    # a round that allows positions, before a group is chosen: nothing asked yet
    expect(page.locator("#group option")).to_have_count(7)
    expect(box).to_be_hidden()
    page.locator("#group").select_option("1")

    # asked once, in plain words: what, to whom, how long, stopping
    expect(box.locator("#share-question")).to_have_text(
        "May this phone share group 1's position during the round? Then nobody has to type "
        "when you finish a hole."
    )
    terms = box.locator(".share-terms li")
    expect(terms).to_have_count(4)
    expect(terms.nth(0)).to_contain_text("this phone's position")
    expect(terms.nth(0)).to_contain_text("only while the round is in play")
    expect(terms.nth(1)).to_contain_text("the committee and its referees")
    expect(terms.nth(1)).to_contain_text("Never the public")
    expect(terms.nth(2)).to_contain_text("deleted when the round is finished")
    expect(terms.nth(3)).to_have_text("You can stop sharing at any time, on this page.")
    expect(box).to_contain_text("sent only while this page is open and the screen is on")
    assert not wide(page)
    shoot(page, "ask-360.png")
    assert frames.of("share_positions") == [] and frames.of("send_positions") == []

    page.get_by_role("button", name="Share my group's position").click()
    expect(box.locator("#share-state")).to_have_text("Sharing your group's position")
    expect(page.get_by_role("button", name="Stop sharing")).to_be_visible()
    # the group's consent is stored: the device, the group, when; never a place
    [consent] = wait_for(lambda: events(server, "positions_consented", "1"), 10)
    assert consent["payload"] == {"group": "1"} and consent["by"]["role"] == "scorer"

    # a reload does not ask again: the page goes on sharing
    page.reload()
    expect(box.locator("#share-state")).to_have_text("Sharing your group's position")
    expect(box.locator("#share-ask")).to_be_hidden()
    expect(box.locator("#share-status")).to_contain_text("Last position taken at")
    assert not wide(page)
    shoot(page, "sharing-360.png")

    # the group walks: from the clubhouse to the first tee, down the hole, on the green until
    # the flag goes in, to the second tee and down the second hole; the phone goes with it
    start = server_now(server)
    began = time.monotonic()
    done = {1: start + timedelta(minutes=14), 2: start + timedelta(minutes=31)}
    path = walk(shape, list(range(1, 19)), start + timedelta(minutes=2), done, random.Random(48))

    def now() -> datetime:
        return start + timedelta(seconds=(time.monotonic() - began) * SPEED)

    def stroll(until: datetime, found=lambda: False):
        """Move the phone along the walk, a quarter of a real second a step (15 s of the
        round's), until ``until`` or until ``found()`` (asked every fourth step)."""
        step = 0
        while now() < until:
            (x, y), _ = path.at(now())
            lon, lat = shape.frame.lonlat(x, y)
            context.set_geolocation({"longitude": lon, "latitude": lat, "accuracy": 8})
            page.wait_for_timeout(250)
            step += 1
            if step % 4 == 0 and (answer := found()):
                return answer
        return found()

    # down the first hole the signal drops for five minutes: the fixes wait on the phone
    stroll(start + timedelta(minutes=3))
    context.set_offline(True)
    expect(page.locator("#conn")).to_have_text("Offline")
    offline = now()
    stroll(start + timedelta(minutes=8))
    expect(box.locator("#share-status")).to_contain_text("positions waiting to be sent")
    kept_offline = stored_fixes(page)
    assert len(kept_offline) >= 5, kept_offline
    # (with those kept just before, not sent yet: a batch goes every 30 s of the round's)
    assert all(datetime.fromisoformat(f["at"]) > offline - timedelta(minutes=2)
               for f in kept_offline)  # fmt: skip
    context.set_offline(False)
    expect(page.locator("#conn")).to_have_text("Online", timeout=20_000)

    # the committee sees the group move down the hole (what its dashboard reads, then the
    # dashboard itself): the same hole, farther along its line, fewer metres to the green
    def place_1() -> dict | None:
        place = server.get_json(f"/api/rounds/{ROUND}/places")["places"].get("1")
        return place if place and place["hole"] == 1 and not place["stale"] else None

    first = stroll(start + timedelta(minutes=9), place_1)
    assert first, "no place for group 1 down the first hole"
    stroll(start + timedelta(minutes=11, seconds=30))
    second = place_1()
    assert second and second["fraction"] > first["fraction"], (first, second)
    assert second["to_green_m"] <= first["to_green_m"], (first, second)
    board = browser.new_context(viewport={"width": 1280, "height": 900})
    sign_in(board, server)
    dash = board.new_page()
    dash.goto(f"{server.url}/rounds/{ROUND}/dashboard")
    expect(dash.locator("#grid-body tr[data-group='1'] .place")).to_contain_text(
        re.compile(r"\d+ m to the green|on the green")
    )
    board.close()

    def hole_1() -> list[dict]:
        return [e for e in events(server, "hole_completed", "1") if e["payload"]["hole"] == 1]

    [hole1] = stroll(start + timedelta(minutes=27), hole_1) or [None]
    assert hole1 is not None, "hole 1's completion was not inferred"
    p = hole1["payload"]
    assert p["source"] == "position" and hole1["by"]["role"] == "positions", hole1
    # the interval holds the instant the group left the green (the walk's own)
    assert datetime.fromisoformat(p["earliest"]) <= done[1] <= datetime.fromisoformat(p["latest"])
    # the dashboard's row has it, as the positions'
    snapshot = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]
    row = next(r for r in snapshot["groups"] if r["group"] == "1")
    assert row["holes"]["1"]["source"] == "position", row["holes"]
    # nothing kept with no signal was lost: every fix went once it came back
    sent_ats = [f["at"] for b in frames.of("send_positions") for f in b["fixes"]]
    assert {f["at"] for f in kept_offline} <= set(sent_ats)
    assert len(sent_ats) == len(set(sent_ats))  # and each once
    # the fixes went in batches, each with its id, on the server's clock
    batches = frames.of("send_positions")
    assert batches and all(1 <= len(b["fixes"]) <= 40 for b in batches)
    assert all(b["group"] == "1" and b["consent_id"] == consent["id"] for b in batches)
    assert len({b["id"] for b in batches}) == len(batches)
    ats = [datetime.fromisoformat(at) for at in sent_ats]
    # (none ahead of the server's own clock: the test's estimate of it may lag on a busy
    # machine, the server's does not)
    latest = server_now(server) + timedelta(minutes=1)
    assert all(start - timedelta(minutes=5) < at < latest for at in ats), (start, latest, ats)

    # the page hidden (the phone locked) for three minutes: no position is read, a gap
    hidden = now()
    page.evaluate(VISIBILITY, "hidden")
    stroll(hidden + timedelta(minutes=3))
    shown = now()
    page.evaluate(VISIBILITY, "visible")

    def sent_since_shown() -> list[datetime]:
        ats = [datetime.fromisoformat(f["at"]) for b in frames.of("send_positions")
               for f in b["fixes"]]  # fmt: skip
        return [at for at in ats if at > shown]

    # watched again once visible: a fix read after it goes in the next batch (waited for, up
    # to four minutes of the round's: a busy machine delays the batch, not the watch)
    assert stroll(shown + timedelta(minutes=4), sent_since_shown), (hidden, shown)
    ats = [datetime.fromisoformat(f["at"]) for b in frames.of("send_positions") for f in b["fixes"]]
    margin = timedelta(seconds=20)
    assert not [at for at in ats if hidden + margin < at < shown - margin], (hidden, shown)

    page.get_by_role("button", name="Stop sharing").click()
    expect(box.locator("#share-off")).to_contain_text("Your group's position is not shared.")
    assert wait_for(lambda: events(server, "positions_stopped", "1"), 10)
    sent = len(frames.of("send_positions"))
    for minutes in (1, 2, 3):  # the group walks on: nothing more leaves the phone
        (x, y), _ = path.at(now() + timedelta(minutes=minutes))
        lon, lat = shape.frame.lonlat(x, y)
        context.set_geolocation({"longitude": lon, "latitude": lat, "accuracy": 8})
        page.wait_for_timeout(700)
    assert len(frames.of("send_positions")) == sent
    assert [f["share"] for f in frames.of("share_positions")] == [True, False]
    # a stop is a stop: a reload does not share again
    page.reload()
    expect(box.locator("#share-off")).to_be_visible()
    page.wait_for_timeout(1000)
    assert len(frames.of("send_positions")) == sent
    context.close()


def test_not_now_sends_nothing_and_is_not_asked_again_in_dutch(server, browser):
    shape: CourseShape = server.shape  # type: ignore[attr-defined]
    context = phone(browser, server, locale="nl-BE", where=shape.frame.lonlat(*shape.holes[1].tee))
    page = context.new_page()
    frames = Frames(page)
    page.goto(server.url + SCORECARD)
    page.locator("#group").select_option("2")
    box = page.locator("#share")
    expect(box.locator("#share-question")).to_have_text(
        "Mag deze telefoon tijdens de ronde de positie van flight 2 delen? Dan hoeft "
        "niemand in te tikken wanneer jullie een hole uitgespeeld hebben."
    )
    expect(box.locator(".share-terms li").nth(1)).to_contain_text("het wedstrijdcomité")
    # the whole of it, for the players, in their language: the members' page (docs/privacy.md)
    with context.expect_page() as opened:
        box.get_by_role("link", name="Wat er verstuurd wordt, naar wie, en hoe lang").click()
    privacy = opened.value
    expect(privacy.locator("h1")).to_have_text("De positie van je flight: wat pace ermee doet")
    expect(privacy.locator("article.privacy")).to_contain_text("Het staat uit tenzij")
    privacy.close()
    assert frames.of("share_positions") == []  # reading it consented to nothing
    page.get_by_role("button", name="Niet nu").click()
    expect(box.locator("#share-off")).to_contain_text(
        "De positie van je flight wordt niet gedeeld."
    )
    page.reload()
    expect(box.locator("#share-off")).to_be_visible()
    expect(box.locator("#share-ask")).to_be_hidden()
    page.wait_for_timeout(1500)
    assert frames.of("share_positions") == [] and frames.of("send_positions") == []
    assert events(server, "positions_consented", "2") == []
    # asked again only when the group wants it: the whole question again
    page.get_by_role("button", name="Onze positie delen…").click()
    expect(box.locator("#share-ask")).to_be_visible()
    assert not wide(page)
    shoot(page, "ask-nl-360.png")
    context.close()


def test_a_refused_location_is_said_plainly_and_nothing_is_sent(server, browser):
    context = phone(browser, server, allow=False)
    page = context.new_page()
    frames = Frames(page)
    page.goto(server.url + SCORECARD)
    page.locator("#group").select_option("3")
    page.get_by_role("button", name="Share my group's position").click()
    problem = page.locator("#share-problem")
    expect(problem).to_contain_text("does not let the page read its position (location refused)")
    expect(problem).to_contain_text("nothing is sent")
    expect(page.locator("#share-state")).to_be_hidden()
    # the group may ask again once it has allowed location: the whole question again
    expect(page.get_by_role("button", name="Share our position…")).to_be_visible()
    page.wait_for_timeout(1500)
    assert frames.of("share_positions") == [] and frames.of("send_positions") == []
    assert events(server, "positions_consented", "3") == []
    assert not wide(page)
    shoot(page, "denied-360.png")
    context.close()


#: counts the page's wake-lock requests and keeps the last lock, so that a test can let it go
#: as the browser does when the page is hidden
WAKE_SPY = """
(() => {
  if (!("wakeLock" in navigator)) return;
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  window.wakeRequests = 0;
  navigator.wakeLock.request = (type) => {
    window.wakeRequests += 1;
    return request(type).then((lock) => { window.wakeLock = lock; return lock; });
  };
})();
"""


def test_the_screen_is_kept_awake_while_sharing_when_the_group_asks(server, browser):
    shape: CourseShape = server.shape  # type: ignore[attr-defined]
    context = phone(browser, server, where=shape.frame.lonlat(*shape.holes[4].tee))
    context.add_init_script(WAKE_SPY)
    page = context.new_page()
    page.goto(server.url + SCORECARD)
    # the browser's own permission for the wake lock (headless Chromium refuses it otherwise),
    # in this page's browser context
    cdp = context.new_cdp_session(page)
    own = cdp.send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
    cdp.send("Browser.setPermission", {
        "permission": {"name": "screen-wake-lock"}, "setting": "granted",
        "origin": server.url, "browserContextId": own})  # fmt: skip
    page.locator("#group").select_option("4")
    page.get_by_role("button", name="Share my group's position").click()
    box = page.locator("#share")
    awake = page.get_by_label("Keep the screen awake while sharing")
    expect(awake).to_be_visible()
    expect(awake).not_to_be_checked()
    expect(box).to_have_attribute("data-awake", "off")
    awake.check()
    expect(box).to_have_attribute("data-awake", "held")
    # the browser lets the lock go when the page is hidden: asked again once it is visible
    page.evaluate("window.wakeLock.release()")
    expect(box).to_have_attribute("data-awake", "off")
    page.evaluate(VISIBILITY, "hidden")
    page.evaluate(VISIBILITY, "visible")
    expect(box).to_have_attribute("data-awake", "held")
    assert page.evaluate("window.wakeRequests") == 2
    # the choice is remembered; stopping lets the screen sleep again
    page.reload()
    expect(page.get_by_label("Keep the screen awake while sharing")).to_be_checked()
    expect(box).to_have_attribute("data-awake", "held")
    page.get_by_role("button", name="Stop sharing").click()
    expect(box).to_have_attribute("data-awake", "off")
    context.close()

    # a browser without the Screen Wake Lock API: no toggle
    context = phone(browser, server, where=shape.frame.lonlat(*shape.holes[5].tee))
    context.add_init_script("delete Navigator.prototype.wakeLock;")
    page = context.new_page()
    page.goto(server.url + SCORECARD)
    page.locator("#group").select_option("5")
    page.get_by_role("button", name="Share my group's position").click()
    expect(page.locator("#share-state")).to_have_text("Sharing your group's position")
    expect(page.get_by_label("Keep the screen awake while sharing")).to_be_hidden()
    context.close()


def test_a_page_that_is_not_secure_says_why_and_offers_nothing(server, browser):
    # a browser gives positions only to a secure page (https, or the phone's own localhost):
    # the page read over plain http from the club's address is told so
    context = phone(browser, server)
    context.add_init_script("Object.defineProperty(window, 'isSecureContext', {get: () => false});")
    page = context.new_page()
    frames = Frames(page)
    page.goto(server.url + SCORECARD)
    page.locator("#group").select_option("6")
    problem = page.locator("#share-problem")
    expect(problem).to_contain_text("a browser gives it only to a secure page")
    expect(problem).to_contain_text("https")
    expect(page.get_by_role("button", name="Share my group's position")).to_be_hidden()
    page.wait_for_timeout(1000)
    assert frames.of("share_positions") == [] and frames.of("send_positions") == []
    context.close()


def test_the_committee_turning_positions_off_stops_the_sharing_and_says_why(server, browser):
    shape: CourseShape = server.shape  # type: ignore[attr-defined]
    tee = shape.holes[6].tee
    context = phone(browser, server, where=shape.frame.lonlat(*tee))
    page = context.new_page()
    frames = Frames(page)
    page.goto(server.url + SCORECARD)
    page.locator("#group").select_option("6")
    page.get_by_role("button", name="Share my group's position").click()
    box = page.locator("#share")
    expect(box.locator("#share-state")).to_have_text("Sharing your group's position")
    assert wait_for(lambda: events(server, "positions_consented", "6"), 10)
    pace("round", "positions", "off", "--round", ROUND, "--db", str(server.db),
         cwd=server.db.parent)  # fmt: skip
    try:
        # the group walks on: its next batch is refused, and the page stops and says why
        for metres in range(20, 200, 20):
            lon, lat = shape.frame.lonlat(tee[0] + metres, tee[1])
            context.set_geolocation({"longitude": lon, "latitude": lat, "accuracy": 8})
            page.wait_for_timeout(300)
            if box.get_attribute("data-view") == "off":
                break
        expect(box.locator("#share-off")).to_be_visible()
        expect(box.locator("#share-problem")).to_contain_text(
            "Sharing stopped: round 'R1' does not take positions from the groups' phones"
        )
        sent = len(frames.of("send_positions"))
        page.wait_for_timeout(1000)
        assert len(frames.of("send_positions")) == sent
        # the round no longer asks: the page learns it when it reads the round again
        page.reload()
        expect(page.locator("#hole-title")).to_contain_text("Hole 1")
        expect(box).to_be_hidden()
    finally:
        pace("round", "positions", "on", "--round", ROUND, "--db", str(server.db),
             cwd=server.db.parent)  # fmt: skip
    context.close()


def test_only_a_scorers_phone_is_asked_and_only_for_the_group_it_chose(server, browser):
    shape: CourseShape = server.shape  # type: ignore[attr-defined]
    tee = shape.holes[3].tee
    # the committee may open the scorer's page, but its phone is no group's: not asked
    context = browser.new_context(viewport=PHONE, permissions=["geolocation"])
    sign_in(context, server)
    page = context.new_page()
    page.goto(server.url + SCORECARD)
    page.locator("#group").select_option("3")
    expect(page.locator("#hole-title")).to_contain_text("Hole 1")
    expect(page.locator("#share")).to_be_hidden()
    context.close()

    context = phone(browser, server, where=shape.frame.lonlat(*tee))
    page = context.new_page()
    frames = Frames(page)
    page.goto(server.url + SCORECARD)
    page.locator("#group").select_option("3")
    page.get_by_role("button", name="Share my group's position").click()
    for metres in (0, 30, 60):
        lon, lat = shape.frame.lonlat(tee[0] + metres, tee[1])
        context.set_geolocation({"longitude": lon, "latitude": lat, "accuracy": 8})
        page.wait_for_timeout(600)
    assert wait_for(lambda: frames.of("send_positions"), 10)
    # another group chosen: asked for that group, and nothing more goes for the first
    page.locator("#group").select_option("2")
    expect(page.locator("#share-question")).to_contain_text("share group 2's position")
    sent = len(frames.of("send_positions"))
    for metres in (90, 120, 150):
        lon, lat = shape.frame.lonlat(tee[0] + metres, tee[1])
        context.set_geolocation({"longitude": lon, "latitude": lat, "accuracy": 8})
        page.wait_for_timeout(600)
    assert len(frames.of("send_positions")) == sent
    assert {b["group"] for b in frames.of("send_positions")} == {"3"}
    context.close()


#: the cadence (docs/positions.md): seconds since the last fix kept, metres moved, seconds
#: from the hole in play's due instant to the fix (None: not known), kept?
CADENCE = {
    "too soon": (14, 50, None, False),
    "not moved": (15, 9, None, False),
    "moved": (15, 11, None, True),
    "standing": (29, 0, None, False),
    "standing half a minute": (30, 0, None, True),
    "standing, the hole not due yet": (29, 0, -1, False),
    "standing, the hole due": (15, 0, 0, True),
    "standing, the hole due, too soon": (14, 0, 10, False),
}


def test_the_page_keeps_a_fix_every_15_s_on_the_move_or_once_due_and_30_s_standing(server, browser):
    # the cadence of static/positions.js, read in the browser (one page for the whole table)
    context = phone(browser, server)
    page = context.new_page()
    page.goto(server.url + SCORECARD)
    answers = page.evaluate(
        """async (table) => {
      const { keeps, metres: distance, standing } = await import("/static/positions.js");
      const last = { ms: 0, lon: 4.35, lat: 50.85 };
      const kept = Object.fromEntries(Object.entries(table).map(
        ([name, [seconds, metres, due]]) => {
          const fix = { ms: seconds * 1000, lon: 4.35, lat: 50.85 + metres / 111195 };
          const when = due === null ? null : (seconds - due) * 1000;
          return [name, [keeps(last, fix, undefined, when), distance(last, fix)]];
        }));
      return { kept, asked: [standing(1000, null), standing(1000, 2000), standing(2000, 2000)] };
    }""",
        CADENCE,
    )
    for name, (_seconds, metres, _due, kept) in CADENCE.items():
        assert answers["kept"][name][0] is kept, name
        assert answers["kept"][name][1] == pytest.approx(metres, abs=0.1), name
    # a phone standing still is asked for a fresh fix every 30 s, every 15 s once due
    assert answers["asked"] == [30, 30, 15]
    context.close()


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory) -> Iterator[LiveServer]:
    """The same round on a clock at 08:20 running three times as fast as real time: group 1
    (off at 08:00) is past its first hole's time, group 6 (off at 08:50) not yet off."""
    folder = tmp_path_factory.mktemp("positions-due")
    db = setup_round(folder)
    allow_positions(folder, db)
    with live_server(folder, db=db, extra_args=clocked("08:20", tick=0.2, speed=3)) as s:
        yield s


def kept_instants(page: Page, frames: Frames, group: str) -> list[datetime]:
    """Return the instants of every fix the page kept for ``group``: sent, or waiting."""
    waiting = page.evaluate(
        """(group) => JSON.parse(localStorage.getItem(`pace.positions.pending.R1.${group}`)
                                 || "[]").map((p) => p.fix.at)""",
        group,
    )
    sent = [f["at"] for b in frames.of("send_positions") if b["group"] == group
            for f in b["fixes"]]  # fmt: skip
    return sorted({datetime.fromisoformat(a) for a in [*sent, *waiting]})


def test_a_phone_standing_on_a_hole_past_its_time_keeps_a_fix_every_15_s(slow_server, browser):
    # two phones standing still by the first green: group 1's hole is due (its own pace says
    # so), group 6's is not; each page keeps what its cadence says, on the server's clock
    shape = CourseShape.of(demo_geometry())
    green = shape.frame.lonlat(*shape.holes[1].green)
    pages = {}
    for group in ("1", "6"):
        context = phone(browser, slow_server, where=green)
        page = context.new_page()
        frames = Frames(page)
        page.goto(slow_server.url + SCORECARD)
        page.locator("#group").select_option(group)
        page.get_by_role("button", name="Share my group's position").click()
        expect(page.locator("#share-state")).to_have_text("Sharing your group's position")
        expect(page.locator("#pace-facts [data-fact=due]")).to_contain_text("is due at")
        pages[group] = (context, page, frames)
    # each phone's position wanders a metre or two, as a phone's does when it stands still
    # (a fix with a new instant: less than 10 m, no move), until the due group's page kept
    # five fixes and the other's three (about a minute of the round's clock; at most 60 s of
    # real time)
    rng = random.Random(46)

    def gaps_of(group: str) -> list[float]:
        _context, page, frames = pages[group]
        kept = kept_instants(page, frames, group)
        return [(b - a).total_seconds() for a, b in zip(kept, kept[1:], strict=False)]

    def wandered() -> bool:
        for context, page, _frames in pages.values():
            x, y = shape.holes[1].green
            lon, lat = shape.frame.lonlat(x + rng.uniform(-1, 1), y + rng.uniform(-1, 1))
            context.set_geolocation({"longitude": lon, "latitude": lat, "accuracy": 8})
            page.wait_for_timeout(250)
        return len(gaps_of("1")) >= 4 and len(gaps_of("6")) >= 2

    wait_for(wandered, 60)
    gaps = {group: gaps_of(group) for group in pages}
    for context, _page, _frames in pages.values():
        context.close()
    # the due group: a fix every 15 s (the page's tick, 3 s of the round, may add one)
    assert len(gaps["1"]) >= 4 and all(14 <= g <= 21 for g in gaps["1"]), gaps
    # the group not due: every 30 s
    assert gaps["6"] and all(29 <= g <= 36 for g in gaps["6"]), gaps
