"""The console's words in English (its pages, their forms, the choices of a new round and what
each means, a change in words); the French is in the gettext catalogue (pace.i18n).

Part of the pages' catalogue (``pace.web.i18n.MODULES``). The refusals are the services' own
sentences (those of ``pace import`` and ``pace round change``), each a ``said("refusal.…")``
of the catalogue written where it is raised, which the pages get in their language (issue 47;
a field it names by ``field.*`` below); the problems of a course or a draw file
(``problem.*``: the parsers' sentences, ``{name}`` where a value goes) are shown in the page's
language by ``pace.web.committee.problems``, each field by its ``field.*`` label.
"""

from __future__ import annotations

from pace.i18n import Source

MESSAGES: dict[str, Source] = {
    "page.console": "Committee console",
    "page.courses": "Courses",
    "page.round_new": "New round",
    "page.changes": "Changes on the day",
    "home.console": "Committee console",
    "console.intro": "Set up and change a competition here; the CLI (pace import …, pace round "
    "change …) does the same from a terminal.",
    "console.courses": "Courses: create, edit, upload a TOML file",
    "console.round_new": "New round from a draw CSV",
    "console.rounds": "Rounds",
    "console.no_rounds": "No round yet.",
    "console.no_courses": "No course yet: create one first.",
    "console.changes": "Changes on the day",
    "console.dashboard": "Dashboard",
    "console.access": "Access codes",
    # courses
    "course.list": "Courses",
    "course.new": "New course",
    "course.edit": "Edit",
    "course.holes": "Holes",
    "course.par": "Par",
    "course.slope": "Slope",
    "course.rating": "Rating",
    "course.download": "Download as TOML",
    "course.upload": "Upload a course TOML",
    "course.upload_hint": "Choose a .toml file or drop it here.",
    "course.uploaded": "Course {name} stored: {holes} holes.",
    "course.saved": "Course {name} saved: {holes} holes.",
    "course.name": "Name",
    "course.hole_count": "Number of holes",
    "course.tees": "One slope and one rating for everyone (a course without tee sets).",
    "course.tee_sets": "Tee sets",
    "course.tee_sets_hint": "A course whose card rates several tees (men yellow, women red) "
    "gives each its ratings here, and leaves the slope and rating above empty. Par and stroke "
    "index: only the holes that differ from the table below, as 5=5, 7=4.",
    "course.add_tees": "Add a tee set",
    "course.remove_tees": "Remove this tee set",
    "course.tee_name": "Tee set",
    "course.colour": "Colour",
    "course.women_slope": "Women's slope",
    "course.women_rating": "Women's rating",
    "course.tee_par": "Par where it differs (hole=par)",
    "course.tee_stroke_index": "Stroke index where it differs (hole=index)",
    "course.tee_length_m": "Lengths (m): one per hole, or hole=length",
    "course.hole": "Hole",
    "course.stroke_index": "Stroke index",
    "course.length_m": "Length (m)",
    "course.bogey": "Bogey",
    "course.walk_min": "Walk to next tee (min)",
    "course.save": "Save the course",
    "course.problems": "The course was not stored; correct the fields marked:",
    "course.editing_name": "Saving under another name stores a new course; the old one stays.",
    # a refused course file's problem, where it is (issue 47)
    "course.problem_line_field": "Line {line}, {field}: {message}",
    "course.problem_line": "Line {line}: {message}",
    "course.problem_field": "{field}: {message}",
    # a new round
    "round.new": "New round",
    "round.name": "Round name",
    "round.course_choice": "Course",
    "round.date": "Date",
    "round.timezone": "Time zone",
    "round.policy": "Pace policy",
    "round.play": "Form of play",
    "round.format": "Format",
    "round.scoring": "Scoring",
    "round.net": "Net or gross",
    "round.allowance": "Handicap allowance (%)",
    "round.allowance_hint": "Empty: the configuration's; 85; greensome 60/40.",
    "round.tees": "Default tees",
    "round.completions": "Hole times from",
    "round.completions_hint": (
        "With no marshal on a hole, the groups' own scorecards can say when they finished it."
    ),
    "choice.completions.officials": "Officials only: marshals' and referees' taps",
    "choice.completions.officials_and_groups": (
        "Officials and the groups' scorecards (an official's tap wins)"
    ),
    "choice.completions.groups": "The groups' scorecards (no marshal)",
    "round.tees_hint": "For players the draw's tees column leaves empty, by gender or class: "
    "men=Yellow, women=Red, B=Red. Empty: the course's first tee set.",
    # the example the empty field shows, in the page's words (issue 47: heren=Geel, dames=Rood)
    "round.tees_placeholder": "men=Yellow, women=Red",
    "round.language": "Language of the round's documents",
    "round.language_hint": (
        "The report, the letters and the sheets, unless asked otherwise; a player's letter is "
        "in his own language where the draw's language column gives one."
    ),
    # the round's readings of the handicap rules (issue 47; docs/scoring.md, "Handicaps")
    "round.handicap": "Handicap readings",
    "round.rounding": "Playing handicap",
    "choice.rounding.whs": "WHS: rounded once",
    "choice.rounding.course_then_playing": "Older reading: rounded twice",
    "round.gross_par_adjustment": "Gross scores from tees of different par",
    "choice.gross_par_adjustment.yes": "Adjusted for the par (Rule 6.2b)",
    "choice.gross_par_adjustment.no": "As played",
    "round.handicap_hint": (
        "WHS: the unrounded course handicap × the allowance, rounded once; the older reading "
        "rounds the course handicap, then the playing handicap. Adjusted: the difference in par "
        "comes off the gross of the players from the higher par (WHS Rule 6.2b). The round's "
        "results, leaderboard, sheets and exports follow these readings; a new round takes "
        "config.toml's [handicap]."
    ),
    "round.handicap_configured": (
        "This round was stored without readings of its own: config.toml's are shown and used."
    ),
    # positions from the groups' phones (issue 48; docs/positions.md)
    "round.positions": "Positions from the groups' phones",
    "choice.positions.off": "Not allowed",
    "choice.positions.on": "Allowed, with each group's consent",
    "round.positions_hint": (
        "Allowed: a scorer's page may share where its group is while the round is in play, "
        "once the group has agreed; pace infers the holes completed from it. The positions "
        "are never stored with the round's facts and are forgotten when the round is finished."
    ),
    "message.title.results_final": "Results final",
    "message.results_final": (
        "The round's results are final: reopen them first, with a reason, to change them."
    ),
    "round.draw": "Draw CSV",
    "round.draw_hint": "Choose the draw's CSV or drop it here (columns group, start, tee, "
    "player; handicap, club optional; the headers of a club's export read in English, French or "
    "Dutch: flight, tee time, starting hole, player, hcp).",
    "round.preview": "Preview",
    "round.confirm": "Create the round",
    "round.problems": "The file was refused; nothing is stored. Every problem:",
    "round.preview_title": "Preview of {round}: {groups} groups, {players} players, nothing "
    "stored yet",
    "round.created": "Round {round} created.",
    "round.open_changes": "Its changes page",
    "round.col.line": "Line",
    "round.col.field": "Field",
    "round.col.problem": "Problem",
    "round.col.group": "Group",
    "round.col.start": "Start",
    "round.col.tee": "Tee",
    "round.col.players": "Players",
    "round.default": "default",
    "choice.policy.frbg": "frbg: Belgian federation's pace of play (checkpoints, timing)",
    "choice.policy.mauricie": "mauricie: golf-mauricie's policy (classes, time per hole)",
    "choice.policy.swin": "swin: the Swiss policy",
    "choice.play.": "As the scoring implies (stroke play)",
    "choice.play.stroke_play": "Stroke play: every stroke counts",
    "choice.play.match_play": "Match play: holes won and lost",
    "choice.format.individual": "Individual: one ball each",
    "choice.format.foursome": "Foursome: two players, one ball, alternate shots",
    "choice.format.threesome": "Threesome: one against two, the two alternate shots",
    "choice.format.greensome": "Greensome: both drive, then one ball alternately",
    "choice.format.four_ball": "Four-ball: two players, the better ball counts",
    "choice.format.best_ball": "Best ball: one against the better ball of two or three",
    "choice.scoring.": "As the form of play implies",
    "choice.scoring.stroke": "Stroke: total strokes, lowest wins",
    "choice.scoring.stableford": "Stableford: points per hole against a fixed score",
    "choice.scoring.match": "Match: holes won against the opponent",
    "choice.scoring.bogey": "Bogey (par competition): holes won against the bogey",
    "choice.scoring.par": "Par: holes won against the par",
    "choice.net.gross": "Gross: strokes as played",
    "choice.net.net": "Net: strokes received by handicap are taken off",
    # changes on the day
    "changes.title": "Changes on the day · {round}",
    "changes.draw": "The draw as it is now",
    "changes.list": "Changes made",
    "changes.none": "No change yet.",
    "changes.played": "has played",
    "changes.retired": "retired {time}",
    "changes.col.at": "At",
    "changes.col.what": "What",
    "changes.col.who": "Who",
    "changes.col.why": "Why",
    "changes.voided": "voided",
    "changes.void": "Void",
    "changes.done": "Stored.",
    "changes.player": "Player",
    "changes.other": "With player",
    "changes.group": "Group",
    "changes.to": "To group",
    "changes.start": "Start (HH:MM)",
    "changes.tee": "Tee",
    "changes.reason": "Reason",
    "changes.note": "Why, in words",
    "changes.at": "At (HH:MM, retired; empty: now)",
    "changes.handicap": "Handicap",
    "changes.players": "Players (one per line)",
    "changes.send": "Send",
    "changes.form.withdraw": "Withdraw a player",
    "changes.form.add_player": "Add a late entry",
    "changes.form.move_player": "Move a player",
    "changes.form.swap": "Swap two players",
    "changes.form.change_start": "Change a group's start time",
    "changes.form.change_tee": "Change a group's starting tee",
    "changes.form.tees": "Move a player to other tees (before a score)",
    "changes.tees": "Tees",
    "changes.form.add_group": "Add a group",
    "changes.form.remove_group": "Remove a group",
    "changes.no_show": "no-show (never started)",
    "changes.retired_reason": "retired (stopped during play)",
    "changes.said.player_withdrawn": "{player} withdrawn from group {group} ({reason})",
    # a withdrawal's reason in the changes' list (issue 47: it showed no_show)
    "changes.why.no_show": "no-show",
    "changes.why.retired": "retired",
    "changes.said.player_added": "{name} added to group {group}",
    "changes.said.player_moved": "{player} moved from group {from} to group {to}",
    "changes.said.players_swapped": "{player} (group {group}) swapped with {other} (group "
    "{other_group})",
    "changes.said.group_start_changed": "group {group} starts at {start}",
    "changes.said.group_tee_changed": "group {group} starts on tee {tee}",
    "changes.said.group_added": "group {group} added: {start} on tee {tee}",
    "changes.said.group_removed": "group {group} removed from the draw",
    "changes.said.player_tees_changed": "{player} (group {group}) plays from the {tees} tees",
    # a round's life
    "life.title": "The round's life",
    "life.stage.planned": "Planned: no group has teed off yet.",
    "life.stage.in_play": "In play.",
    "life.stage.finished": "Finished.",
    "life.stage.final": "Results final.",
    "life.finished_by": "Finished {at} by {by}.",
    "life.finished_implied": "Finished {at} (the last group's last hole).",
    "life.final_by": "Results final {at} by {by}.",
    "life.reopened_by": "Reopened {at} by {by}: {reason}",
    "life.finish": "Finish the round",
    "life.final": "Make results final",
    "life.reopen": "Reopen the results",
    "life.reopen_reason": "Why reopen (kept in the audit)",
    # access cards in bulk
    "cards.title": "Access cards",
    "cards.count.marshal": "Marshals",
    "cards.count.referee": "Referees",
    "cards.count.scorer": "Scorers",
    "cards.url": "The server's address, as the phones reach it",
    "cards.make": "Make the codes and print the cards (PDF)",
    "cards.hint": "The codes are shown on these cards only: keep the PDF as you would the cards.",
    # the parsers' sentences about a course or a draw file (pace/formats/course.py, draw.py,
    # csvfile.py), each word for word as the parser writes it, ``{name}`` where a value goes
    "problem.draw.start_empty": "start is empty; expected the scheduled start as HH:MM",
    "problem.draw.start": "start {value} is not a time; expected HH:MM",
    "problem.draw.tee_empty": "tee is empty; expected the starting hole, normally 1",
    "problem.draw.tee": "tee {value} is not a hole number; expected the starting hole, normally 1 "
    "(10 for a two-tee start)",
    "problem.draw.tee_course": "tee {tee} does not exist on this course; holes are {holes}",
    "problem.draw.player_empty": "player is empty; expected the player's name",
    "problem.draw.gender": "gender {value} is not a gender; expected M or F (men, women; H, "
    "homme, D, dame, V, vrouw, heren read), or nothing",
    "problem.draw.language": "language {value} is not a language of pace; expected fr, en or nl "
    "(français, English, Nederlands), or nothing",
    "problem.draw.tees": "tees {value} are not a tee set of course {course}; its tees are {tees}",
    "problem.draw.no_tee_sets": "tees {value}: course {course} has no tee sets (one slope and "
    "rating for everyone); leave the tees empty or give the course [[tees]] tables",
    "problem.draw.tees_women": "{name} (women) plays from tees {tees}, which have no women's "
    "slope or rating on this course; give the tees' women_slope and women_rating, or other tees",
    "problem.draw.first_tees_women": "{name} (women) has no tees, and the course's first tees "
    "{tees} have no women's rating; give the player's tees",
    "problem.draw.handicap": "handicap {value} is not a handicap index; expected a number such "
    "as 12.4 or 12,4 (+2.1 for a plus handicap), or nothing",
    "problem.draw.class": "class {value} is not a class; expected AA, A, BB or B, or nothing "
    "(the class then comes from the handicap index)",
    "problem.draw.group_empty": "group is empty; expected the group id as on the draw",
    "problem.draw.group_start": "group {group} starts at {start} here but at {then} on line "
    "{line}; all rows of a group share start and tee",
    "problem.draw.group_tee": "group {group} starts on tee {tee} here but on tee {then} on line "
    "{line}; all rows of a group share start and tee",
    "problem.draw.player_twice": "player {name} is already in group {group} on line {line}",
    "problem.draw.player_groups": "player {name} is in group {group} here and in group {then} "
    "on line {line}; a player plays in one group (for two players of the same name, tell them "
    "apart, e.g. with an initial)",
    "problem.draw.no_players": "the draw has no players; expected one row per player under the "
    "header",
    "problem.csv.missing_alias": "missing column {name} (or {alias}); the header has {found}",
    "problem.csv.ambiguous": "column {cell} (column {n}) may be {a} or {b}, and its cells fit "
    "neither: {va} on line {la} is not a {an} cell, {vb} on line {lb} not a {bn} cell; name the "
    "column {a} or {b}, or correct the cells",
    # the note of a draw's columns pace does not know (csvfile.Table.ignored_note)
    "problem.csv.ignored_one": "{file}, line {line}: column {names} ignored (not a column of this "
    "file; its columns are {columns})",
    "problem.csv.ignored_many": "{file}, line {line}: columns {names} ignored (not a column of "
    "this file; its columns are {columns})",
    "problem.csv.repeats": "column {cell} (column {n}) repeats column {first} (column {m}); keep "
    "one of them",
    # the round's default tees (pace/formats/draw.py check_tee_defaults, parse_tee_defaults)
    "problem.tees.default_key": "default tees for {key}: {key} is neither a gender (men, women) "
    "nor a class (AA, A, BB, B)",
    "problem.tees.default_tees": "default tees for {key}: tees {value} are not a tee set of "
    "course {course}; its tees are {tees}",
    "problem.tees.default_no_tee_sets": "default tees for {key}: tees {value}: course {course} "
    "has no tee sets (one slope and rating for everyone); leave the tees empty or give the "
    "course [[tees]] tables",
    "problem.tees.default_form": "tees: {part} is not GENDER=TEES or CLASS=TEES; expected e.g. "
    "men=Yellow,women=Red",
    "problem.csv.cells": "the row has {cells} cells but the header has {width} columns (extra "
    "{extra}); check the separator and quote cells that contain it",
    "problem.course.no_name": 'the course has no name; expected name = "..." at the top',
    "problem.course.name": "name {value} is not a course name; expected a non-empty text in quotes",
    "problem.course.name_long": "name is longer than {n} characters",
    "problem.course.slope": "slope {value} is not a slope rating; expected a number from {low} "
    "to {high} (113 for a course of standard difficulty), or no slope",
    "problem.course.rating": "rating {value} is not a course rating; expected strokes such as "
    "70.4 (the course's par when there is no rating)",
    "problem.course.no_number": "{label} has no number; expected number = 1 to {count}",
    "problem.course.number": "{label}: number {value} is not a hole number; with {count} holes "
    "the numbers are 1–{count}",
    "problem.course.no_par": "{label} has no par; expected par = 3, 4 or 5",
    "problem.course.par": "{label}: par {value} is not allowed; expected 3, 4 or 5 (2–6 read)",
    "problem.course.stroke_index": "{label}: stroke_index {value} is not allowed; expected a "
    "whole number 1–{count}, each once",
    "problem.course.index_twice": "{label}: stroke_index {value} is also given to {other} "
    "({where}); each index is used once",
    "problem.course.length": "{label}: length_m {value} is not a length; expected metres, 0 or "
    "more",
    "problem.course.walk": "{label}: walk_min {value} is not a number of minutes; expected 0 or "
    "more",
    "problem.course.bogey": "{label}: bogey {value} is not allowed; expected a whole number from "
    "the par to par + 2 (default par + 1)",
    "problem.course.twice": "hole {n} is given twice; first {where}",
    "problem.course.numbering": "hole numbers must be 1–{count} each once; missing {missing}",
    "problem.course.tables": "the course has {n} [[holes]] tables; expected 9 or 18 (is a hole "
    "missing or given twice?); a course that really has {n} holes says so with hole_count = {n} "
    "at the top",
    "problem.course.hole_count": "hole_count = {declared} but the course has {n} [[holes]] tables",
    # a course's tee sets (issue 38)
    "problem.course.top_with_tees": "{key} is given at the top and the course has [[tees]] "
    "tables; a course with tee sets gives its {key} in each [[tees]] table",
    "problem.course.tees_tables": "tees must be [[tees]] tables, one per set",
    "problem.course.tees_empty": "tees is empty; expected one [[tees]] table per tee set, or none",
    "problem.course.tees_many": "a course has at most {n} tee sets",
    "problem.course.tees_twice": "tees {name} are given twice; first {where}",
    "problem.course.tees_name": "{label}: name {value} is not a tee set name; expected a text of "
    "1 to {n} characters in quotes, such as \"Yellow\"",
    "problem.course.tees_colour": "{label}: colour {value} is not a colour; expected a text of 1 "
    "to {n} characters such as \"yellow\", or none",
    "problem.course.tees_slope": "{label}: {key} {value} is not a slope rating; expected a number "
    "from {low} to {high}, or none",
    "problem.course.tees_rating": "{label}: {key} {value} is not a course rating; expected "
    "strokes such as 70.4, or none",
    "problem.course.tees_count": "{label}: {key} has {n} values for {count} holes; expected one "
    "value per hole in a list of {count}, or a table of the holes that differ such as { 7 = 5 }",
    "problem.course.tees_shape": "{label}: {key} {value} is not a list or a table; expected one "
    "value per hole in a list of {count}, or a table of the holes that differ such as { 7 = 5 }",
    "problem.course.tees_hole": "{label}: {key} names hole {value}; expected a hole number "
    "1–{count}",
    "problem.course.tees_par": "{label}: par {value} of hole {n} is not allowed; expected a par "
    "of 3, 4 or 5 (2–6 read)",
    "problem.course.tees_index": "{label}: stroke_index {value} of hole {n} is not allowed; "
    "expected a whole number 1–{count}",
    "problem.course.tees_length": "{label}: length_m {value} of hole {n} is not allowed; expected "
    "metres, 0 or more",
    "problem.course.tees_index_twice": "{label}: stroke_index {value} is given to hole {a} and "
    "hole {b} from these tees; each index is used once",
    # a course's map file (pace/formats/mapfile.py, geometry.py; issues 40 and 46)
    "problem.map.size": "the file is {size} MB: more than the {limit} MB a course's map may take "
    "(export only the course's area)",
    "problem.map.size_unknown": "the file is more than the {limit} MB a course's map may take "
    "(export only the course's area)",
    "problem.map.empty": "the file is empty; expected an OpenStreetMap export (.osm XML or "
    "GeoJSON)",
    "problem.map.neither": "neither an OpenStreetMap XML export (.osm) nor GeoJSON",
    "problem.map.declarations": "the file declares a document type or entities (<!DOCTYPE, "
    "<!ENTITY): an OpenStreetMap export has none, and they can expand without bound; refused",
    "problem.map.xml_depth": "the XML nests elements more than {limit} deep (an OpenStreetMap "
    "export nests 3): not an OpenStreetMap export",
    "problem.map.root": "the root element is <{tag}>, not <osm>: not an OpenStreetMap export",
    "problem.map.xml": "not readable as XML: {detail}",
    "problem.map.node": "node {id}: no valid lat and lon",
    "problem.map.node_missing": "{where} (golf={kind}): node {node} is not in the file",
    "problem.map.encoding": "the file is not {encoding} text (byte {at} cannot be read as such); "
    "save it as UTF-8",
    "problem.map.json_depth": "the JSON is nested too deep to be GeoJSON (a map nests 6 levels)",
    "problem.map.json": "not readable as JSON: {detail}",
    "problem.map.not_collection": "not a GeoJSON FeatureCollection",
    "problem.map.features": "the FeatureCollection's features are {what}, not a list",
    "problem.map.feature": "{where} is {what}, not a GeoJSON feature (an object)",
    "problem.map.properties": "{where}: its properties are {what}, not an object",
    "problem.map.tag_type": "{where}: its {key} is {what}, not a text or a number",
    "problem.map.geometry": "{where} ({tag}): its geometry is {what}, not a GeoJSON geometry",
    "problem.map.not_area": "{where} ({tag}): a {type}, not an area",
    "problem.map.not_shape": "{where} ({tag}): a {type}, not a line, area or point",
    "problem.map.coordinates": "{where} ({tag}): its coordinates are not longitudes and latitudes",
    "problem.map.more": "{count} more problems not listed",
    "problem.map.area_checks": "the golf courses' areas are drawn with too many points to place "
    "the holes in them (more than {checks} checks); export only the course's area",
    "problem.map.choose_one_way": "choose the course by its name or by a ref pattern, not both",
    "problem.map.several": "the file holds {count} courses; choose the one to import: {choices}",
    "problem.map.cut": "golf course {name} ({where}): its outline is not whole in the file "
    "({missing} missing); export the whole course",
    "problem.map.no_course": "the file has no golf course {name} with holes; its courses: "
    "{choices}",
    "problem.map.pattern": "ref pattern {pattern}: put one * where the hole number goes (*W for "
    "1W, 2W, …)",
    "problem.map.no_fit": "no hole's ref fits the pattern {pattern}; the file's courses: {choices}",
    "problem.map.no_ref": "{where} is a golf=hole without a ref: which hole is it?",
    "problem.map.no_such_hole": "hole {ref} ({where}): the course has no such hole (holes "
    "{first}–{last})",
    "problem.map.missing": "hole {number}: not in the file (no golf=hole way with ref={ref})",
    "problem.map.twice": "hole {number}: found {count} times ({ways})",
    "problem.map.par": "hole {number}: par {par} in the file, par {course_par} in the course",
    "problem.map.line": "hole {number} ({where}): its line has fewer than two points",
    # the parts of a sentence that name a place (``{label}``, ``{other}``, ``{where}`` above)
    "problem.part.hole": "hole {n}",
    "problem.part.table": "[[holes]] table {n}",
    "problem.part.on_line": "on line {n}",
    "problem.part.in_table": "in [[holes]] table {n}",
    "problem.part.tees_table": "[[tees]] table {n}",
    "problem.part.tees": "tees {name}",
    "problem.part.in_tees_table": "in [[tees]] table {n}",
    # a map file's places (``{where}``) and JSON's types (``{what}``), issue 46
    "problem.part.way": "way {n}",
    "problem.part.relation": "relation {n}",
    "problem.part.feature": "feature {n}",
    "problem.part.json_list": "a list",
    "problem.part.json_object": "an object",
    "problem.part.json_text": "a text",
    "problem.part.json_number": "a number",
    "problem.part.json_boolean": "true or false",
    "problem.part.json_null": "null",
    # a field named in a refusal or a file's problem (``pace.web.i18n.field_label``): the
    # form's field, the draw's column or the course file's key as a person calls it in the
    # page's language; in English the name itself, as the file and the CLI write it
    "field.reason": "reason",
    "field.note": "note",
    "field.at": "at",
    "field.start": "start",
    "field.tee": "tee",
    "field.tees": "tees",
    "field.group": "group",
    "field.from": "from",
    "field.to": "to",
    "field.other": "other",
    "field.other_group": "other_group",
    "field.player": "player",
    "field.players": "players",
    "field.name": "name",
    "field.handicap": "handicap",
    "field.club": "club",
    "field.target": "target",
    "field.round": "round",
    "field.course": "course",
    "field.date": "date",
    "field.timezone": "timezone",
    "field.policy": "policy",
    "field.play": "play",
    "field.format": "format",
    "field.scoring": "scoring",
    "field.net": "net",
    "field.allowance": "allowance",
    "field.completions": "completions",
    "field.language": "language",
    "field.draw": "draw",
    "field.file": "file",
    "field.layout": "layout",
    "field.url": "url",
    "field.marshal": "marshal",
    "field.referee": "referee",
    "field.scorer": "scorer",
    "field.first_name": "first_name",
    "field.last_name": "last_name",
    "field.side": "side",
    "field.class": "class",
    "field.match": "match",
    "field.gender": "gender",
    "field.member": "member",
    "field.slope": "slope",
    "field.rating": "rating",
    "field.hole_count": "hole_count",
    "field.holes": "holes",
    "field.number": "number",
    "field.par": "par",
    "field.stroke_index": "stroke_index",
    "field.length_m": "length_m",
    "field.walk_min": "walk_min",
    "field.bogey": "bogey",
    "field.colour": "colour",
    "field.women_slope": "women_slope",
    "field.women_rating": "women_rating",
    # shared
    "upload.drop": "Drop the file here",
    "upload.chosen": "File: {name}",
    # a course's own map (issue 40; static/committee/course_map.js)
    "map.title": "The course's map",
    "map.hint": (
        "An OpenStreetMap export of the course (.osm or GeoJSON): its golf=hole ways with their"
        " ref and par, and the golf=tee and golf=green areas. Every hole of the course must be"
        " in it once, with the course's par; the dashboard then draws the field on it. A file"
        " of a site with several courses asks which one this is. The holes matched are shown"
        " before anything is stored."
    ),
    "map.upload": "The map file",
    "map.none": "This course has no map yet.",
    "map.stored": "Map of {holes} holes, from {source}.",
    "map.uploaded": "Map stored: {holes} holes.",
    # a site with several courses, and the preview (issue 46)
    "map.choice": "The course in the file",
    "map.choice_prompt": "Choose…",
    "map.choice_course": "{name}: {holes} holes ({first}–{last})",
    "map.choice_refs": "Refs {pattern}: {holes} holes ({first}–{last})",
    "map.several": "The file holds several courses: choose the one that is this course.",
    "map.preview": "Preview of {source}: {holes} holes matched; nothing stored yet.",
    "map.ref": "Ref",
    "map.length": "Length",
    "map.name": "Name",
    "map.store": "Store this map",
}
