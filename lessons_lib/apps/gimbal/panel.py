"""Lesson 1's HTML beside the picture, from a :class:`~.model.GimbalState` only.

Every sentence that states a fact about the picture (which axes coincide, in which sense,
how far apart, which read-back is off and by how much) is filled in from the state.
"""

from __future__ import annotations

import html
import math

from ... import rotations as rot
from ... import validate as check
from ..core import GREYS, PALETTE, fmt_number
from .model import FLY_LABELS, NEAR_LOCK_DEG, Flight, GimbalState
from .view import RING_COLOURS, RING_NAMES

_BADGE = {"free": (PALETTE["green"], "free"), "near": (PALETTE["orange"], "near lock"),
          "locked": (PALETTE["vermillion"], "LOCKED")}


def order_label(order: str, names: tuple[str, str, str]) -> str:
    """The order menu's text: the rings outer to inner, which is the order the turns are
    applied from last to first."""
    rot.check_order(order)
    names = check.items(names, "names", "three ring names")
    if len(names) != 3 or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be three texts (outer, middle, inner ring), got "
                         f"{check.describe(names)}")
    return f"{order}: {names[0]} → {names[1]} → {names[2]}"


def _ring(n: int, name: str) -> str:
    return f'<b style="color:{RING_COLOURS[n]}">{html.escape(name)}</b>'


@check.first_is(GimbalState, "the GimbalApp's .state")
def sense(state) -> str:
    """At the lock: do the outer and inner rings turn the same way about their shared axis?"""
    return "same" if state.axes[0] @ state.axes[2] > 0 else "opposite"


@check.first_is(GimbalState, "the GimbalApp's .state")
def title(state) -> str:
    names, order = state.names, state.order
    rings = ", ".join(f"{RING_NAMES[n]} {_ring(n, names[n])}" for n in range(3))
    product = " ".join(f"R{a.lower()}" for a in order)
    applied = (f'<span style="font-size:14px">R = {product}: {names[2]} acts on the aircraft '
               f"first, {names[0]} last</span>")
    return (f'<div class="gimbal-title" style="font-size:14px;line-height:1.5">Order '
            f"<b>{order}</b> (outer → inner): {rings}<br>{applied}</div>")


@check.first_is(GimbalState, "the GimbalApp's .state")
def gauge(state) -> str:
    names = state.names
    colour, word = _BADGE[state.badge]
    badge = (f'<span class="gimbal-badge gimbal-badge-{state.badge}" style="background:'
             f"{colour};color:{GREYS['white']};font-weight:700;padding:1px 8px;border-radius:4px\">"
             f"{word}</span>")
    a, b = _ring(0, names[0]), _ring(2, names[2])
    if state.badge == "locked":
        same = sense(state) == "same"
        senses = "the same sense" if same else "opposite senses"
        headline = (f"{a} and {b} turn about <b>the same axis, in {senses}</b>: "
                    f"<b>{names[0]} +10°</b> does what <b>{names[2]} {'+' if same else '−'}10°"
                    "</b> does")
    else:
        headline = (f"the {a} and {b} axes are <b>{fmt_number(state.lock_angle, 1)}°</b> "
                    "apart (0° is the lock)")
    fill = 100.0 * state.gauge
    tick = 100.0 * (1 - NEAR_LOCK_DEG / 90.0)
    bar = (f'<div class="gimbal-gauge" title="how close the lock is" style="position:relative;'
           f'background:{PALETTE["light"]};height:12px;width:320px;max-width:100%;margin:4px 0">'
           f'<div class="gimbal-gauge-fill" style="background:{colour};height:12px;'
           f'width:{fill:.1f}%"></div>'
           f'<div style="position:absolute;left:{tick:.1f}%;top:-3px;height:18px;'
           f'border-left:2px solid {PALETTE["black"]}"></div></div>')
    return (f'<div class="gimbal-lock" style="font-size:14px;line-height:1.4">{badge} '
            f"{headline}{bar}"
            f'<span style="font-size:14px">{hardest_turn(state)} Near lock: axes '
            f"under {NEAR_LOCK_DEG:.0f}° apart (the tick, {names[1]} within "
            f"{NEAR_LOCK_DEG:.0f}° of ±90°); LOCKED: {names[1]} = ±90°.</span></div>")


