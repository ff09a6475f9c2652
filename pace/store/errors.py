"""Errors the store reports; nothing outside ``pace.store`` sees a sqlite exception."""

from __future__ import annotations

from pace.rules.errors import PaceError, SetupError


class UnknownRoundError(PaceError, LookupError):
    """A round name that is not stored."""

    code = "unknown_round"


class UnknownCourseError(PaceError, LookupError):
    """A course name that is not stored."""

    code = "unknown_course"


class RoundExistsError(SetupError):
    """A round with that name is already stored."""

    code = "round_exists"


class StorageError(PaceError, RuntimeError):
    """The database could not do what was asked (disk full, file locked or read-only, store
    closed): nothing was stored; the client keeps the event and sends it again later."""

    code = "storage_unavailable"


class UnknownCompetitionError(PaceError, LookupError):
    """A competition (an event of several rounds) that is not stored."""

    code = "unknown_competition"


class CompetitionExistsError(SetupError):
    """A competition with that name is already stored."""

    code = "competition_exists"


class UnknownClubError(PaceError, LookupError):
    """A club id that is not stored on this instance."""

    code = "unknown_club"


class ClubExistsError(SetupError):
    """A club with that id is already stored."""

    code = "club_exists"


class AccountExistsError(SetupError):
    """An account with that e-mail is already stored."""

    code = "account_exists"


class UnknownAccountError(PaceError, LookupError):
    """An account that is not stored (or not a member of the club asked about)."""

    code = "unknown_account"
