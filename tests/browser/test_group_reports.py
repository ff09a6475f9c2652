"""The scorer's page reports where its group is (issue 39), in headless Chromium.

Round R1 for today takes hole times from the groups only (``pace round completions
groups``); the real ``pace serve``'s clock starts at 08:20 local. A scorer's phone (375 px)
chooses group 1 (three players, off at 08:00), loses the signal, records hole 1: the three
scores and the group's report wait in the outbox with the phone's instant. Back online they
arrive once, the report stored with that instant as ``device_at``; "Our pace" then says when
hole 2 is due and how far over the allotment the group is, "We've finished hole 2" reports
the next hole before its scores, the board marks the holes reported by the group, and the
page has no serious accessibility violation.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime

import pytest
from browser.conftest import local_today, sign_in
from browser.test_accessibility import run_axe, serious
from livesupport import ROUND, LiveServer, live_server, pace, wait_for
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SCORECARD = f"/rounds/{ROUND}/scorecard"
BOARD = f"/rounds/{ROUND}/board"
PHONE = {"width": 375, "height": 812}
OUTBOX = f"pace.scores.{ROUND}"
RECONNECT_MS = 20_000


@pytest.fixture
def server(tmp_path, fresh_round) -> Iterator[LiveServer]:
    db = fresh_round(tmp_path)
    pace("round", "completions", "groups", "--round", ROUND, "--db", str(db), cwd=tmp_path)
    args = ["--clock-origin", local_today(8, 20).isoformat(), "--tick", "0.2"]
    with live_server(tmp_path, db=db, extra_args=args) as s:
        yield s


def reports(server) -> list[dict]:
    events = server.get_json(f"/api/rounds/{ROUND}/events")["events"]
    return [e for e in events if e["type"] == "hole_completed"]


def test_a_scorer_offline_reports_the_hole_and_sees_the_groups_own_pace(browser, server):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        sign_in(context, server, "scorer")
        page = context.new_page()
        page.goto(server.url + SCORECARD)
        expect(page.locator("#conn")).to_have_text("Online")
        expect(page.locator("#app")).to_have_attribute("data-offline", "ready")
        page.locator("#group").select_option("1")
        expect(page.locator("#own-pace")).to_be_visible()
        expect(page.locator("#finished-hole")).to_have_text("We've finished hole 1")

        context.set_offline(True)
        expect(page.locator("#conn")).to_have_text("Offline")
        page.get_by_role("button", name="Record hole 1").click()
        expect(page.locator("#pending")).to_have_attribute("data-count", "4")  # 3 scores, 1 report
        expect(page.locator("li.entry").first).to_contain_text("Hole 1: we've finished it")
        outbox = page.evaluate(f"JSON.parse(localStorage.getItem('{OUTBOX}') || '[]')")
        report = next(e for e in outbox if e["kind"] == "group_completed")
        assert report["payload"]["group"] == "1" and report["payload"]["hole"] == 1
        assert reports(server) == []

        context.set_offline(False)
        expect(page.locator("#pending")).to_have_attribute("data-count", "0", timeout=RECONNECT_MS)
        stored = reports(server)
        assert [e["id"] for e in stored] == [report["id"]]  # once, under the phone's id
        assert stored[0]["payload"]["source"] == "group"
        assert stored[0]["by"]["role"] == "scorer"
        # the instant is the phone's, read when the last score went in, not when it arrived
        device_at = datetime.fromisoformat(stored[0]["payload"]["device_at"])
        assert device_at == datetime.fromisoformat(report["payload"]["at"])

        # the group's own pace: facts, no status
        facts = page.locator("#pace-facts")
        expect(facts.locator("[data-fact='due']")).to_contain_text("Hole 2 is due at 08:31")
        expect(facts.locator("[data-fact='over']")).to_contain_text("over our allotted time")
        expect(facts.locator("[data-fact='gap']")).to_have_text("No group ahead to compare with")
        expect(page.locator("#own-pace")).not_to_contain_text("out of position")

        # a group that scores later reports the next hole with the button
        page.get_by_role("button", name="We've finished hole 2").click()
        expect(page.locator("#pending")).to_have_attribute("data-count", "0", timeout=RECONNECT_MS)
        expect(facts.locator("[data-fact='due']")).to_contain_text("Hole 3 is due at")
        expect(facts.locator("[data-fact='reported']")).to_have_text("Holes we reported: 1, 2")
        expect(page.locator("#finished-hole")).to_have_text("We've finished hole 3")
        assert [e["payload"]["hole"] for e in reports(server)] == [1, 2]

        bad = serious(run_axe(page, {"resultTypes": ["violations"]}))
        assert bad == [], bad
    finally:
        context.close()


def report_hole_1(server: LiveServer, id: str) -> None:
    """Group 1's scorer reports hole 1 completed at 08:15 (issue 39), as its phone would."""
    now = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]["at"]
    answer = server.post_json(
        "/api/commands/group_completed",
        {"id": id, "round": ROUND, "group": "1", "hole": 1,
         "at": local_today(8, 15).isoformat(), "device_time": now},
        token=server.token("scorer"),
    )  # fmt: skip
    assert answer["ok"], answer


