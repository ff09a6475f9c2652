"""Every page and document in Dutch and in French, read against its English (issue 47).

"A test renders every page and document in Dutch and in French and fails on any sentence the
catalogue did not give (the English rendering is the reference of what is a sentence)."

One ``pace serve`` over a database with two rounds: ``R1``, today's, in play (holes logged and
one corrected, group 1 out of position and on the clock with a bad time told and a penalty, a
player withdrawn, scores entered), and ``demo``, yesterday's demo round played to the end
(a suspension, the referees' acts, every card scored, the results final). Each page is opened
in headless Chromium by every role (a refusal is a page too), in English, French and Dutch (a
browser context per role and language: its ``Accept-Language``), and its text is read once its
script has drawn it, and again after what a person does there: every text node (those of
``<template>`` too), the title, and the ``title``, ``placeholder``, ``aria-label``, ``alt``
attributes and buttons' values. Documents come the way people get them: the CSV files and the
PDFs over HTTP, the offline timing sheet and ``pace results`` from the command line.

A French or Dutch text is an **offender** when it has letters and

- is the very text the English page shows, or an English sentence of the catalogue, while the
  catalogue of its language did not give it (a Dutch "Start" or "Hole" is the catalogue's own
  Dutch, and passes);
- or writes an English word its own catalogue never writes ("par committee"), a decimal
  point (``4.2``: French and Dutch write ``4,2``), an ISO day (``2026-06-14``: they write
  ``14/06/2026``), or a raw code (``alert_raised``);

unless it is data: the names the draw and the course give, what a person typed (a referee's
note), or a word every language writes alike (``SAME``). Each offender is printed as page,
language, text. The routes a browser may ask for are walked from the app's URL map: a GET
route neither visited here nor skipped with its reason (``SKIPPED``) fails the test.
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
import re
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, available_timezones

import pytest
from browser.conftest import local_today
from livesupport import COURSE, DRAW, TIMEZONE, LiveServer, live_server
from playwright.sync_api import Browser, BrowserContext, Page, expect
from reportsupport import report_database

from pace import config
from pace.formats.draw import CLASSES
from pace.i18n import catalog as catalogue_files
from pace.services import scores as scores_service
from pace.services.access import AccessService
from pace.services.accounts import Accounts
from pace.services.rounds import RoundService
from pace.store import open_store

pytestmark = pytest.mark.browser

LANGS = ("en", "fr", "nl")
LOCALES = {"en": "en-GB", "fr": "fr-BE", "nl": "nl-BE"}
LIVE, DONE = "R1", "demo"
DESK = {"width": 1280, "height": 900}

# -- the round ------------------------------------------------------------------------------

#: what people typed in the rounds (data: shown as typed, in whatever language it was typed)
TYPED = (
    # the referees' acts of the demo round (tests/reportsupport.py) and their names
    "searched 4 minutes on the 6th", "ruling on an embedded ball", "Anne Dubois", "tablet-1",
    "Comité", "import",
    # a referee's stop whose reason he typed himself (tests/reportsupport.py), as stored
    "back in position",
    # this module's: a tap corrected, a withdrawal
    "wrong tap", "ill",
    # the people's own accounts and the clubs (``ACCOUNTS``): names and e-mail addresses
    "Anna Peeters", "anna@rgca.test", "Ada Admin", "ada@federation.test", "Noor Claes",
    "noor@rgca.test", "Lars Claes", "lars@rgca.test", "nobody@rgca.test",
)  # fmt: skip

#: people's own accounts (issue 50), each signed in at /signin: a committee member of the
#: ``default`` club who referees in another club too, and an administrator of the instance
ACCOUNTS = {
    "person": ("anna@rgca.test", "Anna Peeters", "anna-password-1"),
    "admin": ("ada@federation.test", "Ada Admin", "ada-password-1"),
}
OTHER_CLUB = ("rgc-antwerp", "Royal Golf Club Antwerpen")
#: the one-time link of a new account that has not chosen its password (Noor Claes)
SETUP_TOKEN = "every-page-setup-link-0123456789"


#: the roles a page is opened as: nobody signed in, a code of R1 of each role, R1's committee
#: code (which the console's pages over every round refuse; on R1's own pages it is the
#: committee, whose secret opens them), the committee's secret
ROLES = ("visitor", "viewer", "marshal", "scorer", "referee", "committee-code", "committee")
CODED = {"viewer": "viewer", "marshal": "marshal", "scorer": "scorer", "referee": "referee",
         "committee-code": "committee"}  # fmt: skip


def build_database(folder: Path) -> tuple[Path, str, dict[str, str]]:
    """Write the two rounds' database; return it, the committee's secret and a code of R1
    per role (in-process, as ``pace import``, ``pace import scores`` and ``pace access code``
    would)."""
    today = datetime.now(ZoneInfo(TIMEZONE)).date()
    db = report_database(folder, groups=6, day=today - timedelta(days=1))
    store = open_store(db)
    try:
        settings = config.Settings()
        service = RoundService(store, settings)
        record = service.round_view(DONE).record
        rng = random.Random(47)
        cards = io.StringIO()
        out = csv.writer(cards, lineterminator="\n")
        out.writerow(["group", "player", "hole", "strokes"])
        for group in record.groups:
            for player in group.players:
                for hole in record.course.holes:
                    out.writerow([group.id, player.name, hole.number,
                                  hole.par + rng.choice((-1, 0, 0, 1, 1, 2))])  # fmt: skip
        scores_service.import_scores(service, cards.getvalue(), "cards.csv", round=DONE,
                                     by="Comité")  # fmt: skip
        course = service.import_course(COURSE.read_text(encoding="utf-8"), COURSE.name)
        service.import_draw(
            DRAW.read_text(encoding="utf-8"), DRAW.name, round=LIVE, day=today,
            timezone=TIMEZONE, course=course.name,
        )  # fmt: skip
        access = AccessService(store, settings, service.clock)
        secret = access.ensure_committee_account()
        assert secret is not None
        codes = {role: access.create_code(LIVE, kind) for role, kind in CODED.items()}
        # the people's own accounts, as ``pace club add`` and ``pace account add`` make them,
        # their passwords chosen; Noor's link not used yet (its digest stored, as the service
        # stores one)
        accounts = Accounts(store, access, service.clock)
        accounts.add_club(*OTHER_CLUB, by="Comité")
        for role, (email, name, password) in ACCOUNTS.items():
            made = accounts.add_account(email, name, admin=role == "admin", by="Comité")
            if role == "person":
                accounts.set_role("default", made.account.id, "committee", by="Comité")
                accounts.set_role(OTHER_CLUB[0], made.account.id, "referee", by="Comité")
            accounts.finish_setup(made.token, password, password)
        noor = accounts.add_member("default", "noor@rgca.test", "Noor Claes", "referee",
                                   by="Comité")  # fmt: skip
        store.set_setup(noor.account.id, hashlib.sha256(SETUP_TOKEN.encode()).hexdigest(),
                        service.clock.now() + timedelta(days=7))  # fmt: skip
    finally:
        store.close()
    return db, secret, codes


def command(server: LiveServer, token: str, round: str, name: str, **fields: object) -> dict:
    """Send ``name`` to ``round`` over HTTP on the server's clock; assert it is ok."""
    now = server.get_json(f"/api/rounds/{round}/snapshot", token=token)["snapshot"]["at"]
    body = {"id": str(uuid.uuid4()), "round": round, "device_time": now, **fields}
    answer = server.post_json(f"/api/commands/{name}", body, token=token)
    assert answer["ok"], (name, answer)
    return answer


