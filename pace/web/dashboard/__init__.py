"""The dashboard's feature: the referees acknowledge an alert, the committee records a siren.

``parsers`` turns their payloads into commands, ``feature`` routes them to ``AlertDesk`` and
``TapService``, ``messages`` holds the dashboard's texts. The dashboard page itself is served
with the live round's pages (pace/web/http.py, endpoint ``pace.dashboard_page``).
"""
