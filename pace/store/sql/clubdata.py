"""A club's data as the rows it owns: read, removed and written whole, each in one
transaction (issue 50, item 4; docs/federation.md, "A club's data").

A mixin of :class:`pace.store.sql.repo.SqlStore`, on either engine.

- ``club_rows(club)`` reads every row the club owns, on one snapshot, as plain values exactly
  as stored (the JSON columns as their stored text, so an event's ``by`` and ``payload`` come
  back byte for byte): its courses and their maps, its rounds with their draw and their whole
  log in ``seq`` order, its competitions, its people (e-mail, name, role; never a password
  hash or a setup link) and its access-log lines (the account named by its e-mail: an
  account's number is this instance's).
- ``delete_club(club, ...)`` removes all of it and nothing of another club's, in one
  transaction. The log is append-only by m001's triggers: the transaction checks that the
  triggers refusing a DELETE on ``events`` are m001's, drops them, deletes the club's events,
  creates them again from their definition as the database held it and checks that the log's
  triggers read back as they were before committing; any failure rolls all of it back,
  triggers included (both engines' DDL is transactional).
- ``import_club_rows(club, rows, ...)`` writes a club's rows as one new club's, in one
  transaction, after checking (in it, before any write) that no course, round, competition or
  event id of them is taken on the instance; every event keeps its id, type, round, at,
  recorded_at, by and payload as given (its ``seq`` is this instance's).

The sections of ``ClubRows`` and their columns are ``SECTIONS``: the export file
(``pace.formats.clubfile``) carries the same ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pace.rules.errors import SetupError
from pace.store.errors import ClubExistsError, UnknownClubError
from pace.store.instants import iso
from pace.store.records import DEFAULT_CLUB
from pace.store.sql.dialect import Database, Dialect, Transaction
from pace.store.sql.schema import m001_initial

#: a club's rows as plain values: section → rows (each a mapping column → value)
ClubRows = dict[str, list[dict[str, Any]]]

#: what a club owns, section by section, with the columns each row carries, in the order
#: they are written back (a section's rows refer only to rows of the sections before it).
#: ``club`` is never a column: it is the club's. ``events.seq`` is carried (the log's order
#: as stored) and never written: the instance that imports numbers its own.
SECTIONS: dict[str, tuple[str, ...]] = {
    "courses": ("name", "data", "imported_at", "slope", "rating"),
    "course_geometry": ("course", "data", "imported_at"),
    "rounds": ("name", "course", "day", "timezone", "policy", "standard_interval_s",
               "created_at", "play", "format", "scoring", "net", "allowance", "completions",
               "language", "rounding", "gross_par_adjustment", "positions"),
    "groups": ("round", "id", "position", "start", "tee"),
    "players": ("round", "group_id", "position", "name", "handicap", "side", "club", "class",
                "match", "tees", "gender", "language"),
    "competitions": ("name", "scoring", "cut_after", "cut_top", "cut_within", "created_at"),
    "competition_rounds": ("competition", "position", "round"),
    "events": ("seq", "id", "type", "round", "at", "recorded_at", "by", "payload"),
    "people": ("email", "name", "role", "created_at", "disabled_at"),
    "access_log": ("at", "account", "who", "kind", "detail", "remote"),
}  # fmt: skip

#: the club's rounds and courses, as sub-queries of one parameter (the club's id)
_ROUNDS = "SELECT name FROM rounds WHERE club = ?"
_COURSES = "SELECT name FROM courses WHERE club = ?"
_COMPETITIONS = "SELECT name FROM competitions WHERE club = ?"
_CODES = f"SELECT id FROM access_codes WHERE round IN ({_ROUNDS})"


def _columns(section: str, prefix: str = "") -> str:
    return ", ".join(f"{prefix}{c}" for c in SECTIONS[section])


@dataclass(frozen=True)
class ClubHoldings:
    """What a club owns, counted (what ``delete_club`` removes, or would)."""

    club: str
    name: str
    #: how many rows of each kind: courses, maps, rounds, groups, players, events,
    #: competitions, memberships, accounts (left with no club: removed too), sessions,
    #: access_codes, access_log
    counts: dict[str, int]
    rounds: tuple[str, ...] = ()
    courses: tuple[str, ...] = ()
    competitions: tuple[str, ...] = ()
    #: the e-mails of the accounts removed with the club (no role in another club, not an
    #: administrator)
    accounts: tuple[str, ...] = ()
    #: whether the club's own row stays (``default``: the single-club instance's club)
    kept: bool = False


@dataclass(frozen=True)
class ImportedClub:
    """What ``import_club_rows`` wrote: the club, whether it was made, rows per section, and
    the e-mails of the accounts it made (no password yet)."""

    club: str
    made: bool
    counts: dict[str, int]
    new_accounts: tuple[str, ...] = field(default=())


class ClubNameClashError(SetupError):
    """A club's course, round, competition or event id is taken on this instance already."""

    code = "name_taken"


