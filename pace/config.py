"""Load ``config.toml`` into frozen, validated settings.

Every key is optional and takes the documented default. An unknown key, a wrong type or an
impossible value stops the program with a message naming the file, the key and what is
expected. ``PACE_CONFIG`` may point to another file.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from dataclasses import replace as _replace
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pace.rules import policies as policiesmod
from pace.rules.errors import PaceError
from pace.rules.model import PaceSettings
from pace.rules.reported import COMPLETIONS
from pace.rules.scoring.handicaps import READINGS as HANDICAP_READINGS
from pace.rules.scoring.handicaps import ROUNDINGS as HANDICAP_ROUNDINGS
from pace.rules.scoring.handicaps import Allowances

ASYNC_MODES = ("gevent", "threading")
#: how ``pace serve`` writes its log: lines for a person, or one JSON object a line
LOG_FORMATS = ("text", "json")
SYNCHRONOUS_LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")
REPORT_LANGUAGES = ("fr", "en", "nl")
#: the longest a group's positions are held (issue 48: "a setting may shorten, never
#: lengthen, beyond 24 h"); a longer ``positions.keep_hours`` is taken as this
KEEP_HOURS_MAX = 24.0
#: The preset pace policies (docs/rules.md §6); ``[policies.NAME]`` tables add custom ones.
POLICIES = tuple(policiesmod.PRESETS)


class ConfigError(PaceError, ValueError):
    """The configuration file cannot be used as written."""

    code = "invalid_config"


@dataclass(frozen=True)
class ServerSettings:
    """Where ``pace serve`` listens, and how."""

    host: str = "127.0.0.1"
    port: int = 5000
    async_mode: str = "gevent"
    #: the address people open behind a reverse proxy (``https://pace.club.example``): its
    #: origin may open Socket.IO connections, and an https one makes the cookie ``Secure``
    public_url: str = ""
    #: reverse proxies in front of pace whose ``X-Forwarded-*`` headers are believed
    trusted_proxies: int = 0
    #: the Redis that several workers share (``redis://host:6379/0``): Socket.IO emits go
    #: through it to every worker's clients, and the tick's leases live there ("": one worker)
    message_queue: str = ""
    #: Prometheus metrics at ``/metrics`` (docs/deploy.md, "Health and metrics"): off unless
    #: set, and then only to ``metrics_from`` (addresses or networks; 404 to anybody else)
    metrics: bool = False
    metrics_from: tuple[str, ...] = ("127.0.0.1", "::1")
    #: "text" (a line for a person) or "json" (one JSON object a line, for a log collector:
    #: docs/deploy.md, "Logs")
    log_format: str = "text"


@dataclass(frozen=True)
class DatabaseSettings:
    """The database (a SQLite file, or a ``postgresql://`` URL) and its durability level."""

    path: str = "pace.db"
    synchronous: str = "FULL"


@dataclass(frozen=True)
class SchedulerSettings:
    """The field re-evaluation job."""

    enabled: bool = True
    tick_seconds: float = 5.0
    #: with several workers (``server.message_queue``): how long a worker's claim to tick a
    #: round lasts unless renewed; another worker takes the round over within about this long
    #: once its holder dies
    lease_seconds: float = 4.0


@dataclass(frozen=True)
class BackupSettings:
    """Scheduled snapshots of the rounds in play (docs/deploy.md, "Scheduled backups")."""

    #: minutes between two snapshots of each round in play (0: no scheduled backups)
    every_minutes: float = 0.0
    #: the folder the snapshots are written to (created if missing)
    folder: str = "backups"
    #: how many snapshots of each round are kept (the oldest removed)
    keep: int = 12


@dataclass(frozen=True)
class RoundSettings:
    """Defaults of a new round."""

    timezone: str = "Europe/Brussels"
    policy: str = "frbg"
    standard_interval_min: float = 0.0
    #: where a new round's completions come from: "officials", "officials_and_groups" or
    #: "groups" (docs/status.md "Groups' reports")
    completions: str = "officials"
    #: whether a new round allows positions from the groups' phones (issue 48; off by default)
    positions: bool = False

    @property
    def tz(self) -> ZoneInfo:
        """Return the round's time zone."""
        return ZoneInfo(self.timezone)


@dataclass(frozen=True)
class PositionSettings:
    """The groups' phones' positions (issue 48; docs/positions.md, docs/privacy.md)."""

    #: how long a fix is held in the serving process's memory at most (by the server's
    #: clock): older ones are dropped at each ``send_positions`` and each supervisor run;
    #: above 0, at most 24 (a longer value is taken as 24, with a warning)
    keep_hours: float = KEEP_HOURS_MAX

    @property
    def keep(self) -> timedelta:
        """Return how long a fix is held at most."""
        return timedelta(hours=self.keep_hours)


@dataclass(frozen=True)
class ReportSettings:
    """Post-round reports (docs/reports.md)."""

    language: str = "fr"
    offenders_days: int = 183


def _averages() -> dict[int, float]:
    return {2: 12.0, 3: 14.0, 4: 15.0}


@dataclass(frozen=True)
class AllotmentSettings:
    """The numbers of docs/rules.md §1 and §3."""

    average_min: dict[int, float] = field(default_factory=_averages)
    par_split_min: float = 3.0
    starters_gap_factor: float = 1.5
    gap_margin_min: float = 0.0
    #: how late a scorer's report of a hole may come after holing out, allowed when a status
    #: rests on it (docs/status.md, "Groups' reports")
    report_allowance_min: float = 3.0
    position_allowance_min: float = 0.0
    single_player_column: int = 2
    large_group_column: int = 4


@dataclass(frozen=True)
class HandicapSettings:
    """Handicap allowances in percent by format (docs/rules.md §10.1; a round may override
    them), the playing handicap's rounding and the gross adjustment for tees of different par."""

    stroke_play: float = 95.0
    stableford: float = 95.0
    bogey_par: float = 95.0
    match_play: float = 100.0
    four_ball_stroke_play: float = 85.0
    four_ball_match_play: float = 90.0
    foursome: float = 50.0
    greensome_lower: float = 60.0
    greensome_higher: float = 40.0
    #: the playing handicap's rounding: "whs" (the unrounded course handicap × the allowance,
    #: rounded once) or "course_then_playing" (the older reading, rounded twice)
    rounding: str = "whs"
    #: gross stroke play from tees of different par: the difference comes off the gross of
    #: the players from the higher par (WHS Rule 6.2b (i)); false leaves gross as played
    gross_par_adjustment: bool = True


@dataclass(frozen=True)
class Settings:
    """Everything ``config.toml`` holds; ``source`` names the file it came from."""

    server: ServerSettings = field(default_factory=ServerSettings)
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    scheduler: SchedulerSettings = field(default_factory=SchedulerSettings)
    backup: BackupSettings = field(default_factory=BackupSettings)
    round: RoundSettings = field(default_factory=RoundSettings)
    positions: PositionSettings = field(default_factory=PositionSettings)
    allotment: AllotmentSettings = field(default_factory=AllotmentSettings)
    reports: ReportSettings = field(default_factory=ReportSettings)
    handicap: HandicapSettings = field(default_factory=HandicapSettings)
    #: custom pace policies from ``[policies.NAME]`` tables, by name
    policies: Mapping[str, policiesmod.Policy] = field(default_factory=dict)
    source: str = "<defaults>"
    #: what the file asked for and was taken otherwise, for the server to say as it starts
    #: (a ``positions.keep_hours`` above 24 taken as 24)
    notes: tuple[str, ...] = ()

    @property
    def policy_names(self) -> tuple[str, ...]:
        """Return the names a round's policy may take: the presets, then the custom ones."""
        return POLICIES + tuple(sorted(set(self.policies) - set(POLICIES)))

    def policy(self, name: str) -> policiesmod.Policy:
        """Return the preset or custom policy ``name``; raise ``SetupError`` if unknown."""
        return policiesmod.find_policy(name, dict(self.policies))

    def pace_settings(self, standard_interval: timedelta | None = None) -> PaceSettings:
        """Return the rules' numbers; ``standard_interval`` overrides the configured one."""
        a = self.allotment
        if standard_interval is None and self.round.standard_interval_min > 0:
            standard_interval = timedelta(minutes=self.round.standard_interval_min)
        return PaceSettings(
            averages={k: timedelta(minutes=v) for k, v in a.average_min.items()},
            par_split=timedelta(minutes=a.par_split_min),
            standard_interval=standard_interval,
            gap_factor=a.starters_gap_factor,
            gap_margin=timedelta(minutes=a.gap_margin_min),
            report_allowance=timedelta(minutes=a.report_allowance_min),
            position_allowance=timedelta(minutes=a.position_allowance_min),
            small_group_column=a.single_player_column,
            large_group_column=a.large_group_column,
        )

    def allowances(self) -> Allowances:
        """Return the handicap allowances of ``[handicap]`` for the scoring."""
        return Allowances(**{f.name: getattr(self.handicap, f.name) for f in fields(Allowances)})

    def replace(self, **sections: Any) -> Settings:
        """Return a copy with some sections' fields changed, e.g. ``database={"path": p}``."""
        from dataclasses import replace

        changed = {
            name: replace(getattr(self, name), **values) for name, values in sections.items()
        }
        return replace(self, **changed)


_SECTIONS = {
    "server": ServerSettings,
    "database": DatabaseSettings,
    "scheduler": SchedulerSettings,
    "backup": BackupSettings,
    "round": RoundSettings,
    "positions": PositionSettings,
    "allotment": AllotmentSettings,
    "reports": ReportSettings,
    "handicap": HandicapSettings,
}


def default_path() -> Path:
    """Return the configuration file to read: ``$PACE_CONFIG``, else ``./config.toml``."""
    return Path(os.environ.get("PACE_CONFIG") or "config.toml")


def load(path: str | Path | None = None) -> Settings:
    """Read and validate a configuration file into :class:`Settings`.

    With no path, read ``$PACE_CONFIG`` or ``./config.toml``; a missing default file gives
    the defaults, a missing explicit file is an error.
    """
    explicit = path is not None or bool(os.environ.get("PACE_CONFIG"))
    p = Path(path) if path is not None else default_path()
    if not p.exists():
        if explicit:
            raise ConfigError(f"{p}: configuration file not found")
        return Settings()
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8-sig"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: not valid TOML: {e}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{p}: not UTF-8 text; save it as UTF-8") from None
    return from_dict(data, source=str(p))


