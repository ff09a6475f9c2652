"""The referee log CSV (docs/formats.md §5, issue 10): acts, errors, and the events they become."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from pace import formats
from pace.formats.referee_log import to_events
from pace.rules import errors, model

DAY = date(2025, 6, 14)
HEADER = (
    "at,act,group,player,hole,kind,first,seconds,between,id,fault,decision,reason,minutes,siren\n"
)
COURSE = model.Course("nine", tuple(model.Hole(n, 3 if n == 3 else 4) for n in range(1, 10)))
GROUPS = (
    model.Group(
        "4", datetime(2025, 6, 14, 8, 0, tzinfo=UTC), 1,
        (model.Player("Hélène Hébert"), model.Player("Luc Nadeau")),
    ),
    model.Group("5", datetime(2025, 6, 14, 8, 10, tzinfo=UTC), 1, (model.Player("Ann Roy"),)),
)  # fmt: skip


def parse(text: str, header: str = HEADER):
    return formats.parse_referee_log(
        header + text, "log.csv", day=DAY, tz=UTC, course=COURSE, groups=GROUPS
    )


def problems(text: str, header: str = HEADER) -> list[tuple[int | None, str | None]]:
    with pytest.raises(errors.FileFormatError) as info:
        parse(text, header)
    assert all(str(p).startswith("log.csv, line ") for p in info.value.problems)
    return [(p.line, p.field) for p in info.value.problems]


def utc(hhmmss: str) -> datetime:
    h, m, s = (int(x) for x in hhmmss.split(":"))
    return datetime(2025, 6, 14, h, m, s, tzinfo=UTC)


# --------------------------------------------------------------------------- acts


def test_every_act_is_read_with_its_fields():
    acts = parse(
        "10:00:00,decide,4,,,,,,,,,time,,,\n"
        "10:01:00,tell,4,Hélène Hébert,,,,,,,,,,,\n"
        '10:02:10,stroke,4,Hélène Hébert,5,approach,yes,"46,2",,,,,,,\n'
        "10:03:00,notify,4,Hélène Hébert,,,,,,,L4,,,,\n"
        '10:04:00,credit,4,,,,,,,,,,ruling on 5,"2,5",\n'
        "10:05:00,stop,4,,,,,,,,,,,,\n"
        "10:06:00,siren,,,,,,,,,,,,,suspension\n"
        "10:07:00,decide,5,,,,,,,,,not_time,unplayable,,\n"
    )
    assert [(a.id, a.act, a.group) for a in acts] == [
        ("L2", "decide", "4"), ("L3", "tell", "4"), ("L4", "stroke", "4"),
        ("L5", "notify", "4"), ("L6", "credit", "4"), ("L7", "stop", "4"),
        ("L8", "siren", None), ("L9", "decide", "5"),
    ]  # fmt: skip
    stroke = acts[2]
    assert (stroke.hole, stroke.kind, stroke.first, stroke.between) == (5, "approach", True, False)
    assert stroke.at == utc("10:02:10") and stroke.seconds == timedelta(seconds=46.2)
    assert stroke.started == utc("10:02:10") - timedelta(seconds=46.2)
    assert acts[3].fault == "L4"
    assert (acts[4].minutes, acts[4].reason) == (2.5, "ruling on 5")
    assert acts[6].siren == "suspension"
    assert (acts[7].decision, acts[7].reason) == ("not_time", "unplayable_ball")


def test_acts_are_sorted_by_instant_then_line_and_keep_their_line_ids():
    acts = parse(
        "10:05:00,tell,4,Luc Nadeau,,,,,,,,,,,\n"
        "10:00:00,decide,4,,,,,,,,,time,,,\n"
        "10:05:00,tell,4,Hélène Hébert,,,,,,,,,,,\n"
    )
    assert [(a.id, a.player) for a in acts] == [
        ("L3", None), ("L2", "Luc Nadeau"), ("L4", "Hélène Hébert"),
    ]  # fmt: skip


def test_a_french_locale_export_reads_the_same():
    header = "\ufeffheure;acte;groupe;joueur;trou;kind;premier;secondes\n"
    [act] = parse("10:02:10;stroke;4;Luc Nadeau;5;other;non;41,5\n", header)
    assert (act.player, act.seconds, act.first) == ("Luc Nadeau", timedelta(seconds=41.5), False)


def test_a_stroke_between_holes_may_leave_its_hole_empty():
    [act] = parse("10:02:10,stroke,4,Luc Nadeau,,other,no,41,yes,,,,,,\n")
    assert (act.hole, act.between) == (None, True)


def test_a_notify_names_a_stroke_by_its_own_id_or_a_checkpoint_breach():
    acts = parse(
        "10:00:00,stroke,4,Luc Nadeau,5,other,no,45,,s-17,,,,,\n"
        "10:01:00,notify,4,Luc Nadeau,,,,,,,s-17,,,,\n"
        "10:02:00,notify,4,Luc Nadeau,,,,,,,cp:2,,,,\n"
    )
    assert [a.fault for a in acts[1:]] == ["s-17", "cp:2"]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ("25:00:00,tell,4,Luc Nadeau,,,,,,,,,,,\n", [(2, "at")]),
        (",tell,4,Luc Nadeau,,,,,,,,,,,\n", [(2, "at")]),
        ("10:00:00,shout,4,,,,,,,,,,,,\n", [(2, "act")]),
        ("10:00:00,tell,,Luc Nadeau,,,,,,,,,,,\n", [(2, "group")]),
        ("10:00:00,tell,9,Luc Nadeau,,,,,,,,,,,\n", [(2, "group")]),
        ("10:00:00,tell,4,Ann Roy,,,,,,,,,,,\n", [(2, "player")]),
        ("10:00:00,tell,4,,,,,,,,,,,,\n", [(2, "player")]),
        ("10:00:00,stroke,4,Luc Nadeau,,other,no,41,,,,,,,\n", [(2, "hole")]),
        ("10:00:00,stroke,4,Luc Nadeau,10,other,no,41,,,,,,,\n", [(2, "hole")]),
        ("10:00:00,stroke,4,Luc Nadeau,5,drive,no,41,,,,,,,\n", [(2, "kind")]),
        ("10:00:00,stroke,4,Luc Nadeau,5,other,maybe,41,,,,,,,\n", [(2, "first")]),
        ("10:00:00,stroke,4,Luc Nadeau,5,other,no,,,,,,,,\n", [(2, "seconds")]),
        ("10:00:00,stroke,4,Luc Nadeau,5,other,no,-3,,,,,,,\n", [(2, "seconds")]),
        ("10:00:00,stroke,4,Luc Nadeau,5,other,no,700,,,,,,,\n", [(2, "seconds")]),
        ("10:00:00,stroke,4,Luc Nadeau,5,other,no,41,perhaps,,,,,,\n", [(2, "between")]),
        ("10:00:00,decide,4,,,,,,,,,,,,\n", [(2, "decision")]),
        ("10:00:00,decide,4,,,,,,,,,later,,,\n", [(2, "decision")]),
        ("10:00:00,decide,4,,,,,,,,,not_time,,,\n", [(2, "reason")]),
        ("10:00:00,decide,4,,,,,,,,,not_time,tired,,\n", [(2, "reason")]),
        ("10:00:00,credit,4,,,,,,,,,,,5,\n", [(2, "reason")]),
        ("10:00:00,credit,4,,,,,,,,,,ruling,0,\n", [(2, "minutes")]),
        ("10:00:00,credit,4,,,,,,,,,,ruling,61,\n", [(2, "minutes")]),
        ("10:00:00,siren,,,,,,,,,,,,,horn\n", [(2, "siren")]),
        ("10:00:00,notify,4,Luc Nadeau,,,,,,,,,,,\n", [(2, "fault")]),
        ("10:00:00,notify,4,Luc Nadeau,,,,,,,L9,,,,\n", [(2, "fault")]),
        ("10:00:00,stroke,4,Hélène Hébert,5,other,no,45,,,,,,,\n"
         "10:01:00,notify,4,Luc Nadeau,,,,,,,L2,,,,\n", [(3, "fault")]),
        ("10:00:00,tell,4,Luc Nadeau,,,,,,L3,,,,,\n"
         "10:01:00,tell,4,Luc Nadeau,,,,,,,,,,,\n", [(3, "id")]),
        ("10:00:00,stroke,9,Nobody,12,drive,no,x,,,,,,,\n",
         [(2, "group"), (2, "hole"), (2, "kind"), (2, "seconds")]),  # no group: no players
    ],
    ids=[
        "bad-instant", "no-instant", "unknown-act", "no-group", "group-not-in-draw",
        "player-of-another-group", "no-player", "no-hole", "hole-not-on-course", "bad-kind",
        "bad-first", "no-seconds", "negative-seconds", "clock-left-running", "bad-between",
        "no-decision", "bad-decision", "not-time-without-reason", "unknown-reason",
        "credit-without-reason", "zero-minutes", "over-an-hour", "bad-siren", "no-fault",
        "fault-not-a-stroke", "fault-of-another-player", "repeated-id", "every-problem-at-once",
    ],
)  # fmt: skip
def test_every_problem_names_its_line_and_field(rows, expected):
    assert problems(rows) == expected


def test_a_header_without_at_or_act_is_refused():
    assert problems("10:00:00,4\n", header="when,group\n") == [(1, "at"), (1, "act")]


def test_an_empty_log_is_refused():
    assert problems("") == [(1, "act")]


# --------------------------------------------------------------------------- events


def test_acts_become_the_live_commands_events():
    acts = parse(
        "10:00:00,decide,4,,,,,,,,,time,,,\n"
        "10:02:10,stroke,4,Luc Nadeau,5,chip_putt,yes,41,,,,,,,\n"
        "10:03:00,notify,4,Luc Nadeau,,,,,,,L3,,,,\n"
        "10:04:00,notify,4,Luc Nadeau,,,,,,,cp:1,,,,\n"
        "10:05:00,credit,4,,,,,,,,,,ruling,3,\n"
        "10:06:00,siren,,,,,,,,,,,,,resume\n"
    )
    log = to_events(acts, "R1")
    types = [e.type for e in log.events]
    assert types == [
        "timing_decided", "stroke_timed", "player_notified", "player_notified",
        "time_credit_granted", "siren",
    ]  # fmt: skip
    stroke = log.events[1]
    assert stroke.at == utc("10:02:10")
    assert stroke.payload["started"] == (utc("10:02:10") - timedelta(seconds=41)).isoformat()
    assert log.events[2].payload["fault"] == stroke.id
    assert log.events[3].payload["fault"] == "checkpoint:4:1"
    assert log.events[4].payload == {"group": "4", "minutes": 3.0, "reason": "ruling"}
    assert log.events[5].payload == {"kind": "resume"}
    assert log.act_ids[stroke.id] == "L3"


def test_event_ids_come_from_the_acts_content_not_their_lines():
    one = to_events(parse("10:00:00,tell,4,Luc Nadeau,,,,,,,,,,,\n"), "R1").events
    moved = to_events(parse("\n10:00:00,tell,4,Luc Nadeau,,,,,,,,,,,\n"), "R1").events
    other_round = to_events(parse("10:00:00,tell,4,Luc Nadeau,,,,,,,,,,,\n"), "R2").events
    assert one[0].id == moved[0].id != other_round[0].id
    twice = to_events(parse("10:00:00,tell,4,Luc Nadeau,,,,,,,,,,,\n" * 2), "R1").events
    assert len({e.id for e in twice}) == 2 and twice[0].id == one[0].id
