"""Lesson 2's exercises, made here so that no answer is in the notebook's visible code.

Each function returns the question (or, for :func:`check_nlerp`, the check of the learner's
own ``my_nlerp``) the notebook shows in one short cell.
"""

from __future__ import annotations

import numpy as np
import quaternion

from ... import validate as check
from ...i18n import N_, _
from ...interpolation import angle_between, nlerp
from ...rotations import euler_to_quaternion
from ..core import ChoiceQuestion, NumberQuestion, check_function
from ..core.controls import short
from .app import InterpolationApp
from .model import LABELS, METHODS, BlendState


def lerp_turn_question() -> NumberQuestion:
    """Exercise 1: how far plain Euler lerp turns from yaw −150° to 120°."""
    return NumberQuestion(
        _("Yaw goes from −150° to 120° by plain Euler lerp. How many degrees does the "
          "aeroplane turn?"),
        answer=120.0 - (-150.0), tol=1, unit=_("degrees"),
        hint=_("Plain lerp walks the yaw number from −150 up to 120, one degree at a time. "
               "How many steps is that?"),
        explain=_("The lerp walks every number from −150 up to 120: 270°, instead of the 90° "
                  "the short way round (which is what wrapped Euler angles turn)."),
        wrong={90: _("90° is the short way round, what wrapped Euler angles (and slerp) "
                     "turn. Plain lerp does not wrap."),
               -270: _("The size is right; the sign slipped. An angle turned says how far, "
                       "not which way, so it has no sign.")})


def nlerp_sign_question() -> ChoiceQuestion:
    """Exercise 2 as a widget (Voila hides the code cell): which pairs the first my_nlerp
    gets wrong."""
    right = _("the pairs with q₀·q₁ < 0: it heads for the far copy of q₁")
    return ChoiceQuestion(
        _("This first version gets some pairs wrong. Which ones?"),
        {right: None,
         _("the wide turns: a straight line cannot reach q₁"):
             _("the line does reach q₁: at t = 1 it is exactly q₁."),
         _("none: dividing by the length is all nlerp needs"):
             _("the length is right; the trouble is which copy of q₁ it heads for.")},
        answer=right,
        hint=_("Yaw −175° and 175° are 10° apart. Which way round does this go?"),
        explain=_("With q₀·q₁ < 0 it blends the long way round: flip q₁ first."))


#: Exercise 2's pairs of keyframes (yaw, pitch, roll), two of them with q₀·q₁ < 0.
NLERP_PAIRS = (((0, 0, 0), (90, 0, 0)), ((30, -20, 10), (150, 70, 120)),
               ((-175, 0, 0), (175, 0, 0)), ((0, 0, 0), (300, 0, 0)))


def check_nlerp(my_nlerp):
    """Exercise 2: compare the learner's ``my_nlerp(q0, q1, t)`` with the library's nlerp on
    :data:`NLERP_PAIRS` at t = 0.25, 0.5 and 0.9."""
    pairs = [(euler_to_quaternion(*a), euler_to_quaternion(*b)) for a, b in NLERP_PAIRS]
    return check_function(
        lambda q0, q1, t: quaternion.as_float_array(my_nlerp(q0, q1, t)),
        lambda q0, q1, t: quaternion.as_float_array(nlerp(q0, q1, t)),
        [(q0, q1, t) for q0, q1 in pairs for t in (0.25, 0.5, 0.9)],
        hint=_("Some pairs have a negative dot product q₀·q₁. Then −q₁ is the nearer copy of "
               "the same rotation: blend towards it instead."),
        name="my_nlerp", widget=nlerp_sign_question(), source=my_nlerp)


#: How near, in degrees, a blend's two angles must be to count as equal: the planes' readouts
#: show whole degrees.
EVEN_DEG = 0.5
#: Exercise 3's options: the methods each names as exactly halfway at t = 0.5.
#: The keys are English (translated where shown).
HALFWAY_OPTIONS = {N_("only slerp"): ("slerp",), N_("slerp and nlerp"): ("nlerp", "slerp"),
                   N_("all three"): METHODS, N_("only Euler lerp"): ("euler",)}


@check.first_is(BlendState, "lesson 2's state")
def even_methods(state: BlendState, t: float) -> tuple[str, ...]:
    """The methods whose pose at ``t`` (0 to 1) has turned a fraction ``t`` of their distance
    from the start to the end, within :data:`EVEN_DEG` (at t = 0.5: as far from one as the
    other)."""
    t = check.probability(t, "t")
    out = []
    for m in METHODS:
        pose = state.pose(m, t)
        moved, left = angle_between(state.q0, pose), angle_between(pose, state.q1)
        if abs((1 - t) * moved - t * left) <= EVEN_DEG * max(t, 1 - t):
            out.append(m)
    return tuple(out)