def play(server: LiveServer, token: str) -> None:
    """R1 in play at noon (see the module's docstring); the demo round's results final."""
    at = local_today
    for group, hole, when in (("1", 1, at(8, 40)), ("2", 1, at(8, 14)), ("3", 1, at(8, 30)),
                              ("2", 2, at(8, 30)), ("4", 1, at(8, 47))):  # fmt: skip
        tap = command(server, token, LIVE, "hole_completed", group=group, hole=hole,
                      at=when.isoformat())  # fmt: skip
    command(server, token, LIVE, "correct_hole_time", target=tap["id"],
            at=at(8, 45).isoformat(), reason="wrong tap")  # fmt: skip
    decided = at(11, 40)
    command(server, token, LIVE, "decide_timing", group="1", decision="time",
            at=decided.isoformat())  # fmt: skip
    for i, player in enumerate(("Marie Lavoie", "Julie Gagnon", "Sophie Tremblay")):
        command(server, token, LIVE, "tell_player_timed", group="1", player=player,
                at=(decided + timedelta(seconds=20 * (i + 1))).isoformat())  # fmt: skip
    for minute in (2, 4):  # a bad time, told; then a second one: a penalty stroke (frbg)
        stopped = decided + timedelta(minutes=minute)
        bad = command(
            server, token, LIVE, "record_stroke", group="1", player="Marie Lavoie", hole=2,
            kind="other", first_to_play=False,
            started=(stopped - timedelta(seconds=52.5)).isoformat(), stopped=stopped.isoformat(),
        )  # fmt: skip
        if minute == 2:
            command(server, token, LIVE, "notify_player", group="1", player="Marie Lavoie",
                    fault=bad["id"], at=(stopped + timedelta(seconds=30)).isoformat())  # fmt: skip
    command(server, token, LIVE, "change_withdraw", player="René Hébert", reason="no_show",
            note="ill")  # fmt: skip
    for hole, strokes in ((1, 4), (2, 6)):
        command(server, token, LIVE, "record_score", group="2", player="Luc Côté", hole=hole,
                strokes=strokes)  # fmt: skip
    command(server, token, DONE, "round_finish")
    command(server, token, DONE, "round_final")


