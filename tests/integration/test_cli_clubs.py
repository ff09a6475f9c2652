"""The clubs' and people's commands (issue 50; docs/federation.md): ``pace club add|list|
rename``, ``pace account add|role``, ``--club`` on the imports and ``pace rounds``."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner, Result

from pace.cli import cli
from pace.store import open_store

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
COURSE = DATA / "course_louiseville.toml"
DRAW = DATA / "draw.csv"


def run(*args: object, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, f"exit {result.exit_code}: {result.output}"
    return result


def test_clubs_are_made_listed_renamed_and_own_what_is_imported_for_them(tmp_path):
    db = tmp_path / "fed.db"
    run("init", "--db", db)
    assert run("club", "add", " RGC-Antwerp ", "Royal GC", "--db", db).output.startswith(
        "club rgc-antwerp\tRoyal GC"
    )
    assert "already exists" in run("club", "add", "rgc-antwerp", "Again", "--db", db,
                                   code=1).output  # fmt: skip
    assert "is not a club id" in run("club", "add", "rgс", "Cyrillic", "--db", db, code=1).output
    run("club", "rename", "RGC-ANTWERP", "Royal Antwerp", "--db", db)
    run("import", "course", COURSE, "--club", "rgc-antwerp", "--db", db)
    run("import", "draw", DRAW, "--round", "A1", "--club", "rgc-antwerp", "--date", "2026-06-14",
        "--timezone", "Europe/Brussels", "--db", db)  # fmt: skip
    # the default club has no course: the club's course is not there for it
    result = run("import", "draw", DRAW, "--round", "D1", "--date", "2026-06-14",
                 "--course", "Golf de Louiseville", "--db", db, code=1)  # fmt: skip
    assert "does not exist" in result.output
    listing = run("club", "list", "--db", db).output.splitlines()
    assert listing == ["default\tClub\t0 rounds\t0 courses\t0 people",
                       "rgc-antwerp\tRoyal Antwerp\t1 rounds\t1 courses\t0 people"]  # fmt: skip
    assert run("rounds", "--club", "rgc-antwerp", "--db", db).output.endswith("\trgc-antwerp\n")
    assert "no rounds yet" in run("rounds", "--club", "default", "--db", db).output
    with open_store(db) as store:
        assert store.round_club("A1") == "rgc-antwerp"


def test_accounts_get_a_one_time_link_and_roles(tmp_path):
    db = tmp_path / "fed.db"
    run("init", "--db", db)
    run("club", "add", "rgc", "Royal", "--db", db)
    out = run("account", "add", "Anna@RGC.be", "Anna", "--club", "rgc", "--role", "committee",
              "--url", "https://pace.example", "--db", db).output  # fmt: skip
    link = re.search(r"https://pace\.example/account/setup\?token=\S+", out)
    assert link, out
    out = run("account", "add", "root@fed.be", "Root", "--admin", "--db", db).output
    assert "/account/setup?token=" in out
    run("account", "role", "anna@rgc.be", "--club", "RGC", "--role", "referee", "--db", db)
    with open_store(db) as store:
        anna = store.account_by_email("anna@rgc.be")
        assert store.memberships(anna.id) == {"rgc": "referee"}
        assert store.account_by_email("root@fed.be").admin
        log = store.access_log(club="rgc")
        assert [e.kind for e in log] == ["role_changed", "role_changed"]
    run("account", "role", "anna@rgc.be", "--club", "rgc", "--role", "none", "--db", db)
    with open_store(db) as store:
        assert store.memberships(store.account_by_email("anna@rgc.be").id) == {}
    assert "no account" in run("account", "role", "x@y.be", "--club", "rgc", "--role",
                               "referee", "--db", db, code=1).output  # fmt: skip
    assert "together" in run("account", "add", "b@rgc.be", "B", "--club", "rgc", "--db", db,
                             code=2).output  # fmt: skip
    assert "already exists" in run("account", "add", "ANNA@rgc.be", "A", "--db", db,
                                   code=1).output  # fmt: skip
