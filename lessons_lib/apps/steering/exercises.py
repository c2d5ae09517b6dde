"""Lesson 3's exercises 1 and 2, made here so that no answer is in the notebook's visible
code: the look-ahead computed by hand, and the mystery run with one term switched off (which
term it is would be read off the code that made the run)."""

from __future__ import annotations

from ...i18n import _
from ...steering import SteeringParams, look_ahead_distance
from ...vehicle import simulate
from ..core import ChoiceQuestion, NumberQuestion
from .figures import run_figure
from .model import road

#: Exercise 1: the speed (m/s) and the bend's radius (m) of the look-ahead asked for.
LOOK_AHEAD_CASE = (12.0, 10.0)
#: Exercise 2's run: our defaults on the hairpins at 12 m/s, 2 m off the line, one term off.
MYSTERY = {"track": "hairpin", "speed": 12.0, "start_offset": 2.0,
           "params": SteeringParams(use_heading=False)}


def look_ahead_question() -> NumberQuestion:
    """Exercise 1: the adaptive look-ahead at 12 m/s in a 10 m bend, with each slip in the
    curvature scale named."""
    speed, radius = LOOK_AHEAD_CASE
    return NumberQuestion(
        _("How long is the look-ahead, in metres, at {speed:g} m/s in a bend of radius "
          "{radius:g} m?").format(speed=speed, radius=radius),
        answer=look_ahead_distance(speed, 1 / radius, SteeringParams()), tol=0.05, unit="m",
        hint=_("Two steps. First the distance on a straight: base plus speed times factor. "
               "Then the bend: its curvature is 1 / radius; times 3 and clamped to [0, 1] it "
               "says how far the scale has moved from 1 towards 0.5."),
        wrong={6.6: _("That is the distance on a straight: the bend still shrinks it."),
               3.3: _("That scales it all the way down to 0.5, which only happens for bends "
                      "of radius 3 m or less."),
               3.0: _("That is the base alone: the speed adds to it."),
               4.62: _("That takes the clamp's 0.3 off the scale itself. 0.3 says how far the "
                       "scale has moved from 1 towards 0.5: 0.3 of that 0.5 gap."),
               6.27: _("That uses the curvature, 0.1, as the clamp's input: the formula "
                       "triples it first.")},
        explain="(3 + 12 × 0.3) × (1 − 0.5 × 0.3) = 6.6 × 0.85 = 5.61 m.")


def mystery_run():
    """Exercise 2's run (a :class:`~lessons_lib.vehicle.Trajectory`)."""
    m = MYSTERY
    return simulate(road(m["track"]), m["params"], m["speed"], 30.0,
                    start_offset=m["start_offset"])


def mystery_figure():
    """Exercise 2's picture: the mystery run's path and crosstrack error."""
    return run_figure(mystery_run(), road(MYSTERY["track"]),
                      title=_("the mystery run: default settings, one term off"))


def mystery_question() -> ChoiceQuestion:
    """Exercise 2: which term is off in :func:`mystery_run`."""
    return ChoiceQuestion(
        _("Which term is switched off in the mystery run?"),
        {_("Position Delta"): _("Without Position Delta nothing aims at the road ahead; but "
                                "look at the plot: the car does come back towards the line "
                                "each time, it just overshoots. Something is pulling it back "
                                "and nothing is stopping it."),
         _("Heading Delta"): None,
         _("Crosstrack Error"): _("Without it, an offset car runs parallel to the line "
                                  "(section 5); this car does the opposite: it crosses the "
                                  "line again and again.")},
        answer=_("Heading Delta"),
        hint=_("Read the plot before the map: does the car get back to the line, and does it "
               "stay there or swing past it? A term that is still on keeps doing its job; look "
               "for the job that nobody is doing."),
        explain=_("Without Heading Delta nothing damps the turning: Position Delta (now with "
                  "the whole weight) and the crosstrack push keep overshooting the line, and "
                  "the swings grow."))
