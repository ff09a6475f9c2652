"""The clubs of a federation's instance and people's accounts (issue 50; docs/federation.md):
``pace club add|list|rename``, ``pace club export|delete|import`` (a club's data is the
club's: ``pace.services.clubdata``) and ``pace account add|role``.

A single-club instance needs none of them: its club (``default``) is implicit and its
committee signs in with the committee secret, as before.
"""

from __future__ import annotations

from typing import Any

import click

from pace.cli.common import db_option, fail, open_service
from pace.rules.errors import PaceError
from pace.store.records import CLUB_ROLES


def _accounts(service):  # type: ignore[no-untyped-def]
    from pace.services.access import AccessService
    from pace.services.accounts import Accounts

    access = AccessService(service.store, service.settings, service.clock)
    return Accounts(service.store, access, service.clock)


def _with_service(db: str | None, work: Any) -> Any:
    """Return ``work(service)`` on the store of ``db``, closed after; a refusal is the
    command's error (exit status 1, its message)."""
    service = open_service(db)
    try:
        return work(service)
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()


def _club_change(db: str | None, change: Any) -> None:
    """Make a change of a club (``change(accounts)`` returns the club) and print the club."""
    club = _with_service(db, lambda service: change(_accounts(service)))
    click.echo(f"club {club.id}\t{club.name}")


@click.group("club")
def club_group() -> None:
    """The clubs of the instance: each owns its courses, rounds, competitions, people.

    Example: pace club add rgc-antwerp "Royal Golf Club Antwerpen"
    """


@club_group.command("add")
@click.argument("id")
@click.argument("name")
@db_option
def club_add(id: str, name: str, db: str | None) -> None:
    """Make a club: its id (letters, digits, hyphens: used in commands) and its name.

    Example: pace club add rgc-antwerp "Royal Golf Club Antwerpen"
    """
    _club_change(db, lambda accounts: accounts.add_club(id, name, by="pace club add"))


@club_group.command("list")
@db_option
def club_list(db: str | None) -> None:
    """List the clubs: id, name, rounds, courses and people.

    Example: pace club list
    """
    service = open_service(db)
    try:
        store = service.store
        for club in store.clubs():
            rounds = len(store.list_rounds(club=club.id))
            courses = len(store.list_courses(club=club.id))
            people = len(store.members(club.id))
            click.echo(f"{club.id}\t{club.name}\t{rounds} rounds\t{courses} courses\t"
                       f"{people} people")  # fmt: skip
    finally:
        service.store.close()


@club_group.command("rename")
@click.argument("id")
@click.argument("name")
@db_option
def club_rename(id: str, name: str, db: str | None) -> None:
    """Give a club a new name (its id stays).

    Example: pace club rename rgc-antwerp "Royal Antwerp Golf Club"
    """
    _club_change(db, lambda accounts: accounts.rename_club(id, name, by="pace club rename"))


@click.group("account")
def account_group() -> None:
    """People's own accounts: a committee member or referee signs in as themselves.

    Example: pace account add anna@rgca.be "Anna Peeters" --club rgc-antwerp --role committee
    """


@account_group.command("add")
@click.argument("email")
@click.argument("name")
@click.option("--club", default=None, help="A club to give the person a role in.")
@click.option("--role", type=click.Choice(CLUB_ROLES), default=None, help="Their role there.")
@click.option("--admin", is_flag=True, help="An administrator of the instance (makes clubs).")
@click.option(
    "--url", default="http://localhost:5000", show_default=True,
    help="The server's address, for the one-time link that sets the password.",
)  # fmt: skip
@db_option
def account_add(email: str, name: str, club: str | None, role: str | None, admin: bool,
                url: str, db: str | None) -> None:  # fmt: skip
    """Make a person's account and print its one-time link to choose a password (valid 7
    days, once): print it or mail it to them.

    Example: pace account add anna@rgca.be "Anna Peeters" --club rgc-antwerp --role committee
    """
    from pace.services.accounts import setup_link

    if (club is None) != (role is None):
        raise click.UsageError("give --club and --role together")
    if club is not None and admin:
        raise click.UsageError("make an administrator in its own command")

    def add(service):  # type: ignore[no-untyped-def]
        accounts = _accounts(service)
        if club is not None:
            return accounts.add_member(club, email, name, role, by="pace account add")
        return accounts.add_account(email, name, admin=admin, by="pace account add")

    made = _with_service(db, add)
    click.echo(f"account {made.account.email}\t{made.account.name}")
    if made.token:
        click.echo(f"link to choose a password: {setup_link(url, made.token)}")


@account_group.command("role")
@click.argument("email")
@click.option("--club", required=True, help="The club.")
@click.option(
    "--role", type=click.Choice([*CLUB_ROLES, "none"]), required=True,
    help="The person's role there (none: takes it away; their sessions end).",
)  # fmt: skip
@db_option
def account_role(email: str, club: str, role: str, db: str | None) -> None:
    """Give a person another role in a club, or take it away (their sessions end).

    Example: pace account role anna@rgca.be --club rgc-antwerp --role referee
    """
    from pace.services.accounts import club_id
    from pace.services.accounts import email as canonical_email

    def change(service):  # type: ignore[no-untyped-def]
        person = service.store.account_by_email(canonical_email(email))
        if person is None:
            raise PaceError(f"no account for {email!r}", field="email", code="unknown_account")
        _accounts(service).set_role(club_id(club), person.id, None if role == "none" else role,
                                    by="pace account role")  # fmt: skip
        return person

    person = _with_service(db, change)
    click.echo(f"{person.email}\t{club}\t{role}")


