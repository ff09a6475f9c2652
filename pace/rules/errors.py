"""Errors raised by the rules core for caller mistakes.

Expected outcomes (a group out of position, a penalty due) are return values, never
exceptions; these are for input that cannot be evaluated at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime

_SLOT = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Sentence:
    """A sentence for a person that the pages say in their language (issue 47).

    ``key`` is its text in the gettext catalogue (its context), ``english`` its words with a
    ``{name}`` where each of ``values`` goes. A value is a text or a number, a field's
    :class:`Label`, or another sentence (a part that is translated too). ``str()`` is the
    English, word for word what the CLI prints and the JSON's ``message`` says; the pages
    translate it (``pace.web.i18n.say``). ``python -m pace.i18n.catalog update`` finds every
    ``said("key", "English", ...)`` of the code, as xgettext finds ``_()``.

    >>> str(said("refusal.x", "{field} {value} is not a time", field=Label("start"), value="'9'"))
    "start '9' is not a time"
    """

    key: str
    english: str
    values: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return fill(self.english, self.values)


@dataclass(frozen=True)
class Label:
    """A field named in a sentence (``reason``, ``start``): its own name in English, the
    label of the field (``field.<name>`` in the catalogue) in the page's language."""

    name: str

    def __str__(self) -> str:
        return self.name


def said(key: str, english: str, /, **values: object) -> Sentence:
    """Return the sentence ``key`` (English ``english``) with its values."""
    return Sentence(key, english, values)


def fill(template: str, values: Mapping[str, object]) -> str:
    """Return ``template`` with each ``{name}`` of ``values`` put in, in one pass (a value
    holding ``{x}`` is left as it is); other ``{name}`` stay. A day is written 2026-06-14, an
    instant (in the zone it is given in) 2026-06-14 09:20.

    >>> fill("{a} and {b} on {c}", {"a": "{b}", "b": 2, "c": date(2026, 6, 14)})
    '{b} and 2 on 2026-06-14'
    """
    return _SLOT.sub(lambda m: english(values[m[1]]) if m[1] in values else m[0], template)


def english(value: object) -> str:
    """Return a sentence's value as its English says it (:func:`fill`)."""
    if isinstance(value, datetime):
        return f"{value:%Y-%m-%d %H:%M}"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


class PaceError(Exception):
    """Base class of every error pace reports to a person.

    ``code`` is a stable snake_case string clients switch on; ``field`` names the
    offending input field when there is one. ``message`` is its English sentence; given as a
    :class:`Sentence`, it is kept too (``sentence``) for the pages to say it in their
    language.
    """

    code = "pace_error"

    def __init__(
        self, message: str | Sentence, *, field: str | None = None, code: str | None = None
    ):
        super().__init__(str(message))
        self.message = str(message)
        self.sentence = message if isinstance(message, Sentence) else None
        self.field = field
        if code is not None:
            self.code = code

    def to_dict(self) -> dict[str, str | None]:
        """Return the shared error shape's inner object."""
        return {"code": self.code, "message": self.message, "field": self.field}


class SetupError(PaceError, ValueError):
    """The course, draw or round setup cannot be used as given."""

    code = "invalid_setup"


class UnknownGroupError(PaceError, LookupError):
    """A group id that is not in the round's draw."""

    code = "unknown_group"


class UnknownHoleError(PaceError, LookupError):
    """A hole number that is not on the course."""

    code = "unknown_hole"


@dataclass(frozen=True)
class Problem:
    """One problem found in an input file: where it is and what is wrong."""

    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f", line {self.line}"
        if self.field:
            where += f", field {self.field!r}"
        return f"{where}: {self.message}"


class FileFormatError(PaceError, ValueError):
    """One or more problems in an imported file; nothing of it is used.

    Every problem is kept (``problems``) so a committee sees them all at once.
    """

    code = "invalid_file"

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]):
        self.problems = tuple(problems)
        first = self.problems[0] if self.problems else None
        text = "\n".join(str(p) for p in self.problems) or "invalid file"
        super().__init__(text, field=first.field if first else None)