def round_data(db: Path) -> tuple[str, ...]:
    """Every name the rounds' setup gives (players, clubs, groups, courses, rounds: those of
    the draw's file too, a player withdrawn since), the instance's clubs (their ids and names,
    ``default`` and ``Club`` the single club's), what people typed (``TYPED``) and the names
    that are no round's (``NAMES``), longest first."""
    store = open_store(db)
    try:
        service = RoundService(store, config.Settings())
        words: set[str] = {*TYPED, *NAMES}
        words |= {word for club in store.clubs() for word in (club.id, club.name)}
        for summary in service.list_rounds():
            record = service.round_view(summary.name).record
            words |= {record.name, record.course.name}
            for group in record.groups:
                words.add(group.id)
                for player in group.players:
                    words |= {player.name, player.club or ""}
    finally:
        store.close()
    with DRAW.open(encoding="utf-8") as f:
        words |= {row[key] or "" for row in csv.DictReader(f) for key in ("player", "club")}
    return tuple(sorted((w for w in words if w), key=len, reverse=True))


@dataclass
class Site:
    """The served database: its server, the committee's secret, R1's codes, its data."""

    server: LiveServer
    secret: str
    codes: dict[str, str]
    data: tuple[str, ...]
    folder: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("every-page")
    db, secret, codes = build_database(folder)
    origin = local_today(12).isoformat()
    with live_server(folder, db=db, extra_args=["--clock-origin", origin, "--tick", "0.2"]) as s:
        answer = s.post_json("/api/session", {"code": secret}, token="")
        assert answer.get("ok"), answer
        play(s, answer["token"])
        yield Site(s, secret, codes, round_data(db), folder)


# -- the pages a person opens ---------------------------------------------------------------


def find_nobody(page: Page) -> None:
    """Look for a group or a name that is not there (the board's and leaderboard's field)."""
    page.locator("#find").fill("Zzyzx")
    expect(page.locator("#find-none")).to_be_visible()


def choose_hole(page: Page) -> None:
    page.locator("label[for='hole-2']").click()
    expect(page.locator("button.tap").first).to_be_visible()


def open_group(page: Page) -> None:
    page.locator("tr.group-row[data-group='1']").click()
    expect(page.locator("dialog#detail")).to_be_visible()


def time_group(page: Page) -> None:
    page.locator("button.group-choice[data-group='1']").click()
    expect(page.locator("#timing-state .on-clock")).to_be_visible()


def score_group(page: Page) -> None:
    page.locator("#group").select_option("2")
    expect(page.locator("#hole-panel")).to_be_visible()


def make_codes(page: Page) -> None:
    page.locator("form:has(input[name='label']) button[type='submit']").click()
    expect(page.locator(".access-card").first).to_be_visible()


def wrong_code(page: Page) -> None:
    page.locator("input[name='code']").fill("WRONG-CODE")
    page.locator("form.code-form button[type='submit']").click()
    expect(page.locator("p.error")).to_be_visible()


def wrong_password(page: Page) -> None:
    page.locator("#signin-form input[name='email']").fill("nobody@rgca.test")
    page.locator("#signin-form input[name='password']").fill("not-a-password")
    page.locator("#signin-form button[type='submit']").click()
    expect(page.locator("p.error")).to_be_visible()


def two_passwords(page: Page) -> None:
    """A new account's two passwords that differ: the page says so (the link kept)."""
    page.locator("#setup-form input[name='password']").fill("first-password-1")
    page.locator("#setup-form input[name='again']").fill("second-password-2")
    page.locator("#setup-form button[type='submit']").click()
    expect(page.locator("p.error")).to_be_visible()


def add_person(page: Page) -> None:
    """The committee adds a referee: their one-time link shown."""
    form = page.locator("#add-member")
    form.locator("input[name='name']").fill("Lars Claes")
    form.locator("input[name='email']").fill("lars@rgca.test")
    form.locator("select[name='role']").select_option("referee")
    form.locator("button[type='submit']").click()
    expect(page.locator(".made")).to_be_visible()


def rename_club(page: Page) -> None:
    """An administrator renames a club (to its own name): the log says so."""
    with page.expect_navigation():
        page.locator(f"tr.club[data-club='{OTHER_CLUB[0]}'] form.rename-form button").click()
    expect(page.locator("tr.log-line[data-kind='club_renamed']").first).to_be_visible()


def print_cards(page: Page) -> list[Text]:
    """The changes page's access cards: two marshals, a referee, a scorer (their PDF)."""
    for role, count in (("marshal", "2"), ("referee", "1"), ("scorer", "1")):
        page.locator(f"form#cards input[name='{role}']").fill(count)
    with page.expect_download() as download:
        page.locator("form#cards button[type='submit']").click()
    return pdf_text(download.value.path(), "cards")


