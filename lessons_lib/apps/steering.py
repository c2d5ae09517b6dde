"""Lesson 3 app: place a car beside a spline and watch the three steering terms drive it.

Top: the track seen from above, the car to scale, and the article's debug colours (blue point
= progress on the spline, red point = look-ahead target, yellow line = car to target, green
arrow = tangent at the target, orange arrow = crosstrack offset). Click or drag on the map to
put the car somewhere else. Below: what each term adds to the steering, and the steering
itself, against time, with a cursor at the current time. Every parameter change re-simulates
the whole run (kernel side, ~30 ms); scrubbing time only moves artists.
"""

from __future__ import annotations

import html
import math
from dataclasses import asdict, fields
from types import SimpleNamespace

import ipywidgets as widgets
import numpy as np
from matplotlib.patches import Polygon
from matplotlib.patheffects import withStroke

from ..spline import Spline
from ..steering import SteeringParams
from ..tracks import TRACKS, track
from ..vehicle import SETTLE_TOLERANCE, Vehicle, simulate
from .style import PALETTE, LessonApp, make_figure, rc_context

#: The article's debug colours, in the colour-blind-safe palette.
COLOURS = {"progress": PALETTE["blue"], "target": PALETTE["vermillion"],
           "to_target": PALETTE["yellow"], "tangent": PALETTE["green"],
           "offset": PALETTE["orange"], "car": PALETTE["sky"], "path": PALETTE["purple"],
           "road": PALETTE["light"], "centre": PALETTE["grey"]}
#: Line colours of the time plot: each term keeps the colour of its marker on the map.
TERM_COLOURS = {"position": PALETTE["vermillion"], "heading": PALETTE["green"],
                "crosstrack": PALETTE["orange"], "steering": PALETTE["black"]}

MODES = ("Adaptive", "Fixed long", "Fixed short")
FIXED_LONG, FIXED_SHORT = 25.0, 1.5
DURATION = 30.0       # s of every run (an open road may end sooner)
ROAD_HALF_WIDTH = 3.5  # m, for drawing the road
FRAME_STEP = 3         # Play advances 3 steps of 1/60 s every 50 ms: real time

CUSTOM = "(your own settings)"
#: The article's scenarios. Every preset sets every control, so it is reproducible.
PRESETS = {
    "Fixed long look-ahead cuts the corner": dict(
        track="hairpin", speed=10.0, mode="Fixed long", terms=(True, False, False),
        start=(30.0, 0.0, 0.0)),
    "Fixed short look-ahead twitches": dict(
        track="hairpin", speed=12.0, mode="Fixed short", terms=(True, False, False),
        start=(30.0, 0.0, 0.0)),
    "Adaptive, Position only: turns in late": dict(
        track="hairpin", speed=10.0, mode="Adaptive", terms=(True, False, False),
        start=(30.0, 0.0, 0.0)),
    "Position + Heading: parallel but offset": dict(
        track="oval", speed=10.0, mode="Adaptive", terms=(True, True, False),
        start=(0.0, 2.5, 0.0), params={"heading_weight": 0.95}),
    "All three: back to the centre line": dict(
        track="oval", speed=10.0, mode="Adaptive", terms=(True, True, True),
        start=(0.0, 2.5, 0.0), params={"heading_weight": 0.95}),
}


def _swatch(colour: str, kind: str) -> str:
    if kind == "dot":
        return (f"<span style='display:inline-block;width:11px;height:11px;border-radius:50%;"
                f"background:{colour};border:1px solid #000;vertical-align:middle'></span>")
    if kind == "arrow":
        return f"<span style='color:{colour};font-weight:900'>&#10230;</span>"
    height = "4px" if kind == "thick" else "3px"
    border = "border:1px solid #000;" if colour == PALETTE["yellow"] else ""
    return (f"<span style='display:inline-block;width:18px;height:{height};{border}"
            f"background:{colour};vertical-align:middle'></span>")


def colour_key() -> str:
    """The legend of both plots as one HTML line (drawing legends in the figure is slow)."""
    items = [(COLOURS["progress"], "dot", "progress"),
             (COLOURS["target"], "dot", "look-ahead target"),
             (COLOURS["to_target"], "line", "car &rarr; target"),
             (COLOURS["tangent"], "arrow", "tangent at target"),
             (COLOURS["offset"], "arrow", "crosstrack offset"),
             (COLOURS["path"], "line", "car's path"),
             ("|", "", ""),
             (TERM_COLOURS["position"], "line", "Position"),
             (TERM_COLOURS["heading"], "line", "Heading"),
             (TERM_COLOURS["crosstrack"], "line", "Crosstrack"),
             ("#8C8C8C", "thick", "steering (+ right)")]
    parts = []
    for colour, kind, label in items:
        if colour == "|":
            parts.append("<span style='color:#8C8C8C'>&nbsp;|&nbsp;</span>")
        else:
            parts.append(f"<span style='white-space:nowrap'>{_swatch(colour, kind)} "
                         f"{label}</span>")
    return ("<div class='steering-key' style='font-size:12px;line-height:1.5'>"
            + " &nbsp;".join(parts) + "</div>")


def _slider(description, value, lo, hi, step, fmt=".1f", width="345px", **kw):
    return widgets.FloatSlider(value=value, min=lo, max=hi, step=step, description=description,
                               readout_format=fmt, continuous_update=False,
                               style={"description_width": "140px"},
                               layout=widgets.Layout(width=width), **kw)