@check.first_is(GimbalState, "the GimbalApp's .state")
def hardest_turn(state) -> str:
    """The lock measure (the smallest singular value of the map from ring rates to the
    aircraft's turn) in plain words: what a 1° turn in the direction the rings serve worst
    costs in ring motion."""
    if state.badge == "locked" or state.lock_measure < 1e-9:
        return "In one direction the rings cannot turn the aircraft at all."
    return (f"The hardest 1° turn takes <b>{fmt_number(1 / state.lock_measure, 1)}°</b> of ring "
            "motion (1.0° far from the lock, more and more near it).")


@check.first_is(GimbalState, "the GimbalApp's .state")
def motion(state) -> str:
    names = state.names
    arrows = ", ".join(_ring(n, names[n]) for n in range(3))
    if state.badge == "locked":
        tail = (f"Two arrows lie on one line; the <b>black dashes</b> mark the turn that no "
                f"ring can make now: to turn that way, {names[1]} must leave ±90° first.")
    elif state.badge == "near":
        tail = (f"The {_ring(0, names[0])} and {_ring(2, names[2])} arrows are folding onto "
                f"one line; the black dashes mark the turn the rings make worst (it costs "
                f"{fmt_number(1 / state.lock_measure, 1)}× its size in ring motion).")
    else:
        tail = "Three directions: together the rings can turn the aircraft any way."
    return (f'<div style="font-size:14px;line-height:1.35"><b>Arrows at the nose</b> '
            f"({arrows}): the axis each ring turns the aircraft about (right-hand rule). "
            f"{tail}</div>")


@check.first_is(GimbalState, "the GimbalApp's .state")
def numbers(state) -> str:
    R, q = state.matrix, state.quaternion
    cell = 'style="padding:0 6px;text-align:right"'
    rows = "".join("<tr>" + "".join(f"<td {cell}>{fmt_number(x, 3, sign=True)}</td>"
                                    for x in row) + "</tr>" for row in R)
    comps = ", ".join(fmt_number(c, 3, sign=True) for c in (q.w, q.x, q.y, q.z))

    def angle_row(label, t, extra=""):
        cells = "".join(f'<td style="padding:0 5px;text-align:right">{fmt_number(v, 1)}°</td>'
                        for v in t)
        return f"<tr><td>{label}</td>{cells}<td>{extra}</td></tr>"

    same = all(abs(a - b) < 0.05 for a, b in zip(state.readback, state.angles, strict=True))
    note = ("the same numbers as the sliders" if same else
            "<b>a different triple, the same orientation</b>")
    err = state.article_error
    err_colour = PALETTE["vermillion"] if err > 0.01 else PALETTE["grey"]
    article = article_label(state.order)
    names = state.names
    if state.article_snapped:
        branch = ("pitch ±90, roll 0, yaw = ±2·atan2(y, x)" if state.order == "YXZ" else
                  f"{names[1]} ±90, {names[2]} 0")
        verdict = (f"{article[0].upper()}{article[1:]} snapped to its pole branch ({branch}): "
                   f"<b>{fmt_number(err, 2)}° off</b>.")
    elif err > 0.01:
        verdict = f"{article[0].upper()}{article[1:]} is <b>{fmt_number(err, 2)}° off</b>."
    else:
        verdict = f"{article[0].upper()}{article[1:]} agrees."
    head = "".join(f'<th style="padding:0 5px;text-align:right">{a}</th>'
                   for a in ("yaw", "pitch", "roll"))
    return (
        '<div style="font-size:14px;line-height:1.3">'
        f"<b>R</b> = {' '.join('R' + a.lower() for a in state.order)}"
        f'<table style="font-family:monospace;font-size:14px;border-left:2px solid {GREYS["note"]};'
        f'border-right:2px solid {GREYS["note"]};margin:2px 0 4px 0">{rows}</table>'
        f'<b>q</b> (w, x, y, z) = <span style="font-family:monospace">({comps})</span>'
        f'<table style="margin:4px 0;font-size:14px"><tr><td></td>{head}<td></td></tr>'
        + angle_row("sliders", state.angles)
        + angle_row("<b>read back from R</b>", state.readback)
        + angle_row(article, state.article,
                    f'<span style="color:{err_colour}">off by {fmt_number(err, 2)}°</span>')
        + f"</table>Read back from R: {note}. {verdict}</div>")


