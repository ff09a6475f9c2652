"""``/privacy``: what pace does with a group's position, for a club's members, in the page's
language (issue 48). The text is ``docs/privacy.md``'s section of that language, rendered as it
stands, so the page and the document never say two things; the scorer's consent links here.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from flask import Blueprint, render_template
from markdown_it import MarkdownIt
from markupsafe import Markup

from pace.web.i18n import current_language, page_context

bp = Blueprint("privacy", __name__)

#: the members' text, one section per language, each opened by ``<a id="xx"></a>``
DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "privacy.md"
_SECTION = re.compile(r'^<a id="(?P<lang>[a-z]{2})"></a>\s*$', re.M)


def sections(text: str) -> dict[str, str]:
    """Return each language's section of ``text`` without its heading (the page has its own).

    >>> text = 'i\\n<a id="en"></a>\\n\\n## English\\n\\nHello.\\n<a id="fr"></a>\\n## Fr\\nOui.'
    >>> sections(text)
    {'en': 'Hello.', 'fr': 'Oui.'}
    """
    marks = list(_SECTION.finditer(text))
    out = {}
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = text[m.end() : end].strip()
        out[m["lang"]] = re.sub(r"\A##[^\n]*\n", "", body).strip()
    return out


@cache
def rendered(mtime: float) -> dict[str, Markup]:
    """Return each language's section as HTML (raw HTML in the text is not passed through);
    cached per version of the file."""
    md = MarkdownIt("commonmark", {"html": False})
    text = DOCUMENT.read_text(encoding="utf-8")
    return {lang: Markup(md.render(body)) for lang, body in sections(text).items()}  # noqa: S704 (our own document, raw HTML disabled)


@bp.get("/privacy")
def privacy() -> str:
    """The members' page on positions, in the page's language (English when it has none)."""
    texts = rendered(DOCUMENT.stat().st_mtime)
    lang = current_language()
    return render_template("privacy.html", body=texts.get(lang) or texts["en"], **page_context())
