"""The dashboard's alert says why the group was named (issue 30; docs/explanations.md).

The explanation is worked out once, when the alert is raised, and kept in its stored event;
the snapshot and the feed list alerts without it (``why``: it has one), and the page fetches it
when a referee asks "Why" (``GET /api/rounds/<round>/alerts/<key>``, issue 37; docs/protocol.md).

Round R1 of the shared test data: group "1" (three players, a lead group, off at 08:00) is
allotted 14 minutes for hole 1 and 31 for holes 1–2 (hole 2 is due at 08:31); the clock
stands at 09:10 local.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from urllib.parse import quote

from drivers import DAY, DRAW, ROUND, TIMEZONE, local


def received(sio, name: str) -> list:
    return [e["args"][0] for e in sio.get_received() if e["name"] == name]


def why(login, key: str, role: str = "referee"):
    """Return the answer to a page's "Why" for alert ``key`` (the HTTP read)."""
    return login(role).get(f"/api/rounds/{ROUND}/alerts/{quote(key, safe='')}")


def test_an_out_of_position_alert_carries_its_figures_and_the_tap_it_rests_on(
    marshal, referee, dashboard, scheduler, login
):
    tap = str(uuid.uuid4())
    marshal.tap("1", 1, "08:40", id=tap)  # 40 minutes for hole 1, allotted 14: 26 over
    raised = [p["alert"] for p in received(dashboard, "alert_raised")]
    [alert] = [a for a in raised if a["kind"] == "out_of_position" and a["group"] == "1"]
    assert "explanation" not in alert and alert["why"] is True  # fetched when asked
    answer = why(login, alert["key"])
    assert answer.status_code == 200 and answer.json["ok"]
    x = answer.json["alert"]["explanation"]
    assert answer.json["alert"]["resolved_at"] is None
    assert (x["status"], x["basis"], x["hole"], x["lead"], x["size"]) == (
        "out_of_position", "completion", 1, True, 3)  # fmt: skip
    assert (x["clock_min"], x["allotted_min"], x["over_min"], x["gap_min"]) == (
        40.0, 14.0, 26.0, None)  # fmt: skip
    assert x["over_min"] == alert["over_min"]  # the alert's own minutes, explained
    [line] = [ln for ln in x["timeline"] if ln["kind"] == "tap"]
    assert line["fact"]["id"] == tap and "marshal" in line["fact"]["by"]
    assert datetime.fromisoformat(line["at"]) == local("08:40")
    assert [ln["kind"] for ln in x["timeline"]] == ["start", "tap", "verdict", "waiting", "waiting"]
    # behind it, groups 2 (off at 08:11) and 3 (08:20) wait on hole 1, which it has just left
    assert [(b["group"], b["status"], b["over_min"], b["gap_min"]) for b in x["behind"]] == [
        ("2", "behind", 15.0, 0.0), ("3", "behind", 6.0, 0.0)]  # fmt: skip

    # a dashboard opened later lists it without it, and reads it from the stored alert
    scheduler.tick(ROUND)
    snap = referee.join()["snapshot"]
    [stored] = [a for a in snap["alerts"] if a["key"] == alert["key"]]
    assert "explanation" not in stored and stored["why"] is True
    assert all("explanation" not in a for a in snap["alerts"] + snap["resolved_alerts"])
    assert why(login, alert["key"], "committee").json["alert"]["explanation"] == x


def test_an_alerts_details_follow_the_snapshots_access_rules_and_an_unknown_key_is_a_404(
    marshal, referee, dashboard, login, app
):
    service = app.extensions["pace"].live.service
    service.import_draw(DRAW.read_text(encoding="utf-8"), str(DRAW), round="R2", day=DAY,
                        timezone=TIMEZONE)  # fmt: skip
    marshal.tap("1", 1, "08:40")
    raised = [p["alert"] for p in received(dashboard, "alert_raised")]
    [alert] = [a for a in raised if a["kind"] == "out_of_position" and a["group"] == "1"]
    for role in ("committee", "referee"):
        assert why(login, alert["key"], role).status_code == 200
    assert why(login, alert["key"], "marshal").status_code == 403  # no alerts on its page
    assert why(login, alert["key"], "scorer").status_code == 403
    anybody = login(None).get(f"/api/rounds/{ROUND}/alerts/{alert['key']}")
    assert anybody.status_code == 401
    elsewhere = login("referee", "R2").get(f"/api/rounds/{ROUND}/alerts/{alert['key']}")
    assert elsewhere.status_code == 403  # a referee of another round
    unknown = why(login, "out_of_position:9:whenever")
    assert unknown.status_code == 404
    assert unknown.json["error"]["code"] == "unknown_alert"
    assert login("referee").get("/api/rounds/NOPE/alerts/x").status_code == 404


def test_an_overdue_alert_is_explained_by_the_clock_on_the_hole_in_play(
    marshal, referee, dashboard, login
):
    marshal.tap("1", 1, "08:13")  # at 09:10: 70 minutes against 31 for holes 1–2
    raised = [p["alert"] for p in received(dashboard, "alert_raised")]
    [alert] = [a for a in raised if a["kind"] == "overdue" and a["group"] == "1"]
    x = why(login, alert["key"]).json["alert"]["explanation"]
    assert (x["status"], x["basis"], x["hole"], x["holes_completed"]) == (
        "overdue", "projection", 2, 1)  # fmt: skip
    assert (x["clock_min"], x["allotted_min"], x["over_min"]) == (70.0, 31.0, 39.0)
    assert x["over_min"] == alert["over_min"]
