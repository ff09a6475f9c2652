"""Parse the positions' payloads (``send_positions``, ``share_positions``) into commands.

As ``pace.web.payloads``: every field checked, unknown ones refused, names and ids in their
canonical spelling. A fix is ``{at, lon, lat, accuracy}``: ``at`` an ISO instant read on the
phone, clock-corrected as a tap's is (docs/protocol.md, "Device clocks"); ``lon`` and ``lat``
degrees; ``accuracy`` the phone's radius in metres. At most ``MAX_FIXES`` fixes a message.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from pace.services import commands as cmd
from pace.services import positions as pos
from pace.web.payloads import PayloadError, device_time, event_id, mapping, text

_FIX = ("at", "lon", "lat", "accuracy")


def _number(p: Mapping[str, Any], name: str, lo: float, hi: float, where: str) -> float:
    value = p.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PayloadError(f"{where}.{name} must be a number", field=f"{where}.{name}")
    value = float(value)
    if not math.isfinite(value) or not lo <= value <= hi:
        raise PayloadError(f"{where}.{name} {value!r} is out of range {lo:g} to {hi:g}",
                           field=f"{where}.{name}")  # fmt: skip
    return value


def send_positions(
    payload: object, by: cmd.Author, received: datetime, ping_offset: timedelta | None
) -> pos.SendPositions:
    """Parse ``send_positions``: round, group, fixes, and optionally the batch's id (sent
    again, it is taken once), consent_id and device_time (the phone's clock when it sent,
    read when the connection has no ping estimate)."""
    p = mapping(payload, ("id", "round", "group", "consent_id", "fixes", "device_time"))
    fixes = p.get("fixes")
    if not isinstance(fixes, list) or not fixes:
        raise PayloadError("fixes must be a non-empty list of {at, lon, lat, accuracy}",
                           field="fixes")  # fmt: skip
    if len(fixes) > pos.MAX_FIXES:
        raise PayloadError(
            f"a message carries at most {pos.MAX_FIXES} fixes, not {len(fixes)}; send the rest "
            "in another",
            field="fixes",
            code="too_many_fixes",
        )
    parsed = []
    for i, raw in enumerate(fixes):
        where = f"fixes[{i}]"
        f = mapping(raw, _FIX)
        for name in _FIX:
            if name not in f or f[name] is None:
                raise PayloadError(f"{where}.{name} is required", field=f"{where}.{name}",
                                   code="missing_field")  # fmt: skip
        timing: dict[str, Any] = {"at": f["at"]}
        if "device_time" in p:
            timing["device_time"] = p["device_time"]
        try:
            at = device_time(timing, "at", received, ping_offset)
        except PayloadError as e:
            raise PayloadError(f"{where}: {e.message}", field=f"{where}.{e.field or 'at'}",
                               code=e.code) from None  # fmt: skip
        parsed.append(pos.Fix(
            at,
            _number(f, "lon", -180.0, 180.0, where),
            _number(f, "lat", -90.0, 90.0, where),
            _number(f, "accuracy", 0.0, 100000.0, where),
        ))  # fmt: skip
    consent = event_id(p, "consent_id") if p.get("consent_id") is not None else None
    return pos.SendPositions(
        round=text(p, "round"),
        group=text(p, "group", limit=50),
        fixes=tuple(parsed),
        by=by,
        consent_id=consent,
        id=event_id(p) if p.get("id") is not None else None,
    )


def share_positions(payload: object, by: cmd.Author) -> pos.ShareConsent:
    """Parse ``share_positions``: id, round, group, share (true: the group agrees to share
    its position from this phone; false: it stops)."""
    p = mapping(payload, ("id", "round", "group", "share", "device_time"))
    share = p.get("share")
    if not isinstance(share, bool):
        raise PayloadError("share must be true or false", field="share")
    return pos.ShareConsent(
        id=event_id(p),
        round=text(p, "round"),
        group=text(p, "group", limit=50),
        share=share,
        by=by,
    )
