"""The report says each referee's stop and its reason in the report's language (issue 47).

Round R1 played through every kind of event (tests/auditsupport.py): group 1's spell ends by
itself (back in position) and the referee's stop records the players told, as the shot clock
now sends it (the code ``players_told``); group 2's the same, stored as an older shot clock
sent it (English); group 4's spell is stopped by the referee with his own words. The report
(HTML, and the PDF made from the same page) says the code in its language, the old English
as the code, the referee's words as typed.
"""

from __future__ import annotations

import re
import subprocess
from html import unescape
from pathlib import Path

import pytest
from auditsupport import LEGACY_STOP, TYPED, audit_database
from click.testing import CliRunner

from pace.cli import cli

SPELLS = {
    "en": [
        "Timed from 08:41 (hole 2, by Claire) to 09:05 (back in position); stop confirmed at "
        "09:06 by Claire: players told",
        "Timed from 09:06 (hole 3, by Claire) to 09:08 (back in position); stop confirmed at "
        "09:08 by Claire: players told",
        f"Timed from 08:46 (hole 2, by Claire) to 08:46 (Claire: {TYPED['stop']})",
    ],
    "nl": [
        "Getimed van 08:41 (hole 2, door Claire) tot 09:05 (terug in positie); stop bevestigd om "
        "09:06 door Claire: spelers verwittigd",
        "Getimed van 09:06 (hole 3, door Claire) tot 09:08 (terug in positie); stop bevestigd om "
        "09:08 door Claire: spelers verwittigd",
        f"Getimed van 08:46 (hole 2, door Claire) tot 08:46 (Claire: {TYPED['stop']})",
    ],
    "fr": [
        "Chronométrée de 08:41 (trou 2, par Claire) à 09:05 (de retour en position) ; arrêt "
        "confirmé à 09:06 par Claire : joueurs informés",
        "Chronométrée de 09:06 (trou 3, par Claire) à 09:08 (de retour en position) ; arrêt "
        "confirmé à 09:08 par Claire : joueurs informés",
        f"Chronométrée de 08:46 (trou 2, par Claire) à 08:46 (Claire : {TYPED['stop']})",
    ],
}


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    db, _ = audit_database(tmp_path_factory.mktemp("played"))
    return db


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def report(db: Path, out: Path, lang: str, form: str = "html") -> Path:
    result = CliRunner().invoke(
        cli, ["report", "--round", "R1", "--db", str(db), "--format", form, "-o", str(out),
              "--lang", lang],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("lang", SPELLS)
def test_the_report_says_each_stop_and_its_reason_in_its_language(played, tmp_path, lang):
    page = report(played, tmp_path / f"report-{lang}.html", lang).read_text(encoding="utf-8")
    lines = [
        " ".join(unescape(re.sub(r"<[^>]+>", "", line)).split())
        for line in re.findall(r'<p class="spell">(.*?)</p>', page, re.S)
    ]
    assert lines == SPELLS[lang]
    if lang != "en":
        assert LEGACY_STOP not in page and "players_told" not in page


def test_the_pdf_says_the_stops_reason_in_dutch(played, tmp_path):
    pdf = report(played, tmp_path / "rapport.pdf", "nl", "pdf")
    out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert text.count("stop bevestigd om") == 2 and text.count("spelers verwittigd") >= 2
    assert "players told" not in text and "players_told" not in text
