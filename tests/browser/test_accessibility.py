"""Accessibility and outdoor use, measured by axe-core (issue 29, part 1; docs/accessibility.md).

Every page, in English and French at a phone's width and a desk's, in Dutch at a phone's
(issue 41: where its long compounds would overflow, each text box is measured too), in each
state a user meets (an empty round, a round in play, an alert open, offline where the page
keeps working offline), is scanned by axe-core (``axe-playwright-python``): no serious or
critical violation, and none of the AAA contrast rule (``color-contrast-enhanced``, 7:1) in
sun mode. Beside it: the tap targets of the marshal page, the shot clock and the scorecard
measured from their rendered boxes, the live regions that speak what a referee must not miss,
and a whole stroke timed on the shot clock with the keyboard alone.

One ``pace serve`` and one signed-in committee serve every case of the module: round R1 is
never touched (the empty round), R2 is played before the first case (taps, an alert, a group
on the clock, a bad time).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser.conftest import local_today
from livesupport import LiveServer, live_server, pace, setup_round
from playwright.sync_api import Browser, BrowserContext, Page, expect

from pace import config
from pace.services.access import AccessService
from pace.services.accounts import Accounts
from pace.services.rounds import RoundService
from pace.store import open_store

pytestmark = pytest.mark.browser

EMPTY, PLAY = "R1", "R2"
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
VIEWPORTS = {"phone": PHONE, "desk": DESK}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "nl": "nl-BE"}
SHOTS = Path("/tmp/shots/a11y")

#: the impacts that fail a page (moderate and minor ones are reported in docs, not failed)
FAILING = {"serious", "critical"}

#: axe rules excepted, each with its reason (docs/accessibility.md, "Rules excepted"). Empty:
#: every violation found was fixed in the pages rather than excepted.
EXCEPTED: dict[str, str] = {}

#: axe's options: only the violations are gathered in full (every rule still runs on every
#: node; passes and inapplicable rules are cut to one node each, which halves a scan's time)
OPTIONS = {"resultTypes": ["violations"]}

#: in sun mode the AAA contrast rule, off in axe by default, is on as well
SUN_OPTIONS = {**OPTIONS, "rules": {"color-contrast-enhanced": {"enabled": True}}}

AXE = Axe()


def run_axe(page: Page, options: dict) -> dict:
    """Run axe-core on ``page`` as it is and return its results.

    axe's 570 kB script is put into the document only when it is not there yet: the states of
    one page load are scanned by the same copy (``Axe.run`` would evaluate it at every scan).
    """
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    return page.evaluate("(options) => axe.run(document, options)", options)


# -- the served rounds --------------------------------------------------------------------


def _command(server: LiveServer, token: str, round: str, name: str, **fields: object) -> dict:
    """Send a command to ``round`` over HTTP on the server's clock; assert it is ok."""
    snap = server.get_json(f"/api/rounds/{round}/snapshot", token=token)["snapshot"]
    body = {"id": str(uuid.uuid4()), "round": round, "device_time": snap["at"], **fields}
    answer = server.post_json(f"/api/commands/{name}", body, token=token)
    assert answer["ok"], answer
    return answer


def play(server: LiveServer, token: str) -> None:
    """Round PLAY in play: holes logged, group 1 out of position and on the clock, a bad time
    of Marie Lavoie's not told yet and one not counted."""
    at = local_today
    for group, hole, when in (("1", 1, at(8, 40)), ("2", 1, at(8, 14)), ("3", 1, at(8, 30))):
        _command(server, token, PLAY, "hole_completed", group=group, hole=hole, at=when.isoformat())
    now = server.get_json(f"/api/rounds/{PLAY}/snapshot", token=token)["snapshot"]["at"]
    decided = local_today(11, 50)
    _command(
        server, token, PLAY, "decide_timing", group="1", decision="time", at=decided.isoformat()
    )
    # two bad times: the second not counted (she was not told of the first), so the pages show
    # how many did not count (the dashboard's count is a button opening the group's detail)
    for minute in (2, 3):
        stopped = decided + timedelta(minutes=minute)
        _command(
            server, token, PLAY, "record_stroke", group="1", player="Marie Lavoie", hole=2,
            kind="other", first_to_play=False,
            started=(stopped - timedelta(seconds=52)).isoformat(), stopped=stopped.isoformat(),
        )  # fmt: skip
    assert now


