"""Lesson 3's tuning exercise: tune the gains until the RMS crosstrack error is under a target.

Moving a slider changes nothing but the settings; **Check** drives the car with them and
shows the run it judged (its path on the track and its crosstrack error against time), with
the verdict beside it. Hints come one at a time and point at *which* knob matters and why,
never at the values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import ipywidgets as widgets
import numpy as np

from ... import validate as check
from ..core import PALETTE, LessonApp, Params, make_figure, rc_context
from ..core.controls import short
from ..core.exercise import hint_html, text_block
from . import model
from .app import PARAM_CONTROLS, SteeringApp
from .view import COLOURS

#: The largest RMS crosstrack target (m): half the widest start offset the app allows.
MAX_TARGET = model.MAX_OFFSET / 2
_SPEC = {spec.name: spec for spec in SteeringApp.controls}

#: The exercise's own starting point: badly tuned on purpose.
START = {"look_ahead_base": 8.0, "look_ahead_speed_factor": 0.8, "heading_weight": 0.3,
         "max_yaw_delta": 90.0, "crosstrack_gain": 0.02}

HINTS = (
    "The car starts off the line. Which of the three terms is the only one that measures "
    "how far off the line it is, and how strongly does it act with the gain it has now?",
    "Compare the look-ahead with the bends: at this speed (base + speed × factor) is far "
    "longer than a 10 m hairpin's radius, so the target is round the corner before the car "
    "is. What happens to the yellow line in a bend then?",
    "With a low heading weight the car only chases the red point and overshoots when it "
    "gets there. Which term says \u2018you are lined up with the road, stop turning\u2019?",
    "Max yaw delta is the angle that means full lock: the larger it is, the gentler every "
    "angle term steers. Try the app above with the same track and speed to watch a change "
    "before you check it.",
)


@dataclass(frozen=True)
class Judged:
    """The run a Check judged, and its verdict."""

    run: model.Run
    rms: float
    solved: bool


class TuningChallenge(LessonApp):
    """Exercise: tune the gains until RMS crosstrack error < ``target`` m on a track.

    ``check()`` runs the simulation, draws the run it judged and says how it went;
    ``show_hint()`` gives the next hint. ``solved`` and ``last_metrics`` hold the verdict.
    """

    controls = tuple(replace(spec, value=START[spec.name], width="380px")
                     for spec in PARAM_CONTROLS if spec.name in START)

    def __init__(self, track_name: str = "hairpin", speed: float = 12.0, target: float = 0.3,
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

    def build(self) -> None:
        self.fig = make_figure(7.0, 2.4)
        with rc_context():
            self.ax_map = self.fig.add_axes((0.0, 0.03, 0.42, 0.94))
            self.ax_ct = self.fig.add_axes((0.52, 0.2, 0.46, 0.7))
        sp = model.road(self.track_name)
        pts = sp.sample(400)
        self.ax_map.plot(pts[:, 0], pts[:, 1], color=COLOURS["centre"], lw=1.0, ls=(0, (6, 4)))
        (self.path_line,) = self.ax_map.plot([], [], color=COLOURS["path"], lw=1.4)
        self.ax_map.set_aspect("equal")
        self.ax_map.set_axis_off()
        self.ax_ct.axhline(0.0, color=PALETTE["grey"], lw=0.8)
        for y in (-self.target, self.target):
            self.ax_ct.axhline(y, color=PALETTE["green"], lw=0.8, ls=":")
        (self.ct_line,) = self.ax_ct.plot([], [], color=COLOURS["offset"], lw=1.6)
        self.ax_ct.set_xlim(0, model.DURATION)
        self.ax_ct.set_xlabel("time (s)", labelpad=1)
        self.ax_ct.set_ylabel("crosstrack (m)", labelpad=1)
        self.verdict = self.ax_ct.set_title("press Check to drive", fontsize=10)
        self.check_button = widgets.Button(description="Check", button_style="primary")
        self.hint_button = widgets.Button(description="Hint")
        self.feedback = widgets.HTML()
        self.check_button.on_click(self.guard(lambda _b: self.check()))
        self.hint_button.on_click(self.guard(lambda _b: self.show_hint()))

    def compute(self, params):
        return params  # the sliders only set up the run; Check drives it

    def draw(self, state, frame) -> None:
        j = self.judged
        if j is None:
            return
        tr = j.run.trajectory
        self.path_line.set_data(tr.x, tr.y)
        self.ct_line.set_data(tr.t, tr.crosstrack_error)
        lim = max(1.0, float(np.max(np.abs(tr.crosstrack_error))) * 1.1)
        self.ax_ct.set_ylim(-lim, lim)
        self.verdict.set_text(f"the run checked: RMS {j.rms:.2f} m "
                              f"({'under' if j.solved else 'not under'} {self.target:g} m)")

    def layout(self) -> widgets.Widget:
        task = widgets.HTML(
            f"<b>Tune the steering so that the RMS crosstrack error stays under "
            f"{self.target:g} m on the '{self.track_name}' track at {self.speed:g} m/s, "
            f"starting {self.start_offset:g} m right of the line.</b>")
        return widgets.VBox(
            [task, *self.control_widgets(), widgets.HBox([self.check_button, self.hint_button]),
             self.feedback, self.fig.canvas, self.status],
            layout=widgets.Layout(border=f"1px solid {PALETTE['light']}", padding="6px"))

    def check(self) -> bool:
        """Drive the car with the sliders' settings; draw and judge that run."""
        p = model.steering_params(Params({**model.DEFAULTS, **self.params}))
        run = model.run(self.track_name, "Article", p, self.speed, (0.0, self.start_offset, 0.0))
        m = run.metrics
        self.last_metrics = m
        self.solved = m["rms_crosstrack"] < self.target
        self.judged = Judged(run, m["rms_crosstrack"], self.solved)
        colour = PALETTE["green"] if self.solved else PALETTE["vermillion"]
        verdict = "&#10003; Well done!" if self.solved else "&#10007; Not yet."
        worst = ("" if self.solved else
                 f" The worst moment is {m['max_crosstrack']:.2f} m off at t = "
                 f"{run.trajectory.t[int(np.argmax(np.abs(run.trajectory.crosstrack_error)))]:.1f}"
                 " s: look at the plot.")
        self.feedback.value = text_block(
            f"<span style='color:{colour};font-weight:600'>{verdict}</span> RMS "
            f"{m['rms_crosstrack']:.3f} m (target &lt; {self.target:g} m), max "
            f"{m['max_crosstrack']:.2f} m, steering movement {m['steering_movement']:.1f}."
            f"{worst}")
        self.redraw()
        return self.solved

    def show_hint(self) -> None:
        """The next hint (they cycle)."""
        hint = HINTS[self.hints_shown % len(HINTS)]
        self.hints_shown += 1
        shown = (self.hints_shown - 1) % len(HINTS) + 1
        self.feedback.value = hint_html(hint, label=f"Hint {shown} of {len(HINTS)}:")
