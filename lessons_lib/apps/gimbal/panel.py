"""Lesson 1's HTML beside the picture, from a :class:`~.model.GimbalState` only.

Every sentence that states a fact about the picture (which axes coincide, in which sense,
how far apart, which read-back is off and by how much) is filled in from the state.
"""

from __future__ import annotations

import html
import math

from ... import rotations as rot
from ... import validate as check
from ...i18n import N_, _
from ..core import GREYS, PALETTE, fmt_number
from ..core.theme import TEXT
from .model import FLY_LABELS, NEAR_LOCK_DEG, Flight, GimbalState, angle_word
from .view import RING_COLOURS, RING_NAMES

_BADGE = {"free": (PALETTE["green"], N_("free")), "near": (PALETTE["orange"], N_("near lock")),
          "locked": (PALETTE["vermillion"], N_("LOCKED"))}


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
    return f'<b style="color:{RING_COLOURS[n]}">{html.escape(angle_word(name))}</b>'


@check.first_is(GimbalState, "the GimbalApp's .state")
def sense(state) -> str:
    """At the lock: do the outer and inner rings turn the same way about their shared axis?"""
    return "same" if state.axes[0] @ state.axes[2] > 0 else "opposite"


@check.first_is(GimbalState, "the GimbalApp's .state")
def title(state) -> str:
    names, order = state.names, state.order
    words = [angle_word(n) for n in names]
    rings = ", ".join(f"{angle_word(RING_NAMES[n])} {_ring(n, names[n])}" for n in range(3))
    product = " ".join(f"R{a.lower()}" for a in order)
    applied = (f'<span style="{TEXT}">R = {product}: '
               + _("{first} acts on the aircraft first, {last} last").format(
                   first=words[2], last=words[0]) + "</span>")
    return (f'<div class="gimbal-title" style="{TEXT};line-height:1.5">'
            + _("Order {order} (outer → inner): {rings}").format(order=f"<b>{order}</b>",
                                                              rings=rings)
            + f"<br>{applied}</div>")


@check.first_is(GimbalState, "the GimbalApp's .state")
def gauge(state) -> str:
    names = state.names
    words = [angle_word(n) for n in names]
    colour, word = _BADGE[state.badge]
    badge = (f'<span class="gimbal-badge gimbal-badge-{state.badge}" style="background:'
             f"{colour};color:{GREYS['white']};font-weight:700;padding:1px 8px;border-radius:4px\">"
             f"{_(word)}</span>")
    a, b = _ring(0, names[0]), _ring(2, names[2])
    if state.badge == "locked":
        same = sense(state) == "same"
        headline = (_("{a} and {b} turn about <b>the same axis, in the same sense</b>: "
                      "<b>{outer} +10°</b> does what <b>{inner} {sign}10°</b> does") if same
                    else _("{a} and {b} turn about <b>the same axis, in opposite senses</b>: "
                           "<b>{outer} +10°</b> does what <b>{inner} {sign}10°</b> does")
                    ).format(a=a, b=b, outer=words[0], inner=words[2],
                             sign="+" if same else "−")
    else:
        headline = _("the {a} and {b} axes are <b>{angle}°</b> apart (0° is the lock)").format(
            a=a, b=b, angle=fmt_number(state.lock_angle, 1))
    fill = 100.0 * state.gauge
    tick = 100.0 * (1 - NEAR_LOCK_DEG / 90.0)
    title = html.escape(_("how close the lock is"), quote=True)
    bar = (f'<div class="gimbal-gauge" title="{title}" style="position:relative;'
           f'background:{PALETTE["light"]};height:12px;width:320px;max-width:100%;margin:4px 0">'
           f'<div class="gimbal-gauge-fill" style="background:{colour};height:12px;'
           f'width:{fill:.1f}%"></div>'
           f'<div style="position:absolute;left:{tick:.1f}%;top:-3px;height:18px;'
           f'border-left:2px solid {PALETTE["black"]}"></div></div>')
    return (f'<div class="gimbal-lock" style="{TEXT};line-height:1.4">{badge} '
            f"{headline}{bar}"
            f'<span style="{TEXT}">{hardest_turn(state)} '
            + _("Near lock: axes under {near}° apart (the tick, {middle} within {near}° of "
                "±90°); LOCKED: {middle} = ±90°.").format(near=f"{NEAR_LOCK_DEG:.0f}",
                                                         middle=words[1])
            + "</span></div>")


@check.first_is(GimbalState, "the GimbalApp's .state")
def hardest_turn(state) -> str:
    """The lock measure (the smallest singular value of the map from ring rates to the
    aircraft's turn) in plain words: what a 1° turn in the direction the rings serve worst
    costs in ring motion."""
    if state.badge == "locked" or state.lock_measure < 1e-9:
        return _("In one direction the rings cannot turn the aircraft at all.")
    return _("The hardest 1° turn takes <b>{cost}°</b> of ring motion (1.0° far from the "
             "lock, more and more near it).").format(cost=fmt_number(1 / state.lock_measure, 1))