#: people's own accounts (issue 50): an administrator who is a committee member of the
#: ``default`` club too (her password chosen), and a referee whose one-time link is not used
ADMIN = ("ada@federation.test", "Ada Admin", "ada-password-1")
SETUP_TOKEN = "a11y-setup-link-0123456789"


def make_accounts(db: Path) -> None:
    """Make the accounts (``ADMIN``, a referee's pending link) as the service makes them."""
    store = open_store(db)
    try:
        settings = config.Settings()
        clock = RoundService(store, settings).clock
        accounts = Accounts(store, AccessService(store, settings, clock), clock)
        made = accounts.add_account(ADMIN[0], ADMIN[1], admin=True)
        accounts.set_role("default", made.account.id, "committee")
        accounts.finish_setup(made.token, ADMIN[2], ADMIN[2])
        pending = accounts.add_member("default", "noor@rgca.test", "Noor Claes", "referee")
        store.set_setup(pending.account.id, hashlib.sha256(SETUP_TOKEN.encode()).hexdigest(),
                        clock.now() + timedelta(days=7))  # fmt: skip
    finally:
        store.close()


@pytest.fixture(scope="module")
def a11y_server(tmp_path_factory) -> Iterator[tuple[LiveServer, str]]:
    """One ``pace serve`` for the module: R1 empty, R2 in play; and the committee's secret."""
    folder = tmp_path_factory.mktemp("a11y")
    db = setup_round(folder, round=EMPTY)
    setup_round(folder, round=PLAY, db=db)
    pace("init", "--db", str(db), cwd=folder)  # the committee's secret: every round's pages
    make_accounts(db)
    secret = Path(f"{db}.committee-secret").read_text().strip()
    origin = local_today(12).isoformat()
    with live_server(folder, db=db, extra_args=["--clock-origin", origin, "--tick", "0.2"]) as s:
        answer = s.post_json("/api/session", {"code": secret}, token="")
        assert answer.get("ok"), answer
        play(s, answer["token"])
        yield s, secret


@pytest.fixture(scope="module")
def signed_in(a11y_server, browser: Browser) -> dict:
    """The committee's cookies, signed in once through /login as a person does."""
    server, secret = a11y_server
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.url}/login?lang=en")
    page.locator("input[name='code']").fill(secret)
    page.locator("form.code-form button[type='submit']").click()
    page.wait_for_url(server.url + "/")
    state = context.storage_state()
    context.close()
    # no language cookie: each case's language is its browser's (Accept-Language)
    state["cookies"] = [c for c in state["cookies"] if c["name"] != "pace_lang"]
    return state


@contextmanager
def pages_of(
    browser: Browser, signed_in: dict, lang: str, width: str
) -> Iterator[Callable[..., Page]]:
    """Yield a function opening a page of ``lang`` and ``width`` in a fresh context (its own
    localStorage), signed in as the committee unless ``signed=False``; close them after."""
    contexts: list[BrowserContext] = []

    def open_page(signed: bool = True, clock: bool = False) -> Page:
        context = browser.new_context(
            viewport=VIEWPORTS[width],
            locale=LOCALES[lang],
            storage_state=signed_in if signed else None,
            has_touch=width == "phone",
        )
        contexts.append(context)
        page = context.new_page()
        if clock:
            page.clock.install()
        return page

    open_page.lang, open_page.width = lang, width  # type: ignore[attr-defined]
    try:
        yield open_page
    finally:
        for c in contexts:
            c.close()


