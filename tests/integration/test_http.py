"""The HTTP API through Flask's test client: the status document and the command mirror."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from drivers import (
    COURSE,
    DAY,
    DRAW,
    ROUND,
    TIMES,
    TIMEZONE,
    MarshalDriver,
    assert_error,
    new_id,
)

from pace.cli import cli


@pytest.fixture
def paper_times(app):
    """Group times from the referees' paper sheet (tests/data/formats/times.csv), imported."""
    service = app.extensions["pace"].live.service
    service.import_times(TIMES.read_text(encoding="utf-8"), str(TIMES), round=ROUND, by="sheet")


def cli_status(tmp_path, at: str) -> dict:
    """Return ``pace status --json`` for the same files, day and time zone."""
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        [
            "status",
            "--course",
            str(COURSE),
            "--draw",
            str(DRAW),
            "--times",
            str(TIMES),
            "--at",
            at,
            "--json",
            "--date",
            DAY.isoformat(),
            "--timezone",
            TIMEZONE,
        ],  # fmt: skip
        env={"PACE_CONFIG": str(empty)},
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("at", ["07:59", "08:20", "08:45", "09:05", "09:30:30", "13:00"])
def test_the_status_endpoint_answers_what_pace_status_prints(client, paper_times, tmp_path, at):
    answer = client.get(f"/api/rounds/{ROUND}/status?at={at}")
    assert answer.status_code == 200
    assert answer.json == cli_status(tmp_path, at)


def test_the_status_is_at_the_servers_now_without_at(client, paper_times, tmp_path):
    assert client.get(f"/api/rounds/{ROUND}/status").json == cli_status(tmp_path, "09:10")


def test_the_status_of_an_unknown_round_is_a_404_in_the_error_shape(client):
    answer = client.get("/api/rounds/R9/status")
    assert answer.status_code == 404
    assert_error(answer.json, "unknown_round")


@pytest.mark.parametrize("at", ["25:10", "teatime", "2026-06-14T09:00:00"])
def test_a_status_at_an_impossible_instant_is_refused(client, at):
    answer = client.get(f"/api/rounds/{ROUND}/status?at={at}")
    assert answer.status_code == 400
    assert_error(answer.json, "invalid_payload", "at")


def test_rounds_snapshot_and_events_are_listed(client, paper_times):
    [r] = client.get("/api/rounds").json["rounds"]
    assert (r["name"], r["day"], r["groups"], r["events"]) == (ROUND, DAY.isoformat(), 6, 10)
    snapshot = client.get(f"/api/rounds/{ROUND}/snapshot").json["snapshot"]
    assert snapshot["groups"][0]["holes_completed"] == 4
    events = client.get(f"/api/rounds/{ROUND}/events").json["events"]
    assert [e["seq"] for e in events] == list(range(1, 11))


# -- the command mirror ---------------------------------------------------------------------


def post(client, name: str, body: object, **headers: str):
    return client.post(
        f"/api/commands/{name}",
        data=json.dumps(body),
        headers={"Content-Type": "application/json", **headers},
    )


def tap(marshal: MarshalDriver, group: str = "1", hole: int = 1, at: str = "08:13") -> dict:
    return {
        "id": new_id(),
        "round": ROUND,
        "group": group,
        "hole": hole,
        "at": marshal.instant(at),
        "device_time": marshal.now(),
    }


@pytest.fixture
def marshal(clock) -> MarshalDriver:
    """Builds payloads only (no socket): a phone whose clock is right."""
    return MarshalDriver(None, clock.now)


def test_a_tap_over_http_is_acked_like_the_socket_event_and_broadcast(
    login, connect, marshal, clock
):
    dashboard = MarshalDriver(connect("referee"), clock.now)
    dashboard.join(facts=True)
    dashboard.client.get_received()
    body = tap(marshal)

    # the role is the session's (a marshal's code), whatever the client claims
    answer = post(login("marshal"), "hole_completed", body, **{"X-Pace-Role": "committee"})

    assert answer.status_code == 200
    assert answer.json == {
        "ok": True,
        "id": body["id"],
        "seq": 1,
        "at": "2026-06-14T06:13:00+00:00",
        "duplicate": False,
    }
    logged = [e for e in dashboard.client.get_received() if e["name"] == "hole_logged"]
    assert [e["args"][0]["id"] for e in logged] == [body["id"]]
    assert logged[0]["args"][0]["by"]["role"] == "marshal"


