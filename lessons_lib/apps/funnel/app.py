"""Lesson 4's funnel app on the shared loop: step the funnel through a navmesh corridor.

Declared controls: start and goal (sliders, also dragged on the map), the agent radius and
how it is handled, which corridor the funnel runs in, and three overlays; the frame control
is the step of the trace, so stepping only re-draws and never searches again. The model is
:func:`.model.compute_funnel`; the artists are :class:`.view.FunnelView`.
"""

from __future__ import annotations

import functools
import html
import math

import ipywidgets as widgets
import numpy as np

from ... import validate as check
from ...i18n import N_, _
from ..core import (
    PALETTE,
    Choice,
    Frame,
    LessonApp,
    Preset,
    Slider,
    Toggle,
    figure_size,
    fmt_number,
    make_figure,
)
from ..core.app import takes_params
from ..core.layout import SIDE_PX
from ..core.theme import TEXT
from . import model, panel
from .model import (
    BAD_CORRIDOR_GOAL,
    BAD_CORRIDOR_START,
    CORRIDORS,
    DEFAULT_GOAL,
    DEFAULT_START,
    METHODS,
    FunnelState,
)
from .view import FunnelView

#: natural figure sizes (hundreds of CSS px): the lesson's app, and a small copy beside an
#: exercise (the same map's aspect)
FULL_SIZE = (6.6, 4.25)
COMPACT_SIZE = (4.4, 2.85)
#: what the map leaves under it for the step text (at least 4em, often five lines of 14 px
#: text) and the preset's note: in presenter mode at 1920x1080 a step sentence a line
#: longer than the shared three lines covered the step slider under a copy's map
STEP_TEXT_PX = 120
#: the most steps a trace on the lesson map takes, with room to spare (the frame's range)
MAX_STEPS = 400
#: start and goal of the two-rooms route, corner to corner
ROOMS_START = (1.2, 1.0)
ROOMS_GOAL = (14.8, 9.0)
#: a route where the Catmull-Rom curve through the funnel path leaves the floor
CURVE_START = (0.9, 1.8)
CURVE_GOAL = (14.1, 9.6)


def _coordinate(name: str, label: str, top: float, value: float, help: str) -> Slider:
    return Slider(name, label, 0.0, top, step=0.05, value=value, readout=".2f",
                  label_width="52px", width="205px", help=help)


def _where(start, goal) -> dict:
    return {"start_x": start[0], "start_y": start[1], "goal_x": goal[0], "goal_y": goal[1]}


_PLAIN = {"radius": 0.0, "method": "shrink", "corridor": "astar", "show_curve": False,
          "show_shortest": False}


def _describe_article(state: FunnelState) -> str:
    L = state.lengths
    return _("The article's case: {portals} portals crossed with {corners} corners; "
             "{zigzag} m of zigzag become {path} m, {saved} shorter.").format(
        portals=len(state.portals), corners=state.n_corners,
        zigzag=fmt_number(L["midpoints"], 2), path=fmt_number(L["path"], 2),
        saved=fmt_number(state.saved, 0) + "%")


def _describe_bad(state: FunnelState) -> str:
    return _("A* over polygon midpoints picks the corridor left of the pillar. The funnel is "
             "the shortest line inside it and still {excess} longer than the exact shortest "
             "path (sky blue), which passes right of it. Switch the corridor to see it."
             ).format(excess=fmt_number(state.excess("path"), 1) + "%")


def _describe_shrink(state: FunnelState) -> str:
    if not state.ok:
        return state.error
    return _("Shrunk portals keep only {d} m ({ratio} r) from the nearest corner, circled "
             "on the map.").format(d=fmt_number(state.clearance, 2),
                                   ratio=fmt_number(state.clearance / state.radius, 2))


def _describe_erode(state: FunnelState) -> str:
    if not state.ok:
        return state.error
    return _("Eroding the floor by r and baking again keeps {d} m from every wall: the full "
             "radius. The path makes {corners}.").format(d=fmt_number(state.clearance, 2),
                                                         corners=panel.corner_count(state))