class SteeringApp(LessonApp):
    """The car, the spline, the three terms and the steering, for any settings and start.

    Controls (attributes): ``track``, ``preset``, ``speed``, ``mode``, ``use_position``,
    ``use_heading``, ``use_crosstrack``, ``start_distance``, ``start_offset``,
    ``start_heading``, ``params_sliders`` (dict: one slider per numeric SteeringParams field),
    ``time`` (IntSlider, step index) and ``play``. Results: ``spline``,
    ``trajectory``, ``metrics``. Artists: ``car_patch``, ``progress_dot``, ``target_dot``,
    ``target_line``, ``tangent_arrow``, ``offset_arrow``, ``path_line``, ``term_lines``
    (dict), ``cursor``.
    """

    def __init__(self, track_name: str = "oval", preset: str | None = None,
                 width: float = 8.3, height: float = 5.4) -> None:
        super().__init__()
        if track_name not in TRACKS:
            raise ValueError(f"unknown track {track_name!r}: choose one of {list(TRACKS)}")
        self.vehicle = Vehicle()
        self._hold = False
        self._drag = False
        self.trajectory = None
        self.metrics: dict = {}
        defaults = SteeringParams()

        # -- controls ----------------------------------------------------------------------
        wide = {"description_width": "110px"}
        self.track = widgets.Dropdown(options=[(label, key) for key, label in TRACKS.items()],
                                      value=track_name, description="Track", style=wide,
                                      layout=widgets.Layout(width="345px"))
        self.preset = widgets.Dropdown(options=[CUSTOM, *PRESETS], value=CUSTOM,
                                       description="Article scenario", style=wide,
                                       layout=widgets.Layout(width="345px"))
        self.speed = _slider("Speed (m/s)", 10.0, 2.0, 20.0, 0.5)
        self.mode = widgets.ToggleButtons(options=MODES, value="Adaptive",
                                          description="Look-ahead", style={
                                              "description_width": "72px",
                                              "button_width": "86px"})
        self.use_position = widgets.Checkbox(value=True, description="Position Delta",
                                             indent=False, layout=widgets.Layout(width="122px"))
        self.use_heading = widgets.Checkbox(value=True, description="Heading Delta",
                                            indent=False, layout=widgets.Layout(width="118px"))
        self.use_crosstrack = widgets.Checkbox(value=True, description="Crosstrack",
                                               indent=False, layout=widgets.Layout(width="100px"))
        self.start_distance = _slider("Start distance (m)", 0.0, 0.0, 1.0, 0.5)
        self.start_offset = _slider("Start offset, right (m)", 0.0, -5.0, 5.0, 0.1)
        self.start_heading = _slider("Start heading, left (°)", 0.0, -45.0, 45.0, 1.0, ".0f")
        spec = {  # field: (label, min, max, step, format)
            "look_ahead_base": ("Look-ahead base (m)", 0.0, 15.0, 0.5, ".1f"),
            "look_ahead_speed_factor": ("... + speed x (s)", 0.0, 2.0, 0.05, ".2f"),
            "fixed_look_ahead": ("Fixed look-ahead (m)", 0.5, 40.0, 0.5, ".1f"),
            "heading_weight": ("Heading weight", 0.0, 1.0, 0.05, ".2f"),
            "max_yaw_delta": ("Max yaw delta (°)", 5.0, 120.0, 1.0, ".0f"),
            "crosstrack_gain": ("Crosstrack gain /m", 0.0, 1.0, 0.01, ".2f"),
        }
        self.params_sliders = {name: _slider(label, getattr(defaults, name), lo, hi, step, fmt,
                                             width="318px")  # fits inside the accordion
                               for name, (label, lo, hi, step, fmt) in spec.items()}
        self.time = widgets.IntSlider(value=0, min=0, max=1, step=1, description="Time",
                                      readout=False, continuous_update=True,
                                      style={"description_width": "40px"},
                                      layout=widgets.Layout(width="520px"))
        self.play = widgets.Play(value=0, min=0, max=1, step=FRAME_STEP, interval=50,
                                 description="Play", layout=widgets.Layout(width="160px"))
        widgets.jslink((self.play, "value"), (self.time, "value"))
        self.time_label = widgets.HTML(layout=widgets.Layout(width="90px"))
        self.numbers = widgets.HTML(layout=widgets.Layout(width="345px"))
        self.now = widgets.HTML(layout=widgets.Layout(width=f"{round(width * 100)}px"))

        # -- figure, built once ------------------------------------------------------------
        self.fig = make_figure(width, height)
        with rc_context():
            self.ax_map = self.fig.add_axes((0.005, 0.335, 0.575, 0.66))
            self.ax_close = self.fig.add_axes((0.59, 0.335, 0.405, 0.66))
            self.ax_terms = self.fig.add_axes((0.075, 0.06, 0.905, 0.25))
        self._build_artists()

        # -- wiring ------------------------------------------------------------------------
        rerun = self.guard(self._on_param)
        for w in (self.speed, self.use_position, self.use_heading, self.use_crosstrack,
                  self.start_distance, self.start_offset, self.start_heading,
                  *self.params_sliders.values()):
            w.observe(rerun, names="value")
        self.mode.observe(self.guard(self._on_mode), names="value")
        self.track.observe(self.guard(self._on_track), names="value")
        self.preset.observe(self.guard(self._on_preset), names="value")
        self.time.observe(self.guard(self._on_time), names="value")
        self.fig.canvas.mpl_connect("button_press_event", self.guard(self._on_press))
        self.fig.canvas.mpl_connect("motion_notify_event", self.guard(self._on_motion))
        self.fig.canvas.mpl_connect("button_release_event", self.guard(self._on_release))

        advanced = widgets.VBox(list(self.params_sliders.values()))
        self.advanced = widgets.Accordion(children=[advanced],
                                          layout=widgets.Layout(width="350px"))
        self.advanced.set_title(0, "All steering parameters")
        self.advanced.selected_index = None
        terms = widgets.HBox([self.use_position, self.use_heading, self.use_crosstrack],
                             layout=widgets.Layout(width="350px"))
        side = widgets.VBox(
            [self.preset, self.track, self.speed, self.mode, terms, self.start_distance,
             self.start_offset, self.start_heading, self.advanced, self.numbers, self.status],
            layout=widgets.Layout(width="360px", padding="0 0 0 4px"))
        bottom = widgets.HBox([self.play, self.time, self.time_label],
                              layout=widgets.Layout(align_items="center"))
        left = widgets.VBox([self.fig.canvas, widgets.HTML(colour_key()), bottom, self.now],
                            layout=widgets.Layout(width=f"{round(width * 100) + 10}px"))
        self.widget = widgets.HBox([left, side])

        self._load_track(track_name)
        if preset is not None:
            self.apply_preset(preset)
        else:
            self.run()

    # -- figure --------------------------------------------------------------------------
    def _build_map(self, ax, close: bool) -> SimpleNamespace:
        """The road, the path and the car on one map axes; debug arrows in the close-up."""
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_visible(False)
        if close:
            ax.set_facecolor("#FAFAFA")
            for spine in ax.spines.values():
                spine.set_visible(True)
                spine.set_color(PALETTE["grey"])
        v = SimpleNamespace(ax=ax)
        # a scale bar instead of tick labels (cheaper to draw, and enough to judge size)
        (v.scale_bar,) = ax.plot([], [], color=PALETTE["black"], lw=2.5, solid_capstyle="butt")
        v.scale_text = ax.text(0, 0, "", ha="center", va="bottom", fontsize=9)
        v.title = ax.text(0.01, 0.985, "close-up" if close else "whole track",
                          transform=ax.transAxes, ha="left", va="top", fontsize=9,
                          color=PALETTE["grey"], zorder=9,
                          bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 1.5})
        (v.edge_left,) = ax.plot([], [], color=COLOURS["centre"], lw=0.8)
        (v.edge_right,) = ax.plot([], [], color=COLOURS["centre"], lw=0.8)
        (v.centre_line,) = ax.plot([], [], color=COLOURS["centre"], lw=1.0, ls=(0, (6, 4)))
        (v.path_line,) = ax.plot([], [], color=COLOURS["path"], lw=1.4, alpha=0.9)
        (v.start_mark,) = ax.plot([], [], "x", color=COLOURS["path"], ms=7, mew=2)
        v.car = Polygon(np.zeros((6, 2)), closed=True, fc=COLOURS["car"], ec=PALETTE["black"],
                        lw=1.2 if close else 0.8, zorder=5)
        ax.add_patch(v.car)
        stroke = [withStroke(linewidth=3.4 if close else 2.6, foreground=PALETTE["black"])]
        (v.target_line,) = ax.plot([], [], color=COLOURS["to_target"], lw=2.0 if close else 1.4,
                                   zorder=6, path_effects=stroke)
        dot = 9 if close else 6
        (v.progress_dot,) = ax.plot([], [], "o", color=COLOURS["progress"], ms=dot,
                                    mec=PALETTE["black"], zorder=8)
        (v.target_dot,) = ax.plot([], [], "o", color=COLOURS["target"], ms=dot,
                                  mec=PALETTE["black"], zorder=8)
        if close:
            v.tangent_arrow = ax.quiver([0], [0], [0], [0], color=COLOURS["tangent"],
                                        angles="xy", scale_units="xy", scale=1, width=0.012,
                                        zorder=7)
            v.offset_arrow = ax.quiver([0], [0], [0], [0], color=COLOURS["offset"],
                                       angles="xy", scale_units="xy", scale=1, width=0.012,
                                       zorder=7)
        box = ax.get_position()
        w, h = self.fig.get_size_inches()
        v.aspect = (box.width * w) / (box.height * h)  # width / height of the axes box
        return v

    def _build_artists(self) -> None:
        self.overview = self._build_map(self.ax_map, close=False)
        self.closeup = self._build_map(self.ax_close, close=True)
        c = self.closeup
        self.car_patch, self.progress_dot, self.target_dot = c.car, c.progress_dot, c.target_dot
        self.target_line, self.tangent_arrow = c.target_line, c.tangent_arrow
        self.offset_arrow, self.path_line = c.offset_arrow, self.overview.path_line

        ax = self.ax_terms
        ax.axhline(0.0, color=PALETTE["grey"], lw=0.8)
        self.term_lines = {}
        for key, lw, z in (("steering", 3.0, 2), ("position", 1.4, 3), ("heading", 1.4, 3),
                           ("crosstrack", 1.4, 3)):
            (self.term_lines[key],) = ax.plot([], [], color=TERM_COLOURS[key], lw=lw, zorder=z,
                                              alpha=0.45 if key == "steering" else 1.0)
        self.cursor = ax.axvline(0.0, color=PALETTE["blue"], lw=1.2)
        ax.set_xlim(0, DURATION)
        ax.set_ylim(-1.05, 1.05)
        # fixed ticks (no locator work per draw) that carry the units, instead of axis labels
        ticks = np.arange(0, DURATION + 1, 5)
        ax.set_xticks(ticks, [f"{t:.0f}" for t in ticks[:-1]] + [f"{ticks[-1]:.0f} s"])
        ax.set_yticks([-1, 0, 1], ["−1 left", "0", "+1 right"])
        ax.tick_params(length=2, pad=1)

    # -- state ---------------------------------------------------------------------------
    def params(self) -> SteeringParams:
        """The SteeringParams the controls describe."""
        values = {name: float(s.value) for name, s in self.params_sliders.items()}
        return SteeringParams(adaptive_look_ahead=self.mode.value == "Adaptive",
                              use_position=self.use_position.value,
                              use_heading=self.use_heading.value,
                              use_crosstrack=self.use_crosstrack.value, **values)

    def set_params(self, params: SteeringParams) -> None:
        """Put every SteeringParams field on the controls and re-run once."""
        if not isinstance(params, SteeringParams):
            raise ValueError(f"expected SteeringParams, got {type(params)}")
        with self.hold():
            for name, s in self.params_sliders.items():
                s.value = getattr(params, name)
            self.use_position.value = params.use_position
            self.use_heading.value = params.use_heading
            self.use_crosstrack.value = params.use_crosstrack
            if params.adaptive_look_ahead:
                self.mode.value = "Adaptive"
            elif self.mode.value == "Adaptive":
                self.mode.value = ("Fixed short" if params.fixed_look_ahead < 5 else
                                   "Fixed long")
            self.params_sliders["fixed_look_ahead"].value = params.fixed_look_ahead
        self.run()

    class _Hold:
        def __init__(self, app):
            self.app = app

        def __enter__(self):
            self.before = self.app._hold
            self.app._hold = True

        def __exit__(self, *exc):
            self.app._hold = self.before

    def hold(self):
        """Context manager: change many controls, re-simulate once afterwards."""
        return self._Hold(self)

    def _load_track(self, name: str) -> None:
        self.spline: Spline = track(name)
        sp = self.spline
        s = np.linspace(0.0, sp.length, max(200, int(sp.length * 2)))
        pts = sp.location_at(s)
        t = sp.direction_at(s)
        right = np.c_[t[:, 1], -t[:, 0]]
        left_edge = pts - ROAD_HALF_WIDTH * right
        right_edge = pts + ROAD_HALF_WIDTH * right
        for v in (self.overview, self.closeup):
            v.centre_line.set_data(pts[:, 0], pts[:, 1])
            v.edge_left.set_data(left_edge[:, 0], left_edge[:, 1])
            v.edge_right.set_data(right_edge[:, 0], right_edge[:, 1])
        lo, hi = pts.min(axis=0) - ROAD_HALF_WIDTH - 4, pts.max(axis=0) + ROAD_HALF_WIDTH + 4
        self._track_limits = (lo, hi)
        with self.hold():
            self.start_distance.max = round(sp.length - (0.5 if sp.closed else 5.0), 1)
            self.start_distance.value = min(self.start_distance.value, self.start_distance.max)

    @staticmethod
    def _set_view(v: SimpleNamespace, lo, hi) -> None:
        """Show at least the box lo..hi, with 1 m = 1 m on both axes (the box is widened)."""
        centre, size = 0.5 * (lo + hi), np.array(hi - lo, dtype=float)
        if size[0] / size[1] < v.aspect:
            size[0] = size[1] * v.aspect
        else:
            size[1] = size[0] / v.aspect
        lo, hi = centre - 0.5 * size, centre + 0.5 * size
        v.ax.set_xlim(lo[0], hi[0])
        v.ax.set_ylim(lo[1], hi[1])
        bar = next(b for b in (2.0, 5.0, 10.0, 20.0, 50.0, 100.0) if b >= 0.12 * size[0])
        x0, y0 = hi[0] - 0.03 * size[0] - bar, lo[1] + 0.04 * size[1]
        v.scale_bar.set_data([x0, x0 + bar], [y0, y0])
        v.scale_text.set_position((x0 + 0.5 * bar, y0 + 0.01 * size[1]))
        v.scale_text.set_text(f"{bar:.0f} m")

    # -- running -------------------------------------------------------------------------
    def run(self) -> None:
        """Re-simulate the whole run from the controls and redraw."""
        params = self.params()
        traj = simulate(self.spline, params, float(self.speed.value), DURATION,
                        start_distance=self.start_distance.value,
                        start_offset=self.start_offset.value,
                        start_heading_error=self.start_heading.value, vehicle=self.vehicle)
        self.trajectory = traj
        self.metrics = traj.metrics()
        self._params_used = params
        n = len(traj)
        # contributions to the steering, each in steering units
        m = params.max_yaw_delta
        w = traj.heading_weight
        pos = (1.0 - w) * traj.position_delta / m if params.use_position else np.zeros(n)
        head = w * traj.heading_delta / m if params.use_heading else np.zeros(n)
        ct = (-traj.crosstrack_error * params.crosstrack_gain if params.use_crosstrack
              else np.zeros(n))
        self._contrib = {"position": pos, "heading": head, "crosstrack": ct,
                         "steering": traj.steering}
        for key, line in self.term_lines.items():
            line.set_data(traj.t, self._contrib[key])
        for v in (self.overview, self.closeup):
            v.path_line.set_data(traj.x, traj.y)
            v.start_mark.set_data([traj.x[0]], [traj.y[0]])
        lo = min(-1.05, float(np.min(ct)) - 0.05, float(np.min(pos)) - 0.05)
        hi = max(1.05, float(np.max(ct)) + 0.05, float(np.max(pos)) + 0.05)
        self.ax_terms.set_ylim(max(lo, -2.5), min(hi, 2.5))
        with self.hold():
            self.play.max = self.time.max = n - 1
            self.time.value = min(self.time.value, n - 1)
        self._show_metrics()
        self.clear_message()
        self._draw_time()

    def _show_metrics(self) -> None:
        m, traj = self.metrics, self.trajectory
        settle = ("never" if math.isnan(m["settle_time"]) else f"{m['settle_time']:.1f} s")
        end = " (the road ended)" if traj.ended else ""
        self.numbers.value = (
            "<table style='font-size:13px;line-height:1.35'>"
            f"<tr><td>RMS crosstrack error</td><td><b>{m['rms_crosstrack']:.2f} m</b></td></tr>"
            f"<tr><td>Max crosstrack error</td><td><b>{m['max_crosstrack']:.2f} m</b></td></tr>"
            f"<tr><td>Total steering movement</td><td><b>{m['steering_movement']:.1f}</b>"
            "</td></tr>"
            f"<tr><td>Time to settle (|error| &lt; {SETTLE_TOLERANCE} m)</td>"
            f"<td><b>{html.escape(settle)}</b></td></tr>"
            f"<tr><td>Run length</td><td>{traj.t[-1]:.1f} s{end}</td></tr></table>")

    def _draw_time(self) -> None:
        traj = self.trajectory
        k = min(int(self.time.value), len(traj) - 1)
        x, y, yaw = traj.x[k], traj.y[k], traj.yaw[k]
        outline = self.vehicle.outline(x, y, yaw)
        pp, tg = traj.progress_point[k], traj.target[k]
        for v in (self.overview, self.closeup):
            v.car.set_xy(outline)
            v.progress_dot.set_data([pp[0]], [pp[1]])
            v.target_dot.set_data([tg[0]], [tg[1]])
            v.target_line.set_data([x, tg[0]], [y, tg[1]])
        # the close-up frames the car and its target, never tighter than 20 m
        centre = 0.5 * (np.array([x, y]) + tg)
        half = max(10.0, 0.5 * math.hypot(tg[0] - x, tg[1] - y) + 8.0)
        self._set_view(self.closeup, centre - half, centre + half)
        self._set_view(self.overview, *self._track_limits)
        arrow = min(6.0, 0.3 * half) * traj.target_direction[k]
        self.tangent_arrow.set_offsets([tg])
        self.tangent_arrow.set_UVC([arrow[0]], [arrow[1]])
        off = traj.perpendicular_offset[k]
        self.offset_arrow.set_offsets([pp])
        self.offset_arrow.set_UVC([off[0]], [off[1]])
        self.cursor.set_xdata([traj.t[k], traj.t[k]])
        self.time_label.value = f"<b>t = {traj.t[k]:.2f} s</b>"
        p = self._params_used
        on = {"position": p.use_position, "heading": p.use_heading,
              "crosstrack": p.use_crosstrack}

        def cell(key, text):
            style = "" if on[key] else "color:#8C8C8C;text-decoration:line-through"
            return f"<span style='{style}'>{text}</span>"

        c = self._contrib
        wheel = traj.wheel_angle[k]  # counter-clockwise positive
        self.now.value = (
            "<div style='font-size:13px'>"
            + cell("position", f"Position Delta <b>{traj.position_delta[k]:+.1f}°</b>")
            + " &middot; "
            + cell("heading", f"Heading Delta <b>{traj.heading_delta[k]:+.1f}°</b>")
            + f" &middot; heading weight {traj.heading_weight[k]:.2f} &middot; "
            + cell("crosstrack", f"Crosstrack <b>{traj.crosstrack_error[k]:+.2f} m</b>")
            + f"<br>look-ahead {traj.look_ahead[k]:.1f} m &middot; yaw command "
            f"{traj.yaw_command[k]:+.1f}° &middot; terms {c['position'][k]:+.2f} "
            f"{c['heading'][k]:+.2f} {c['crosstrack'][k]:+.2f} &rarr; steering "
            f"<b>{traj.steering[k]:+.2f}</b> (front wheels {abs(wheel):.1f}° "
            f"{'left' if wheel > 0 else 'right'})</div>")
        self.redraw()

    # -- callbacks -----------------------------------------------------------------------
    def _mark_custom(self) -> None:
        if self.preset.value != CUSTOM:
            with self.hold():
                self.preset.value = CUSTOM

    def _on_param(self, _change=None) -> None:
        if self._hold:
            return
        self._mark_custom()
        self.run()

    def _on_mode(self, change) -> None:
        if self._hold:
            return
        with self.hold():
            if change["new"] == "Fixed long":
                self.params_sliders["fixed_look_ahead"].value = FIXED_LONG
            elif change["new"] == "Fixed short":
                self.params_sliders["fixed_look_ahead"].value = FIXED_SHORT
        self._on_param()

    def _on_track(self, change) -> None:
        if self._hold:
            return
        self._load_track(change["new"])
        self._on_param()

    def _on_time(self, _change) -> None:
        if self._hold or self.trajectory is None:
            return
        self._draw_time()

    def _on_preset(self, change) -> None:
        if self._hold or change["new"] == CUSTOM:
            return
        self.apply_preset(change["new"])

    def apply_preset(self, name: str) -> None:
        """Set every control to one of the article's scenarios (see :data:`PRESETS`)."""
        if name not in PRESETS:
            raise ValueError(f"unknown scenario {name!r}: choose one of {list(PRESETS)}")
        p = PRESETS[name]
        defaults = SteeringParams()
        with self.hold():
            self.preset.value = name
            if self.track.value != p["track"]:
                self.track.value = p["track"]
            self._load_track(p["track"])
            values = {**asdict(defaults), **p.get("params", {})}
            for field in fields(SteeringParams):
                if field.name in self.params_sliders:
                    self.params_sliders[field.name].value = values[field.name]
            self.mode.value = p["mode"]
            if p["mode"] == "Fixed long":
                self.params_sliders["fixed_look_ahead"].value = FIXED_LONG
            elif p["mode"] == "Fixed short":
                self.params_sliders["fixed_look_ahead"].value = FIXED_SHORT
            self.use_position.value, self.use_heading.value, self.use_crosstrack.value = \
                p["terms"]
            self.speed.value = p["speed"]
            (self.start_distance.value, self.start_offset.value,
             self.start_heading.value) = p["start"]
            self.time.value = 0
        self.run()

    def place_car(self, x: float, y: float) -> None:
        """Start the car at the point (x, y): beside the spline, wherever that is nearest."""
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"cannot place the car at ({x}, {y})")
        sp = self.spline
        s = sp.closest_distance([x, y])
        t = sp.direction_at(s)
        offset = float(np.dot(np.array([x, y]) - sp.location_at(s), [t[1], -t[0]]))
        lim = self.start_offset.max
        if abs(offset) > lim:
            self.show_message(f"That is {abs(offset):.1f} m from the road: the car starts "
                              f"{lim:.0f} m {'right' if offset > 0 else 'left'} of it.", "info")
        with self.hold():
            self.start_distance.value = round(min(s, self.start_distance.max) * 2) / 2
            self.start_offset.value = max(-lim, min(lim, round(offset, 1)))
            self.time.value = 0
        self._on_param()
        if abs(offset) > lim:
            self.show_message(f"That is {abs(offset):.1f} m from the road: the car starts "
                              f"{lim:.0f} m {'right' if offset > 0 else 'left'} of it.", "info")

    def _on_press(self, event) -> None:
        if event.inaxes not in (self.ax_map, self.ax_close) or event.xdata is None:
            return
        if self.fig.canvas.toolbar is not None and getattr(self.fig.canvas.toolbar, "mode", ""):
            return  # panning or zooming with the toolbar
        self._drag = True
        self.place_car(float(event.xdata), float(event.ydata))

    def _on_motion(self, event) -> None:
        if self._drag and event.inaxes is self.ax_map and event.xdata is not None:
            # dragging in the overview only: the close-up moves with the car
            self.place_car(float(event.xdata), float(event.ydata))

    def _on_release(self, _event) -> None:
        self._drag = False

    def _sync_for_gif(self, value) -> None:
        self.time.value = value

    def _ipython_display_(self):  # a bare `app` at the end of a cell shows it
        from IPython.display import display

        display(self.widget)


