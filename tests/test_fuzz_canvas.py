"""Crafted messages to every figure's own canvas channel, the way a page sends them.

ipympl's page talks to each figure over the canvas widget's comm: ``{"method": "custom",
"content": {"type": ...}}`` for pointer events, its handshake, its size and pixel ratio, and
toolbar buttons. Issue 30 found that one ``set_device_pixel_ratio`` of 30 made lesson 1's
figure 14,400 px wide (3.7 GB, 16 s a draw), a ratio of 0 broke the app for good and
``toolbar_button`` switched the hidden toolbar into pan or zoom. Here the issue's messages
and hypothesis-drawn ones go through ``canvas.comm.handle_msg`` to every figure of every app
(and of the tuning exercise), each followed by the page's "draw" request, and afterwards:

* the figure's pixel ratio is finite and within the guard's bounds, its size (CSS px) is
  what it was or within ``FIGURE_MIN_PX``..``FIGURE_MAX_PX``, and no renderer was ever made
  with more than ``PIXEL_BUDGET`` pixels (the recording renderer refuses to allocate one);
* the hidden toolbar is in no mode (no pan, no zoom);
* the figure still draws, and a normal slider change still redraws the app without an
  error message; ordinary ratio and size messages still take effect.
"""

from __future__ import annotations

import functools
import logging
import math
import os

import matplotlib.pyplot as plt
import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from matplotlib.backends import backend_agg
from test_fuzz_controls import redraws, sliders, still_redraws

from lessons_lib import apps
from lessons_lib.apps.core import guard
from lessons_lib.apps.core.app import iter_widgets
from lessons_lib.apps.gimbal.exercises import ReachExercise
from lessons_lib.apps.steering.challenge import TuningChallenge
from lessons_lib.apps.steering.terms import TermApp

APP_NAMES = [*sorted(apps.__all__), "TuningChallenge"]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
LONG = "FUZZ_EXAMPLES" in os.environ

NAN, INF = math.nan, math.inf
POINTER = {"x": 10, "y": 10, "button": 0, "buttons": 0, "modifiers": [], "guiEvent": {}}
#: The issue's messages, then the edge cases around them.
ISSUE_MESSAGES = [
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": 30},
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": 20},
    {"type": "resize", "width": 12000, "height": 12000},
    {"type": "resize", "width": 10**9, "height": 10**9},
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": 0},
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": NAN},
    {"type": "toolbar_button", "name": "pan"},
    {"type": "toolbar_button", "name": "zoom"},
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": INF},
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": -3},
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": "2"},
    {"type": "set_dpi_ratio", "dpi_ratio": 30},
    {"type": "set_dpi_ratio", "dpi_ratio": 0},
    {"type": "resize", "width": 0, "height": -5},
    {"type": "resize", "width": NAN, "height": 400},
    {"type": "resize", "width": 400},
    {"type": "resize", "width": 2560, "height": 2560},
    {"type": "set_device_pixel_ratio", "device_pixel_ratio": 3},
    {"type": "key_press", "key": "p"},
    {"type": "key_press", "key": "o"},
    {"type": "key_release", "key": "ctrl+s"},
    {**POINTER, "type": "button_press", "x": NAN},
    {**POINTER, "type": "motion_notify", "y": 1e308},
    {**POINTER, "type": "button_press", "button": 10**9},
    {**POINTER, "type": "motion_notify", "modifiers": "ctrl"},
    {**POINTER, "type": "scroll", "step": 1e308},
    {"type": "figure_leave"},
    *(BIG_INTEGER_MESSAGES := [     # issue 46: beyond float range, math.isfinite overflows
        {"type": "resize", "width": 10**400, "height": 400},
        {"type": "resize", "width": 400, "height": -(10**400)},
        {"type": "set_device_pixel_ratio", "device_pixel_ratio": 10**400},
        {"type": "set_dpi_ratio", "dpi_ratio": 10**400},
        {**POINTER, "type": "button_press", "x": 10**400},
        {**POINTER, "type": "motion_notify", "y": -(10**400)},
        {**POINTER, "type": "scroll", "step": 10**400}]),
    {"type": "nonsense"},
    {"type": None},
    {},
]
TYPES = sorted({*guard.POINTER_EVENTS, *guard.CANVAS_HANDSHAKE, *guard.RATIO_MESSAGES,
                "resize", "toolbar_button", "key_press", "key_release", "save", "unknown"})
