"""The scorers' pages: the scorer's card, the public leaderboard, a group's card, the round's
results as JSON, its printable results sheet (HTML, PDF, CSV) and the committee's scoring
setting. No golf here."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from pace.reports.results import results_csv as results_csv_text
from pace.reports.results import results_document
from pace.reports.results_sheet import CSS_FILE, results_sheet_html, sheet_request
from pace.rules.errors import PaceError
from pace.services.life import RoundLifeService
from pace.web import access, payloads
from pace.web.downloads import attachment
from pace.web.i18n import (
    catalogue,
    chosen_language,
    current_language,
    language_links,
    page_context,
    translate,
)
from pace.web.parts import parts

bp = Blueprint("scoring", __name__)

#: How long a request waits for the results sheet's PDF (the builder's start included).
PDF_WAIT = 120.0


@bp.get("/rounds/<round>/scorecard")
def scorecard_page(round: str) -> str:
    """The scorer's page (phone first): one group's card at a time, offline queue. A
    scorer's phone is its group's: where the round allows it, the page asks to share the
    group's position (``shares``: the session may send it; a referee's or the committee's
    phone may open the page, not share a group's position; issue 48)."""
    scoring = parts().scores.scoring(round)
    s = access.current_session()
    shares = s is not None and access.allowed("share_positions", s.role)
    return render_template(
        "scorecard.html", round=round, scoring=scoring, shares=shares, **page_context()
    )


@bp.get("/rounds/<round>/leaderboard")
def leaderboard_page(round: str) -> str:
    """The public leaderboard: no sign-in. The committee of the round also gets the link to
    the printable results sheet (anybody, once the results are final)."""
    parts().live.service.round_view(round)
    s = access.current_session()
    committee = (s is not None and s.role == "committee" and s.covers(round)
                 and parts().store.round_club(round) == s.club)  # fmt: skip
    return render_template("leaderboard.html", round=round, committee=committee, **page_context())


@bp.get("/api/rounds/<round>/leaderboard")
def api_leaderboard(round: str) -> Any:
    """The leaderboard as the page shows it."""
    return jsonify({"ok": True, "leaderboard": parts().scores.leaderboard(round)})


@bp.get("/api/rounds/<round>/cards/<group>")
def api_card(round: str, group: str) -> Any:
    """One group's card: its scores with their ids, its standing, its penalties."""
    group = payloads.text({"group": group}, "group", limit=50)
    return jsonify({"ok": True, "card": parts().scores.card(round, group)})


@bp.get("/api/rounds/<round>/cards/<group>/pace")
def api_own_pace(round: str, group: str) -> Any:
    """One group's own pace as its scorer page shows it (facts, no status: issue 39)."""
    group = payloads.text({"group": group}, "group", limit=50)
    app_parts = parts()
    now = app_parts.live.clock.now()
    pace = app_parts.scores.own_pace(round, group, now)
    # issue 48: where the group stands on its hole, when its phone shares its position: the
    # metres to its green and behind the group ahead (never a coordinate, no group named).
    # Told only to the phone sharing it (the device whose consent is in force, named by the
    # page's X-Pace-Device header, as the commands' are) and to the committee and referees:
    # another group's scorer is told none (docs/privacy.md)
    place = app_parts.positions.place(round, group, now) if _told_place(round, group) else None
    keep = ("hole", "phase", "to_green_m", "at", "age_s", "stale", "behind_m")
    pace["place"] = None if place is None else {k: place[k] for k in keep}
    return jsonify({"ok": True, "pace": pace})


def _told_place(round: str, group: str) -> bool:
    """Return whether this request may be told ``group``'s place: the committee's or a
    referee's session, or the phone that shares the group's position."""
    s = access.current_session()
    if s is not None and s.role in ("committee", "referee"):
        return True
    device = payloads.author({"device": request.headers.get("X-Pace-Device")}, "http").device
    return parts().positions.shares(round, group, device)


@bp.get("/api/rounds/<round>/results")
def api_results(round: str) -> Any:
    """The round's results as ``pace results --json`` prints them (docs/formats.md §8), with
    the round's life (final or not, when and by whom)."""
    app_parts = parts()
    results = app_parts.scores.results(round)
    life = RoundLifeService(app_parts.live).document(round)
    return jsonify(results_document(results, {k: v for k, v in life.items() if k != "round"}))


