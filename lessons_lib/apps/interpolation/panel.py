"""Lesson 2's words: the HTML panel beside the figure and the readouts under the aeroplanes.

Every number here comes from the :class:`~.model.BlendState`; nothing is typed by hand.
"""

from __future__ import annotations

import html

import quaternion

from ... import validate as check
from ...i18n import N_, _
from ...interpolation import angle_between
from ..core import GREYS, fmt_number
from ..core.theme import TEXT
from .model import LABELS, METHODS, BlendState, checked_poses, moment
from .view import COLOURS

#: An HTML widget's text sits on 28-px lines (the height of a control); a paragraph reads
#: better closer together. Scoped to this lesson's panel and the preset note above it. The
#: line under the figure (:func:`stage`) is centred with the figure where presenter mode
#: centres that over the controls (left-aligned it began 120 px left of the figure at
#: 1280x720).
STYLE = ("<style>.lesson-info, .lesson-preset-note {line-height: 1.4 !important; "
         "margin: 2px 0 6px 0} .lesson-present.lesson-stacked .lesson-stage-line "
         "{text-align: center}</style>")


def fmt_q(q) -> str:
    """A quaternion as four short numbers, (w, x, y, z), never "−0.00"."""
    if not isinstance(q, quaternion.quaternion):
        raise ValueError(f"q must be a quaternion, got {check.describe(q)}")
    return "(" + ", ".join(fmt_number(v, 2) for v in quaternion.as_float_array(q)) + ")"


@check.first_is(BlendState, "the InterpolationApp's .state")
def readouts(state: BlendState, poses: dict) -> dict[str, str]:
    """Under each aeroplane: how far it is from the start and from the end (the shortest turn
    between the two, not the way it came: :func:`turned` adds that up).
    ``poses``: each method's orientation (a quaternion), keyed by :data:`.model.METHODS`."""
    checked_poses(poses)
    out = {}
    for m in METHODS:
        moved = angle_between(state.q0, poses[m])
        left = angle_between(poses[m], state.q1)
        out[m] = _("{moved}° from start\n{left}° to end").format(moved=f"{moved:.0f}",
                                                              left=f"{left:.0f}")
    return out


#: The label of the line under t: the totals of the whole blend, whatever t shows (issue 41:
#: "angle turned" right under t read as the angle turned so far).
TURNED = N_("whole blend turns")


@check.first_is(BlendState, "the InterpolationApp's .state")
def turned(state: BlendState) -> str:
    """One line, right under t: the angle each method turns over the whole blend, t = 0 to 1,
    and the shortest turn (kept out of :func:`info`, which a narrow page shows below the
    fold)."""
    totals = " &nbsp; ".join(
        f"<b style='color:{COLOURS[m]}'>{_(LABELS[m])} {state.totals[m]:.0f}°</b>"
        for m in METHODS)
    return (f"<div class='lesson-turned' style='{TEXT};line-height:1.4'>"
            + _("<b>{turned}</b> (t = 0 to 1): {totals}<br>shortest turn from start to end: "
                "<b>{shortest}°</b>").format(turned=_(TURNED), totals=totals,
                                             shortest=f"{state.true_angle:.0f}")
            + "</div>")