def from_dict(data: dict[str, Any], *, source: str = "<dict>") -> Settings:
    """Validate a parsed TOML document into :class:`Settings`."""
    sections: dict[str, Any] = {}
    notes: list[str] = []
    data = _server_database(data, source)
    for name, value in data.items():
        if name == "policies":
            sections["policies"] = _policies(source, value)
            continue
        if name not in _SECTIONS:
            raise ConfigError(
                f"{source}: unknown section [{name}]; expected one of "
                + ", ".join(f"[{s}]" for s in (*_SECTIONS, "policies.NAME"))
            )
        if not isinstance(value, dict):
            raise ConfigError(
                f"{source}: {name} = {value!r}: expected a table [{name}]", field=name
            )
        sections[name] = _section(source, name, _SECTIONS[name], value)
    if "positions" in sections:
        sections["positions"] = _keep_bounded(source, sections["positions"], notes)
    settings = Settings(**sections, source=source, notes=tuple(notes))
    _check(settings)
    return settings


def _server_database(data: dict[str, Any], source: str) -> dict[str, Any]:
    """Read ``server.database`` as ``database.path`` (the same setting under the name the
    deployment guide's readers may look for); both given and different is refused."""
    server = data.get("server")
    if not isinstance(server, dict) or "database" not in server:
        return data
    server = dict(server)
    path = server.pop("database")
    database = data.get("database")
    database = dict(database) if isinstance(database, dict) else {}
    if "path" in database and database["path"] != path:
        raise ConfigError(
            f"{source}: server.database = {path!r} and database.path = {database['path']!r}: "
            "they are the same setting; give one",
            field="server.database",
        )
    database["path"] = path
    return {**data, "server": server, "database": database}