@check.first_is(GimbalState, "the GimbalApp's .state")
def motion(state) -> str:
    names = state.names
    arrows = ", ".join(_ring(n, names[n]) for n in range(3))
    if state.badge == "locked":
        tail = _("Two arrows lie on one line; the <b>black dashes</b> mark the turn that no "
                 "ring can make now: to turn that way, {middle} must leave ±90° first.").format(
                     middle=angle_word(names[1]))
    elif state.badge == "near":
        tail = _("The {a} and {b} arrows are folding onto one line; the black dashes mark the "
                 "turn the rings make worst (it costs {cost}× its size in ring motion).").format(
                     a=_ring(0, names[0]), b=_ring(2, names[2]),
                     cost=fmt_number(1 / state.lock_measure, 1))
    else:
        tail = _("Three directions: together the rings can turn the aircraft any way.")
    return (f'<div style="{TEXT};line-height:1.35">'
            + _("<b>Arrows at the nose</b> ({arrows}): the axis each ring turns the aircraft "
                "about (right-hand rule).").format(arrows=arrows)
            + f" {tail}</div>")


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
    note = (_("the same numbers as the sliders") if same else
            _("<b>a different triple, the same orientation</b>"))
    err = state.article_error
    err_colour = PALETTE["vermillion"] if err > 0.01 else PALETTE["grey"]
    article = article_label(state.order)
    names = [angle_word(n) for n in state.names]
    Article = article[0].upper() + article[1:]
    if state.article_snapped:
        branch = (_("pitch ±90, roll 0, yaw = ±2·atan2(y, x)") if state.order == "YXZ" else
                  f"{names[1]} ±90, {names[2]} 0")
        verdict = _("{article} snapped to its pole branch ({branch}): <b>{err}° off</b>.").format(
            article=Article, branch=branch, err=fmt_number(err, 2))
    elif err > 0.01:
        verdict = _("{article} is <b>{err}° off</b>.").format(article=Article,
                                                            err=fmt_number(err, 2))
    else:
        verdict = _("{article} agrees.").format(article=Article)
    head = "".join(f'<th style="padding:0 5px;text-align:right">{angle_word(a)}</th>'
                   for a in ("yaw", "pitch", "roll"))
    return (
        f'<div style="{TEXT};line-height:1.3">'
        f"<b>R</b> = {' '.join('R' + a.lower() for a in state.order)}"
        f'<table style="font-family:monospace;{TEXT};border-left:2px solid {GREYS["note"]};'
        f'border-right:2px solid {GREYS["note"]};margin:2px 0 4px 0">{rows}</table>'
        f'<b>q</b> (w, x, y, z) = <span style="font-family:monospace">({comps})</span>'
        f'<table style="margin:4px 0;{TEXT}"><tr><td></td>{head}<td></td></tr>'
        + angle_row(_("sliders"), state.angles)
        + angle_row(_("<b>read back from R</b>"), state.readback)
        + angle_row(article, state.article,
                    f'<span style="color:{err_colour}">'
                    + _("off by {err}°").format(err=fmt_number(err, 2)) + "</span>")
        + "</table>" + _("Read back from R: {note}.").format(note=note) + f" {verdict}</div>")


def article_label(order: str) -> str:
    """Article 004's conversion is written for YXZ; for another order the lesson runs the same
    recipe (the pole test on the middle angle's sine) on that order's rings."""
    rot.check_order(order)
    return (_("article 004's code") if order == "YXZ" else
            _("article 004's recipe, adapted to {order}").format(order=order))


@check.first_is(GimbalState, "the GimbalApp's .state")
def target(state, reached: bool) -> str:
    reached = check.flag(reached, "reached")
    if state.target_error is None:
        return ""
    if reached:
        return (f'<div class="gimbal-target" style="{TEXT};color:{PALETTE["green"]};'
                'font-weight:600">&#10003; '
                + _("On the ghost: {err}° away.").format(err=fmt_number(state.target_error, 1))
                + "</div>")
    return (f'<div class="gimbal-target" style="{TEXT}">'
            + _("Purple ghost: <b>{err}°</b> to go.").format(
                err=fmt_number(state.target_error, 1)) + "</div>")


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
    words = [angle_word(n) for n in names]
    ring = [f"{angle_word(RING_NAMES[n])} ({_ring(n, names[n])})" for n in range(3)]
    moved = turn.ring_changes
    text = _("Turned <b>{angle} about its {axis}</b>: the rings went {changes} (the sliders "
             "show whole degrees). ").format(
        angle=_deg(turn.angle), axis=_(FLY_LABELS[turn.axis]),
        changes=", ".join(f"{words[n]} {_deg(moved[n])}" for n in range(3)))
    swing = max(abs(moved[0]), abs(moved[2])) / max(abs(turn.angle), 1e-9)
    if swing >= 2.0:
        text += _("The {a} and {b} rings swung <b>{swing}×</b> as far as the aircraft "
                  "turned. ").format(a=ring[0], b=ring[2], swing=fmt_number(swing, 1))
    if math.isinf(turn.rates[0]):
        text += _("Now no rate of the {a} and {b} rings turns it further this way: that turn "
                  "has a part along the lost direction (the black dashes), so the rings must "
                  "jump.").format(a=ring[0], b=ring[2])
    else:
        text += _("Each degree more now costs: {costs}.").format(costs=", ".join(
            f"{ring[n]} <b>{fmt_number(turn.rates[n], 1, sign=True)}°</b>" for n in range(3)))
        spin = max(abs(turn.rates[0]), abs(turn.rates[2]))
        if spin >= 2.0:
            text += " " + _("Near the lock the {a} and {b} rings spin up to <b>{spin}×</b> as "
                            "far as the aircraft turns.").format(a=ring[0], b=ring[2],
                                                                 spin=fmt_number(spin, 1))
    if turn.locked:
        same = sense(state) == "same"
        pair = f"{words[0]} {'+' if same else '−'} {words[2]}"
        text += "<br>" + _("<b>At the lock the rings' angles are not unique</b>: the "
                           "orientation fixes only {pair}, and every split of its change "
                           "shows the same aircraft. The split nearest the old angles is "
                           "taken, the change shared evenly (the least ring motion, neither "
                           "ring favoured).").format(pair=pair)
    return f'<div class="gimbal-fly" style="{TEXT};line-height:1.35">{text}</div>'
