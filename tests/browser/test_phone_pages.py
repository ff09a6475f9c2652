"""The public pages on a player's own phone (issue 47): the board, the leaderboard and the
scorer's card at 360 × 740 and 390 × 844 CSS px.

On each page: the page is never wider than the screen, no element sticks out past it (except
inside a box that scrolls sideways on purpose, a wide table's wrapper), and no header, time,
hole number or name is broken inside a word (each word's text range lies on one line). On the
board and the leaderboard a player finds his own group or name at once: the find field keeps
only the rows that match.

One ``pace serve`` serves the module: round R1 in play (holes logged, a group on the clock).
``PHONE_SHOTS=1`` keeps a screenshot of each page in ``/tmp/shots/phone/``.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.conftest import local_today
from livesupport import LiveServer, live_server, pace, setup_round
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

ROUND = "R1"
PHONES = {"360x740": {"width": 360, "height": 740}, "390x844": {"width": 390, "height": 844}}
#: each phone in English; the narrowest in French and Dutch too (longer words: "Départ",
#: "Trouver votre partie ou votre nom", "Zoek je flight of je naam")
CASES = [*PHONES, "360x740-fr", "360x740-nl"]
LOCALES = {"en": "en-GB", "fr": "fr-FR", "nl": "nl-BE"}
SHOTS = Path("/tmp/shots/phone")

#: what a page must not do at a phone's width, measured in the page: the elements that stick
#: out of the screen (not inside a box that scrolls sideways), and the words broken on two lines
MEASURE = """
() => {
  const vw = window.innerWidth;
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.className && typeof e.className === "string"
       ? "." + e.className.trim().split(/\\s+/).join(".") : "");
  const hidden = (e) => {
    for (let p = e; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.display === "none" || s.visibility === "hidden") return true;
      // shown to screen readers only (clipped to 1 px)
      if (s.position === "absolute" && p.getBoundingClientRect().width <= 1) return true;
    }
    return false;
  };
  // the box that scrolls sideways on purpose, if e is inside one
  const scroller = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x === "auto" || x === "scroll" || x === "hidden") return p;
    }
    return null;
  };
  const out = {
    scrollWidth: document.documentElement.scrollWidth, innerWidth: vw, over: [], split: [],
  };
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || hidden(e)) continue;
    if (r.right <= vw + 0.5 && r.left >= -0.5) continue;
    const box = scroller(e);
    const b = box && box.getBoundingClientRect();
    if (b && b.right <= vw + 0.5 && b.left >= -0.5) continue;
    out.over.push(`${name(e)} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  // every word of the page's main part on one line
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement || hidden(node.parentElement)) continue;
    const text = node.textContent;
    for (const m of text.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0)
        .map((q) => Math.round(q.bottom)));
      if (tops.size > 1) {
        out.split.push(`${name(node.parentElement)}: "${m[0]}" on ${tops.size} lines`);
      }
    }
  }
  return out;
}
"""


def _command(server: LiveServer, token: str, name: str, **fields: object) -> None:
    snap = server.get_json(f"/api/rounds/{ROUND}/snapshot", token=token)["snapshot"]
    body = {"id": str(uuid.uuid4()), "round": ROUND, "device_time": snap["at"], **fields}
    answer = server.post_json(f"/api/commands/{name}", body, token=token)
    assert answer["ok"], answer


@pytest.fixture(scope="module")
def phone_server(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    """One ``pace serve``: R1 in play, group 1 on the clock; and the committee's secret."""
    folder = tmp_path_factory.mktemp("phone")
    db = setup_round(folder, round=ROUND)
    pace("init", "--db", str(db), cwd=folder)
    secret = Path(f"{db}.committee-secret").read_text().strip()
    origin = local_today(12).isoformat()
    with live_server(folder, db=db, extra_args=["--clock-origin", origin, "--tick", "0.2"]) as s:
        token = s.post_json("/api/session", {"code": secret}, token="")["token"]
        at = local_today
        done = (("1", 1, at(8, 40)), ("2", 1, at(8, 14)), ("2", 2, at(8, 30)), ("3", 1, at(8, 30)))
        for group, hole, when in done:
            _command(s, token, "hole_completed", group=group, hole=hole, at=when.isoformat())
        _command(s, token, "decide_timing", group="1", decision="time",
                 at=local_today(11, 50).isoformat())  # fmt: skip
        yield s, secret


@pytest.fixture
def phone(request, phone_server, browser: Browser) -> Iterator[Page]:
    """A phone of the size (and language) ``request.param``, signed in as the committee."""
    server, secret = phone_server
    size, _, lang = request.param.partition("-")
    lang = lang or "en"
    context = browser.new_context(viewport=PHONES[size], has_touch=True, locale=LOCALES[lang])
    page = context.new_page()
    page.goto(f"{server.url}/login?lang={lang}")
    page.locator("input[name='code']").fill(secret)
    page.locator("form.code-form button[type='submit']").click()
    page.wait_for_url(server.url + "/")
    page.size = request.param  # type: ignore[attr-defined]
    yield page
    context.close()


def open_live(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bon\b"))
    expect(page.locator("#app")).not_to_have_attribute("data-loading", "")


def assert_fits(page: Page, what: str) -> None:
    """Nothing wider than the screen, nothing broken inside a word."""
    if os.environ.get("PHONE_SHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{what}-{page.size}.png"), full_page=True)  # type: ignore[attr-defined]
    m = page.evaluate(MEASURE)
    assert m["scrollWidth"] <= m["innerWidth"], f"{what}: the page is {m['scrollWidth']} px wide"
    assert m["over"] == [], f"{what}: past the screen's edge: {m['over'][:12]}"
    assert m["split"] == [], f"{what}: words broken: {m['split'][:12]}"


SIZES = pytest.mark.parametrize("phone", CASES, indirect=True)


@SIZES
def test_the_board_fits_a_phone_and_finds_a_players_group(phone, phone_server):
    server, _ = phone_server
    open_live(phone, f"{server.url}/rounds/{ROUND}/board")
    rows = phone.locator("tr.board-row")
    expect(rows.first).to_be_visible()
    expect(phone.locator("tr.board-row.timed")).to_have_count(1)
    expect(phone.locator("td.b-hole.done").first).to_be_visible()
    total = rows.count()
    assert total > 3
    assert_fits(phone, "board")
    # the timed group's badge stays inside its column, with its time or without it (French's
    # one long word "Chronométrée" once covered the players' names beside it)
    fits = phone.evaluate("""() => {
      const messages = JSON.parse(document.getElementById("messages").textContent);
      const cell = document.querySelector("tr.board-row.timed th.b-group");
      const badge = cell.querySelector(".on-clock");
      const out = [];
      for (const text of [badge.textContent, messages["timing.on_clock"]]) {
        badge.textContent = text;
        // inside its column, short of the next one (the players' names), and its words inside
        // the badge (a word longer than the column runs out of it)
        const b = badge.getBoundingClientRect();
        const next = cell.nextElementSibling.getBoundingClientRect();
        out.push([text, b.right <= next.left + 0.5 && badge.scrollWidth <= badge.clientWidth + 1]);
      }
      return out;
    }""")
    assert all(ok for _, ok in fits), fits

    # a player types his name (no capital, no accent: Marc Bélanger, group 2): his group alone
    # is left, the others hidden, and his next hole (the 3rd) is brought into view beside his
    # group's number and start
    group = "2"
    row = phone.locator(f"tr.board-row[data-group='{group}']")
    expect(row.locator(".b-player[data-player='Marc Bélanger']")).to_be_visible()
    next_hole = row.locator("td.b-hole[data-hole='3']")
    expect(next_hole).not_to_be_in_viewport()
    phone.locator("#find").fill("belanger")
    expect(phone.locator("tr.board-row:visible")).to_have_count(1)
    expect(phone.locator("tr.board-row:visible")).to_have_attribute("data-group", group)
    expect(next_hole).to_be_in_viewport(ratio=1)
    start, hole = row.locator("td.b-start").bounding_box(), next_hole.bounding_box()
    assert start and hole and hole["x"] >= start["x"] + start["width"] - 1, (start, hole)
    if os.environ.get("PHONE_SHOTS"):
        phone.screenshot(path=str(SHOTS / f"board-found-{phone.size}.png"))  # type: ignore[attr-defined]
    # his holes scroll sideways to the 18th; his group's number and start stay in view
    expect(row.locator("td.b-hole[data-hole='18']")).not_to_be_in_viewport()
    wrap = phone.locator(".board-wrap")
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    expect(row.locator("td.b-hole[data-hole='18']")).to_be_in_viewport()
    edge = wrap.bounding_box()
    number = row.locator("th.b-group").bounding_box()
    start = row.locator("td.b-start").bounding_box()
    assert edge and number and start
    assert abs(number["x"] - edge["x"]) < 1
    assert abs(start["x"] - (number["x"] + number["width"])) < 1
    # his group's number finds it too; a name nobody has says so; emptied, every group is back
    phone.locator("#find").fill(group)
    expect(phone.locator("tr.board-row:visible")).to_have_count(1)
    expect(phone.locator("tr.board-row:visible")).to_have_attribute("data-group", group)
    phone.locator("#find").fill("zzzz")
    expect(phone.locator("tr.board-row:visible")).to_have_count(0)
    expect(phone.locator("#find-none")).to_be_visible()
    phone.locator("#find").fill("")
    expect(phone.locator("tr.board-row:visible")).to_have_count(total)
    expect(phone.locator("#find-none")).to_be_hidden()


@SIZES
def test_the_leaderboard_fits_a_phone_and_finds_a_player(phone, phone_server):
    server, _ = phone_server
    open_live(phone, f"{server.url}/rounds/{ROUND}/leaderboard")
    rows = phone.locator("tr.lb-row")
    expect(rows.first).to_be_visible()
    total = rows.count()
    assert_fits(phone, "leaderboard")

    entry = rows.nth(total - 1).get_attribute("data-entry")
    assert entry
    phone.locator("#find").fill(entry.upper())
    expect(phone.locator("tr.lb-row:visible")).to_have_attribute("data-entry", entry)
    phone.locator("#find").fill("")
    expect(phone.locator("tr.lb-row:visible")).to_have_count(total)


@SIZES
def test_the_scorers_card_fits_a_phone(phone, phone_server):
    server, _ = phone_server
    open_live(phone, f"{server.url}/rounds/{ROUND}/scorecard")
    phone.locator("#group").select_option("4")
    expect(phone.locator("#hole-panel")).to_be_visible()
    expect(phone.locator("#card tbody tr").first).to_be_visible()
    assert_fits(phone, "scorecard")


#: a sentence of each language's section of docs/privacy.md, and one of another language's
PRIVACY = {
    "en": ("It is off unless two people say yes.", "Het staat uit"),
    "fr": ("C'est désactivé tant que deux personnes n'ont pas dit oui.", "It is off"),
    "nl": ("Het staat uit tenzij twee partijen ja zeggen.", "C'est désactivé"),
}


@SIZES
def test_the_members_page_on_positions_fits_a_phone_in_its_language(phone, phone_server):
    # the scorer's consent links to it (issue 48): docs/privacy.md's section of the page's
    # language, alone, its title translated, as a player reads it on his own phone
    server, _ = phone_server
    lang = phone.size.partition("-")[2] or "en"  # type: ignore[attr-defined]
    phone.goto(f"{server.url}/privacy")
    ours, other = PRIVACY[lang]
    main = phone.locator("main")
    expect(main.locator("article.privacy strong").first).to_have_text(ours)
    expect(main).not_to_contain_text(other)
    expect(main.locator("h1")).not_to_have_text("privacy.title")
    assert main.locator("article.privacy p").count() >= 8
    assert_fits(phone, "privacy")
