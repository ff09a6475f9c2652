"""The scorers' feature: scores recorded and corrected, the cards, the public leaderboard.

``parsers`` turns their payloads into commands, ``feature`` routes them to ``ScoreService``
and follows the scoring rooms (``join_scores``, ``join_leaderboard``), ``announce`` tells the
pages which cards and leaderboards changed, ``pages`` serves the scorer's card, the
leaderboard, the results and the committee's scoring setting, ``messages`` their texts.
Rooms: ``scores:<round>`` (scorer pages: ``card_changed``) and ``leaderboard:<round>``
(anybody, no session: ``leaderboard_changed`` only, so no status, alert or penalty row ever
reaches it). Event names and shapes are in docs/protocol.md.
"""
