"""The reports' pages: no commands of their own."""

from __future__ import annotations

from pace.web.reports import pages
from pace.web.routing import Feature

FEATURE = Feature("reports", pages=pages.bp)
