"""The penalties document (docs/formats.md §6) of ``pace penalties --json``, and its table."""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from pace.rules import penalties
from pace.services.offline import OfflineJudgement


def _seconds(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def fault_document(o: penalties.FaultOutcome, j: OfflineJudgement, tz: tzinfo) -> dict[str, Any]:
    """Return one fault's entry, keys in docs/formats.md §6's order."""
    stroke = j.judgement.stroke(o.fault.id)
    p = o.penalty
    return {
        "id": j.act_id(o.fault),
        "group": o.fault.group,
        "player": o.fault.player,
        "at": o.fault.at.astimezone(tz).strftime("%H:%M:%S"),
        "hole": o.fault.hole,
        "source": o.fault.source,
        "seconds": _seconds(stroke.stroke.duration.total_seconds()) if stroke else None,
        "allowed_s": _seconds(stroke.verdict.allowed.total_seconds()) if stroke else None,
        "counted": o.counted,
        "reason": o.reason.value,
        "penalty": None
        if p is None
        else {"kind": p.kind, "amount": p.amount, "hole": p.hole, "bearer": p.bearer},
    }


def player_document(group: str, player: str, j: OfflineJudgement) -> dict[str, Any]:
    """Return one player's totals: faults counted, strokes, points, holes lost, DQ."""
    counted = [o for o in j.judgement.for_player(group, player) if o.counted]
    paid = [o.penalty for o in counted if o.penalty is not None]
    return {
        "group": group,
        "player": player,
        "counted": len(counted),
        "strokes": sum(x.amount for x in paid if x.kind == "strokes"),
        "points": sum(x.amount for x in paid if x.kind == "points"),
        "holes_lost": [x.hole for x in paid if x.kind == "loss_of_hole"],
        "disqualified": any(x.kind == "disqualification" for x in paid),
    }


def penalties_document(j: OfflineJudgement, tz: tzinfo) -> dict[str, Any]:
    """Return the document: the policy, every fault in log order, every player of the draw."""
    return {
        "policy": j.judgement.policy.name,
        "faults": [fault_document(o, j, tz) for o in j.outcomes],
        "players": [player_document(g.id, p.name, j) for g in j.setup.groups for p in g.players],
    }


def _penalty_text(p: dict[str, Any] | None) -> str:
    if p is None:
        return ""
    kind = p["kind"].replace("_", " ")
    if p["kind"] in ("strokes", "points"):
        kind = f"{p['amount']} {kind if p['amount'] != 1 else kind[:-1]}"
    if p["kind"] in ("strokes", "points", "loss_of_hole"):
        kind += f" on hole {p['hole']}"
    return kind + (" (the side)" if p["bearer"] == "side" else "")


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def penalties_table(document: dict[str, Any]) -> str:
    """Return the document as readable tables: the faults, then the players with any."""
    faults: list[tuple[str, ...]] = [
        ("group", "player", "at", "hole", "seconds/allowed", "verdict", "penalty")
    ]
    for f in document["faults"]:
        timed = f"{f['seconds']:g}/{f['allowed_s']:g}" if f["seconds"] is not None else "checkpoint"
        verdict = "counted" if f["counted"] else f["reason"].replace("_", " ")
        faults.append(
            (
                f["group"], f["player"], f["at"], str(f["hole"]), timed, verdict,
                _penalty_text(f["penalty"]),
            )
        )  # fmt: skip
    lines = [f"policy {document['policy']}"]
    if len(faults) == 1:
        lines.append("no fault")
    else:
        lines += _table(faults)
    players: list[tuple[str, ...]] = [
        ("group", "player", "counted", "strokes", "points", "holes lost", "disqualified")
    ]
    for p in document["players"]:
        if p["counted"] or p["strokes"] or p["points"] or p["disqualified"]:
            players.append(
                (
                    p["group"], p["player"], str(p["counted"]), str(p["strokes"]),
                    str(p["points"]), " ".join(str(h) for h in p["holes_lost"]),
                    "yes" if p["disqualified"] else "",
                )
            )  # fmt: skip
    if len(players) > 1:
        lines += ["", *_table(players)]
    return "\n".join(lines)