def _describe_push(state: FunnelState) -> str:
    if not state.ok:
        return state.error
    d, r = state.clearance, state.radius
    on_corner = any(np.allclose(state.clearance_at[0], c) for c in state.path[1:-1])
    if d >= r - 1e-9:
        kept = _("the full radius")
    elif on_corner:
        kept = _("closest at a pushed corner, circled on the map")
    else:
        kept = _("closest on a straight piece between pushed corners, circled on the map")
    return _("Pushing each corner of the funnel path r out (dashed) keeps {d} m ({ratio} r) "
             "from the walls and pillars: {kept}.").format(
        d=fmt_number(d, 2), ratio=fmt_number(d / r, 2), kept=kept)


def _describe_door(state: FunnelState) -> str:
    if state.other_method_passes is False:
        return _("A 1.5 m door and a 0.8 m radius: shrinking the portals refuses it, and "
                 "eroding the floor closes the door too.")
    return _("A 1.5 m door and a 0.8 m radius: shrinking the portals refuses it, but eroding "
             "the floor lets it through.")


def _describe_curve(state: FunnelState) -> str:
    if state.curve is None:
        return ""
    from ...pathsmooth import path_length

    return _("The curve is {curve} m against the funnel's {path} m, and {off} of its "
             "{samples} samples (crosses) lie inside a wall or pillar.").format(
        curve=fmt_number(path_length(state.curve), 2), path=fmt_number(path_length(state.path), 2),
        off=len(state.curve_off), samples=len(state.curve))


def _describe_rooms(_state: FunnelState) -> str:
    return _("Through the lower door and past the right pillar.")


PRESETS = (
    Preset(N_("The article's corridor: 7 portals, 3 corners"),
           {**_where(DEFAULT_START, DEFAULT_GOAL), **_PLAIN}, _describe_article),
    Preset(N_("Two rooms, corner to corner"), {**_where(ROOMS_START, ROOMS_GOAL), **_PLAIN},
           _describe_rooms),
    Preset(N_("A* picks the wrong side of the pillar"),
           {**_where(BAD_CORRIDOR_START, BAD_CORRIDOR_GOAL), **_PLAIN, "show_shortest": True},
           _describe_bad),
    Preset(N_("Radius 0.4 m by shrinking the portals"),
           {**_where(DEFAULT_START, DEFAULT_GOAL), **_PLAIN, "radius": 0.4}, _describe_shrink),
    Preset(N_("Radius 0.4 m by eroding the floor"),
           {**_where(DEFAULT_START, DEFAULT_GOAL), **_PLAIN, "radius": 0.4, "method": "erode"},
           _describe_erode),
    Preset(N_("Radius 0.4 m by pushing the corners out"),
           {**_where(DEFAULT_START, DEFAULT_GOAL), **_PLAIN, "radius": 0.4, "method": "push"},
           _describe_push),
    Preset(N_("A door narrower than the agent"),
           {**_where((1.2, 1.0), (14.5, 1.0)), **_PLAIN, "radius": 0.8}, _describe_door),
    Preset(N_("The curve clips the wall"),
           {**_where(CURVE_START, CURVE_GOAL), **_PLAIN, "show_curve": True}, _describe_curve),
)