NASTY = [NAN, INF, -INF, None, 0, -1, 1, 2.5, 3, 30, 1e308, 10**9, -(10**9), 2**70, 10**400,
         True, "", "x", [], {}, [1, 2]]
values = st.one_of(st.sampled_from(NASTY), st.floats(allow_nan=True, allow_infinity=True),
                   st.integers(-(10**12), 10**12), st.integers(10**308, 10**420),
                   st.integers(-(10**420), -(10**308)))
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={k: values for k in ("x", "y", "button", "buttons", "step", "width", "height",
                                  "device_pixel_ratio", "dpi_ratio")}
    | {"name": st.sampled_from(["pan", "zoom", "home", "back", "save_figure"]),
       "key": st.sampled_from(["p", "o", "k", "l", "ctrl+w"]),
       "modifiers": st.sampled_from([[], ["ctrl"], ["bogus"], "shift", [1]])})


def custom(content) -> dict:
    return {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}


def canvases(app) -> list:
    """Every ipympl canvas the app shows (its figures)."""
    found = {id(w): w for w in iter_widgets(app.widget)
             if type(w).__module__.startswith("ipympl") and hasattr(w, "figure")}
    return list(found.values())


class Budget:
    """Records the largest Agg renderer made, and refuses one over the budget (so that the
    old code's 14,400-px figure fails fast instead of taking gigabytes)."""

    def __init__(self) -> None:
        self.largest = 0
        self.over: list[tuple[int, int]] = []

    def install(self, monkeypatch) -> None:
        budget = self
        base = backend_agg.RendererAgg

        class Recording(base):
            def __init__(self, width, height, dpi):
                pixels = int(width) * int(height)
                budget.largest = max(budget.largest, pixels)
                if pixels > guard.PIXEL_BUDGET:
                    budget.over.append((int(width), int(height)))
                    raise MemoryError(f"a {int(width)}x{int(height)} renderer")
                super().__init__(width, height, dpi)

        monkeypatch.setattr(backend_agg, "RendererAgg", Recording)


def problems_of(canvas, before: tuple[int, int]) -> list[str]:
    found = []
    ratio = canvas.device_pixel_ratio
    if not (math.isfinite(ratio) and guard.MIN_PIXEL_RATIO <= ratio <= guard.MAX_PIXEL_RATIO):
        found.append(f"pixel ratio {ratio}")
    dpi = canvas.figure.dpi
    if not (math.isfinite(dpi) and dpi > 0):
        found.append(f"dpi {dpi}")
    w, h = canvas.get_width_height(physical=False)
    if (w, h) != before and not all(guard.FIGURE_MIN_PX <= s <= guard.FIGURE_MAX_PX
                                    for s in (w, h)):
        found.append(f"size {w}x{h} CSS px")
    pw, ph = canvas.get_width_height(physical=True)
    if pw * ph > guard.PIXEL_BUDGET:
        found.append(f"{pw}x{ph} px, over the budget")
    toolbar = getattr(canvas, "toolbar", None)
    if toolbar is not None and str(getattr(toolbar, "mode", "")):
        found.append(f"toolbar in {toolbar.mode} mode")
    return found


def send(canvas, content) -> None:
    """One page message, then the page's answer to it: a request for the picture."""
    canvas.comm.handle_msg(custom(content))
    canvas.comm.handle_msg(custom({"type": "draw"}))


def make(name: str):
    return TuningChallenge() if name == "TuningChallenge" else getattr(apps, name)()


def still_works(app, canvas, drawing) -> list[str]:
    found = []
    try:
        canvas.draw()
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        found.append(f"the figure no longer draws: {type(exc).__name__}: {exc}")
    return found + still_redraws(app, drawing)


