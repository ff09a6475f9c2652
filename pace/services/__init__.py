"""The use cases: each module turns commands into events over the store and the rules.

| module | use cases |
| --- | --- |
| ``rounds`` | setup (imports of course, draw, times) and evaluation of a stored round |
| ``state`` | the folded round state every live service shares, and the feed's deltas |
| ``live`` | the live loop: the shared state's reads and appends, the snapshot, the feed, the tick |
| ``alerts`` | the alerts as events: raised, resolved, acknowledged (``AlertDesk``) |
| ``taps`` | the marshals' commands: taps, corrections, voids, sirens |
| ``validation`` | the checks every live command shares: group, player, instant, target |
| ``referees`` | the referees' commands: timing decisions, the shot clock, notifications, credits |
| ``referee_feed`` | what the referees' pages are shown live: timing, penalty rows, prompts |
| ``referee_views`` | the referees' views as data: timing, penalty rows, the policy |
| ``offline`` | a paper round judged from files alone (``pace penalties``, ``status --referee``) |
| ``access`` | access codes, the committee account, sessions, the code rate limit |
| ``commands`` | the typed commands the web edge parses payloads into |
| ``rows`` | the group rows the pages show |
| ``scoring`` | how a round is scored, and results from score cards (``pace results``) |
| ``scores`` | the scorers' commands, the cards and the live leaderboard |
| ``reports`` | the post-round reports, and who holds the field up (live) |
| ``backup`` | a round backed up and restored whole: its setup and its log |

Web, CLI and scheduler call these; these call ``pace.rules`` and ``pace.store``.
"""
