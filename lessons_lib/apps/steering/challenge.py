"""Lesson 3's tuning exercise: tune the gains until the RMS crosstrack error is under a target.

Moving a slider changes nothing but the settings; **Check** drives the car with them and
shows the run it judged (its path on the track and its crosstrack error against time), with
the verdict beside it. The first :data:`JUDGED_FROM` seconds, while the car takes up its start
offset, are not judged: no setting removes the offset at t = 0. The target is one the
lesson's default settings reach (RMS 0.225 m on the hairpins at 12 m/s against 0.25 m). Hints
come one at a time, each naming one knob, the way to move it and how far; followed in order
from the badly tuned start they reach a pass (a test follows them), and the feedback names
the part of the run that failed (a bend or a straight, and when), or that the car circles
off the road; the map widens to show a run that left it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import ipywidgets as widgets
import numpy as np

from ... import validate as check
from ...i18n import N_, _
from ...steering import SteeringParams
from ..core import (
    FONT_SIZE,
    LINE,
    MARKER,
    PALETTE,
    LessonApp,
    Params,
    bare_axes,
    make_figure,
    rc_context,
)
from ..core.app import takes_params
from ..core.controls import short
from ..core.exercise import hint_html, text_block
from ..core.figure import fit_axes
from . import model
from .app import PARAM_CONTROLS, SteeringApp
from .view import COLOURS, ROAD_HALF_WIDTH

#: The largest RMS crosstrack target (m): half the widest start offset the app allows.
MAX_TARGET = model.MAX_OFFSET / 2
_SPEC = {spec.name: spec for spec in SteeringApp.controls}

#: The exercise's own starting point: badly tuned on purpose.
START = {"look_ahead_base": 8.0, "look_ahead_speed_factor": 0.8, "heading_weight": 0.3,
         "max_yaw_delta": 90.0, "crosstrack_gain": 0.02}
#: The RMS crosstrack target (m) the exercise asks for by default.
TARGET = 0.25
#: Seconds at the start of a run that are not judged: the car takes up its start offset.
JUDGED_FROM = 5.0
#: Curvature (1/m) above which a moment of the run counts as "in a bend" (radius < 20 m).
BEND_CURVATURE = 0.05
#: A run whose car got less than this share of the way it drove along the road, in the
#: judged seconds, has lost the road (it circles beside it); which part of the road it was
#: beside says nothing then.
LOST_SHARE = 0.5


@dataclass(frozen=True)
class Situation:
    """What a hint's numbers come from besides the sliders: the exercise's speed (m/s), start
    offset (m) and the radius of the track's bends (m; the median over their samples)."""

    speed: float
    offset: float
    radius: float


@dataclass(frozen=True)
class Hint:
    """One nudge: the setting it leads to (a test follows them in order), and ``say``, its
    text from the sliders' current values and the :class:`Situation`."""

    say: Callable[[dict, Situation], str]   #: (sliders' values, situation) -> its text
    setting: dict


#: Our defaults (:class:`~lessons_lib.steering.SteeringParams`; the article gives no values).
_OURS = SteeringParams()


def _towards(now: float, goal: float, name: str, unit: str = "") -> str:
    """"Raise the gain to about 0.25" (or lower, or "leave it": it is there already)."""
    if abs(now - goal) <= 1e-9 + 0.02 * abs(goal):
        return _("The {name} is at {goal:g}{unit} already (our default): leave it "
                 "there.").format(name=_(name), goal=goal, unit=unit)
    return (_("Raise the {name} to about {goal:g}{unit} (our default).") if now < goal else
            _("Lower the {name} to about {goal:g}{unit} (our default).")).format(
                name=_(name), goal=goal, unit=unit)


def _gain_hint(v: dict, w: Situation) -> str:
    g = v["crosstrack_gain"]
    return (_("The car starts {off:g} m off the line, and only the Crosstrack term measures "
              "how far off it is. With a gain of {g:g} steering per metre, {off:g} m off asks "
              "for {lock} of full lock.").format(
                  off=w.offset, g=g, lock=f"{100 * min(1.0, g * w.offset):.0f} %")
            + " " + _towards(g, _OURS.crosstrack_gain, N_("crosstrack gain"))
            + " " + _("Much above 0.35 the push overshoots and the car swings off the road."))