@check.first_is(BlendState, "the InterpolationApp's .state")
def info(state: BlendState) -> str:
    """The panel: the quaternions and the sign rule, what each toggle does."""
    plane = state.plane
    if plane is None:
        four_d = _("Start and end are one point of the 4D sphere: there is no chord or arc.")
    elif state.nlerp_undefined:
        four_d = _(
            "4D, bottom right: the chord from q₀ to the far copy −q₀ runs through the centre "
            "at t = 0.5, so nlerp is undefined there; its ■ are slerp's, the library's "
            "fallback. slerp's ◆ are evenly spaced: {omega}° of the 4D circle, half the "
            "{turn}° turn.").format(omega=f"{plane.omega:.0f}", turn=f"{state.slerp_angle:.0f}")
    else:
        # "bunched" only where the speed plot shows it: a 10° turn keeps a steady pace
        spacing = (_("as evenly spaced as slerp's ◆ over so small a turn")
                   if state.profiles["nlerp"].kind == "steady"
                   else _("bunched at the ends, spread in the middle"))
        four_d = _(
            "4D, bottom right: nlerp walks the straight chord (○ every 0.1 of t), which dips "
            "to {chord} from the centre, and is pushed out onto the circle (■): {spacing}. "
            "slerp's ◆ are evenly spaced: {omega}° of the 4D circle, half the {turn}° "
            "turn.").format(chord=f"{plane.shortest_chord:.2f}", spacing=spacing,
                            omega=f"{plane.omega:.0f}", turn=f"{state.slerp_angle:.0f}")
    rows = [
        f"q₀ = {html.escape(fmt_q(state.q0))}, &nbsp; q₁ = {html.escape(fmt_q(state.q1))}",
        _("<b>take the long way</b>: {note}").format(note=state.long_way_note()),
        _("<b>wrap Euler angles</b>: {note}").format(note=html.escape(state.wrap_note())),
        f"<span style='color:{GREYS['note']}'>"
        + _("{axis} Sphere: ○ start, ✖ end, beads every 0.1 of t.").format(
            axis=html.escape(state.axis_note())) + "</span>",
        f"<span style='color:{GREYS['note']}'>{html.escape(four_d)}</span>",
    ]
    return (STYLE + f"<div class='lesson-info' style='{TEXT};line-height:1.4'>"
            + "".join(f"<div style='margin:0 0 3px 0'>{r}</div>" for r in rows) + "</div>")


#: The longest the line under the figure may be, in characters of its text, in every
#: language (tests/test_app_interpolation.py): one line under the figure at 1280x720, where
#: the app leaves it :data:`STAGE_PX` (two lines where the figure is narrower).
STAGE_CHARS = 90
#: What the figure leaves under it for that line (CSS px at 100 %): one 14-px line at
#: line height 1.4 and its margin. The whole preset note there (up to 491 characters) took
#: the presenter figure at 1280x720 from 1067 to 913 px.
STAGE_PX = 24


@check.first_is(BlendState, "the InterpolationApp's .state")
def stage(state: BlendState, t: float, poses: dict | None = None) -> str:
    """The line under the figure, for the stage rule (issue 42): what the aeroplanes show at
    ``t``, every number from :func:`.model.moment` (how far Euler lerp and nlerp are off
    slerp's pose, how far slerp has turned of its whole turn), so that moving t, a toggle,
    an angle or the preset changes it. The full note stays beside the preset menu."""
    m = moment(state, t, poses)
    name = {k: f"<b style='color:{COLOURS[k]}'>{html.escape(_(LABELS[k]))}</b>"
            for k in METHODS}
    if m["whole"] < 1e-9 and state.totals["euler"] < 1e-9:
        text = _("Start and end are one orientation: nothing turns.")
    elif m["whole"] < 1e-9:
        text = _("t = {t}: start and end are one orientation, yet {euler} is {gap}° off "
                 "it.").format(t=f"{float(t):.2f}", euler=name["euler"],
                               gap=fmt_number(m["euler"], 0))
    else:
        text = _("t = {t}: {euler} is {egap}° off {slerp}, {nlerp} {ngap}° off; {slerp} has "
                 "turned {turned}° of {whole}°.").format(
                     t=f"{float(t):.2f}", euler=name["euler"], nlerp=name["nlerp"],
                     slerp=name["slerp"], egap=fmt_number(m["euler"], 0),
                     ngap=fmt_number(m["nlerp"], 1), turned=fmt_number(m["turned"], 0),
                     whole=fmt_number(m["whole"], 0))
    return (f"<div class='lesson-stage-line' style='{TEXT};line-height:1.4;"
            f"word-break:keep-all'>{text}</div>")
