"""The console's time-pars page in English (issue 30 part 2, docs/calibration.md); the French
is in the gettext catalogue (pace.i18n). Part of the pages' catalogue (``pace.web.i18n.MODULES``).
"""

from __future__ import annotations

from pace.i18n import Source

MESSAGES: dict[str, Source] = {
    "page.calibration": "Time pars from history",
    "cal.link": "Time pars",
    "cal.intro": (
        "Each hole's time in the course's finished rounds, per group size, against its "
        "allotment, and a suggested allotment per hole summing to the target round. Nothing "
        "is applied: download the suggestion and import it as a course if the committee "
        "chooses."
    ),
    "cal.course": "Course",
    "cal.since": "Rounds played from",
    "cal.target": "Target round (H:MM)",
    "cal.size": "Target for groups of",
    "cal.size_any": "the size most played",
    "cal.show": "Show",
    "cal.rounds": "{rounds} finished rounds, {counted} hole times counted.",
    "cal.left_out": "Left out of the statistics",
    "cal.skip.missing": "a missed tap at one end",
    "cal.skip.out_of_order": "holes logged out of order",
    "cal.skip.stopped": "a stop of play inside",
    "cal.skip.credited": "a time credit inside",
    "cal.skip.estimated": "an estimated completion at one end",
    "cal.none": "No finished round on this course yet: nothing to calibrate from.",
    "cal.column": "Groups of {size}",
    "cal.column_rounds": (
        "Median round {observed} over {whole} whole rounds; allotted {allotted}; the suggestion "
        "sums to {target} (walks included)."
    ),
    "cal.no_suggestion": "No suggestion for this size: {reason}",
    # why (pace.rules.calibration.NoSuggestion; issue 47: the page said it in English)
    "cal.why.thin": "fewer than {count} clean times on holes {holes}",
    "cal.why.unscaled": (
        "the target is for groups of {size}, and the history has none to scale it from"
    ),
    "cal.why.no_round": "no whole round observed at this size to size the suggestion",
    "cal.why.no_play_time": (
        "the round {goal} leaves no time to play once the walks ({walks}) are taken"
    ),
    "cal.hole": "Hole",
    "cal.count": "Times",
    "cal.median": "Median",
    "cal.p80": "80th percentile",
    "cal.allotted": "Allotted",
    "cal.suggested": "Suggested",
    "cal.chart": "Observed against allotted, per hole (minutes)",
    "cal.download": "Download the suggestion (course TOML)",
    "cal.download_hint": (
        "The file is a new course named {name}: a course already played cannot change its "
        "holes. Import it on the Courses page, then use it for the next rounds."
    ),
}