def article_label(order: str) -> str:
    """Article 004's conversion is written for YXZ; for another order the lesson runs the same
    recipe (the pole test on the middle angle's sine) on that order's rings."""
    rot.check_order(order)
    return "article 004's code" if order == "YXZ" else f"article 004's recipe, adapted to {order}"


@check.first_is(GimbalState, "the GimbalApp's .state")
def target(state, reached: bool) -> str:
    reached = check.flag(reached, "reached")
    if state.target_error is None:
        return ""
    if reached:
        return (f'<div class="gimbal-target" style="font-size:14px;color:{PALETTE["green"]};'
                f'font-weight:600">&#10003; On the ghost: {fmt_number(state.target_error, 1)}° '
                "away.</div>")
    return (f'<div class="gimbal-target" style="font-size:14px">Purple ghost: '
            f"<b>{fmt_number(state.target_error, 1)}°</b> to go.</div>")


def _deg(x: float) -> str:
    return f"{fmt_number(x, 1, sign=True)}°"


@check.first_is(GimbalState, "the GimbalApp's .state")
def flight(state, turn) -> str:
    """The last body turn (a :class:`.model.Flight`, or None): how far the aircraft turned
    about which of its axes and how far each ring went; what one degree more costs each ring
    now (:func:`lessons_lib.flight.ring_rates`); near the lock how much faster the outer and
    inner rings spin than the aircraft turns; at it, that the rings' angles are a choice and
    which one was made."""
    if turn is None:
        return ""
    check.instance(turn, "turn", Flight, "the app's last body turn, or None")
    names = state.names
    ring = [f"{RING_NAMES[n]} ({_ring(n, names[n])})" for n in range(3)]
    moved = turn.ring_changes
    text = (f"Turned <b>{_deg(turn.angle)} about its {FLY_LABELS[turn.axis]}</b>: the rings "
            "went " + ", ".join(f"{names[n]} {_deg(moved[n])}" for n in range(3))
            + " (the sliders show whole degrees). ")
    swing = max(abs(moved[0]), abs(moved[2])) / max(abs(turn.angle), 1e-9)
    if swing >= 2.0:
        text += (f"The {ring[0]} and {ring[2]} rings swung <b>{fmt_number(swing, 1)}×</b> as "
                 "far as the aircraft turned. ")
    if math.isinf(turn.rates[0]):
        text += (f"Now no rate of the {ring[0]} and {ring[2]} rings turns it further this "
                 f"way: that turn has a part along the lost direction (the black dashes), "
                 f"so the rings must jump.")
    else:
        text += ("Each degree more now costs: " + ", ".join(
            f"{ring[n]} <b>{fmt_number(turn.rates[n], 1, sign=True)}°</b>" for n in range(3))
            + ".")
        spin = max(abs(turn.rates[0]), abs(turn.rates[2]))
        if spin >= 2.0:
            text += (f" Near the lock the {ring[0]} and {ring[2]} rings spin up to "
                     f"<b>{fmt_number(spin, 1)}×</b> as far as the aircraft turns.")
    if turn.locked:
        same = sense(state) == "same"
        pair = f"{names[0]} {'+' if same else '−'} {names[2]}"
        text += (f"<br><b>At the lock the rings' angles are not unique</b>: the orientation "
                 f"fixes only {pair}, and every split of its change shows the same aircraft. "
                 "The split nearest the old angles is taken, the change shared evenly "
                 "(the least ring motion, neither ring favoured).")
    return f'<div class="gimbal-fly" style="font-size:14px;line-height:1.35">{text}</div>'
