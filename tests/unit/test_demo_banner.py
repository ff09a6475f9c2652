"""What ``pace demo`` prints: a link to every page, and its clock in words (issue 14, point 6)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from pace.demo import data as demo_data

TZ = ZoneInfo("Europe/Brussels")
CODES = {
    role: f"{role[:4].upper()}-CODE"
    for role in ("committee", "referee", "scorer", "marshal", "viewer")
}


def text(speed: float = 20) -> str:
    return demo_data.banner(
        url="http://127.0.0.1:5000",
        codes=CODES,
        first_start=datetime(2026, 6, 14, 8, 0, tzinfo=TZ),
        origin=datetime(2026, 6, 14, 9, 15, tzinfo=TZ),
        speed=speed,
        summary="Golf de démonstration, round 'demo'",
        cast="6 marshals, 2 referees, 4 scorers and the committee",
        holes=(1, 2, 3),
        db="pace-demo.db",
    )


def test_the_banner_links_to_every_page_with_a_code_of_its_role():
    banner = text()
    for role, page in [
        ("committee", "dashboard"), ("referee", "shotclock"), ("marshal", "marshal"),
        ("viewer", "board"), ("committee", "audit"), ("committee", "access"),
        ("scorer", "scorecard"), ("committee", "report"),
    ]:  # fmt: skip
        link = f"http://127.0.0.1:5000/join?code={CODES[role]}&next=/rounds/demo/{page}"
        assert link in banner, (page, banner)
    results = "http://127.0.0.1:5000/join?code=COMM-CODE&next=/rounds/demo/results"
    assert results in banner
    # the leaderboard is public: no code in its link (issue 32)
    assert "  leaderboard  http://127.0.0.1:5000/rounds/demo/leaderboard\n" in banner
    assert "simulated 6 marshals, 2 referees, 4 scorers and the committee" in banner


def test_the_end_says_where_the_report_the_letters_and_the_results_are():
    at = datetime(2026, 6, 14, 17, 42, 5, tzinfo=TZ)
    over = demo_data.closing(
        url="http://127.0.0.1:5000", codes=CODES, db="pace-demo.db", at=at, serving=True
    )
    for page in ("rounds/demo/report", "rounds/demo/letters", "rounds/demo/results"):
        assert f"http://127.0.0.1:5000/join?code=COMM-CODE&next=/{page}" in over
    assert "pace report --round demo --db pace-demo.db --at 17:42:05" in over
    assert "pace letters --round demo --db pace-demo.db --at 17:42:05" in over
    assert "pace results --round demo --db pace-demo.db" in over
    assert "the round is over at 17:42" in over
    stopped = demo_data.closing(
        url="http://127.0.0.1:5000", codes=CODES, db="pace-demo.db", at=at, serving=False
    )
    assert "stopped at 17:42" in stopped
    serve = "pace serve --db pace-demo.db --port 5000 --clock-origin 2026-06-14T17:42:05+02:00"
    assert serve in stopped


def test_the_banner_says_how_fast_the_clock_runs_in_words_a_reader_follows():
    banner = text(20)
    assert "×20 (20 minutes of play per real minute)" in banner
    assert "per second" not in banner and "0.333" not in text(20)
    assert "(tick hole 1)" not in banner
    assert "tick the holes you watch" in banner


def test_the_banner_says_how_to_open_the_console_with_the_committee_secret():
    # issue 47: the console spans every round, so a round's code does not open it
    secret = "ABCD-EFGH-JKMN-PQRS-TUVW"
    banner = demo_data.banner(
        url="http://127.0.0.1:5000", codes={**CODES, demo_data.SECRET: secret},
        first_start=datetime(2026, 6, 14, 8, 0, tzinfo=TZ),
        origin=datetime(2026, 6, 14, 9, 15, tzinfo=TZ), speed=20, summary="s", cast="c",
        holes=(1,), db="pace-demo.db",
    )  # fmt: skip
    assert f"  console      http://127.0.0.1:5000/join?code={secret}&next=/committee\n" in banner
    assert f"committee secret {secret}, also at http://127.0.0.1:5000/login" in banner
    assert "console" not in text()  # no secret, no console line
