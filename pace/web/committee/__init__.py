"""The committee's console (issue 28): courses, a new round from its draw, the changes on the
day, and the console's home. Committee only (``access.ENDPOINTS``, ``access.EVENTS``).

``courses`` turns the course form into the course TOML that ``pace import course`` reads (one
validation), ``parsers`` the console's payloads into commands, ``pages`` serves the pages and
their two-step uploads, ``feature`` routes the change commands to ``ChangeService``.
"""