# -- static figures for the lesson's text ---------------------------------------------------
_DEMO_TRACK = [[-20.0, 0.0], [0.0, 0.0], [12.0, 2.0], [22.0, 7.0], [30.0, 14.0]]


def _demo_situation():
    """A car 1.6 m right of a road that bends left, pointing a little left of the road."""
    sp = Spline(_DEMO_TRACK)
    s = 33.0
    t = sp.direction_at(s)
    pos = sp.location_at(s) + 2.4 * np.array([t[1], -t[0]])
    yaw = math.degrees(math.atan2(t[1], t[0])) + 8.0
    params = SteeringParams(adaptive_look_ahead=False, fixed_look_ahead=14.0)
    from ..steering import steer

    return sp, pos, yaw, steer(pos, yaw, 10.0, sp, sp.closest_distance(pos), params)


def term_figure(term: str):
    """A labelled diagram of one term ("position", "heading" or "crosstrack") on one
    situation, with the value the library computes for it in the title."""
    if term not in ("position", "heading", "crosstrack"):
        raise ValueError(f"term must be 'position', 'heading' or 'crosstrack', got {term!r}")
    sp, pos, yaw, terms = _demo_situation()
    fig = make_figure(4.6, 3.0)
    with rc_context():
        ax = fig.add_axes((0.01, 0.01, 0.98, 0.86))
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    pts = sp.sample(200)
    d = sp.direction_at(np.linspace(0, sp.length, 200))
    right = np.c_[d[:, 1], -d[:, 0]]
    for side in (-ROAD_HALF_WIDTH, ROAD_HALF_WIDTH):
        ax.plot(*(pts + side * right).T, color=COLOURS["centre"], lw=0.8)
    ax.plot(*pts.T, color=COLOURS["centre"], lw=1.0, ls=(0, (6, 4)))
    car = Vehicle()
    ax.add_patch(Polygon(car.outline(pos[0], pos[1], yaw), closed=True, fc=COLOURS["car"],
                         ec=PALETTE["black"], lw=1.0, alpha=0.55, zorder=3))
    heading = np.array([math.cos(math.radians(yaw)), math.sin(math.radians(yaw))])
    stroke = [withStroke(linewidth=3.2, foreground=PALETTE["black"])]
    ahead = pos + 9.0 * heading
    ax.plot(*np.c_[pos, ahead], color=PALETTE["black"], lw=1.0, ls=":", zorder=4)
    ax.text(*ahead, " car's heading", fontsize=8, va="center")
    tg, td = terms.target, terms.target_direction
    if term == "position":
        ax.plot(*np.c_[pos, tg], color=COLOURS["to_target"], lw=2.0, path_effects=stroke,
                zorder=6)
        ax.plot(*tg, "o", color=COLOURS["target"], mec=PALETTE["black"], ms=8, zorder=8)
        title = f"Position Delta = {terms.position_delta:+.1f}° (target to the right: +)"
    elif term == "heading":
        ax.quiver([tg[0]], [tg[1]], [6 * td[0]], [6 * td[1]], color=COLOURS["tangent"],
                  angles="xy", scale_units="xy", scale=1, width=0.012, zorder=7)
        ax.quiver([pos[0]], [pos[1]], [6 * td[0]], [6 * td[1]], color=COLOURS["tangent"],
                  alpha=0.45, angles="xy", scale_units="xy", scale=1, width=0.012, zorder=7)
        ax.plot(*tg, "o", color=COLOURS["target"], mec=PALETTE["black"], ms=8, zorder=8)
        title = f"Heading Delta = {terms.heading_delta:+.1f}° (path to the right: +)"
    else:
        pp, off, r = terms.progress_point, terms.perpendicular_offset, terms.path_right
        ax.quiver([pp[0]], [pp[1]], [off[0]], [off[1]], color=COLOURS["offset"], angles="xy",
                  scale_units="xy", scale=1, width=0.012, zorder=7)
        ax.quiver([pp[0]], [pp[1]], [3 * r[0]], [3 * r[1]], color=PALETTE["grey"],
                  angles="xy", scale_units="xy", scale=1, width=0.006, zorder=6)
        ax.text(*(pp + 3.2 * r), "road's right", fontsize=8, ha="center", va="top")
        ax.plot(*pp, "o", color=COLOURS["progress"], mec=PALETTE["black"], ms=8, zorder=8)
        title = f"Crosstrack Error = {terms.crosstrack_error:+.2f} m (right of the line: +)"
    ax.set_title(title, fontsize=10)
    ax.set_aspect("equal")
    ax.set_xlim(4, 36)
    ax.set_ylim(-6, 15)
    return fig