def no_cards(page: Page) -> None:
    """The cards form sent with every count at 0: the page says the form is incomplete."""
    with page.expect_navigation():
        page.locator("form#cards button[type='submit']").click()


@dataclass(frozen=True)
class Visit:
    """A page (or document) one role opens, and what it then does on it."""

    id: str
    role: str
    path: str
    #: shown once the page has drawn what it shows (besides ``#conn`` and ``#app``'s loading)
    ready: str | None = None
    #: what the person does next: the texts it shows are read too (and those of a file it
    #: downloads, which it returns)
    act: Callable[[Page], list[Text] | None] | None = None
    #: ``page``; ``csv``, ``pdf`` (over HTTP); ``cli`` (``path`` is the command's arguments)
    kind: str = "page"
    #: the answers it may get (a page of the roles' matrix may be refused: 403)
    status: tuple[int, ...] = (200,)
    #: a CSV's columns written for people (its other columns are figures and codes)
    people: tuple[str, ...] = ()
    #: a CSV's columns that are the stored payload as it is (the audit's ``details``: the raw
    #: log's promise, docs/formats.md): neither sentences nor figures of the spreadsheet
    raw: tuple[str, ...] = ()


#: the pages of a round, each with what it shows once drawn and what a person does on it
ROUND_PAGES: dict[str, tuple[str | None, Callable[[Page], None] | None]] = {
    "marshal": ("#holes .chip", choose_hole),
    "dashboard": ("tr.group-row", open_group),
    "shotclock": ("button.group-choice", time_group),
    "scorecard": (None, score_group),
    "board": ("#board-body tr", find_nobody),
    "leaderboard": ("tr.lb-row", find_nobody),
    "audit": ("table.audit", None),
    "access": (None, make_codes),
    "report": ("section.summary", None),
    "letters": (None, None),
    "results": (None, None),
    "changes": ("#draw table", None),
}
#: the home page, and the console's pages over every round
GLOBAL_PAGES = ("/", "/committee", "/committee/time-pars", "/courses", "/courses/edit",
                "/rounds/new", "/offenders", "/privacy")  # fmt: skip
#: who opens the console's pages (every role opens the home page): the committee (its
#: secret), R1's committee code and a referee (both refused), a visitor (sent to sign in). A
#: refusal's sentence names the role and the page: every role meets one on the round's pages,
#: every page here
GLOBAL_ROLES = ("visitor", "referee", "committee-code", "committee")
#: a page of the roles' matrix: open to the role (200, or a redirect to /join for a visitor)
#: or refused (403)
MAY_REFUSE = (200, 403)


def visits() -> list[Visit]:
    """Every page for every role (a refusal is a page too), then the richer states and the
    documents."""
    out: list[Visit] = []
    for role in ROLES:
        for name, (ready, act) in ROUND_PAGES.items():
            if role == "committee-code":
                continue  # the committee on the round's pages: the secret's visits read them
            out.append(Visit(f"{name}-{role}", role, f"/rounds/{LIVE}/{name}", ready, act,
                             status=MAY_REFUSE))  # fmt: skip
        for path in GLOBAL_PAGES:
            name = path.strip("/").replace("/", "-") or "home"
            if path in ("/", "/privacy") or role in GLOBAL_ROLES:
                out.append(Visit(f"{name}-{role}", role, path, status=MAY_REFUSE))
    out += [
        # the finished round, its results final
        *(Visit(f"{name}-final", "committee", f"/rounds/{DONE}/{name}", ready)
          for name, (ready, _) in ROUND_PAGES.items()
          if name in ("dashboard", "board", "leaderboard", "audit", "report", "letters")),
        Visit("letters-per-group", "committee", f"/rounds/{DONE}/letters?per=group"),
        Visit("results-final-public", "visitor", f"/rounds/{DONE}/results"),
        Visit("report-chart", "committee", f"/rounds/{DONE}/report/chart.svg?group=1"),
        Visit("time-pars-course", "committee",
              "/committee/time-pars?course=Golf+de+d%C3%A9monstration", "#cal-rounds"),
        Visit("course-form-edit", "committee", "/courses/edit?name=Golf+de+Louiseville"),
        Visit("join", "visitor", "/join", act=wrong_code),
        Visit("login", "visitor", "/login", act=wrong_code),
        Visit("access-cards", "committee", f"/rounds/{LIVE}/changes", act=print_cards),
        Visit("access-cards-none", "committee", f"/rounds/{LIVE}/changes", act=no_cards),
        # people's own accounts and the clubs (issue 50): a wrong password, a new account's
        # link (two passwords that differ), a used one, a person's clubs, the committee's
        # people (one added), an administrator's clubs (one renamed); and their refusals
        Visit("signin", "visitor", "/signin", act=wrong_password),
        Visit("account-setup", "visitor", f"/account/setup?token={SETUP_TOKEN}",
              act=two_passwords),
        Visit("account-setup-used", "visitor", "/account/setup?token=used-or-never-made",
              status=(404,)),
        Visit("clubs", "person", "/clubs"),
        Visit("clubs-admin", "admin", "/clubs"),
        Visit("club-members", "person", "/club/members", act=add_person),
        Visit("admin", "admin", "/admin", act=rename_club),
        Visit("club-members-referee", "referee", "/club/members", status=(403,)),
        Visit("club-members-admin", "admin", "/club/members", status=(403,)),
        Visit("admin-person", "person", "/admin", status=(403,)),
        # the error pages
        Visit("not-found", "visitor", "/nope", status=(404,)),
        Visit("unknown-round", "committee", "/rounds/NOPE/board", status=(404,)),
        Visit("method-not-allowed", "visitor", "/logout", status=(405,)),
        # the documents
        # the spreadsheets' CSV (their column names and codes are the format's: docs/formats.md)
        Visit("report-csv", "committee", f"/rounds/{DONE}/report.csv?excel=1", kind="csv"),
        Visit("results-csv", "committee", f"/rounds/{DONE}/results.csv?excel=1", kind="csv"),
        Visit("audit-csv", "committee", f"/rounds/{LIVE}/audit.csv?excel=1", kind="csv",
              people=("what", "who", "why"), raw=("details",)),
        Visit("results-pdf", "committee", f"/rounds/{DONE}/results.pdf", kind="pdf"),
        Visit("timing-sheet", "visitor", f"sheet --course {COURSE} --draw {DRAW} --format html",
              kind="cli"),
        Visit("results-cli", "visitor", f"results --round {DONE}", kind="cli"),
    ]  # fmt: skip
    return out


