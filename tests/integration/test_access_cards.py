"""``pace access cards`` (issue 28, part 4): codes made in bulk, printed as A4 cards to cut.

On a real SQLite file through the CLI; the PDF is read back with pdftotext, card by card (each
cell of the 2×4 grid cropped on its own), and drawn with pdftoppm. Each code printed signs in
with the role its card names.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli
from pace.clock import SystemClock
from pace.config import Settings
from pace.services.access import AccessService
from pace.store import open_store

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
CODE = re.compile(r"\b[A-Z0-9]{4}-[A-Z0-9]{4}\b")
URL = "http://10.0.0.2:5000"
MM = 72 / 25.4  # PDF points per millimetre
pytestmark = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils missing")


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args, code=0):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "club.db"
    run("import", "course", DATA / "course_louiseville.toml", "--db", path)
    run("import", "draw", DATA / "draw.csv", "--round", "R1", "--date", "2999-06-14",
        "--timezone", "Europe/Brussels", "--db", path)  # fmt: skip
    return path


def card_text(pdf: Path, page: int, column: int, row: int) -> str:
    """Return the text of one cell of a 2×4 sheet (10 mm margins, 94.8 × 68.6 mm cells)."""
    x, y = (10 + column * 94.8) * MM, (10 + row * 68.6) * MM
    out = subprocess.run(
        ["pdftotext", "-f", str(page), "-l", str(page), "-x", str(int(x) + 1),
         "-y", str(int(y) + 1), "-W", str(int(94.8 * MM) - 2), "-H", str(int(68.6 * MM) - 2),
         str(pdf), "-"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return out.stdout


def codes_of(db: Path) -> list:
    with open_store(db) as store:
        return store.access_codes(round="R1")


def test_one_card_per_code_with_its_role_round_link_and_code(db, tmp_path):
    pdf = tmp_path / "cards.pdf"
    out = run("access", "cards", "--round", "R1", "--role", "marshal", "--count", "8",
              "--role", "referee", "--count", "2", "--url", URL, "-o", pdf, "--lang", "en",
              "--db", db)  # fmt: skip
    assert "10 codes made for round 'R1' (8 marshal, 2 referee)" in out
    assert not CODE.search(out), "the codes are printed on the cards only"
    whole = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert len(set(CODE.findall(whole))) == 10
    cells = [(1, c, r) for r in range(4) for c in range(2)] + [(2, 0, 0), (2, 1, 0)]
    seen = []
    with open_store(db) as store:
        access = AccessService(store, Settings(), SystemClock())
        for n, (page, column, row) in enumerate(cells):
            text = card_text(pdf, page, column, row)
            role = "marshal" if n < 8 else "referee"
            # the code in large type, and again in the link under it
            (code,) = set(CODE.findall(text))
            assert text.count(role.upper()) == 1 and "Round R1" in text, text
            link = "".join(text.split())
            assert f"{URL}/join?code={code}&next=/rounds/R1/" in link, text
            assert link.count("/join?code=") == 1
            # the code printed opens a session of the card's role, on its round
            opened = access.open_with_code(code)
            assert (opened.session.role, opened.session.round) == (role, "R1")
            seen.append(code)
        # nothing beyond the ten cards: the second page's other cells are blank
        assert not card_text(pdf, 2, 0, 1).strip() and not card_text(pdf, 2, 1, 3).strip()
    assert len(set(seen)) == 10
    labels = sorted(c.label for c in codes_of(db))
    assert labels[:2] == ["card 1/2", "card 1/8"] and len(labels) == 10


def test_the_sheet_draws_a4_pages_in_french_by_default(db, tmp_path):
    pdf = tmp_path / "cards.pdf"
    run("access", "cards", "--round", "R1", "--role", "scorer", "--count", "9",
        "--url", URL, "-o", pdf, "--layout", "3x3", "--db", db)  # fmt: skip
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert text.count("MARQUEUR") == 9 and "Tour R1" in text
    subprocess.run(["pdftoppm", "-png", "-r", "30", str(pdf), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) == 1  # nine cards: one page
    from PIL import Image

    with Image.open(pages[0]) as image:
        width, height = image.size
        assert abs(height / width - 297 / 210) < 0.01  # A4
        dark = sum(image.convert("L").histogram()[:100])
        assert dark > width * height * 0.03  # QR codes and type, not a blank page


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--round", "R9", "--role", "marshal"], 1, "R9"),
        (["--round", "R1", "--role", "marshal", "--count", "0"], 2, "--count"),
        (["--round", "R1", "--role", "marshal", "--count", "2", "--count", "3"], 2, "--count"),
        (["--round", "R1", "--role", "caddie"], 2, "caddie"),
        (["--round", "R1", "--role", "marshal", "--count", "100", "--role", "referee",
          "--count", "100", "--role", "scorer"], 1, "more than 200"),
    ],
)  # fmt: skip
def test_hostile_input_makes_no_code(db, tmp_path, args, status, message):
    pdf = tmp_path / "cards.pdf"
    out = run("access", "cards", *args, "--url", URL, "-o", pdf, "--db", db, code=status)
    assert message in out and "Traceback" not in out
    assert codes_of(db) == [] and not pdf.exists()


@pytest.mark.parametrize("url", ["10.0.0.2:5000", "javascript:alert(1)", "http://" + "x" * 300])
def test_an_address_that_is_not_http_makes_no_code(db, tmp_path, url):
    out = run("access", "cards", "--round", "R1", "--role", "marshal", "--url", url,
              "-o", tmp_path / "c.pdf", "--db", db, code=1)  # fmt: skip
    assert "is not the server's address" in out and codes_of(db) == []
