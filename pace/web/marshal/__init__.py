"""The marshals' feature: a group's hole completed (a tap), its time corrected, a fact voided.

``parsers`` turns their payloads into commands, ``feature`` routes them to ``TapService``
(announced through pace/web/broadcast.py), ``pages`` serves the marshal page, ``messages``
holds its texts. A scorer voids a score, and a referee any fact, with the same
``void_event``.
"""
