"""The one spelling of a name or an id: what makes two typed names the same.

A round, a group, a player, an alert key or an event id can reach pace typed in many ways
that a person reads as one: decomposed accents (``e`` + U+0301 for ``é``), a no-break or
ideographic space at an end, an id in capitals or in braces. Every comparison (who may act
on which round, which player a referee times, which fact a void aims at) is made on the
canonical spelling, and only it is stored:

- text is Unicode NFC with no white space at either end (``str.strip``: every Unicode space);
- text that is not a sequence of Unicode scalar values (a lone surrogate, a cut emoji) is
  refused, and so are control characters (``Cc``: newline is allowed in prose, a reason or a
  note) and, in names, the invisible format characters (``Cf``: zero-width spaces, bidi
  overrides) that make two names look alike;
- a UUID is lower-case hex in 8-4-4-4-12 groups; ``{…}``, ``urn:uuid:``, capitals and
  32 digits without dashes are read as the same id, anything else is not a UUID.

Pure: no I/O. ``pace.web.payloads`` applies it to every payload, ``pace.formats`` to every
cell of a committee's file.
"""

from __future__ import annotations

import re
import unicodedata

from pace.rules.errors import Sentence, said

_UUID = re.compile(
    r"(?:urn:uuid:)?(\{)?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?"
    r"([0-9a-f]{12})(\})?",
    re.IGNORECASE,
)


class SpellingError(ValueError):
    """A text that has no canonical spelling; ``reason`` says why, for a message (and
    ``sentence``, the same words for the pages to translate)."""

    def __init__(self, reason: str | Sentence) -> None:
        super().__init__(str(reason))
        self.reason = str(reason)
        self.sentence = reason if isinstance(reason, Sentence) else None


def problem(text: str, *, prose: bool = False) -> str | None:
    """Return why ``text`` cannot be stored (a lone surrogate, a control character), or None.

    ``prose`` (a reason, a note) may hold newlines; names may hold no control or format
    character at all.

    >>> problem("Marie Lavoie") is None, problem("R1\\u200b"), problem("a\\nb", prose=True)
    (True, 'contains an invisible format character (U+200B)', None)
    >>> problem("\\ud83d")
    'contains a lone surrogate (U+D83D): not valid Unicode text'
    """
    why = _why(text, prose)
    return None if why is None else str(why)


def _why(text: str, prose: bool) -> Sentence | None:
    for ch in text:
        category = unicodedata.category(ch)
        code = f"{ord(ch):04X}"
        if category == "Cs":
            return said("refusal.text.surrogate", "contains a lone surrogate (U+{code}): not "
                        "valid Unicode text", code=code)  # fmt: skip
        if category == "Cc" and not (prose and ch == "\n"):
            return said("refusal.text.control", "contains a control character (U+{code})",
                        code=code)  # fmt: skip
        if category == "Cf" and not prose:
            return said("refusal.text.format",
                        "contains an invisible format character (U+{code})", code=code)  # fmt: skip
    return None


def canonical(text: str, *, prose: bool = False) -> str:
    """Return ``text`` in its canonical spelling: NFC, no white space at either end.

    White space at the ends (a tab, a newline, a no-break space) is padding and goes; what is
    left is refused with ``SpellingError`` if it holds a lone surrogate or a control
    character (see ``problem``). A ``\\r\\n`` in prose is read as one newline.

    >>> canonical("\\u00a0R1\\u3000"), canonical("\\nR1\\t"), canonical("He\\u0301le\\u0300ne")
    ('R1', 'R1', 'Hélène')
    """
    text = text.strip()  # first: a tab or a newline at an end is padding, not a control
    if prose:
        text = text.replace("\r\n", "\n")
    reason = _why(text, prose)
    if reason is not None:
        raise SpellingError(reason)
    return unicodedata.normalize("NFC", text).strip()


def canonical_uuid(text: str) -> str | None:
    """Return the canonical spelling of the UUID ``text``, or ``None`` if it is not one.

    >>> canonical_uuid("{0B8E1F0C-4A57-4D6E-8A1E-7F3C9D2B5A61}")
    '0b8e1f0c-4a57-4d6e-8a1e-7f3c9d2b5a61'
    >>> canonical_uuid("urn:uuid:0b8e1f0c4a574d6e8a1e7f3c9d2b5a61")
    '0b8e1f0c-4a57-4d6e-8a1e-7f3c9d2b5a61'
    >>> canonical_uuid("0b8e1f0c-4a57-4d6e-8a1e-7f3c9d2b5a6"), canonical_uuid("{" + "0" * 32)
    (None, None)
    """
    match = _UUID.fullmatch(text.strip())
    if match is None or (match[1] is None) != (match[7] is None):
        return None
    return "-".join(match.group(i) for i in range(2, 7)).lower()
