"""Lesson 3 app: place a car beside a spline and watch the three steering terms drive it.

Top: the whole track and a close-up with the article's debug colours (blue point = progress
on the spline, red point = look-ahead target, yellow line = car to target, green arrow =
tangent at the target, orange arrow = crosstrack offset); on the 3D ramp the close-up becomes
a 3/4 view with both right vectors. Click or drag on the whole-track map to put the car
somewhere else. Bottom: each term's share of the steering against time, or the speed sweep,
or the phase portrait of the three controllers.

The model (:mod:`.model`) is pure and cached; a control change re-simulates (or reuses a
cached run), a time change only moves artists.
"""

from __future__ import annotations

import html
import time
from functools import partial

import ipywidgets as widgets
import numpy as np

from ... import validate as check
from ...i18n import N_, _
from ..core import (
    PALETTE,
    Choice,
    DragHandler,
    Frame,
    LessonApp,
    Preset,
    Slider,
    Toggle,
)
from ..core.app import takes_params
from ..core.text import when_more
from ..core.theme import TEXT
from . import model, panel
from .model import CONTROLLERS, DEFAULTS, DURATION, SCENARIOS, TRACK_LABELS, VIEWS, SteeringState
from .view import SteeringView

#: The tunables' label column: 150 px cut "Crosstrack gain (1/m)" to "(1/…" (151 px at 14 px).
LABEL_WIDTH = "168px"

#: The article's tunables, in the "All steering parameters" accordion.
PARAM_CONTROLS = (
    Slider("look_ahead_base", N_("Look-ahead base (m)"), 0.0, 15.0, step=0.5,
           value=DEFAULTS["look_ahead_base"], readout=".1f", label_width=LABEL_WIDTH,
           width="400px"),
    Slider("look_ahead_speed_factor", N_("+ speed × (s)"), 0.0, 2.0, step=0.05,
           value=DEFAULTS["look_ahead_speed_factor"], readout=".2f", label_width=LABEL_WIDTH,
           width="400px"),
    Slider("fixed_look_ahead", N_("Fixed look-ahead (m)"), 0.5, 40.0, step=0.5,
           value=DEFAULTS["fixed_look_ahead"], readout=".1f", label_width=LABEL_WIDTH,
           width="400px"),
    Slider("heading_weight", N_("Heading weight"), 0.0, 1.0, step=0.05,
           value=DEFAULTS["heading_weight"], readout=".2f", label_width=LABEL_WIDTH, width="400px"),
    Slider("max_yaw_delta", N_("Max yaw delta (°)"), 5.0, 120.0, step=1.0,
           value=DEFAULTS["max_yaw_delta"], readout=".0f", label_width=LABEL_WIDTH, width="400px"),
    Slider("crosstrack_gain", N_("Crosstrack gain (1/m)"), 0.0, 1.0, step=0.01,
           value=DEFAULTS["crosstrack_gain"], readout=".2f", label_width=LABEL_WIDTH,
           width="400px"),
)
_W = {"label_width": "150px", "width": "400px"}


def _note(scenario: model.Scenario, state: SteeringState) -> str:
    """A preset's note: what it shows, and the tunables it sets, named as sliders where
    "More controls" can be opened and as what the car does in presenter mode."""
    return scenario.claim(state) + when_more(scenario.changed(), scenario.changed(hidden=True))
#: the controls a placement of the car on the map sets (its note stays until another changes)
_PLACED = ("start_distance", "start_offset")


