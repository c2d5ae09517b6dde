"""The app-side entry points issue 30 found unchecked, each with the call that broke it."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import pytest

from lessons_lib.apps import FunnelApp
from lessons_lib.apps.funnel.exercises import step_question
from lessons_lib.apps.interpolation.figures import nlerp_pace
from lessons_lib.apps.steering.challenge import TuningChallenge


@pytest.mark.parametrize("kwargs, match", [
    ({"target": math.inf}, "target"),          # counted every tuning as solved
    ({"target": 0.0}, "target"),
    ({"target": 100.0}, "target"),
    ({"speed": math.nan}, "Speed"),
    ({"speed": 1e6}, "Speed"),
    ({"start_offset": 1e9}, "Start offset"),
    ({"start_offset": "2"}, "Start offset"),
    ({"track_name": None}, "track_name"),
])
def test_tuning_challenge_checks_its_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        TuningChallenge(**kwargs)


def test_tuning_challenge_keeps_the_notebooks_arguments():
    t = TuningChallenge(track_name="hairpin", speed=12.0, target=0.3, start_offset=2.0)
    try:
        assert (t.speed, t.target, t.start_offset) == (12.0, 0.3, 2.0)
    finally:
        plt.close(t.fig)


@pytest.mark.parametrize("args, match", [((0,), "turn_deg"), ((math.nan,), "turn_deg"),
                                         ((181,), "turn_deg"), ((90, 10**9), "samples"),
                                         ((90, 2), "samples")])
def test_nlerp_pace_checks_its_arguments(args, match):
    """nlerp_pace(0) returned NaN; samples=10**9 ran out of memory."""
    with pytest.raises(ValueError, match=match):
        nlerp_pace(*args)
    ratio, gap = nlerp_pace(1e-3)
    assert math.isfinite(ratio) and math.isfinite(gap)


@pytest.mark.parametrize("portal", [-1, 99, 1.5, None, True])
def test_step_question_names_a_portal_that_is_not_tested(portal):
    """A bad portal raised a bare StopIteration."""
    app = FunnelApp()
    try:
        with pytest.raises(ValueError, match="portal"):
            step_question(app, portal)
        with pytest.raises(ValueError, match="FunnelApp"):
            step_question("app", 2)
        assert step_question(app, 2) is not None
    finally:
        plt.close(app.fig)
