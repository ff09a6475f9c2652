"""Invariants of the scoring, checked with Hypothesis (docs/rules.md §10, §10.1).

- Stableford points are never negative on a hole;
- stroke-play gross is the sum of the holes' strokes plus the penalty strokes;
- a match's result agrees with its hole-by-hole states.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pace.rules.model import Hole, Player
from pace.rules.scoring import Score, Stableford, score_round
from pace.rules.scoring.match import state_text
from tests.builders import card, counted, draw_group, scoring_course

FAST = settings(max_examples=150, deadline=None, database=None)
COURSE = scoring_course()
HOLES = COURSE.hole_numbers
KINDS = ("strokes", "points")

strokes = st.integers(1, 20)
maybe_strokes = st.one_of(st.none(), strokes)


@FAST
@given(maybe_strokes, st.integers(3, 6), st.integers(-2, 5), st.booleans())
def test_stableford_points_are_never_negative(s, par, received, net):
    assert Stableford().hole_value(s, Hole(1, par), received, net) >= 0


@FAST
@given(
    st.lists(st.integers(1, 12), min_size=18, max_size=18),
    st.lists(
        st.tuples(st.sampled_from(HOLES), st.integers(1, 3), st.sampled_from(KINDS)),
        max_size=6,
    ),
    st.floats(-5, 54).map(lambda x: round(x, 1)),
    st.booleans(),
)  # fmt: skip
def test_gross_is_the_sum_of_the_holes_and_the_penalty_strokes(holes, penalties, index, net):
    group = draw_group("1", Player("Ann", index))
    outcomes = [
        counted(f"L{i}", "1", "Ann", h, kind, n) for i, (h, n, kind) in enumerate(penalties)
    ]
    (e,) = score_round(COURSE, [group], card("1", "Ann", holes), net=net, outcomes=outcomes).entries
    assert e.gross == sum(holes) + sum(n for _, n, _ in penalties)
    assert e.gross == sum(line.strokes + line.penalty_strokes for line in e.holes)
    assert e.penalty_strokes == sum(n for _, n, _ in penalties)
    if net:
        assert e.net == e.gross - e.playing_handicap


@st.composite
def matches(draw):
    length = draw(st.integers(1, 18))
    a = draw(st.lists(st.one_of(st.none(), st.integers(2, 7)), min_size=length, max_size=length))
    b = draw(st.lists(st.one_of(st.none(), st.integers(2, 7)), min_size=length, max_size=length))
    concede = draw(
        st.lists(st.sampled_from([None, None, None, 0, 1]), min_size=length, max_size=length)
    )
    tee = draw(st.sampled_from([1, 10]))
    return a, b, concede, tee


@FAST
@given(matches(), st.floats(0, 30).map(lambda x: round(x, 1)), st.booleans())
def test_match_result_agrees_with_its_hole_by_hole_states(m, index, net):
    a, b, concede, tee = m
    group = draw_group("1", Player("A", 0.0), Player("B", index), tee=tee)
    order = [h for h in (list(range(tee, 19)) + list(range(1, tee)))]
    scores = []
    for i, hole in enumerate(order[: len(a)]):
        scores.append(Score("1", "A", hole, a[i], concede[i] == 0))
        scores.append(Score("1", "B", hole, b[i], concede[i] == 1))
    (match,) = score_round(COURSE, [group], scores, scoring="match", net=net).matches
    up = 0
    for i, h in enumerate(match.holes):
        assert h.hole == order[i]
        up += 1 if h.winner == "A" else -1 if h.winner == "B" else 0
        remaining = 18 - i - 1
        assert h.state == state_text(abs(up), remaining)
        assert h.leader == (None if up == 0 else "A" if up > 0 else "B")
        if i < len(match.holes) - 1:
            assert abs(up) <= remaining  # a decided match plays no more holes
    remaining = 18 - len(match.holes)
    if abs(up) > remaining or remaining == 0:
        assert match.finished
        assert match.winner == (None if up == 0 else "A" if up > 0 else "B")
        expected = (
            "all square"
            if up == 0
            else f"{abs(up)} & {remaining}"
            if remaining
            else f"{abs(up)} up"
        )
        assert match.result == expected
    else:
        assert not match.finished and match.winner is None


@FAST
@given(
    st.lists(st.one_of(st.none(), st.integers(2, 9)), min_size=18, max_size=18),
    st.lists(st.one_of(st.none(), st.integers(2, 9)), min_size=18, max_size=18),
)
def test_four_ball_hole_is_the_better_ball(ann, bob):
    group = draw_group("1", Player("Ann", side="x"), Player("Bob", side="x"))
    scores = card("1", "Ann", ann) + card("1", "Bob", bob)
    (e,) = score_round(COURSE, [group], scores, format_name="four_ball").entries
    for line, a, b in zip(e.holes, ann, bob, strict=True):
        best = min((s for s in (a, b) if s is not None), default=None)
        assert line.strokes == best
        assert line.counted == (None if best is None else "Ann" if a == best else "Bob")
    if all(a is not None or b is not None for a, b in zip(ann, bob, strict=True)):
        assert e.gross == sum(line.strokes for line in e.holes)
    else:
        assert e.status == "nr" and e.position is None


@FAST
@given(
    st.lists(st.tuples(st.integers(60, 64), st.integers(30, 32), st.integers(0, 1)), max_size=12)
)
def test_positions_count_the_entries_strictly_better(cards):
    # an entry's position is 1 + the entries strictly better on (total, last 9, last hole);
    # tied only when another entry has the very same figures
    from pace.rules.scoring.countback import RankKey, rank

    keys = [RankKey(t, ((n, n), (h, h))) for t, n, h in cards]
    standings = rank(keys, ["A"] * len(keys), ["last 9", "last hole"])
    full = [(t, n, h) for t, n, h in cards]
    for i, s in enumerate(standings):
        assert s.position == 1 + sum(1 for other in full if other < full[i])
        assert s.tied == (full.count(full[i]) > 1)
        assert s.class_position == s.position
        assert (s.countback == "equal") == s.tied
