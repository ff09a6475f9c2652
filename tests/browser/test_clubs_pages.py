"""The clubs' and people's own pages in Chromium (issue 50): every form and button they offer,
used, with its effect seen in the next page and in the database.

- An administrator (``pace account add --admin``) chooses a password with the link the
  command printed, makes a club on /admin with its first committee member (the member's link
  shown once) and renames it; that member chooses a password, signs in at /signin (a wrong
  password first: the page says so and the club's access log keeps it), then adds a referee
  on /club/members (the link shown once), changes their role and removes them.
- A person with a role in two clubs (an administrator too) switches club on /clubs: the home
  page lists that club's rounds only, the other club's round is refused as unknown; then the
  instance's own pages.
- A used setup link shows the page that says so (404), in a new tab and in one opened before.
- /signin, /account/setup and /club/members at a phone's 360 px: nothing wider than the
  screen (a table scrolls in its own box), screenshots under the test's tmp folder.
- Five wrong passwords in a minute: the sixth attempt is refused (429), the right one too.

One ``pace serve`` for the module over a database set up with the command line: round R1 in
the ``default`` club, round B1 in club ``rgc-b`` (``pace import ... --club``), and accounts
made with ``pace account add``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from browser.conftest import local_today
from livesupport import DRAW, TIMEZONE, LiveServer, live_server, pace
from playwright.sync_api import Browser, BrowserContext, Page, expect

from pace.store import Store, open_store

pytestmark = pytest.mark.browser

COURSE_B = Path(__file__).parents[1] / "data" / "formats" / "course_committee.toml"
COURSE_B_NAME = "Golf de Louiseville — championnat du club"
#: the address ``pace account add`` puts in the links it prints (the server's is not known yet)
CLI_URL = "http://pace.invalid"
PHONE = {"width": 360, "height": 740}
DESK = {"width": 1280, "height": 900}

ADMIN = ("ada@federation.test", "Ada Admin", "ada-password-1")
#: committee of ``default``, referee of ``rgc-b``, and an administrator of the instance
PAT = ("pat@two-clubs.test", "Pat Two", "pat-password-1")
#: committee of ``default``: the phone's /club/members
WIL = ("wilhelmina.van-der-heyden@koninklijke-golfclub.test", "Wilhelmina van der Heyden",
       "wil-password-1")  # fmt: skip


@dataclass
class Site:
    server: LiveServer
    folder: Path
    links: dict[str, str]  # e-mail -> its setup link (on the server's address)
    lost: list[str]  # links a newer one replaced before they were used

    @property
    def url(self) -> str:
        return self.server.url

    def cli(self, *args: str) -> str:
        return pace(*args, "--db", str(self.server.db), cwd=self.folder).stdout

    def new_account(self, email: str, name: str, *extra: str) -> str:
        """``pace account add``; return its setup link on the server's address."""
        return self.served(link_of(self.cli("account", "add", email, name, *extra,
                                            "--url", CLI_URL)))  # fmt: skip

    def served(self, link: str) -> str:
        """The link the command printed, on the server's address."""
        assert link.startswith(f"{CLI_URL}/account/setup?token="), link
        parts = urlsplit(link)
        return f"{self.url}{parts.path}?{parts.query}"


def link_of(printed: str) -> str:
    """The link ``pace account add`` printed."""
    found = re.search(r"^link to choose a password: (\S+)$", printed, re.M)
    assert found, printed
    return found.group(1)


@contextmanager
def stored(site: Site) -> Iterator[Store]:
    """The server's database, read beside it."""
    store = open_store(site.server.db)
    try:
        yield store
    finally:
        store.close()


def roles_of(site: Site, email: str) -> dict[str, str]:
    with stored(site) as store:
        account = store.account_by_email(email)
        assert account is not None, email
        return store.memberships(account.id)