def test_a_resend_over_http_is_a_duplicate(client, marshal):
    body = tap(marshal)
    first = post(client, "hole_completed", body).json
    again = post(client, "hole_completed", body)
    assert again.status_code == 200 and again.json == {**first, "duplicate": True}
    events = client.get(f"/api/rounds/{ROUND}/events").json["events"]
    assert [e["type"] for e in events if not e["type"].startswith("alert_")] == ["hole_completed"]


def test_the_same_tap_gives_the_same_answer_over_http_and_socket(client, sio, clock):
    phone = MarshalDriver(sio, clock.now)
    body = tap(phone)
    by_socket = phone.send("hole_completed", body)
    by_http = post(client, "hole_completed", body).json
    assert by_http == by_socket | {"duplicate": True}


@pytest.mark.parametrize(
    ("name", "change", "status", "code"),
    [
        ("hole_completed", {"group": "99"}, 404, "unknown_group"),
        ("hole_completed", {"hole": 19}, 404, "unknown_hole"),
        ("hole_completed", {"caddie": "Bob"}, 400, "unknown_field"),
        ("hole_completed", {"at": "2026-06-14T09:12:00+02:00"}, 400, "time_in_future"),
        ("hole_completed", {"device_time": None}, 400, "missing_field"),
        ("tee_time_changed", {}, 400, "unknown_command"),
    ],
)
def test_a_refused_command_over_http_has_the_error_shape(
    client, marshal, name, change, status, code
):
    answer = post(client, name, {**tap(marshal), **change})
    assert answer.status_code == status
    assert_error(answer.json, code)
    assert client.get(f"/api/rounds/{ROUND}/events").json["events"] == []


def test_a_hole_already_logged_over_http_is_a_conflict(client, marshal):
    post(client, "hole_completed", tap(marshal))
    answer = post(client, "hole_completed", tap(marshal, at="08:14"))
    assert answer.status_code == 409
    assert_error(answer.json, "already_logged", "hole")


@pytest.mark.parametrize(
    "body",
    ['{"id": "x", "round": ', "not json at all", "", "null"],
    ids=["truncated", "text", "empty", "null"],
)
def test_malformed_json_is_refused_with_the_error_shape(client, body):
    answer = client.post(
        "/api/commands/hole_completed", data=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 400
    assert_error(answer.json, "invalid_json")


def test_a_json_list_is_not_a_command(client):
    answer = post(client, "hole_completed", [1, 1, "08:13"])
    assert answer.status_code == 400
    assert_error(answer.json, "invalid_payload")


def test_corrections_sirens_and_acknowledgements_have_http_mirrors(client, marshal, clock):
    first = post(client, "hole_completed", tap(marshal, at="08:40")).json
    correction = {
        "id": new_id(),
        "round": ROUND,
        "target": first["id"],
        "at": marshal.instant("08:14"),
        "device_time": marshal.now(),
        "reason": "tapped late",
    }
    assert post(client, "correct_hole_time", correction).json["ok"] is True
    siren = {"id": new_id(), "round": ROUND, "kind": "suspension",
             "at": marshal.instant("09:00"), "device_time": marshal.now()}  # fmt: skip
    assert post(client, "record_siren", siren).json["ok"] is True
    void = {"id": new_id(), "round": ROUND, "target": siren["id"], "reason": "wrong button"}
    assert post(client, "void_event", void).json["ok"] is True
    ack = {"id": new_id(), "round": ROUND, "alert": "overdue:1:9"}
    assert_error(post(client, "acknowledge_alert", ack).json, "unknown_alert", "alert")
    events = client.get(f"/api/rounds/{ROUND}/events").json["events"]
    types = [e["type"] for e in events if not e["type"].startswith("alert_")]
    assert types == ["hole_completed", "hole_time_corrected", "siren", "event_voided"]
    # the tap at 08:40 put group 1 out of position: its alert was raised with it (issue 13)
    raised = [e["payload"]["key"] for e in events if e["type"] == "alert_raised"]
    assert "out_of_position:1:h1" in raised, raised


def test_unknown_paths_and_methods_answer_in_the_error_shape(client):
    missing = client.get("/api/nowhere")
    assert missing.status_code == 404
    assert_error(missing.json, "not_found")
    wrong = client.put(f"/api/rounds/{ROUND}/status")
    assert wrong.status_code == 405
    assert_error(wrong.json, "method_not_allowed")
