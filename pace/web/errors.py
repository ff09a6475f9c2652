"""One mapping from exceptions to replies, for Socket.IO acks and HTTP alike.

Every refusal has the shape ``{"ok": false, "error": {"code", "message", "field"}}``.
Unknown exceptions are logged with the event that caused them and answered with
``internal_error``; when ``TESTING`` is set they are re-raised so tests see them.
"""

from __future__ import annotations

import logging
from typing import Any

from pace.rules.errors import PaceError
from pace.web.i18n import say

log = logging.getLogger(__name__)

_HTTP_STATUS = {
    # a round's life: the act does not fit the round's stage (docs/status.md)
    "not_started": 409,
    "not_finished": 409,
    "not_final": 409,
    "unknown_round": 404,
    "unknown_group": 404,
    "unknown_hole": 404,
    "unknown_course": 404,
    "unknown_target": 404,
    "unknown_alert": 404,
    "unknown_player": 404,
    "unknown_tees": 404,
    "unknown_fault": 404,
    "unknown_code": 404,
    "unknown_club": 404,
    "unknown_account": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "event_conflict": 409,
    "already_logged": 409,
    "already_reported": 409,
    "groups_not_reporting": 409,
    "already_scored": 409,
    "already_done": 409,
    "not_timed": 409,
    "already_timed": 409,
    "unknown_policy": 409,
    "round_exists": 409,
    "club_exists": 409,
    "course_exists": 409,
    "account_exists": 409,
    "round_has_events": 409,
    "results_final": 409,
    # a change on the day that the round as it stands refuses, though the same request could
    # be made on another state of it: a group that has played (the change would rewrite what
    # happened), a player who has withdrawn, a name or id already in the draw, a group's last
    # player, a move to the player's own group. Malformed or self-contradictory changes
    # (invalid_change, reason_required, same_player, wrong_day) stay 400.
    "group_has_played": 409,
    "already_withdrawn": 409,
    "player_exists": 409,
    "group_exists": 409,
    "last_player": 409,
    "same_group": 409,
    "player_has_scores": 409,
    # positions from the groups' phones (issue 48, docs/positions.md)
    "positions_off": 409,
    "no_course_map": 409,
    "no_consent": 409,
    "round_finished": 409,
    "too_many_fixes": 429,
    "forbidden": 403,
    "unauthorized": 401,
    "rate_limited": 429,
    "csrf_failed": 403,
    "payload_too_large": 413,
    # the server's fault, not the request's: a phone must keep the event and resend it
    "storage_unavailable": 503,
    # a PDF the server's builder could not lay out (or not in time): try again
    "pdf_failed": 503,
}


def error_body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    """Return the shared error shape.

    A message or field quoting what a client sent keeps a lone surrogate as its ``\\udxxx``
    escape: the answer is always valid UTF-8, whatever the payload held.
    """
    return {
        "ok": False,
        "error": {"code": code, "message": _sendable(message), "field": _sendable(field)},
    }


def _sendable(text: str | None) -> str | None:
    if text is None:
        return None
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def from_exception(
    e: BaseException, *, context: str, testing: bool, lang: str | None = None
) -> dict[str, Any]:
    """Return the error shape for ``e``; log (or, when testing, re-raise) unexpected ones.

    ``lang``: the asker's language; a refusal whose sentence the catalogue has
    (``pace.rules.errors.said``) also carries it in that language (French, Dutch),
    ``translation``, for a page to show (``message`` stays English: logs, scripts, the CLI's
    words; issue 47).
    """
    if isinstance(e, PaceError):
        return refusal_body(e, lang)
    if testing:
        raise e
    log.exception("unexpected error while handling %s", context)
    return error_body("internal_error", "the server could not handle this request; it is logged")


def refusal_body(e: PaceError, lang: str | None = None) -> dict[str, Any]:
    """Return the error shape of a refusal; asked in another language than English (``lang``),
    its sentence in that language too (``translation``) when the catalogue has it."""
    body = error_body(e.code, e.message, e.field)
    if lang not in (None, "en") and e.sentence is not None:
        body["error"]["translation"] = _sendable(say(e.sentence, lang))
    return body


def http_status(body: dict[str, Any]) -> int:
    """Return the HTTP status of an error body: 400 unless the code says otherwise."""
    return _HTTP_STATUS.get(
        body["error"]["code"], 500 if body["error"]["code"] == "internal_error" else 400
    )
