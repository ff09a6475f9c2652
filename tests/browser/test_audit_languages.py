"""The audit in Dutch and French (issue 47): a Flemish committee reads its round's log, every
kind of event the log can hold, in its own language, with no raw code and no English.

One real ``pace serve`` over round R1 played through every kind of event
(tests/auditsupport.py), its clock where that round stopped; real Chromium contexts, each a
device signed in with a committee code. The English rendering is the reference: a text of the
Dutch or French page may share with the English one at the same place only data (names,
numbers, times, what people typed) and words its own catalogue gives.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from auditsupport import LEGACY_STOP, TYPED, audit_database, untranslated
from browser.test_phone_pages import MEASURE
from livesupport import LiveServer, live_server
from playwright.sync_api import expect

from pace.web.audit import sentences, table

pytestmark = pytest.mark.browser

AUDIT = "/rounds/R1/audit"
PHONE = {"width": 360, "height": 780}
SHOTS = Path("/tmp/pace-shots")
#: what the page says of every row, and of its form and table, in one read
READ = """() => {
  const text = (n) => n.innerText.trim();
  return {
    rows: [...document.querySelectorAll("table.audit tbody tr")].map((tr) => ({
      type: tr.className.replace(/^t-/, ""), cells: [...tr.cells].map(text) })),
    heads: [...document.querySelectorAll("table.audit thead th")].map(text),
    options: [...document.querySelectorAll("select[name=type] option")].map(
      (o) => [o.value, o.textContent.trim()]),
    form: [...document.querySelectorAll("form.filters label")].map(
      (l) => l.firstChild.textContent.trim()).concat(
      [...document.querySelectorAll("form.filters button, form.filters a")].map(text)),
    title: text(document.querySelector("h1")),
  };
}"""


@dataclass
class AuditPage:
    """What the audit page showed: its rows (kind, cells), headers, the type filter's options
    (value, label), its form's words and title."""

    rows: list[dict]
    heads: list[str]
    options: list[list[str]]
    form: list[str]
    title: str

    def texts(self) -> dict[str, str]:
        """Return every text by where it is: a row's cell by its number and column, an
        option by its value, a header, a word of the form."""
        out = {"title": self.title}
        for r in self.rows:
            seq = r["cells"][0]
            for column, cell in zip(table.READABLE, r["cells"], strict=True):
                if column not in ("seq", "at"):
                    out[f"row {seq} ({r['type']}) {column}"] = cell
        out.update({f"option {value!r}": label for value, label in self.options})
        out.update({f"header {i}": h for i, h in enumerate(self.heads)})
        out.update({f"form {i}": w for i, w in enumerate(self.form)})
        return out

    def why(self, kind: str) -> list[str]:
        """Return the reason column of the rows of ``kind``, in log order."""
        return [r["cells"][-1] for r in self.rows if r["type"] == kind]


