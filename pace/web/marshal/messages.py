"""The marshal page's words in English: the holes covered, the groups due, the taps and their
corrections; the French is in the gettext catalogue (``pace.i18n``).

Part of the pages' catalogue (``pace.web.i18n.MODULES``).
"""

from __future__ import annotations

from pace.i18n import Source

MESSAGES: dict[str, Source] = {
    "page.marshal": "Marshal",
    "marshal.title": "Marshal · {round}",
    "marshal.holes": "Holes I cover",
    "marshal.holes_hint": "Choose the hole(s) you watch; this phone remembers them.",
    "marshal.choose_holes": "Choose at least one hole above to see the groups due.",
    "marshal.due": "Groups due next",
    "marshal.none_due": "Every group has been logged on these holes.",
    "marshal.tap": "Group {group} holed out on {hole}",
    "marshal.due_at": "due {time}",
    "marshal.reported_by_group": "the group reported it at {time}: tap to confirm",
    "marshal.more": "Show {count} more",
    "marshal.pending_none": "All taps sent",
    "marshal.pending": "{count} waiting to be sent · oldest since {time}",
    "marshal.taps": "My taps",
    "marshal.no_taps": "No tap yet.",
    "marshal.state.queued": "queued",
    "marshal.state.sent": "sent",
    "marshal.state.confirmed": "confirmed",
    "marshal.state.refused": "refused",
    "marshal.kind.hole_completed": "{group} · hole {hole}",
    "marshal.kind.void_event": "Undo: {target}",
    "marshal.kind.correct_hole_time": "Time corrected: {target} → {time}",
    "marshal.undone": "undone",
    "marshal.corrected": "corrected to {time}",
    "marshal.undo": "Undo",
    "marshal.correct": "Correct the time",
    "marshal.remove": "Remove",
    "marshal.reason": "Reason",
    "marshal.reason.undo": "tapped by mistake",
    "marshal.reason.wrong_group": "wrong group",
    "marshal.reason.wrong_hole": "wrong hole",
    "marshal.reason.late_tap": "tapped late",
    "marshal.confirm_undo": "Undo this tap",
    "marshal.new_time": "Real time (round's local time)",
    "marshal.save_time": "Save the new time",
    "marshal.bad_time": "Enter a time such as 10:42",
    "marshal.check": "Please check group {group} near hole {hole}: it is overdue",
    "marshal.dismiss": "Seen",
    "marshal.missing": (
        "Missed tap? Group {group} on hole {hole}, between {earliest} and {latest}: when did it "
        "hole out?"
    ),
    "marshal.missing.time": "Time it holed out (HH:MM)",
    "marshal.missing.log": "Log this time",
    "marshal.missing.now": "now",
    "marshal.me": "My name (optional)",
    "marshal.save": "Save",
}
