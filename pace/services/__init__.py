"""The use cases: each module turns commands into events over the store and the rules.

| module | use cases |
| --- | --- |
| ``rounds`` | ``RoundService``: setup (imports of course, draw, times), a stored round evaluated |
| ``state`` | the folded round state every live service shares, and the feed's deltas |
| ``live`` | the live loop: the shared state's reads and appends, the snapshot, the feed, the tick |
| ``alerts`` | ``AlertDesk``: the alerts raised and resolved as events, acknowledgements taken |
| ``taps`` | the marshals' commands: taps, corrections, voids, sirens |
| ``validation`` | the checks every live command shares: group, player, instant, target |
| ``referees`` | the referees' commands: timing decisions, the shot clock, notifications, credits |
| ``referee_feed`` | the referees' live feed: each group judged, what changed told |
| ``referee_views`` | the shapes that feed sends: a group's timing, penalty rows, the policy |
| ``offline`` | a paper round judged from files alone (``pace penalties``, ``status --referee``) |
| ``access`` | access codes, the committee account, sessions, the code rate limit |
| ``commands`` | the typed commands the web edge parses payloads into |
| ``rows`` | the group rows the pages show |
| ``scoring`` | how a round is scored, and results from score cards (``pace results``) |
| ``scores`` | the scorers' commands, the cards and the live leaderboard |
| ``reports`` | the post-round reports, and who holds the field up (live) |
| ``backup`` | a round backed up and restored whole: its setup and its log |

Web, CLI and scheduler call these; these call ``pace.rules``, ``pace.store`` and, for the
shapes they share with the reports, ``pace.documents``.
"""
