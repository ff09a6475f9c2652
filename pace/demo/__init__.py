"""``pace demo``: a demo round played on an accelerated clock by simulated marshals.

- ``play``: how the round is played (pure, seeded): every group's completions and incidents;
- ``data``: the course and draw the demo imports, written as a committee's files, and the
  banner it prints;
- ``runner``: the live demo, served as ``pace serve`` serves, with its simulated marshals.
"""

from __future__ import annotations

from pace.demo.runner import DemoError, DemoOptions, run

__all__ = ["DemoError", "DemoOptions", "run"]