class FunnelApp(LessonApp):
    """Step the funnel algorithm through the corridor between a start and a goal.

    Controls (attributes): ``start_x``, ``start_y``, ``goal_x``, ``goal_y``, ``radius``,
    ``method``, ``corridor``, ``show_zigzag``, ``show_shortest``, ``show_curve``; the frame
    ``step`` with ``play_button``, ``rewind_button``, ``prev_button``, ``next_button``,
    ``end_button``; ``click_mode`` (what a click on the map moves). ``view`` holds the
    artists. :meth:`set_points` moves start and goal from code. :meth:`copy` (the loop's)
    makes a small copy for beside an exercise (as lesson 1's): the map with its steps and
    the step sentence only; the case is set by the exercise's "Show this case" button.
    """

    controls = (
        _coordinate("start_x", N_("start x"), 16.0, DEFAULT_START[0], N_("start x in metres")),
        _coordinate("start_y", N_("start y"), 10.0, DEFAULT_START[1], N_("start y in metres")),
        _coordinate("goal_x", N_("goal x"), 16.0, DEFAULT_GOAL[0], N_("goal x in metres")),
        _coordinate("goal_y", N_("goal y"), 10.0, DEFAULT_GOAL[1], N_("goal y in metres")),
        Slider("radius", N_("agent radius"), 0.0, 0.9, step=0.05, value=0.0, readout=".2f",
               primary=True,
               label_width="95px", width="330px", help=N_("the agent's radius in metres")),
        Choice("method", N_("radius by"), METHODS, value="shrink", label_width="95px",
               primary=True, width="400px",
               help=N_("how the path keeps the agent's radius from the walls")),
        Choice("corridor", N_("corridor"), CORRIDORS, value="astar", label_width="95px",
               primary=True, width="400px", help=N_("the polygons the funnel runs through")),
        Toggle("show_zigzag", N_("portal-midpoint zigzag (grey)"), value=True, redraw=True),
        Toggle("show_shortest", panel.SHORTEST_TOGGLE, value=False, redraw=True),
        Toggle("show_curve", N_("Catmull-Rom curve through the path"), value=False),
    )
    frame = Frame("step", N_("step"), 0, MAX_STEPS, step=1, value=0, integer=True,
                  interval_ms=900, label_width="40px", width="300px",
                  help=N_("the step of the walk through the corridor"))
    presets = PRESETS
    #: a learner steps back and forth between a few starts, radii and methods
    compute_cache = 8
    compact_size = COMPACT_SIZE

    def __init__(self, preset: str | None = None, *, width: float | None = None,
                 height: float | None = None, **controls) -> None:
        self._size = figure_size(FULL_SIZE[0] if width is None else width,
                                 FULL_SIZE[1] if height is None else height)
        super().__init__(preset, **controls)
        if "step" not in controls:      # it opens at the finished path (a copy: where its
            self.go_to_end()            # original's step was)
        if self.compact:
            return      # the lesson's own app builds the floors below (one cache for all)
        # each radius's floor is built on its first visit (~50 ms, the slider's slowest
        # step): in a kernel, build them all while the learner reads
        r = self.radius
        self.when_idle(functools.partial(model.prepare_floor, r.min + k * r.step)
                       for k in range(1, round((r.max - r.min) / r.step) + 1))

    # -- the loop ---------------------------------------------------------------------------
    def build(self) -> None:
        self.fig = make_figure(*self.figure_inches(self._size))
        _free, mesh = model.lesson_floor()
        self.mesh = mesh
        self.click_note, self._noted_with = "", None   # what the last click was told
        self.view = FunnelView(self.fig, mesh)
        self.ax = self.view.ax
        small = widgets.Layout(width="44px")
        # text, not only an icon: a room without internet gets no icon font (Font Awesome
        # comes from a CDN), and an icon-only button is then a blank box
        self.prev_button = widgets.Button(description="\u25C0", tooltip=_("previous step"),
                                          layout=small)
        self.next_button = widgets.Button(description="\u25B6", tooltip=_("next step"),
                                          layout=small)
        self.end_button = widgets.Button(description=_("finish"), icon="fast-forward",
                                         tooltip=_("jump to the finished path"),
                                         layout=widgets.Layout(width="90px"))
        self.prev_button.on_click(self.guard(lambda _b: self.nudge(-1)))
        self.next_button.on_click(self.guard(lambda _b: self.nudge(+1)))
        self.end_button.on_click(self.guard(lambda _b: self.go_to_end()))
        self.click_mode = widgets.ToggleButtons(
            options=[(_("start"), "start"), (_("goal"), "goal")], value="goal",
            description=_("click moves"),
            tooltip=_("what a click on the map moves: the start or the goal"),
            style={"description_width": "95px", "button_width": "70px"})
        self.drag = self.drag_handler(self._on_press, self._on_move)

    @takes_params
    def compute(self, params) -> FunnelState:
        return model.compute_funnel(params)

    @check.first_is(FunnelState, "the app's .state")
    def frame_end(self, state: FunnelState) -> int:
        """The step slider and Play end at the trace's last beat (a step that fixes a
        corner takes two: the crossing, then the apex's move)."""
        return max(state.n_beats - 1, 0)

    def _step_index(self, state: FunnelState, frame) -> int | None:
        """The beat shown at ``frame`` (None without a trace)."""
        if not state.beats:
            return None
        return int(min(max(int(frame or 0), 0), state.n_beats - 1))

    @check.first_is(FunnelState, "the app's .state")
    def draw(self, state: FunnelState, frame) -> None:
        k = self._step_index(state, frame)
        p = self.params
        self.view.draw_route(state, p.show_zigzag, p.show_shortest)
        self.view.draw_step(state, k)

    def dynamic_artists(self):
        return self.view.dynamic_artists()

    def motion_artists(self):
        """Play drawn by the page: a step changes only the step artists and what lies over
        them (the same as the painter's), one frame a step (the steps are the beats)."""
        return self.view.dynamic_artists()

    def drag_artists(self, item):
        """Dragging the start or the goal changes the route and its steps (not the floor)."""
        return self.view.route_artists()

    @check.first_is(FunnelState, "the app's .state")
    def panel(self, state: FunnelState, frame) -> dict[str, str]:
        k = self._step_index(state, frame)
        note = self.click_note
        if note and dict(self.params) != self._noted_with:
            note = self.click_note = ""     # another change since the click
        note = (f"<div style='{TEXT};color:{PALETTE['blue']}'>&#8505; "
                f"{html.escape(note)}</div>" if note else "")
        return {"step": note + panel.step_html(state, k if k is not None else 0),
                "lengths": panel.lengths_html(state, self.params.show_shortest),
                "radius": panel.radius_html(state)}

    def layout(self) -> widgets.Widget:
        """Beside the map (under it on a narrow page): the preset, the agent's radius, how
        it is kept and the corridor (the lesson's text names them), then the steps and the
        step sentence; where start and goal are and the extra paths behind "More
        controls"."""
        steps_row = widgets.HBox([self.play_button, self.rewind_button, self.prev_button,
                                  self.next_button, self.step, self.end_button],
                                 layout=widgets.Layout(align_items="center",
                                                       flex_flow="row wrap"))
        where = widgets.VBox([widgets.HBox([self.start_x, self.start_y],
                                           layout=widgets.Layout(flex_flow="row wrap")),
                              widgets.HBox([self.goal_x, self.goal_y],
                                           layout=widgets.Layout(flex_flow="row wrap"))])
        return self.arrange(
            # the steps last, with the step sentence right under them: each press of ▶ is
            # read there, and a sentence that grows or shrinks moves no control above it
            primary=[self.preset, self.radius, self.method, self.corridor, steps_row],
            readout=[self.panel_widget("lengths")],
            explain=[self.panel_widget("step", min_height="4em"), self.preset_note],
            explain_px=STEP_TEXT_PX,
            extra=[self.panel_widget("radius"), self.click_mode,
                   widgets.HTML(panel.legend_html()), self.status],
            secondary=[where, self.show_zigzag, self.show_shortest, self.show_curve],
            side=430 if not self.compact else SIDE_PX,
            name="funnel-app-copy" if self.compact else "funnel-app-main",
            # the small copy: the map, its steps and the step sentence under the map (an
            # exercise's question sits beside it)
            copy_keeps=[steps_row, self.panel_widget("step")])

    def apply_preset(self, name: str) -> None:
        """Every preset opens at the finished path, as the app does: its description talks
        about the path (at step 0, the A* preset's 'perfectly funnelled path' was not drawn
        yet); step back from there, or press the rewind button to walk it."""
        super().apply_preset(name)
        self.go_to_end()

    # -- stepping ---------------------------------------------------------------------------
    def nudge(self, delta: int) -> None:
        delta = check.integer(delta, "delta")
        self.show_frame(int(min(max(self.step.value + delta, 0), self.step.max)))

    def go_to_end(self) -> None:
        self.show_frame(int(self.step.max))

    # -- start and goal -----------------------------------------------------------------------
    def set_points(self, start=None, goal=None) -> None:
        """Move the start and/or goal (map coordinates, on the floor) and run everything.
        Each goes to the nearest point on the floor of its sliders' 0.05 m steps: the page
        would snap it there anyway, and send that back as a second move."""
        values = {}
        for name, p in (("start", start), ("goal", goal)):
            if p is None:
                continue
            x, y = check.point(p, name).tolist()
            snapped = (self._on_floor_grid(name, x, y)
                       if math.isfinite(x) and math.isfinite(y)
                       and self.mesh.locate((x, y)) is not None else None)
            if snapped is None:
                raise ValueError(_("the {name} ({x}, {y}) is inside a wall or outside the map: "
                               "put it on the floor").format(name=_(name), x=f"{x:.2f}",
                                                             y=f"{y:.2f}"))
            values[f"{name}_x"], values[f"{name}_y"] = snapped
        self.set(**values)

    def _on_floor_grid(self, name: str, x: float, y: float) -> tuple[float, float] | None:
        """The sliders' grid point nearest (x, y) that is on the floor (of the 3 x 3 around
        the nearest one: a point by a wall may round into it), or None."""
        sx, sy = self.on_grid(f"{name}_x", x), self.on_grid(f"{name}_y", y)
        step_x, step_y = getattr(self, f"{name}_x").step, getattr(self, f"{name}_y").step
        around = sorted(((self.on_grid(f"{name}_x", sx + i * step_x),
                          self.on_grid(f"{name}_y", sy + j * step_y))
                         for i in (-1, 0, 1) for j in (-1, 0, 1)),
                        key=lambda q: math.hypot(q[0] - x, q[1] - y))
        return next((q for q in around if self.mesh.locate(q) is not None), None)

    @property
    def start(self) -> np.ndarray:
        return np.array([self.start_x.value, self.start_y.value])

    @property
    def goal(self) -> np.ndarray:
        return np.array([self.goal_x.value, self.goal_y.value])

    def _on_press(self, event):
        if event.inaxes is not self.ax or event.xdata is None:
            return None
        for name in ("start", "goal"):
            p = getattr(self, name)
            if math.hypot(p[0] - event.xdata, p[1] - event.ydata) < 0.6:
                return name
        self.click_point(self.click_mode.value, float(event.xdata), float(event.ydata))
        return None

    def click_point(self, name: str, x: float, y: float) -> None:
        """A click at (x, y) moves ``name`` ("start" or "goal") there; a click inside a wall
        or a pillar, or outside the hall, moves it to the nearest point of the floor and the
        page says so (the panel under the steps), as lesson 3 does for an off-road click."""
        if name not in ("start", "goal"):
            raise ValueError(f"a click moves the start or the goal, not {name!r:.60}")
        note = ""
        if self.mesh.locate((x, y)) is None:
            free, _mesh = model.lesson_floor()
            near = model.nearest_floor_point(free, x, y)
            lo, hi = self.mesh.bounds
            inside = lo[0] <= x <= hi[0] and lo[1] <= y <= hi[1]
            note = (_("({x}, {y}) is inside a wall or a pillar: the {name} goes to the nearest "
                      "point of the floor, ({nx}, {ny}).") if inside else
                    _("({x}, {y}) is outside the hall: the {name} goes to the nearest point of "
                      "the floor, ({nx}, {ny}).")).format(
                x=f"{x:.2f}", y=f"{y:.2f}", name=_(name), nx=f"{near[0]:.2f}",
                ny=f"{near[1]:.2f}")
            x, y = near
        self.set_points(**{name: (x, y)})
        self.click_note, self._noted_with = note, dict(self.params)
        self.redraw()

    def _on_move(self, item, event) -> None:
        if self.mesh.locate((event.xdata, event.ydata)) is None:
            return  # over a wall: wait until the pointer is on the floor again
        self.set_points(**{item: (event.xdata, event.ydata)})
