"""The committee allows positions from the groups' phones on the round's page (issue 48).

A real ``pace serve``: the round's page, in French, shows positions not allowed (the default);
the committee allows them and the round keeps it; a form tampered with is refused and changes
nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser.conftest import local_today, sign_in
from browser.test_course_strip import serious
from livesupport import COURSE, TIMEZONE, LiveServer, clocked, live_server, pace
from playwright.sync_api import expect

from pace.store import open_store

pytestmark = pytest.mark.browser

DRAW = "group,start,tee,player,handicap\n1,08:00,1,Ann Peeters,9.0\n"


@pytest.fixture
def served(tmp_path) -> Iterator[LiveServer]:
    (tmp_path / "draw.csv").write_text(DRAW, encoding="utf-8")
    db = tmp_path / "pace.db"
    pace("import", "course", str(COURSE), "--db", str(db), cwd=tmp_path)
    pace("import", "draw", str(tmp_path / "draw.csv"), "--round", "R1", "--date",
         local_today(0).date().isoformat(), "--timezone", TIMEZONE, "--db", str(db),
         cwd=tmp_path)  # fmt: skip
    with live_server(tmp_path, db=db, extra_args=clocked("09:00", tick=0.2)) as server:
        server.db_path = db  # type: ignore[attr-defined]
        yield server


def allowed(db) -> bool:
    with open_store(db) as store:
        return store.get_round("R1").positions


def test_the_committee_allows_positions_on_the_rounds_page(served, browser):
    server = served
    db = server.db_path  # type: ignore[attr-defined]
    context = browser.new_context(locale="fr-BE", viewport={"width": 1280, "height": 900})
    sign_in(context, server)
    page = context.new_page()
    page.goto(f"{server.url}/rounds/R1/changes")
    box = page.locator("#positions-box")
    expect(box.locator("h2")).to_have_text("Positions des téléphones des groupes")
    select = box.locator("select[name=positions]")
    expect(select).to_have_value("off")
    assert allowed(db) is False
    select.select_option(label="Autorisées, avec l'accord de chaque groupe")
    box.locator("button[type=submit]").click()
    expect(page.locator("#positions-saved")).to_be_visible()
    expect(page.locator("#positions-box select[name=positions]")).to_have_value("on")
    assert serious(page) == []
    assert allowed(db) is True

    # a form tampered with (a setting pace does not know): refused, nothing changed
    page.locator("#positions-box select[name=positions] option").first.evaluate(
        "(o) => { o.value = 'always'; o.selected = true; }"
    )
    page.locator("#positions-box button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#positions-saved")).to_have_count(0)
    assert allowed(db) is True
    context.close()