@pytest.fixture(scope="module")
def site(tmp_path_factory, fresh_round) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("clubs")
    db = fresh_round(folder)  # R1, today, in the ``default`` club
    day = local_today(0).date().isoformat()
    run = lambda *args: pace(*args, "--db", str(db), cwd=folder).stdout  # noqa: E731
    assert run("club", "add", "rgc-b", "Golf B").startswith("club rgc-b\tGolf B")
    run("import", "course", str(COURSE_B), "--club", "rgc-b")
    run("import", "draw", str(DRAW), "--round", "B1", "--course", COURSE_B_NAME, "--date", day,
        "--timezone", TIMEZONE, "--club", "rgc-b")  # fmt: skip
    links = {ADMIN[0]: link_of(run("account", "add", *ADMIN[:2], "--admin", "--url", CLI_URL))}
    # a person with no password yet given another role: a new link, the one before is lost
    lost = [link_of(run("account", "add", *PAT[:2], "--admin", "--url", CLI_URL)),
            link_of(run("account", "add", *PAT[:2], "--club", "default", "--role", "committee",
                         "--url", CLI_URL))]  # fmt: skip
    links[PAT[0]] = link_of(run("account", "add", *PAT[:2], "--club", "rgc-b", "--role",
                                "referee", "--url", CLI_URL))  # fmt: skip
    links[WIL[0]] = link_of(run("account", "add", *WIL[:2], "--club", "default", "--role",
                                "committee", "--url", CLI_URL))  # fmt: skip
    with live_server(folder, db=db, extra_args=["--tick", "0.5"]) as server:
        s = Site(server, folder, {}, [])
        s.links = {email: s.served(link) for email, link in links.items()}
        s.lost = [s.served(link) for link in lost]
        yield s


@pytest.fixture
def browse(browser: Browser) -> Iterator:
    """Open a new browser context (a person's own browser): ``browse(phone=False)``."""
    made: list[BrowserContext] = []

    def new(phone: bool = False) -> Page:
        context = browser.new_context(viewport=PHONE if phone else DESK, locale="en-GB")
        made.append(context)
        return context.new_page()

    yield new
    for context in made:
        context.close()


# -- what a person does --------------------------------------------------------------------------


def choose_password(page: Page, site: Site, link: str, name: str, password: str) -> None:
    """Open a setup link, choose ``password``: the person lands signed in on the home page."""
    page.goto(link)
    expect(page.locator("p.hint")).to_contain_text(name)
    page.locator("#setup-form input[name='password']").fill(password)
    page.locator("#setup-form input[name='again']").fill(password)
    page.locator("#setup-form button[type='submit']").click()
    page.wait_for_url(site.url + "/")
    expect(page.locator("p.signed-in")).to_be_visible()


def sign_in(page: Page, site: Site, email: str, password: str) -> int:
    """Send the /signin form; return the answer's status (a success: the redirect's page)."""
    if not page.url.startswith(site.url + "/signin"):
        page.goto(site.url + "/signin")
    page.locator("#signin-form input[name='email']").fill(email)
    page.locator("#signin-form input[name='password']").fill(password)
    with page.expect_response(lambda r: r.request.method == "POST" and "/signin" in r.url) as r:
        page.locator("#signin-form button[type='submit']").click()
    page.wait_for_load_state("load")
    return r.value.status


def log_kinds(page: Page) -> list[str]:
    return page.locator("table.access-log tr.log-line").evaluate_all(
        "rows => rows.map(r => r.dataset.kind)"
    )


def home_rounds(page: Page) -> list[str]:
    return page.locator("table.rounds tr.round td.name").all_inner_texts()


def member_row(page: Page, email: str):
    return page.locator("table.members tr.member").filter(has_text=email)


# -- an administrator, then a club's first committee member ----------------------------------------


