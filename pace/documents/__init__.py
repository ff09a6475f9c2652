"""The plain values pace's results are written as: the JSON shapes shared by the services (what
the pages get) and the reports (what the files hold).

Pure like the rules and importing only them, so both the services and the reports may import
it, and neither imports the other for a shape: ``values`` (durations in minutes, instants),
``status`` (a group's entry of the status document), ``scoring`` (a counted penalty, the
live leaderboard and a group's card), ``report`` (the report's round and who held the field
up).
"""
