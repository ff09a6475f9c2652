"""Individual timing of strokes (docs/rules.md §4; swin golf rule 2).

The referee presses start when the player may play (his turn, time to reach the ball,
no interference; on the green after marking, cleaning and repairing) and stop when he
plays; the software does not guess those instants. A stroke over its allowance is a
bad time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from pace.rules.policies import Policy


class StrokeKind(StrEnum):
    """What kind of stroke is timed; three kinds earn the first to play 10 more seconds."""

    PAR3_TEE = "par3_tee"  # a tee shot on a par 3
    APPROACH = "approach"
    CHIP_PUTT = "chip_putt"
    OTHER = "other"


EXTRA_KINDS = frozenset({StrokeKind.PAR3_TEE, StrokeKind.APPROACH, StrokeKind.CHIP_PUTT})


def earns_extra(kind: StrokeKind, first_to_play: bool, par: int | None = None) -> bool:
    """Return whether a stroke earns the extra allowance (docs/rules.md §4.3).

    The first player to play an approach, a chip or a putt earns it, and the first to play
    a tee shot where the hole's par is 3: the course decides, not the kind the referee's
    device sent (``par`` None: the hole is not known, the kind is taken as given).

    >>> earns_extra(StrokeKind.PAR3_TEE, True, 3), earns_extra(StrokeKind.PAR3_TEE, True, 4)
    (True, False)
    >>> earns_extra(StrokeKind.APPROACH, True, 4), earns_extra(StrokeKind.APPROACH, False, 4)
    (True, False)
    """
    if not first_to_play or kind not in EXTRA_KINDS:
        return False
    return kind is not StrokeKind.PAR3_TEE or par is None or par == 3


def allowance(
    kind: StrokeKind, first_to_play: bool, policy: Policy, par: int | None = None
) -> timedelta:
    """Return the time allowed for a stroke (docs/rules.md §4.3).

    40 s; 50 s for the first player to play a tee shot on a par 3, an approach, a chip or a
    putt. ``par`` is the par of the hole the stroke is played on. Swin golf has no extra time.

    >>> from pace.rules.policies import FRBG, SWIN
    >>> [allowance(k, True, FRBG).seconds for k in StrokeKind]
    [50, 50, 50, 40]
    >>> allowance(StrokeKind.PAR3_TEE, True, FRBG, par=4).seconds
    40
    >>> allowance(StrokeKind.CHIP_PUTT, False, FRBG).seconds
    40
    >>> allowance(StrokeKind.PAR3_TEE, True, SWIN).seconds
    40
    """
    extra = policy.extra_allowance if earns_extra(kind, first_to_play, par) else timedelta(0)
    return policy.stroke_allowance + extra


@dataclass(frozen=True)
class TimedStroke:
    """One stroke timed by a referee: who, where, which kind, and the start and stop taps.

    ``between_holes`` marks a fault that happened between two holes; its penalty goes to
    the next hole the group plays (docs/rules.md §6). ``hole`` is None for a stroke between
    holes whose hole was not written (a paper log): the next hole of the group's order.
    """

    id: str
    group: str
    player: str
    hole: int | None
    started: datetime
    stopped: datetime
    kind: StrokeKind = StrokeKind.OTHER
    first_to_play: bool = False
    between_holes: bool = False

    @property
    def duration(self) -> timedelta:
        """Return the time the player took."""
        return self.stopped - self.started


@dataclass(frozen=True)
class StrokeVerdict:
    """A timed stroke judged against its allowance: ``over`` > 0 means a bad time."""

    stroke: TimedStroke
    allowed: timedelta
    over: timedelta

    @property
    def is_bad_time(self) -> bool:
        """Return whether the stroke took longer than allowed (exactly the limit is fine)."""
        return self.over > timedelta(0)


def judge(stroke: TimedStroke, policy: Policy, par: int | None = None) -> StrokeVerdict:
    """Return the stroke's allowance and how far over it the player went (docs/rules.md §4.3, §4.5).

    ``par`` is the par of the hole the stroke is played on (see :func:`allowance`).

    >>> from datetime import UTC
    >>> from pace.rules.policies import FRBG
    >>> t = datetime(2025, 6, 14, 10, 0, tzinfo=UTC)
    >>> s = TimedStroke("s1", "7", "Ann", 5, t, t + timedelta(seconds=41))
    >>> judge(s, FRBG).is_bad_time, judge(s, FRBG).over.seconds
    (True, 1)
    >>> tee = TimedStroke("s2", "7", "Ann", 5, t, t + timedelta(seconds=46),
    ...                   StrokeKind.PAR3_TEE, first_to_play=True)
    >>> judge(tee, FRBG, par=3).is_bad_time, judge(tee, FRBG, par=4).is_bad_time
    (False, True)
    """
    allowed = allowance(stroke.kind, stroke.first_to_play, policy, par)
    return StrokeVerdict(stroke, allowed, stroke.duration - allowed)
