"""The marshals' feature: a group's hole completed (a tap), its time corrected, a fact voided.

``parsers`` turns their payloads into commands, ``feature`` routes them to ``TapService``
(announced through pace/web/broadcast.py), ``messages`` holds the marshal page's texts. The
marshal page itself is served with the live round's pages (pace/web/http.py, endpoint
``pace.marshal_page``). A scorer voids a score, and a referee any fact, with the same
``void_event``.
"""
