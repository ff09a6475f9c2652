"""Parsers of the files committees exchange with pace: course TOML, and the draw, hole times,
referee log and scores CSV.

Pure functions of text (``parse_*``) plus thin ``load_*`` wrappers that read a UTF-8
file. Every problem in a file is collected and raised at once as a
``FileFormatError``; nothing of an invalid file is returned. Formats: docs/formats.md.
"""

from pace.formats import referee_log
from pace.formats.course import course_toml, load_course, parse_course
from pace.formats.csvfile import read_text
from pace.formats.draw import (
    check_tee_defaults,
    load_draw,
    parse_draw,
    parse_tee_defaults,
)
from pace.formats.referee_log import load_referee_log, parse_referee_log
from pace.formats.scores import load_scores, parse_scores
from pace.formats.times import load_times, parse_clock, parse_times

__all__ = [
    "course_toml",
    "load_course",
    "check_tee_defaults",
    "load_draw",
    "parse_tee_defaults",
    "load_referee_log",
    "load_scores",
    "load_times",
    "parse_clock",
    "parse_course",
    "parse_draw",
    "parse_referee_log",
    "parse_scores",
    "parse_times",
    "read_text",
    "referee_log",
]
