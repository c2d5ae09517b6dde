"""Lesson 3's HTML: the colour key, the live readout under the figure, the numbers beside it."""

from __future__ import annotations

import html
import math

from ... import validate as check
from ...i18n import _
from ...sweep import NO_BEST
from ..core import GREYS, PALETTE, fmt_number
from ..core.theme import TEXT
from .model import CONTROLLERS, SETTLE_TOLERANCE, SWEEP_MODES, VIEWS, SteeringState
from .view import (
    COLOURS,
    CONTROLLER_COLOURS,
    MODE_COLOURS,
    OFF_ROAD_COLOUR,
    ROAD_HALF_WIDTH,
    TERM_COLOURS,
)

_SMALL = f"{TEXT};line-height:1.4"


def _f(x: float, digits: int) -> str:
    """A signed readout (+1.5, −0.20, never −0.0)."""
    return fmt_number(x, digits, sign=True)


def _swatch(colour: str, kind: str) -> str:
    if kind == "dot":
        return (f"<span style='display:inline-block;width:11px;height:11px;border-radius:50%;"
                f"background:{colour};border:1px solid {PALETTE['black']};"
                "vertical-align:middle'></span>")
    if kind == "dashed":
        return (f"<span style='display:inline-block;width:18px;height:0;border-top:3px dashed "
                f"{colour};vertical-align:middle'></span>")
    if kind == "arrow":
        return f"<span style='color:{colour};font-weight:900'>&#10230;</span>"
    height = "4px" if kind == "thick" else "3px"
    border = f"border:1px solid {PALETTE['black']};" if colour == PALETTE["yellow"] else ""
    return (f"<span style='display:inline-block;width:18px;height:{height};{border}"
            f"background:{colour};vertical-align:middle'></span>")


def _key(*groups) -> str:
    """Swatches and labels, one line per group (the maps' colours, then the lower plot's);
    an item of kind "text" is words alone."""
    lines = [" &nbsp;".join(label if kind == "text" else     # words alone wrap
                            f"<span style='white-space:nowrap'>{_swatch(colour, kind)} "
                            f"{label}</span>" for colour, kind, label in items)
             for items in groups]
    return f"<div class='steering-key' style='{_SMALL}'>" + "<br>".join(lines) + "</div>"


def colour_key(view: str = "Terms", labels: dict[str, str] | None = None) -> str:
    """The legend: the maps' colours on one line, the lower plot's (for ``view``) on the next.
    ``labels``: controller -> what its run ran (:attr:`.model.Run.label`), for the phase
    portrait."""
    check.option(view, "view", VIEWS)
    _labels(labels, none_ok=True)
    items = [(COLOURS["progress"], "dot", _("progress")),
             (COLOURS["target"], "dot", _("look-ahead target")),
             (COLOURS["to_target"], "line", _("car &rarr; target")),
             (COLOURS["tangent"], "arrow", _("tangent at target")),
             (COLOURS["offset"], "arrow", _("crosstrack offset")),
             (COLOURS["path"], "line", _("car's path"))]
    if view == "Speed sweep":
        lower = [(MODE_COLOURS[m], "line", _(m.lower())) for m in SWEEP_MODES]
        lower += [(PALETTE["black"], "line", _("current speed (dashed)")),
                  ("", "text", _("shading: the best one on the road at that speed;")),
                  (OFF_ROAD_COLOUR, "thick", _("every one off the road"))]
    elif view == "Phase portrait":
        labels = labels or {}
        lower = [(CONTROLLER_COLOURS[c], "line", html.escape(labels.get(c, _(c))))
                 for c in CONTROLLERS]
        lower += [(PALETTE["black"], "dot", _("now")),
                  ("", "text", _("+ is right on both axes: right of the line, pointing right "
                                 "of the road"))]
    else:
        lower = [(TERM_COLOURS["position"], "dashed", _("Position")),
                 (TERM_COLOURS["heading"], "line", _("Heading")),
                 (TERM_COLOURS["crosstrack"], "line", _("Crosstrack")),
                 (PALETTE["grey"], "thick", _("steering (+ right)"))]
    return _key(items, lower)


