"""The console's time-pars page (issue 30 part 2, committee only; docs/calibration.md).

``GET /committee/time-pars?course=…[&since=…][&target=H:MM][&size=N]`` shows what
``pace calibrate`` prints: each hole's median and 80th percentile per group size against its
allotment, a chart of observed against allotted, and a link to the suggestion as a course TOML
(``/committee/time-pars.toml`` with the same query), which the committee imports on the
courses page if it chooses. Both are GETs that change nothing; their query is read with the
payload primitives (lengths, spellings, ranges) before anything reaches the service.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Response, render_template, request

from pace.reports import charts
from pace.rules import calibration as cal
from pace.services import calibration as calsvc
from pace.web import access, payloads
from pace.web.committee.pages import bp
from pace.web.downloads import attachment
from pace.web.i18n import page_context
from pace.web.parts import parts

#: the longest course name the page reads (a course name is a line of a form)
MAX_NAME = 200


def read_request(args: Any) -> calsvc.Request:
    """Return the page's query as a request, refusing a bad field with its name."""
    course = payloads.text(args, "course", limit=MAX_NAME)
    since = None
    raw_since = payloads.text(args, "since", limit=10, required=False)
    if raw_since:
        try:
            since = date.fromisoformat(raw_since)
        except ValueError:
            raise payloads.PayloadError(
                f"since {raw_since!r}: expected a day as YYYY-MM-DD", field="since"
            ) from None
    raw_target = payloads.text(args, "target", limit=8, required=False)
    target = calsvc.parse_target(raw_target) if raw_target else None
    size = payloads.integer(args, "size", 1, 6) if args.get("size") not in (None, "") else None
    return calsvc.Request(course, since, target, size)


def _service() -> calsvc.CalibrationService:
    return calsvc.CalibrationService(parts().live.service)


def _fill(text: str, **values: object) -> str:
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _why(why: cal.NoSuggestion, t: Any) -> str:
    """Return why a column has no suggestion, in the page's language (issue 47)."""
    return _fill(
        t(f"cal.why.{why.code}"), holes=", ".join(map(str, why.holes)), count=why.count,
        size=why.size, goal=calsvc.hours(why.goal), walks=calsvc.hours(why.walks),
    )  # fmt: skip


def _column_view(col: cal.Column, t: Any) -> dict[str, Any]:
    m = calsvc.minutes
    chart = charts.calibration_chart(
        [h.hole for h in col.holes],
        [
            (t("cal.median"), [m(h.median) for h in col.holes]),
            (t("cal.p80"), [m(h.p80) for h in col.holes]),
            (t("cal.allotted"), [m(h.allotted) for h in col.holes]),
            *([(t("cal.suggested"), [m(h.suggested) for h in col.holes])] if col.suggested else []),
        ],
        t("cal.hole"),
    )
    return {
        "size": col.column,
        "title": _fill(t("cal.column"), size=col.column),
        "summary": _fill(
            t("cal.column_rounds"),
            observed=calsvc.hours(col.observed_round),
            whole=col.rounds,
            allotted=calsvc.hours(col.allotted_round),
            target=calsvc.hours(col.target),
        ),
        "reason": _fill(t("cal.no_suggestion"), reason=_why(col.why, t)) if col.why else None,
        "holes": [
            {
                "hole": h.hole,
                "count": h.count,
                "median": calsvc.clock_minutes(h.median),
                "p80": calsvc.clock_minutes(h.p80),
                "allotted": calsvc.clock_minutes(h.allotted),
                "suggested": calsvc.clock_minutes(h.suggested),
            }
            for h in col.holes
        ],
        "chart": charts.as_image(chart, "calibration-chart"),
    }


def _club() -> str:
    """The club of this request's session (only a committee's session gets here)."""
    return access.session_club() or ""


@bp.get("/committee/time-pars")
def calibration_page() -> str:
    """The course's time pars from its finished rounds, with the suggestion to download."""
    ctx = page_context()
    t = ctx["t"]
    stored = [c.name for c in parts().store.list_courses(club=_club())]
    result = None
    asked: dict[str, Any] = {}
    if request.args.get("course"):
        r = read_request(request.args)
        parts().live.service.course(r.course, _club())  # another club's: unknown
        c = _service().calibrate(r)
        asked = {
            "course": r.course,
            "since": r.since.isoformat() if r.since else "",
            "target": calsvc.hours(r.target) if r.target else "",
            "size": r.size or "",
        }
        result = {
            "rounds": _fill(t("cal.rounds"), rounds=len(c.rounds), counted=c.counted),
            "skipped": [(t(f"cal.skip.{k}"), n) for k, n in c.skipped.items() if n],
            "columns": [_column_view(col, t) for col in c.columns],
            "has_suggestion": any(col.suggested for col in c.columns),
            "download_hint": _fill(
                t("cal.download_hint"),
                name=calsvc.suggestion_name(c.course, parts().live.service.clock.now().date()),
            ),
        }
    return render_template(
        "committee/calibration.html", courses=stored, asked=asked, result=result, **ctx
    )


@bp.get("/committee/time-pars.toml")
def calibration_toml() -> Any:
    """The suggestion as a course TOML under a new name (``pace calibrate --out``)."""
    r = read_request(request.args)
    parts().live.service.course(r.course, _club())  # another club's: unknown
    c = _service().calibrate(r)
    name = calsvc.suggestion_name(c.course, parts().live.service.clock.now().date())
    response = Response(calsvc.suggestion_toml(c, name), mimetype="application/toml")
    return attachment(response, c.course.name, "time-pars", "toml")
