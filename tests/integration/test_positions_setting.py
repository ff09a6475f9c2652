"""A round allows positions from the groups' phones, or not (issue 48; docs/positions.md).

Off by default: a round stored before migration m013 and a new round under config.toml's
``[round] positions = false``; ``positions = true`` there makes new rounds allow them. The
committee changes it with ``pace round positions on|off --round R`` or on the round's page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from drivers import COURSE, DAY, TIMEZONE, local
from flask import Flask

from pace import config, formats
from pace.app import close_app, create_app
from pace.cli import cli
from pace.clock import FakeClock
from pace.rules.errors import SetupError
from pace.store import open_store

ROUND = "R1"
DRAW = "group,start,tee,player,handicap\n1,08:00,1,Ann Peeters,9.0\n"


def make_app(db: Path, **round_settings: object) -> Flask:
    settings = config.Settings().replace(
        server={"async_mode": "threading"},
        database={"path": str(db)},
        scheduler={"enabled": False},
        round=round_settings,
    )
    app = create_app(settings, clock=FakeClock(local("14:00")), testing=True)
    service = app.extensions["pace"].live.service
    service.import_course(COURSE.read_text(encoding="utf-8"), "course.toml")
    service.import_draw(DRAW, "draw.csv", round=ROUND, day=DAY, timezone=TIMEZONE)
    return app


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = make_app(tmp_path / "pace.db")
    try:
        yield app
    finally:
        close_app(app)


def test_a_round_keeps_whether_it_allows_positions_on_both_engines(target: str) -> None:
    course = formats.parse_course(COURSE.read_text(encoding="utf-8"), "course.toml")
    with open_store(target) as store:
        store.save_course(course)
        store.create_round(ROUND, course=course.name, day=DAY, timezone=TIMEZONE)
        assert store.get_round(ROUND).positions is False
        store.update_round(ROUND, positions=True)
    with open_store(target) as store:
        assert store.get_round(ROUND).positions is True
        with pytest.raises(SetupError, match="positions 'yes' must be true or false"):
            store.update_round(ROUND, positions="yes")  # type: ignore[arg-type]
        assert store.get_round(ROUND).positions is True


def test_a_new_round_takes_the_configurations_default(tmp_path) -> None:
    off = make_app(tmp_path / "off.db")
    on = make_app(tmp_path / "on.db", positions=True)
    try:
        assert off.extensions["pace"].store.get_round(ROUND).positions is False
        assert on.extensions["pace"].store.get_round(ROUND).positions is True
    finally:
        close_app(off)
        close_app(on)
    assert config.Settings().round.positions is False
    assert config.load(Path(__file__).parents[2] / "config.toml").round.positions is False


def test_pace_round_positions_turns_them_on_and_off(app, tmp_path) -> None:
    db = str(tmp_path / "pace.db")
    store = app.extensions["pace"].store
    result = CliRunner().invoke(cli, ["round", "positions", "on", "--round", ROUND, "--db", db])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"round {ROUND}: positions from the groups' phones allowed"
    assert store.get_round(ROUND).positions is True
    result = CliRunner().invoke(cli, ["round", "positions", "off", "--round", ROUND, "--db", db])
    assert result.output.strip() == f"round {ROUND}: positions from the groups' phones not allowed"
    assert store.get_round(ROUND).positions is False
    result = CliRunner().invoke(cli, ["round", "positions", "maybe", "--round", ROUND, "--db", db])
    assert result.exit_code != 0 and "'maybe' is not one of" in result.output


def csrf(client) -> str:
    with client.session_transaction() as s:
        return str(s["csrf"])


def test_the_committee_allows_positions_on_the_rounds_page(app) -> None:
    c = app.test_client()
    token = app.extensions["pace"].access.grant("committee", None, None).token
    with c.session_transaction() as s:
        s["token"] = token
    page = c.get(f"/rounds/{ROUND}/changes").get_data(as_text=True)
    assert 'id="positions-box"' in page and '<option value="off" selected>' in page
    answer = c.post(f"/rounds/{ROUND}/positions", data={"csrf": csrf(c), "positions": "on"})
    assert answer.status_code == 302
    assert app.extensions["pace"].store.get_round(ROUND).positions is True
    page = c.get(f"/rounds/{ROUND}/changes?positions_saved=1").get_data(as_text=True)
    assert '<option value="on" selected>' in page and 'id="positions-saved"' in page
    # a form tampered with changes nothing
    answer = c.post(f"/rounds/{ROUND}/positions", data={"csrf": csrf(c), "positions": "always"},
                    headers={"Accept": "application/json"})  # fmt: skip
    assert answer.status_code == 400
    answer = c.post(f"/rounds/{ROUND}/positions",
                    data={"csrf": csrf(c), "positions": "off", "extra": "1"},
                    headers={"Accept": "application/json"})  # fmt: skip
    assert answer.status_code == 400
    assert app.extensions["pace"].store.get_round(ROUND).positions is True


def test_a_backup_keeps_whether_the_round_allows_positions(app, tmp_path) -> None:
    import json

    from pace.services.backup import export_round, restore_round
    from pace.services.rounds import RoundService

    service = app.extensions["pace"].live.service
    plain = export_round(service, ROUND)
    assert "positions" not in json.loads(plain.splitlines()[0])["round"]  # as before: off
    service.set_positions(ROUND, True)
    text = export_round(service, ROUND)
    assert json.loads(text.splitlines()[0])["round"]["positions"] is True
    for name, backup, allowed in (("on", text, True), ("off", plain, False)):
        with open_store(tmp_path / f"{name}.db") as store:
            restore_round(RoundService(store, config.Settings()), backup, f"{name}.jsonl")
            assert store.get_round(ROUND).positions is allowed
