"""The report's pages and the dashboard's hold-up panel, in English (issue 12; the French is
in the gettext catalogue, pace.i18n).

Joined to ``pace.web.i18n.MESSAGES``; the report itself speaks through ``pace.reports.words``.
"""

from __future__ import annotations

from pace.i18n import Source

MESSAGES: dict[str, Source] = {
    "page.report": "Report",
    "page.offenders": "Repeat offenders",
    "offenders.title": "Repeat offenders",
    "offenders.days": "Days back",
    "offenders.window": "Rounds from {since} to {until}.",
    "offenders.hint": (
        "Players whose group was out of position, or who had bad times or penalties; the most "
        "recent first. A player is known by his name as printed on the draw."
    ),
    "offenders.player": "Player",
    "offenders.latest": "Latest",
    "offenders.rounds": "Rounds",
    "offenders.group": "group",
    "offenders.episodes": "Out of position",
    "offenders.bad_times": "Bad times",
    "offenders.penalties": "Penalties",
    "offenders.none": "Nobody: no episode, bad time or penalty in these rounds.",
    "dash.held_up": "Holding the field up",
    "dash.held_up.none": "Nobody so far.",
    "dash.held_up.line": (
        "Group {group}: {count} held at hole {hole}, {minutes} min over in all",
        "Group {group}: {count} held at hole {hole}, {minutes} min over in all",
    ),
    "dash.held_up.now": "now",
    "dash.held_up.hint": (
        "Out of position with open course ahead while the groups just behind are close and over "
        "time; minutes: theirs over, added up."
    ),
    "dash.links.report": "Report",
    "report.job.running": "Building the PDF… {done}/{total}",
    "report.job.done": "PDF ready: downloading.",
    "report.job.failed": "The PDF failed: {error}",
}
