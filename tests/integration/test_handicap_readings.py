"""A round's own readings of the handicap rules (issue 47; docs/scoring.md, "Handicaps").

The WHS readings (``rounding``, ``gross_par_adjustment``) were config.toml's alone: a stored
round's results took whatever the configuration said when they were computed. Now a round keeps
its own (migration m012): a new round takes the configuration's when it is created, the
committee changes them on the round's page (or ``pace round handicap``), and its results follow
them everywhere (JSON, the sheet's footer and figures, CSV, Excel, ``pace results --round``);
``pace results --rounding`` still overrides them for one run. A database from before m012 opens,
its rounds reading config.toml's as before.

The worked example of docs/scoring.md: index 9.0 on a course of slope 129, rating 71.3, par 72,
net stroke play at 95 %: the WHS reading's playing handicap is 9, the older reading's 10.
"""

from __future__ import annotations

import io
import json
import sqlite3
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
from pace.services.backup import export_round, restore_round
from pace.services.scoring import round_scoring
from pace.store import is_database_url, open_store
from pace.store.records import course_json

ROUND = "R1"
ANN = "Ann Peeters"  # index 9.0: playing handicap 9 (WHS), 10 (the older reading)
DRAW = f"group,start,tee,player,handicap\n1,08:00,1,{ANN},9.0\n1,08:00,1,Bart Maes,20.0\n"
OLDER = "course_then_playing"


def rated_course() -> str:
    """Louiseville (par 72) rated as the worked example: slope 129, rating 71.3."""
    text = COURSE.read_text(encoding="utf-8")
    return text.replace('name = "Golf de Louiseville"\n',
                        'name = "Golf de Louiseville"\nslope = 129\nrating = 71.3\n')  # fmt: skip


def scores_csv() -> str:
    """Both players par every hole: 72 gross."""
    course = formats.parse_course(rated_course(), "course.toml")
    rows = [f"1,{p},{h.number},{h.par}" for p in (ANN, "Bart Maes") for h in course.holes]
    return "group,player,hole,strokes\n" + "\n".join(rows) + "\n"


def settings_for(db: Path, **handicap: object) -> config.Settings:
    return config.Settings().replace(
        server={"async_mode": "threading"},
        database={"path": str(db)},
        scheduler={"enabled": False},
        handicap=handicap,
    )


def make_app(db: Path, **handicap: object) -> Flask:
    return create_app(settings_for(db, **handicap), clock=FakeClock(local("14:00")), testing=True)


def set_up(app: Flask) -> None:
    """The rated course, a net stroke round of one group, and its cards (every hole par)."""
    service = app.extensions["pace"].live.service
    service.import_course(rated_course(), "course.toml")
    service.import_draw(DRAW, "draw.csv", round=ROUND, day=DAY, timezone=TIMEZONE,
                        scoring="stroke", net=True)  # fmt: skip
    from pace.services.scores import import_scores

    import_scores(service, scores_csv(), "scores.csv", round=ROUND, by="test")


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    """The round on the configuration's defaults (the WHS reading, the gross adjustment)."""
    app = make_app(tmp_path / "pace.db")
    set_up(app)
    try:
        yield app
    finally:
        close_app(app)


@pytest.fixture
def committee(app):
    c = app.test_client()
    token = app.extensions["pace"].access.grant("committee", None, None).token
    with c.session_transaction() as s:
        s["token"] = token
    return c


def csrf(client) -> str:
    with client.session_transaction() as s:
        return str(s["csrf"])


def ann(client) -> dict:
    doc = client.get(f"/api/rounds/{ROUND}/results").get_json()
    (entry,) = [e for e in doc["entries"] if e["entry"] == ANN]
    return {"handicap": doc["handicap"], "playing": entry["playing_handicap"], "net": entry["net"]}


def post_readings(client, **fields: str):
    client.get(f"/rounds/{ROUND}/changes")  # the form's token
    return client.post(f"/rounds/{ROUND}/handicap", data={"csrf": csrf(client), **fields},
                       headers={"Accept": "text/html"})  # fmt: skip


