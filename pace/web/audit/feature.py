"""The audit's pages: no commands of its own."""

from __future__ import annotations

from pace.web.audit import pages
from pace.web.routing import Feature

FEATURE = Feature("audit", pages=pages.bp)
