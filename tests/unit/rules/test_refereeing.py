"""The referees' fold and the prompt to stop timing a group back in position (issue 5).

Course: 9 holes, all par 4 (15 min a hole for a 4-ball). Draw: A 08:00 (lead), B 08:10.
"""

from __future__ import annotations

from pace.rules import position, refereeing
from pace.rules.events import Event
from tests.builders import at, make_course, make_facts, make_group, make_setup

NINE_PAR_4 = make_course(pars=[4] * 9)
SETUP = make_setup(NINE_PAR_4, (make_group("A", "08:00"), make_group("B", "08:10")))


def ev(id: str, type: str, hhmm: str, **payload) -> Event:
    return Event(id, type, "r", at(hhmm), payload, by={"role": "referee", "device": "p"})


def prompts(log, now, completions):
    facts = make_facts(completions)
    field = position.evaluate_field(SETUP, facts, at(now))
    eps = position.episodes(SETUP, facts, at(now))
    return refereeing.stop_timing_alerts(refereeing.fold(log), field, eps)


def test_the_fold_keeps_each_decision_with_its_note_and_author():
    log = [
        ev("d1", "timing_decided", "08:20", group="A", decision="not_time", reason="ruling"),
        ev("d2", "timing_decided", "08:40", group="A", decision="time", note="slow on the 3rd"),
    ]
    t = refereeing.fold(log).timing("A")
    assert t.timed and t.since == at("08:40")
    assert [(d["decision"], d["reason"], d["note"]) for d in t.decisions] == [
        ("not_time", "ruling", ""),
        ("time", None, "slow on the 3rd"),
    ]
    assert t.decisions[1]["by"] == {"role": "referee", "device": "p"}


TIMED_AT_0820 = [ev("d", "timing_decided", "08:20", group="A", decision="time")]


def test_no_prompt_while_the_timed_group_is_out_of_position():
    # A: hole 1 at 08:16 (16 > 15): out of position
    assert prompts(TIMED_AT_0820, "08:25", {"A": {1: "08:16"}}) == ()


def test_a_timed_group_back_in_position_prompts_once_per_spell():
    # hole 2 at 08:29 (29 <= 30): back in position at 08:29
    [alert] = prompts(TIMED_AT_0820, "08:31", {"A": {1: "08:16", 2: "08:29"}})
    assert alert.kind == "stop_timing" and alert.group == "A"
    assert alert.key == f"stop_timing:A:{at('08:20').isoformat()}"
    assert (alert.at, alert.hole) == (at("08:29"), 2)


def test_no_prompt_once_timing_stopped_and_a_new_spell_has_a_new_key():
    stopped = [*TIMED_AT_0820, ev("s", "timing_stopped", "08:32", group="A")]
    back = {"A": {1: "08:16", 2: "08:29"}}
    assert prompts(stopped, "08:33", back) == ()
    again = [*stopped, ev("d2", "timing_decided", "08:50", group="A", decision="time")]
    # A on hole 3 at 08:47 (47 > 45) is out again; back at hole 4 at 08:59 (59 <= 60)
    [alert] = prompts(again, "09:00", {"A": {1: "08:16", 2: "08:29", 3: "08:47", 4: "08:59"}})
    assert alert.key == f"stop_timing:A:{at('08:50').isoformat()}"
    assert alert.at == at("08:59")


def test_a_group_timed_while_not_out_of_position_is_prompted_from_the_decision():
    [alert] = prompts(TIMED_AT_0820, "08:25", {"A": {1: "08:14"}})
    assert (alert.at, alert.hole) == (at("08:20"), 1)


def test_a_voided_decision_times_nobody():
    log = [*TIMED_AT_0820, ev("v", "event_voided", "08:21", target="d")]
    assert not refereeing.fold(log).timing("A").timed