def slope_figure(grade: float = 0.5):
    """3D: a road climbing at ``grade``; world up, the up projected off the tangent (road
    normal) and the road's right vector, at one point."""
    from ..steering import road_right

    if not math.isfinite(grade) or abs(grade) > 3:
        raise ValueError(f"grade must be between -3 and 3, got {grade}")
    fig = make_figure(4.6, 3.6)
    with rc_context():
        ax = fig.add_axes((0.0, 0.02, 0.88, 0.88), projection="3d")
    ramp = Spline([[0.0, 0.0, 0.0], [10.0, 0.0, 10.0 * grade]])
    s = 0.5 * ramp.length
    p, t = ramp.location_at(s), ramp.direction_at(s)
    up = np.array([0.0, 0.0, 1.0])
    n = up - t * np.dot(up, t)
    n /= np.linalg.norm(n)
    r = road_right(t)
    corners = np.array([ramp.location_at(0) - 3 * r, ramp.location_at(0) + 3 * r,
                        ramp.location_at(ramp.length) + 3 * r,
                        ramp.location_at(ramp.length) - 3 * r])
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    ax.add_collection3d(Poly3DCollection([corners], facecolor=PALETTE["sky"],
                                         edgecolor=PALETTE["black"], alpha=0.35))
    for vec, colour, label, ha in ((3 * t, COLOURS["tangent"], "tangent", "left"),
                                   (3 * up, PALETTE["grey"], "world up", "left"),
                                   (3 * n, COLOURS["progress"], "road normal\n(up projected)",
                                    "right"),
                                   (3 * r, COLOURS["offset"], "right", "left")):
        ax.quiver(*p, *vec, color=colour, linewidth=2.2, arrow_length_ratio=0.15)
        ax.text(*(p + 1.1 * vec), label, fontsize=8, color=colour, ha=ha)
    ax.set_xlim(0, 10)
    ax.set_ylim(-5, 5)
    ax.set_zlim(0, max(5.0, 10 * grade))
    ax.set_box_aspect((10, 10, max(5.0, 10 * grade)))
    ax.view_init(elev=32, azim=-128)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_zlabel("z")
    slope = math.degrees(math.atan(grade))
    ax.set_title(f"grade {grade:.0%}: slope {slope:.1f}°", fontsize=10)
    return fig


