"""Entry point of the ``pace`` console script and of ``python -m pace``.

``pace serve`` and ``pace demo`` run under gevent when ``server.async_mode`` says so; gevent
must patch the standard library before anything else imports it (docs/architecture.md,
"Choices and why"), so this module decides that before importing the CLI.
"""

from __future__ import annotations

import sys

SERVING_COMMANDS = ("serve", "demo")


def _wants_gevent(argv: list[str]) -> bool:
    if not argv or argv[0] not in SERVING_COMMANDS:
        return False
    from pace import config  # stdlib-only import chain: safe before patching

    try:
        settings = config.load()
    except config.ConfigError:
        return False  # the command itself reports the error
    return settings.server.async_mode == "gevent"


def main() -> None:
    """Run the pace command line."""
    if _wants_gevent(sys.argv[1:]):
        from gevent import monkey

        monkey.patch_all()
    from pace.cli import cli

    cli()


if __name__ == "__main__":
    main()