# -- the store ---------------------------------------------------------------------------------


def test_a_round_keeps_its_readings_and_refuses_unknown_ones(target: str) -> None:
    from pace.rules.errors import SetupError

    course = formats.parse_course(rated_course(), "course.toml")
    with open_store(target) as store:
        store.save_course(course)
        store.create_round(ROUND, course=course.name, day=DAY, timezone=TIMEZONE)
        assert (store.get_round(ROUND).rounding, store.get_round(ROUND).gross_par_adjustment) == (
            None,
            None,
        )
        store.update_round(ROUND, rounding=OLDER, gross_par_adjustment=False)
    with open_store(target) as store:
        record = store.get_round(ROUND)
        assert (record.rounding, record.gross_par_adjustment) == (OLDER, False)
        with pytest.raises(SetupError, match="handicap rounding 'half'") as refused:
            store.update_round(ROUND, rounding="half")
        assert refused.value.field == "rounding"
        with pytest.raises(SetupError, match="gross_par_adjustment must be true or false"):
            store.update_round(ROUND, gross_par_adjustment="yes")  # type: ignore[arg-type]
        assert store.get_round(ROUND).rounding == OLDER
        store.update_round(ROUND, rounding=None, gross_par_adjustment=None)
        assert store.get_round(ROUND).rounding is None


def old_database(target: str) -> None:
    """Write a database as pace left it before issue 47 (migrations m001–m011), holding the
    rated course and a net stroke round, the way those migrations' SQL stored them."""
    course = formats.parse_course(rated_course(), "course.toml")
    rows = [
        ("INSERT INTO courses (name, data, imported_at, slope, rating) VALUES (?, ?, ?, ?, ?)",
         [course.name, json.dumps(course_json(course)), "2026-06-01T08:00:00.000000+00:00",
          129, 71.3]),
        ("INSERT INTO rounds (name, course, day, timezone, policy, created_at, scoring, net)"
         " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
         [ROUND, course.name, DAY.isoformat(), TIMEZONE, "frbg",
          "2026-06-01T08:00:00.000000+00:00", "stroke", 1]),
    ]  # fmt: skip
    if is_database_url(target):
        from pace.store.pg import migrations as pg_migrations
        from pace.store.pg.db import PgDatabase

        db = PgDatabase(target)
        db.open()
        try:
            assert "m012_handicap_readings" not in pg_migrations.apply(
                db, stop_before="m012_handicap_readings"
            )
            with db.write() as cur:
                for sql, values in rows:
                    cur.execute(sql, values)
        finally:
            db.close()
        return
    import sqlite_utils

    from pace.store.sqlite import migrations

    Path(target).parent.mkdir(parents=True, exist_ok=True)
    old = sqlite_utils.Database(target)
    migrations.MIGRATIONS.apply(old, stop_before="m012_handicap_readings")
    for sql, values in rows:
        old.execute(sql, values)
    old.conn.commit()
    old.close()


def test_an_old_database_opens_and_its_rounds_take_the_configurations_readings(target: str):
    old_database(target)
    with open_store(target) as store:
        # m012, then m013 (issue 48): a round stored before them allows no positions
        assert store.applied_migrations()[-3:] == ["m012_handicap_readings", "m013_positions",
                                                   "m014_clubs"]  # fmt: skip
        record = store.get_round(ROUND)
        assert record.positions is False
        assert (record.rounding, record.gross_par_adjustment) == (None, None)
        # as before issue 47: the configuration's readings, whichever they are
        whs = round_scoring(record, config.Settings()).allowances
        assert (whs.rounding, whs.gross_par_adjustment) == ("whs", True)
        older = config.Settings().replace(
            handicap={"rounding": OLDER, "gross_par_adjustment": False}
        )
        readings = round_scoring(record, older).allowances
        assert (readings.rounding, readings.gross_par_adjustment) == (OLDER, False)
        # and the committee may give it readings of its own now
        store.update_round(ROUND, rounding=OLDER)
        assert round_scoring(store.get_round(ROUND), config.Settings()).allowances.rounding == OLDER
    if not is_database_url(target):
        conn = sqlite3.connect(target)
        try:
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute("UPDATE rounds SET rounding = 'half'")
        finally:
            conn.close()