@pytest.fixture(scope="module")
def audit_server(tmp_path_factory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("audit")
    db, end = audit_database(folder)
    # the server's clock where the round stopped; one tick an hour: the log stays as played
    with live_server(folder, db=db, extra_args=["--clock-origin", end.isoformat(),
                                                "--tick", "3600"]) as server:  # fmt: skip
        yield server


@pytest.fixture(scope="module")
def code(audit_server) -> str:
    """A committee code of round R1 (one opens sessions all its day)."""
    return audit_server.code("committee")


def signed_in(browser, server: LiveServer, code: str, **options):
    """Return a page of a new device signed in as the committee with ``code``."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.goto(f"{server.url}/join?code={code}&next={AUDIT}")
    expect(page.locator("table.audit")).to_be_visible()
    return page


def read(page) -> AuditPage:
    return AuditPage(**page.evaluate(READ))


def test_the_audit_says_every_kind_of_event_in_dutch_and_french(audit_server, browser, code):
    page = signed_in(browser, audit_server, code)
    pages = {}
    for lang in ("en", "nl", "fr"):
        page.goto(f"{audit_server.url}{AUDIT}?lang={lang}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        pages[lang] = read(page)
    en = pages["en"]
    # the round holds every kind of event pace stores, each in the filter by its raw name
    assert {r["type"] for r in en.rows} == set(sentences.TYPES)
    for shown in pages.values():
        assert sorted(v for v, _ in shown.options) == sorted(["", *sentences.TYPES])
        assert [r["cells"][0] for r in shown.rows] == [r["cells"][0] for r in en.rows]
    offenders = [
        o for lang in ("nl", "fr") for o in untranslated(en.texts(), pages[lang].texts(), lang)
    ]
    assert offenders == [], "\n".join(offenders)
    # the shot clock's stops: a referee's words as typed, the code and the old English alike
    nl, fr = pages["nl"], pages["fr"]
    told = "terug in positie: spelers verwittigd"
    assert nl.why("timing_stopped") == [TYPED["stop"], told, told]
    assert fr.why("timing_stopped")[1:] == ["de retour en position : joueurs informés"] * 2
    assert en.why("timing_stopped")[1:] == [LEGACY_STOP] * 2
    assert ["timing_stopped", "Timing gestopt"] in nl.options
    said = {r["cells"][2] for r in nl.rows}
    assert (
        "Startlijst gewijzigd: Chantal Paquette teruggetrokken uit flight 5 (niet opgedaagd)"
        in said
    )
    assert "Score van Julie Gagnon (flight 1) op hole 1: geen score (bal opgenomen)" in said
    assert ["alert_raised", "Nouvelle alerte"] in fr.options
    page.context.close()


def test_the_filters_the_raw_log_and_the_exports_in_dutch(audit_server, browser, code):
    # a Flemish referee's phone: the browser's language, a 360 px screen
    page = signed_in(
        browser, audit_server, code, locale="nl-BE", viewport=PHONE, accept_downloads=True
    )
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "audit-nl-360.png"), full_page=True)
    # no word or time broken on two lines ("08:0 5:00"), nothing wider than the screen but
    # the log's own box, which scrolls sideways
    measured = page.evaluate(MEASURE)
    assert measured["scrollWidth"] <= PHONE["width"], measured
    assert (measured["over"], measured["split"]) == ([], []), measured
    every = page.locator("table.audit tbody tr").count()

    # the type filter: the label read, the raw name sent, only that kind shown
    page.locator("select[name='type']").select_option(label="Timing gestopt")
    page.get_by_role("button", name="Filteren").click()
    page.wait_for_url("**type=timing_stopped**")
    expect(page.locator("table.audit tbody tr")).to_have_count(3)
    expect(page.locator("table.audit tbody tr.t-timing_stopped")).to_have_count(3)
    expect(page.locator("select[name='type']")).to_have_value("timing_stopped")
    told = "terug in positie: spelers verwittigd"
    expect(page.locator("table.audit tbody tr td:last-child")).to_have_text(
        [TYPED["stop"], told, told]
    )

    # and a group: group 1's stop alone
    page.locator("select[name='group']").select_option("1")
    page.get_by_role("button", name="Filteren").click()
    page.wait_for_url("**group=1**")
    row = page.locator("table.audit tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td")).to_contain_text(
        ["Timing van flight 1 gestopt", "scheidsrechter Claire", "spelers verwittigd"]
    )
    page.screenshot(path=str(SHOTS / "audit-nl-filtered-360.png"), full_page=True)

    # the raw log keeps the filters and shows the columns as stored: the code itself
    page.get_by_role("link", name="Ruwe log").click()
    page.wait_for_url("**raw=1**")
    expect(page.locator("table.audit thead th")).to_contain_text(["Type", "Reden", "Details"])
    expect(page.locator("table.audit tbody tr td")).to_contain_text(
        ["timing_stopped", "players_told"]
    )
    page.get_by_role("link", name="Leesbare log").click()
    page.wait_for_url(lambda url: "raw=1" not in url)
    expect(page.locator("table.audit tbody tr")).to_have_count(1)

    # the exports: the same row, the reason in words in the last column
    with page.expect_download() as plain:
        page.get_by_role("link", name="CSV-export").click()
    rows = list(csv.DictReader(io.StringIO(Path(plain.value.path()).read_text("utf-8"))))
    assert [(r["type"], r["reason"], r["what"], r["why"]) for r in rows] == [
        ("timing_stopped", "players_told", "Timing van flight 1 gestopt",
         "terug in positie: spelers verwittigd"),
    ]  # fmt: skip
    with page.expect_download() as excel:
        page.get_by_role("link", name="CSV voor Excel (;)").click()
    text = Path(excel.value.path()).read_text("utf-8")
    assert text.startswith("\ufeff") and text.splitlines()[0].endswith(";what;who;why")

    # "alle" brings every event back
    page.locator("select[name='type']").select_option(label="alle")
    page.locator("select[name='group']").select_option(label="alle")
    page.get_by_role("button", name="Filteren").click()
    page.wait_for_url(lambda url: "type=timing_stopped" not in url)
    expect(page.locator("table.audit tbody tr")).to_have_count(every)
    page.context.close()
