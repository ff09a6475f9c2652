"""Storage: the event log and the setup tables in one SQLite file (sqlite-utils).

The only package in pace that imports ``sqlite_utils`` or knows table names.
"""

from pace.store.access import AccessCodeRecord, SessionRecord
from pace.store.db import DEFAULT_SYNCHRONOUS, SYNCHRONOUS_LEVELS
from pace.store.errors import (
    RoundExistsError,
    StorageError,
    UnknownCourseError,
    UnknownRoundError,
)
from pace.store.repo import UNSET, RoundRecord, RoundSummary, Store

__all__ = [
    "DEFAULT_SYNCHRONOUS",
    "SYNCHRONOUS_LEVELS",
    "UNSET",
    "AccessCodeRecord",
    "RoundExistsError",
    "RoundRecord",
    "RoundSummary",
    "SessionRecord",
    "StorageError",
    "Store",
    "UnknownCourseError",
    "UnknownRoundError",
]
