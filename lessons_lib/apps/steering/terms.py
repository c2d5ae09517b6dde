"""Lesson 3's small live figures: one steering term, with the car and the target dragged.

:class:`TermApp` (``term="position"``, ``"heading"`` or ``"crosstrack"``) shows a short road
that bends left, the car and its look-ahead target, and the one term's arrow; the panel
beside it says the term's value and what its sign means. Drag the car's body to move it,
the round knob in front of its nose to turn it, and the red target along the road (how far
ahead it is: the look-ahead distance). Every number comes from
:func:`lessons_lib.steering.steering_terms`, the function the simulation of the big app
runs every step (with a fixed look-ahead: the target is where it was dragged).

The four controls (car x, car y, its heading, the look-ahead) sit behind "More controls",
so the keyboard moves the same things a drag does.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Polygon
from matplotlib.patheffects import withStroke

from ... import validate as check
from ...i18n import N_, _
from ...spline import Spline
from ...steering import SteeringParams, TermValues, steering_terms
from ...vehicle import Vehicle
from ..core import (
    FONT_SIZE,
    GREYS,
    LINE,
    MARKER,
    PALETTE,
    LessonApp,
    Params,
    Slider,
    bare_axes,
    make_figure,
    rc_context,
)
from ..core.app import takes_params
from ..core.controls import short
from ..core.text import fmt_number
from ..core.theme import BIG_TEXT
from .model import checked_spline
from .view import COLOURS, ROAD_HALF_WIDTH, TERM_COLOURS

#: The road of the three figures: straight, then bending left, running on past the view.
ROAD = ((-20.0, 0.0), (0.0, 0.0), (12.0, 2.0), (22.0, 7.0), (30.0, 14.0), (36.0, 23.0),
        (40.0, 36.0))
#: What the figure shows, in metres (x from, x to, y from, y to): equal scales at SIZE.
VIEW = (-3.0, 41.0, -6.0, 22.6)
#: Figure size in hundreds of CSS px: 500 x 325.
SIZE = (5.0, 3.25)
#: Where the car starts: 2.4 m right of the line, pointing 8° left of the road, the target
#: 18 m ahead. (At 14 m the line to the target ran parallel to the road there, and the
#: Position and Heading figures opened on the same number, -11.7°: two terms that looked
#: like one. At 18 m, where the road has turned further, they read -12.3° and -17.1°.)
START = {"car_x": 13.5, "car_y": 0.0, "heading": 27.0, "look_ahead": 18.0}
#: The knob that turns the car sits this far in front of its rear axle (its nose is 3.55 m).
KNOB_M = 7.0
#: A press within this many metres of the knob, the target or the car picks it up.
PICK_M = 1.8
#: The arc of an angle term is drawn at this radius around the car's rear axle.
ARC_M = 10.0
#: The arc's value is written this far outside the arc, at its middle.
ARC_LABEL_M = 2.4
#: The look-ahead slider's range, in metres (see :func:`visible_look_ahead`).
LOOK_MIN, LOOK_MAX = 2.0, 24.0
#: The speed the terms are computed for (the look-ahead is fixed, so it changes nothing).
SPEED = 10.0

TERMS = {
    # term: (name, field, unit, digits, what + means, what - means, what 0 means)
    "position": (N_("Position Delta"), "position_delta", "°", 1,
                 N_("the target is to the car's right"), N_("the target is to the car's left"),
                 N_("the target is dead ahead")),
    "heading": (N_("Heading Delta"), "heading_delta", "°", 1,
                N_("the road at the target points to the car's right"),
                N_("the road at the target points to the car's left"),
                N_("the car points along the road at the target")),
    "crosstrack": (N_("Crosstrack Error"), "crosstrack_error", " m", 2,
                   N_("the car is right of the centre line"),
                   N_("the car is left of the centre line"),
                   N_("the car is on the centre line")),
}


def road() -> Spline:
    """The small figures' road (a new Spline each call: it is cheap and never shared)."""
    return Spline(ROAD)