VISITS = {v.id: v for v in visits()}


# -- reading a page ---------------------------------------------------------------------------

#: every text node (a ``<template>``'s too), the title, the attributes a person reads or hears,
#: and buttons' values; text in an element of another language (``lang``, the language
#: menu's names) is that language's, not the page's
READ = """() => {
  const out = [];
  const root = document.documentElement;
  const own = root.lang;
  const norm = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.classList && el.classList.length ? "." + [...el.classList].join(".") : "");
  const foreign = (el) => {
    const l = el.closest("[lang]");
    return !!(l && own && l.lang !== own);
  };
  const read = (top) => {
    const walk = document.createTreeWalker(top, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let n; (n = walk.nextNode()); ) {
      if (n.nodeType === 1) {
        if (n.tagName === "TEMPLATE") read(n.content);
        continue;
      }
      const el = n.parentElement;
      if (!el || el.closest("script, style, noscript") || foreign(el)) continue;
      const text = norm(n.textContent);
      if (text) out.push({text, where: name(el), code: !!el.closest("code, pre, kbd, samp")});
    }
  };
  read(document.body || root);
  if (norm(document.title)) out.push({text: norm(document.title), where: "title", code: false});
  const ATTRS = ["title", "placeholder", "aria-label", "alt", "aria-roledescription",
                 "aria-valuetext"];
  const templates = [...root.querySelectorAll("template")].map((t) => t.content);
  for (const el of [root, ...templates].flatMap((top) => [...top.querySelectorAll("*")])) {
    if (foreign(el)) continue;
    for (const a of ATTRS) {
      const v = norm(el.getAttribute(a));
      if (v) out.push({text: v, where: `${name(el)}@${a}`, code: false});
    }
    if (el.matches("input[type=submit], input[type=button], input[type=reset]") && norm(el.value))
      out.push({text: norm(el.value), where: `${name(el)}@value`, code: false});
  }
  return out;
}"""


@dataclass(frozen=True)
class Text:
    text: str
    where: str
    #: in ``<code>``, ``<pre>``, ``<kbd>``, ``<samp>``: a command or a file's text, as typed
    code: bool = False
    #: a figure of a data file (a CSV's columns that are not sentences): only its notation
    figure: bool = False


def settle(page: Page, ready: str | None) -> None:
    """Wait until the page has drawn what it shows: online, its data come, ``ready`` there."""
    page.wait_for_load_state("load")
    if page.locator("#conn").count():
        expect(page.locator("#conn")).to_have_class(re.compile(r"\bon\b"))
    if page.locator("#app[data-loading]").count():
        expect(page.locator("#app")).not_to_have_attribute("data-loading", "")
    if ready:
        expect(page.locator(ready).first).to_be_attached()


def read_page(page: Page) -> list[Text]:
    return [Text(**t) for t in page.evaluate(READ)]


def cells(text: str, where: str) -> list[Text]:
    """The cells of a terminal's table or a PDF's lines: split at two spaces or more."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for cell in re.split(r"\s{2,}|\t|\f", line.strip()):
            if cell.strip():
                out.append(Text(" ".join(cell.split()), f"{where} line {n}"))
    return out


def pdf_text(path: Path | str, where: str) -> list[Text]:
    """A PDF's text, as ``pdftotext -layout`` lays it out, in cells."""
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         check=True, text=True)  # fmt: skip
    return cells(out.stdout, where)


