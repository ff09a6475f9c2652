"""The texts of the people's and clubs' pages (pace/web/clubs.py; issue 50), in English: the
French and Dutch are in pace/translations."""

from __future__ import annotations

from pace.i18n import Source

MESSAGES: dict[str, Source] = {
    "page.signin": "Sign in",
    "page.clubs": "Your clubs",
    "page.members": "People and access",
    "page.admin": "Clubs of this instance",
    "page.setup": "Your password",
    "role.admin": "Administrator",
    "home.account_signin": "Sign in with your account",
    "home.your_clubs": "Your clubs",
    "home.people": "People and access",
    "signin.title": "Sign in with your account",
    "signin.hint": (
        "Committee members and referees sign in as themselves. Marshals, scorers and viewers "
        "use the access code of their round."
    ),
    "signin.email": "E-mail",
    "signin.password": "Password",
    "signin.submit": "Sign in",
    "signin.code": "I have an access code",
    "signin.error.invalid_code": "This e-mail and password do not match an account.",
    "signin.error.rate_limited": "Too many wrong passwords: wait a minute before trying again.",
    "signin.error.forbidden": (
        "Your account holds no role in a club yet: ask your club's committee."
    ),
    "setup.title": "Choose your password",
    "setup.for": "Account of {name} ({email})",
    "setup.password": "New password (10 characters or more)",
    "setup.again": "The same password again",
    "setup.submit": "Save and sign in",
    "setup.gone": "This link has been used or has expired: ask whoever sent it for a new one.",
    "setup.error.invalid_payload": "Type a password of 10 characters or more, twice the same.",
    "clubs.title": "Your clubs",
    "clubs.current": "you are working in this club",
    "clubs.enter": "Work in this club",
    "clubs.admin": "Administer the instance",
    "clubs.none": "An access code opens its round only: it belongs to no club list.",
    "members.title": "People of {club}",
    "members.hint": (
        "Each committee member and referee signs in as themselves. A new person gets a link "
        "to choose a password, shown once here: print it or send it to them."
    ),
    "members.col.name": "Name",
    "members.col.email": "E-mail",
    "members.col.role": "Role",
    "members.change": "Change",
    "members.remove": "Remove from the club",
    "members.add": "Add a person",
    "members.name": "Name",
    "members.email": "E-mail",
    "members.role": "Role",
    "members.add_submit": "Add",
    "members.link": "Link for {name} to choose a password (shown this once):",
    "members.added": "{name} now holds this role; they sign in with their own password.",
    "members.you": "you",
    "log.title": "Access log",
    "log.col.at": "When (UTC)",
    "log.col.kind": "What",
    "log.col.who": "Who",
    "log.col.detail": "Detail",
    "log.col.remote": "From",
    "log.kind.sign_in": "signed in",
    "log.kind.sign_in_failed": "wrong password",
    "log.kind.role_changed": "role changed",
    "log.kind.password_set": "password chosen",
    "log.kind.club_made": "club made",
    "log.kind.club_renamed": "club renamed",
    "log.kind.admin_made": "administrator made",
    "log.role.none": "no role",
    "admin.title": "Clubs of this instance",
    "admin.hint": (
        "An administrator makes clubs and their first committee member, and sees none of a "
        "club's rounds, courses or people unless made a member of it."
    ),
    "admin.col.id": "Id",
    "admin.col.name": "Name",
    "admin.rename": "Rename",
    "admin.add": "A new club",
    "admin.club_id": "Id (letters, digits, hyphens: rgc-antwerp)",
    "admin.club_name": "Name",
    "admin.first_name": "First committee member: name",
    "admin.first_email": "First committee member: e-mail",
    "admin.add_submit": "Make the club",
    "admin.made": "Club {club} made.",
}
