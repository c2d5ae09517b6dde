"""Crafted drags on every app that has one, the way a page sends them (issue 46's "11 drag
failures"): sequences of pointer messages through each figure's own canvas channel, well
formed (so that the canvas guard lets them through to the app's drag handler) but with
coordinates anywhere on and off the figure, any buttons and modifiers, in any order (a move
or a release with no press, two presses, a release outside the figure, the pointer leaving
mid-drag), and on a figure already closed. Afterwards, for every app:

* no handler failed: nothing logged "callback ... failed" (an app's guard caught an
  exception other than a ValueError), "a page message failed" (the canvas guard caught
  one) or "Exception in callback" (ipywidgets caught one from the canvas's own message
  handler), and no message says "Something went wrong";
* the drag is over once the page said the button is up (no drag outlives the mouse);
* a normal slider change still redraws the figure without an error message.

``FUZZ_EXAMPLES=40`` runs a longer version (make bench sets it).
"""

from __future__ import annotations

import logging
import os

import matplotlib.pyplot as plt
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from test_fuzz_canvas import canvases, custom
from test_fuzz_controls import redraws, sliders, still_redraws

from lessons_lib import apps
from lessons_lib.apps.core.figure import DragHandler
from lessons_lib.apps.core.guard import (
    MAX_BUTTON,
    MODIFIERS,
    POINTER_REACH,
    handle_canvas_message,
)
from lessons_lib.apps.steering.challenge import TuningChallenge
from lessons_lib.apps.steering.terms import TermApp

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
#: Every app with a drag: the lesson apps and the term figures (the tuning exercise has
#: none: a test below says so, so that one added to it is fuzzed here).
MAKERS = {**{name: getattr(apps, name) for name in sorted(apps.__all__)}, "TermApp": TermApp}
KINDS = ["button_press", "motion_notify", "motion_notify", "motion_notify", "button_release",
         "dblclick", "figure_enter", "figure_leave"]


def pointer(kind: str, x: float, y: float, button: int = 0, buttons: int = 1,
            modifiers=()) -> dict:
    return {"type": kind, "x": x, "y": y, "button": button, "buttons": buttons,
            "modifiers": list(modifiers), "guiEvent": {}}


@st.composite
def drags(draw, width: float, height: float):
    """A sequence of pointer events: a drag's press, moves and release, or any jumble."""
    inside = st.tuples(st.floats(0, width), st.floats(0, height))
    edge = st.tuples(st.sampled_from([0.0, width, -1.0, width + 1, -POINTER_REACH,
                                      POINTER_REACH]),
                     st.sampled_from([0.0, height, -1.0, height + 1, -POINTER_REACH,
                                      POINTER_REACH]))
    anywhere = st.tuples(st.floats(-POINTER_REACH, POINTER_REACH),
                         st.floats(-POINTER_REACH, POINTER_REACH))
    where = st.one_of(inside, inside, inside, edge, anywhere)
    events = []
    if draw(st.booleans()):          # an ordinary drag, then maybe more
        (x, y), n = draw(inside), draw(st.integers(1, 5))
        events.append(pointer("button_press", x, y, 0, 1))
        events += [pointer("motion_notify", *draw(where), 0, 1) for _ in range(n)]
        if draw(st.booleans()):
            events.append(pointer("button_release", *draw(where), 0, 0))
    for _ in range(draw(st.integers(0, 6))):
        events.append(pointer(draw(st.sampled_from(KINDS)), *draw(where),
                              draw(st.integers(0, MAX_BUTTON)), draw(st.integers(0, 31)),
                              draw(st.lists(st.sampled_from(sorted(MODIFIERS)), max_size=2,
                                            unique=True))))
    return events


#: The loggers that report a failed handler: the lessons' guards, and ipywidgets' comm
#: callbacks (through traitlets' logger).
LOGGERS = ("lessons_lib", "traitlets")


class Failures(logging.Handler):
    """Log records that say a handler failed."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.seen: list[str] = []

    def emit(self, record) -> None:
        text = record.getMessage()
        if "failed" in text or "Exception in callback" in text:
            self.seen.append(text[:200])


def send(canvas, events) -> None:
    """The page's messages through the canvas guard (the comm's handler; once the figure is
    closed its comm is gone, and the guard is called as the comm called it)."""
    for content in [*events, {"type": "draw"}]:
        handle_canvas_message(canvas, custom(content))


def problems_after(app, failures: Failures) -> list[str]:
    found = list(failures.seen)
    if app.last_error is not None and "Something went wrong" in app.last_error:
        found.append(app.last_error)
    return found


@pytest.fixture
def failures():
    handler = Failures()
    loggers = [logging.getLogger(name) for name in LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    yield handler
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


def _drag_of(app) -> DragHandler | None:
    return next((v for v in vars(app).values() if isinstance(v, DragHandler)), None)


def test_every_app_with_a_drag_is_fuzzed():
    app = TuningChallenge()
    try:
        assert _drag_of(app) is None
    finally:
        plt.close("all")


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_crafted_drags_never_break_an_app(name, failures):
    app = MAKERS[name]()
    try:
        drag = _drag_of(app)
        drawing = [w for w in sliders(app) if redraws(app, w)]
        canvas = next(c for c in canvases(app) if c.figure is drag.fig)
        width, height = canvas.get_width_height(physical=False)

        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(drags(width, height))
        def one(events):
            send(canvas, events)
            send(canvas, [pointer("button_release", width / 2, height / 2, 0, 0)])
            assert not drag.active, "a drag outlived the release"
            problems = problems_after(app, failures)
            assert not problems, f"{events}: {problems}"

        one()
        plt.close(drag.fig)              # the page's events may still come after a close
        send(canvas, [pointer("button_press", width / 2, height / 2),
                      pointer("motion_notify", width / 3, height / 3),
                      pointer("button_release", width / 3, height / 3, 0, 0)])
        assert not problems_after(app, failures)
        assert not still_redraws(app, drawing)
    finally:
        plt.close("all")