def _labels(labels, none_ok: bool = False) -> None:
    """``labels`` checked as a dict of texts (None too with ``none_ok``)."""
    if labels is None and none_ok:
        return
    if not isinstance(labels, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                               for k, v in labels.items()):
        raise ValueError(f"labels must map names to texts, got {check.describe(labels)}")


def _settle(value: float) -> str:
    return _("never") if math.isnan(value) else f"{value:.1f} s"


@check.first_is(SteeringState, "the SteeringApp's .state")
def readout(state: SteeringState, time: float | None) -> str:
    """The line under the figure: every term at the current moment."""
    run = state.run
    tr = run.trajectory
    k = state.step(time)
    wheel = tr.wheel_angle[k]
    wheels = (_("(front wheels {angle:.1f}° left)") if wheel > 0 else
              _("(front wheels {angle:.1f}° right)")).format(angle=abs(wheel))
    head = (f"<b>t = {tr.t[k]:.2f} s</b>"
            + (" " + _("(the road ended)") if tr.ended and k == len(tr) - 1 else ""))
    if state.controller != "Article":
        return (f"<div style='{_SMALL}'>{head} &middot; "
                + _("{controller}: crosstrack <b>{cte} m</b> &middot; heading error {err}° "
                    "&middot; steering <b>{steering}</b> {wheels}").format(
                        controller=_(state.controller), cte=_f(tr.crosstrack_error[k], 2),
                        err=_f(run.heading_error[k], 1), steering=_f(tr.steering[k], 2),
                        wheels=wheels)
                + "</div>")
    p = state.params
    on = {"position": p.use_position, "heading": p.use_heading,
          "crosstrack": p.use_crosstrack}

    def cell(key, text):
        style = "" if on[key] else f"color:{GREYS['off']};text-decoration:line-through"
        return f"<span style='{style}'>{text}</span>"

    c = run.contributions
    return (f"<div style='{_SMALL}'>{head} &middot; "
            + cell("position", _("Position Delta <b>{value}°</b>").format(
                value=_f(tr.position_delta[k], 1)))
            + " &middot; "
            + cell("heading", _("Heading Delta <b>{value}°</b>").format(
                value=_f(tr.heading_delta[k], 1)))
            + " &middot; " + _("weight {w:.2f}").format(w=tr.heading_weight[k]) + " &middot; "
            + cell("crosstrack", _("Crosstrack <b>{value} m</b>").format(
                value=_f(tr.crosstrack_error[k], 2)))
            + "<br>" + _("look-ahead {look:.1f} m &middot; yaw command {yaw}° &middot; terms "
                         "{p} {h} {c} &rarr; steering <b>{steering}</b> {wheels}").format(
                look=tr.look_ahead[k], yaw=_f(tr.yaw_command[k], 1), p=_f(c['position'][k], 2),
                h=_f(c['heading'][k], 2), c=_f(c['crosstrack'][k], 2),
                steering=_f(tr.steering[k], 2), wheels=wheels)
            + "</div>")


@check.first_is(SteeringState, "the SteeringApp's .state")
def slope_crosstrack(state: SteeringState, time: float | None) -> str:
    """On the ramp, both crosstracks at the current moment, for the readout under the
    figure when the slope view is too narrow to give them (at 150 % zoom, in presenter
    mode: :attr:`.view.SteeringView.slope_crosstrack_shown`); off the ramp, empty."""
    run = state.run
    if run.world_up_crosstrack is None:
        return ""
    k = state.step(time)
    return (f"<div style='{_SMALL}'>"
            + _("crosstrack with world up (red) <b>{world} m</b>, with projected up (yellow) "
                "<b>{projected} m</b>").format(world=_f(run.world_up_crosstrack[k], 2),
                                              projected=_f(run.trajectory.crosstrack_error[k], 2))
            + "</div>")


