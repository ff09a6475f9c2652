"""The dashboard's feature: the referees acknowledge an alert, the committee records a siren.

``parsers`` turns their payloads into commands, ``feature`` routes them to ``AlertDesk`` and
``TapService``, ``pages`` serves the dashboard, ``messages`` holds its texts (the round's
status, snapshot and log it reads are the live round's, pace/web/http.py).
"""