def log_guards(dialect: Dialect) -> list[tuple[str, str]]:
    """Return m001's triggers that refuse a DELETE on the log: (name, its CREATE statement as
    m001 runs it)."""
    guards = []
    for sql in m001_initial(dialect):
        m = re.match(r"\s*CREATE TRIGGER (\w+) BEFORE ([A-Z ]+?) ON events\b", sql)
        if m and "DELETE" in m[2].split():
            guards.append((m[1], sql))
    if not guards:  # m001 is never edited; this guards the parsing above
        raise RuntimeError("m001 has no trigger refusing a DELETE on events")
    return guards


def lifted_guards(tx: Transaction, dialect: Dialect) -> list[tuple[str, str]]:
    """Return the log's triggers that refuse a DELETE as the database holds them: (name, the
    statement that creates it again exactly as it is). Each is checked to be m001's first
    (SQLite: its stored text, spaces aside, is m001's statement; it keeps the indentation of
    the release that made the database, which the statement returned keeps too. PostgreSQL:
    its definition, which the server writes in its own words, runs m001's function before a
    DELETE of each row); a missing or altered one refuses (``SetupError``)."""
    held = {row[0]: row[1] for row in log_triggers(tx, dialect)}
    guards = []
    for name, made in log_guards(dialect):
        stored = held.get(name)
        if stored is None:
            raise SetupError(
                f"the event log's append-only trigger {name} is missing: this database was"
                " changed by hand; nothing was removed", field="club", code="log_unguarded",
            )  # fmt: skip
        if dialect.name == "postgresql":
            m = re.fullmatch(
                rf"CREATE TRIGGER {name} BEFORE ([A-Z ]+) ON (?:\w+\.)?events FOR EACH ROW"
                r" EXECUTE FUNCTION (?:\w+\.)?pace_events_append_only\(\)",
                stored,
            )
            ok = m is not None and "DELETE" in m[1].split()
        else:
            ok = " ".join(stored.split()) == " ".join(made.split())
        if not ok:
            raise SetupError(
                f"the event log's append-only trigger {name} is not the one pace made: this"
                " database was changed by hand; nothing was removed",
                field="club", code="log_unguarded",
            )  # fmt: skip
        guards.append((name, stored))
    return guards


def log_triggers(tx: Transaction, dialect: Dialect) -> list[tuple[str, ...]]:
    """Return the triggers on ``events`` as the engine reads them back: name and definition
    (PostgreSQL: and whether enabled), by name."""
    if dialect.name == "postgresql":
        rows = tx.execute(
            "SELECT tgname::text, pg_get_triggerdef(oid), tgenabled::text FROM pg_trigger"
            " WHERE tgrelid = 'events'::regclass AND NOT tgisinternal ORDER BY tgname::text"
        ).fetchall()
    else:
        rows = tx.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"
            " ORDER BY name"
        ).fetchall()
    return [tuple(str(v) for v in r) for r in rows]


def _count(tx: Transaction, sql: str, params: Sequence[object]) -> int:
    row = tx.execute(sql, list(params)).fetchone()
    return int(row[0]) if row else 0


