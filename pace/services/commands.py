"""Commands: what a person asks pace to record, parsed and typed at the edge.

Payloads become these frozen dataclasses in ``pace.web.payloads``; the services turn them
into events (:class:`Outcome`) or refuse them (:class:`CommandError`, nothing recorded).
Commands are imperative; the events they produce are past tense.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pace.rules.errors import PaceError
from pace.rules.events import Event


class CommandError(PaceError, ValueError):
    """A command that cannot be carried out as given; nothing was recorded."""

    code = "invalid_command"


@dataclass(frozen=True)
class Outcome:
    """What a command did: the stored event and whether it was new.

    What it changed for the pages is asked afterwards (``LiveService.changes``), so the web
    layer can announce the fact first.
    """

    event: Event
    created: bool


@dataclass(frozen=True)
class Author:
    """Who records a fact: a role, a device and optionally a name."""

    role: str
    device: str | None = None
    name: str | None = None

    def as_dict(self) -> Mapping[str, object]:
        """Return the ``by`` object stored with an event."""
        return {
            k: v
            for k, v in (("role", self.role), ("device", self.device), ("name", self.name))
            if v
        }


@dataclass(frozen=True)
class DeviceTime:
    """An instant read on a device, and how far that device's clock is from the server's.

    ``offset`` is device clock minus server clock; ``source`` says how it was estimated:
    ``"ping"`` (a ping exchange on this connection, half the round trip removed) or
    ``"send"`` (the device's clock when it sent the command, against the server's on receipt).
    """

    raw: datetime
    offset: timedelta = timedelta(0)
    source: str = "none"

    @property
    def corrected(self) -> datetime:
        """Return the instant on the server's clock."""
        return self.raw - self.offset


@dataclass(frozen=True)
class LogHoleCompleted:
    """A marshal saw group ``group`` complete hole ``hole`` (flag back in) at ``at``."""

    id: str
    round: str
    group: str
    hole: int
    at: DeviceTime
    by: Author


@dataclass(frozen=True)
class ReportHoleCompleted:
    """A group's scorer reports that the group holed out on ``hole`` at or before ``at`` (the
    last score of the hole entered, or "We've finished hole N"; docs/status.md)."""

    id: str
    round: str
    group: str
    hole: int
    at: DeviceTime
    by: Author


@dataclass(frozen=True)
class CorrectHoleTime:
    """Replace the instant of a logged completion (``target``) by ``at``."""

    id: str
    round: str
    target: str
    at: DeviceTime
    reason: str
    by: Author


@dataclass(frozen=True)
class VoidEvent:
    """Cancel a logged fact (a tap on the wrong group, say) with a reason."""

    id: str
    round: str
    target: str
    reason: str
    by: Author


@dataclass(frozen=True)
class RecordSiren:
    """The committee sounded the siren: ``interruption``, ``suspension`` or ``resume``."""

    id: str
    round: str
    kind: str
    at: DeviceTime
    by: Author


@dataclass(frozen=True)
class AcknowledgeAlert:
    """A referee has seen alert ``alert`` (its key) and takes it from the list."""

    id: str
    round: str
    alert: str
    by: Author
    note: str = ""


@dataclass(frozen=True)
class JoinRound:
    """A page subscribes to a round's broadcasts, and to some holes for a marshal; ``facts``:
    to the stored facts as they are committed too (``hole_logged``...; no page renders them)."""

    round: str
    holes: tuple[int, ...] = field(default_factory=tuple)
    facts: bool = False


# -- referees (docs/rules.md §4–§6) ------------------------------------------------------------
# ``at``, where a command has it, is the device instant of the act (a shot clock that was
# offline sends when things happened); None: the server's clock when it is recorded.


@dataclass(frozen=True)
class DecideTiming:
    """A referee decides to time an out-of-position group (``time``) or not (``not_time``).

    ``reason`` is the mitigating circumstance of a decision not to time (ruling, lost ball,
    unplayable ball, other).
    """

    id: str
    round: str
    group: str
    decision: str
    by: Author
    reason: str = ""
    note: str = ""
    at: DeviceTime | None = None


@dataclass(frozen=True)
class TellPlayerTimed:
    """A referee told ``player`` that the group is out of position and being timed."""

    id: str
    round: str
    group: str
    player: str
    by: Author
    at: DeviceTime | None = None


@dataclass(frozen=True)
class RecordStroke:
    """A referee timed one stroke of ``player`` on the shot clock (start and stop taps).

    ``kind`` is ``par3_tee``, ``approach``, ``chip_putt`` or ``other``; with
    ``first_to_play`` the first three earn the extra allowance.
    """

    id: str
    round: str
    group: str
    player: str
    hole: int
    kind: str
    first_to_play: bool
    started: DeviceTime
    stopped: DeviceTime
    by: Author
    between_holes: bool = False


@dataclass(frozen=True)
class NotifyPlayer:
    """A referee told ``player`` of fault ``fault`` (a bad time's id or a checkpoint's)."""

    id: str
    round: str
    group: str
    player: str
    fault: str
    by: Author
    at: DeviceTime | None = None


@dataclass(frozen=True)
class GrantTimeCredit:
    """A referee grants group ``group`` ``minutes`` more from ``at`` on, with a reason."""

    id: str
    round: str
    group: str
    minutes: float
    reason: str
    by: Author
    at: DeviceTime | None = None


@dataclass(frozen=True)
class StopTiming:
    """A referee stops timing group ``group`` (back in position; the players are told)."""

    id: str
    round: str
    group: str
    by: Author
    reason: str = ""
    at: DeviceTime | None = None


# -- scorers (docs/rules.md §10) ----------------------------------------------------------------


@dataclass(frozen=True)
class RecordScore:
    """A scorer writes ``player``'s score on ``hole``: ``strokes``, or None for no score.

    In one-ball formats any partner's score is the side's; ``conceded`` (match play) says
    the player's side conceded the hole.
    """

    id: str
    round: str
    group: str
    player: str
    hole: int
    strokes: int | None
    by: Author
    conceded: bool = False


@dataclass(frozen=True)
class CorrectScore:
    """Put a recorded score (``target``) right: the strokes and concession it should say."""

    id: str
    round: str
    target: str
    strokes: int | None
    reason: str
    by: Author
    conceded: bool = False
