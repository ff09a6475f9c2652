"""The words of the reports and letters, in English, French and Dutch, and how numbers are written.

Everything a report says is here in English, each text under a key (its gettext context is
``words:<key>``), and in the French and Dutch of the gettext catalogue (``pace.i18n``), so the HTML
page, the PDF, the letters and the CSV say the same. ``effect`` is the one place that states
what a penalty does to the card; it reads the judged penalty (kind, amount, hole, bearer) and
nothing else yet, so the scoring module's card can take its place later without the reports
changing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from pace import i18n
from pace.i18n import Source
from pace.rules import refereeing
from pace.rules.penalties import Penalty

LANGUAGES = ("fr", "en", "nl")
#: the gettext context of a report text: ``words:`` and its key
CONTEXT = "words:"

TEXTS: dict[str, Source] = {
    "title": "Pace-of-play report",
    "round": "Round",
    "course": "Course",
    "day": "Day",
    "policy": "Pace policy",
    "as_of": "Facts logged up to",
    "in_play": "The round is still in play: groups not finished are reported as they stand.",
    "cards.title": "Access cards · {round}",
    "cards.role.marshal": "Marshal",
    "cards.role.referee": "Referee",
    "cards.role.scorer": "Scorer",
    "cards.role.committee": "Committee",
    "cards.role.viewer": "Viewer",
    "cards.round": "Round {round}",
    "cards.how": "Scan the code with the phone's camera, or open /join and type:",
    "cards.number": "card {number} of {total} · keep it to yourself: the code opens the page",
    "sheet.title": "Timing sheet — {course}",
    "sheet.lead": "Clock time by which each group must have completed each hole. Highlighted: "
    "the starting tee.",
    "sheet.group": "group",
    "sheet.tee": "tee",
    "sheet.start": "start",
    "sheet.players": "players",
    "sheet.par": "par {par}",
    "results_final": "Results final since {at}, by {by}: scores and penalties are locked.",
    # who recorded an act that bears no person's name: its role (issue 47: "par committee")
    "by.committee": "the committee",
    "by.referee": "a referee",
    "by.scorer": "a scorer",
    "by.marshal": "a marshal",
    "by.viewer": "a viewer",
    "results_open": "Results not final yet: scores and penalties may still change.",
    "interval": "Standard starting interval",
    "summary": "The field",
    "groups": "Groups",
    "finished": "Finished",
    "not_finished": "Not finished",
    "field_chart": (
        "Holes played against the clock: each group's logged completions (solid), its allotted "
        "pace (dotted, same colour), out of position (red), sirens (grey)"
    ),
    "round_times": "Round times against the allotted time",
    "bands": "Finishing times over the allotment, 10-minute bands",
    "band": "Minutes over",
    "band_range": "{low} to {high}",
    "holes_summary": "Hole by hole",
    "holes_chart": "Average minutes over each hole's own allotment (red: slower, green: faster)",
    "bottlenecks": "Bottleneck holes",
    "no_bottleneck": "No hole took longer than its allotment on average.",
    "stoppages": "Stops of play (sirens)",
    "no_stoppage": "No stop of play.",
    "missed_taps": "Missed taps (estimated holes)",
    "missed_taps_count": (
        "{asked} missed taps asked about, {confirmed} confirmed by a real tap; {standing} still "
        "estimated. An estimate never penalises: it is shown ≈, with its bounds."
    ),
    "no_missed_taps": "No missed tap.",
    "sources": "Where the hole times came from",
    "sources_count": (
        "{group} holes reported by the groups' own scorecards ({share} %), {official} seen by "
        "officials. A group's report is an upper bound; nothing is penalised on it alone."
    ),
    "sources_compared": (
        "{compared} holes seen by both: the group's report came later than the official's tap "
        "on {late}, by {median} min at the median."
    ),
    "missed_standing": "Group {group}, hole {hole}: estimated ≈{time}, no tap yet",
    "estimated": "Estimated",
    "confirmed_by": "Logged by",
    "estimate.title": "Estimated {time}, between {earliest} and {latest}: {reason}",
    "estimate.now": "the report's instant",
    "estimate.skipped": "a later hole was logged",
    "estimate.passed": "the group behind completed it first",
    "estimate.silent": "no tap for more than twice the hole's time",
    "stopped_total": (
        "Play stopped {minutes} in all; {group_minutes} of group time on the course (not counted "
        "against anybody)."
    ),
    "held_up": "Who held the field up",
    "held_up_hint": (
        "A group out of position (open course ahead) while the groups that completed the hole "
        "right after it were close and over time. Minutes: the held groups' minutes over at that "
        "hole, added up."
    ),
    "nobody_held": "No group held the field up.",
    "held_line": (
        "Group {group} held up 1 group at hole {hole} ({time}): {minutes} ({behind}); on holes "
        "{holes}.",
        "Group {group} held up {count} groups at hole {hole} ({time}): {minutes} in all "
        "({behind}); on holes {holes}.",
    ),
    "group": "Group",
    "group_n": "Group {group}",
    "start": "Start",
    "tee": "Tee",
    "players": "Players",
    "lead": "lead group",
    "finish": "Finish",
    "round_time": "Round time",
    "allotted": "Allotted",
    "allowed": "Allowed",
    "stopped": "Stopped",
    "credited": "Credited",
    "over": "Over",
    "status": "Status",
    "hole": "Hole",
    "par": "Par",
    "due": "Due",
    "logged": "Logged",
    "gap": "Gap",
    "ahead": "Group ahead",
    "hole_time": "On the hole",
    "avg_over": "Avg over (cumulated)",
    "avg_hole_over": "Avg over on the hole",
    "avg_gap": "Avg gap",
    "gap_change": "Gap change",
    "minutes_hint": (
        "Minutes: + over the allotted time, − under. Over and gap as judged at each completion."
    ),
    "grid_legend": (
        "In each group's grid, ! marks a completion out of position, ~ one behind (over time, "
        "held up by the group ahead)."
    ),
    "episodes": "Out of position",
    "no_episode": "Never out of position.",
    "from": "From",
    "to": "To",
    "holes": "Holes",
    "worst_gap": "Worst gap",
    "worst_over": "Worst over",
    "ended_by": "Ended",
    "ended.back_in_position": "back in position",
    "ended.finished": "round finished",
    "ended.withdrawn": "withdrawn",
    "ended.none": "still out of position",
    "referees": "Referees",
    "decisions": "Timing decisions",
    "no_decision": "No timing decision.",
    "when": "When",
    "decision": "Decision",
    "decision.time": "time the group",
    "decision.not_time": "not time it",
    "reason": "Reason",
    "note": "Note",
    "by": "By",
    "reason.ruling": "a ruling",
    "reason.lost_ball": "a lost ball",
    "reason.unplayable_ball": "an unplayable ball",
    "reason.other": "other",
    "spells": "Timed",
    "spell_line": "from {start} (hole {hole}, by {by}) to {end}",
    "not_stopped": "the end of the log",
    "back_in_position": "back in position",
    # the referee's stop of a spell and its reason (issue 47): a code said here, else as typed
    "spell_end_reason": "{by}: {reason}",
    "spell_stop": "; stop confirmed at {time} by {by}",
    "spell_stop_reason": "; stop confirmed at {time} by {by}: {reason}",
    "stop_reason.players_told": "players told",
    "credits": "Time credits",
    "credit_line": "{minutes} at {time} by {by}: {reason}",
    "player": "Player",
    "told": "Told the group is timed",
    "strokes": "Timed strokes",
    "kind": "Stroke",
    "kind.par3_tee": "par-3 tee shot",
    "kind.approach": "approach",
    "kind.chip_putt": "chip or putt",
    "kind.other": "other",
    "time": "Time",
    "bad_time": "Bad time",
    "faults": "Faults and penalties",
    "fault": "Fault",
    "fault.bad_time": "bad time",
    "fault.checkpoint": "checkpoint breach ({taken} for holes {holes}, limit {limit})",
    "counted": "Counted",
    "penalty": "Penalty",
    "effect": "Effect on the card",
    "notified": "Player told",
    "not_notified": "not told",
    "yes": "yes",
    "no": "no",
    "why.counted": "counted",
    "why.previous_not_notified": "not counted: the previous one was not yet told",
    "why.after_disqualification": "not counted: after the disqualification",
    "why.beyond_ladder": "not counted: beyond the ladder",
    "why.not_timed": "not counted: no timing spell held it",
    "why.group_in_position": "not counted: the group was back in position",
    "status.not_started": "not started",
    "status.on_pace": "on pace",
    "status.behind": "behind",
    "status.overdue": "overdue",
    "status.out_of_position": "out of position",
    "status.finished": "finished",
    "status.withdrawn": "withdrawn",
    "siren.interruption": "interruption (one long siren)",
    "siren.suspension": "suspension (three sirens)",
    "on_course": "Groups on the course",
    "duration": "Duration",
    "still_stopped": "not resumed",
    "page": "page",
    "policy_unknown": (
        "The round's pace policy {policy!r} is not in this configuration: faults and penalties "
        "are not judged."
    ),
    "exports": "Export",
    "letters": "Letters",
    "effect.warning": "warning (no effect on the score)",
    "effect.final_warning": "final warning (no effect on the score)",
    "effect.strokes": (
        "1 penalty stroke on hole {hole}",
        "{amount} penalty strokes on hole {hole}",
    ),
    "effect.points": ("1 penalty point on hole {hole}", "{amount} penalty points on hole {hole}"),
    "effect.loss_of_hole": "loss of hole {hole}",
    "effect.disqualification": "DQ (disqualified)",
    "effect.side": "{effect}, borne by the side",
    "letters_title": "Pace of play: the facts",
    "letter.to_player": "To {name} (group {group})",
    "letter.to_group": "To the players of group {group}: {names}",
    "letter.opening": (
        "Round {round} of {day} on {course}. Group {group} started at {start} from tee {tee}."
    ),
    "letter.worst": (
        "Your group finished hole {hole} at {time}, {over} minutes over its allotted time and "
        "{gap} minutes behind the group ahead."
    ),
    "letter.worst_lead": (
        "Your group finished hole {hole} at {time}, {over} minutes over its allotted time, with "
        "no group ahead of it."
    ),
    "letter.behind": (
        "On holes {holes} your group was over its allotted time but close behind the group "
        "ahead: in position."
    ),
    "letter.episode": "It was out of position from hole {first} ({start}) to hole {last} ({end}).",
    "letter.episode_open": (
        "It was out of position from hole {first} ({start}) to the end of its round."
    ),
    "letter.held": (
        "At hole {hole}, the group that completed it after yours was close behind and over its "
        "allotted time: {minutes}.",
        "At hole {hole}, the {count} groups that completed it after yours were close behind and "
        "over their allotted time: {minutes} in all.",
    ),
    "letter.not_timed": "At {time} a referee decided not to time your group ({reason}).",
    "letter.timed": (
        "At {time} a referee decided to time your group: you were timed from hole {hole}."
    ),
    "letter.spell_end": "Timing stopped at {time}.",
    "letter.told": "{name} was told at {time} by {by} that the group was being timed.",
    "letter.strokes": "Timed strokes of {name}: {list}.",
    "letter.stroke": "{seconds} on hole {hole} (allowed {allowed}{bad})",
    "letter.bad": ", bad time",
    "letter.fault": "{name}, {fault} on hole {hole} at {time}: {outcome}.",
    "letter.fault_told": " Told at {time} by {by}.",
    "letter.finish": (
        "Your group finished at {finish}: {round_time} for {allotted} allotted, {over} minutes "
        "over{stopped}."
    ),
    "letter.finish_within": (
        "Your group finished at {finish}: {round_time} for {allotted} allotted, within its "
        "allotted time{stopped}."
    ),
    "letter.stopped": " ({minutes} of stopped play not counted)",
    "letter.unfinished": "Your group's last logged hole is hole {hole}, at {time}.",
    "letter.closing": "These are the facts logged by the committee's marshals and referees.",
    # where a letter's hole times came from (issue 46): officials, the groups' cards, or both
    "letter.closing_groups": (
        "The hole times in this letter were entered by the groups' scorers on their cards; no "
        "marshal or referee saw them."
    ),
    "letter.closing_both": "Of the hole times in this letter, {officials}, and {groups}.",
    "letter.source.officials": (
        "{count} was logged by the committee's marshals and referees",
        "{count} were logged by the committee's marshals and referees",
    ),
    "letter.source.groups": (
        "{count} was entered by the groups' scorers on their cards",
        "{count} were entered by the groups' scorers on their cards",
    ),
    "letter.closing_acts": (
        "The referees' decisions, timings and notices were logged by the referees."
    ),
    "letter.reports_only": (
        "The hole times your group entered on its own card are not enough to establish anything "
        "about its position on the course; only an official's observation could."
    ),
    "letter.worst_batched": (
        "Your group finished hole {hole} at {time}, {over} minutes over its allotted time; group "
        "{ahead}, ahead of it, entered hole {hole} on its card only together with a later hole, "
        "so when it completed hole {hole}, and the gap to it, are not known."
    ),
    "letter.none": "Nobody to write to: no group was out of position and no stroke was timed.",
    "letter.none_reported": (
        "Nobody to write to: no stroke was timed, and no official saw a group out of position "
        "(a group's own reports alone name nobody in a letter)."
    ),
    # why a group was named (docs/explanations.md): pace.reports.why says an explanation
    "explain.title": "Why",
    "explain.subject.out_of_position": "Out of position at {time} (hole {hole})",
    "explain.subject.back_in_position": "Back in position at {time} (hole {hole})",
    "explain.subject.overdue": "Overdue at {time} (hole {hole} in play)",
    "explain.subject.held_up": "Held the field up at hole {hole} ({time})",
    "explain.completion": (
        "On completing hole {hole} at {time}, group {group} ({players}) had played "
        "{elapsed} min{deductions} against {allotted} min allotted up to that hole: {over} min "
        "over."
    ),
    "explain.projection": (
        "At {time}, group {group} ({players}), playing hole {hole}, had played {elapsed} "
        "min{deductions} against {allotted} min allotted up to that hole: {over} min over."
    ),
    "explain.players": ("{count} player", "{count} players"),
    "explain.deductions": " ({clock} min since its start at {start}{parts})",
    "explain.stopped": ", less {minutes} min of stopped play",
    "explain.credited": ", less {minutes} min of time credited",
    "explain.lead": "As a lead group it is judged on its time alone.",
    "explain.gap": (
        "Group {ahead} had completed hole {hole} at {ahead_time}: a gap of {gap} min, against "
        "the starting interval of {limit} min."
    ),
    "explain.gap_now": (
        "Group {ahead} completed hole {hole} at {ahead_time}, {gap} min earlier, against the "
        "starting interval of {limit} min."
    ),
    "explain.nobody_ahead": (
        "No group was seen completing hole {hole} before it: it is judged as a lead group."
    ),
    "explain.batched_ahead": (
        "Group {ahead} completed hole {hole} before it but entered it on its card only together "
        "with a later hole (at {time}): when it completed hole {hole} is not known, so no gap can "
        "be measured and it is judged as a lead group."
    ),
    "explain.hole_occupied": "Nobody has completed hole {hole} yet: the hole ahead is occupied.",
    "explain.verdict": "Hence: {status}.",
    "explain.behind": (
        "Behind it, waiting (over their allotted time, close to the group ahead): {list}."
    ),
    "explain.waiting": "group {group}, {over} min over",
    "explain.waiting_gap": "group {group}, {over} min over, {gap} min behind the group ahead",
    "explain.held_holes": "Group {group} held the field up at hole(s) {holes}.",
    "explain.nobody_behind": "No group was waiting behind it.",
    "explain.facts": "The facts:",
    "explain.then": "; ",
    "explain.line.start": "group {group} starts (the draw's time)",
    "explain.line.tap": "group {group} completes hole {hole}",
    "explain.line.ahead": "group {group}, ahead, completes hole {hole}",
    "explain.line.tap_reported": "group {group} reports on its card that it completed hole {hole}",
    "explain.line.ahead_reported": (
        "group {group}, ahead, reports on its card that it completed hole {hole}"
    ),
    "explain.line.siren.interruption": "siren: play interrupted",
    "explain.line.siren.suspension": "siren: play suspended",
    "explain.line.siren.resume": "siren: play resumes",
    "explain.line.credit": "time credit of {minutes} min to group {group} ({reason})",
    "explain.line.retired": "{player} of group {group} retires",
    "explain.line.verdict": "judged {status}",
    "explain.line.waiting": "group {group}, behind it on hole {hole}: {over} min over",
    "explain.source": " — {by}, event {id}",
    "explain.corrected": ", corrected by {ids}",
    # the printable results sheet (pace.reports.results_sheet)
    "results.title": "Results",
    "results.title_round": "Results · {round}",
    "results.course": "Course: {course}",
    "results.kind": "{scoring} {net}, {format}",
    "results.scoring.stroke": "Stroke play",
    "results.scoring.stableford": "Stableford",
    "results.scoring.match": "Match play",
    "results.scoring.bogey": "Bogey",
    "results.scoring.par": "Par",
    "results.net": "net",
    "results.gross": "gross",
    "results.format.individual": "individual",
    "results.format.foursome": "foursome",
    "results.format.threesome": "threesome",
    "results.format.greensome": "greensome",
    "results.format.four_ball": "four-ball",
    "results.format.best_ball": "best ball",
    "results.from_files": "Computed from the committee's files: not a stored round's results.",
    "results.overall": "Overall",
    "results.class": "Class {name}",
    "results.no_class": "Without a class",
    "results.matches": "Matches",
    "results.col.pos": "Pos.",
    "results.col.player": "Player",
    "results.col.match": "Match",
    "results.col.sides": "Sides",
    "results.col.tees": "Tees",
    "results.col.handicap": "Hcp",
    "results.col.gross": "Gross",
    "results.col.net": "Net",
    "results.col.points": "Points",
    "results.col.result": "Result",
    "results.col.winner": "Winner",
    "results.col.countback": "Countback",
    # the terminal's table (``pace results --lang``): the note the printed sheet sets under
    # the player's name gets its own column
    "results.col.note": "Note",
    "results.tied": "T{position}",
    "results.nr": "NR",
    "results.dq": "DQ",
    "results.nr_reason": "No return: a hole without score",
    "results.not_started": "not started",
    "results.thru": "in play: thru {n}",
    "results.dq_reason": "Disqualified: {reason}",
    "results.points_off": "slow play penalty: −{n} pts",
    "results.penalty_strokes": "slow play penalty: +{n}",
    "results.halved": "halved",
    "results.vs": "{a} v {b}",
    "results.countback_last": "last {holes}: {value}",
    "results.countback_hole": "last hole: {value}",
    "results.countback_equal": "still equal",
    "results.countback_hint": (
        "Countback: the figure over the last 9, 6, 3 holes and the last hole that separated "
        "entries level on the round."
    ),
    "results.handicap.whs": (
        "Playing handicaps as the World Handicap System computes them: the unrounded course "
        "handicap times the allowance, rounded once."
    ),
    "results.handicap.course_then_playing": (
        "Playing handicaps by the committee's older reading: the course handicap rounded, then "
        "the allowance, rounded again."
    ),
    "results.handicap.gross_par": (
        "Gross scores from tees of a higher par have the difference in par taken off (WHS Rule "
        "6.2b)."
    ),
    "results.handicap.gross_as_played": (
        "Gross scores as played, whatever the par of the tees (the committee's setting)."
    ),
    "results.printed": "Printed {at}",
    "results.pdf": "PDF (A4)",
    "results.csv": "CSV",
    "results.leaderboard": "Leaderboard",
    "results.empty": "No entry yet.",
    # the course strip at one instant (issue 40; pace/reports/strip_svg.py)
    "strip.title": "The field on the course",
    "strip.form": "The field on the course at",
    "strip.form_reading": "read",
    "strip.form_show": "Show",
    "strip.group": "Group {group}",
    "strip.finished": "finished",
    "strip.on_tee": "waiting to start on hole {hole}",
    "strip.on_hole": "on hole {hole}, {percent} % of its time passed",
    "strip.gap": "{minutes} min behind the group ahead",
    "strip.holding": "holding up groups {groups}",
    "strip.held_by": "held up by group {group}",
    "strip.chain": "Group {group} holding up {groups}",
    "strip.course_order": "The course, hole by hole",
    "strip.from_tee": "From tee {tee}",
    "strip.reading.known": "as the log stood then",
    "strip.reading.corrected": "with the corrections logged since",
    "strip.report_caption": (
        "The field at {at}, {reading}: each group on the hole it was playing, as far along as"
        " its time for the hole had passed (● on pace, ▲ behind, ◆ overdue, ■ out of position,"
        " ✓ finished)."
    ),
}


def stop_reason(reason: str | None, lang: str) -> str:
    """Return a referee's stop reason in ``lang``: a code (the shot clock's "players told",
    also the English an older shot clock stored) in words, a referee's own words as typed.

    >>> stop_reason("back in position: players told", "nl"), stop_reason("rain", "fr")
    ('spelers verwittigd', 'rain')
    """
    code = refereeing.stop_reason_code(reason)
    return text(f"stop_reason.{code}", lang) if code else (reason or "").strip()


def text(key: str, lang: str, **values: object) -> str:
    """Return the text of ``key`` in ``lang`` (English when missing), ``{name}`` filled in.

    >>> text("group_n", "fr", group="7")
    'Partie 7'
    """
    source = TEXTS.get(key)
    if source is None:
        return key
    template = i18n.text(CONTEXT + key, source, lang)
    return template.format(**values) if values else template


def text_n(key: str, count: int, lang: str, **values: object) -> str:
    """Return ``key`` for ``count`` things, by the plural rule of ``lang`` (gettext).

    >>> text_n("effect.strokes", 1, "fr", amount=1, hole=4)
    '1 coup de pénalité au trou 4'
    >>> text_n("effect.strokes", 2, "en", amount=2, hole=4)
    '2 penalty strokes on hole 4'
    """
    source = TEXTS.get(key)
    if source is None:
        return key
    return i18n.plural(CONTEXT + key, source, count, lang).format(count=count, **values)


#: who recorded an act, as ``pace.rules.report.referees.author`` and a round's life write it
#: when no person's name was given: the role, and the device that sent it
_ROLE_AUTHOR = re.compile(r"(committee|referee|scorer|marshal|viewer)(?: \((.*)\))?")


def author(by: str | None, lang: str) -> str:
    """Return who recorded an act as a document says it in ``lang``: a person's name as it
    is; a role in words, with the device that sent it, unless that is the server's stand-in
    for a device that gave no name (``sid:…``, a session's own id: docs/protocol.md).

    >>> author("Anne Dubois", "fr"), author("committee (sid:http)", "fr")
    ('Anne Dubois', 'le comité')
    >>> author("referee (tablet-2)", "en")
    'a referee (tablet-2)'
    """
    found = _ROLE_AUTHOR.fullmatch(by or "")
    if found is None:
        return by or ""
    role, device = found.groups()
    words = text(f"by.{role}", lang)
    return f"{words} ({device})" if device and not device.startswith("sid:") else words


def when(iso: str, lang: str) -> str:
    """Return a local ISO instant as the documents write it: ``14/06/2026 17:42`` in French
    and Dutch, ``2026-06-14 17:42`` in English (``i18n.day_text``).

    >>> when("2026-06-14T17:42:05+02:00", "nl"), when("2026-06-14T17:42:05+02:00", "en")
    ('14/06/2026 17:42', '2026-06-14 17:42')
    """
    try:
        at = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{i18n.day_text(at.date(), lang)} {at.strftime('%H:%M')}"


def results_final(act: Mapping[str, Any], lang: str) -> str:
    """Return what a document says of final results: since when, by whom (a round's life's
    ``finalised``, docs/status.md)."""
    return text("results_final", lang, at=when(str(act["at"]), lang),
                by=author(act.get("by"), lang))  # fmt: skip


def clock(instant: datetime | None, tz: tzinfo, seconds: bool = False) -> str:
    """Return a local clock time, ``HH:MM`` (or ``HH:MM:SS``), or an empty string."""
    if instant is None:
        return ""
    return instant.astimezone(tz).strftime("%H:%M:%S" if seconds else "%H:%M")


def signed_minutes(d: timedelta | None, lang: str = "en") -> str:
    """Return minutes over as people read them: ``+9``, ``−2``, ``0`` (rounded to the minute).

    >>> signed_minutes(timedelta(minutes=8, seconds=40)), signed_minutes(timedelta(minutes=-2))
    ('+9', '−2')
    """
    if d is None:
        return ""
    n = round(d.total_seconds() / 60)
    return "0" if n == 0 else (f"+{n}" if n > 0 else f"−{-n}")


def duration(d: timedelta | None, lang: str = "en") -> str:
    """Return a duration as ``4 h 41`` or ``38 min`` (rounded to the minute).

    >>> duration(timedelta(hours=4, minutes=41)), duration(timedelta(minutes=38))
    ('4 h 41', '38 min')
    """
    if d is None:
        return ""
    total = round(d.total_seconds() / 60)
    sign = "−" if total < 0 else ""
    total = abs(total)
    if total >= 60:
        return f"{sign}{total // 60} h {total % 60:02d}"
    return f"{sign}{total} min"


def seconds(d: timedelta | None, lang: str = "en") -> str:
    """Return a stroke's time in seconds, one decimal, in the language's notation.

    >>> seconds(timedelta(seconds=46.2), "fr"), seconds(timedelta(seconds=40), "en")
    ('46,2 s', '40.0 s')
    """
    if d is None:
        return ""
    value = f"{d.total_seconds():.1f}"
    return i18n.decimal(value, lang) + " s"


def effect(penalty: Penalty | None, lang: str) -> str:
    """Return what a counted penalty does to the card, in words ("1 penalty stroke on hole 14").

    This is the only place that states the effect (docs/rules.md §6, §7); it reads the judged
    penalty until the scoring module's card can be read instead.

    >>> effect(Penalty("strokes", 1, 14), "en"), effect(Penalty("loss_of_hole", 0, 14), "fr")
    ('1 penalty stroke on hole 14', 'perte du trou 14')
    >>> effect(Penalty("strokes", 2, 16), "fr")
    '2 coups de pénalité au trou 16'
    >>> effect(Penalty("disqualification", 0, 9, "side"), "en")
    'DQ (disqualified), borne by the side'
    """
    if penalty is None:
        return ""
    words = text_n(
        f"effect.{penalty.kind}", penalty.amount, lang, amount=penalty.amount, hole=penalty.hole
    )
    if penalty.bearer == "side":
        words = text("effect.side", lang, effect=words)
    return words