def _keep_bounded(source: str, positions: PositionSettings, notes: list[str]) -> PositionSettings:
    """Return ``positions`` with ``keep_hours`` at most 24: a setting may shorten how long the
    positions are held, never lengthen it beyond 24 h (issue 48); a longer one is taken as 24,
    and a note says so (the server logs it as it starts: ``pace.app.create_app``)."""
    if not positions.keep_hours > KEEP_HOURS_MAX:  # (nan and 0 or less: refused by _check)
        return positions
    notes.append(
        f"{source}: positions.keep_hours = {positions.keep_hours!r}: positions are held 24 "
        "hours at most (a setting may shorten, never lengthen, beyond 24 h); 24 is used"
    )
    return _replace(positions, keep_hours=KEEP_HOURS_MAX)


def checked(settings: Settings) -> Settings:
    """Return ``settings`` once validated (after command-line options replaced some)."""
    _check(settings)
    return settings


def _section(source: str, name: str, cls: type, values: dict[str, Any]) -> Any:
    known = {f.name: f for f in fields(cls)}
    defaults = cls()
    kwargs = {}
    for key, value in values.items():
        if key not in known:
            raise ConfigError(
                f"{source}: unknown key {name}.{key}; expected one of " + ", ".join(known),
                field=f"{name}.{key}",
            )
        kwargs[key] = _coerce(source, f"{name}.{key}", getattr(defaults, key), value)
    return cls(**kwargs)


