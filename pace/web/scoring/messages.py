"""The scoring pages' words in English: the scorer's card and the public leaderboard.

One of the pages' texts (``pace.web.i18n.MODULES``); the French is in the gettext catalogue
(``pace.i18n``).
"""

from __future__ import annotations

from pace.i18n import Source

MESSAGES: dict[str, Source] = {
    "page.scorecard": "Scorecard",
    "page.leaderboard": "Leaderboard",
    "page.results": "Results sheet",
    "role.scorer": "Scorer",
    "scoring.stroke": "Stroke play",
    "scoring.stableford": "Stableford",
    "scoring.match": "Match play",
    "scoring.bogey": "Bogey",
    "scoring.par": "Par",
    "scoring.net": "net",
    "scoring.gross": "gross",
    "format.individual": "individual",
    "format.foursome": "foursome",
    "format.threesome": "threesome",
    "format.greensome": "greensome",
    "format.four_ball": "four-ball",
    "format.best_ball": "best ball",
    "scorecard.group": "Group",
    "scorecard.choose_group": "Choose a group",
    "scorecard.group_option": "Group {group} · {time} · {players}",
    "scorecard.hole_title": "Hole {hole} · par {par}",
    "scorecard.stroke_index": "stroke index {si}",
    "scorecard.less": "One stroke less for {name}",
    "scorecard.more": "One stroke more for {name}",
    "scorecard.strokes_of": "Strokes of {name}",
    "scorecard.no_score": "No score",
    "scorecard.no_score_short": "–",
    "scorecard.conceded": "Conceded the hole",
    "scorecard.record": "Record hole {hole}",
    "scorecard.unchanged": "Hole {hole} is already recorded so",
    "scorecard.remove": "Remove the score",
    "scorecard.reason_correct": "corrected on the card",
    "scorecard.reason_remove": "removed on the card",
    "scorecard.card": "Card",
    "scorecard.col.hole": "Hole",
    "scorecard.col.par": "Par",
    "scorecard.total": "Total",
    "scorecard.standing": "Standing",
    "scorecard.penalties": "Penalties from the pace side",
    "scorecard.no_penalties": "No penalty on this card.",
    "scorecard.entries": "My entries",
    "scorecard.no_entries": "Nothing entered from this device yet.",
    "scorecard.pending_none": "All scores sent",
    "scorecard.pending": "{count} waiting to be sent · oldest since {time}",
    "scorecard.offline": "Offline: scores are kept on this device and sent when the signal returns",
    "scorecard.kind.record_score": "{name}, hole {hole}: {strokes}",
    "scorecard.kind.correct_score": "{name}, hole {hole}: corrected to {strokes}",
    "scorecard.kind.void_event": "{name}, hole {hole}: score removed",
    "scorecard.kind.group_completed": "Hole {hole}: we've finished it",
    "scorecard.finished_hole": "We've finished hole {hole}",
    "scorecard.pace": "Our pace",
    "scorecard.pace_due": "Hole {hole} is due at {time}",
    "scorecard.pace_over": "{minutes} min over our allotted time",
    "scorecard.pace_under": "{minutes} min under our allotted time",
    "scorecard.pace_on_time": "On our allotted time",
    "scorecard.pace_gap": "{minutes} min behind the group ahead",
    # issue 48: where the group stands on its hole, from its own phone's positions
    "scorecard.place_to_green": "Hole {hole}: {metres} m to the green",
    "scorecard.place_on_green": "Hole {hole}: on the green",
    "scorecard.place_on_tee": "Hole {hole}: on the tee",
    "scorecard.place_walking": "Walking to the tee of hole {hole}",
    "scorecard.place_behind": "{metres} m behind the group ahead",
    "scorecard.place_last_seen": "Position last seen {minutes} min ago",
    "scorecard.pace_no_gap": "No group ahead to compare with",
    "scorecard.pace_finished": "Our last hole is known",
    "scorecard.pace_none": "No hole time known yet",
    "scorecard.pace_reported": "Holes we reported: {holes}",
    "scorecard.pace_at": "As at {time}",
    "scorecard.pace_asked": (
        "Nothing entered for hole {hole} for a while: if you have finished it, enter its scores "
        "or press “We've finished hole {hole}”."
    ),
    "scorecard.pending_cell": "not sent yet",
    "scorecard.setting": "Scoring of the round (committee)",
    "scorecard.setting_scoring": "Scoring",
    "scorecard.setting_net": "Net (strokes received)",
    "scorecard.setting_allowance": "Allowance % (empty: config.toml's)",
    "scorecard.setting_save": "Save",
    "scorecard.no_card": "This card is not on this device yet: connect once to load it.",
    # the group's phone shares its position (issue 48; docs/positions.md, "On the scorer's
    # phone"): asked once, in plain words
    "scorecard.share.title": "Our position on the course",
    "scorecard.share.ask": (
        "May this phone share group {group}'s position during the round? Then nobody has to "
        "type when you finish a hole."
    ),
    "scorecard.share.what": (
        "What is sent: this phone's position (where it is, and how precisely), only while "
        "the round is in play."
    ),
    "scorecard.share.who": (
        "Who sees it: the committee and its referees, to follow the pace of play. Never the public."
    ),
    "scorecard.share.kept": (
        "How long it is kept: only while the round is in play; it is deleted when the round "
        "is finished. Only the holes your group completed, and when, are kept."
    ),
    "scorecard.share.anytime": "You can stop sharing at any time, on this page.",
    "scorecard.share.screen": (
        "The position is sent only while this page is open and the screen is on."
    ),
    "scorecard.share.yes": "Share my group's position",
    "scorecard.share.no": "Not now",
    "scorecard.share.on": "Sharing your group's position",
    "scorecard.share.stop": "Stop sharing",
    "scorecard.share.off": "Your group's position is not shared.",
    "scorecard.share.again": "Share our position…",
    "scorecard.share.awake": "Keep the screen awake while sharing",
    "scorecard.share.awake_failed": "This phone would not keep its screen awake.",
    "scorecard.share.waiting": "Waiting for the phone's position…",
    "scorecard.share.last": "Last position taken at {time}",
    "scorecard.share.queued": (
        "{n} position waiting to be sent",
        "{n} positions waiting to be sent",
    ),
    "scorecard.share.denied": (
        "This phone does not let the page read its position (location refused), so nothing "
        "is sent. To share, allow location for this site in the browser's settings, then "
        "press the button again."
    ),
    "scorecard.share.unavailable": (
        "This phone cannot give its position right now (its location is off or has no fix). "
        "Nothing is sent until it can."
    ),
    "scorecard.share.insecure": (
        "This page cannot read the phone's position: a browser gives it only to a secure "
        "page, whose address starts with https. Nothing is sent; ask the committee for that "
        "address."
    ),
    "scorecard.share.no_api": "This browser cannot give the phone's position. Nothing is sent.",
    "scorecard.share.refused": "Sharing stopped: {reason}",
    "leaderboard.all": "Overall",
    "leaderboard.class": "Class {name}",
    "leaderboard.classes": "Classes",
    "leaderboard.live": "Live: cards in play rank on their score so far",
    "leaderboard.final": "Final: every card is in",
    "leaderboard.final_results": (
        "Results final since {at}, by {by}: scores and penalties are locked"
    ),
    "leaderboard.sheet": "Results sheet (print)",
    "leaderboard.sheet_pdf": "PDF",
    "leaderboard.event.title": "{event}: round {number} of {count}",
    "leaderboard.event.total": "Total",
    "leaderboard.event.cut": "Cut",
    "leaderboard.event.made_cut": "made the cut",
    "leaderboard.event.missed_cut": "missed the cut",
    "leaderboard.event.cut_rule": "Cut: {rule}",
    "leaderboard.event.cut_applied": "Cut: {rule}; {made} made it",
    "leaderboard.event.waiting": "The standings count this round once its cards are in.",
    "leaderboard.event.error": "This competition cannot be scored: {message}",
    "leaderboard.round_finished": "Round finished {at}; results not final yet",
    "leaderboard.col.pos": "Pos.",
    "leaderboard.col.player": "Player",
    "leaderboard.col.thru": "Thru",
    "leaderboard.col.to_par": "To par",
    "leaderboard.col.score": "Score",
    "leaderboard.col.points": "Points",
    "leaderboard.col.result": "Result",
    "leaderboard.col.gross": "Gross",
    "leaderboard.col.net": "Net",
    "leaderboard.col.class": "Class",
    "leaderboard.col.penalties": "Penalties",
    "leaderboard.even": "E",
    "leaderboard.thru_done": "F",
    "leaderboard.not_started": "not started",
    "leaderboard.tied": "T{position}",
    "leaderboard.countback": "countback {text}",
    # the countback's own words (the scoring writes "last 9: 18"; issue 47)
    "leaderboard.countback_last": "last {holes}: {value}",
    "leaderboard.countback_hole": "last hole: {value}",
    "leaderboard.countback_equal": "still equal",
    "leaderboard.points": "{value} pts",
    "leaderboard.nr": "NR",
    "leaderboard.dq": "DQ",
    "leaderboard.dq_reason": "Disqualified: {reason}",
    "leaderboard.nr_reason": "No return: a hole without score",
    "leaderboard.empty": "No score yet.",
    "leaderboard.matches": "Matches",
    "leaderboard.vs": "{a} vs {b}",
    "leaderboard.match_state": "{result}",
    "leaderboard.penalties_error": "Pace penalties are not shown: {message}",
    "leaderboard.legend": (
        "A red mark is a pace-of-play penalty on the card; tap it for the reason."
    ),
    "pen.strokes": "+{value} on hole {hole}",
    "pen.points_off": "−{value} points",
    "pen.holes_off": "−{value} hole",
    "pen.loss_of_hole": "hole {hole} lost",
    "pen.disqualification": "disqualified",
    "pen.why.bad_time": "slow play: bad time no. {rank} of {player}, hole {hole}",
    "pen.why.checkpoint": "slow play: checkpoint breach no. {rank} of {player}",
    "pen.mark": "Penalty: {text}",
}
