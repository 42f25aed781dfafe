"""The deadline policy (pbem/record/deadlines.py): its validation, per-game defaults, and the times it gives."""

import pytest
from pydantic import ValidationError

from pbem.record.deadlines import HOUR, DeadlinePolicy, clock, default_policy

POLICY = DeadlinePolicy(turn_hours=48, open_hours=24, referee_hours=12, reminders=[8, 2], grace_hours=24)


def test_each_game_s_default_is_its_own_pace_and_valid():
    """The defaults come from each game's definition (`pace`): a Path of Pharaohs turn, a plan, has three
    days; a name the registry lacks gets the contract's default pace."""
    from engine import GAMES

    for name, game in GAMES.items():
        policy = default_policy(name)
        assert DeadlinePolicy.model_validate(policy.model_dump()) == policy
        assert (policy.turn_hours, policy.reminders) == (game.pace.turn_hours, list(game.pace.reminders))
    assert default_policy("path-of-pharaohs") == DeadlinePolicy(turn_hours=72, open_hours=24, referee_hours=12,
                                                                reminders=[24], grace_hours=24)
    assert default_policy("sarcophagus") == default_policy("no-such-game") == DeadlinePolicy(
        turn_hours=48, open_hours=24, referee_hours=12, reminders=[12], grace_hours=24)


@pytest.mark.parametrize("change,why", [
    ({"reminders": [2, 8]}, "longest first"),
    ({"reminders": [8, 8]}, "distinct"),
    ({"reminders": [48]}, "shorter than the longest"),
    ({"grace_hours": -1}, "greater than or equal to 0"),
    ({"turn_hours": 0}, "greater than or equal to 1"),
    ({"turn_hours": "48"}, "valid integer"),
    ({"out_after": 2}, "3"),
    ({"later": 1}, "Extra inputs"),
])
def test_a_policy_is_strict(change, why):
    with pytest.raises(ValidationError, match=why):
        DeadlinePolicy.model_validate({**POLICY.model_dump(), **change})


def test_each_duty_has_its_time():
    assert POLICY.hours_for("move", False) == POLICY.hours_for("discard", False) == 48
    assert POLICY.hours_for("open", False) == 24
    assert POLICY.hours_for("open", True) == POLICY.hours_for("reveal", True) == 12


def test_a_duty_goes_from_on_time_to_reminded_to_late_to_absent():
    c = clock(POLICY, "move", False, since=1_000_000)
    assert c.deadline == 1_000_000 + 48 * HOUR and c.absent_from == c.deadline + 24 * HOUR
    assert c.stage(1_000_000) == "on time" and c.reminders_due(1_000_000) == []
    assert c.stage(c.deadline - 8 * HOUR) == "reminded"
    assert c.reminders_due(c.deadline - HOUR) == [c.deadline - 8 * HOUR, c.deadline - 2 * HOUR]
    assert c.stage(c.deadline) == "reminded" and c.stage(c.deadline + 1) == "late"
    assert c.stage(c.absent_from - 1) == "late" and c.stage(c.absent_from) == "absent"
    long_reminder = POLICY.model_copy(update={"reminders": [30, 2]})
    short = clock(long_reminder, "open", True, since=0)  # 12 h: the 30 h reminder would come before it began
    assert short.reminders_due(short.deadline) == [10 * HOUR]