def run_figure(trajectory, spline: Spline, title: str = ""):
    """A small static picture of one run: the path on the track, and crosstrack vs time."""
    fig = make_figure(8.0, 2.6)
    with rc_context():
        ax_map = fig.add_axes((0.0, 0.02, 0.45, 0.86))
        ax_ct = fig.add_axes((0.53, 0.2, 0.45, 0.68))
    pts = spline.sample(400)
    ax_map.plot(*pts.T, color=COLOURS["centre"], lw=1.0, ls=(0, (6, 4)))
    ax_map.plot(trajectory.x, trajectory.y, color=COLOURS["path"], lw=1.4)
    ax_map.plot(trajectory.x[0], trajectory.y[0], "x", color=COLOURS["path"], ms=7, mew=2)
    ax_map.set_aspect("equal")
    ax_map.set_xticks([])
    ax_map.set_yticks([])
    for spine in ax_map.spines.values():
        spine.set_visible(False)
    ax_ct.axhline(0, color=PALETTE["grey"], lw=0.8)
    ax_ct.plot(trajectory.t, trajectory.crosstrack_error, color=COLOURS["offset"], lw=1.6)
    ax_ct.set_xlabel("time (s)")
    ax_ct.set_ylabel("crosstrack (m)")
    if title:
        fig.suptitle(title, fontsize=10, y=0.99)
    return fig


