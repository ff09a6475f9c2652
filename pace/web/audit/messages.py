"""The audit's words in English: its page and columns, and its sentences (issue 14, point 15),
one per kind of event; the French is in the gettext catalogue (pace.i18n).

Part of the pages' catalogue (``pace.web.i18n.MODULES``). ``{what}`` is the event's own
sentence, ``{who}`` its author ("marshal Paul"), ``{clock}`` the phone's clock offset.
"""

from __future__ import annotations

from pace.i18n import Source

MESSAGES: dict[str, Source] = {
    "page.audit": "Audit",
    "audit.title": "Event log of {round}",
    "audit.type": "Type",
    "audit.group": "Group",
    "audit.all_types": "all",
    "audit.all_groups": "all",
    "audit.filter": "Filter",
    "audit.csv": "CSV export",
    "audit.none": "No events.",
    "audit.col.seq": "#",
    "audit.col.at": "At",
    "audit.col.recorded_at": "Recorded at",
    "audit.col.type": "Type",
    "audit.col.group": "Group",
    "audit.col.hole": "Hole",
    "audit.col.role": "Role",
    "audit.col.name": "Name",
    "audit.col.device": "Device",
    "audit.col.target": "Target",
    "audit.col.reason": "Reason",
    "audit.col.details": "Details",
    "audit.raw": "Raw log",
    "audit.readable": "Readable log",
    "audit.excel": "CSV for Excel (;)",
    "audit.col.what": "What",
    "audit.col.who": "Who",
    "audit.who": "{role} {name}",
    "audit.system": "pace (the scheduler)",
    "audit.import": "import by {name}",
    "audit.clock": "phone clock {offset} s",
    "audit.role.committee": "committee",
    "audit.role.referee": "referee",
    "audit.role.scorer": "scorer",
    "audit.role.marshal": "marshal",
    "audit.role.viewer": "viewer",
    "audit.what.hole_completed": "Hole {hole} completed by group {group}",
    "audit.what.hole_time_corrected": "Time of {target} corrected to {time}",
    "audit.what.event_voided": "{target} voided",
    "audit.what.siren": "Siren: {kind}",
    "audit.what.siren.interruption": "interruption (one long siren)",
    "audit.what.siren.suspension": "suspension (three sirens)",
    "audit.what.siren.resume": "play resumes (two sirens)",
    "audit.what.alert_raised": "Alert: {alert}",
    "audit.what.alert_acknowledged": "Alert acknowledged: {alert}",
    "audit.what.alert_resolved": "Alert resolved (its situation ended): {alert}",
    "audit.what.timing_decided.time": "Group {group} to be timed",
    "audit.what.timing_decided.not_time": "Group {group} not timed ({reason})",
    "audit.what.player_told_timed": "{player} (group {group}) told the group is timed",
    "audit.what.stroke_timed": (
        "Stroke of {player} (group {group}) timed on hole {hole}: {seconds} s"
    ),
    "audit.what.player_notified": "{player} (group {group}) told of a fault",
    "audit.what.time_credit_granted": "Group {group} credited {minutes} min",
    "audit.what.timing_stopped": "Timing of group {group} stopped",
    "audit.what.group_withdrawn": "Group {group} withdrawn",
    "audit.what.other": "{type}",
    "audit.target.hole": "hole {hole} of group {group}",
    "audit.target.other": "event #{seq}",
}