@pytest.mark.parametrize("name", APP_NAMES)
def test_the_issue_canvas_messages_stay_within_bounds(name, monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="lessons_lib.apps")
    app = make(name)
    budget = Budget()
    budget.install(monkeypatch)
    try:
        figures = canvases(app)
        assert figures, "every app shows a figure"
        drawing = [w for w in sliders(app) if redraws(app, w)]
        problems: list[str] = []
        for canvas in figures:
            before = tuple(canvas.get_width_height(physical=False))
            for content in ISSUE_MESSAGES:
                try:
                    send(canvas, content)
                except Exception as exc:  # noqa: BLE001 - the page must never see one
                    problems.append(f"{str(content)[:70]}: {type(exc).__name__}: {exc}")
                problems += [f"{str(content)[:70]}: {p}" for p in problems_of(canvas, before)]
            problems += still_works(app, canvas, drawing)
        problems += [f"a {w}x{h} px renderer was made" for w, h in budget.over]
        assert not problems, "\n".join(problems[:12])
        notes = [r.getMessage() for r in caplog.records]
        # each clamp or drop is one line in the log
        assert any("pixel ratio 30 taken as 3" in n for n in notes), notes[:5]
        assert any("toolbar_button" in n or "toolbar button" in n for n in notes), notes[:5]
        assert all("\n" not in n for n in notes)
    finally:
        plt.close(app.fig)


