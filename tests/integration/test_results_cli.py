"""``pace results`` on files under tests/ gives docs/formats.md §8's document (issue 11).

The golden files' arithmetic is written out in tests/data/results/ARITHMETIC.md; the key
figures are asserted here too, so a changed golden file cannot hide a changed rule.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pace.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data" / "results"
FILES = [
    "--course",
    DATA / "course.toml",
    "--draw",
    DATA / "draw.csv",
    "--scores",
    DATA / "scores.csv",
]


@pytest.fixture(autouse=True)
def _clean_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PACE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)


def run(*args, code=0):
    result = CliRunner().invoke(cli, ["results", *(str(a) for a in args)])
    assert result.exit_code == code, result.output
    return result.output


def document(scoring):
    return json.loads(run(*FILES, "--scoring", scoring, "--net", "--json"))


@pytest.mark.parametrize("scoring", ["stroke", "stableford", "match", "bogey"])
def test_json_is_the_golden_document(scoring):
    golden = json.loads((DATA / f"{scoring}_net.json").read_text(encoding="utf-8"))
    assert document(scoring) == golden


def test_stroke_play_net_figures():
    doc = document("stroke")
    assert (doc["scoring"], doc["net"]) == ("stroke", True)
    rows = [
        (e["entry"], e["position"], e["tied"], e["class"], e["class_position"],
         e["handicap_index"], e["playing_handicap"], e["gross"], e["net"], e["result"],
         e["status"], e["countback"])
        for e in doc["entries"]
    ]  # fmt: skip
    assert rows == [
        ("Julie Gagné", 1, False, "A", 1, 8.4, 4, 40, 36, "36", "ok", "last 6: 24.33"),
        ("Luc Nadeau", 2, False, "AA", 1, -1.2, -1, 35, 36, "36", "ok", "last 6: 24.67"),
        ("Marc Roy", 3, False, "B", 1, 17.0, 8, 45, 37, "37", "ok", None),
        # 5.625 × 0.95 = 5.34 → 5, the unrounded course handicap (6 × 0.95 → 6 before issue 47)
        ("Anne Côté", None, False, "A", None, 12.0, 5, None, None, "NR", "nr", None),
    ]
    julie = doc["entries"][0]["holes"]
    assert [h["received"] for h in julie] == [0, 1, 0, 1, 1, 1, 0, 0, 0]
    assert set(julie[0]) == {"hole", "strokes", "received", "penalty_strokes"}


def test_stableford_net_figures():
    doc = document("stableford")
    keys = ("entry", "position", "points", "penalty_points", "result", "countback")
    rows = [tuple(e[k] for k in keys) for e in doc["entries"]]
    assert rows == [
        ("Luc Nadeau", 1, 18, 0, "18 points", "last 3: 7"),
        ("Julie Gagné", 2, 18, 0, "18 points", "last 3: 6"),
        ("Marc Roy", 3, 17, 0, "17 points", None),
        ("Anne Côté", 4, 16, 0, "16 points", None),
    ]
    assert [h["points"] for h in doc["entries"][1]["holes"]] == [1, 2, 2, 2, 3, 2, 2, 2, 2]


def test_bogey_net_figures():
    doc = document("bogey")
    rows = [
        (e["entry"], e["position"], e["tied"], e["result"], e["countback"]) for e in doc["entries"]
    ]
    assert rows == [
        ("Julie Gagné", 1, True, "7 up", "equal"),
        ("Luc Nadeau", 1, True, "7 up", "equal"),
        ("Marc Roy", 1, True, "7 up", "equal"),
        ("Anne Côté", 4, False, "6 up", None),
    ]
    assert [h["outcome"] for h in doc["entries"][3]["holes"]][7] == "lost"


def test_match_net_figures():
    m1, m2 = document("match")["entries"]
    assert (m1["match"], m1["result"], m1["winner"], m1["status"]) == (
        "m1",
        "all square",
        None,
        "ok",
    )
    keys = ("entry", "allowance_handicap", "playing_handicap", "received")
    assert [tuple(s[k] for k in keys) for s in m1["sides"]] == [
        ("Julie Gagné", 4, 5, 5),  # plays off 5: Luc, the lower, plays off zero
        ("Luc Nadeau", -1, 0, 0),
    ]
    assert [h["state"] for h in m1["holes"]] == [
        "all square", "all square", "all square", "all square", "1 up", "1 up", "1 up",
        "dormie 1", "all square",
    ]  # fmt: skip
    assert (m2["result"], m2["winner"]) == ("2 up", "Marc Roy")
    assert [(h["hole"], h["winner"], h["how"]) for h in m2["holes"]][-2:] == [
        (8, "Marc Roy", "won"),
        (9, "Marc Roy", "conceded"),
    ]
    assert set(m2["holes"][0]) >= {"hole", "winner", "how", "state", "leader"}


def test_readable_table_without_json():
    out = run(*FILES, "--scoring", "stroke", "--net")
    assert out.splitlines()[0] == "results: stroke net, individual"
    assert "Julie Gagné" in out and "last 6: 24.33" in out and "NR" in out


def test_csv_and_excel_for_the_committees_spreadsheet(tmp_path):
    text = run(*FILES, "--net", "--csv")
    lines = text.splitlines()
    assert lines[0].startswith("position,tied,class,class_position,entry,group,handicap_index")
    assert lines[0].startswith(
        "position,tied,class,class_position,entry,group,handicap_index,playing_handicap,"
        "course_handicap,playing_handicaps,gross"
    )
    assert lines[1].startswith("1,,A,1,Julie Gagné,1,8.4,4,4,,40,36,0,")
    target = tmp_path / "results.csv"
    run(*FILES, "--net", "--excel", "-o", target)
    data = target.read_bytes()
    assert data.startswith("\ufeff".encode())
    excel = data.decode("utf-8-sig").splitlines()
    assert excel[0].startswith("position;tied;class")
    assert excel[1].startswith("1;;A;1;Julie Gagné;1;8,4;4;4;;40;36;0;")
    assert "last 6: 24,33" in excel[1]


def test_gross_and_an_allowance_for_the_round():
    doc = json.loads(run(*FILES, "--json"))
    assert doc["net"] is False
    assert [e["result"] for e in doc["entries"]] == ["35", "40", "45", "NR"]
    # 100 % instead of 95 %: the handicaps here do not change (4, −1, 8, 6 either way) …
    doc = json.loads(run(*FILES, "--net", "--allowance", "50", "--json"))
    # … at 50 % of the unrounded course handicaps: Julie 1.85 → 2, Luc −0.72 → −1 (the
    # rounded −1 × 50 % = −0.5 → 0 before issue 47), Marc 4.15 → 4, Anne 2.81 → 3
    assert [e["playing_handicap"] for e in doc["entries"]] == [-1, 2, 4, 3]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--scoring", "skins"], "--scoring 'skins': expected one of stroke, stableford, match"),
        (["--format", "scramble"], "--format 'scramble': expected one of individual"),
        (["--allowance", "lots"], "--allowance 'lots': expected a percentage"),
        (["--allowance", "120"], "percentage from 0 to 100"),
        (["--format", "greensome", "--allowance", "60"], "takes 2 allowance"),
    ],
)
def test_bad_options_exit_2_with_a_clear_message(args, words):
    out = run(*FILES, *args, code=2)
    assert words in out


def test_bad_scores_file_exits_2_naming_file_line_and_field(tmp_path):
    bad = tmp_path / "scores.csv"
    bad.write_text("group,player,hole,strokes\n1,Julie Gagné,1,0\n1,Nobody,2,4\n", encoding="utf-8")
    out = CliRunner().invoke(cli, ["results", *map(str, FILES[:4]), "--scores", str(bad)])
    assert out.exit_code == 2
    assert f"{bad}, line 2, field 'strokes'" in out.output
    assert f"{bad}, line 3, field 'player'" in out.output


def test_match_play_needs_two_sides_per_match(tmp_path):
    draw = tmp_path / "draw.csv"
    draw.write_text(
        (DATA / "draw.csv").read_text(encoding="utf-8").replace(",match", ",other"),
        encoding="utf-8",
    )
    args = [*map(str, FILES), "--scoring", "match"]
    args[3] = str(draw)
    out = CliRunner().invoke(cli, ["results", *args])
    assert out.exit_code == 2
    assert "group '1' has 3 side(s); a match has two" in out.output
    assert "group '2' has 1 side(s)" in out.output


TEAMS = [
    "--course", DATA / "course.toml", "--draw", DATA / "draw_teams.csv",
    "--scores", DATA / "scores_teams.csv", "--format", "four_ball", "--net",
]  # fmt: skip


@pytest.mark.parametrize("scoring", ["stroke", "match"])
def test_four_ball_json_is_the_golden_document(scoring):
    golden = json.loads((DATA / f"four_ball_{scoring}_net.json").read_text(encoding="utf-8"))
    assert json.loads(run(*TEAMS, "--scoring", scoring, "--json")) == golden


def test_four_ball_stroke_play_figures():
    a, b = json.loads(run(*TEAMS, "--json"))["entries"]
    assert (a["entry"], a["players"], a["class"], a["position"]) == (
        "Julie Gagné / Luc Nadeau", ["Julie Gagné", "Luc Nadeau"], "AA", 1,
    )  # fmt: skip
    assert (a["playing_handicap"], a["playing_handicaps"]) == (
        None, {"Julie Gagné": 3, "Luc Nadeau": -1},
    )  # fmt: skip
    assert (a["gross"], a["net"], b["gross"], b["net"], b["class"]) == (37, 34, 43, 36, "A")
    assert [h["counted"] for h in a["holes"]] == [
        "Luc Nadeau", "Julie Gagné", "Julie Gagné", "Julie Gagné", "Julie Gagné", "Luc Nadeau",
        "Julie Gagné", "Julie Gagné", "Luc Nadeau",
    ]  # fmt: skip
    h2 = a["holes"][1]
    assert (h2["strokes"], h2["received"], h2["scores"], h2["received_by"]) == (
        5, 1, {"Julie Gagné": 5, "Luc Nadeau": 4}, {"Julie Gagné": 1, "Luc Nadeau": 0},
    )  # fmt: skip
    assert b["holes"][7]["scores"] == {"Marc Roy": 6, "Anne Côté": None}


def test_four_ball_match_figures():
    (m,) = json.loads(run(*TEAMS, "--scoring", "match", "--json"))["entries"]
    assert (m["result"], m["winner"]) == ("2 up", "Julie Gagné / Luc Nadeau")
    assert [s["playing_handicaps"] for s in m["sides"]] == [
        {"Julie Gagné": 4, "Luc Nadeau": 0},  # 3.697 × 0.9 = 3.33 → 3, from Luc's −1
        {"Marc Roy": 8, "Anne Côté": 6},
    ]
    assert [h["state"] for h in m["holes"]][4:] == ["1 up", "1 up", "1 up", "dormie 1", "2 up"]
    assert m["holes"][8]["how"] == "conceded"
    assert m["holes"][0]["scores"] == {
        "Julie Gagné": 5, "Luc Nadeau": 4, "Marc Roy": 5, "Anne Côté": 5,
    }  # fmt: skip


def test_net_scoring_on_a_course_without_stroke_indexes_names_the_course(tmp_path):
    course = tmp_path / "course.toml"
    text = (DATA / "course.toml").read_text(encoding="utf-8")
    course.write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith("stroke_index")),
        encoding="utf-8",
    )
    args = ["results", "--course", str(course), *map(str, FILES[2:]), "--net"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 2
    assert f"{course}: course 'Neuf trous de Louiseville': net scoring needs a stroke_index" in (
        out.output
    )
    assert CliRunner().invoke(cli, args[:-1]).exit_code == 0  # gross needs none


def test_imported_course_and_draw_keep_what_scoring_needs(tmp_path):
    # issue 11: slope, rating and bogey survive `pace import course`; class, match and the
    # plus index survive `pace import draw`, so the live side scores what pace results does
    from pace.store import open_store

    db = tmp_path / "club.db"
    for args in (
        ["init"],
        ["import", "course", DATA / "course.toml"],
        ["import", "draw", DATA / "draw.csv", "--round", "R1", "--date", "2025-06-14"],
    ):
        result = CliRunner().invoke(cli, [*map(str, args), "--db", str(db)])
        assert result.exit_code == 0, result.output
    with open_store(db) as store:
        course = store.get_course("Neuf trous de Louiseville")
        players = [p for g in store.get_round("R1").groups for p in g.players]
    assert (course.slope, course.rating, course.hole(4).bogey, course.hole(1).bogey) == (
        121.0, 35.2, 5, None,
    )  # fmt: skip
    assert [(p.name, p.handicap, p.class_name, p.match) for p in players] == [
        ("Julie Gagné", 8.4, None, "m1"),
        ("Luc Nadeau", -1.2, None, "m1"),
        ("Marc Roy", 17.0, None, "m2"),
        ("Anne Côté", 12.0, "A", "m2"),
    ]


REFEREE = ["--referee", DATA / "referee.csv", "--times", DATA / "times.csv"]


def test_a_referee_log_puts_its_pace_penalties_on_the_cards():
    doc = json.loads(run(*FILES, *REFEREE, "--net", "--json"))
    golden = json.loads((DATA / "stroke_net_referee.json").read_text(encoding="utf-8"))
    assert doc == golden
    rows = [(e["entry"], e["position"], e["gross"], e["net"], e["penalty_strokes"],
             e["countback"]) for e in doc["entries"]]  # fmt: skip
    assert rows == [
        ("Luc Nadeau", 1, 35, 36, 0, None),
        ("Julie Gagné", 2, 41, 37, 1, "last 6: 24.33"),
        ("Marc Roy", 3, 45, 37, 0, "last 6: 25.67"),
        ("Anne Côté", None, None, None, 0, None),
    ]
    julie = doc["entries"][1]
    assert julie["holes"][1]["penalty_strokes"] == 1
    assert [(p["fault"], p["kind"], p["effect"]) for p in julie["penalties"]] == [
        ("L3", "warning", "none"),
        ("L5", "strokes", "strokes"),
    ]
    stableford = json.loads(run(*FILES, *REFEREE, "--net", "--scoring", "stableford", "--json"))
    julie = next(e for e in stableford["entries"] if e["entry"] == "Julie Gagné")
    assert (julie["points"], julie["penalty_points"], julie["result"]) == (18, 2, "16 points")


def test_a_referee_log_needs_its_hole_times():
    assert "--referee and --times go together" in run(*FILES, REFEREE[0], REFEREE[1], code=2)
    assert "--policy 'nope'" in run(*FILES, *REFEREE, "--policy", "nope", code=2)
