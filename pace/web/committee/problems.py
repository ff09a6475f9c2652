"""A refused course or draw file's problems in the page's language.

The parsers (``pace.formats``) write each problem as one English sentence with its values in
it, the sentence ``pace import`` prints. The console shows it in the page's language: each
sentence the catalogue knows (``problem.*`` of :mod:`pace.web.committee.messages`, written
word for word as the parser writes it, ``{name}`` where a value goes) is recognised, and its
translation is filled with the same values, the place a value names (``hole 4``, ``on line
12``) translated too. A sentence the catalogue does not know is shown as the parser wrote it:
English is never lost, only not translated (tests/integration/test_console_i18n.py checks that
the usual problems of both files come out in French).
"""

from __future__ import annotations

import functools
import re

from pace import i18n
from pace.web.committee.messages import MESSAGES

#: the values that name a place in the file, or a JSON value's type, themselves translated
#: (``problem.part.*``)
PLACES = frozenset({"label", "other", "where", "what"})
_SLOT = re.compile(r"\{(\w+)\}")


def _pattern(template: str) -> re.Pattern[str]:
    """Return the regular expression of a sentence: its words as written, each ``{name}`` any
    text (the same text where a name comes twice)."""
    out, seen = [], set()
    for i, part in enumerate(_SLOT.split(template)):
        if i % 2 == 0:
            out.append(re.escape(part))
        elif part in seen:
            out.append(f"(?P={part})")
        else:
            seen.add(part)
            out.append(f"(?P<{part}>.+?)")
    return re.compile("".join(out), re.DOTALL)


SENTENCE, PART = "problem.", "problem.part."


@functools.cache
def _sentences(parts: bool) -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """Return the catalogue's sentences (or the places they name), each with its pattern."""
    return tuple(
        (key, source, _pattern(source))
        for key, source in MESSAGES.items()
        if key.startswith(SENTENCE) and key.startswith(PART) == parts and isinstance(source, str)
    )


def _translate(message: str, lang: str, parts: bool = False) -> str | None:
    for key, source, pattern in _sentences(parts):
        match = pattern.fullmatch(message)
        if match is None:
            continue
        values = {
            name: (_translate(value, lang, parts=True) or value) if name in PLACES else value
            for name, value in match.groupdict().items()
        }
        return i18n.fill(i18n.text(key, source, lang), values)
    return None


def sentences() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """Return the sentences the catalogue knows: key, English, and the pattern they match."""
    return _sentences(False)


def translate(message: str, lang: str) -> str:
    """Return a parser's sentence in ``lang``: its translation when the catalogue knows it,
    else the sentence as written.

    >>> translate("hole 4: par 9 is not allowed; expected 3, 4 or 5 (2–6 read)", "fr")
    "trou 4 : le par 9 n'est pas admis ; attendu : 3, 4 ou 5 (2 et 6 acceptés avec une note)"
    >>> translate("a sentence nobody knows", "fr")
    'a sentence nobody knows'
    """
    if lang == "en":
        return message
    return _translate(message, lang) or message
