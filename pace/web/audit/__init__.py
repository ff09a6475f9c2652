"""The audit's feature: a round's event log for the committee and referees, page and CSV.

``table`` makes its rows (each event in words and in raw columns), ``pages`` serves them,
``messages`` holds their texts.
"""