def _look_ahead_hint(v: dict, w: Situation) -> str:
    base, factor = v["look_ahead_base"], v["look_ahead_speed_factor"]
    now = base + w.speed * factor
    ours = _OURS.look_ahead_base + w.speed * _OURS.look_ahead_speed_factor
    said = (_("At {speed:g} m/s the look-ahead on a straight is base + {speed:g} × factor = "
              "{base:g} + {speed:g} × {factor:g} = {now:.3g} m, longer than the bends' radius "
              "(about {radius:.0f} m): the target is round the bend before the car is, and "
              "the yellow line cuts the corner.") if now > w.radius else
            _("At {speed:g} m/s the look-ahead on a straight is base + {speed:g} × factor = "
              "{base:g} + {speed:g} × {factor:g} = {now:.3g} m, no longer than the bends' "
              "radius (about {radius:.0f} m)."))
    return (said.format(speed=w.speed, base=base, factor=factor, now=now, radius=w.radius)
            + " " + _("Our default base {base:g} m with factor {factor:g} s gives {ours:.3g} "
                      "m:").format(base=_OURS.look_ahead_base,
                                   factor=_OURS.look_ahead_speed_factor, ours=ours) + " "
            + (_("it is set already.") if (base, factor) == (_OURS.look_ahead_base,
                                                          _OURS.look_ahead_speed_factor)
               else _("set those two.")))


def _weight_hint(v: dict, w: Situation) -> str:
    h = v["heading_weight"]
    said = (_("With heading weight {h:g} the car mostly chases the red point and overshoots "
              "when it gets there.") if h < _OURS.heading_weight else
            _("With heading weight {h:g} the car lines up with the road and hardly chases the "
              "red point.") if h > _OURS.heading_weight else
            _("With heading weight {h:g} the blend is ours."))
    return (said.format(h=h) + " "
            + _("The Heading term says \u2018you are lined up with the road, stop "
                "turning\u2019.") + " "
            + _towards(h, _OURS.heading_weight, N_("heading weight")))


def _yaw_hint(v: dict, w: Situation) -> str:
    m = v["max_yaw_delta"]
    said = (_("Max yaw delta is the angle that means full lock: at {m:g}° every angle term "
              "steers gently and the car is late in the bends.") if m > _OURS.max_yaw_delta
            else _("Max yaw delta is the angle that means full lock: at {m:g}° small angles "
                   "already ask for a lot of lock.") if m < _OURS.max_yaw_delta
            else _("Max yaw delta is the angle that means full lock: at {m:g}° the angle terms "
                   "steer as ours do."))
    return (said.format(m=m) + " "
            + _towards(m, _OURS.max_yaw_delta, N_("max yaw delta"), "°")
            + " " + _("Try the app above with the same track and speed to watch a change "
                      "before you check it."))


HINTS = (
    Hint(_gain_hint, {"crosstrack_gain": _OURS.crosstrack_gain}),
    Hint(_look_ahead_hint, {"look_ahead_base": _OURS.look_ahead_base,
                            "look_ahead_speed_factor": _OURS.look_ahead_speed_factor}),
    Hint(_weight_hint, {"heading_weight": _OURS.heading_weight}),
    Hint(_yaw_hint, {"max_yaw_delta": _OURS.max_yaw_delta}),
)


def part_of_track(spline, s: float) -> str:
    """Where on the track the distance ``s`` lies, in words: in a bend, on the straight just
    after one (within 20 m), or on a straight."""
    spline = model.checked_spline(spline)
    s = check.real(s, "s", unit="m")
    k = float(spline.curvature_at(s))
    if k > BEND_CURVATURE:
        return _("in a bend (radius {r:.0f} m)").format(r=1 / k)
    behind = np.asarray(spline.curvature_at(spline.wrap(s - np.linspace(0.0, 20.0, 21))))
    return (_("on the straight just after a bend") if np.any(behind > BEND_CURVATURE)
            else _("on a straight"))


@dataclass(frozen=True)
class Judged:
    """The run a Check judged, and its verdict: ``rms`` over the judged part (from
    :data:`JUDGED_FROM` s on), its worst step ``worst`` and where that was, and the share of
    the judged squared error that came from the bends; in the judged part, ``driven``, how far
    (m) the car drove, and ``along``, how far along the road that took it."""

    run: model.Run
    rms: float
    solved: bool
    worst: int
    where: str
    bend_share: float
    along: float
    driven: float

    @property
    def lost(self) -> bool:
        """Less than :data:`LOST_SHARE` of the way it drove took the car along the road: it
        left the road and circles beside it."""
        return self.along < LOST_SHARE * self.driven