@pytest.fixture
def case(request, signed_in, browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages of this case's language and width (``pages_of``)."""
    with pages_of(browser, signed_in, *request.param) as open_page:
        yield open_page


@pytest.fixture
def case_en(signed_in, browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages of a phone in English."""
    with pages_of(browser, signed_in, "en", "phone") as open_page:
        yield open_page


#: English and French at both widths; Dutch at a phone's, the narrowest box for its compounds
CASES = [(lang, width) for lang in ("en", "fr") for width in VIEWPORTS] + [("nl", "phone")]
CASE_IDS = [f"{lang}-{width}" for lang, width in CASES]


# -- scanning -----------------------------------------------------------------------------


def serious(response: dict) -> list[dict]:
    """The violations that fail a page: serious or critical, not excepted."""
    return [v for v in response["violations"] if v["impact"] in FAILING and v["id"] not in EXCEPTED]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:4]]
        summary = v["nodes"][0].get("failureSummary", "").replace("\n", " ")[:300]
        lines.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {targets} {summary}")
    return "\n".join(lines)


def record(name: str, state: str, opener, sun: bool, response: dict) -> None:
    """Append the scan's counts to ``$A11Y_REPORT`` (JSON lines) for docs/accessibility.md."""
    out = os.environ.get("A11Y_REPORT")
    if not out:
        return
    counts: dict[str, int] = {}
    for v in response["violations"]:
        counts[v["impact"]] = counts.get(v["impact"], 0) + 1
    line = {
        "page": name, "state": state, "lang": opener.lang, "width": opener.width, "sun": sun,
        "counts": counts, "rules": sorted({v["id"] for v in response["violations"]}),
    }  # fmt: skip
    with open(out, "a") as f:
        f.write(json.dumps(line) + "\n")


def set_sun(page: Page, on: bool) -> None:
    """Switch sun mode with its toggle in the header, one tap, as a person does."""
    toggle = page.locator("#sun-toggle")
    if (toggle.get_attribute("aria-pressed") == "true") != on:
        # a modal dialog open (the dashboard's detail) makes the header inert to the pointer:
        # the toggle's own tap is tested by itself, here only the colours matter
        toggle.dispatch_event("click")
    expect(toggle).to_have_attribute("aria-pressed", "true" if on else "false")
    expect(page.locator("html")).to_have_class(
        re.compile(r"\bsun\b") if on else re.compile("^(?!.*\\bsun\\b)")
    )


#: every element that shows text of its own, whose text is wider than its box (a long Dutch
#: compound, a name without a break); boxes that scroll on purpose (a wide table's wrapper)
#: and text cut on purpose with an ellipsis are the page's choice, not an overflow
OVERFLOWING = """() => {
  const out = [];
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) {
    out.push(`the page: ${page.scrollWidth} px wide in ${page.clientWidth}`);
  }
  for (const el of document.body.querySelectorAll("*")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest(".sr-only, [hidden], script, style, svg")) continue;
    const style = getComputedStyle(el);
    if (style.display === "inline" || style.display === "none") continue;
    if (style.visibility === "hidden" || el.getClientRects().length === 0) continue;
    if (["auto", "scroll"].includes(style.overflowX) || style.textOverflow === "ellipsis") continue;
    if (el.clientWidth <= 1 && style.overflow === "hidden") continue;  // shown to screen readers
    if (el.scrollWidth > el.clientWidth + 1) {
      const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
        (el.classList.length ? "." + [...el.classList].join(".") : "");
      out.push(`${name} "${el.textContent.trim().slice(0, 40)}": ${el.scrollWidth} px in ` +
        `${el.clientWidth}`);
    }
  }
  return out;
}"""


def scan(page: Page, name: str, state: str, opener, failures: list[str]) -> None:
    """Scan ``page`` as it is, then in sun mode (AAA contrast on); collect what fails. A
    Dutch page's text boxes are measured too: none may overflow (issue 41)."""
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == opener.lang, "the page's lang"
    if opener.lang == "nl":
        page.evaluate("document.getAnimations().forEach(a => a.finish())")
        wide = page.evaluate(OVERFLOWING)
        if wide:
            failures.append(f"{name} [{state}, text overflowing its box]:\n" + "\n".join(wide))
    for sun in (False, True):
        set_sun(page, sun)
        page.evaluate("document.getAnimations().forEach(a => a.finish())")  # colours at rest
        response = run_axe(page, SUN_OPTIONS if sun else OPTIONS)
        record(name, state, opener, sun, response)
        bad = serious(response)
        if sun:
            bad += [v for v in response["violations"] if v["id"] == "color-contrast-enhanced"]
        if bad:
            mode = "sun" if sun else "normal"
            failures.append(f"{name} [{state}, {mode}]:\n{describe(bad)}")
        if os.environ.get("A11Y_SHOTS") and opener.width == "phone":
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot = SHOTS / f"{name}-{state}-{opener.lang}-{'sun' if sun else 'normal'}.png"
            page.screenshot(path=str(shot), full_page=True)
    set_sun(page, False)


# -- the pages and their states -----------------------------------------------------------


def online(page: Page) -> None:
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bon\b"))


def live(open_page, url: str, round: str, name: str) -> Page:
    """Open the live page ``name`` of ``round`` in a new context; return it once online."""
    page = open_page()
    page.goto(f"{url}/rounds/{round}/{name}")
    online(page)
    # the parts the round's data fills are kept out of the page until it has come (pace.css,
    # data-loading): scanned before, they would not be scanned at all
    expect(page.locator("#app")).not_to_have_attribute("data-loading", "")
    return page


def go_offline(page: Page) -> None:
    page.context.set_offline(True)
    expect(page.locator("#conn")).to_have_class(re.compile(r"\boff\b"))


def home(open_page, url, scan_as):
    page = open_page()
    page.goto(url + "/")
    expect(page.locator("tr.round")).to_have_count(2)
    scan_as(page, "signed in")
    public = open_page(signed=False)
    public.goto(url + "/")
    scan_as(public, "signed out")


def sign_in_form(open_page, url, scan_as, path: str, wrong: str, state: str) -> None:
    """/join or /login, signed out: the form, then ``wrong`` sent and its error shown."""
    page = open_page(signed=False)
    page.goto(url + path)
    scan_as(page, "form")
    page.locator("input[name='code']").fill(wrong)
    page.locator("form.code-form button[type='submit']").click()
    expect(page.locator("p.error")).to_be_visible()
    scan_as(page, state)


def join(open_page, url, scan_as):
    sign_in_form(open_page, url, scan_as, "/join", "WRONG-CODE", "wrong code")


def login(open_page, url, scan_as):
    sign_in_form(open_page, url, scan_as, "/login", "WRONG-SECRET", "wrong secret")


def marshal(open_page, url, scan_as):
    page = live(open_page, url, EMPTY, "marshal")
    expect(page.locator("#holes .chip")).not_to_have_count(0)
    scan_as(page, "empty, no hole chosen")
    page.locator("label[for='hole-2']").click()
    expect(page.locator(".check").first).to_be_visible()
    scan_as(page, "a check asked")
    page = live(open_page, url, PLAY, "marshal")
    # a hole of its own for each case: the groups due there are not logged by another case
    hole = 3 + CASES.index((open_page.lang, open_page.width))
    page.locator(f"label[for='hole-{hole}']").click()
    page.locator("button.tap").first.click()
    expect(page.locator("li.entry[data-state='confirmed']")).to_have_count(1)
    scan_as(page, "in play")
    go_offline(page)
    page.locator("button.tap").first.click()
    expect(page.locator("li.entry[data-state='queued']")).to_have_count(1)
    expect(page.locator("#offline-note")).to_be_visible()
    scan_as(page, "offline, a tap queued")


def dashboard(open_page, url, scan_as):
    page = live(open_page, url, EMPTY, "dashboard")
    expect(page.locator("tr.group-row")).to_have_count(6)
    scan_as(page, "empty")
    page = live(open_page, url, PLAY, "dashboard")
    expect(page.locator("li.alert[data-kind='out_of_position']").first).to_be_visible()
    expect(page.locator("li.pen-row").first).to_be_visible()
    expect(page.locator("#penalties button.unlisted")).to_be_visible()  # 1 not counted
    scan_as(page, "in play, alerts open")
    # the course strip rewound to the morning (issue 40), then projected ahead of now
    expect(page.locator("#strip-lanes li.strip-group")).to_have_count(6)
    for hour, mode in ((9, "rewound"), (15, "ahead")):
        minute = int(local_today(hour).timestamp() // 60)
        page.evaluate(
            """(m) => { const s = document.getElementById('strip-at'); s.value = String(m);
                s.dispatchEvent(new Event('input', {bubbles: true})); }""",
            minute,
        )
        expect(page.locator("#strip")).to_have_attribute("data-mode", mode)
        expect(page.locator("#strip-lanes li.strip-group")).to_have_count(6)
        scan_as(page, f"the course strip {mode}")
    page.locator("#strip-now").click()
    page.locator("tr.group-row[data-group='1']").click()
    expect(page.locator("dialog#detail")).to_be_visible()
    scan_as(page, "a group's detail open")
    page.keyboard.press("Escape")
    siren = page.locator("button.siren").first
    siren.click()
    expect(page.locator("#siren-confirm")).to_be_visible()
    scan_as(page, "a siren to confirm")
    page.locator("#siren-confirm button").last.click()
    go_offline(page)
    scan_as(page, "offline")


def shotclock(open_page, url, scan_as):
    page = live(open_page, url, EMPTY, "shotclock")
    expect(page.locator("button.group-choice")).to_have_count(6)
    scan_as(page, "empty, no group chosen")
    page = live(open_page, url, PLAY, "shotclock")
    page.locator("button.group-choice[data-group='1']").click()
    expect(page.locator("#timing-state .on-clock")).to_be_visible()
    expect(page.locator("li.fault.awaiting").first).to_be_visible()  # a bad time, not told yet
    expect(page.locator("li.player .unlisted")).to_be_visible()  # and one not counted
    scan_as(page, "a group on the clock, a bad time to tell")
    page.locator("li.player button.player-pick").nth(1).click()
    page.locator("#startstop").click()
    expect(page.locator("#countdown")).to_have_class(re.compile(r"\brunning\b"))
    scan_as(page, "a stroke timed")
    page.locator("#cancel-run").click()
    go_offline(page)
    scan_as(page, "offline")


def scorecard(open_page, url, scan_as):
    page = live(open_page, url, EMPTY, "scorecard")
    scan_as(page, "empty, no group chosen")
    page = live(open_page, url, PLAY, "scorecard")
    # a group of its own for each case (3 is the tap targets'): its hole 1 not scored yet
    group = ("1", "2", "4", "5", "6")[CASES.index((open_page.lang, open_page.width))]
    page.locator("#group").select_option(group)
    expect(page.locator("#hole-panel")).to_be_visible()
    page.locator(".ball .stepper button").first.click()
    scan_as(page, "a hole being entered")
    page.locator("#save-hole").click()
    expect(page.locator("li.entry[data-state='confirmed']").first).to_be_visible()
    go_offline(page)
    page.locator("#save-hole").click()
    expect(page.locator("li.entry[data-state='queued']").first).to_be_visible()
    scan_as(page, "offline, a hole queued")


def board(open_page, url, scan_as):
    page = live(open_page, url, EMPTY, "board")
    expect(page.locator("#board-body tr").first).to_be_visible()
    scan_as(page, "empty")
    page.goto(f"{url}/rounds/{PLAY}/board")
    online(page)
    expect(page.locator(".board-row.timed").first).to_be_visible()
    scan_as(page, "in play")


def leaderboard(open_page, url, scan_as):
    page = open_page(signed=False)
    page.goto(f"{url}/rounds/{EMPTY}/leaderboard")
    online(page)
    expect(page.locator("tr.lb-row").first).to_be_visible()
    scan_as(page, "empty")
    page.goto(f"{url}/rounds/{PLAY}/leaderboard")
    online(page)
    expect(page.locator("tr.lb-row").first).to_be_visible()
    page.locator("tr.lb-row").first.click()
    scan_as(page, "in play")


def results_sheet(open_page, url, scan_as):
    page = open_page()
    page.goto(f"{url}/rounds/{PLAY}/leaderboard")
    online(page)
    expect(page.locator("#sheet-link")).to_be_visible()  # the committee's button
    scan_as(page, "the committee's leaderboard")
    page.locator("#sheet-link").click()
    expect(page.locator("section.standings").first).to_be_visible()
    scan_as(page, "in play")


def audit(open_page, url, scan_as):
    page = open_page()
    page.goto(f"{url}/rounds/{EMPTY}/audit")
    scan_as(page, "empty")
    page.goto(f"{url}/rounds/{PLAY}/audit")
    expect(page.locator("table.audit tbody tr").first).to_be_visible()
    scan_as(page, "in play")
    page.locator("a.raw-toggle").click()
    scan_as(page, "raw")


def access(open_page, url, scan_as):
    page = open_page()
    page.goto(f"{url}/rounds/{EMPTY}/access")
    scan_as(page, "form")
    # the form that makes codes (the table below has a revoke form per code made earlier)
    page.locator("form:has(input[name='label']) button[type='submit']").click()
    expect(page.locator(".access-card").first).to_be_visible()
    scan_as(page, "a code made")


def report(open_page, url, scan_as):
    page = open_page()
    page.goto(f"{url}/rounds/{EMPTY}/report")
    scan_as(page, "empty")
    page.goto(f"{url}/rounds/{PLAY}/report")
    expect(page.locator("section.summary")).to_be_visible()
    scan_as(page, "in play")


def offenders(open_page, url, scan_as):
    page = open_page()
    page.goto(url + "/offenders")
    scan_as(page, "the last months")


def time_pars(open_page, url, scan_as):
    page = open_page()
    page.goto(url + "/committee/time-pars")
    scan_as(page, "the form")
    page.locator("#calibrate button[type='submit']").click()
    expect(page.locator("#cal-rounds")).to_be_visible()
    scan_as(page, "a course without history")


def signin(open_page, url, scan_as):
    page = open_page(signed=False)
    page.goto(url + "/signin")
    # the form only: a wrong password per case would use up this address's attempts
    scan_as(page, "form")


def account_setup(open_page, url, scan_as):
    page = open_page(signed=False)
    page.goto(f"{url}/account/setup?token={SETUP_TOKEN}")
    scan_as(page, "form")
    page.locator("#setup-form input[name='password']").fill("first-password-1")
    page.locator("#setup-form input[name='again']").fill("second-password-2")
    page.locator("#setup-form button[type='submit']").click()
    expect(page.locator("p.error")).to_be_visible()
    scan_as(page, "two passwords that differ")
    page.goto(f"{url}/account/setup?token=used-or-never-made")
    expect(page.locator("p.error")).to_be_visible()
    scan_as(page, "a used link")


def members(open_page, url, scan_as):
    page = open_page()  # the committee's secret: the default club's committee
    page.goto(url + "/club/members")
    expect(page.locator("table.members tr.member").first).to_be_visible()
    scan_as(page, "people and log")
    # a person of its own for each case: the link shown once
    n = CASES.index((open_page.lang, open_page.width))
    form = page.locator("#add-member")
    form.locator("input[name='name']").fill(f"Person {n}")
    form.locator("input[name='email']").fill(f"person-{n}@rgca.test")
    form.locator("button[type='submit']").click()
    expect(page.locator(".made code.setup-link")).to_be_visible()
    scan_as(page, "a link shown")


def clubs_and_admin(open_page, url, scan_as):
    page = open_page(signed=False)
    page.goto(url + "/signin")
    page.locator("#signin-form input[name='email']").fill(ADMIN[0])
    page.locator("#signin-form input[name='password']").fill(ADMIN[2])
    page.locator("#signin-form button[type='submit']").click()
    page.wait_for_url(url + "/")
    page.goto(url + "/clubs")
    scan_as(page, "a club and the instance")
    page.locator("li.club[data-club=''] button").click()
    page.wait_for_url(url + "/")
    page.goto(url + "/admin")
    expect(page.locator("table.clubs tr.club").first).to_be_visible()
    scan_as(page, "the clubs")


PAGES = {
    f.__name__: f
    for f in (
        join, login, home, marshal, dashboard, shotclock, scorecard, board, leaderboard,
        results_sheet, audit, access, report, offenders, time_pars, signin, account_setup,
        members, clubs_and_admin,
    )
}  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS, indirect=True)
@pytest.mark.parametrize("name", list(PAGES))
def test_no_serious_or_critical_axe_violation_in_any_state(name, case, a11y_server):
    server, _ = a11y_server
    failures: list[str] = []

    def scan_as(page: Page, state: str) -> None:
        scan(page, name, state, case, failures)

    PAGES[name](case, server.url, scan_as)
    assert not failures, "\n\n".join(failures)


# -- tap targets --------------------------------------------------------------------------

#: the smallest tap target and the least gap between two (issue 29; WCAG 2.5.5 asks 44)
TARGET_PX, GAP_PX = 48, 8

#: every button, link and form control of the page's main part, measured as rendered: a
#: checkbox or radio wrapped in its label is tapped on the label, so the label is measured;
#: hidden controls (no box) are not measured
MEASURE = """() => {
  // a sticky bar (the shot clock's dock) is measured where it sits in the page's flow: stuck,
  // it floats over whatever is scrolled beneath it, which the referee scrolls out from under it
  const stuck = [...document.querySelectorAll("main *")].filter(
    (n) => getComputedStyle(n).position === "sticky");
  for (const n of stuck) n.style.position = "static";
  const seen = new Set();
  const boxes = [];
  for (const node of document.querySelectorAll(
      "main button, main a[href], main input:not([type=hidden]), main select, main summary")) {
    const box = node.matches("input[type=checkbox], input[type=radio]");
    const wrapped = box && node.closest("label");
    const target = wrapped || node;
    if (seen.has(target)) continue;
    seen.add(target);
    const r = target.getBoundingClientRect();
    const shown = r.width > 0 && r.height > 0 && getComputedStyle(target).visibility !== "hidden";
    if (!shown) continue;
    const name = (target.id ? "#" + target.id : target.tagName.toLowerCase() + "." +
      [...target.classList].join(".")) + " " + (target.textContent || "").trim().slice(0, 30);
    boxes.push({name, left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX,
      bottom: r.bottom + scrollY});
  }
  for (const n of stuck) n.style.position = "";
  return boxes;
}"""


def tap_target_faults(page: Page) -> tuple[int, list[str]]:
    """Return how many targets were measured and those too small or too close."""
    boxes = page.evaluate(MEASURE)
    faults = []
    for b in boxes:
        w, h = b["right"] - b["left"], b["bottom"] - b["top"]
        if w < TARGET_PX - 0.01 or h < TARGET_PX - 0.01:
            faults.append(f"{b['name']!r}: {w:.1f}×{h:.1f} px")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            dx = max(0.0, b["left"] - a["right"], a["left"] - b["right"])
            dy = max(0.0, b["top"] - a["bottom"], a["top"] - b["bottom"])
            if max(dx, dy) < GAP_PX - 0.01:
                faults.append(f"{a['name']!r} and {b['name']!r}: {max(dx, dy):.1f} px apart")
    return len(boxes), faults


def marshal_in_play(page: Page, url: str) -> None:
    page.goto(f"{url}/rounds/{PLAY}/marshal")
    online(page)
    # holes of their own (the axe cases log on 3 to 6): groups are still due there
    page.locator("label[for='hole-9']").click()
    page.locator("label[for='hole-10']").click()
    page.locator("button.tap").first.click()
    expect(page.locator("li.entry[data-state='confirmed']").first).to_be_visible()
    page.locator("li.entry[data-state='confirmed'] button").first.click()  # its panel open
    page.locator("details.me summary").click()


def shotclock_in_play(page: Page, url: str) -> None:
    page.goto(f"{url}/rounds/{PLAY}/shotclock")
    online(page)
    page.locator("button.group-choice[data-group='1']").click()
    expect(page.locator("li.fault.awaiting").first).to_be_visible()
    page.locator("li.player button.player-pick").nth(2).click()
    page.locator("details#credit-box summary").click()
    page.locator("button.group-choice").first.focus()
    page.locator("details#groups-box summary").click()  # the list open again, its buttons too


def scorecard_in_play(page: Page, url: str) -> None:
    page.goto(f"{url}/rounds/{PLAY}/scorecard")
    online(page)
    page.locator("#group").select_option("3")
    expect(page.locator("#hole-panel")).to_be_visible()


@pytest.mark.parametrize(
    "case",
    [("en", "phone"), ("fr", "phone"), ("nl", "phone")],
    ids=["en", "fr", "nl"],
    indirect=True,
)
@pytest.mark.parametrize(
    "name, open_in_play",
    [("marshal", marshal_in_play), ("shotclock", shotclock_in_play),
     ("scorecard", scorecard_in_play)],
)  # fmt: skip
def test_tap_targets_are_48_px_and_8_px_apart_on_a_phone(name, open_in_play, case, a11y_server):
    server, _ = a11y_server
    page = case()
    open_in_play(page, server.url)
    for sun in (False, True):
        set_sun(page, sun)
        measured, faults = tap_target_faults(page)
        assert measured >= 10, f"{name}: only {measured} controls measured"
        assert not faults, f"{name} ({'sun' if sun else 'normal'}):\n" + "\n".join(faults)


# -- sun mode -------------------------------------------------------------------------------


def test_sun_mode_is_one_tap_kept_by_the_phone_and_painted_before_the_page(a11y_server, case_en):
    server, _ = a11y_server
    page = case_en()
    page.goto(f"{server.url}/rounds/{PLAY}/marshal")
    normal = page.evaluate("getComputedStyle(document.body).fontSize")
    page.locator("#sun-toggle").click()
    expect(page.locator("html")).to_have_class(re.compile(r"\bsun\b"))
    expect(page.locator("#sun-toggle")).to_have_attribute("aria-pressed", "true")
    large = page.evaluate("getComputedStyle(document.body).fontSize")
    assert float(large.removesuffix("px")) >= 1.2 * float(normal.removesuffix("px"))

    # another page of the site, opened afterwards: in sun mode from its first paint (the
    # class is there before the body is parsed: the head's script, not a late module)
    other = page.context.new_page()
    other.add_init_script(
        """new MutationObserver(() => {
             if (document.body && window.sunAtBody === undefined)
               window.sunAtBody = document.documentElement.classList.contains("sun");
           }).observe(document, {childList: true, subtree: true});"""
    )
    other.goto(f"{server.url}/rounds/{PLAY}/report")
    assert other.evaluate("window.sunAtBody") is True
    expect(other.locator("#sun-toggle")).to_have_attribute("aria-pressed", "true")
    other.locator("#sun-toggle").click()  # off again, for every page of this phone
    page.reload()
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bsun\b"))


# -- screen readers -----------------------------------------------------------------------


def test_a_new_alert_is_spoken_on_the_dashboard(a11y_server, case_en):
    server, secret = a11y_server
    page = case_en()
    page.goto(f"{server.url}/rounds/{PLAY}/dashboard")
    online(page)
    expect(page.locator("tr.group-row")).to_have_count(6)
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "assertive")
    before = announce.text_content()
    token = server.post_json("/api/session", {"code": secret}, token="")["token"]
    # group 4 (off at 08:30) completing hole 1 at 09:50 falls out of position (group 3 ahead
    # logged hole 1; behind group 4, whose own tap there is missing, group 5's verdict would
    # rest on its estimate and raise no alert: docs/estimates.md)
    _command(server, token, PLAY, "hole_completed", group="4", hole=1,
             at=local_today(9, 50).isoformat())  # fmt: skip
    expect(page.locator("li.alert[data-group='4'][data-kind='out_of_position']")).to_have_count(1)
    expect(announce).to_have_text("Group 4 out of position (hole 1)")
    assert before != announce.text_content()


FOCUS_SHOWN = """() => {
  const s = getComputedStyle(document.activeElement);
  return s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2;
}"""


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focus is on ``selector``, checking at each stop that it shows."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") not in ("BODY", "HTML"):
            assert page.evaluate(FOCUS_SHOWN), page.evaluate("document.activeElement.outerHTML")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} not reached with {limit} presses of Tab")