def _results_of(round: str) -> dict[str, Any]:
    """Return the round's results document with its life (as ``api_results`` answers it)."""
    app_parts = parts()
    results = app_parts.scores.results(round)
    life = RoundLifeService(app_parts.live).document(round)
    return results_document(results, {k: v for k, v in life.items() if k != "round"})


def _sheet_setting(round: str) -> dict[str, Any]:
    """Return the sheet's header: the round, its course and day, and now on its clock."""
    service = parts().live.service
    view = service.round_view(round)
    return {"round": view.record.name, "course": view.record.course.name,
            "day": view.record.day, "printed": service.clock.now().astimezone(view.tz)}  # fmt: skip


@bp.get("/rounds/<round>/results")
def results_sheet(round: str) -> Response:
    """The printable results sheet for the notice board (class by class, the countback, each
    player's tees), with its PDF and CSV: the committee's until the results are final, then
    anybody's (``access.OPEN_WHEN_FINAL``)."""
    lang = current_language()
    links = {
        "pdf": url_for("scoring.results_pdf", round=round, lang=chosen_language()),
        "csv": url_for("scoring.results_csv", round=round),
        "leaderboard": url_for("scoring.leaderboard_page", round=round),
    }
    page = results_sheet_html(
        _results_of(round), lang, css_href=url_for("static", filename=CSS_FILE), links=links,
        sun=(url_for("static", filename="sun.js"), catalogue(lang)["sun.toggle"]),
        # its language menu, as the other pages have it (issue 47)
        language_links=language_links(), language_label=translate("lang.menu", lang),
        **_sheet_setting(round),
    )  # fmt: skip
    if not current_app.testing:  # its PDF link is likely next: a builder gets ready
        parts().report_jobs.prewarm()
    return Response(page, mimetype="text/html")


@bp.get("/rounds/<round>/results.pdf")
def results_pdf(round: str) -> Response:
    """The results sheet on A4 (WeasyPrint, the reports' path), a page per class: laid out by
    a warm PDF builder (the report jobs'), so its seconds of layout for a large field never
    hold up the server's taps and broadcasts; this request waits for it."""
    app_parts = parts()
    request_ = sheet_request(_results_of(round), **_sheet_setting(round))
    job = app_parts.report_jobs.start(round, "results", current_language(), document=request_)
    job.task.join(timeout=PDF_WAIT)
    if job.state != "done" or job.path is None:
        raise PaceError(
            f"the results sheet could not be laid out: {job.error or 'it took too long'}",
            code="pdf_failed",
        )
    pdf = job.path.read_bytes()
    return attachment(Response(pdf, mimetype="application/pdf"), round, "results", "pdf")


@bp.get("/rounds/<round>/results.csv")
def results_csv(round: str) -> Response:
    """The results as ``pace results --round --csv`` writes them (``?excel=1``: ``;``, decimal
    commas and a byte order mark), every cell guarded against formulas."""
    app_parts = parts()
    results = app_parts.scores.results(round)
    life = RoundLifeService(app_parts.live).document(round)
    life.pop("round")
    excel = request.args.get("excel") in ("1", "yes", "true")
    text = results_csv_text(results, excel=excel, life=life)
    return attachment(Response(text.encode("utf-8"), mimetype="text/csv"), round, "results", "csv")


@bp.post("/rounds/<round>/scoring")
def scoring_setting(round: str) -> Any:
    """The committee sets how the round is scored: scoring, net or gross, allowance."""
    access.check_csrf()
    form = request.form
    scoring = payloads.text(form, "scoring", limit=20)
    allowance_text = payloads.text(form, "allowance", limit=20, required=False)
    try:
        allowance = (
            tuple(float(v.replace(",", ".")) for v in allowance_text.split("/"))
            if allowance_text
            else None
        )
    except ValueError:
        raise payloads.PayloadError(
            f"allowance {allowance_text!r} is not a percentage such as 85 (greensome: 60/40)",
            field="allowance",
        ) from None
    app_parts = parts()
    app_parts.live.service.set_scoring(
        round, scoring=scoring, net=form.get("net") == "yes", allowance=allowance
    )
    app_parts.derived.cards(round)
    return redirect(url_for("scoring.scorecard_page", round=round))
