"""The reports' feature: the round's report, its charts and exports, its letters, the repeat
offenders, and the PDFs built by report jobs.

``pages`` serves them (rendered by ``pace.reports``), ``jobs`` has the PDFs built by a warm
child process, ``messages`` holds their texts.
"""
