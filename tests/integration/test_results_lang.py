"""``pace results --lang`` (issue 47): the table a terminal prints follows the language asked
for, the results sheet's words, decimal commas in French and Dutch, days written 14/06/2026;
the option was silently ignored without ``--format html|pdf``. The machine formats (``--json``,
``--csv``, ``--excel``) keep their stable keys and columns: ``--lang`` is refused with them, as
with a competition's table (``--event``), with a sentence that says so. Without ``--lang`` the
table is the CLI's English one, as before.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data" / "results"
FILES = ["--course", DATA / "course.toml", "--draw", DATA / "draw.csv",
         "--scores", DATA / "scores.csv", "--date", "2026-06-14"]  # fmt: skip


@pytest.fixture(autouse=True)
def _cli_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args, code=0) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def rows(out: str) -> list[list[str]]:
    """Return the table's lines as cells (split on the two spaces between columns)."""
    return [re.split(r"\s{2,}", line.strip()) for line in out.splitlines() if line.strip()]


def test_a_stored_rounds_results_in_dutch_then_final(tmp_path):
    db = tmp_path / "pace.db"
    run("import", "course", DATA / "course.toml", "--db", db)
    run("import", "draw", DATA / "draw.csv", "--round", "Lentebeker", "--date", "2026-06-14",
        "--timezone", "Europe/Brussels", "--scoring", "stableford", "--net",
        "--db", db)  # fmt: skip
    run("import", "scores", DATA / "scores.csv", "--round", "Lentebeker", "--db", db)
    out = run("results", "--round", "Lentebeker", "--db", db, "--lang", "nl")
    lines = out.splitlines()
    assert lines[:5] == [
        "Uitslagen · Lentebeker",
        "Baan: Neuf trous de Louiseville",
        "Stableford netto, individueel",
        "14/06/2026",
        "Uitslagen nog niet definitief: scores en straffen kunnen nog wijzigen.",
    ]
    table = rows(out)
    assert ["Pl.", "Speler", "Hcp", "Punten", "Countback", "Opmerking"] in table
    assert ["1", "Julie Gagné", "4", "18"] in table
    assert ["Klasse AA", "Klasse A", "Klasse B"] == [x for x in lines if x.startswith("Klasse")]
    # no English word of the CLI's own table
    assert not re.search(r"\b(results|entry|points|gross|provisional)\b", out)
    run("round", "finish", "--round", "Lentebeker", "--by", "J. Peeters", "--db", db)
    run("round", "final", "--round", "Lentebeker", "--by", "J. Peeters", "--db", db)
    out = run("results", "--round", "Lentebeker", "--db", db, "--lang", "fr")
    stamp = out.splitlines()[4]
    assert re.fullmatch(r"Résultats définitifs depuis le \d\d/\d\d/\d{4} \d\d:\d\d, par "
                        r"J\. Peeters : scores et pénalités sont verrouillés\.", stamp), stamp
    assert ["Pl.", "Joueur", "Hcp", "Points", "Départage", "Remarque"] in rows(out)
    # the English table without --lang, as before
    assert run("results", "--round", "Lentebeker", "--db", db).startswith(
        "results: stableford net, individual\nresults final "
    )


def test_results_from_files_in_french_with_a_decimal_comma_in_the_countback(tmp_path):
    out = run("results", *FILES, "--scoring", "stroke", "--net", "--lang", "fr")
    assert out.splitlines()[:4] == [
        "Résultats", "Parcours : Neuf trous de Louiseville", "Stroke play net, individuel",
        "14/06/2026"]  # fmt: skip
    assert ["Pl.", "Joueur", "Hcp", "Brut", "Net", "Départage", "Remarque"] in rows(out)
    # everybody in class A: Julie Gagné and Luc Nadeau level on net 36, the countback's
    # figure with a comma (the English table: "last 6: 24.33")
    draw = tmp_path / "draw.csv"
    draw.write_text((DATA / "draw.csv").read_text(encoding="utf-8").replace(",,m", ",A,m"),
                    encoding="utf-8")  # fmt: skip
    one_class = run("results", "--course", DATA / "course.toml", "--draw", draw, "--scores",
                    DATA / "scores.csv", "--scoring", "stroke", "--net",
                    "--lang", "nl")  # fmt: skip
    assert ["1", "Julie Gagné", "4", "40", "36", "laatste 6: 24,33"] in rows(one_class)


@pytest.mark.parametrize("machine", ["--json", "--csv", "--excel"])
def test_lang_with_a_machine_format_is_refused_not_ignored(machine):
    out = run("results", *FILES, machine, "--lang", "nl", code=2)
    assert "--lang nl" in out and "stable keys and column names" in out


def test_lang_with_a_competition_is_refused_not_ignored(tmp_path):
    out = run("results", "--event", "Club championship", "--db", tmp_path / "x.db", "--lang",
              "fr", code=2)  # fmt: skip
    assert "a competition's table (--event) is printed in English only" in out


def test_the_help_says_what_lang_does():
    out = run("results", "--help")
    assert "--lang" in out and "stable keys and column names" in " ".join(out.split())
