"""Positions, ties and countback (docs/rules.md §10 Ties, §10.1; golf-mauricie 8.4, 10.4).

Entries equal on their result are separated on the last 9 holes of the course (10–18),
then the last 6, the last 3 and the last hole, whatever tee they started from. Countback
breaks every tie, not only the first place; entries still equal after the last hole
share the position, and the next position skips (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from pace.rules.model import Course

#: A ranking value: whole strokes, points or holes, or exact fractions in net countback.
Value = int | Fraction


@dataclass(frozen=True)
class Step:
    """One countback step: its label, the holes it takes and their share of the round."""

    label: str
    holes: tuple[int, ...]
    share: Fraction


def steps(course: Course) -> tuple[Step, ...]:
    """Return the countback steps of a course: the last 9, 6, 3 and 1 of its holes.

    A nine-hole course counts back on its last 6, 3 and 1 (6/9, 3/9 and 1/9 of the handicap).

    >>> from pace.rules.model import Hole
    >>> eighteen = Course("c", tuple(Hole(n, 4) for n in range(1, 19)))
    >>> for s in steps(eighteen):
    ...     print(s.label, s.holes[0], s.share)
    last 9 10 1/2
    last 6 13 1/3
    last 3 16 1/6
    last hole 18 1/18
    >>> [s.label for s in steps(Course("c", tuple(Hole(n, 4) for n in range(1, 10))))]
    ['last 6', 'last 3', 'last hole']
    """
    numbers = course.hole_numbers
    n = len(numbers)
    sizes = [k for k in (9, 6, 3, 1) if k < n]
    return tuple(
        Step("last hole" if k == 1 else f"last {k}", numbers[n - k :], Fraction(k, n))
        for k in sizes
    )


@dataclass(frozen=True)
class RankKey:
    """What an entry is ranked on: ``primary`` (lower is better) and each countback step's
    value, as ``(sort value, value shown)``; the sort value is lower-is-better too."""

    primary: Value
    countback: tuple[tuple[Value, Value], ...]

    def full(self) -> tuple[Value, ...]:
        """Return the whole sort key."""
        return (self.primary, *(v for v, _ in self.countback))


@dataclass(frozen=True)
class Standing:
    """An entry's place: overall position, whether it is shared, the class position and the
    countback step that separated it from the entries tied with it."""

    position: int | None = None
    tied: bool = False
    class_position: int | None = None
    countback: str | None = None


def shown(value: Value) -> str:
    """Return a countback value for display: two decimals at most, trailing zeros dropped.

    >>> shown(Fraction(107, 3)), shown(Fraction(71, 2)), shown(Fraction(19)), shown(Fraction(-1, 8))
    ('35.67', '35.5', '19', '-0.13')
    """
    value = Fraction(value)
    d = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )
    text = f"{d:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def rank(
    keys: Sequence[RankKey | None],
    classes: Sequence[str | None],
    labels: Sequence[str],
) -> list[Standing]:
    """Return the standing of each entry; an entry without a key (nr, dq) has no position.

    ``labels`` names the countback steps in order.

    >>> F = Fraction
    >>> keys = [RankKey(F(75), ((F(36), F(36)),)), RankKey(F(75), ((F(35), F(35)),)),
    ...         RankKey(F(74), ((F(40), F(40)),)), None, RankKey(F(75), ((F(36), F(36)),))]
    >>> for s in rank(keys, ["A", "A", "B", "A", "B"], ["last 9"]):
    ...     print(s.position, s.tied, s.class_position, s.countback)
    3 True 2 equal
    2 False 1 last 9: 35
    1 False 1 None
    None False None None
    3 True 2 equal
    """
    full = [k.full() if k is not None else None for k in keys]
    ranked = [i for _, i in sorted((k, i) for i, k in enumerate(full) if k is not None)]
    position: dict[int, int] = {}
    tied: set[int] = set()
    class_position: dict[int, int] = {}
    class_seen: dict[str, tuple[int, tuple[Value, ...] | None, int]] = {}
    for n, i in enumerate(ranked):
        previous = ranked[n - 1] if n else None
        if previous is not None and full[previous] == full[i]:
            position[i] = position[previous]
            tied.update((previous, i))
        else:
            position[i] = n + 1
        c = classes[i]
        if c is not None:
            count, last_key, last_position = class_seen.get(c, (0, None, 0))
            place = last_position if last_key == full[i] else count + 1
            class_position[i] = place
            class_seen[c] = (count + 1, full[i], place)
    labelled = _countback_labels(keys, labels)
    return [
        Standing(position[i], i in tied, class_position.get(i), labelled[i])
        if i in position
        else Standing()
        for i in range(len(keys))
    ]


def _countback_labels(keys: Sequence[RankKey | None], labels: Sequence[str]) -> list[str | None]:
    """Return, for each entry, the step that separated it from those tied with it."""
    out: list[str | None] = [None] * len(keys)
    groups: dict[Value, list[int]] = {}
    for i, k in enumerate(keys):
        if k is not None:
            groups.setdefault(k.primary, []).append(i)
    pending = [members for members in groups.values() if len(members) > 1]
    for depth, label in enumerate(labels):
        following = []
        for members in pending:
            split: dict[Value, list[int]] = {}
            for i in members:
                key = keys[i]
                assert key is not None
                split.setdefault(key.countback[depth][0], []).append(i)
            for part in split.values():
                if len(part) == 1:
                    key = keys[part[0]]
                    assert key is not None
                    out[part[0]] = f"{label}: {shown(key.countback[depth][1])}"
                else:
                    following.append(part)
        pending = following
    for members in pending:
        for i in members:
            out[i] = "equal"
    return out
