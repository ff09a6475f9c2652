"""The clubs of a federation's instance and people's accounts (issue 50; docs/federation.md):
``pace club add|list|rename`` and ``pace account add|role``.

A single-club instance needs none of them: its club (``default``) is implicit and its
committee signs in with the committee secret, as before.
"""

from __future__ import annotations

import click

from pace.cli.common import db_option, fail, open_service
from pace.rules.errors import PaceError
from pace.store.records import CLUB_ROLES


def _accounts(db: str | None):  # type: ignore[no-untyped-def]
    from pace.services.access import AccessService
    from pace.services.accounts import Accounts

    service = open_service(db)
    access = AccessService(service.store, service.settings, service.clock)
    return service, Accounts(service.store, access, service.clock)


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
    service, accounts = _accounts(db)
    try:
        club = accounts.add_club(id, name, by="pace club add")
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    click.echo(f"club {club.id}\t{club.name}")


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
    service, accounts = _accounts(db)
    try:
        club = accounts.rename_club(id, name, by="pace club rename")
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    click.echo(f"club {club.id}\t{club.name}")


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
    service, accounts = _accounts(db)
    try:
        if club is not None:
            made = accounts.add_member(club, email, name, role, by="pace account add")
            if admin:
                raise click.UsageError("make an administrator in its own command")
        else:
            made = accounts.add_account(email, name, admin=admin, by="pace account add")
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
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

    service, accounts = _accounts(db)
    try:
        person = service.store.account_by_email(canonical_email(email))
        if person is None:
            raise PaceError(f"no account for {email!r}", field="email", code="unknown_account")
        accounts.set_role(club_id(club), person.id, None if role == "none" else role,
                          by="pace account role")  # fmt: skip
    except PaceError as e:
        raise fail(e) from None
    finally:
        service.store.close()
    click.echo(f"{person.email}\t{club}\t{role}")