def term_value(term: str, values: TermValues) -> float:
    return float(getattr(values, TERMS[_term(term)][1]))


def describe(term: str, values: TermValues) -> str:
    """"Position Delta = +11.8°: the target is to the car's right (+ is right)": the value
    as the panel shows it (rounded), and the side its sign means, in words."""
    name, _field, unit, digits, plus, minus, zero = TERMS[_term(term)]
    value = round(term_value(term, values), digits)
    side = plus if value > 0 else minus if value < 0 else zero
    return _("{name} = {value}{unit}: {side} (+ is right)").format(
        name=_(name), value=fmt_number(value, digits, sign=True), unit=unit, side=_(side))


def _term(term) -> str:
    if not isinstance(term, str) or term not in TERMS:
        raise ValueError(f"term must be 'position', 'heading' or 'crosstrack', got {short(term)}")
    return term


@dataclass(frozen=True)
class TermState:
    """One situation: the car, the target's distance ahead and every steering value."""

    x: float
    y: float
    heading: float
    look_ahead: float
    values: TermValues


def compute_terms(spline: Spline, x: float, y: float, heading: float,
                  look_ahead: float) -> TermValues:
    """The steering terms of a car at (x, y) pointing ``heading`` degrees (CCW from +x),
    its target ``look_ahead`` metres along the road from the point nearest the car: the
    simulation's own :func:`steering_terms`, with a fixed look-ahead."""
    params = SteeringParams(adaptive_look_ahead=False,
                            fixed_look_ahead=check.real(look_ahead, "look_ahead", lo=0.0))
    progress = checked_spline(spline).closest_distance((check.real(x, "x"), check.real(y, "y")))
    return steering_terms(float(x), float(y), 0.0, float(check.reduce_degrees(
        check.real(heading, "heading"))), SPEED, spline, float(progress), params)


def visible_look_ahead(spline: Spline, x: float, y: float) -> float:
    """The longest look-ahead (within the slider's range, on its 0.1 m steps) whose
    target is inside :data:`VIEW` for a car at (x, y), at least :data:`LOOK_MIN`."""
    start = checked_spline(spline).closest_distance((check.real(x, "x"), check.real(y, "y")))
    ahead = np.arange(LOOK_MIN, LOOK_MAX + 0.05, 0.1)
    pts = spline.location_at(np.minimum(start + ahead, spline.length))
    inside = ((pts[:, 0] > VIEW[0] + 1) & (pts[:, 0] < VIEW[1] - 1)
              & (pts[:, 1] > VIEW[2] + 1) & (pts[:, 1] < VIEW[3] - 1))
    out = np.flatnonzero(~inside)
    last = len(ahead) - 1 if not len(out) else out[0] - 1
    return float(round(ahead[max(last, 0)], 1))


