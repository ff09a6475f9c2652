"""The use cases: each module turns commands into events over the store and the rules.

| module | use cases |
| --- | --- |
| ``rounds`` | setup (imports of course, draw, times) and evaluation of a stored round |
| ``taps`` | the live loop: marshals' taps, corrections, voids, sirens, alerts, the tick |
| ``referees`` | timing decisions, the shot clock, notifications, credits, penalties |
| ``referee_views`` | what the referees' pages are told: timing, penalty rows, the policy |
| ``offline`` | a paper round judged from files alone (``pace penalties``, ``status --referee``) |
| ``access`` | access codes, the committee account, sessions, the code rate limit |
| ``commands`` | the typed commands the web edge parses payloads into |
| ``rows`` | the group rows the pages show |
| ``scoring`` | results from score cards (``pace results``; the leaderboard will join here) |

Web, CLI and scheduler call these; these call ``pace.rules`` and ``pace.store``.
"""