def test_an_administrator_makes_a_club_whose_first_member_then_manages_its_people(site, browse):
    # the administrator's link (pace account add --admin): a password, then signed in
    admin = browse()
    choose_password(admin, site, site.links[ADMIN[0]], ADMIN[1], ADMIN[2])
    expect(admin.locator("strong.role")).to_have_attribute("data-role", "admin")
    admin.locator("#admin-link").click()
    admin.wait_for_url(site.url + "/admin")
    expect(admin.locator("table.clubs tr.club")).to_have_count(2)  # default, rgc-b

    # a new club and its first committee member: the member's link shown, once
    form = admin.locator("#add-club")
    form.locator("input[name='club']").fill("rgc-antwerp")
    form.locator("input[name='name']").fill("Royal Golf Club Antwerpen")
    form.locator("input[name='person']").fill("Anna Peeters")
    form.locator("input[name='email']").fill("anna@rgca.test")
    form.locator("button[type='submit']").click()
    link = admin.locator(".made code.setup-link")
    expect(link).to_have_text(re.compile(rf"^{re.escape(site.url)}/account/setup\?token=\S+$"))
    anna_link = link.inner_text()
    expect(admin.locator("tr.club[data-club='rgc-antwerp'] input[name='name']")).to_have_value(
        "Royal Golf Club Antwerpen"
    )
    made = admin.locator("tr.log-line[data-kind='club_made']").filter(has_text="rgc-antwerp")
    expect(made).to_have_count(1)
    expect(made).to_contain_text(ADMIN[1])  # who made it
    with stored(site) as store:
        club = store.club("rgc-antwerp")
        assert club is not None and club.name == "Royal Golf Club Antwerpen"
    assert roles_of(site, "anna@rgca.test") == {"rgc-antwerp": "committee"}
    admin.goto(site.url + "/admin")
    expect(admin.locator("table.clubs tr.club")).to_have_count(3)
    expect(admin.locator("code.setup-link")).to_have_count(0)  # shown once

    # renamed: the page shows the new name, the database holds it, the instance's log says so
    rename = admin.locator("tr.club[data-club='rgc-antwerp'] form.rename-form")
    rename.locator("input[name='name']").fill("Royal Antwerp Golf Club")
    with admin.expect_navigation():
        rename.locator("button[type='submit']").click()
    expect(admin.locator("p.error")).to_have_count(0)
    expect(admin.locator("tr.club[data-club='rgc-antwerp'] input[name='name']")).to_have_value(
        "Royal Antwerp Golf Club"
    )
    renamed = admin.locator("tr.log-line[data-kind='club_renamed']")
    expect(renamed).to_have_count(1)
    expect(renamed).to_contain_text("rgc-antwerp: Royal Antwerp Golf Club")
    with stored(site) as store:
        club = store.club("rgc-antwerp")
        assert club is not None and club.name == "Royal Antwerp Golf Club"
    # the administrator sees no club's rounds
    admin.goto(site.url + "/")
    expect(admin.locator("table.rounds")).to_have_count(0)

    # the first committee member's link: a password, then signed in, in the club
    anna = browse()
    choose_password(anna, site, anna_link, "Anna Peeters", "anna-password-1")
    expect(anna.locator("strong.role")).to_have_attribute("data-role", "committee")
    expect(anna.locator(".club-name")).to_have_text("Royal Antwerp Golf Club")

    # another browser: /signin, a wrong password first (the page says so), then the right one
    anna = browse()
    anna.goto(site.url + "/signin")
    assert sign_in(anna, site, "anna@rgca.test", "not-her-password") == 400
    expect(anna.locator("p.error")).to_have_text(
        "This e-mail and password do not match an account."
    )
    expect(anna.locator("#signin-form input[name='email']")).to_have_value("anna@rgca.test")
    assert sign_in(anna, site, "anna@rgca.test", "anna-password-1") == 302
    assert anna.url == site.url + "/"
    expect(anna.locator(".club-name")).to_have_text("Royal Antwerp Golf Club")
    anna.locator("#members-link").click()
    anna.wait_for_url(site.url + "/club/members")
    expect(anna.locator("h1")).to_have_text("People of Royal Antwerp Golf Club")
    # the club's log: the wrong password, then her sign-ins (newest first)
    expect(anna.locator("tr.log-line[data-kind='sign_in_failed']")).to_have_count(1)
    expect(anna.locator("tr.log-line[data-kind='sign_in_failed']")).to_contain_text(
        "anna@rgca.test"
    )
    assert log_kinds(anna)[0] == "sign_in"
    # her own row: no role to change, no button to remove herself
    me = member_row(anna, "anna@rgca.test")
    expect(me).to_have_attribute("data-role", "committee")
    expect(me.locator("select, button")).to_have_count(0)

    # a referee added: the link shown once; the row and the database hold the role
    form = anna.locator("#add-member")
    form.locator("input[name='name']").fill("Rik Janssens")
    form.locator("input[name='email']").fill("rik@rgca.test")
    form.locator("select[name='role']").select_option("referee")
    form.locator("button[type='submit']").click()
    link = anna.locator(".made code.setup-link")
    expect(link).to_have_text(re.compile(rf"^{re.escape(site.url)}/account/setup\?token=\S+$"))
    rik_link = link.inner_text()
    rik = member_row(anna, "rik@rgca.test")
    expect(rik).to_have_attribute("data-role", "referee")
    assert roles_of(site, "rik@rgca.test") == {"rgc-antwerp": "referee"}
    anna.goto(site.url + "/club/members")
    expect(anna.locator("code.setup-link")).to_have_count(0)  # shown once
    expect(rik).to_have_attribute("data-role", "referee")

    # the referee's own browser: the link works, and Rik is signed in as a referee
    rik_page = browse()
    choose_password(rik_page, site, rik_link, "Rik Janssens", "rik-password-1")
    expect(rik_page.locator("strong.role")).to_have_attribute("data-role", "referee")

    # his role changed with the row's select and Change: stored, logged, his session ended
    changes = anna.locator("tr.log-line[data-kind='role_changed']")
    before = changes.count()
    rik.locator("form.role-form select[name='role']").select_option("committee")
    with anna.expect_navigation():
        rik.locator("form.role-form button[type='submit']").click()
    expect(anna.locator("p.error")).to_have_count(0)
    expect(rik).to_have_attribute("data-role", "committee")
    expect(rik.locator("select[name='role']")).to_have_value("committee")
    assert roles_of(site, "rik@rgca.test") == {"rgc-antwerp": "committee"}
    expect(changes).to_have_count(before + 1)
    expect(changes.first).to_contain_text("rik@rgca.test: Referee → Committee")
    rik_page.goto(site.url + "/")
    expect(rik_page.locator("p.signed-in")).to_have_count(0)  # signed out: sign in again
    expect(rik_page.locator("p.login-prompt")).to_be_visible()

    # removed from the club: the row gone, no role stored, the log says so
    with anna.expect_navigation():
        rik.locator("form.remove-form button[type='submit']").click()
    expect(anna.locator("p.error")).to_have_count(0)
    expect(rik).to_have_count(0)
    assert roles_of(site, "rik@rgca.test") == {}
    expect(changes).to_have_count(before + 2)
    expect(changes.first).to_contain_text("rik@rgca.test: Committee → no role")
    expect(anna.locator("table.members tr.member")).to_have_count(1)


