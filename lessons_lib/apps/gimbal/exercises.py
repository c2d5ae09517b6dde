"""Lesson 1's exercise answered with the sliders: "reach this orientation".

The app shows a purple ghost: the locked start turned by 40 degrees about the direction the
lock has lost. The check reads the app's own sliders (the widget state), so it works the
same in JupyterLab and in Voila.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ... import rotations as rot
from ..core import PALETTE, fmt_number
from ..core.exercise import LINE_HEIGHT, hint_html, text_block
from . import model
from .app import GimbalApp


class ReachExercise:
    """A small :class:`GimbalApp` with a target, a Check button and a "back to the start"
    button. ``app`` is the app, ``widget`` the whole exercise; ``check()`` returns whether
    the aircraft is on the ghost."""

    def __init__(self, order: str = "YXZ", turn_deg: float = 40.0, width: float = 4.4,
                 height: float = 4.0) -> None:
        self.target = model.reach_target(order, turn_deg)
        self.single_ring_best = model.best_single_ring(self.target)
        self.two_rings_best = model.best_two_rings(self.target)
        yaw, pitch, roll = self.target.start
        # the sliders only: flown, the aircraft would reach the ghost with no detour at all
        self.app = GimbalApp(width=width, height=height, target=self.target, compact=True,
                             fly=False, yaw=yaw, pitch=pitch, roll=roll, order=order)
        names = rot.ring_angle_names(order)
        start = ", ".join(f"{n} {fmt_number(v, 0)}°"
                          for n, v in zip(("yaw", "pitch", "roll"), self.target.start,
                                          strict=True))
        best = fmt_number(min(self.single_ring_best), 0)
        self._two = fmt_number(min(self.two_rings_best), 0)
        self.prompt = (
            f'<div style="font-size:14px;max-width:900px;{LINE_HEIGHT}"><b>Reach this '
            f"orientation.</b> The "
            f"app starts locked ({start}, order {order}). Turn the sliders until the aircraft "
            f"sits on the purple ghost, within {fmt_number(model.REACH_TOL_DEG, 0)}°, then "
            f"press <b>Check</b>. Try one slider at a time first: from the start no ring "
            f"alone gets it closer than {best}°, because the ghost is turned about the "
            f"direction the lock has lost. The {names[1]} ring has to leave ±90°.</div>")
        self.check_button = widgets.Button(description="Check", button_style="primary",
                                           layout=widgets.Layout(width="90px"))
        self.restart_button = widgets.Button(description="Back to the start", icon="undo",
                                             layout=widgets.Layout(width="auto"))
        self.hint_button = widgets.Button(description="Hint", layout=widgets.Layout(width="90px"))
        self.feedback = widgets.HTML()
        self.check_button.on_click(self.app.guard(lambda _b: self.check()))
        self.restart_button.on_click(self.app.guard(lambda _b: self.restart()))
        self.hint_button.on_click(self.app.guard(lambda _b: self.hint()))
        self.solved = False
        self.widget = widgets.VBox(
            [widgets.HTML(self.prompt),
             widgets.HBox([self.check_button, self.hint_button, self.restart_button]),
             self.feedback, self.app.widget],
            layout=widgets.Layout(border=f"1px solid {PALETTE['light']}", padding="6px"))
        self.widget.add_class("gimbal-reach")
        self.app.guard_controls()

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)

    def check(self) -> bool:
        """Say how far the aircraft drawn is from the ghost: the sliders read in the order
        the app draws, whichever the order menu shows."""
        state = self.app.state
        error = state.target_error
        self.solved = error <= model.REACH_TOL_DEG
        angles = ", ".join(f"{n} {fmt_number(v, 0)}°" for n, v in
                           zip(("yaw", "pitch", "roll"), state.angles, strict=True))
        if state.order != self.target.order:
            angles += f", order {state.order}"
        if self.solved:
            text = (f'<span style="color:{PALETTE["green"]};font-weight:600">&#10003; On the '
                    f"ghost ({fmt_number(error, 1)}° away) with {html.escape(angles)}."
                    f"{self._why_three(state.order)}</span>")
        else:
            text = (f'<span style="color:{PALETTE["vermillion"]};font-weight:600">&#10007; '
                    f"Not yet: {fmt_number(error, 1)}° from the ghost ({html.escape(angles)})."
                    "</span>")
        self.feedback.value = text_block(text)
        return self.solved

    def _why_three(self, order: str) -> str:
        """Why all three rings had to move: true of the exercise's own order, where the
        start is locked (:func:`model.best_two_rings`)."""
        if order != self.target.order:
            return ""
        return (" All three rings had to move: keep any one where it started and the other "
                f"two together get no closer than {self._two}°. The turn the lock had lost "
                "is a detour through all three angles.")

    def hint_text(self) -> str:
        """Which way to turn each ring, from the start to the whole-degree answer the
        sliders can reach (the other branch, the middle ring past ±90° with the outer and
        inner rings turned the other way, works too, and the hint says so)."""
        names = rot.ring_angle_names(self.target.order)
        start = dict(zip(("yaw", "pitch", "roll"), self.target.start, strict=True))
        goal = dict(zip(("yaw", "pitch", "roll"), self.target.angles, strict=True))

        def way(name: str) -> str:
            return "down (drag it left)" if goal[name] < start[name] else "up (drag it right)"

        return (f"first turn {names[1]} {way(names[1])} from {fmt_number(start[names[1]], 0)}° "
                f"until the ghost's nose and the aircraft's nose point the same way up or "
                f"down; then turn {names[0]} {way(names[0])} to line up the nose, and "
                f"{names[2]} {way(names[2])} for the wings. (Turning {names[1]} the other way "
                f"works too, with {names[0]} and {names[2]} turned the other way.) Watch the "
                "distance under the gauge.")

    def hint(self) -> None:
        self.feedback.value = hint_html(self.hint_text())

    def restart(self) -> None:
        self.app.start_target()
        self.feedback.value = ""
