"""A page's export as a file to download: one way to name it, for every feature."""

from __future__ import annotations

from flask import Response


def attachment(response: Response, round: str, what: str, extension: str) -> Response:
    """Mark ``response`` as the file ``<what>-<round>.<extension>`` to download.

    The round's name is kept to letters, digits, ``-`` and ``_`` (60 at most), so that no
    name typed by the committee can break the header or lead the file elsewhere.
    """
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in round)[:60] or "round"
    response.headers["Content-Disposition"] = f'attachment; filename="{what}-{safe}.{extension}"'
    return response