class SteeringApp(LessonApp):
    """The car, the spline, the three terms and the steering, for any settings and start.

    Controls (attributes, see :attr:`controls`): ``track``, ``controller``, ``speed``,
    ``mode``, ``use_position``, ``use_heading``, ``use_crosstrack``, ``start_distance``,
    ``start_offset``, ``start_heading`` (both + right), ``view`` and the six parameters of
    :data:`PARAM_CONTROLS`; the frame ``time`` (seconds) with ``play_button``. Results:
    ``state`` (a :class:`.model.SteeringState`), ``trajectory``, ``metrics``. Artists:
    ``view`` is taken by the control, so they are on ``scene`` (and aliased: ``car_patch``,
    ``progress_dot``, ``target_dot``, ``target_line``, ``tangent_arrow``, ``offset_arrow``,
    ``path_line``, ``term_lines``, ``cursor``).
    """

    controls = (
        Choice("track", N_("Track"), [(label, key) for key, label in TRACK_LABELS.items()],
               value=DEFAULTS["track"], **_W),
        Choice("controller", N_("Controller"), CONTROLLERS, value="Article", style="toggle",
               primary=True,
               help=N_("the article's three terms, or a classic controller on the same car"),
               **_W),
        Slider("speed", N_("Speed (m/s)"), 2.0, 25.0, step=0.5, value=DEFAULTS["speed"],
               primary=True, readout=".1f", **_W),
        Choice("mode", N_("Look-ahead"), (N_("Adaptive"), N_("Fixed")), value="Adaptive",
               style="toggle",
               help=N_("adaptive: (base + speed × factor) × curvature scale; fixed: one "
                       "distance"), **_W),
        Toggle("use_position", N_("Position Delta"), value=True, primary=True),
        Toggle("use_heading", N_("Heading Delta"), value=True, primary=True),
        Toggle("use_crosstrack", N_("Crosstrack"), value=True, primary=True),
        Slider("start_distance", N_("Start along (m)"), 0.0, 303.5, step=0.5, value=0.0,
               readout=".1f", **_W),
        Slider("start_offset", N_("Start offset (m)"), -model.MAX_OFFSET, model.MAX_OFFSET,
               primary=True,
               step=0.1, value=0.0, readout="+.1f", help=N_("+ = right of the centre line"), **_W),
        Slider("start_heading", N_("Start heading (°)"), -45.0, 45.0, step=1.0, value=0.0,
               primary=True,
               readout="+.0f", help=N_("+ = pointing right of the road"), **_W),
        Choice("view", N_("Lower plot"), VIEWS, value="Terms", style="toggle", primary=True, **_W),
        *PARAM_CONTROLS,
    )
    # 25 frames a second of real time: asking exactly 20, a busy page showed 19.3 to 19.9
    frame = Frame("time", N_("Time (s)"), 0.0, DURATION, step=0.04, value=0.0, interval_ms=40,
                  seconds_per_unit=1.0, readout=".2f", width="430px", label_width="60px")
    presets = tuple(Preset(sc.name, sc.values, description=partial(_note, sc))
                    for sc in SCENARIOS)
    custom_label = N_("(your own settings)")

    # -- the loop ---------------------------------------------------------------------------
    def build(self) -> None:
        self.scene = SteeringView()
        s = self.scene
        self.fig = s.fig
        self.ax_map, self.ax_close, self.ax_terms = s.ax_map, s.ax_close, s.ax_terms
        self.ax_slope, self.ax_phase, self.ax_rms = s.ax_slope, s.ax_phase, s.ax_rms
        for name in ("car_patch", "progress_dot", "target_dot", "target_line",
                     "tangent_arrow", "offset_arrow", "path_line", "term_lines", "cursor"):
            setattr(self, name, getattr(s, name))
        self.placement_note = ""
        self._substeps_for = (None, 3)     # (state, motion_substeps) of a run off the road
        self._placed_with = None       # the other controls' values when the car was placed
        self.drag = DragHandler(self.fig, self.guard(self._on_press),
                                self.guard(self._on_drag))

    @takes_params
    def compute(self, params):
        return model.compute(params)

    def apply_preset(self, name: str) -> None:
        """The preset's controls, then its moment on the time slider: the one its
        description talks about (the bend, the weave), not the start of the drive. The
        moment is no part of the preset: scrubbing or Play keeps it selected."""
        super().apply_preset(name)
        self.set(time=_MOMENTS[name])

    @takes_params
    def control_bounds(self, params) -> dict:
        """The start goes at most to the track's end (a short track, a shorter slider)."""
        return {"start_distance": (0.0, model.max_start_distance(model.road(params.track)))}

    @check.first_is(SteeringState, "the app's .state")
    def frame_end(self, state) -> float:
        """Time and Play end where the run ends (an open road ends early), so Play at the
        end starts again at once."""
        return float(state.trajectory.t[-1])

    @takes_params
    def refresh_controls(self, params) -> None:
        if self.placement_note and _others(params) != self._placed_with:
            self.placement_note = ""     # a control other than the start changed
        reasons = model.disabled_controls(params)
        for name in ("controller", "mode", "use_position", "use_heading", "use_crosstrack",
                     *(c.name for c in PARAM_CONTROLS)):
            self.set_enabled(name, name not in reasons, reasons.get(name, ""))

    @check.first_is(SteeringState, "the app's .state")
    def draw(self, state, time) -> None:
        self.scene.show_state(state)
        self.scene.draw(state, time)

    def dynamic_artists(self):
        """What a frame moves, drawn over a cached background (fastdraw.painter): the car,
        its two points and the line between them on both maps, the arrows, the cursor."""
        s = self.scene
        moving = [s.tangent_arrow, s.offset_arrow, s.cursor, s.phase_dot]
        for view in (s.overview, s.closeup):
            moving += [view.car, view.progress_dot, view.target_dot, view.target_line]
        # what a new run changes, so that a new run (a control, a drag of the car) redraws
        # these instead of re-rendering the map and the terms plot with their ticks; with
        # what lies over them on the map (start and end marks, the title's white box)
        o = s.overview
        moving += [*s.term_lines.values(), s.end_line, o.path_line, o.start_mark, o.end_mark,
                   o.title]
        return moving

    @property
    def motion_substeps(self) -> int:
        """Frames Play in the page draws a step of time: three, 75 a second at Play's 40 ms
        a step over a run sampled 60 times a second, so a 60 Hz display gets a new one at
        every refresh (the run's own step moves on at most of them). A car that leaves the
        road may loop, and the loops in the close-up can take twice a frame's bytes: for
        such a run, the most frames a step (3, 2 or 1) whose animation, estimated from
        frames recorded across the run, takes at most :data:`MOTION_SHARE` of the bound
        (once a state)."""
        state = getattr(self, "state", None)
        if state is None or not model.left_road(state.run):
            return 3
        if self._substeps_for[0] is not state:
            self._substeps_for = (state, self._fitting_substeps())
        return self._substeps_for[1]

    def _fitting_substeps(self) -> int:
        from ..fastdraw import record

        last = self.play.max
        steps = np.unique(np.linspace(0, last, MOTION_SAMPLE).round().astype(int))
        sample = [self.frame.at(int(i)) for i in steps]
        per_frame = self.record_motion(sample).nbytes / len(sample)
        return next((sub for sub in (3, 2) if (last * sub + 1) * per_frame
                     <= MOTION_SHARE * record.LIMITS.animation_bytes), 1)

    def motion_artists(self):
        """Everything time moves, for Play drawn by the page, with what is drawn over it:
        on the whole-track map the car, its two points and the line between them, and the
        title over them; the close-up, and on a 3D track the slope view, whole (their
        limits follow the car: everything in them moves on the screen); the time plot's
        cursor with the key over it, and the phase portrait's dot."""
        s, o = self.scene, self.scene.overview
        return [o.car, o.target_line, o.progress_dot, o.target_dot, o.title, s.ax_close,
                s.ax_slope, s.cursor, s.terms_legend, s.phase_dot]

    def motion_still(self):
        """The time plot's key and the map's title: over what moves, unmoved themselves."""
        return [self.scene.terms_legend, self.scene.overview.title]

    def slide_texts(self) -> dict:
        """A GIF cannot be clicked: its map is titled without "click to place the car"."""
        return {self.scene.overview.title: _(self.scene.MAP_SLIDE_TITLE)}

    @check.first_is(SteeringState, "the app's .state")
    def panel(self, state, time) -> dict[str, str]:
        labels = {spec.name: spec.label for spec in self.controls}
        notes = [panel.disabled_note(state, labels)]
        if state.view == "Speed sweep":
            notes.insert(0, panel.sweep_caption(state))
        for note in (html.escape(state.off_road), html.escape(state.note),
                     self.placement_note):
            if note:
                notes.insert(0, f"<div style='{TEXT};color:{PALETTE['blue']}'>"
                                f"&#8505; {note}</div>")
        labels = {c: r.label for c, r in state.runs().items()}
        readout = panel.readout(state, time)
        if not self.scene.slope_crosstrack_shown:     # the figure has no room for them
            readout += panel.slope_crosstrack(state, time)
        return {"readout": readout, "numbers": panel.numbers(state),
                "notes": "".join(notes), "key": panel.colour_key(state.view, labels)}

    def layout(self) -> widgets.Widget:
        """Beside the figure (under it on a narrow page): Play and Time, the preset, the
        start, the speed, the three terms, the controller and the lower plot (the lesson's
        text names them), then the readout; the track, the look-ahead mode, where the car
        starts along the road and the six tunables behind "More controls"."""
        terms = widgets.HBox([self.use_position, self.use_heading, self.use_crosstrack],
                             layout=widgets.Layout(flex_flow="row wrap"))
        return self.arrange(
            primary=[self.play_row(), self.preset, self.speed, self.start_offset,
                     self.start_heading, terms, self.controller, self.view],
            readout=[self.panel_widget("readout"), self.panel_widget("numbers")],
            extra=[self.panel_widget("key"), self.panel_widget("notes"), self.status],
            explain=[self.preset_note],
            secondary=[self.track, self.mode, self.start_distance,
                       *(getattr(self, c.name) for c in PARAM_CONTROLS)],
            side=420, name="steering-app")

    def resized(self, width: int, height: int) -> None:
        self.scene.fit_margins(width, height)

    # -- results ---------------------------------------------------------------------------
    @property
    def trajectory(self):
        return self.state.trajectory

    @property
    def metrics(self) -> dict:
        return self.state.metrics

    @property
    def spline(self):
        return self.state.spline

    def steering_params(self):
        """The :class:`lessons_lib.steering.SteeringParams` the controls describe."""
        return model.steering_params(self.params)

    def pointer_cost(self) -> float:
        """A drag on the map re-simulates from another start: one such run, in CPU time.
        Not the first compute, which also built the road and filled caches and so paced the
        drag too slowly (see docs/performance.md)."""
        p = self.params
        other = p.replace(start_offset=-p.start_offset if p.start_offset else 0.1)
        start = time.thread_time()
        model.compute(other)
        return time.thread_time() - start

    # -- placing the car by clicking or dragging on the map -----------------------------------
    def place_car(self, x: float, y: float) -> None:
        """Start the car beside the road's point nearest (x, y), from the first frame, on
        the sliders' steps (the page would snap it there and send that back as a second
        move); the panel says when the point was off the road or beyond an open road's
        ends."""
        placed = model.place(self.spline, check.real(x, "x", unit="m"),
                             check.real(y, "y", unit="m"))
        self.placement_note, self._placed_with = placed.note, _others(self.params)
        self.set(start_distance=self.on_grid("start_distance", placed.start_distance),
                 start_offset=self.on_grid("start_offset", placed.start_offset), time=0.0)
        self.redraw()

    def _on_press(self, event):
        if event.inaxes is not self.ax_map or event.xdata is None:
            return None
        self.place_car(float(event.xdata), float(event.ydata))
        return "car"

    def _on_drag(self, _item, event) -> None:
        if event.inaxes is self.ax_map:
            self.place_car(float(event.xdata), float(event.ydata))


#: Frames recorded across a run that leaves the road to choose its motion_substeps, and
#: the share of the animation bound the estimate may take (room for what falls between).
MOTION_SAMPLE, MOTION_SHARE = 12, 0.85
#: each preset's moment (s), where its description can be seen
_MOMENTS = {sc.name: sc.moment for sc in SCENARIOS}


def _others(params) -> dict:
    return {k: v for k, v in params.items() if k not in _PLACED}