def _coerce(source: str, key: str, default: Any, value: Any) -> Any:
    def bad(expected: str) -> ConfigError:
        return ConfigError(f"{source}: {key} = {value!r}: expected {expected}", field=key)

    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad("a whole number")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad("a number")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise bad("a string in quotes")
        return value
    if isinstance(default, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad('a list of strings such as ["127.0.0.1", "::1"]')
        return tuple(value)
    if isinstance(default, dict):
        if not isinstance(value, dict):
            raise bad("a table such as { 2 = 12, 3 = 14, 4 = 15 }")
        out = {}
        for k, v in value.items():
            if not str(k).isdigit() or isinstance(v, bool) or not isinstance(v, int | float):
                raise bad("group sizes mapped to minutes, such as { 2 = 12, 3 = 14, 4 = 15 }")
            out[int(k)] = float(v)
        return out
    raise bad(type(default).__name__)  # pragma: no cover - every field type is handled above


def _check(s: Settings) -> None:
    src = s.source

    def fail(key: str, expected: str, value: Any) -> None:
        raise ConfigError(f"{src}: {key} = {value!r}: expected {expected}", field=key)

    if not 1 <= s.server.port <= 65535:
        fail("server.port", "a port number from 1 to 65535", s.server.port)
    if s.server.async_mode not in ASYNC_MODES:
        fail("server.async_mode", " or ".join(map(repr, ASYNC_MODES)), s.server.async_mode)
    if not s.server.host:
        fail("server.host", "an address such as '127.0.0.1'", s.server.host)
    if s.server.public_url and not re.fullmatch(
        r"https?://[A-Za-z0-9.\-\[\]:]+/?", s.server.public_url
    ):
        fail("server.public_url", "an origin such as 'https://pace.club.example'",
             s.server.public_url)  # fmt: skip
    if not 0 <= s.server.trusted_proxies <= 5:
        fail("server.trusted_proxies", "a number of proxies from 0 to 5", s.server.trusted_proxies)
    if not s.database.path:
        fail("database.path", "a file path such as 'pace.db' or a postgresql:// URL",
             s.database.path)  # fmt: skip
    if s.database.path.lower().startswith(("postgresql:", "postgres:")) and not re.match(
        r"(?i)postgres(ql)?://[^/?#]*(/[^/?#]+)?([?][^#]*)?$", s.database.path
    ):
        fail("database.path", "a URL such as 'postgresql://pace@db.example/pace'", "…")
    if s.server.message_queue and not re.fullmatch(
        r"rediss?://[^\s/?#]+(/[0-9]+)?([?][^#\s]*)?", s.server.message_queue
    ):
        fail("server.message_queue", "a URL such as 'redis://127.0.0.1:6379/0' (or empty)",
             s.server.message_queue)  # fmt: skip
    for source in s.server.metrics_from:
        try:
            ipaddress.ip_network(source, strict=False)
        except ValueError:
            fail("server.metrics_from", "addresses or networks such as '127.0.0.1' or "
                 "'10.0.0.0/8'", source)  # fmt: skip
    if s.server.log_format not in LOG_FORMATS:
        fail("server.log_format", " or ".join(map(repr, LOG_FORMATS)), s.server.log_format)
    if s.database.synchronous.upper() not in SYNCHRONOUS_LEVELS:
        fail("database.synchronous", ", ".join(SYNCHRONOUS_LEVELS), s.database.synchronous)
    if not 0.05 <= s.scheduler.tick_seconds <= 3600:
        fail("scheduler.tick_seconds", "seconds between 0.05 and 3600", s.scheduler.tick_seconds)
    if not 1 <= s.scheduler.lease_seconds <= 60:
        fail("scheduler.lease_seconds", "seconds between 1 and 60", s.scheduler.lease_seconds)
    if not (s.backup.every_minutes == 0 or 1 <= s.backup.every_minutes <= 1440):
        fail("backup.every_minutes", "minutes from 1 to 1440 (or 0: no scheduled backups)",
             s.backup.every_minutes)  # fmt: skip
    if not s.backup.folder:
        fail("backup.folder", "a folder such as 'backups'", s.backup.folder)
    if not 1 <= s.backup.keep <= 10000:
        fail("backup.keep", "a number of snapshots per round from 1 to 10000", s.backup.keep)
    try:
        ZoneInfo(s.round.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        fail("round.timezone", "an IANA time zone such as 'Europe/Brussels'", s.round.timezone)
    if s.round.policy not in s.policy_names:
        fail("round.policy", " or ".join(map(repr, s.policy_names)), s.round.policy)
    if not 0 <= s.round.standard_interval_min <= 60:
        fail(
            "round.standard_interval_min",
            "minutes from 0 (from the draw) to 60",
            s.round.standard_interval_min,
        )
    if s.round.completions not in COMPLETIONS:
        fail("round.completions", " or ".join(map(repr, COMPLETIONS)), s.round.completions)
    if not 0 < s.positions.keep_hours <= KEEP_HOURS_MAX:
        fail("positions.keep_hours", "hours above 0 and at most 24 (how long the groups' "
             "positions are held, e.g. 6; to take none, leave the rounds' positions off)",
             s.positions.keep_hours)  # fmt: skip
    if s.reports.language not in REPORT_LANGUAGES:
        fail("reports.language", " or ".join(map(repr, REPORT_LANGUAGES)), s.reports.language)
    if not 1 <= s.reports.offenders_days <= 3660:
        fail("reports.offenders_days", "days from 1 to 3660", s.reports.offenders_days)
    a = s.allotment
    for size in (2, 3, 4):
        if size not in a.average_min:
            fail("allotment.average_min", f"a value for groups of {size}", a.average_min)
    for size, minutes in a.average_min.items():
        if not 1 <= size <= 8 or not 1 <= minutes <= 60:
            fail("allotment.average_min", "group sizes 1–8 mapped to 1–60 minutes", a.average_min)
    if not 0 <= a.par_split_min < min(a.average_min.values()):
        fail(
            "allotment.par_split_min", "minutes from 0 to less than every average", a.par_split_min
        )
    if not 1 < a.starters_gap_factor <= 10:
        fail(
            "allotment.starters_gap_factor",
            "a factor above 1 and at most 10",
            a.starters_gap_factor,
        )
    if not 0 <= a.gap_margin_min <= 30:
        fail("allotment.gap_margin_min", "minutes from 0 to 30", a.gap_margin_min)
    if not 0 <= a.report_allowance_min <= 15:
        fail("allotment.report_allowance_min", "minutes from 0 to 15", a.report_allowance_min)
    if not 0 <= a.position_allowance_min <= 15:
        fail("allotment.position_allowance_min", "minutes from 0 to 15", a.position_allowance_min)
    for key in ("single_player_column", "large_group_column"):
        col = getattr(a, key)
        if col not in a.average_min:
            fail(f"allotment.{key}", "a group size listed in allotment.average_min", col)
    for f in fields(HandicapSettings):
        if f.name in HANDICAP_READINGS:
            continue
        value = getattr(s.handicap, f.name)
        if not 0 <= value <= 100:
            fail(f"handicap.{f.name}", "a percentage from 0 to 100", value)
    if s.handicap.rounding not in HANDICAP_ROUNDINGS:
        fail(
            "handicap.rounding",
            " or ".join(map(repr, HANDICAP_ROUNDINGS))
            + " (the WHS playing handicap rounded once, or the course handicap rounded first)",
            s.handicap.rounding,
        )


# -- custom pace policies: [policies.NAME] -----------------------------------------------

#: The keys of a ``[policies.NAME]`` table and what each expects (for the messages).
POLICY_KEYS = {
    "base": "the name of a preset to start from: " + ", ".join(POLICIES),
    "description": "a string in quotes",
    "stroke_allowance_s": "seconds from 5 to 300",
    "extra_allowance_s": "seconds from 0 to 120",
    "stroke_ladder": 'a list of steps such as ["warning", "strokes:1", "disqualification"]',
    "match_ladder": 'a list of steps such as ["warning", "loss_of_hole", "disqualification"]',
    "repeat_last": "true or false",
    "notification_gate": "true or false",
    "faults_from": f"{policiesmod.BAD_TIMES!r} or {policiesmod.CHECKPOINTS!r}",
    "checkpoint_holes": "a whole number of holes from 1 to 18",
    "checkpoint_limit_min": "minutes from 1 to 600",
    "ball_search_min": "minutes from 1 to 10",
}

_POLICY_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")


def _policies(source: str, tables: Any) -> dict[str, policiesmod.Policy]:
    """Validate the ``[policies.NAME]`` tables into custom policies (docs/rules.md §6)."""
    if not isinstance(tables, dict):
        raise ConfigError(
            f"{source}: policies = {tables!r}: expected tables such as [policies.club]",
            field="policies",
        )
    out = {}
    for name, table in tables.items():
        key = f"policies.{name}"
        if not _POLICY_NAME.fullmatch(name):
            raise ConfigError(
                f"{source}: [{key}]: expected a name of lower-case letters, digits, - and _"
                " (at most 40, starting with a letter)",
                field=key,
            )
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: {key} = {table!r}: expected a table [{key}]", field=key)
        out[name] = _policy(source, name, table)
    return out


def _policy(source: str, name: str, table: dict[str, Any]) -> policiesmod.Policy:
    def fail(k: str, value: Any) -> ConfigError:
        return ConfigError(
            f"{source}: policies.{name}.{k} = {value!r}: expected {POLICY_KEYS[k]}",
            field=f"policies.{name}.{k}",
        )

    for k in table:
        if k not in POLICY_KEYS:
            raise ConfigError(
                f"{source}: unknown key policies.{name}.{k}; expected one of "
                + ", ".join(POLICY_KEYS),
                field=f"policies.{name}.{k}",
            )
    # a table named after a preset changes that preset's numbers
    base_name = table.get("base", name if name in POLICIES else "frbg")
    if base_name not in POLICIES:
        raise fail("base", base_name)
    changes: dict[str, Any] = {"name": name}

    def number(k: str, lo: float, hi: float) -> float | None:
        if k not in table:
            return None
        v = table[k]
        if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= v <= hi:
            raise fail(k, v)
        return float(v)

    def flag(k: str) -> None:
        if k in table:
            if not isinstance(table[k], bool):
                raise fail(k, table[k])
            changes[k] = table[k]

    if (v := number("stroke_allowance_s", 5, 300)) is not None:
        changes["stroke_allowance"] = timedelta(seconds=v)
    if (v := number("extra_allowance_s", 0, 120)) is not None:
        changes["extra_allowance"] = timedelta(seconds=v)
    if (v := number("checkpoint_limit_min", 1, 600)) is not None:
        changes["checkpoint_limit"] = timedelta(minutes=v)
    if (v := number("ball_search_min", 1, 10)) is not None:
        changes["ball_search"] = timedelta(minutes=v)
    if "checkpoint_holes" in table:
        v = table["checkpoint_holes"]
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 18:
            raise fail("checkpoint_holes", v)
        changes["checkpoint_holes"] = v
    for k in ("stroke_ladder", "match_ladder"):
        if k in table:
            ladder = table[k]
            if (
                not isinstance(ladder, list)
                or not ladder
                or not all(isinstance(step, str) for step in ladder)
            ):
                raise fail(k, ladder)
            for step in ladder:
                try:
                    policiesmod.parse_step(step, policy=name)
                except PaceError as e:
                    raise ConfigError(
                        f"{source}: policies.{name}.{k}: {e.message}", field=f"policies.{name}.{k}"
                    ) from None
            changes[k] = tuple(ladder)
    flag("repeat_last")
    flag("notification_gate")
    if "faults_from" in table:
        if table["faults_from"] not in (policiesmod.BAD_TIMES, policiesmod.CHECKPOINTS):
            raise fail("faults_from", table["faults_from"])
        changes["faults_from"] = table["faults_from"]
    if "description" in table:
        if not isinstance(table["description"], str):
            raise fail("description", table["description"])
        changes["description"] = table["description"]
    elif name != base_name:
        changes["description"] = f"custom policy based on {base_name}"
    try:
        return _replace(policiesmod.PRESETS[base_name], **changes)
    except PaceError as e:  # pragma: no cover - every value is checked above
        raise ConfigError(f"{source}: [policies.{name}]: {e.message}") from None