def csv_cells(body: bytes, visit: Visit) -> list[Text]:
    """A CSV file's cells under its header (the format's column names, the same in every
    language: docs/formats.md): the columns ``visit.people`` as sentences, the others as
    figures."""
    text = body.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";" if "excel=1" in visit.path else ","))
    header, out = rows[0], []
    for n, row in enumerate(rows[1:], 2):
        for column, cell in zip(header, row, strict=False):
            if cell.strip() and column not in visit.raw:
                out.append(Text(" ".join(cell.split()), f"row {n} {column}",
                                figure=column not in visit.people))  # fmt: skip
    return out


def command_line(
    visit: Visit, page_of: Callable[[str, str], Page], site: Site
) -> dict[str, list[Text]]:
    """The texts a command prints in each language (the three run side by side): an HTML
    document read in a page, else a terminal's table in cells."""
    runs = {}
    for lang in LANGS:
        args = [*visit.path.split(), "--lang", lang]
        if "--round" in args:
            args += ["--db", str(site.server.db)]
        runs[lang] = subprocess.Popen([sys.executable, "-m", "pace", *args], cwd=site.folder,
                                      stdout=subprocess.PIPE, text=True)  # fmt: skip
    out = {}
    for lang, run in runs.items():
        printed, _ = run.communicate(timeout=60)
        assert run.returncode == 0, (visit.id, lang, run.returncode)
        if printed.lstrip().lower().startswith("<!doctype"):
            page = page_of(visit.role, lang)
            page.set_content(printed)
            out[lang] = read_page(page)
        else:
            out[lang] = cells(printed, "terminal")
    return out


def document(visit: Visit, lang: str, page: Page, site: Site) -> list[Text]:
    """The texts of a document got over HTTP: a CSV, a PDF."""
    answer = page.request.get(site.server.url + visit.path,
                              headers={"Accept-Language": LOCALES[lang]})  # fmt: skip
    assert answer.status in visit.status, (visit.id, lang, answer.status)
    if visit.kind == "csv":
        return csv_cells(answer.body(), visit)
    pdf = site.folder / f"{visit.id}-{lang}.pdf"
    pdf.write_bytes(answer.body())
    return pdf_text(pdf, "pdf")


def render(visit: Visit, page_of: Callable[[str, str], Page], site: Site) -> dict[str, list[Text]]:
    """Return the texts ``visit`` shows in each language.

    The three languages' pages are asked for one after the other, each as soon as the one
    before has answered, and then read: they load, connect and draw side by side."""
    if visit.kind == "cli":
        return command_line(visit, page_of, site)
    if visit.kind != "page":
        return {lang: document(visit, lang, page_of(visit.role, lang), site) for lang in LANGS}
    url = site.server.url + visit.path
    pages = {lang: page_of(visit.role, lang) for lang in LANGS}
    answers = {lang: page.goto(url, wait_until="commit") for lang, page in pages.items()}
    out = {}
    for lang, page in pages.items():
        answer = answers[lang]
        assert answer is not None and answer.status in visit.status, (visit.id, lang, answer)
        page.wait_for_load_state("load")
        shown = answer.status == 200 and page.url.split("?")[0] == url.split("?")[0]
        settle(page, visit.ready if shown else None)
        if page.evaluate("document.documentElement.tagName") == "HTML":
            assert page.evaluate("document.documentElement.lang") == lang, (visit.id, lang)
        texts = read_page(page)
        if visit.act and shown:
            texts += visit.act(page) or []
            settle(page, None)
            texts += read_page(page)
        out[lang] = texts
    return out


@pytest.fixture(scope="module")
def rendered(site: Site, browser: Browser) -> Iterator[Callable[[str], dict[str, list[Text]]]]:
    """Return a visit's texts in each language (read once for the module). Each role has a
    context per language (its ``Accept-Language``), signed in with ``/join?code=``."""
    made: dict[tuple[str, str], tuple[BrowserContext, Page]] = {}
    done: dict[str, dict[str, list[Text]]] = {}

    def page_of(role: str, lang: str) -> Page:
        if (role, lang) not in made:
            context = browser.new_context(locale=LOCALES[lang], viewport=DESK)
            code = site.secret if role == "committee" else site.codes.get(role)
            if code:  # the link's request alone: its session cookie lands in the context
                signed = context.request.get(f"{site.server.url}/join?code={code}")
                assert signed.url.rstrip("/") == site.server.url, f"{role}: {signed.url}"
            elif role in ACCOUNTS:  # the /signin form, sent by the context's requests
                email, _, password = ACCOUNTS[role]
                form = context.request.get(f"{site.server.url}/signin").text()
                csrf = re.search(r'name="csrf" value="([^"]+)"', form)
                assert csrf, form
                signed = context.request.post(f"{site.server.url}/signin", form={
                    "csrf": csrf.group(1), "email": email, "password": password})  # fmt: skip
                assert signed.url.rstrip("/") == site.server.url, f"{role}: {signed.url}"
            made[(role, lang)] = context, context.new_page()
        return made[(role, lang)][1]

    def texts_of(visit_id: str) -> dict[str, list[Text]]:
        if visit_id not in done:
            done[visit_id] = render(VISITS[visit_id], page_of, site)
        return done[visit_id]

    yield texts_of
    for context, _ in made.values():
        context.close()


