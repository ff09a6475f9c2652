"""Allotted time per hole and cumulative, in each group's playing order (docs/rules.md §1, §9)."""

from __future__ import annotations

from datetime import timedelta

from pace.rules.model import Course, Hole, PaceSettings


def column_for(size: int, settings: PaceSettings) -> int:
    """Return the group-size column a group of ``size`` players uses.

    A group of 1 uses the 2-ball column and a group of more than 4 the 4-ball column,
    unless the committee sets other columns (docs/rules.md §1).

    >>> column_for(1, PaceSettings()), column_for(3, PaceSettings()), column_for(5, PaceSettings())
    (2, 3, 4)
    """
    if size < 2:
        return settings.small_group_column
    if size > 4:
        return settings.large_group_column
    return size


def default_allotment(par: int, column: int, settings: PaceSettings) -> timedelta:
    """Return the default split of the federation average by par (docs/rules.md §1).

    Par 3 is the average minus the split, par 4 the average, par 5 the average plus the
    split (and so on, one split per stroke of par).

    >>> default_allotment(3, 4, PaceSettings()) // timedelta(minutes=1)
    12
    >>> default_allotment(5, 2, PaceSettings()) // timedelta(minutes=1)
    15
    """
    try:
        average = settings.averages[column]
    except KeyError:
        raise KeyError(f"no average allotment for groups of {column}") from None
    return average + (par - 4) * settings.par_split


def hole_allotment(hole: Hole, size: int, settings: PaceSettings) -> timedelta:
    """Return the allotted time of ``hole`` for a group of ``size`` players, without walk.

    The committee's value for the column wins over the default split by par.
    """
    column = column_for(size, settings)
    given = hole.allotted.get(column)
    if given is not None:
        return given
    return default_allotment(hole.par, column, settings)


def playing_order(course: Course, tee: int) -> tuple[int, ...]:
    """Return the hole numbers in the order a group starting on ``tee`` plays them.

    >>> from pace.rules.model import Course, Hole
    >>> course = Course("c", tuple(Hole(n, 4) for n in range(1, 19)))
    >>> playing_order(course, 10)[:3], playing_order(course, 10)[-1]
    ((10, 11, 12), 9)
    """
    numbers = course.hole_numbers
    if tee not in numbers:
        raise KeyError(f"tee {tee!r} is not a hole of course {course.name!r}")
    i = numbers.index(tee)
    return numbers[i:] + numbers[:i]


def cumulative_allotments(
    course: Course, tee: int, size: int, settings: PaceSettings
) -> tuple[timedelta, ...]:
    """Return the cumulative allotted time after 0, 1, …, N holes in the group's order.

    Element ``k`` is the allotment for the first ``k`` holes played from ``tee``. A hole's
    ``walk`` is added to it, except on the hole the group starts on (docs/rules.md §1).

    >>> from pace.rules.model import Course, Hole
    >>> course = Course("c", (Hole(1, 4), Hole(2, 3, walk=timedelta(minutes=2)), Hole(3, 5)))
    >>> [c // timedelta(minutes=1) for c in cumulative_allotments(course, 1, 4, PaceSettings())]
    [0, 15, 29, 47]
    >>> [c // timedelta(minutes=1) for c in cumulative_allotments(course, 2, 4, PaceSettings())]
    [0, 12, 30, 45]
    """
    total = timedelta(0)
    out = [total]
    for i, number in enumerate(playing_order(course, tee)):
        hole = course.hole(number)
        total += hole_allotment(hole, size, settings)
        if i > 0:
            total += hole.walk
        out.append(total)
    return tuple(out)


def round_allotment(course: Course, size: int, settings: PaceSettings) -> timedelta:
    """Return the published total for a round from tee 1 (walks included).

    >>> from pace.rules.model import Course, Hole
    >>> pars = [4, 4, 3, 5, 4, 4, 3, 5, 4, 4, 3, 5, 4, 4, 3, 5, 4, 4]
    >>> course = Course("par 72", tuple(Hole(n, p) for n, p in enumerate(pars, 1)))
    >>> [str(round_allotment(course, n, PaceSettings())) for n in (2, 3, 4)]
    ['3:36:00', '4:12:00', '4:30:00']
    """
    return cumulative_allotments(course, course.holes[0].number, size, settings)[-1]