def test_a_whole_stroke_is_timed_with_the_keyboard_alone_and_spoken(a11y_server, case_en):
    """Choose the group, the player, START and STOP with keys only; the clock's expiry and
    the bad time are spoken through the live region."""
    server, _ = a11y_server
    page = case_en(clock=True)
    page.goto(f"{server.url}/rounds/{PLAY}/shotclock")
    online(page)
    announce = page.locator("#announce")

    tab_to(page, "button.group-choice[data-group='1']")
    page.keyboard.press("Enter")
    expect(page.locator("#timing-state .on-clock")).to_be_visible()
    player = page.locator("li.player").nth(1)
    name = player.get_attribute("data-player")
    tab_to(page, f'li.player[data-player="{name}"] button.player-pick')
    page.keyboard.press("Space")
    expect(page.locator("#next-name")).to_have_text(name)
    tab_to(page, "#startstop")
    page.keyboard.press("Enter")
    expect(page.locator("#startstop")).to_have_text("STOP")
    assert page.evaluate("document.activeElement.id") == "startstop"

    page.clock.fast_forward("00:45")
    expect(page.locator("#countdown")).to_have_class(re.compile(r"\bover\b"))
    expect(announce).to_have_text(f"Time is up: {name}, 40 s")
    page.keyboard.press("Enter")  # STOP, the focus still on the button
    result = page.locator("#result")
    expect(result).to_have_attribute("data-state", "confirmed", timeout=25000)
    expect(result).to_have_attribute("data-bad", "true")
    expect(announce).to_have_text(
        re.compile(rf"^{re.escape(name)}: Bad time: 4\d(\.\d)? s for 40 s")
    )