def test_an_old_round_in_a_running_app_scores_by_the_configuration(tmp_path):
    db = tmp_path / "pace.db"
    old_database(str(db))
    app = make_app(db, rounding=OLDER)
    try:
        service = app.extensions["pace"].live.service
        from pace.services.scores import import_scores

        service.import_draw(DRAW, "draw.csv", round=ROUND)  # an old round's draw, replaced
        import_scores(service, scores_csv(), "scores.csv", round=ROUND, by="test")
        assert service.store.get_round(ROUND).rounding is None  # not made its own
        committee = app.test_client()
        token = app.extensions["pace"].access.grant("committee", None, None).token
        with committee.session_transaction() as s:
            s["token"] = token
        assert ann(committee)["playing"] == 10
        page = committee.get(f"/rounds/{ROUND}/changes?lang=en").get_data(as_text=True)
        assert "config.toml&#39;s are shown and used" in page
    finally:
        close_app(app)


# -- a new round, the committee's page, the results ----------------------------------------


def test_a_new_round_takes_the_configurations_readings_and_keeps_them(tmp_path):
    db = tmp_path / "pace.db"
    app = make_app(db, rounding=OLDER, gross_par_adjustment=False)
    try:
        set_up(app)
        record = app.extensions["pace"].store.get_round(ROUND)
        assert (record.rounding, record.gross_par_adjustment) == (OLDER, False)
    finally:
        close_app(app)
    # config.toml changed since: the round keeps the readings it was created with
    app = make_app(db)
    try:
        c = app.test_client()
        token = app.extensions["pace"].access.grant("committee", None, None).token
        with c.session_transaction() as s:
            s["token"] = token
        assert ann(c) == {
            "handicap": {"rounding": OLDER, "gross_par_adjustment": False},
            "playing": 10,
            "net": 62,
        }
    finally:
        close_app(app)


def test_the_committee_changes_the_readings_and_every_result_follows(app, committee):
    assert ann(committee) == {
        "handicap": {"rounding": "whs", "gross_par_adjustment": True},
        "playing": 9,
        "net": 63,
    }
    page = committee.get(f"/rounds/{ROUND}/changes?lang=en").get_data(as_text=True)
    assert '<option value="whs" selected>' in page
    assert "config.toml&#39;s are shown and used" not in page  # the round's own, since created
    answer = post_readings(committee, rounding=OLDER, gross_par_adjustment="no")
    assert answer.status_code == 302 and "handicap_saved=1" in answer.headers["Location"]
    assert ann(committee) == {
        "handicap": {"rounding": OLDER, "gross_par_adjustment": False},
        "playing": 10,
        "net": 62,
    }
    page = committee.get(answer.headers["Location"] + "&lang=en").get_data(as_text=True)
    assert f'<option value="{OLDER}" selected>' in page and 'id="handicap-saved"' in page
    assert '<option value="no" selected>' in page
    # the sheet's footer and figures, the CSV and the Excel CSV, the leaderboard
    sheet = committee.get(f"/rounds/{ROUND}/results?lang=nl").get_data(as_text=True)
    foot = sheet.split('<footer class="sheet-foot">')[1]
    assert "oudere lezing" in foot and "één keer afgerond" not in foot
    assert '<td class="num">10</td>' in sheet
    rows = committee.get(f"/rounds/{ROUND}/results.csv").get_data(as_text=True).splitlines()
    head = rows[0].split(",")
    (line,) = [r.split(",") for r in rows if ANN in r]
    assert line[head.index("playing_handicap")] == "10" and line[head.index("net")] == "62"
    excel = committee.get(f"/rounds/{ROUND}/results.csv?excel=1").get_data(as_text=True)
    assert any(ANN in r and ";10;" in r for r in excel.splitlines())
    board = committee.get(f"/api/rounds/{ROUND}/leaderboard").get_json()["leaderboard"]
    (row,) = [e for e in board["entries"] if e["entry"] == ANN]
    assert (row["playing_handicap"], row["net"]) == (10, 62)
    # and back: the WHS reading
    post_readings(committee, rounding="whs", gross_par_adjustment="yes")
    assert ann(committee)["playing"] == 9


