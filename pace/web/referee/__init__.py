"""The referees' feature: timing decisions, the shot clock, notifications, time credits.

``parsers`` turns their payloads into commands, ``feature`` routes the commands to
``RefereeService`` and acks them, ``announce`` broadcasts what they stored, ``pages`` serves
the shot clock, the pace board and the round's penalties, ``messages`` their texts. Event
names and shapes are in docs/protocol.md.
"""
