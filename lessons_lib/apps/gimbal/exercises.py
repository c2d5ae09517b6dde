"""Lesson 1's exercises, made here so that no answer is in the notebook's visible code.

:class:`ReachExercise`, "reach this orientation" answered with the sliders: the app shows a
purple ghost, the locked start turned by 40 degrees about the direction the lock has lost.
The check reads the app's own sliders (the widget state), so it works the same in JupyterLab
and in Voila. The questions (:func:`rx_entry_question` ... :func:`snap_pitch_question`) and
:func:`check_rx`, the check of the learner's own ``my_rx``, are the notebook's others.
Exercises 2 and 3 each act on the :class:`GimbalApp` they are given: the lesson gives each
a small copy of its app (``app.copy()``), laid out beside the question.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from ... import rotations as rot
from ...i18n import _
from ..core import PALETTE, ChoiceQuestion, NumberQuestion, check_function, fmt_number
from ..core.controls import short
from ..core.exercise import LINE_HEIGHT, hint_html, text_block
from ..core.theme import TEXT
from . import model
from .app import GimbalApp
from .model import angle_word


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
        self.app = GimbalApp(width=width, height=height, target=self.target,
                             fly=False, yaw=yaw, pitch=pitch, roll=roll, order=order)
        names = [angle_word(n) for n in rot.ring_angle_names(order)]
        start = ", ".join(f"{angle_word(n)} {fmt_number(v, 0)}°"
                          for n, v in zip(("yaw", "pitch", "roll"), self.target.start,
                                          strict=True))
        best = fmt_number(min(self.single_ring_best), 0)
        self._two = fmt_number(min(self.two_rings_best), 0)
        self.prompt = (
            f'<div style="{TEXT};max-width:900px;{LINE_HEIGHT}">'
            + _("<b>Reach this orientation.</b> The app starts locked ({start}, order {order}). "
                "Turn the sliders until the aircraft sits on the purple ghost, within {tol}°, "
                "then press <b>Check</b>. Try one slider at a time first: from the start no "
                "ring alone gets it closer than {best}°, because the ghost is turned about the "
                "direction the lock has lost. The {middle} ring has to leave ±90°.").format(
                    start=start, order=order, tol=fmt_number(model.REACH_TOL_DEG, 0),
                    best=best, middle=names[1])
            + "</div>")
        self.check_button = widgets.Button(description=_("Check"), button_style="primary",
                                           layout=widgets.Layout(width="90px"))
        self.restart_button = widgets.Button(description=_("Back to the start"), icon="undo",
                                             layout=widgets.Layout(width="auto"))
        self.hint_button = widgets.Button(description=_("Hint"),
                                          layout=widgets.Layout(width="90px"))
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
        angles = ", ".join(f"{angle_word(n)} {fmt_number(v, 0)}°" for n, v in
                           zip(("yaw", "pitch", "roll"), state.angles, strict=True))
        if state.order != self.target.order:
            angles += ", " + _("order {order}").format(order=state.order)
        if self.solved:
            text = (f'<span style="color:{PALETTE["green"]};font-weight:600">&#10003; '
                    + _("On the ghost ({err}° away) with {angles}.").format(
                        err=fmt_number(error, 1), angles=html.escape(angles))
                    + f"{self._why_three(state.order)}</span>")
        else:
            text = (f'<span style="color:{PALETTE["vermillion"]};font-weight:600">&#10007; '
                    + _("Not yet: {err}° from the ghost ({angles}).").format(
                        err=fmt_number(error, 1), angles=html.escape(angles))
                    + "</span>")
        self.feedback.value = text_block(text)
        return self.solved

    def _why_three(self, order: str) -> str:
        """Why all three rings had to move: true of the exercise's own order, where the
        start is locked (:func:`model.best_two_rings`)."""
        if order != self.target.order:
            return ""
        return " " + _("All three rings had to move: keep any one where it started and the "
                       "other two together get no closer than {two}°. The turn the lock had "
                       "lost is a detour through all three angles.").format(two=self._two)

    def hint_text(self) -> str:
        """Which way to turn each ring, from the start to the whole-degree answer the
        sliders can reach (the other branch, the middle ring past ±90° with the outer and
        inner rings turned the other way, works too, and the hint says so)."""
        keys = rot.ring_angle_names(self.target.order)
        names = [angle_word(n) for n in keys]
        start = dict(zip(("yaw", "pitch", "roll"), self.target.start, strict=True))
        goal = dict(zip(("yaw", "pitch", "roll"), self.target.angles, strict=True))

        def way(n: int) -> str:
            return (_("down (drag it left)") if goal[keys[n]] < start[keys[n]] else
                    _("up (drag it right)"))

        return _("first turn {middle} {way_middle} from {from_}° until the ghost's nose and the "
                 "aircraft's nose point the same way up or down; then turn {outer} {way_outer} "
                 "to line up the nose, and {inner} {way_inner} for the wings. (Turning {middle} "
                 "the other way works too, with {outer} and {inner} turned the other way.) "
                 "Watch the distance under the gauge.").format(
            middle=names[1], outer=names[0], inner=names[2], way_middle=way(1),
            way_outer=way(0), way_inner=way(2), from_=fmt_number(start[keys[1]], 0))

    def hint(self) -> None:
        self.feedback.value = hint_html(self.hint_text())

    def restart(self) -> None:
        self.app.start_target()
        self.feedback.value = ""


# -- the notebook's questions -----------------------------------------------------------------
def rx_entry_question() -> NumberQuestion:
    """Exercise 1: where Rx(30°) takes the nose, which is a column of the matrix: the
    formula above shows the entries, the question asks which one and why (the sign slip
    and the cosine beside it named)."""
    nose = rot.axis_rotation("x", 30.0) @ np.array([0.0, 0.0, 1.0])
    return NumberQuestion(
        _("A pitch of +30° is Rx(30°). It takes the nose, (0, 0, 1), to a new direction. "
        "What is the y coordinate (up) of the nose afterwards?"),
        answer=float(nose[1]), tol=0.01,
        hint=_("R times (0, 0, 1) is the third column of R. Which entry of that column is y, "
             "and does a positive pitch take the nose up or down?"),
        explain=_("It is -sin 30° = -0.5, row 2 of Rx's third column: a positive pitch takes "
                "the nose down, towards -Y."),
        wrong={0.5: _("Right size, wrong sign: a positive pitch takes the nose down (+Z turns "
                    "towards -Y), so row 2 of the third column is -sin θ."),
               0.866: _("That is cos 30°, the nose's new z (row 3 of the third column). Its y "
                      "is row 2: the sine."),
               -0.866: _("The minus is right, but 0.866 is cos 30°, the nose's new z. Its y "
                       "holds the sine."),
               1.0: _("That is the y of +Y before the turn. The nose (0, 0, 1) goes to the "
                    "third column of Rx."),
               0.0: _("The nose does move: with (0, 0, 1) it ends up as the third column of "
                    "Rx, and its row 2 is not 0.")})


def check_rx(my_rx):
    """The check of a learner's ``my_rx(deg)`` against :func:`~lessons_lib.rotations.
    axis_rotation` about x."""
    return check_function(my_rx, lambda deg: rot.axis_rotation("x", deg),
                          [(0,), (30,), (-45,), (90,), (200,)], name="my_rx",
                          hint=_("Only the Y and Z rows and columns change; the minus sign is "
                               "above the diagonal."))


def _check_app(app) -> GimbalApp:
    if not isinstance(app, GimbalApp):
        raise ValueError(f"app must be a GimbalApp (the lesson's app.copy()), not {short(app)}")
    return app


def _beside(app: GimbalApp) -> GimbalApp | None:
    """The app to lay out beside the question: a small copy is, the lesson's own app (far
    up the page, already shown) is not."""
    return app if app.compact else None


def zxy_lock_question(app: GimbalApp) -> ChoiceQuestion:
    """Exercise 2: which axes line up at the ZXY lock; "Show this case" locks ``app`` (the
    lesson gives a small copy, ``app.copy()``, laid out beside the question) and turns it to
    the top view."""
    app = _check_app(app)
    return ChoiceQuestion(
        _("In order ZXY, whose axes line up at the lock?"),
        {_("roll's and pitch's"): _(
            "those two rings do lie in one plane (the pitch ring folds into the roll ring's), "
            "but their axes stay at right angles: look at the coloured dashed lines."),
         _("roll's and yaw's"): None,
         _("pitch's and yaw's"): _(
             "pitch is on the middle ring, the one at ±90°. Its axis stays at right angles to "
             "both of the others.")},
        answer=_("roll's and yaw's"),
        hint=_("The first letter is the outer ring and the last is the inner one. The middle "
             "ring is the one that goes to ±90°, and its axis is never one of the pair."),
        explain=_("Z (roll) is outside, X (pitch) in the middle, Y (yaw) inside: at pitch ±90° "
                "the roll and yaw axes coincide, while the pitch ring folds into the roll ring."),
        show=lambda: app.show_case(order="ZXY", locked=True, view="top"), beside=_beside(app))


def lost_turn_question(app: GimbalApp) -> ChoiceQuestion:
    """Exercise 3: the turn no ring can make at the YXZ lock (pitch 90°), on ``app`` (a
    small copy beside the question, as exercise 2's)."""
    app = _check_app(app)
    return ChoiceQuestion(
        _("Locked at pitch 90°, which small turn of the aircraft can no ring produce?"),
        {_("a turn about the world's vertical axis"): _(
            "yaw and roll both give that one now (their arrows lie on the vertical line)."),
         _("a turn about the axis through the wing tips"): _("that is the pitch ring's arrow."),
         _("a turn about the axis the fin points along (swinging the nose sideways)"): None},
        answer=_("a turn about the axis the fin points along (swinging the nose sideways)"),
        hint=_("Yaw and roll both turn about the vertical now, pitch turns about the wings. "
             "Which of the three directions is left over? The black dashes mark it."),
        explain=_("The outer and inner rings both give the vertical, pitch gives the wing axis, "
                "and nothing gives the third direction. The gimbal has to leave the lock "
                "(change pitch) before it can swing the nose sideways: a smooth motion the "
                "aircraft could make in the air becomes a detour for the rings."),
        show=lambda: app.show_case(order="YXZ", yaw=0.0, pitch=90.0, roll=0.0), beside=_beside(app))


def snap_pitch_question() -> NumberQuestion:
    """Exercise 5: from which pitch on article 004's code snaps to 90°."""
    return NumberQuestion(
        _("The article's code snaps when test = sin(pitch) / 2 > 0.4995. From what pitch on is "
        "that? (degrees)"),
        answer=float(np.degrees(np.arcsin(0.999))), tol=0.06, unit="°",
        hint=_("Multiply by 2: sin(pitch) > 0.999. Then take the arcsine of 0.999, in degrees."),
        explain=_("asin(0.999) = 87.44°: everything from there to 90° is read as exactly 90°."))