# -- judging what it reads ------------------------------------------------------------------

LETTER = re.compile(r"[^\W\d_]")
WORD = re.compile(r"[^\W\d_]{3,}")
#: a number written with a decimal point (not a version, an address, a file's name)
POINT = re.compile(r"(?<![\w.])[−+-]?\d+\.\d+(?![\w.])")
ISO_DAY = re.compile(r"(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])")
#: a code of the program's (``alert_raised``, ``no_show``) shown as it is
RAW_CODE = re.compile(r"(?<![\w.@/-])[a-z]+(?:_[a-z]+)+(?![\w.@/-])")
URL = re.compile(r"\b[a-z]+://\S+")
#: an access code, or its example in the sign-in field (``ABCD-EFGH``)
ACCESS_CODE = re.compile(r"(?<![\w-])[A-Z0-9]{4}(?:-[A-Z0-9]{4})+(?![\w-])")
#: units every language writes alike (SI: 4 h 05, 38 min, 46,2 s, 320 m)
UNITS = re.compile(r"(?<!\w)(?:h|min|s|m|km)(?!\w)")
#: the words every language writes alike, not the catalogue's: names of formats and programs
SAME = frozenset({
    "pace",  # the program's name (the header's brand, the pages' titles)
    "PDF", "CSV", "JSON", "Excel", "SVG", "TOML", "QR",  # file formats and spreadsheets
})  # fmt: skip
#: data that is no round's: the handicap classes a draw writes (golf-mauricie's AA, A, BB,
#: B), the pace policies' names (``frbg``), the time zones' names (``Europe/Brussels``)
NAMES = (*CLASSES, *config.POLICIES, *available_timezones())
#: what is taken off a text's ends before it is looked for in a catalogue ("Marshal ·")
ENDS = " \u00a0·:;,.()[]«»“”\"'–—-/|*…!?→←↑↓"
#: a catalogue text's pattern counts when it writes this many letters of its own ("T{tee}",
#: "{n} h": too few to tell a sentence by)
OWN_LETTERS = 3


class Catalogue:
    """The texts a catalogue gives in one language: each as a pattern (its ``{fields}`` any
    text), and the pieces between its fields (a page may set a field in its own element)."""

    def __init__(self, lang: str) -> None:
        self.patterns: list[re.Pattern[str]] = []
        self.pieces: set[str] = set()
        #: every word its texts write (lower case)
        self.words: set[str] = set()
        read = catalogue_files.read("fr" if lang == "en" else lang)
        for message in read:
            if not message.id:
                continue
            if lang == "en":
                forms = message.id if isinstance(message.id, tuple) else (message.id,)
            else:
                forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for form in forms:
                self.add(" ".join((form or "").split()))

    def add(self, text: str) -> None:
        parts = re.split(r"\{\w+\}", text)
        self.words |= {w.lower() for p in parts for w in WORD.findall(p)}
        self.pieces |= {p.strip(ENDS).casefold() for p in parts if LETTER.search(p)}
        if sum(len(LETTER.findall(p)) for p in parts) >= OWN_LETTERS:
            self.patterns.append(re.compile(".+?".join(map(re.escape, parts)), re.S | re.I))

    def gives(self, text: str) -> bool:
        """Whether the catalogue gives ``text``: one of its texts, fields filled; a piece of
        one; or pieces of some put together with figures ("08:40 (Hole 1)"). Case aside: a
        style may write a text in capitals (the access cards' roles)."""
        if any(p.fullmatch(text) for p in self.patterns):
            return True
        runs = [r.strip(ENDS) for r in re.split(r"[\d:()\[\]/+−=·,;]+", text)]
        return all(r.casefold() in self.pieces for r in runs if LETTER.search(r))


@pytest.fixture(scope="module")
def catalogues() -> dict[str, Catalogue]:
    return {lang: Catalogue(lang) for lang in LANGS}


@dataclass(frozen=True)
class Offender:
    visit: str
    lang: str
    text: str
    where: str
    why: str

    def __str__(self) -> str:
        return f"{self.visit}, {self.lang}, {self.text!r} ({self.where}: {self.why})"