@pytest.mark.parametrize("name", APP_NAMES)
def test_random_canvas_messages_stay_within_bounds(name, monkeypatch):
    app = make(name)
    budget = Budget()
    budget.install(monkeypatch)
    try:
        figures = canvases(app)
        drawing = [w for w in sliders(app) if redraws(app, w)]
        before = {id(c): tuple(c.get_width_height(physical=False)) for c in figures}
        problems: list[str] = []

        @settings(max_examples=EXAMPLES * len(figures), database=None, deadline=None,
                  derandomize=not LONG, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(st.sampled_from(figures), messages)
        def barrage(canvas, content):
            try:
                send(canvas, content)
            except Exception as exc:  # noqa: BLE001 - the page must never see one
                problems.append(f"{str(content)[:70]}: {type(exc).__name__}: {exc}")
            problems.extend(f"{str(content)[:70]}: {p}"
                            for p in problems_of(canvas, before[id(canvas)]))

        barrage()
        for canvas in figures:
            problems += still_works(app, canvas, drawing)
        problems += [f"a {w}x{h} px renderer was made" for w, h in budget.over]
        assert not problems, "\n".join(problems[:12])
    finally:
        plt.close(app.fig)


def test_ordinary_ratio_and_size_messages_still_take_effect():
    app = apps.GimbalApp()
    try:
        canvas = app.fig.canvas
        base = app.fig.dpi
        send(canvas, {"type": "set_device_pixel_ratio", "device_pixel_ratio": 2})
        assert canvas.device_pixel_ratio == 2 and app.fig.dpi == 2 * base
        send(canvas, {"type": "resize", "width": 600, "height": 500})
        assert tuple(canvas.get_width_height(physical=False)) == (600, 500)
        assert tuple(canvas.get_width_height(physical=True)) == (1200, 1000)
        # a zoomed-out browser reports a ratio under 1: drawn at it, not at 1
        send(canvas, {"type": "set_device_pixel_ratio", "device_pixel_ratio": 0.5})
        assert canvas.device_pixel_ratio == 0.5
    finally:
        plt.close(app.fig)


def test_a_ratio_rise_over_the_budget_shrinks_the_figure_before_it_draws(monkeypatch):
    app = apps.GimbalApp()
    budget = Budget()
    budget.install(monkeypatch)
    try:
        canvas = app.fig.canvas
        send(canvas, {"type": "resize", "width": 2000, "height": 1500})
        assert tuple(canvas.get_width_height(physical=False)) == (2000, 1500)
        send(canvas, {"type": "set_device_pixel_ratio", "device_pixel_ratio": 3})
        w, h = canvas.get_width_height(physical=False)
        assert canvas.device_pixel_ratio == 3 and abs(w / h - 2000 / 1500) < 0.01
        assert not budget.over and budget.largest <= guard.PIXEL_BUDGET
        assert budget.largest > guard.PIXEL_BUDGET * 0.95  # drawn as large as allowed
    finally:
        plt.close(app.fig)


def test_a_drag_still_arrives_through_the_guard():
    """Pointer events a lesson handles go through, checked: a press and release on the
    figure reach its handlers (lesson 4's grid: a click moves the start or goal)."""
    app = apps.GridApp()
    try:
        canvas = app.fig.canvas
        seen = []
        canvas.mpl_connect("button_press_event", lambda e: seen.append((e.x, e.y)))
        canvas.comm.handle_msg(custom({**POINTER, "type": "button_press", "x": 50, "y": 40,
                                       "buttons": 1}))
        assert seen and seen[0][0] == 50
        canvas.comm.handle_msg(custom({**POINTER, "type": "button_press", "x": NAN}))
        assert len(seen) == 1
    finally:
        plt.close(app.fig)


def test_a_pointer_move_sends_no_coordinate_readout():
    """A lesson figure's hidden toolbar does not work out and send the pointer's coordinates
    on each move (a plain ipympl figure does: the check can fail)."""
    from lessons_lib.apps.core.figure import use_ipympl

    def readout(fig) -> str:
        canvas = fig.canvas
        canvas.draw()
        x, y = fig.axes[0].bbox.x0 + 40, fig.axes[0].bbox.y0 + 30
        canvas.comm.handle_msg(custom({**POINTER, "type": "motion_notify", "x": x,
                                       "y": canvas.figure.bbox.height - y, "buttons": 0}))
        return canvas._message

    use_ipympl()
    plain = plt.figure()
    plain.add_subplot(projection="3d")
    app = apps.GimbalApp()
    try:
        assert "y=" in readout(plain)          # e.g. "x pane=-0.02, y=0.05, z=-0.51"
        assert readout(app.fig) == ""
    finally:
        plt.close(plain)
        plt.close(app.fig)


#: The figures not in the catalogue's apps: lesson 2's and lesson 4's small copies (the
#: loop's copy()), lesson 3's term figures and lesson 1's reach exercise.
MORE_FIGURES = {
    "InterpolationApp.copy()": lambda: apps.InterpolationApp().copy(),
    **{f"TermApp({t})": functools.partial(TermApp, term=t)
       for t in ("position", "heading", "crosstrack")},
    "FunnelApp.copy()": lambda: apps.FunnelApp().copy(),
    "ReachExercise": lambda: ReachExercise().app,
}


@pytest.mark.parametrize("name", sorted(MORE_FIGURES))
def test_integers_beyond_float_range_are_dropped_by_every_figure(name, caplog):
    """Issue 46: a 401-digit integer as a size, ratio or pointer position made the guard
    itself raise OverflowError (out of the comm handler); it is dropped like any bad
    number, with one line in the log, and the figure keeps its size and ratio."""
    caplog.set_level(logging.INFO, logger="lessons_lib.apps")
    app = MORE_FIGURES[name]()
    try:
        for canvas in canvases(app):
            before = tuple(canvas.get_width_height(physical=False))
            ratio = canvas.device_pixel_ratio
            for content in BIG_INTEGER_MESSAGES:
                send(canvas, content)
                assert problems_of(canvas, before) == []
            assert canvas.device_pixel_ratio == ratio
            assert tuple(canvas.get_width_height(physical=False)) == before
        notes = [r.getMessage() for r in caplog.records]
        assert any("within float range" in n and "401-digit" in n for n in notes), notes[:5]
    finally:
        plt.close("all")


_STATE_KEYS = sorted(guard.CANVAS_STATE | {"_width", "_figure_label", "toolbar_visible"})


@settings(max_examples=4 * EXAMPLES, database=None, deadline=None, derandomize=not LONG,
          phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
@given(state=st.dictionaries(st.sampled_from(_STATE_KEYS),
                             st.one_of(values, st.text(max_size=20)), max_size=3),
       method=st.sampled_from(["update", "request_state", "custom", "bogus", None]))
@example(state={"_rubberband_x": 10**400}, method="update").via("issue 46")
@example(state={"_rubberband_width": -(10**400), "_data_url": "x"}, method="update")
def test_every_message_kind_to_a_canvas_is_taken_or_dropped(state, method):
    """The canvas's other message kinds (its synced state, a state request, unknown
    methods), with values beyond float range among them: each is applied or dropped with a
    line in the log, never raised to the comm."""
    canvas = _STATE_APP().fig.canvas
    before = tuple(canvas.get_width_height(physical=False))
    data = {"method": method, "state": state, "buffer_paths": [], "content": state}
    canvas.comm.handle_msg({"content": {"data": data}, "buffers": []})
    assert problems_of(canvas, before) == []


@functools.cache
def _STATE_APP():
    return apps.GridApp()
