"""Errors raised by the rules core for caller mistakes.

Expected outcomes (a group out of position, a penalty due) are return values, never
exceptions; these are for input that cannot be evaluated at all.
"""

from __future__ import annotations

from dataclasses import dataclass


class PaceError(Exception):
    """Base class of every error pace reports to a person.

    ``code`` is a stable snake_case string clients switch on; ``field`` names the
    offending input field when there is one.
    """

    code = "pace_error"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
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