def judge(spline, run: model.Run, target: float, start: float = JUDGED_FROM) -> Judged:
    """Judge ``run`` on ``spline`` against an RMS ``target`` (m) from ``start`` s on."""
    spline = model.checked_spline(spline)
    tr = check.instance(run, "run", model.Run, "a run of the steering model").trajectory
    target = check.real(target, "target", lo=0.0, lo_open=True, unit="m")
    start = check.real(start, "start", lo=0.0, unit="s")
    part = np.flatnonzero(tr.t >= start - 1e-9)
    if len(part) == 0:
        raise ValueError(f"the run ends at {tr.t[-1]:.1f} s, before the judged part "
                         f"starts at {start:g} s")
    cte = tr.crosstrack_error[part]
    rms = float(np.sqrt(np.mean(cte ** 2)))
    worst = int(part[int(np.argmax(np.abs(cte)))])
    bends = np.asarray(spline.curvature_at(tr.progress[part])) > BEND_CURVATURE
    total = float(np.sum(cte ** 2))
    share = float(np.sum(cte[bends] ** 2)) / total if total > 0 else 0.0
    steps = np.diff(tr.progress[part])
    if spline.closed:                       # across the start line, the short way
        steps = (steps + spline.length / 2) % spline.length - spline.length / 2
    along = float(np.sum(steps))
    driven = float(np.sum(np.hypot(np.diff(tr.x[part]), np.diff(tr.y[part]))))
    return Judged(run, rms, rms < target, worst, part_of_track(spline, tr.progress[worst]),
                  share, along, driven)