HOSTILE = {
    "unknown rounding": ({"rounding": "half", "gross_par_adjustment": "yes"}, "invalid_payload"),
    "no rounding": ({"gross_par_adjustment": "yes"}, "missing_field"),
    "no adjustment": ({"rounding": OLDER}, "missing_field"),
    "adjustment not yes or no": ({"rounding": OLDER, "gross_par_adjustment": "1"},
                                 "invalid_payload"),
    "extra field": ({"rounding": OLDER, "gross_par_adjustment": "no", "net": "yes"},
                    "unknown_field"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_bad_form_changes_nothing_and_says_so_in_the_pages_language(app, committee, case):
    fields, code = HOSTILE[case]
    committee.get("/?lang=nl")  # the device's language: Dutch
    answer = post_readings(committee, **fields)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    said = "Verzoek geweigerd" if code == "unknown_field" else "Formulier onvolledig"
    assert '<html lang="nl">' in page and f"<h1>{said}</h1>" in page, page
    json_answer = committee.post(f"/rounds/{ROUND}/handicap",
                                 data={"csrf": csrf(committee), **fields})  # fmt: skip
    assert json_answer.get_json()["error"]["code"] == code
    record = app.extensions["pace"].store.get_round(ROUND)
    assert (record.rounding, record.gross_par_adjustment) == ("whs", True)


def test_final_results_keep_their_readings_until_reopened(app, committee):
    from pace.services.commands import Author
    from pace.services.life import RoundLifeService

    parts = app.extensions["pace"]
    life = RoundLifeService(parts.live)
    jane = Author(name="Jane Roe", role="committee", device="console")
    life.finish(ROUND, jane)
    life.finalise(ROUND, jane)
    committee.get("/?lang=fr")
    answer = post_readings(committee, rounding=OLDER, gross_par_adjustment="yes")
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert "Résultats définitifs" in page and "rouvrez-les" in page
    assert parts.store.get_round(ROUND).rounding == "whs"
    assert ann(committee)["playing"] == 9
    life.reopen(ROUND, jane, "the committee's reading")
    assert post_readings(committee, rounding=OLDER, gross_par_adjustment="yes").status_code == 302
    assert ann(committee)["playing"] == 10


def test_the_new_round_form_offers_the_configurations_readings(tmp_path):
    app = make_app(tmp_path / "pace.db", rounding=OLDER)
    try:
        c = app.test_client()
        token = app.extensions["pace"].access.grant("committee", None, None).token
        with c.session_transaction() as s:
            s["token"] = token
        app.extensions["pace"].live.service.import_course(rated_course(), "course.toml")
        page = c.get("/rounds/new?lang=en").get_data(as_text=True)
        assert f'<option value="{OLDER}" selected>' in page
        assert '<option value="yes" selected>' in page
        form = {"csrf": csrf(c), "round": "R2", "course": "Golf de Louiseville",
                "date": DAY.isoformat(), "timezone": TIMEZONE, "policy": "frbg",
                "scoring": "stroke", "net": "net", "rounding": "whs",
                "gross_par_adjustment": "no",
                "draw": (io.BytesIO(DRAW.encode()), "draw.csv")}  # fmt: skip
        answer = c.post("/api/rounds/create", data=form, content_type="multipart/form-data")
        assert answer.get_json()["ok"], answer.get_json()
        record = app.extensions["pace"].store.get_round("R2")
        assert (record.rounding, record.gross_par_adjustment) == ("whs", False)
    finally:
        close_app(app)


# -- the command line and the backups ------------------------------------------------------------


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def playing(output: str) -> int:
    (entry,) = [e for e in json.loads(output)["entries"] if e["entry"] == ANN]
    return int(entry["playing_handicap"])


def test_pace_results_follows_the_round_and_its_options_override_one_run(app, tmp_path):
    db = str(tmp_path / "pace.db")
    parts = app.extensions["pace"]
    parts.live.service.set_handicap_readings(ROUND, rounding=OLDER, gross_par_adjustment=True)
    assert playing(run("results", "--round", ROUND, "--db", db, "--json")) == 10
    assert playing(run("results", "--round", ROUND, "--db", db, "--json",
                       "--rounding", "whs")) == 9  # fmt: skip
    assert parts.store.get_round(ROUND).rounding == OLDER  # this run only: nothing stored
    out = run("results", "--round", ROUND, "--db", db, "--rounding", "whs")
    assert out.rstrip().endswith("the unrounded course handicap times the allowance, rounded once.")
    text = run("results", "--round", ROUND, "--db", db, "--csv")
    assert any(ANN in row and ",10," in row for row in text.splitlines())
    html = run("results", "--round", ROUND, "--db", db, "--format", "html", "--lang", "en",
               "--no-gross-par-adjustment")  # fmt: skip
    foot = html.split('<footer class="sheet-foot">')[1]
    assert "the course handicap rounded, then" in foot


def test_pace_round_handicap_and_pace_import_draw_set_a_rounds_readings(app, tmp_path):
    db = str(tmp_path / "pace.db")
    out = run("round", "handicap", "--round", ROUND, "--rounding", OLDER,
              "--no-gross-par-adjustment", "--db", db)  # fmt: skip
    assert out.strip() == (
        f"round {ROUND}: playing handicaps {OLDER}, gross from tees of different par not adjusted"
    )
    store = app.extensions["pace"].store
    assert (store.get_round(ROUND).rounding, store.get_round(ROUND).gross_par_adjustment) == (
        OLDER,
        False,
    )
    draw = tmp_path / "draw.csv"
    draw.write_text(DRAW, encoding="utf-8")
    run("import", "draw", str(draw), "--round", "R2", "--date", DAY.isoformat(), "--timezone",
        TIMEZONE, "--rounding", OLDER, "--db", db)  # fmt: skip
    r2 = store.get_round("R2")
    assert (r2.rounding, r2.gross_par_adjustment) == (OLDER, True)  # the config's adjustment
    result = CliRunner().invoke(cli, ["round", "handicap", "--round", ROUND, "--rounding",
                                      "half", "--gross-par-adjustment", "--db", db])  # fmt: skip
    assert result.exit_code != 0 and "'half' is not one of" in result.output


def test_a_backup_keeps_the_rounds_readings(app, tmp_path):
    from pace.services.rounds import RoundService

    service = app.extensions["pace"].live.service
    service.set_handicap_readings(ROUND, rounding=OLDER, gross_par_adjustment=False)
    text = export_round(service, ROUND)
    header = json.loads(text.splitlines()[0])
    assert (header["round"]["rounding"], header["round"]["gross_par_adjustment"]) == (OLDER, False)
    # a backup written before issue 47 has no readings: restored, it takes the configuration's
    header["round"].pop("rounding")
    header["round"].pop("gross_par_adjustment")
    plain = "\n".join([json.dumps(header), *text.splitlines()[1:]]) + "\n"
    for name, backup, readings in (("kept", text, (OLDER, False)), ("old", plain, (None, None))):
        with open_store(tmp_path / f"{name}.db") as store:
            restore_round(RoundService(store, config.Settings()), backup, f"{name}.jsonl")
            record = store.get_round(ROUND)
            assert (record.rounding, record.gross_par_adjustment) == readings