def _halfway_reason(option: str, state: BlendState, even: tuple[str, ...]) -> str | None:
    """Why ``option`` is wrong for this pair (None when it is right), from the poses at 0.5."""
    named = HALFWAY_OPTIONS[option]
    missed = [m for m in METHODS if m in even and m not in named]
    if missed:
        return _("look at {method}'s two angles at t = 0.5 as well.").format(
            method=_(LABELS[missed[0]]))
    extra = next((m for m in named if m not in even), None)
    if extra is None:
        return None
    pose = state.pose(extra, 0.5)
    more = angle_between(state.q0, pose) > angle_between(pose, state.q1)
    if more:
        return _("at t = 0.5 {method}'s two angles differ: it has turned more than it has "
                 "left.").format(method=_(LABELS[extra]))
    return _("at t = 0.5 {method}'s two angles differ: it has turned less than it has "
             "left.").format(method=_(LABELS[extra]))


def halfway_question(app: InterpolationApp) -> ChoiceQuestion:
    """Exercise 3: which methods are halfway at t = 0.5, on ``app`` (the lesson gives a small
    copy of its app, ``app.copy()``: the three planes, laid out beside the question); "Show
    this case" sets its t to 0.5. The answer, the feedback and the explanation are computed
    from the copy's own pair, whichever it is."""
    if not isinstance(app, InterpolationApp):
        raise ValueError(f"app must be lesson 2's app (a small copy of it, app.copy()), not "
                         f"{short(app)}")
    state = app.state
    even = even_methods(state, 0.5)
    answer = next((o for o, named in HALFWAY_OPTIONS.items() if named == even), None)
    if answer is None:
        raise ValueError(f"on this pair {', '.join(LABELS[m] for m in even) or 'no method'} "
                         f"is halfway at t = 0.5, which no option names: pick another pair")
    explain = _("nlerp's uneven pace is symmetric, so it catches up exactly at t = 0.5.")
    if "euler" in even:
        explain += " " + _("On this pair Euler lerp's blended angles happen to land halfway "
                           "too.")
    if even_methods(state, 0.25) == ("slerp",):
        explain += " " + _("At t = 0.25 only slerp is a quarter of the way.")
    return ChoiceQuestion(
        _("At t = 0.5, which methods are exactly halfway, in angle, between start and end?"),
        {_(o): _halfway_reason(o, state, even) for o in HALFWAY_OPTIONS},
        answer=_(answer),
        hint=_("The straight 4D line is symmetric: its middle point, pushed onto the sphere, "
               "is the middle of the arc. Check the angles under the three planes."),
        explain=explain, show=lambda: app.set(t=0.5),
        beside=app if app.compact else None)


def short_way_question() -> ChoiceQuestion:
    """Exercise 4: which copy of q₁ slerp should head for when q₀ · q₁ < 0."""
    right = "−q₁"
    return ChoiceQuestion(
        _("Two keyframes have q₀ · q₁ = −0.4. To make slerp take the short way, blend from q₀ "
          "towards …"),
        {"q₁": _("with q₀·q₁ < 0 the 4D angle to q₁ is over 90°: that arc is the long way."),
         right: None,
         _("either: q₁ and −q₁ are the same rotation, so the path is the same"):
             _("the end orientation is the same, the path is not: one arc is 360° minus the "
               "other.")},
        answer=right,
        hint=_("A negative dot product means the 4D angle between q₀ and q₁ is more than "
               "90°."),
        explain=_("−q₁ · q₀ = +0.4 > 0: the arc to −q₁ is the short one. Same end "
                  "orientation, different path."))


def nlerp_pace_question() -> NumberQuestion:
    """Exercise 5: nlerp's fastest over slowest speed on a half turn, 1 / cos²(θ/4)."""
    quarter = np.radians(180 / 4)
    return NumberQuestion(
        _("One nlerp blends a 180° turn (a half turn). What is its fastest speed divided by "
          "its slowest?"),
        answer=float(1 / np.cos(quarter) ** 2), tol=0.02,
        hint=_("At the middle a point moving at speed v sweeps v / cos(Ω/2); at the ends, "
               "v·cos(Ω/2). Divide the two, with Ω/2 a quarter of the turn: 45°."),
        explain=_("1 / cos²(45°) = 1 / (1/2) = 2: twice as fast in the middle as at the ends. "
                  "For a turn of θ the ratio is 1 / cos²(θ/4)."),
        wrong={float(1 / np.cos(quarter)): _("That is 1 / cos(45°), one of the two factors: "
                                             "the middle is faster by one and the ends are "
                                             "slower by the other."),
               float(np.cos(quarter) ** 2): _("That is the slowest divided by the fastest: "
                                              "turn it the other way up."),
               1.0: _("1 would be a steady pace, slerp's. nlerp's is not.")})