class TuningChallenge(LessonApp):
    """Exercise: tune the gains until RMS crosstrack error < ``target`` m on a track, judged
    from :data:`JUDGED_FROM` s on.

    ``check()`` runs the simulation, draws the run it judged and says how it went (and where
    it failed); ``show_hint()`` gives the next hint. ``solved``, ``judged`` and
    ``last_metrics`` hold the verdict.
    """

    controls = tuple(replace(spec, value=START[spec.name], width="400px", label_width="178px")
                     for spec in PARAM_CONTROLS if spec.name in START)

    def __init__(self, track_name: str = "hairpin", speed: float = 12.0, target: float = TARGET,
                 start_offset: float = 2.0, **values) -> None:
        if not isinstance(track_name, str):
            raise ValueError(f"track_name must be a track's name, got {short(track_name)}")
        self.track_name = track_name
        model.road(track_name)  # an unknown track fails here, with the list of tracks
        # the same ranges as the steering app's sliders; a target is an RMS error the car
        # can miss (inf, or one as wide as the road, would count every tuning as solved)
        self.speed = _SPEC["speed"].check(speed)
        self.start_offset = _SPEC["start_offset"].check(start_offset)
        self.target = check.length(target, "target", cap=MAX_TARGET)
        self.judged: Judged | None = None
        self.solved = False
        self.last_metrics: dict | None = None
        self.hints_shown = 0
        super().__init__(**values)

    def copy_args(self, values: dict) -> dict:
        """A copy runs the same track, speed, start and target."""
        return {"track_name": self.track_name, "speed": self.speed, "target": self.target,
                "start_offset": self.start_offset}

    def build(self) -> None:
        self.fig = make_figure(7.0, 2.4)
        with rc_context():
            self.ax_map = self.fig.add_axes((0.0, 0.03, 0.42, 0.94))
            self.ax_ct = self.fig.add_axes((0.52, 0.2, 0.46, 0.7))
        sp = model.road(self.track_name)
        pts = sp.sample(400)
        #: the road's extent (m): the map shows it and, after a Check, the whole run
        self.road_box = (*(pts[:, :2].min(axis=0) - ROAD_HALF_WIDTH),
                         *(pts[:, :2].max(axis=0) + ROAD_HALF_WIDTH))
        self.ax_map.plot(pts[:, 0], pts[:, 1], color=COLOURS["centre"], lw=LINE["thin"],
                         ls=(0, (6, 4)))
        (self.path_line,) = self.ax_map.plot([], [], color=COLOURS["path"], lw=LINE["trace"])
        self.ax_map.set_aspect("equal")
        bare_axes(self.ax_map)
        self.ax_map.set_xlim(self.road_box[0], self.road_box[2])
        self.ax_map.set_ylim(self.road_box[1], self.road_box[3])
        self.ax_ct.axhline(0.0, color=PALETTE["grey"], lw=LINE["rule"])
        for y in (-self.target, self.target):
            self.ax_ct.axhline(y, color=PALETTE["green"], lw=LINE["rule"], ls=":")
        # the first seconds, not judged, shaded and said so
        self.ax_ct.axvspan(0.0, JUDGED_FROM, color=PALETTE["light"], lw=0, zorder=0)
        self.not_judged = self.ax_ct.text(    # over the curve, on the band's grey
            JUDGED_FROM / 2, 0.97, _("not\njudged"), ha="center", va="top",
            transform=self.ax_ct.get_xaxis_transform(), color=PALETTE["black"], zorder=4,
            bbox={"facecolor": PALETTE["light"], "edgecolor": "none", "pad": 1.0})
        (self.ct_line,) = self.ax_ct.plot([], [], color=COLOURS["offset"], lw=LINE["line"])
        (self.worst_dot,) = self.ax_ct.plot([], [], "o", color=PALETTE["vermillion"],
                                            ms=MARKER["dot"], zorder=5)
        (self.worst_car,) = self.ax_map.plot([], [], "o", color=PALETTE["vermillion"],
                                             ms=MARKER["mark"], zorder=5)
        self.ax_ct.set_xlim(0, model.DURATION)
        self.ax_ct.set_xlabel(_("time (s)"), labelpad=1)
        self.ax_ct.set_ylabel(_("crosstrack (m)"), labelpad=1)
        self.verdict = self.ax_ct.set_title(_("press Check to drive"), fontsize=FONT_SIZE)
        self.check_button = widgets.Button(description=_("Check"), button_style="primary")
        self.hint_button = widgets.Button(description=_("Hint"))
        self.feedback = widgets.HTML()
        self.check_button.on_click(self.guard(lambda _b: self.check()))
        self.hint_button.on_click(self.guard(lambda _b: self.show_hint()))

    @takes_params
    def compute(self, params):
        return params  # the sliders only set up the run; Check drives it

    @check.first_is(Params, "the app's .state (its params: Check drives the run)")
    def draw(self, state, frame) -> None:
        j = self.judged
        if j is None:
            return
        tr = j.run.trajectory
        self.path_line.set_data(tr.x, tr.y)
        self.ct_line.set_data(tr.t, tr.crosstrack_error)
        k = j.worst
        self.worst_dot.set_data([tr.t[k]], [tr.crosstrack_error[k]])
        self.worst_car.set_data([tr.x[k]], [tr.y[k]])
        self._fit_map(tr)
        lim = max(1.0, float(np.max(np.abs(tr.crosstrack_error))) * 1.1)
        self.ax_ct.set_ylim(-lim, lim)
        sign = "<" if j.solved else "\u2265"
        self.verdict.set_text(f"RMS {j.rms:.2f} m {sign} {self.target:g} m")
        self._fit_plot()                             # new limits: new tick labels

    def _fit_map(self, tr) -> None:
        """The map's limits: the road and the whole run (a car that left the road, and its
        red dot, stay in the picture)."""
        x0, y0, x1, y1 = self.road_box
        x0, x1 = min(x0, float(tr.x.min()) - 1.0), max(x1, float(tr.x.max()) + 1.0)
        y0, y1 = min(y0, float(tr.y.min()) - 1.0), max(y1, float(tr.y.max()) + 1.0)
        self.ax_map.set_xlim(x0, x1)
        self.ax_map.set_ylim(y0, y1)

    #: The crosstrack plot's share of the figure, with its labels (the map has the rest).
    CT_REGION = (0.45, 0.0, 1.0, 1.0)

    def resized(self, width: int, height: int) -> None:
        self._fit_plot()

    def _fit_plot(self) -> None:
        """The crosstrack plot's margins from its labels' sizes at this size and dpi; "not
        judged" only where it fits inside the plot (the grey band and the task say it too)."""
        fit_axes(self.ax_ct, self.CT_REGION)
        renderer = self.fig.canvas.get_renderer()
        self.not_judged.set_visible(True)
        box, label = (a.get_window_extent(renderer) for a in (self.ax_ct, self.not_judged))
        self.not_judged.set_visible(bool(box.x0 <= label.x0 and label.x1 <= box.x1
                                         and box.y0 <= label.y0 and label.y1 <= box.y1))

    def layout(self) -> widgets.Widget:
        """The task, Check and Hint, the verdict (or hint) right under them, then the gains,
        beside the figure (under it in a narrow column), as every app's: it fits the page
        and presents. The verdict points at the plots ("red dot on both plots"): under the
        gains it was 240-400 px below the figure, which a narrow page or presenter mode
        scrolled away while it was read."""
        task = widgets.HTML(text_block(f"<b>{self.task()}</b>"))
        root = self.arrange(
            primary=[task, widgets.HBox([self.check_button, self.hint_button]),
                     *self.control_widgets()],
            extra=[self.status], explain=[self.feedback], name="tuning-challenge")
        # framed around the app, not on it: the page measures the room inside the frame
        return widgets.VBox([root], layout=widgets.Layout(
            border=f"1px solid {PALETTE['light']}", padding="6px"))

    def task(self) -> str:
        """The exercise's task, in one sentence."""
        return _("Tune the steering so that the RMS crosstrack error stays under {target:g} m "
                 "on the '{track}' track at {speed:g} m/s, starting {offset:g} m right of the "
                 "line (the first {start:g} s, while the car takes up that offset, are not "
                 "judged).").format(target=self.target, track=_(self.track_name),
                                    speed=self.speed, offset=self.start_offset,
                                    start=JUDGED_FROM)

    def check(self) -> bool:
        """Drive the car with the sliders' settings; draw and judge that run."""
        p = model.steering_params(Params({**model.DEFAULTS, **self.params}))
        run = model.run(self.track_name, "Article", p, self.speed, (0.0, self.start_offset, 0.0))
        j = judge(model.road(self.track_name), run, self.target)
        self.judged, self.solved = j, j.solved
        self.last_metrics = {**run.metrics, "judged_rms": j.rms}
        self.feedback.value = text_block(self._feedback_html(j))
        self.redraw()
        return self.solved

    def _feedback_html(self, j: Judged) -> str:
        """The verdict, and when it failed, the part of the run that failed."""
        colour = PALETTE["green"] if j.solved else PALETTE["vermillion"]
        verdict = "&#10003; " + _("Well done!") if j.solved else "&#10007; " + _("Not yet.")
        tr = j.run.trajectory
        head = (f"<span style='color:{colour};font-weight:600'>{verdict}</span> "
                + _("RMS <b>{rms:.3f} m</b> from {start:g} s on (target &lt; {target:g} "
                    "m).").format(rms=j.rms, start=JUDGED_FROM, target=self.target))
        if j.solved:
            return head + " " + _("Steering movement {movement:.1f}: lower means a calmer "
                                  "wheel.").format(movement=j.run.metrics['steering_movement'])
        k = j.worst
        off = tr.crosstrack_error[k]
        left_road = abs(off) > ROAD_HALF_WIDTH
        if left_road:
            where = (_("the car left the road ({off:.1f} m right of the line, the road is "
                       "{half:g} m each side)") if off > 0 else
                     _("the car left the road ({off:.1f} m left of the line, the road is "
                       "{half:g} m each side)")).format(off=abs(off), half=ROAD_HALF_WIDTH)
        else:
            where = (_("the car is {off:.2f} m right of the line") if off > 0 else
                     _("the car is {off:.2f} m left of the line")).format(off=abs(off))
        if j.lost:      # circling off the road: which part of the road it was beside is moot
            return head + " " + _(
                "The worst moment (red dot on both plots) is at t = {t:.1f} s: {where}. It "
                "circles off the road: from {start:g} s on it drove {driven:.0f} m but got only "
                "{along:.0f} m along it.").format(t=tr.t[k], where=where, start=JUDGED_FROM,
                                                  driven=j.driven, along=max(j.along, 0.0))
        said = (_("The worst moment (red dot on both plots) is at t = {t:.1f} s, {part}: "
                  "{where}. The bends give {share:.0%} of the judged error.")
                if j.bend_share >= 0.5 else
                _("The worst moment (red dot on both plots) is at t = {t:.1f} s, {part}: "
                  "{where}. The straights give {share:.0%} of the judged error."))
        share = j.bend_share if j.bend_share >= 0.5 else 1.0 - j.bend_share
        return head + " " + said.format(t=tr.t[k], part=j.where, where=where, share=share)

    def show_hint(self) -> None:
        """The next hint (they cycle)."""
        hint = HINTS[self.hints_shown % len(HINTS)]
        self.hints_shown += 1
        shown = (self.hints_shown - 1) % len(HINTS) + 1
        self.feedback.value = hint_html(hint.say(self.params, self.situation()),
                                        label=_("Hint {shown} of {total}:").format(
                                            shown=shown, total=len(HINTS)))

    def situation(self) -> Situation:
        """The exercise's speed, start offset and tightest bend, for the hints."""
        sp = model.road(self.track_name)
        k = np.asarray(sp.curvature_at(np.linspace(0.0, sp.length, 800)))
        bends = k[k > BEND_CURVATURE]
        # the middle of the bends, not the spline's overshoot where a bend meets a straight
        # (the hairpins' 10 m read 8.6 m at their sharpest sample)
        k = float(np.median(bends)) if len(bends) else float(k.max())
        return Situation(self.speed, self.start_offset, 1.0 / k if k > 0 else float("inf"))