@check.first_is(SteeringState, "the SteeringApp's .state")
def numbers(state: SteeringState) -> str:
    """The metrics of the run (of every controller computed, side by side)."""
    runs = state.runs()
    table = {c: r.metrics for c, r in runs.items()}
    names = list(table)
    head = "".join(f"<th style='text-align:right;padding-left:8px'>"
                   f"{html.escape(runs[n].label)}</th>"
                   for n in names) if len(names) > 1 else "<th></th>"
    rows = [(_("RMS crosstrack"), "rms_crosstrack", lambda v: f"{v:.2f} m"),
            (_("max crosstrack"), "max_crosstrack", lambda v: f"{v:.2f} m"),
            (_("steering movement"), "steering_movement", lambda v: f"{v:.1f}"),
            (_("settled (&lt; {tol} m) after").format(tol=SETTLE_TOLERANCE), "settle_time",
             _settle)]
    body = ""
    for label, key, fmt in rows:
        cells = "".join(f"<td style='text-align:right;padding-left:8px'><b>{fmt(table[n][key])}"
                        "</b></td>" for n in names)
        body += f"<tr><td>{label}</td>{cells}</tr>"
    tr = state.trajectory
    end = " " + _("(the road ended: the car's nose reached it)") if tr.ended else ""
    length = _("run length")
    body += f"<tr><td>{length}</td><td colspan={len(names)}>{tr.t[-1]:.1f} s{end}</td></tr>"
    return f"<table style='{_SMALL}'><tr><th></th>{head}</tr>{body}</table>"


@check.first_is(SteeringState, "the SteeringApp's .state")
def disabled_note(state: SteeringState, labels: dict[str, str]) -> str:
    """One line per greyed-out control: why it has no effect now."""
    _labels(labels)
    if not state.disabled:
        return ""
    seen = {}
    for name, why in state.disabled.items():
        seen.setdefault(why, []).append(labels.get(name, name))
    lines = [_("{names} greyed out: {why}.").format(
                 names=f"<i>{html.escape(', '.join(_(n) for n in names))}</i>",
                 why=html.escape(why))
             for why, names in seen.items()]
    return f"<div style='{_SMALL};color:{GREYS['note']}'>" + "<br>".join(lines) + "</div>"


@check.first_is(SteeringState, "the SteeringApp's .state")
def sweep_caption(state: SteeringState) -> str:
    """What the sweep shows at the current speed, in numbers: no mode is named best where
    every one leaves the road."""
    sw = state.sweep
    if sw is None:
        return ""
    i = sw.index(state.speed)
    off = sw.off_road[:, i]
    parts = ", ".join(f"{_(m.lower())} {sw.rms[j, i]:.2f} m"
                      + (" " + _("(off the road)") if off[j] else "")
                      for j, m in enumerate(SWEEP_MODES))
    b = sw.best("rms")[i]
    verdict = (_("every look-ahead leaves the road, so none is best") if b == NO_BEST
               else _("best on the road: <b>{mode}</b>").format(mode=_(SWEEP_MODES[b].lower())))
    regions = "; ".join(f"{_(m.lower())} {lo:.0f}-{hi:.0f} m/s" for m, lo, hi in sw.regions())
    note = (" " + _("(the sweep drives the article's steering; switch the controller back to "
                    "compare)") if state.controller != "Article" else "")
    return (f"<div style='{_SMALL}'>"
            + _("At {speed:g} m/s, RMS: {parts}; {verdict}. Lowest RMS on the road by speed: "
                "{regions} (a car more than {half:g} m off the line has left the road). Fixed "
                "long and short are {long:g} m and {short:g} m.").format(
                    speed=state.speed, parts=parts, verdict=verdict, regions=regions,
                    half=ROAD_HALF_WIDTH, long=sw.look_ahead[0], short=sw.look_ahead[1])
            + f"{note}</div>")