# -- a person of two clubs -----------------------------------------------------------------------


def test_a_person_of_two_clubs_switches_club_and_sees_only_its_rounds(site, browse):
    page = browse()
    choose_password(page, site, site.links[PAT[0]], PAT[1], PAT[2])
    # signed in in the first of their clubs by id: default, whose round is R1
    expect(page.locator("strong.role")).to_have_attribute("data-role", "committee")
    assert home_rounds(page) == ["R1"]

    page.locator("#clubs-link").click()
    page.wait_for_url(site.url + "/clubs")
    expect(page.locator("li.club[data-club='default'] em.current")).to_be_visible()
    expect(page.locator("li.club[data-club='default'] button")).to_have_count(0)
    other = page.locator("li.club[data-club='rgc-b']")
    expect(other).to_contain_text("Golf B")
    expect(other).to_contain_text("Referee")
    other.get_by_role("button", name="Work in this club").click()
    page.wait_for_url(site.url + "/")
    expect(page.locator("strong.role")).to_have_attribute("data-role", "referee")
    expect(page.locator(".club-name")).to_have_text("Golf B")
    expect(page.locator("table.rounds tr.round")).to_have_count(1)
    assert home_rounds(page) == ["B1"]

    # the first club's round is not there at all; this club's opens
    refused = page.goto(site.url + "/rounds/R1/dashboard")
    assert refused is not None and refused.status == 404
    opened = page.goto(site.url + "/rounds/B1/dashboard")
    assert opened is not None and opened.status == 200
    expect(page.locator("tr.group-row")).to_have_count(6)

    # the instance's own pages, the administrator's: no club's rounds
    page.goto(site.url + "/clubs")
    expect(page.locator("li.club[data-club='rgc-b'] em.current")).to_be_visible()
    page.get_by_role("button", name="Administer the instance").click()
    page.wait_for_url(site.url + "/")
    expect(page.locator("strong.role")).to_have_attribute("data-role", "admin")
    expect(page.locator("table.rounds")).to_have_count(0)
    expect(page.locator("#admin-link")).to_be_visible()
    refused = page.goto(site.url + "/rounds/B1/board")
    assert refused is not None and refused.status in (403, 404)
    page.goto(site.url + "/clubs")
    expect(page.locator("li.club[data-club=''] em.current")).to_be_visible()
    expect(page.locator("li.club form button")).to_have_count(2)  # default, rgc-b
    with stored(site) as store:
        lines = store.access_log(club="rgc-b", limit=10)
    assert [e.kind for e in lines][:1] == ["sign_in"] and lines[0].who == PAT[0]