class TuningChallenge(LessonApp):
    """Exercise: tune the gains until RMS crosstrack error < ``target`` m on a track.

    Sliders for the look-ahead and the three weights; Check runs the simulation and says
    how it went (with a hint after a miss). ``solved`` tells whether it passed.
    """

    def __init__(self, track_name: str = "hairpin", speed: float = 12.0, target: float = 0.3,
                 start_offset: float = 2.0, start: SteeringParams | None = None) -> None:
        super().__init__()
        self.spline = track(track_name)
        self.speed, self.target, self.start_offset = float(speed), float(target), start_offset
        start = start or SteeringParams(look_ahead_base=8.0, look_ahead_speed_factor=0.8,
                                        heading_weight=0.3, max_yaw_delta=90.0,
                                        crosstrack_gain=0.02)
        self.base_params = start
        self.sliders = {
            "look_ahead_base": _slider("Look-ahead base (m)", start.look_ahead_base, 0, 15, 0.5),
            "look_ahead_speed_factor": _slider("... + speed x (s)",
                                               start.look_ahead_speed_factor, 0, 2, 0.05,
                                               ".2f"),
            "heading_weight": _slider("Heading weight", start.heading_weight, 0, 1, 0.05,
                                      ".2f"),
            "max_yaw_delta": _slider("Max yaw delta (°)", start.max_yaw_delta, 5, 120, 1,
                                     ".0f"),
            "crosstrack_gain": _slider("Crosstrack gain /m", start.crosstrack_gain, 0, 1,
                                       0.01, ".2f"),
        }
        self.check_button = widgets.Button(description="Check", button_style="primary")
        self.hint_button = widgets.Button(description="Hint")
        self.feedback = widgets.HTML()
        self.solved = False
        self.check_button.on_click(self.guard(lambda _b: self.check()))
        self.hint_button.on_click(self.guard(lambda _b: self.show_hint()))
        self.widget = widgets.VBox(
            [widgets.HTML(f"<b>Tune the steering so the RMS crosstrack error stays under "
                          f"{target} m on the '{track_name}' track at {speed:g} m/s, "
                          f"starting {start_offset:g} m off the line.</b>"),
             *self.sliders.values(), widgets.HBox([self.check_button, self.hint_button]),
             self.feedback, self.status],
            layout=widgets.Layout(border=f"1px solid {PALETTE['light']}", padding="6px"))

    def params(self) -> SteeringParams:
        return self.base_params.replace(**{k: float(s.value) for k, s in self.sliders.items()})

    def check(self) -> bool:
        traj = simulate(self.spline, self.params(), self.speed, DURATION,
                        start_offset=self.start_offset)
        m = traj.metrics()
        self.last_metrics = m
        self.solved = m["rms_crosstrack"] < self.target
        colour = PALETTE["green"] if self.solved else PALETTE["vermillion"]
        verdict = ("&#10003; Well done!" if self.solved else "&#10007; Not yet.")
        self.feedback.value = (
            f"<span style='color:{colour};font-weight:600'>{verdict}</span> RMS "
            f"{m['rms_crosstrack']:.3f} m (target &lt; {self.target} m), max "
            f"{m['max_crosstrack']:.2f} m, steering movement {m['steering_movement']:.1f}.")
        return self.solved

    def show_hint(self) -> None:
        self.feedback.value = (
            f"<span style='color:{PALETTE['blue']}'><b>Hint:</b> the car starts "
            f"{self.start_offset:g} m off the line and only the crosstrack term pulls it back "
            "directly: raise its gain to about 0.25. A shorter look-ahead (base 2-3 m, "
            "0.2 s per m/s) follows the hairpins more closely, a larger heading weight (0.85) "
            "lines the car up with the road early, and a smaller max yaw delta (45°) turns "
            "harder for the same angle.</span>")

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)