class TermApp(LessonApp):
    """One steering term on a short road, the car and its target draggable. Made as
    ``TermApp(preset=None, *, term="position", **controls)``; controls ``car_x``, ``car_y``
    (m), ``heading`` (degrees, CCW from +x) and ``look_ahead`` (m). After each update
    ``state.values`` holds every steering value and ``value`` the term's."""

    controls = (
        Slider("car_x", N_("car x (m)"), 0.0, 38.0, step=0.1, value=START["car_x"], readout=".1f"),
        Slider("car_y", N_("car y (m)"), -4.0, 20.0, step=0.1, value=START["car_y"],
               readout=".1f"),
        Slider("heading", N_("heading (°)"), -180.0, 180.0, step=1.0, value=START["heading"],
               help=N_("counter-clockwise from +x")),
        Slider("look_ahead", N_("look-ahead (m)"), LOOK_MIN, LOOK_MAX, step=0.1,
               value=START["look_ahead"], readout=".1f",
               help=N_("how far along the road the target is")),
    )

    def __init__(self, preset: str | None = None, *, term: str = "position",
                 **controls) -> None:
        self.term = _term(term)
        self.road = road()
        self.vehicle = Vehicle()
        super().__init__(preset, **controls)

    # -- the loop -----------------------------------------------------------------------------
    @takes_params
    def compute(self, params: Params) -> TermState:
        values = compute_terms(self.road, params.car_x, params.car_y, params.heading,
                               params.look_ahead)
        return TermState(params.car_x, params.car_y, params.heading, params.look_ahead, values)

    @takes_params
    def control_bounds(self, params: Params) -> dict:
        """The target stays in the picture: the look-ahead goes at most to where the road
        leaves the view (1 m inside its edge), however far along the car is."""
        return {"look_ahead": (LOOK_MIN, visible_look_ahead(self.road, params.car_x,
                                                            params.car_y))}

    @property
    def value(self) -> float:
        return term_value(self.term, self.state.values)

    def copy_args(self, values: dict) -> dict:
        """A copy shows the same term."""
        return {"term": self.term}

    def build(self) -> None:
        self.fig = make_figure(*SIZE)
        with rc_context():
            ax = self.ax = self.fig.add_axes((0.0, 0.0, 1.0, 1.0))
        ax.set_xlim(*VIEW[:2])
        ax.set_ylim(*VIEW[2:])
        ax.set_aspect("equal", adjustable="datalim")
        bare_axes(ax)
        pts = self.road.sample(300)
        d = self.road.direction_at(np.linspace(0.0, self.road.length, 300))
        right = np.c_[d[:, 1], -d[:, 0]]
        ax.fill(*np.r_[pts - ROAD_HALF_WIDTH * right, (pts + ROAD_HALF_WIDTH * right)[::-1]].T,
                color=COLOURS["road"], zorder=0)
        for side in (-ROAD_HALF_WIDTH, ROAD_HALF_WIDTH):
            ax.plot(*(pts + side * right).T, color=COLOURS["centre"], lw=LINE["rule"], zorder=1)
        ax.plot(*pts.T, color=COLOURS["centre"], lw=LINE["thin"], ls=(0, (6, 4)), zorder=1)
        stroke = [withStroke(linewidth=LINE["stroke"], foreground=PALETTE["black"])]
        colour = TERM_COLOURS[self.term]
        self.car = Polygon(np.zeros((6, 2)), closed=True, fc=COLOURS["car"],
                           ec=PALETTE["black"], lw=LINE["thin"], alpha=0.7, zorder=3)
        ax.add_patch(self.car)
        # the car's centre line ahead (the dotted heading) and the knob that turns it
        self.heading_line, = ax.plot([], [], color=PALETTE["black"], lw=LINE["cursor"], ls=":",
                                     zorder=4)
        self.knob, = ax.plot([], [], "o", ms=MARKER["knob"], mfc=GREYS["white"],
                             mec=PALETTE["black"], mew=LINE["outline"], zorder=9)
        self.to_target, = ax.plot([], [], color=COLOURS["to_target"], lw=LINE["arrow"],
                                  path_effects=stroke, zorder=5,
                                  visible=self.term == "position")
        self.arc, self.arc_head = _arrow(ax, colour, zorder=6)
        # the angle the arc spans, written at its middle just outside it (issue 41: the arcs
        # were drawn with their values only in the readout beside the figure)
        self.arc_label = ax.text(0.0, 0.0, "", ha="center", va="center", fontsize=FONT_SIZE,
                                 color=PALETTE["black"], zorder=8,
                                 visible=self.term in ("position", "heading"),
                                 bbox={"fc": GREYS["white"], "ec": colour, "lw": LINE["thin"],
                                       "pad": 1.5, "alpha": 0.9})
        self.tangent, self.tangent_head = _arrow(ax, COLOURS["tangent"], zorder=7)
        self.ghost, self.ghost_head = _arrow(ax, COLOURS["tangent"], zorder=6, alpha=0.45)
        self.offset, self.offset_head = _arrow(ax, COLOURS["offset"], zorder=7.5, lw=LINE["thick"],
                                               stroke=True)
        self.right, self.right_head = _arrow(ax, PALETTE["grey"], zorder=6, lw=LINE["line"])
        self.right_label = ax.text(0.0, 0.0, _("road's right"), ha="left", va="center",
                                   zorder=6, visible=False)
        self.progress_dot, = ax.plot([], [], "o", color=COLOURS["progress"],
                                     mec=PALETTE["black"], ms=MARKER["point"], zorder=8)
        self.target_dot, = ax.plot([], [], "o", color=COLOURS["target"], mec=PALETTE["black"],
                                   ms=MARKER["knob"], zorder=9)
        shown = {"position": (self.arc, self.arc_head),
                 "heading": (self.arc, self.arc_head, self.tangent, self.tangent_head,
                             self.ghost, self.ghost_head),
                 "crosstrack": (self.offset, self.offset_head, self.right, self.right_head,
                                self.right_label, self.progress_dot)}[self.term]
        for artist in (self.arc, self.arc_head, self.tangent, self.tangent_head, self.ghost,
                       self.ghost_head, self.offset, self.offset_head, self.right,
                       self.right_head, self.right_label, self.progress_dot):
            artist.set_visible(any(artist is a for a in shown))
        self.drag = self.drag_handler(self._on_press, self._on_drag)

    @check.first_is(TermState, "the app's .state")
    def draw(self, state: TermState, frame) -> None:
        v = state.values
        car = np.array([state.x, state.y])
        yaw = math.radians(state.heading)
        ahead = np.array([math.cos(yaw), math.sin(yaw)])
        target = np.array(v.target[:2])
        self.car.set_xy(self.vehicle.outline(state.x, state.y, state.heading))
        knob = car + KNOB_M * ahead
        self.heading_line.set_data(*np.c_[car, car + (ARC_M + 2.0) * ahead])
        self.knob.set_data([knob[0]], [knob[1]])
        self.target_dot.set_data([target[0]], [target[1]])
        if self.term == "position":
            self.to_target.set_data(*np.c_[car, target])
            _set_arc(self.arc, self.arc_head, car, state.heading, -v.position_delta)
            self._label_arc(car, state.heading, -v.position_delta)
        elif self.term == "heading":
            g = np.array(v.target_direction[:2])
            _set_arrow(self.tangent, self.tangent_head, target, target + 6.0 * g)
            _set_arrow(self.ghost, self.ghost_head, car, car + ARC_M * g)
            _set_arc(self.arc, self.arc_head, car, state.heading, -v.heading_delta)
            self._label_arc(car, state.heading, -v.heading_delta)
        else:
            pp, off = np.array(v.progress_point[:2]), np.array(v.perpendicular_offset[:2])
            self.progress_dot.set_data([pp[0]], [pp[1]])
            _set_arrow(self.offset, self.offset_head, pp, pp + off)
            self._place_right_arrow(state)

    def _label_arc(self, car: np.ndarray, from_deg: float, turn_deg: float) -> None:
        """The arc's value (the term, + right: minus the CCW turn) at its middle, outside."""
        mid = math.radians(from_deg + turn_deg / 2)
        at = car + (ARC_M + ARC_LABEL_M) * np.array([math.cos(mid), math.sin(mid)])
        self.arc_label.set_position(at)
        self.arc_label.set_text(f"{fmt_number(-turn_deg, 1, sign=True)}°")

    def _place_right_arrow(self, state: TermState) -> None:
        """The road's right vector, drawn on the road's centre line where its arrow and
        label keep clear of the car's body, its knob and its dotted line: 9 m behind the
        car's progress point, else 9 m ahead of it, else further away (the static figure's
        label once sat on the car)."""
        yaw = math.radians(state.heading)
        reach = ARC_M + 2.0             # the knob and the dotted centre line up to here
        ahead = (state.x + reach * math.cos(yaw), state.y + reach * math.sin(yaw))
        body = _box(np.r_[self.vehicle.outline(state.x, state.y, state.heading), [ahead]], 0.6)
        width, height = self._label_size()
        p = state.values.progress
        for s in (p - 9.0, p + 9.0, p - 15.0, p + 15.0, p - 21.0, p + 21.0):
            base, tip, at = self._right_arrow_at(s)
            corner = at + (width, -0.5 * height)
            if not _overlap(_box(np.array([base, tip, at + (0.0, 0.5 * height), corner]),
                                 0.3), body) and _inside(tip) and _inside(corner) \
                    and _inside(at + (0.0, 0.5 * height)):
                break
        _set_arrow(self.right, self.right_head, base, tip)
        self.right_label.set_position(at)

    def _label_size(self) -> tuple[float, float]:
        """The "road's right" label's width and height in metres at the figure's size now."""
        box = self.right_label.get_window_extent(self.fig.canvas.get_renderer())
        inverse = self.ax.transData.inverted()
        (x0, y0), (x1, y1) = inverse.transform([(box.x0, box.y0), (box.x1, box.y1)])
        return abs(x1 - x0), abs(y1 - y0)

    def _right_arrow_at(self, s: float):
        point, d = self.road.location_at(s), self.road.direction_at(s)
        right = np.array([d[1], -d[0]]) / math.hypot(*d)
        tip = point + 3.0 * right
        return point, tip, tip + (0.4, -0.9)

    def dynamic_artists(self):
        return [self.car, self.heading_line, self.knob, self.to_target, self.arc,
                self.arc_head, self.tangent, self.tangent_head, self.ghost, self.ghost_head,
                self.offset, self.offset_head, self.right, self.right_head, self.right_label,
                self.progress_dot, self.target_dot]

    def drag_artists(self, item):
        """A drag of the car, its knob or the target moves what a redraw moves, and the
        arc's value written beside it."""
        return [*self.dynamic_artists(), self.arc_label]

    @check.first_is(TermState, "the app's .state")
    def panel(self, state: TermState, frame) -> str:
        colour = TERM_COLOURS[self.term]
        return (f"<div class='lesson-term-readout' style='{BIG_TEXT};line-height:1.4;"
                f"max-width:380px;border-left:4px solid {colour};padding-left:8px'>"
                f"{html.escape(describe(self.term, state.values))}</div>")

    def layout(self):
        """The figure; beside it (under it on a narrow page) the readout and the status
        line; the four controls a drag sets behind "More controls" (for the keyboard)."""
        # its explanation line is the readout, kept beside the figure: under it, presenter
        # mode (which hides the four controls) would leave the column beside it empty
        self.panel_widget().add_class("lesson-explain")
        root = self.arrange(primary=[], readout=[self.panel_widget()], extra=[self.status],
                            secondary=self.control_widgets(), side=380, name="term-app")
        root.add_class(f"term-app-{self.term}")
        return root

    # -- dragging -------------------------------------------------------------------------------
    def _on_press(self, event):
        if event.inaxes is not self.ax or event.xdata is None:
            return None
        p = np.array([float(event.xdata), float(event.ydata)])
        s = self.state
        car = np.array([s.x, s.y])
        yaw = math.radians(s.heading)
        knob = car + KNOB_M * np.array([math.cos(yaw), math.sin(yaw)])
        target = np.array(s.values.target[:2])
        centre = car + 0.5 * (self.vehicle.nose - self.vehicle.rear_overhang) * \
            np.array([math.cos(yaw), math.sin(yaw)])
        picks = [(np.hypot(*(p - knob)), "knob"), (np.hypot(*(p - target)), "target"),
                 (np.hypot(*(p - centre)), "car")]
        dist, item = min(picks)
        if dist > PICK_M + (1.0 if item == "car" else 0.0):
            self.show_message(_("Drag the car to move it, the white knob in front of it to "
                                "turn it, or the red target along the road."), kind="info")
            return None
        self.clear_message()
        self._grab = p - car          # the car keeps its place under the pointer
        return item

    def _on_drag(self, item, event) -> None:
        p = np.array([float(event.xdata), float(event.ydata)])
        s = self.state
        if item == "car":
            x, y = p - self._grab
            self.set(car_x=self._on_slider("car_x", x), car_y=self._on_slider("car_y", y))
        elif item == "knob":
            dx, dy = p[0] - s.x, p[1] - s.y
            if dx * dx + dy * dy > 0.25:   # not on the car's own axle: no direction there
                self.set(heading=self._on_slider("heading", math.degrees(math.atan2(dy, dx))))
        else:
            ahead = self.road.closest_distance(p) - s.values.progress
            self.set(look_ahead=self._on_slider("look_ahead", ahead))

    def _on_slider(self, name: str, value: float) -> float:
        """``value`` clamped to the slider ``name`` and put on its steps."""
        w = getattr(self, name)
        return self.on_grid(name, min(w.max, max(w.min, value)))


