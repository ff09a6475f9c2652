"""Access codes made in bulk and printed as cards (issue 28, part 4).

``make_cards`` makes the codes (:meth:`pace.services.access.AccessService.create_code`: stored
hashed, so the cards are the only place they are ever shown) and the cards that carry them;
``pace.reports.cards`` lays them out on A4. The CLI's ``pace access cards`` and a later page of
the round call the same two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pace.rules.errors import PaceError
from pace.services.access import ROLES, AccessService, join_link

#: at most this many cards at once (a field of 156 needs some 20 marshals and referees)
MAX_CARDS = 200


@dataclass(frozen=True)
class AccessCard:
    """One card: the code's role, its round, the code as shown once, its ``/join`` link and
    its place among the cards made together (``number`` of ``total``, as its label says)."""

    role: str
    round: str
    code: str
    link: str
    number: int = 1
    total: int = 1


def make_cards(
    access: AccessService, round: str, wanted: Sequence[tuple[str, int]], url: str
) -> list[AccessCard]:
    """Make ``count`` codes for each ``(role, count)`` of ``wanted`` on ``round`` and return
    their cards, in the order asked; each code's label says which card it is on.

    Everything is checked before the first code is made: a role pace does not have, a count
    below 1, more than :data:`MAX_CARDS` in all, or an address that is not ``http(s)://``.
    ``round`` is the round's canonical name (the caller looked it up).
    """
    for role, count in wanted:
        if role not in ROLES:
            raise PaceError(
                f"role {role[:40]!r} must be one of {', '.join(ROLES)}",
                field="role",
                code="invalid_payload",
            )
        if count < 1:
            raise PaceError(
                f"{count} {role} cards: give 1 or more", field="count", code="invalid_payload"
            )
    total = sum(count for _, count in wanted)
    if total > MAX_CARDS:
        raise PaceError(
            f"{total} cards at once is more than {MAX_CARDS}; print them in several sheets",
            field="count",
            code="invalid_payload",
        )
    if not url.startswith(("http://", "https://")) or len(url) > 200:
        raise PaceError(
            f"{url[:60]!r} is not the server's address; expected http://HOST:PORT as the "
            "phones reach it (e.g. http://10.0.0.2:5000)",
            field="url",
            code="invalid_payload",
        )
    cards = []
    for role, count in wanted:
        for n in range(1, count + 1):
            code = access.create_code(round, role, f"card {n}/{count}")
            cards.append(AccessCard(role, round, code, join_link(url, code, role, round), n, count))
    return cards
