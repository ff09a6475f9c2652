"""The report's speed-ups keep its content: the PDF laid out in two parts on two cores, the
charts drawn in two processes, the same pages and texts as one process makes (issue 12)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from reportsupport import ROUND, report_database

from pace import config
from pace.reports import forked, html, pdf
from pace.reports.build import build
from pace.services.reports import ReportService
from pace.services.rounds import RoundService
from pace.store import open_store

ROOT = Path(__file__).resolve().parents[2]
GROUPS = 20  # at least pdf.SPLIT_MIN and html.PARALLEL_MIN: the long report's paths


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    db = report_database(tmp_path_factory.mktemp("speed"), groups=GROUPS)
    store = open_store(db)
    try:
        yield RoundService(store, config.Settings())
    finally:
        store.close()


def text_of(data: bytes) -> str:
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True)
    return out.stdout.decode()


FORK_CHECK = """
import os, sys
from pace.reports import forked
assert forked.can_fork(), "a fresh interpreter has one thread: forking is allowed"
mine, theirs = forked.in_parallel(os.getpid, lambda: (os.getpid(), "é" * 3))
assert theirs[0] != mine == os.getpid() and theirs[1] == "ééé", (mine, theirs)
print("forked")
"""


def test_work_given_to_a_forked_child_comes_back_from_another_process():
    # in a fresh interpreter: the test process may run other tests' threads, and then
    # ``in_parallel`` rightly does the work here instead
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", FORK_CHECK], capture_output=True, env=env)
    assert out.returncode == 0 and out.stdout.decode().strip() == "forked", out.stderr.decode()


def test_a_failing_child_leaves_the_work_to_this_process():
    calls = []

    def there() -> int:
        calls.append(os.getpid())
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return 7

    parent = os.getpid()
    assert forked.in_parallel(lambda: 1, there) == (1, 7)
    assert calls == [parent]  # the child's append stayed in the child


def test_the_long_pdf_is_laid_out_in_two_parts_yet_numbered_and_ordered_as_one(service):
    meta, r = _view(service)
    drawn = html.draw_charts(r, meta, "en", html.no_progress, for_pdf=True)
    k = round(GROUPS * pdf.FIRST_SHARE)

    def part(first: int, last: int, summary: bool):
        return lambda: html.report_html(meta, r, "en", for_pdf=True, drawn=drawn,
                                        groups=(first, last), with_summary=summary)  # fmt: skip

    # as pdf.report_pdf lays a long report out (side by side where forking is safe)
    data = pdf.parts_to_pdf([part(0, k, True), part(k, GROUPS, False)])
    single = pdf.html_to_pdf(part(0, GROUPS, True)())  # one document, one process
    text, one = text_of(data), text_of(single)
    pages = re.findall(r"page (\d+) / (\d+)", text)
    total = len(pages)
    assert pages == [(str(i), str(total)) for i in range(1, total + 1)]
    # every group, in draw order, each once; the summary once, at the start
    order = re.findall(r"^Group (\S+) · Start", text, re.M)
    assert order == re.findall(r"^Group (\S+) · Start", one, re.M)
    assert len(order) == GROUPS and text.count("Who held the field up") == 1

    # the same facts as the single document: its lines, but for what each page repeats (the
    # numbers, the round's name at the top: a page break between, below, adds one of each)
    running = "Pace-of-play report · demo"

    def facts(t: str) -> list[str]:
        return sorted(
            x.strip()
            for x in t.splitlines()
            if x.strip() and "page " not in x and x.strip() != running
        )

    assert facts(text) == facts(one)
    assert abs(total - len(re.findall(r"page \d+ / \d+", one))) <= 1  # a page break between


def test_the_html_export_has_every_groups_chart_drawn_in_two_processes(service):
    page = build(service, ROUND, "html", lang="en")
    kinds = re.findall(r'<img class="(\w+)" alt="" src="data:image/svg\+xml;base64,', page)
    assert kinds == ["field", "bands", "holes"] + ["group"] * GROUPS


def _view(service):
    view = ReportService(service).round_report(ROUND)
    return view.meta, view.report