def without_data(text: str, data: tuple[str, ...]) -> str:
    """Return ``text`` without its data: the names, what people typed, addresses, codes,
    units and the words written alike in every language."""
    text = ACCESS_CODE.sub(" ", URL.sub(" ", text))
    for word in data:
        if word in text:
            text = re.sub(rf"(?<![\w/]){re.escape(word)}(?![\w/])", " ", text)
    text = UNITS.sub(" ", text)
    return " ".join(w for w in re.split(r"(\W+)", text) if w not in SAME)


def english_words(text: str, lang: str, catalogues: dict[str, Catalogue]) -> list[str]:
    """The words of ``text`` that the English catalogue writes and ``lang``'s never does
    ("par committee")."""
    return [w for w in WORD.findall(text)
            if w.lower() in catalogues["en"].words
            and w.lower() not in catalogues[lang].words]  # fmt: skip


def judge(visit: str, texts: dict[str, list[Text]], catalogues: dict[str, Catalogue],
          data: tuple[str, ...]) -> list[Offender]:  # fmt: skip
    """Return the offenders of a visit's French and Dutch (the module's docstring)."""
    english = {t.text for t in texts["en"]}
    out: dict[tuple[str, str], Offender] = {}
    for lang in ("fr", "nl"):
        for t in texts[lang]:
            if t.code or (lang, t.text) in out:
                continue
            plain = URL.sub(" ", t.text)
            why = []
            if POINT.search(plain):
                why.append("a decimal point")
            if not t.figure:
                bare = without_data(t.text, data)
                given = catalogues[lang].gives(t.text) or catalogues[lang].gives(bare.strip())
                if (LETTER.search(bare) and not given
                        and (t.text in english or catalogues["en"].gives(t.text))):  # fmt: skip
                    why.append("the English")
                else:
                    foreign = english_words(bare, lang, catalogues)
                    if foreign:
                        why.append(f"English words ({', '.join(foreign)})")
                if ISO_DAY.search(plain):
                    why.append("an ISO day")
                if RAW_CODE.search(bare):
                    why.append("a raw code")
            if why:
                out[(lang, t.text)] = Offender(visit, lang, t.text, t.where, ", ".join(why))
    return list(out.values())


def listed(found: list[Offender]) -> str:
    return "\n".join(["page, language, text:", *map(str, found)])


@pytest.mark.parametrize("visit", list(VISITS))
def test_every_page_and_document_is_in_its_readers_language(visit, rendered, catalogues, site):
    found = judge(visit, rendered(visit), catalogues, site.data)
    assert not found, listed(found)


# -- every route ------------------------------------------------------------------------------

API = "JSON for the pages' scripts and for clients (docs/protocol.md): no page, no document"
#: the GET routes no person reads as a page or a document, each with its reason
SKIPPED = {
    "static": "the pages' scripts, styles and images: their words come from the catalogue",
    "pace.service_worker": "the marshal page's service worker (sw.js): a script",
    "health.healthz": "the operator's liveness probe (JSON)",
    "health.readyz": "the operator's readiness probe (JSON)",
    "metrics.metrics": "Prometheus' text format, for the operator's scraper",
    "reports.report_json": "the report's JSON document (docs/reports.md), for programs",
    "reports.job_status": "a PDF's progress, JSON for the report page's script",
    "reports.job_file": "the report's (or letters') PDF: the report page's HTML, read here, "
    "laid out by WeasyPrint, as the results' PDF read here is",
    "committee.download_course": "a course's TOML (docs/formats.md §1): the format's keys",
    "committee.calibration_toml": "the time pars' course TOML (docs/formats.md §1)",
    **dict.fromkeys((
        "pace.api_rounds", "pace.api_alert", "pace.api_board", "scoring.api_card",
        "scoring.api_own_pace", "committee.api_changes", "pace.api_events",
        "pace.api_geometry", "dashboard.held_up_why", "scoring.api_leaderboard",
        "referee.api_penalties", "referee.api_group_penalties", "scoring.api_results",
        "pace.api_snapshot", "pace.api_status", "pace.api_strip", "committee.course_geometry",
        "positions.api_places",
    ), API),
}  # fmt: skip


def test_every_get_route_is_visited_or_skipped_with_its_reason(app):
    """A GET route added to the app fails here until it is visited above or skipped with
    its reason."""
    urls = app.url_map.bind("localhost")
    visited = set()
    for visit in VISITS.values():
        if visit.kind != "cli" and visit.status[0] == 200:
            visited.add(urls.match(visit.path.split("?")[0], method="GET")[0])
    routes = {rule.endpoint for rule in app.url_map.iter_rules() if "GET" in rule.methods}
    assert not sorted(routes - visited - SKIPPED.keys()), "neither visited nor skipped"
    assert not sorted(visited & SKIPPED.keys()), "visited, yet skipped"
    assert not sorted(SKIPPED.keys() - routes), "skipped, yet no route"
