"""The clock as a value (emergo.clock): time controls, charging, lag compensation, JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emergo.board import BLACK, WHITE
from emergo.clock import (
    DAY,
    FLAG_GRACE_MAX,
    LAG_QUOTA_MAX,
    LAG_QUOTA_START,
    Clock,
    TimeControl,
    lag_quota_gain,
    speed_of,
)

# --- time controls -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("control", "tag"),
    [
        (TimeControl.fischer(300, 2), "300+2"),
        (TimeControl.fischer(0.5), "0.5+0"),
        (TimeControl.per_move(10), "10/move"),
        (TimeControl.correspondence(2), "2d"),
        (TimeControl.correspondence(0.5), "0.5d"),
    ],
)
def test_tags_round_trip_every_kind(control: TimeControl, tag: str) -> None:
    assert control.tag() == tag
    assert TimeControl.parse(tag) == control
    assert TimeControl.from_json(json.loads(json.dumps(control.to_json()))) == control


def test_correspondence_is_days_per_move() -> None:
    control = TimeControl.correspondence(3)
    assert (control.kind, control.base, control.days, control.increment) == (
        "correspondence",
        3 * DAY,
        3.0,
        0.0,
    )
    assert TimeControl.fischer(60).days is None


@pytest.mark.parametrize(
    "bad", ["", "abc", "0+1", "10+-1", "0d", "-1d", "d", "0/move", "nan+1", "inf"]
)
def test_bad_tags_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a time control"):
        TimeControl.parse(bad)


def test_bad_controls_are_refused() -> None:
    with pytest.raises(ValueError, match="no increment"):
        TimeControl("per-move", 10, 1)
    with pytest.raises(ValueError, match="no increment"):
        TimeControl("correspondence", DAY, 1)
    with pytest.raises(ValueError, match="unknown time control kind"):
        TimeControl("hourglass", 10)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="0 days"):
        TimeControl.correspondence(0)
    with pytest.raises(ValueError, match="needs 'base'"):
        TimeControl.from_json({"kind": "fischer"})


def test_speed_live_or_correspondence_and_unlimited_counts_as_correspondence() -> None:
    assert TimeControl.fischer(60, 1).speed == "live"
    assert TimeControl.per_move(30).speed == "live"
    assert TimeControl.correspondence(1).speed == "correspondence"
    assert speed_of(None) == "correspondence"
    assert speed_of(TimeControl.per_move(30)) == "live"


@pytest.mark.parametrize(
    ("control", "category"),
    [
        (TimeControl.fischer(15), "ultrabullet"),
        (TimeControl.fischer(29.9), "ultrabullet"),
        (TimeControl.fischer(30), "bullet"),
        (TimeControl.fischer(60, 1), "bullet"),  # 60 + 40 = 100 s
        (TimeControl.fischer(180), "blitz"),
        (TimeControl.fischer(180, 2), "blitz"),  # 260 s
        (TimeControl.fischer(300, 5), "rapid"),  # 300 + 200 = 500 s
        (TimeControl.fischer(600), "rapid"),
        (TimeControl.fischer(1500), "classical"),
        (TimeControl.per_move(10), "blitz"),  # 40 moves of 10 s
        (TimeControl.per_move(60), "classical"),
        (TimeControl.correspondence(1), "correspondence"),
    ],
)
def test_category_from_the_estimated_duration(control: TimeControl, category: str) -> None:
    assert control.category == category


def test_lag_quota_gain_grows_with_the_estimate_to_one_second() -> None:
    assert lag_quota_gain(TimeControl.fischer(15)) == pytest.approx(0.21)
    assert lag_quota_gain(TimeControl.fischer(60)) == pytest.approx(0.39)
    assert lag_quota_gain(TimeControl.fischer(180, 2)) == 1.0  # 0.15 + 1.04, capped
    assert lag_quota_gain(TimeControl.correspondence(1)) == 0.0


# --- the clock ---------------------------------------------------------------------------------


def test_a_new_clock_is_full_and_stopped_with_its_starting_quota() -> None:
    clock = Clock.new(TimeControl.fischer(60))
    assert (clock.white, clock.black, clock.running, clock.since) == (60, 60, None, None)
    assert clock.quota(WHITE) == clock.quota(BLACK) == pytest.approx(LAG_QUOTA_START * 0.39)
    assert clock.flag_at() is None and clock.out_of_time(1e12) is None
    assert clock.remaining(WHITE, 1e12) == 60
    local = Clock.new(TimeControl.fischer(60), lag_compensation=False)
    assert (local.quota_gain, local.white_quota, local.black_quota) == (0, 0, 0)


def test_only_the_running_side_loses_time_and_never_below_zero() -> None:
    clock = Clock.new(TimeControl.fischer(10)).start(WHITE, 100.0)
    assert clock.remaining(WHITE, 104.0) == 6 and clock.remaining(BLACK, 104.0) == 10
    assert clock.remaining(WHITE, 150.0) == 0
    assert clock.remaining(WHITE, 90.0) == 10  # a time before the turn began charges nothing
    stopped = clock.stop(103.5)
    assert (stopped.white, stopped.black, stopped.running, stopped.since) == (6.5, 10, None, None)
    assert stopped.stop(200.0) == stopped
    assert clock.stop(200.0).white == 0


def test_start_charges_a_running_side_first() -> None:
    clock = Clock.new(TimeControl.fischer(10)).start(WHITE, 0.0).start(BLACK, 3.0)
    assert (clock.white, clock.black, clock.running, clock.since) == (7, 10, BLACK, 3.0)


def test_switch_charges_adds_the_increment_and_starts_the_other_side() -> None:
    clock = Clock.new(TimeControl.fischer(10, 2), lag_compensation=False).start(WHITE, 0.0)
    clock = clock.switch(4.0)
    assert (clock.white, clock.black, clock.running, clock.since) == (8, 10, BLACK, 4.0)
    clock = clock.switch(5.5)
    assert (clock.white, clock.black, clock.running, clock.since) == (8, 10.5, WHITE, 5.5)


def test_switch_compensates_lag_up_to_the_quota_and_refills_it() -> None:
    control = TimeControl.fischer(60)  # gain 0.39 s, quota 1.17 s, at most 2.73 s
    clock = Clock.new(control).start(WHITE, 0.0)
    after = clock.switch(10.0, lag=0.5)
    assert after.white == pytest.approx(50.5)
    assert after.quota(WHITE) == pytest.approx(1.17 + 0.39 - 0.5)
    greedy = clock.switch(10.0, lag=30.0)  # more lag than quota: only the quota is forgiven
    assert greedy.white == pytest.approx(50 + 1.17)
    assert greedy.quota(WHITE) == pytest.approx(0.39)
    for bad in (-5.0, float("nan"), float("inf")):  # nonsense lag counts as none
        assert clock.switch(10.0, lag=bad).white == 50
    full = clock
    for t in range(1, 30):  # moves without lag refill the quota up to its bound
        full = full.switch(float(t)).switch(float(t))
    assert full.quota(WHITE) == pytest.approx(LAG_QUOTA_MAX * 0.39)


def test_a_late_move_keeps_zero_no_increment_and_stops_the_clock() -> None:
    clock = Clock.new(TimeControl.fischer(10, 5), lag_compensation=False).start(WHITE, 0.0)
    late = clock.switch(10.0)
    assert (late.white, late.black, late.running, late.since) == (0, 10, None, None)
    with pytest.raises(ValueError, match="not running"):
        late.switch(11.0)


def test_per_move_and_correspondence_clocks_reset_the_mover() -> None:
    clock = Clock.new(TimeControl.per_move(10)).start(WHITE, 0.0).switch(9.0)
    assert (clock.white, clock.black, clock.running) == (10, 10, BLACK)
    days = Clock.new(TimeControl.correspondence(2)).start(WHITE, 0.0)
    assert days.quota_gain == 0 and days.flag_grace() == 0
    moved = days.switch(1.5 * DAY, lag=100.0)
    assert (moved.white, moved.running) == (2 * DAY, BLACK)
    assert days.switch(2 * DAY).running is None  # two days are up


def test_flag_at_out_of_time_and_grace() -> None:
    clock = Clock.new(TimeControl.fischer(60)).start(BLACK, 1000.0)
    assert clock.flag_at() == 1060.0
    assert clock.out_of_time(1059.999) is None and clock.out_of_time(1060.0) == BLACK
    assert clock.flag_grace() == pytest.approx(1.17)
    rich = Clock(TimeControl.fischer(60), 60, 60, WHITE, 0.0, 5.0, 0.0, 1.0)
    assert rich.flag_grace() == FLAG_GRACE_MAX
    assert Clock.new(TimeControl.fischer(60)).flag_grace() == 0  # stopped


def test_give_time() -> None:
    clock = Clock.new(TimeControl.fischer(60)).give_time(BLACK, 15)
    assert (clock.white, clock.black) == (60, 75)
    with pytest.raises(ValueError, match="0 or more"):
        clock.give_time(WHITE, -1)


def test_json_round_trip_and_bad_json() -> None:
    clock = Clock.new(TimeControl.fischer(180, 2)).start(BLACK, 12.5).switch(20.0, lag=0.1)
    assert Clock.from_json(json.loads(json.dumps(clock.to_json()))) == clock
    data = clock.to_json()
    changes: list[tuple[dict[str, Any], str]] = [
        ({"white": -1}, "0 or more"),
        ({"running": "red"}, "a colour"),
        ({"since": None}, "running clock needs"),
        ({"quota": [1]}, "quota is"),
        ({"control": "300+2"}, "is an object"),
    ]
    for change, message in changes:
        with pytest.raises(ValueError, match=message):
            Clock.from_json({**data, **change})
    with pytest.raises(ValueError, match="needs 'white'"):
        Clock.from_json({k: v for k, v in data.items() if k != "white"})


# --- properties --------------------------------------------------------------------------------

controls = st.one_of(
    st.builds(
        TimeControl.fischer,
        st.floats(0.5, 10_000, allow_nan=False),
        st.floats(0, 60, allow_nan=False),
    ),
    st.builds(TimeControl.per_move, st.floats(0.5, 3600, allow_nan=False)),
    st.builds(TimeControl.correspondence, st.floats(0.1, 30, allow_nan=False)),
)
operations = st.lists(
    st.tuples(
        st.sampled_from(["start", "stop", "switch"]),
        st.floats(0, 1e6, allow_nan=False),
        st.booleans(),
        st.floats(-1, 10, allow_nan=False),
    ),
    max_size=30,
)


@given(controls, operations, st.booleans())
def test_clocks_never_go_negative_and_only_the_running_side_falls(
    control: TimeControl, ops: list[tuple[str, float, bool, float]], lag_compensation: bool
) -> None:
    clock = Clock.new(control, lag_compensation=lag_compensation)
    for op, now, color, lag in ops:
        before = clock
        if op == "start":
            clock = clock.start(color, now)
        elif op == "stop":
            clock = clock.stop(now)
        elif clock.running is not None:
            clock = clock.switch(now, lag)
        for side in (WHITE, BLACK):
            assert clock.left(side) >= 0 and clock.remaining(side, now) >= 0
            assert clock.quota(side) <= LAG_QUOTA_MAX * clock.quota_gain + 1e-9
            if side != before.running:
                assert clock.left(side) >= before.left(side)
        assert Clock.from_json(json.loads(json.dumps(clock.to_json()))) == clock
