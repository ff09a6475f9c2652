"""Where a group stands on its hole, and how far behind the group ahead (issue 48, "the picture
gets finer"; docs/positions.md "The picture"): pure functions of the course's shape, the
group's order, its hole in play and one fix, the time passed in."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from pace.rules import places
from pace.rules.position import plan_field
from pace.rules.positions import CourseShape, Frame, Sample
from tests.builders import make_course, make_group, make_setup

T0 = datetime(2026, 6, 6, 9, 0, tzinfo=UTC)
ORIGIN = (4.35, 50.85)
FRAME = Frame(ORIGIN)

# a synthetic course in metres (x east, y north): hole 1 north, a 120 m walk east to the 2nd
# tee, hole 2 east, hole 3 south from a tee 100 m beyond the 2nd green, hole 4 west
HOLES = {
    1: ((0.0, 0.0), (0.0, 300.0)),
    2: ((120.0, 300.0), (420.0, 300.0)),
    3: ((520.0, 250.0), (520.0, -100.0)),
    4: ((420.0, -200.0), (120.0, -200.0)),
}
ORDER = (1, 2, 3, 4)


def geometry():
    holes = []
    for n, (tee, green) in HOLES.items():
        t, g = FRAME.lonlat(*tee), FRAME.lonlat(*green)
        holes.append({"number": n, "line": [list(t), list(g)], "tee": list(t), "green": list(g)})
    return {"holes": holes}


@pytest.fixture(scope="module")
def shape() -> CourseShape:
    return CourseShape.of(geometry())


def fix(shape, x, y, at=T0, acc=8.0):
    """A fix at (x, y) metres of the synthetic layout (its own frame: the shape's differs by
    its origin only)."""
    return Sample(at, *FRAME.lonlat(x, y), acc)


def along(hole, share):
    (x0, y0), (x1, y1) = HOLES[hole]
    return x0 + share * (x1 - x0), y0 + share * (y1 - y0)


def test_a_group_down_its_hole_is_told_the_metres_left_to_its_green(shape):
    place = places.place_of(shape, ORDER, 0, fix(shape, *along(1, 0.3)))
    assert (place.hole, place.phase) == (1, places.HOLE)
    assert place.to_green == 210  # 300 m long, 30 % down it
    assert place.fraction == pytest.approx(0.3, abs=0.01)
    assert place.at == T0


@pytest.mark.parametrize(
    ("where", "k", "hole", "phase", "to_green", "fraction"),
    [
        ((3.0, 4.0), 0, 1, places.TEE, 300, 0.0),
        ((6.0, 290.0), 0, 1, places.GREEN, 0, 1.0),
        # clear of the first hole, on the walk to the 2nd tee: the tracker has not confirmed
        # the first hole yet, the place is already on the way to the next
        ((60.0, 300.0), 0, 2, places.WALKING, 300, 0.0),
        # the tracker confirmed it: walking to the tee of the hole in play
        ((60.0, 300.0), 1, 2, places.WALKING, 300, 0.0),
        # down the next hole before the tracker saw it leave (a gap): on the next hole
        ((270.0, 305.0), 0, 2, places.HOLE, 150, 0.5),
        ((520.0, 248.0), 2, 3, places.TEE, 350, 0.0),
    ],
    ids=["tee", "green", "walking-unconfirmed", "walking", "next-hole-after-gap", "third-tee"],
)
def test_the_phase_on_the_hole(shape, where, k, hole, phase, to_green, fraction):
    place = places.place_of(shape, ORDER, k, fix(shape, *where))
    assert (place.hole, place.phase, place.to_green) == (hole, phase, to_green)
    assert place.fraction == pytest.approx(fraction, abs=0.02)


def test_the_hole_comes_from_the_sequence_not_the_nearest_line(shape):
    # a fix down the 4th hole while the group plays the 1st: it is read against the 1st (and
    # the walk to the 2nd), never taken two holes on
    place = places.place_of(shape, ORDER, 0, fix(shape, *along(4, 0.5)))
    assert place.hole == 1


def test_a_group_that_has_played_every_hole_has_no_place(shape):
    assert places.place_of(shape, ORDER, 4, fix(shape, *along(4, 0.9))) is None


def test_a_place_older_than_five_minutes_is_stale():
    place = places.Place(1, 0, places.HOLE, 100.0, 300.0, T0)
    assert not place.is_stale(T0 + timedelta(minutes=5))
    assert place.is_stale(T0 + timedelta(minutes=5, seconds=1))
    assert place.age(T0 + timedelta(minutes=7)) == timedelta(minutes=7)
    assert place.age(T0 - timedelta(seconds=5)) == timedelta(0)  # a fix a little ahead


def test_the_distance_behind_on_the_same_hole(shape):
    behind = places.place_of(shape, ORDER, 1, fix(shape, *along(2, 0.2)))
    ahead = places.place_of(shape, ORDER, 1, fix(shape, *along(2, 0.9)))
    assert places.distance_behind(shape, ORDER, behind, ahead, T0) == 210


def test_the_distance_behind_runs_along_the_holes_and_the_walks_between(shape):
    behind = places.place_of(shape, ORDER, 0, fix(shape, *along(1, 0.5)))
    ahead = places.place_of(shape, ORDER, 2, fix(shape, *along(3, 0.2)))
    walk = math.hypot(520 - 420, 250 - 300)  # from the 2nd green to the 3rd tee
    expected = 150 + 120 + 300 + walk + 70
    assert places.distance_behind(shape, ORDER, behind, ahead, T0) == places.rounded(expected)


def test_a_group_walking_to_its_tee_is_behind_by_what_it_still_walks(shape):
    behind = places.place_of(shape, ORDER, 1, fix(shape, 60.0, 300.0))
    ahead = places.place_of(shape, ORDER, 1, fix(shape, *along(2, 0.5)))
    assert behind.phase == places.WALKING
    assert places.distance_behind(shape, ORDER, behind, ahead, T0) == 210  # 60 + 150


def test_no_distance_is_invented(shape):
    behind = places.place_of(shape, ORDER, 1, fix(shape, *along(2, 0.5)))
    fresh = places.place_of(shape, ORDER, 2, fix(shape, *along(3, 0.5)))
    old = places.place_of(shape, ORDER, 2, fix(shape, *along(3, 0.5), at=T0 - timedelta(minutes=6)))
    back = places.place_of(shape, ORDER, 0, fix(shape, *along(1, 0.5)))
    assert places.distance_behind(shape, ORDER, behind, fresh, T0) is not None
    # the group ahead last seen 6 minutes ago: nothing
    assert places.distance_behind(shape, ORDER, behind, old, T0) is None
    # the group itself last seen 6 minutes ago: nothing
    assert places.distance_behind(shape, ORDER, behind, fresh, T0 + timedelta(minutes=6)) is None
    # the "group ahead" stands behind it: nothing
    assert places.distance_behind(shape, ORDER, behind, back, T0) is None
    # the group ahead on a hole the group does not play after its own: nothing
    assert places.distance_behind(shape, (2, 3), behind, back, T0) is None


def test_the_group_ahead_is_the_one_starting_just_before_off_the_same_tee():
    setup = make_setup(
        make_course(pars=[4] * 18),
        [make_group("1", "08:00"), make_group("2", "08:10"), make_group("3", "08:20"),
         make_group("10", "08:00", tee=10), make_group("11", "08:10", tee=10)],
    )  # fmt: skip
    plans = plan_field(setup).groups
    assert places.group_ahead(plans, "3") == "2"
    assert places.group_ahead(plans, "2") == "1"
    assert places.group_ahead(plans, "1") is None
    assert places.group_ahead(plans, "11") == "10"
    # a group that withdrew is no group ahead: the one before it is
    assert places.group_ahead(plans, "3", withdrawn={"2"}) == "1"
    assert places.group_ahead(plans, "nobody") is None


def test_a_phone_walking_the_round_is_placed_on_the_hole_it_plays_within_a_few_metres():
    import random

    from pace.demo.phones import walk
    from tests.unit.rules.test_positions import demo_shape

    _, demo = demo_shape()
    order = tuple(range(1, 19))
    done = {h: T0 + timedelta(minutes=13 * h) for h in order}
    path = walk(demo, order, T0, done, random.Random(5))
    rng = random.Random(6)
    tracker = places.posmod.Tracker(demo, order)
    t, checked = T0, 0
    while t < done[18]:
        (x, y), _ = path.at(t)
        s = Sample(t, *demo.frame.lonlat(x + rng.gauss(0, 5), y + rng.gauss(0, 5)), 8.0)
        tracker.feed([s])
        place = places.place_of(demo, order, tracker.k, s)
        playing = next(h for h in order if done[h] > t)
        # on the hole it plays, or on its tracker's while that has not seen it leave (the
        # 10th tee lies down the 9th fairway: docs/positions.md); never ahead of it, even with
        # the next tee 20 m from the green (a fix 15 m off)
        assert place.hole in (playing, order[tracker.k]), (t, place, playing)
        assert place.index <= order.index(playing), (t, place, playing)
        h = demo.holes[playing]
        true_left = h.to_green((x, y))
        if place.hole == playing and place.phase == places.HOLE and 60 < true_left < h.length - 60:
            assert abs(place.to_green - true_left) <= 40, (t, place, true_left)
            checked += 1
        t += timedelta(seconds=15)
    assert checked > 300
