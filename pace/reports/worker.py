"""A warm PDF builder: one process that keeps WeasyPrint, Pygal and pace loaded between PDFs.

The server's report jobs (``pace.web.reports.jobs``) build their PDFs outside the server's
process, so seconds of layout never hold up taps and broadcasts. Starting ``pace report``
for each PDF pays, every time, about 1.5 s of imports and 0.5 s of fonts and style sheets
parsed by the first PDF of a process. This process pays them once, at its start, then
builds PDF after PDF on request, each from the log as it is then (the database is opened
for each job: nothing of an earlier job's round is kept).

It talks JSON lines. It reads requests on standard input::

    {"kind": "report", "round": "R1", "lang": "fr", "per": "player", "output": "/tmp/x.pdf"}

(a results sheet: ``"kind": "results"`` and its ``document``, laid out as the server made it)

and answers on standard output: ``{"ready": true}`` once warm, then for each request
``{"progress": [done, total]}`` lines and ``{"done": true}`` or ``{"failed": "why"}``.
Anything else a library prints goes to standard error. It stops at the end of its input.

    python -m pace.reports.worker --db pace.sqlite3
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import IO, Any

KINDS = ("report", "letters", "results")


def _say(out: IO[str], message: dict[str, Any]) -> None:
    out.write(json.dumps(message, ensure_ascii=False) + "\n")
    out.flush()


def warm() -> None:
    """Load what every PDF needs and lay out a small one (fonts and style sheets parsed)."""
    import pygal  # noqa: F401  (loaded once here, not at the first job)

    from pace.reports import html, pdf

    page = f"<html><head><style>{html.css()}</style></head><body class='report'>"
    pdf.html_to_pdf(page + "<h1>pace</h1><table><tr><td>1</td></tr></table></body></html>")


def build(db: str | None, request: dict[str, Any], out: IO[str]) -> None:
    """Build the PDF ``request`` asks for into its ``output`` file, telling ``out`` how far."""
    from pace import config
    from pace.reports.build import build as build_report
    from pace.services.rounds import open_service

    kind = request.get("kind")
    if kind not in KINDS:
        raise ValueError(f"kind {str(kind)[:20]!r}: expected one of {', '.join(KINDS)}")
    output = Path(str(request["output"]))
    if kind == "results":  # laid out from the server's document: no database needed
        from pace.reports.results_sheet import pdf_of_request

        _write(output, pdf_of_request(request["document"], str(request.get("lang") or "fr")))
        return

    def progress(done: int, total: int, what: str = "") -> None:
        _say(out, {"progress": [done, total]})

    service = open_service(config.load(), db)
    try:
        data = build_report(
            service,
            str(request["round"]),
            "pdf",
            lang=service.document_language(str(request["round"]), request.get("lang") or None),
            letters_per=(str(request.get("per") or "player") if kind == "letters" else None),
            progress=progress,
        )
    finally:
        service.store.close()
    _write(output, data if isinstance(data, bytes) else data.encode("utf-8"))


def _write(output: Path, data: bytes) -> None:
    partial = output.with_suffix(output.suffix + ".part")
    partial.write_bytes(data)
    partial.replace(output)  # the file appears whole or not at all


def serve(db: str | None, requests: IO[str], out: IO[str]) -> None:
    """Answer every request of ``requests`` in turn, until its end."""
    from pace.rules.errors import PaceError

    warm()
    _say(out, {"ready": True})
    for line in requests:
        if not line.strip():
            continue
        try:
            build(db, json.loads(line), out)
        except (PaceError, ValueError, KeyError, OSError) as e:
            _say(out, {"failed": str(e) or type(e).__name__})
        except Exception as e:  # noqa: BLE001  (one bad PDF must not stop the next ones)
            _say(out, {"failed": f"{type(e).__name__}: {e}"})
        else:
            _say(out, {"done": True})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, help="the database (default: database.path)")
    args = parser.parse_args(argv)
    # the answers get the real standard output alone; whatever else is printed, by Python or
    # by a C library, goes to standard error
    sys.stdout.flush()
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    serve(args.db, sys.stdin, answers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