def test_the_board_marks_the_holes_reported_by_the_group(browser, server):
    report_hole_1(server, "5f0c2a8e-8f7e-4c1e-9d55-1b2a4f0e7a11")
    context = browser.new_context()
    try:
        sign_in(context, server, "viewer")
        page = context.new_page()
        page.goto(server.url + BOARD)
        cell = page.locator("td.b-hole[data-group='1'][data-hole='1']")
        expect(cell).to_have_class("b-hole done by-group")
        expect(cell).to_contain_text("08:15*")
        expect(cell).to_have_attribute("title", "Hole 1: expected 08:14, completed 08:15 as "
                                       "reported by the group (*)")  # fmt: skip
    finally:
        context.close()


def test_a_hole_the_group_reported_stays_due_on_the_marshal_page_and_a_tap_wins(browser, server):
    report_hole_1(server, "0b7e3f0e-2a51-4e0c-8f1e-7d2d6c1b9a42")
    context = browser.new_context()
    try:
        sign_in(context, server, "marshal")
        page = context.new_page()
        page.goto(server.url + f"/rounds/{ROUND}/marshal")
        page.locator("label[for='hole-1']").click()
        card = page.locator(".due-item[data-group='1'][data-hole='1']")
        expect(card).to_have_class("due-item by-group")
        expect(card).to_contain_text("the group reported it at 08:15: tap to confirm")
        card.locator("button.tap").click()
        expect(card).to_have_count(0)
        expect(page.locator("#pending")).to_have_attribute("data-count", "0")
        # the tap's instant is the page's reading of the server's clock, which may be a few
        # ms ahead of it: the row counts the hole once the server's clock reaches it

        def hole() -> dict | None:
            snapshot = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]
            return next(r for r in snapshot["groups"] if r["group"] == "1")["holes"].get("1")

        logged = wait_for(hole, timeout=10)
        assert logged and logged["source"] == "official", logged  # the tap wins over the report
    finally:
        context.close()


@pytest.fixture
def late_server(tmp_path, fresh_round) -> Iterator[LiveServer]:
    """Round R1 for today, hole times from the groups only, the server's clock at 09:30."""
    db = fresh_round(tmp_path)
    pace("round", "completions", "groups", "--round", ROUND, "--db", str(db), cwd=tmp_path)
    args = ["--clock-origin", local_today(9, 30).isoformat(), "--tick", "0.2"]
    with live_server(tmp_path, db=db, extra_args=args) as s:
        yield s


def report_at(server: LiveServer, group: str, hole: int, hour: int, minute: int) -> None:
    """A scorer's report of ``group``'s ``hole`` at ``hour:minute`` (issue 39), as a phone's."""
    now = server.get_json(f"/api/rounds/{ROUND}/snapshot")["snapshot"]["at"]
    answer = server.post_json(
        "/api/commands/group_completed",
        {"id": str(uuid.uuid4()), "round": ROUND, "group": group, "hole": hole,
         "at": local_today(hour, minute).isoformat(), "device_time": now},
        token=server.token("scorer"),
    )  # fmt: skip
    assert answer["ok"], answer


def test_with_no_marshal_the_scorer_is_asked_to_enter_the_hole(browser, late_server):
    """Issue 46: group 2 reported holes 1 and 2, then nothing for 50 minutes while group 3
    completed hole 2 behind it: the missed report's prompt asks group 2's scorer, on its page
    (pushed, not at the next half-minute's reading) and on the dashboard, never a marshal."""
    server = late_server
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        sign_in(context, server, "scorer")
        page = context.new_page()
        page.goto(server.url + SCORECARD)
        expect(page.locator("#conn")).to_have_text("Online")
        page.locator("#group").select_option("2")
        expect(page.locator("#own-pace")).to_be_visible()
        asked = page.locator("#pace-facts [data-fact='asked']")
        for group, hole, hour, minute in [("1", 1, 8, 14), ("1", 2, 8, 28), ("1", 3, 8, 42),
                                          ("2", 1, 8, 26), ("2", 2, 8, 40),
                                          ("3", 1, 8, 38), ("3", 2, 8, 52)]:  # fmt: skip
            report_at(server, group, hole, hour, minute)
        expect(asked).to_have_text(
            "Nothing entered for hole 3 for a while: if you have finished it, enter its scores or "
            "press “We've finished hole 3”.",
            timeout=10_000,  # the push, well before the page's own reading every 30 s
        )

        referee = context.new_page()
        sign_in(context, server, "referee")
        referee.goto(server.url + f"/rounds/{ROUND}/dashboard")
        prompt = referee.locator("#alerts li.k-missing_tap")
        expect(prompt).to_contain_text("ask group 2's scorer to enter hole 3")
        expect(prompt).not_to_contain_text("marshal")

        page.get_by_role("button", name="We've finished hole 3").click()
        expect(asked).to_have_count(0)
        expect(prompt).to_have_count(0, timeout=10_000)  # answered: the prompt is resolved
    finally:
        context.close()
