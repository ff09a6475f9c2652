"""Prometheus metrics at /metrics through the test clients (issue 29, part 4): a few taps and
commands played, the scrape's counts equal the stored log's; off by default; 404 to an address
not in ``server.metrics_from``."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections import Counter

import pytest
from drivers import ROUND, new_id
from prometheus_client.parser import text_string_to_metric_families

from pace.app import close_app, create_app
from pace.rules.alerts import AlertBook
from pace.scheduler import PaceScheduler, due_before
from pace.web import health

#: the event each command stores when it is accepted
STORES = {
    "hole_completed": "hole_completed",
    "correct_hole_time": "hole_time_corrected",
    "record_siren": "siren",
    "void_event": "event_voided",
}


@pytest.fixture
def settings(settings):
    """The shared settings, with the metrics on (for the default addresses)."""
    return settings.replace(server={"async_mode": "threading", "metrics": True})


def scrape(client) -> dict[tuple[str, tuple], float]:
    """GET /metrics and return every sample by (name, sorted labels)."""
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    assert answer.content_type.startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(answer.get_data(as_text=True)):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def post(client, name: str, body: dict) -> dict:
    answer = client.post(f"/api/commands/{name}", data=json.dumps(body),
                         headers={"Content-Type": "application/json"})  # fmt: skip
    return answer.get_json()


def test_the_counts_scraped_equal_the_stored_log(app, marshal, client, login, connect):
    ext = app.extensions["pace"]
    referee_socket = connect("referee", "referee-phone")
    taps = [marshal.tap(group, 1, at) for group, at in (("1", "08:13"), ("2", "08:22"))]
    resend = marshal.tap("1", 1, "08:13", id=taps[0]["id"])
    assert resend["duplicate"] is True
    unknown = {"id": new_id(), "round": ROUND, "group": "99", "hole": 1,
               "at": marshal.instant("08:30")}  # fmt: skip
    refused = marshal.send("hole_completed", unknown)
    assert refused["ok"] is False
    correction = {"id": new_id(), "round": ROUND, "target": taps[1]["id"],
                  "at": marshal.instant("08:21"), "device_time": marshal.now(),
                  "reason": "tapped late"}  # fmt: skip
    assert post(client, "correct_hole_time", correction)["ok"] is True
    siren = {"id": new_id(), "round": ROUND, "kind": "suspension",
             "at": marshal.instant("09:00"), "device_time": marshal.now()}  # fmt: skip
    assert post(client, "record_siren", siren)["ok"] is True
    void = {"id": new_id(), "round": ROUND, "target": siren["id"], "reason": "wrong button"}
    assert post(client, "void_event", void)["ok"] is True
    wall = 1_800_000_000.0  # the scheduler's wall clock, stopped: a tick's end is its start
    ticked = PaceScheduler(ext.live, ext.broadcaster, tick_seconds=5,
                           ticked=ext.metrics.ticks.observe, due=ext.metrics.ticks_due.observe,
                           wall=lambda: wall)  # fmt: skip
    ticked.tick(ROUND)
    ticked.tick_due(ROUND)  # a scheduled tick
    late = wall - due_before(ROUND, 5, wall)

    samples = scrape(client)
    stored = ext.store.events(ROUND)
    kinds = Counter(e.type for e in stored)
    for command, kind in STORES.items():
        ok = samples.get(("pace_commands_total", (("command", command), ("outcome", "ok"))), 0)
        assert ok == kinds[kind], (command, ok, kinds)
    duplicate = (("command", "hole_completed"), ("outcome", "duplicate"))
    assert samples[("pace_commands_total", duplicate)] == 1
    code = refused["error"]["code"]
    assert samples[("pace_commands_total", (("command", "hole_completed"), ("outcome", code)))] == 1
    # one commit measured per event a command stored
    assert samples[("pace_commit_seconds_count", ())] == sum(kinds[k] for k in STORES.values())
    assert samples[("pace_tick_seconds_count", ())] == 2
    assert samples[("pace_tick_due_seconds_count", ())] == 1  # the scheduled one only
    assert samples[("pace_tick_due_seconds_sum", ())] == late
    assert samples[("pace_sockets", (("role", "marshal"),))] == 1
    assert samples[("pace_sockets", (("role", "referee"),))] == 1
    # the alerts open: raised (or re-opened) in the log, neither acknowledged nor resolved since
    assert any(e.type == "alert_raised" for e in stored), "the late tap of group 2 raises one"
    book = AlertBook()
    for e in stored:
        book.apply(e)
    assert samples[("pace_alerts_open", (("round", ROUND),))] == len(book.open())

    referee_socket.disconnect()
    assert scrape(client)[("pace_sockets", (("role", "referee"),))] == 0


def test_metrics_answer_only_the_allowed_addresses(app, login):
    anybody = login(None)
    assert anybody.get("/metrics").status_code == 200  # 127.0.0.1, no session needed
    far = anybody.get("/metrics", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert far.status_code == 404
    assert far.get_json()["error"]["code"] == "not_found"  # as a page that does not exist
    lan = app.extensions["pace"].settings.replace(server={"metrics_from": ["192.0.2.0/24"]})
    app.extensions["pace"] = dataclasses.replace(app.extensions["pace"], settings=lan)
    assert anybody.get("/metrics", environ_base={"REMOTE_ADDR": "192.0.2.7"}).status_code == 200
    assert anybody.get("/metrics").status_code == 404


def test_metrics_are_off_unless_configured(settings, clock, tmp_path):
    off = settings.replace(server={"metrics": False}, database={"path": str(tmp_path / "o.db")})
    app = create_app(off, clock=clock, testing=True)
    try:
        assert app.extensions["pace"].metrics is None
        assert app.test_client().get("/metrics").status_code == 404
    finally:
        close_app(app)


def test_report_jobs_are_counted_by_kind_and_how_they_ended(app, client):
    client.get(f"/rounds/{ROUND}/report")  # makes the browser's form token
    with client.session_transaction() as s:
        token = s["csrf"]
    answer = client.post(f"/rounds/{ROUND}/report/jobs", data={"kind": "report", "csrf": token})
    assert answer.status_code == 200, answer.json
    jobs = app.extensions["pace"].report_jobs
    queued = scrape(client)
    assert queued[("pace_report_jobs_total", (("kind", "report"), ("state", "queued")))] == 1
    done = jobs.get(ROUND, answer.json["job"]["id"])
    done.task.join(timeout=120)
    failed = jobs.start("no such round", "letters", "en")  # a round removed meanwhile
    failed.task.join(timeout=120)
    assert (done.state, failed.state) == ("done", "failed")

    samples = scrape(client)
    for kind, state, n in (("report", "queued", 1), ("report", "done", 1),
                           ("letters", "queued", 1), ("letters", "failed", 1)):  # fmt: skip
        assert samples[("pace_report_jobs_total", (("kind", kind), ("state", state)))] == n
    assert ("pace_report_jobs_total", (("kind", "report"), ("state", "failed"))) not in samples
    for kind in ("report", "letters"):
        assert samples[("pace_report_job_seconds_count", (("kind", kind),))] == 1
    assert samples[("pace_report_job_seconds_sum", (("kind", "report"),))] > 0


def test_store_errors_are_counted_by_kind(app, marshal, client):
    store = app.extensions["pace"].store
    backup = sqlite3.connect(store.location, isolation_level=None, timeout=0)
    try:
        backup.execute("BEGIN IMMEDIATE")  # the write lock, held as a backup tool would
        assert client.get("/readyz").status_code == 503  # the probe's write waits on
        marshal.tap("1", 1, "08:13", error="storage_unavailable")  # after the busy timeout
        app.extensions[health.PROBE].join(timeout=30)  # the probe's write refused too
    finally:
        backup.execute("ROLLBACK")
        backup.close()
    marshal.tap("1", 1, "08:13")  # the lock gone, the same tap lands
    samples = scrape(client)
    assert samples[("pace_store_errors_total", (("kind", "SQLITE_BUSY"),))] == 2
    refused = (("command", "hole_completed"), ("outcome", "storage_unavailable"))
    assert samples[("pace_commands_total", refused)] == 1
    store.close()  # the store closed under the app: a command, a page are refused too
    marshal.tap("2", 1, "08:22", error="storage_unavailable")
    assert client.get(f"/api/rounds/{ROUND}/events").status_code == 503
    assert scrape(client)[("pace_store_errors_total", (("kind", "closed"),))] == 2