# -- a club's data (issue 50, item 4): export, delete, import ------------------------------


def _holdings(held) -> str:  # type: ignore[no-untyped-def]
    c = held.counts
    return (
        f"{c['courses']} courses ({c['maps']} maps), {c['rounds']} rounds ({c['groups']} groups,"
        f" {c['players']} players, {c['events']} events), {c['competitions']} competitions,"
        f" {c['memberships']} people's roles ({c['accounts']} accounts with no other club),"
        f" {c['sessions']} sessions, {c['access_codes']} access codes,"
        f" {c['access_log']} access-log lines"
    )


def _names(label: str, names: tuple[str, ...], limit: int = 20) -> str | None:
    if not names:
        return None
    shown = ", ".join(repr(n) for n in names[:limit])
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return f"  {label}: {shown}{more}"


@club_group.command("export")
@click.argument("id")
@click.option(
    "--out", required=True, type=click.Path(dir_okay=False),
    help="The file to write (JSON Lines, one stored row a line; replaced if it exists).",
)  # fmt: skip
@db_option
def club_export(id: str, out: str, db: str | None) -> None:
    """Write everything a club owns to one file: its courses and maps, its rounds (setup,
    draw and whole log, exactly as stored), competitions, people (e-mail, name, role; never a
    password) and access log. Nothing is changed; pace club import reads the file.

    Example: pace club export rgc-antwerp --out rgc-antwerp.club.jsonl
    """
    import os
    import tempfile

    from pace.services.clubdata import export_club

    text = _with_service(db, lambda service: export_club(service.store, id, service.clock))
    # written whole or not at all, readable by its owner only (it holds people's e-mails)
    folder = os.path.dirname(os.path.abspath(out))
    try:
        fd, temporary = tempfile.mkstemp(prefix=".club-", suffix=".tmp", dir=folder)
    except OSError as e:
        raise click.ClickException(f"cannot write {out}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, out)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    lines = text.count("\n") - 2
    click.echo(f"club {id}: {lines} rows written to {out}")


@club_group.command("delete")
@click.argument("id")
@click.option("--yes", is_flag=True,
              help="Remove it; without --yes, only say what would be removed.")  # fmt: skip
@db_option
def club_delete(id: str, yes: bool, db: str | None) -> None:
    """Remove a club and everything it owns (its rounds and their logs, courses, maps,
    competitions, people's roles, sessions, access codes and access log), and nothing of
    another club's, in one transaction. Without --yes it only says what it would remove.
    The default club is emptied, never removed.

    Example: pace club delete rgc-antwerp --yes
    """
    from pace.services.clubdata import delete_club, removal

    held = _with_service(db, lambda service: (
        delete_club(service.store, id, service.clock, by="pace club delete") if yes
        else removal(service.store, id)
    ))  # fmt: skip
    verb = "removed" if yes else "would remove"
    if held.kept:
        verb = "emptied; removed" if yes else "would be emptied (its row kept): would remove"
    click.echo(f"club {held.club} ({held.name}) {verb}: {_holdings(held)}")
    for line in (_names("rounds", held.rounds), _names("courses", held.courses),
                 _names("competitions", held.competitions),
                 _names("accounts", held.accounts)):  # fmt: skip
        if line:
            click.echo(line)
    if not yes:
        click.echo("nothing removed: add --yes to remove it")


@club_group.command("import")
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.option("--as", "as_id", required=True, metavar="ID",
              help="The club it becomes here: made if missing, refused if it owns anything.")
@click.option("--name", default=None,
              help="The club's name here (default: the name it had; an existing club's kept).")
@db_option
def club_import(source: str, as_id: str, name: str | None, db: str | None) -> None:
    """Make a club's export, or another instance's single-club SQLite database, one club of
    this instance: all or nothing, its log unchanged (every event's id, instants, author
    and payload as they were). A course, round or competition name already taken here
    refuses it, naming every clash.

    Example: pace club import old-club.db --as rgc-antwerp --name "Royal Golf Club Antwerpen"
    """
    from pace.services.clubdata import import_club

    read, done = _with_service(db, lambda service: import_club(
        service.store, source, as_id, service.clock, name=name, by="pace club import"
    ))  # fmt: skip
    c = done.counts
    what = "an export" if read.kind == "export" else "a single-club database"
    click.echo(
        f"club {done.club} {'made' if done.made else 'filled'} from {what}: {c['courses']}"
        f" courses ({c['course_geometry']} maps), {c['rounds']} rounds ({c['events']} events),"
        f" {c['competitions']} competitions, {c['people']} people, {c['access_log']}"
        " access-log lines"
    )
    if done.new_accounts:
        click.echo(f"{len(done.new_accounts)} accounts made with no password yet; give each"
                   f" its link: pace account add EMAIL NAME --club {done.club} --role ROLE")