class ClubData:
    """A club's rows read, removed and written whole (``SqlStore`` inherits them)."""

    _db: Database
    dialect: Dialect

    # -- what clubs own ---------------------------------------------------------------------

    def club_owners(self) -> dict[str, int]:
        """The clubs that own anything (a course, round, competition or role): club id →
        how many such rows."""
        owned: dict[str, int] = {}
        with self._db.read() as tx:
            for table in ("courses", "rounds", "competitions", "memberships"):
                for club, n in tx.execute(f"SELECT club, count(*) FROM {table} GROUP BY club"):
                    owned[str(club)] = owned.get(str(club), 0) + int(n)
        return owned

    def club_holdings(self, club: str) -> ClubHoldings:
        """What ``club`` owns, counted; ``UnknownClubError`` if there is no such club."""
        with self._db.read() as tx:
            return self._holdings(tx, club)

    def _holdings(self, tx: Transaction, club: str) -> ClubHoldings:
        row = tx.execute("SELECT id, name FROM clubs WHERE id = ?", [club]).fetchone()
        if row is None:
            raise UnknownClubError(f"no club {club[:40]!r} on this instance", field="club")
        b = self.dialect.binary
        one = [club]

        def names(sql: str) -> tuple[str, ...]:
            return tuple(str(r[0]) for r in tx.execute(sql, one))

        counts = {
            "courses": _count(tx, "SELECT count(*) FROM courses WHERE club = ?", one),
            "maps": _count(tx, f"SELECT count(*) FROM course_geometry WHERE course IN"
                               f" ({_COURSES})", one),
            "rounds": _count(tx, "SELECT count(*) FROM rounds WHERE club = ?", one),
            "groups": _count(tx, f"SELECT count(*) FROM groups WHERE round IN ({_ROUNDS})", one),
            "players": _count(tx, f"SELECT count(*) FROM players WHERE round IN ({_ROUNDS})",
                              one),
            "events": _count(tx, f"SELECT count(*) FROM events WHERE round IN ({_ROUNDS})", one),
            "competitions": _count(tx, "SELECT count(*) FROM competitions WHERE club = ?", one),
            "memberships": _count(tx, "SELECT count(*) FROM memberships WHERE club = ?", one),
            "sessions": _count(tx, *self._sessions_where(club, "count(*)")),
            "access_codes": _count(tx, f"SELECT count(*) FROM access_codes WHERE round IN"
                                       f" ({_ROUNDS})", one),
            "access_log": _count(tx, "SELECT count(*) FROM access_log WHERE club = ?", one),
        }  # fmt: skip
        accounts = tuple(
            str(r[1]) for r in tx.execute(self._orphans_sql(), one)
        )  # fmt: skip
        counts["accounts"] = len(accounts)
        return ClubHoldings(
            club, str(row[1]), counts,
            rounds=names(f"SELECT name FROM rounds WHERE club = ? ORDER BY name{b}"),
            courses=names(f"SELECT name FROM courses WHERE club = ? ORDER BY name{b}"),
            competitions=names(f"SELECT name FROM competitions WHERE club = ? ORDER BY name{b}"),
            accounts=accounts, kept=club == DEFAULT_CLUB,
        )  # fmt: skip

    @staticmethod
    def _sessions_where(club: str, what: str) -> tuple[str, list[object]]:
        """The club's sessions: acting in it, on one of its rounds, or opened by a code of
        one of its rounds (and for ``default``, the sessions opened before clubs, m014,
        which act in it: no club, not an administrator's)."""
        before_clubs = " OR (club IS NULL AND role <> 'admin')" if club == DEFAULT_CLUB else ""
        return (
            f"SELECT {what} FROM sessions WHERE club = ? OR round IN ({_ROUNDS})"
            f" OR code IN ({_CODES}){before_clubs}",
            [club, club, club],
        )

    def _orphans_sql(self) -> str:
        """The accounts (id, e-mail) holding a role in the club (one parameter) and in no
        other, and not administrators: removed with the club."""
        return (
            "SELECT a.id, a.email FROM accounts a JOIN memberships m ON m.account = a.id"
            " WHERE m.club = ? AND a.admin = 0 AND NOT EXISTS (SELECT 1 FROM memberships o"
            " WHERE o.account = a.id AND o.club <> m.club)"
            f" ORDER BY a.email{self.dialect.binary}"
        )

    # -- reading a club's rows --------------------------------------------------------------

    def club_rows(self, club: str) -> tuple[dict[str, str], ClubRows]:
        """Return the club (id, name, created_at) and every row it owns, on one snapshot;
        ``UnknownClubError`` if there is no such club."""
        b = self.dialect.binary
        one = [club]
        queries = {
            "courses": f"SELECT {_columns('courses')} FROM courses WHERE club = ?"
                       f" ORDER BY name{b}",
            "course_geometry": f"SELECT {_columns('course_geometry')} FROM course_geometry"
                               f" WHERE course IN ({_COURSES}) ORDER BY course{b}",
            "rounds": f"SELECT {_columns('rounds')} FROM rounds WHERE club = ? ORDER BY name{b}",
            "groups": f"SELECT {_columns('groups')} FROM groups WHERE round IN ({_ROUNDS})"
                      f" ORDER BY round{b}, position",
            "players": f"SELECT {_columns('players')} FROM players WHERE round IN ({_ROUNDS})"
                       f" ORDER BY round{b}, group_id{b}, position",
            "competitions": f"SELECT {_columns('competitions')} FROM competitions"
                            f" WHERE club = ? ORDER BY name{b}",
            "competition_rounds": f"SELECT {_columns('competition_rounds')} FROM"
                                  f" competition_rounds WHERE competition IN ({_COMPETITIONS})"
                                  f" ORDER BY competition{b}, position",
            "events": f"SELECT {_columns('events')} FROM events WHERE round IN ({_ROUNDS})"
                      " ORDER BY seq",
            "people": "SELECT a.email, a.name, m.role, a.created_at, a.disabled_at"
                      " FROM memberships m JOIN accounts a ON a.id = m.account"
                      f" WHERE m.club = ? ORDER BY a.email{b}",
            "access_log": "SELECT l.at, a.email, l.who, l.kind, l.detail, l.remote"
                          " FROM access_log l LEFT JOIN accounts a ON a.id = l.account"
                          " WHERE l.club = ? ORDER BY l.id",
        }  # fmt: skip
        assert list(queries) == list(SECTIONS)
        with self._db.read() as tx:
            row = tx.execute("SELECT id, name, created_at FROM clubs WHERE id = ?", one).fetchone()
            if row is None:
                raise UnknownClubError(f"no club {club[:40]!r} on this instance", field="club")
            rows: ClubRows = {}
            for section, sql in queries.items():
                names = SECTIONS[section]
                rows[section] = [dict(zip(names, r, strict=True)) for r in tx.execute(sql, one)]
        return {"id": str(row[0]), "name": str(row[1]), "created_at": str(row[2])}, rows

    # -- removing a club --------------------------------------------------------------------

    def delete_club(self, club: str, *, at: datetime, by: str = "") -> ClubHoldings:
        """Remove ``club`` and everything it owns, in one transaction; return what was
        removed. Nothing of another club's is touched. The ``default`` club (the single-club
        instance's, where the committee secret acts) is emptied and its row kept."""
        for _ in range(5):
            with self._db.read(snapshot=False) as tx:
                rounds = {str(r[0]) for r in tx.execute(_ROUNDS, [club])}
            # the club's rounds are locked as their appends are (PostgreSQL's advisory locks),
            # before the log's table is: no tap of theirs lands in between
            with self._db.write(*rounds) as tx:
                now = {str(r[0]) for r in tx.execute(_ROUNDS, [club])}
                if not now <= rounds:
                    continue  # a round made meanwhile: lock it too
                return self._delete(tx, club, at=at, by=by)
        raise SetupError(f"club {club!r} keeps getting new rounds; try again", field="club")

    def _delete(self, tx: Transaction, club: str, *, at: datetime, by: str) -> ClubHoldings:
        held = self._holdings(tx, club)
        one = [club]
        # a row of another club that names one of this club's would be left pointing nowhere:
        # refused (pace never makes one; a hand-made database might)
        crossing = tx.execute(
            f"SELECT 'competition ' || c.name FROM competition_rounds cr JOIN competitions c"
            f" ON c.name = cr.competition WHERE cr.round IN ({_ROUNDS}) AND c.club <> ?"
            f" UNION SELECT 'round ' || r.name FROM rounds r WHERE r.course IN ({_COURSES})"
            " AND r.club <> ? ORDER BY 1",
            [club, club, club, club],
        ).fetchall()
        if crossing:
            names = ", ".join(str(r[0]) for r in crossing[:20])
            raise SetupError(
                f"club {club!r} cannot be removed: another club's {names} uses its rounds or"
                " courses", field="club", code="club_in_use",
            )  # fmt: skip
        orphans = [int(r[0]) for r in tx.execute(self._orphans_sql(), one)]

        # the log: its append-only guards are lifted for this one statement, in this
        # transaction, and put back exactly as m001 made them (as the database holds them)
        before = log_triggers(tx, self.dialect)
        guards = lifted_guards(tx, self.dialect)
        for name, _ in guards:
            on = " ON events" if self.dialect.name == "postgresql" else ""
            tx.execute(f"DROP TRIGGER {name}{on}")
        tx.execute(f"DELETE FROM events WHERE round IN ({_ROUNDS})", one)
        for _, sql in guards:
            tx.execute(sql)
        after = log_triggers(tx, self.dialect)
        if after != before:
            raise RuntimeError(
                f"the log's triggers did not read back as before: {before!r} → {after!r}"
            )  # raised inside the transaction: rolled back, triggers and all

        sessions_sql, params = self._sessions_where(club, "token_hash")
        tx.execute(f"DELETE FROM sessions WHERE token_hash IN ({sessions_sql})", params)
        tx.execute(f"DELETE FROM access_codes WHERE round IN ({_ROUNDS})", one)
        tx.execute(
            "DELETE FROM competition_rounds WHERE competition IN"
            f" ({_COMPETITIONS})", one
        )  # fmt: skip
        tx.execute("DELETE FROM competitions WHERE club = ?", one)
        tx.execute(f"DELETE FROM players WHERE round IN ({_ROUNDS})", one)
        tx.execute(f"DELETE FROM groups WHERE round IN ({_ROUNDS})", one)
        tx.execute("DELETE FROM rounds WHERE club = ?", one)
        tx.execute(f"DELETE FROM course_geometry WHERE course IN ({_COURSES})", one)
        tx.execute("DELETE FROM courses WHERE club = ?", one)
        tx.execute("DELETE FROM memberships WHERE club = ?", one)
        for account in orphans:
            # its sessions in this club are gone above; it holds no role anywhere else
            tx.execute("DELETE FROM accounts WHERE id = ? AND admin = 0 AND NOT EXISTS"
                       " (SELECT 1 FROM memberships WHERE account = ?)",
                       [account, account])  # fmt: skip
        tx.execute("DELETE FROM access_log WHERE club = ?", one)
        if club != DEFAULT_CLUB:
            tx.execute("DELETE FROM clubs WHERE id = ?", one)
        c = held.counts
        what = "emptied" if club == DEFAULT_CLUB else "removed"
        tx.execute(
            "INSERT INTO access_log (at, club, account, who, kind, detail, remote)"
            " VALUES (?, NULL, NULL, ?, 'club_deleted', ?, '')",
            [iso(at, "at"), by[:200],
             f"{club}: {held.name} {what} ({c['rounds']} rounds, {c['events']} events,"
             f" {c['courses']} courses, {c['competitions']} competitions,"
             f" {c['memberships']} people)"[:500]],
        )  # fmt: skip
        return held

    # -- writing a club's rows --------------------------------------------------------------

    def import_club_rows(
        self,
        club: str,
        name: str | None,
        rows: Mapping[str, Sequence[Mapping[str, Any]]],
        *,
        at: datetime,
        by: str = "",
        detail: str = "",
    ) -> ImportedClub:
        """Write ``rows`` (``SECTIONS``) as club ``club``'s, in one transaction: the club is
        made (named ``name``) if missing, refused if it owns anything already; any course,
        round, competition or event id of ``rows`` already stored on this instance refuses the
        whole import, naming every clash, before anything is written. ``name`` renames an
        existing (empty) club. Accounts are matched by e-mail; a person without one gets an
        account with no password (``new_accounts``)."""
        sections = {s: list(rows.get(s, ())) for s in SECTIONS}
        rounds = sorted({str(r["name"]) for r in sections["rounds"]})
        with self._db.write(*rounds) as tx:
            existing = tx.execute("SELECT name FROM clubs WHERE id = ?", [club]).fetchone()
            if existing is not None:
                owned = [
                    f"{n} {what}" for what, table in (
                        ("courses", "courses"), ("rounds", "rounds"),
                        ("competitions", "competitions"), ("people", "memberships"),
                    )
                    if (n := _count(tx, f"SELECT count(*) FROM {table} WHERE club = ?", [club]))
                ]  # fmt: skip
                if owned:
                    raise ClubExistsError(
                        f"club {club!r} exists and already owns {', '.join(owned)}: import"
                        " into a new club id (nothing was written)", field="club")  # fmt: skip
            self._refuse_clashes(tx, sections)
            if existing is None:
                tx.execute("INSERT INTO clubs (id, name, created_at) VALUES (?, ?, ?)",
                           [club, name or club, iso(at, "created_at")])  # fmt: skip
            elif name is not None and name != existing[0]:
                tx.execute("UPDATE clubs SET name = ? WHERE id = ?", [name, club])

            def insert(table: str, columns: Sequence[str], values: list[list[Any]]) -> None:
                if values:
                    marks = ", ".join("?" for _ in columns)
                    tx.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                                   values)  # fmt: skip

            for section, table in (("courses", "courses"), ("rounds", "rounds"),
                                   ("competitions", "competitions")):  # fmt: skip
                columns = (*SECTIONS[section], "club")
                insert(table, columns,
                       [[r[c] for c in SECTIONS[section]] + [club] for r in sections[section]])
            # (geometry after courses, draws after rounds: the order of their references)
            for section in ("course_geometry", "groups", "players", "competition_rounds"):
                columns = SECTIONS[section]
                insert(section, columns, [[r[c] for c in columns] for r in sections[section]])
            logged = SECTIONS["events"][1:]  # every column but seq: this instance numbers them
            events = sorted(sections["events"], key=lambda r: int(r["seq"]))
            insert("events", logged, [[r[c] for c in logged] for r in events])

            accounts, made = self._people(tx, club, sections["people"], at)
            # the access log names former members too: their accounts, where this instance
            # has one of that e-mail (else the line keeps only its ``who``)
            for address in sorted({str(r["account"]) for r in sections["access_log"]
                                   if r["account"]} - set(accounts)):  # fmt: skip
                found = tx.execute("SELECT id FROM accounts WHERE email = ?", [address]).fetchone()
                if found is not None:
                    accounts[address] = int(found[0])
            log = [[r["at"], club, accounts.get(r["account"]) if r["account"] else None,
                    r["who"], r["kind"], r["detail"], r["remote"]]
                   for r in sections["access_log"]]  # fmt: skip
            insert("access_log", ("at", "club", "account", "who", "kind", "detail", "remote"),
                   log)  # fmt: skip
            counts = {s: len(v) for s, v in sections.items()}
            tx.execute(
                "INSERT INTO access_log (at, club, account, who, kind, detail, remote)"
                " VALUES (?, ?, NULL, ?, 'club_imported', ?, '')",
                [iso(at, "at"), club, by[:200],
                 (f"{detail}: " if detail else "") + f"{counts['rounds']} rounds,"
                 f" {counts['events']} events, {counts['courses']} courses,"
                 f" {counts['people']} people"[:500]],
            )  # fmt: skip
        return ImportedClub(club, existing is None, counts, tuple(made))

    def _refuse_clashes(
        self, tx: Transaction, sections: Mapping[str, Sequence[Mapping[str, Any]]]
    ) -> None:
        """Refuse, naming every one, the names (and event ids) already stored here."""
        clashes: list[str] = []
        for what, table, key, column in (
            ("course", "courses", "name", "name"),
            ("round", "rounds", "name", "name"),
            ("competition", "competitions", "name", "name"),
            ("event", "events", "id", "id"),
        ):
            wanted = sorted({str(r[key]) for r in sections[table]})
            taken: list[str] = []
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ", ".join("?" for _ in chunk)
                found = tx.execute(
                    f"SELECT {column} FROM {table} WHERE {column} IN ({marks})", chunk
                )
                taken += [str(r[0]) for r in found]
            taken.sort()
            if what == "event" and taken:
                # an event id is unique over the instance too; the ids say little to a person
                shown = ", ".join(repr(t) for t in taken[:3])
                more = ", …" if len(taken) > 3 else ""
                clashes.append(f"{len(taken)} event id(s) ({shown}{more})")
            else:
                clashes += [f"{what} {t!r}" for t in taken]
        if clashes:
            raise ClubNameClashError(
                f"taken on this instance already: {', '.join(clashes)}; names are the"
                " instance's, so nothing was imported (rename them at the source, or remove"
                " the club that holds them)",
                field="name",
            )

    def _people(
        self, tx: Transaction, club: str, people: Sequence[Mapping[str, Any]], at: datetime
    ) -> tuple[dict[str, int], list[str]]:
        """Give each person their role in ``club``: their account (by e-mail) if there is
        one, else a new one with no password. Return e-mail → account for every person, and
        the e-mails of the accounts made."""
        accounts: dict[str, int] = {}
        made: list[str] = []
        for person in people:
            address = str(person["email"])
            row = tx.execute("SELECT id FROM accounts WHERE email = ?", [address]).fetchone()
            if row is None:
                row = tx.execute(
                    "INSERT INTO accounts (email, name, password, admin, created_at, disabled_at)"
                    " VALUES (?, ?, NULL, 0, ?, ?) RETURNING id",
                    [address, person["name"], person["created_at"] or iso(at, "created_at"),
                     person["disabled_at"]],
                ).fetchone()  # fmt: skip
                made.append(address)
            accounts[address] = int(row[0])
            tx.execute("INSERT INTO memberships (account, club, role) VALUES (?, ?, ?)",
                       [int(row[0]), club, person["role"]])  # fmt: skip
        return accounts, made
