"""The pure rules core: no Flask, no SQLite, no scheduler, no clock.

Every function takes the round's setup, its facts and ``now`` as arguments.
"""

from pace.rules.allotted import (
    column_for,
    cumulative_allotments,
    hole_allotment,
    playing_order,
    round_allotment,
)
from pace.rules.model import (
    Course,
    Group,
    Hole,
    HoleCompletion,
    PaceSettings,
    Player,
    RoundFacts,
    RoundSetup,
    Status,
    Suspension,
    TimeCredit,
)
from pace.rules.position import (
    Episode,
    FieldPlan,
    FieldStatus,
    GroupStatus,
    episodes,
    evaluate_field,
    plan_field,
    standard_interval,
)

__all__ = [
    "Course",
    "Episode",
    "FieldPlan",
    "FieldStatus",
    "Group",
    "GroupStatus",
    "Hole",
    "HoleCompletion",
    "PaceSettings",
    "Player",
    "RoundFacts",
    "RoundSetup",
    "Status",
    "Suspension",
    "TimeCredit",
    "column_for",
    "cumulative_allotments",
    "episodes",
    "evaluate_field",
    "hole_allotment",
    "plan_field",
    "playing_order",
    "round_allotment",
    "standard_interval",
]
