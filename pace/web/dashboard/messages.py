"""The dashboard's words in English: the field, its alerts, the sirens, a group's detail; the
French is in the gettext catalogue (``pace.i18n``). The referees' timing and penalties on the
dashboard speak through ``pace.web.referee.messages``, its hold-up panel through
``pace.web.reports.messages``.

Part of the pages' catalogue (``pace.web.i18n.MODULES``).
"""

from __future__ import annotations

from pace.i18n import Source

MESSAGES: dict[str, Source] = {
    "page.dashboard": "Referee dashboard",
    "dash.title": "Dashboard · {round}",
    "dash.field": "The field",
    "dash.col.group": "Group",
    "dash.col.status": "Status",
    "dash.col.over": "Over",
    "dash.col.gap": "Gap",
    "dash.col.interval": "Interval",
    "dash.col.finish": "Finish",
    "dash.col.hole": "Hole {hole}, par {par}",
    # a hole's par under its number in the boards' headers ("p4")
    "dash.col.par": "p{par}",
    "dash.finish_range": "80 %: {low}–{high}",
    "dash.over_range_title": "Over time by",
    "dash.over_range": "hole {early} to {late} (80 %)",
    "dash.over_range_one": "hole {hole} (80 %)",
    "dash.over_range_open": "hole {early}, or not at all (80 %)",
    "dash.minutes_hint": (
        "Over: minutes over the allotted time (+ late, − early). Gap and interval: minutes. "
        "Finish: projected, below it its range (80 %) from the course's finished rounds."
    ),
    "dash.legend": "Hole times against the allotment",
    "dash.legend.ok": "on time or early",
    "dash.legend.warn": "up to 2 min over",
    "dash.legend.late": "more than 2 min over",
    "dash.legend.due": "hole in play",
    "dash.alerts": "Alerts",
    "dash.no_alerts": "No open alert.",
    "dash.ack": "Acknowledge",
    "dash.alert.out_of_position": "Group {group} out of position (hole {hole})",
    "dash.alert.overdue": "Group {group} overdue on hole {hole}",
    "dash.alert.back_in_position": "Group {group} back in position (hole {hole})",
    "dash.alert.missing_tap": (
        "Missed tap: group {group}, hole {hole}, estimated {time} (between {earliest} and "
        "{latest}); ask the marshal of hole {hole} to confirm it"
    ),
    "dash.alert.missing_tap_scorer": (
        "Missed report: group {group} has entered nothing on hole {hole} (estimated {time}, "
        "between {earliest} and {latest}); ask group {group}'s scorer to enter hole {hole}"
    ),
    "dash.estimate.title": "Estimated {time}, between {earliest} and {latest}: {reason}",
    "dash.estimate.now": "now",
    "dash.estimate.skipped": "a later hole was logged",
    "dash.estimate.passed": "the group behind completed it first",
    "dash.estimate.silent": "no tap for more than twice the hole's time",
    "dash.alert.reported_by_group": (
        "Reported by the group: its own scorecard gave this time; look before timing"
    ),
    "dash.reported_by_group": "reported by the group",
    "dash.estimate.rests": "Judged on an estimated time: no alert until the real tap",
    # issue 48: the alert's status rests on a completion inferred from the group's positions
    "dash.alert.from_positions": (
        "From positions: the group's phone gave this hole time (to a minute or two); look "
        "before timing"
    ),
    # issue 48: raised before the group left the hole: its phone showed it still on it
    "dash.alert.seen_on_hole": (
        "From positions: the group's phone showed it still on hole {hole} at {time}, past its "
        "time and its gap: out of position whenever it leaves; look before timing"
    ),
    "dash.from_positions": "from positions",
    "dash.from_positions.between": "from positions, between {earliest} and {latest}",
    # issue 48: where a group stands on its hole, from its phone (static/places.js)
    "place.to_green": "{metres} m to the green",
    "place.on_green": "on the green",
    "place.on_tee": "on the tee",
    "place.walking": "walking to the tee of hole {hole}",
    "place.behind": "{metres} m behind group {group}",
    "place.last_seen": "last seen {minutes} min ago",
    "dash.alert.other": "Group {group}: {kind}",
    "dash.alert.over": "over {over} min",
    "dash.alert.gap": "gap {gap} min",
    "dash.alert.when_raised": "when raised: {numbers}",
    "dash.alert.now": "now: {numbers}",
    "dash.alert.resolved_at": "over at {time}: the situation has ended",
    "dash.resolved": "Resolved alerts",
    "dash.resolved_hint": (
        "Their situation has ended (the group back in position, a time corrected); kept here to "
        "read."
    ),
    "dash.suspended": "Play suspended: the clocks are stopped",
    "dash.sirens": "Sirens (committee)",
    "dash.siren.interruption": "Interruption · one long siren",
    "dash.siren.suspension": "Suspension · three sirens",
    "dash.siren.resume": "Resume · two sirens",
    "dash.siren.confirm": "Record “{kind}” now, at {time}?",
    "dash.siren.recorded": "Recorded: {kind} at {time}",
    "dash.detail.players": "Players",
    "dash.detail.tee": "Tee {tee}, start {time}",
    "dash.detail.due": "Due",
    "dash.detail.logged": "Logged",
    "dash.detail.over": "Over (min)",
    "dash.detail.hint": "Click a group for its detail.",
    # the course strip (issue 40; static/strip.js, static/dashboard/strip.js)
    "strip.title": "On the course",
    "strip.mode.live": "now",
    "strip.mode.rewound": "rewound to",
    "strip.mode.ahead": "projected at",
    "strip.slider": "Time of day",
    "strip.now": "Now",
    "strip.play": "Play",
    "strip.pause": "Pause",
    "strip.speed": "Speed",
    "strip.corrected": "with later corrections",
    "strip.legend": (
        "Each group is drawn on the hole it is playing, as far along as its time for the hole"
        " has passed: ● on pace, ▲ behind, ◆ overdue, ■ out of position, ✓ finished; ≈ an"
        " estimated position (a missed tap); the minutes are the gap to the group ahead."
        " Drag the slider to see the field as it was known at an earlier time."
    ),
    "strip.legend_facts": (
        "Each group is drawn on the hole it is playing (the one after the last it completed);"
        " ≈ marks a hole estimated completed (a missed tap)."
    ),
    "strip.on_hole_facts": "on hole {hole}",
    "strip.map": "The course's map",
    "strip.map_label": "The course's {holes} holes, drawn from its own map",
    "strip.show_map": "on the course's map",
    "strip.from_tee": "From tee {tee}",
    "strip.course_order": "The course, hole by hole",
    "strip.holes": "Holes in playing order",
    "strip.groups": "Groups on the course",
    "strip.group": "Group {group}",
    "strip.on_tee": "waiting to start on hole {hole}",
    # the groups not started yet, beside the course's map (issue 47)
    "strip.not_started": "Not started yet",
    "strip.starts_at": "starts at {time} on hole {hole}",
    "strip.on_hole": "on hole {hole}, {percent} % of its time passed",
    "strip.over_allotment": "over its time for the hole",
    "strip.finished": "finished",
    "strip.withdrawn": "withdrawn",
    "strip.gap": "{minutes} min behind the group ahead",
    "strip.holding": "holding up groups {groups}",
    "strip.held_by": "held up by group {group}",
    "strip.chain": "Group {group} holding up {groups}",
    "strip.estimated": "estimated position (a missed tap)",
    "strip.projected": "projected",
}