# -- a used link --------------------------------------------------------------------------------


def test_a_used_setup_link_says_it_is_used_or_expired(site, browse):
    link = site.new_account("used@default.test", "Ursula Used", "--club", "default",
                            "--role", "referee")  # fmt: skip
    early = browse()
    early.goto(link)  # a tab opened on the link before it is used elsewhere
    expect(early.locator("#setup-form")).to_be_visible()
    choose_password(browse(), site, link, "Ursula Used", "ursula-pass-1")

    again = browse()
    answer = again.goto(link)
    assert answer is not None and answer.status == 404
    expect(again.locator("p.error")).to_have_text(
        "This link has been used or has expired: ask whoever sent it for a new one."
    )
    expect(again.locator("#setup-form")).to_have_count(0)
    # a link a newer one replaced (a second role given before the first was used): gone too
    for old in site.lost:
        answer = again.goto(old)
        assert answer is not None and answer.status == 404, old
        expect(again.locator("p.error")).to_contain_text("has been used or has expired")
    # the tab opened before: its form refused, the same page, the password kept
    early.locator("#setup-form input[name='password']").fill("another-pass-2")
    early.locator("#setup-form input[name='again']").fill("another-pass-2")
    early.locator("#setup-form button[type='submit']").click()
    expect(early.locator("p.error")).to_have_text(
        "This link has been used or has expired: ask whoever sent it for a new one."
    )
    expect(early.locator("#setup-form")).to_have_count(0)
    page = browse()
    assert sign_in(page, site, "used@default.test", "another-pass-2") == 400
    assert sign_in(page, site, "used@default.test", "ursula-pass-1") == 302


# -- on a phone ------------------------------------------------------------------------------


def fits(page: Page, shot: Path) -> None:
    """Screenshot ``page`` whole into ``shot``; nothing wider than the phone's 360 px."""
    page.evaluate("document.getAnimations().forEach(a => a.finish())")
    page.screenshot(path=str(shot), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{shot.name}: {width} px wide"


def test_the_sign_in_setup_and_members_pages_fit_a_phone(site, browse, tmp_path):
    page = browse(phone=True)
    page.goto(site.url + "/signin")
    expect(page.locator("#signin-form")).to_be_visible()
    fits(page, tmp_path / "signin-360.png")

    phone = browse(phone=True)
    phone.goto(site.links[WIL[0]])
    expect(phone.locator("#setup-form")).to_be_visible()
    fits(phone, tmp_path / "setup-360.png")
    gone = browse(phone=True)
    gone.goto(site.url + "/account/setup?token=nothing-of-the-kind")
    expect(gone.locator("p.error")).to_be_visible()
    fits(gone, tmp_path / "setup-gone-360.png")

    # the committee's people page: its tables scroll in their own boxes, the page does not
    phone.locator("#setup-form input[name='password']").fill(WIL[2])
    phone.locator("#setup-form input[name='again']").fill(WIL[2])
    phone.locator("#setup-form button[type='submit']").click()
    phone.wait_for_url(site.url + "/")
    phone.goto(site.url + "/club/members")
    expect(phone.locator("table.members tr.member")).not_to_have_count(0)
    expect(phone.locator("table.access-log tr.log-line").first).to_be_visible()
    fits(phone, tmp_path / "members-360.png")
    wraps = phone.locator(".table-wrap").evaluate_all(
        "els => els.map(e => [getComputedStyle(e).overflowX, e.clientWidth])"
    )
    assert wraps and all(o == "auto" and w <= PHONE["width"] for o, w in wraps), wraps


# -- too many wrong passwords (last: the address stays limited for a minute) -----------------


def test_five_wrong_passwords_in_a_minute_refuse_the_next_attempt(site, browse):
    page = browse()
    page.goto(site.url + "/signin")
    statuses = []
    for _ in range(6):  # this address's failures of the tests before count too
        statuses.append(sign_in(page, site, WIL[0], "wrong-password"))
        if statuses[-1] == 429:
            break
    assert statuses[-1] == 429 and set(statuses[:-1]) == {400}, statuses
    expect(page.locator("p.error")).to_have_text(
        "Too many wrong passwords: wait a minute before trying again."
    )
    # the right password is refused too, until the minute is over
    assert sign_in(page, site, WIL[0], WIL[2]) == 429
    assert page.url.startswith(site.url + "/signin")