def _arrow(ax, colour: str, zorder: float, lw: float = LINE["arrow"], alpha: float = 1.0,
           stroke: bool = False):
    """A shaft (a line) and a head (a triangle), moved by :func:`_set_arrow`."""
    effects = [withStroke(linewidth=lw + 1.8, foreground=PALETTE["black"])] if stroke else None
    shaft = Line2D([], [], color=colour, lw=lw, alpha=alpha, zorder=zorder,
                   path_effects=effects, solid_capstyle="butt")
    head = Polygon(np.zeros((3, 2)), closed=True, fc=colour, ec=PALETTE["black"] if stroke
                   else colour, lw=LINE["rule"], alpha=alpha, zorder=zorder)
    ax.add_line(shaft)
    ax.add_patch(head)
    return shaft, head


def _head(tip: np.ndarray, direction: np.ndarray, size: float = 1.1) -> np.ndarray:
    n = math.hypot(*direction)
    u = direction / n if n > 1e-9 else np.array([1.0, 0.0])
    side = np.array([-u[1], u[0]])
    return np.array([tip, tip - size * u + 0.5 * size * side, tip - size * u - 0.5 * size * side])


def _set_arrow(shaft, head, start: np.ndarray, end: np.ndarray) -> None:
    d = end - start
    length = math.hypot(*d)
    size = min(1.1, 0.6 * length)
    stop = end - d * (0.8 * size / length) if length > 1e-9 else end
    shaft.set_data(*np.c_[start, stop])
    head.set_xy(_head(end, d, size) if length > 1e-9 else np.repeat([end], 3, axis=0))


def _set_arc(shaft, head, centre: np.ndarray, from_deg: float, turn_deg: float) -> None:
    """An arc of radius :data:`ARC_M` around ``centre`` from direction ``from_deg`` turning
    ``turn_deg`` (CCW +), its head at the end: the angle a term measures, and its side."""
    end = math.radians(from_deg + turn_deg)
    tip = centre + ARC_M * np.array([math.cos(end), math.sin(end)])
    if abs(turn_deg) < 1e-6:
        shaft.set_data([], [])
        head.set_xy(np.repeat([tip], 3, axis=0))
        return
    size = min(1.1, 0.5 * ARC_M * math.radians(abs(turn_deg)))
    stop = turn_deg - math.copysign(math.degrees(0.8 * size / ARC_M), turn_deg)
    a = np.radians(from_deg + np.linspace(0.0, stop, max(2, int(abs(stop) / 3) + 2)))
    shaft.set_data(*(centre + ARC_M * np.c_[np.cos(a), np.sin(a)]).T)
    direction = math.copysign(1.0, turn_deg) * np.array([-math.sin(end), math.cos(end)])
    head.set_xy(_head(tip, direction, size))


def _box(points: np.ndarray, pad: float) -> tuple[float, float, float, float]:
    return (points[:, 0].min() - pad, points[:, 0].max() + pad,
            points[:, 1].min() - pad, points[:, 1].max() + pad)


def _overlap(a, b) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def _inside(p) -> bool:
    return VIEW[0] < p[0] < VIEW[1] and VIEW[2] < p[1] < VIEW[3]
