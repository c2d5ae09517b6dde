"""Lesson 4's HTML beside the figures, every number read from the model's state."""

from __future__ import annotations

import html

from ... import validate as check
from ...i18n import N_, _
from ..core import GREYS, PALETTE, fmt_number
from ..core.theme import TEXT
from .model import FunnelState, GridState
from .view import (
    GOAL_COLOUR,
    LEFT_COLOUR,
    RIGHT_COLOUR,
    SHORTEST_COLOUR,
    START_COLOUR,
    TESTED_COLOUR,
    WARN_COLOUR,
    ZIGZAG_COLOUR,
)

_BOX = f'<div style="{TEXT};line-height:1.4;max-width:400px">{{}}</div>'


def _m(x: float) -> str:
    return f"{fmt_number(x, 2)} m"


@check.first_is(FunnelState, "the FunnelApp's .state")
def step_html(state, b: int) -> str:
    """Which beat this is, what it shows in one or two lines (the points named in the
    colours the map draws them in), and the long explanation behind "why?"."""
    if not state.ok:
        return _BOX.format(f'<b style="color:{PALETTE["vermillion"]}">' + _("No path.")
                           + "</b> " + html.escape(state.error))
    b = _beat(state, b)
    beat = state.beats[b]
    s = state.steps[beat.step]
    n = state.n_beats - 1
    goal = len(state.used_portals)
    where = (_("start") if s.portal < 0 else _("goal") if s.portal >= goal else
             _("portal {k}").format(k=s.portal))
    colour = TESTED_COLOUR if 0 <= s.portal < goal else GREYS["dark"]
    fixed = _("corners fixed so far: {n}").format(n=_fixed(state, b))
    header = _("Step {b} of {n}").format(b=b, n=n)
    why = _("why?")
    return _BOX.format(
        f'<b>{header}</b> &middot; '
        f'<b style="color:{colour}">{where}</b><br>'
        f"{brief(state, b)}<br>"
        f"<details><summary>{why}</summary>{html.escape(s.text)}</details>"
        f"<span style=\"color:{GREYS['note']}\">{fixed}"
        f"{_on_turns(state, _fixed(state, b))}</span>")


def _beat(state, b) -> int:
    """``b`` checked as one of the state's beats."""
    if not state.ok:
        raise ValueError(f"this FunnelState has no path, so no beats: {state.error}")
    return check.integer(b, "b (a beat)", lo=0, hi=state.n_beats - 1)


def _fixed(state, b: int) -> int:
    """Corners fixed at beat ``b``: a corner's first beat has not fixed it yet."""
    beat = state.beats[b]
    s = state.steps[beat.step]
    return s.n_corners - (1 if beat.phase == "test" else 0)


_SIDE_COLOUR = {"left": LEFT_COLOUR, "right": RIGHT_COLOUR}
#: How the short step line says what a tested end did (a key of END_CLASSES -> words)
_END_PHRASES = {"inside": N_("the {edge} moves in to {p}"),
                "on_line": N_("the {edge} moves in to {p}"),
                "opens": N_("the {edge} moves in to {p}"),
                "outside": N_("its {side} end {p} would widen the funnel: ignored"),
                "same": N_("the {edge} already ends at {p}")}
#: The funnel's two edges and its two sides, as the step lines name them.
_EDGE_WORDS = {"left": N_("left edge"), "right": N_("right edge")}
_SIDE_WORDS = {"left": N_("left"), "right": N_("right")}


def _in(colour: str, text: str) -> str:
    return f'<b style="color:{colour}">{text}</b>'


def _end_phrase(side: str, cls: str, p) -> str:
    c = _SIDE_COLOUR[side]
    words = _(_END_PHRASES.get(cls, N_("its {side} end is the apex")))
    return words.format(edge=_in(c, _(_EDGE_WORDS[side])), p=_in(c, _xy(p)),
                        side=_(_SIDE_WORDS[side]))


@check.first_is(FunnelState, "the FunnelApp's .state")
def brief(state, b: int) -> str:
    """One or two lines for beat ``b``, naming the points the map highlights there, each
    in its colour on the map (left vermillion, right blue, the crossing ray dark red)."""
    b = _beat(state, b)
    beat = state.beats[b]
    s = state.steps[beat.step]
    goal = len(state.used_portals)
    star = _in(PALETTE["black"], _("apex") + " &#9733;")
    if s.event == "start":
        return _("The funnel opens at the {start}: the {apex} sits on it.").format(
            start=_in(START_COLOUR, _("start")), apex=star)
    if beat.phase == "test":
        crossed = beat.crossed
        own = "left" if crossed == "right" else "right"
        if s.portal >= goal:
            name = _("The {goal} {p}").format(goal=_in(GOAL_COLOUR, _("goal")),
                                              p=_in(GOAL_COLOUR, _xy(beat.end)))
        else:
            name = (_("Portal {k}'s left end {p}") if own == "left" else
                    _("Portal {k}'s right end {p}")).format(
                k=s.portal, p=_in(_SIDE_COLOUR[own], _xy(beat.end)))
        return _("{name} lies across the {edge}: the {ray} from the {apex} to it leaves the "
                 "funnel.").format(name=name,
                                   edge=_in(_SIDE_COLOUR[crossed], _(_EDGE_WORDS[crossed])),
                                   ray=_in(WARN_COLOUR, _("dashed ray")), apex=star)
    if beat.phase == "move":
        crossed = beat.crossed
        c = _SIDE_COLOUR[crossed]
        restart = (_("the goal") if s.restart >= goal else _("portal {k}").format(k=s.restart))
        return _("So the {edge}'s end {p} becomes corner {n}: the {apex} moves there and the "
                 "scan restarts from {restart}.").format(
            edge=_in(c, _(_EDGE_WORDS[crossed])), p=_in(c, _xy(s.apex)), n=s.n_corners,
            apex=star, restart=restart)
    if s.event == "goal":
        return _("The {goal} {p} lies inside the funnel: the {apex} sees it. Done.").format(
            goal=_in(GOAL_COLOUR, _("goal")), p=_in(GOAL_COLOUR, _xy(s.tested[0])), apex=star)
    (pl, pr) = s.tested
    text = _("Portal {k}: {right}; {left}.").format(
        k=s.portal, right=_end_phrase("right", s.right_end, pr),
        left=_end_phrase("left", s.left_end, pl))
    if beat.ghost_left is not None or beat.ghost_right is not None:
        text += _(" Dotted: where it was.")
    elif s.event == "keep":
        text += _(" Nothing narrows.")
    return text


def grazing(n: int) -> str:
    """'1 pulled segment grazes' / '2 pulled segments graze'."""
    n = check.integer(n, "n", lo=0)
    return (_("{n} pulled segment grazes") if n == 1 else
            _("{n} pulled segments graze")).format(n=n)


#: the label of the app's toggle that draws the exact shortest path
SHORTEST_TOGGLE = N_("exact shortest path (sky blue)")


@check.first_is(FunnelState, "the FunnelApp's .state")
def lengths_html(state, shortest_drawn: bool = True) -> str:
    """The optimality readout: funnel, exact shortest and zigzag, with their excess;
    ``shortest_drawn``: whether the map draws the exact shortest path (sky blue)."""
    shortest_drawn = check.flag(shortest_drawn, "shortest_drawn")
    if state.midpoints is None:
        return ""
    L = state.lengths
    rows = []
    if state.path is not None:
        name = (_("funnel path, corners pushed out") if state.point_path is not None
                else _("funnel path (this corridor)"))
        rows.append((name, PATH_LABEL_COLOUR, L["path"],
                     state.excess("path")))
    if state.shortest is not None:
        # with a radius it is the shortest path that keeps the radius clear (on the eroded
        # floor): a shrunk-portal path passes closer, so it can be the shorter of the two
        name = (_("exact shortest on the floor") if state.radius <= 0 else
                _("exact shortest ({r} m clear)").format(r=fmt_number(state.radius, 2)))
        rows.append((name, SHORTEST_COLOUR, L["shortest"], 0.0))
    rows.append((_("portal-midpoint zigzag"), ZIGZAG_COLOUR, L["midpoints"],
                 state.excess("midpoints") if state.shortest is not None else None))
    body = "".join(
        f'<tr><td style="color:{c};font-weight:600;padding-right:8px">{name}</td>'
        f'<td style="text-align:right;white-space:nowrap">{_m(v)}</td>'
        f'<td style="text-align:right;padding-left:8px;white-space:nowrap">'
        f'{"" if e is None else ("+" if e >= 0 else "") + fmt_number(e, 1) + "%"}</td></tr>'
        for name, c, v, e in rows)
    extra = ""
    if state.path is not None:
        extra = (_("{portals} portals, {corners}; the funnel saves <b>{saved}%</b> over the "
                   "zigzag.").format(portals=len(state.portals), corners=corner_count(state),
                                     saved=fmt_number(state.saved, 1))
                 + f'<br><span class="lesson-bends">{bends_text(state)}</span>')
        if state.shortest is not None and state.excess("path") > 0.05 \
                and state.point_path is None:
            extra += (_(" <b>This corridor does not hold the shortest path:</b> no smoothing "
                        "inside it can reach the sky-blue line.") if shortest_drawn else
                      _(" <b>This corridor does not hold the shortest path:</b> no smoothing "
                        "inside it can reach it (tick <i>{toggle}</i> under More controls to "
                        "see it).").format(toggle=_(SHORTEST_TOGGLE)))
    return _BOX.format(f'<table style="{TEXT}">{body}</table>{extra}')


PATH_LABEL_COLOUR = PALETTE["black"]


#: Why a path can bend more often than it turns (said wherever the two counts differ).
ROUNDED = N_("it rounds each obstacle corner in short straight pieces")


def _turns(n: int) -> str:
    return (_("{n} turn") if n == 1 else _("{n} turns")).format(n=n)


@check.first_is(FunnelState, "the FunnelApp's .state")
def corner_count(state) -> str:
    """The path's corners as a learner sees them: "3 corners", or "3 turns (8 bends: ...)"
    when it rounds an obstacle corner in several bends (an eroded floor's rounded corner,
    shrunk portals that share a corner)."""
    if state.n_turns == state.n_corners:
        return (_("{n} corner") if state.n_corners == 1 else
                _("{n} corners")).format(n=state.n_corners)
    return _("{turns} ({n} bends: {why})").format(turns=_turns(state.n_turns),
                                                  n=state.n_corners, why=_(ROUNDED))


def _on_turns(state, n_corners: int) -> str:
    """For the step readout: on how many turns the corners fixed so far lie, when that
    is fewer than the corners."""
    if state.n_turns == state.n_corners or n_corners == 0:
        return ""
    return _(", on {turns} ({why})").format(turns=_turns(state.turns_within(n_corners)),
                                            why=_(ROUNDED))


def _xy(p) -> str:
    return f"({fmt_number(p[0], 2)}, {fmt_number(p[1], 2)})"


@check.first_is(FunnelState, "the FunnelApp's .state")
def bends_text(state) -> str:
    """Where the funnel path bends, start and goal left out; by turn, round the obstacle
    corners, when it rounds corners in several bends."""
    if state.path is None or len(state.path) <= 2:
        return _("bends: none (a straight line)")
    if state.n_turns != state.n_corners:
        return _("turns round the corners at {points}").format(
            points=", ".join(_xy(c) for c, _b in state.turns))
    return _("bends at {points}").format(points=", ".join(_xy(p) for p in state.path[1:-1]))


def _point_clearance(state) -> str:
    """What a point agent's clearance means: it grazes the corners it bends round; a path
    that touches nothing (a straight line in the open) grazes none (issue 41: "0.23 m (a
    point agent grazes the corners)" of a straight path)."""
    if state.clearance <= 1e-9:
        return _("a point agent grazes the corners it bends round")
    if len(state.path) <= 2:
        return _("a straight line: it bends round no corner, so it touches none")
    return _("it bends round corners yet touches none")


@check.first_is(FunnelState, "the FunnelApp's .state")
def radius_html(state) -> str:
    r = state.radius
    if r <= 0:
        if state.ok:
            return _BOX.format(_("clearance to walls and pillars: {d} ({why})").format(
                d=_m(state.clearance), why=_point_clearance(state)))
        return ""
    how = _(HOW[state.method])
    if not state.ok:
        verdict = ""
        if state.other_method_passes is not None:
            verdict = " " + _OTHER_VERDICT[(state.method == "shrink",
                                            bool(state.other_method_passes))]()
        return _BOX.format(f'<b style="color:{PALETTE["vermillion"]}">'
                           + _("radius {r} ({how}): impassable.").format(r=_m(r), how=how)
                           + f"</b>{verdict}")
    d = state.clearance
    short = d < r - 1e-9
    colour = PALETTE["vermillion"] if short else PALETTE["green"]
    text = _("{how}: clearance to walls and pillars {d} = {ratio} &times; radius {r} (circled "
             "on the map at the last step)").format(
        how=how, d=f'<b style="color:{colour}">{_m(d)}</b>', ratio=fmt_number(d / r, 2),
        r=_m(r))
    if short:
        text += "<br>" + _(WHY_SHORT[state.method])
        if d == 0:
            text += _(" Here the path cuts through a wall.")
    return _BOX.format(text)


#: How each method keeps the radius, as the radius readout names it.
HOW = {"shrink": N_("shrunk portals"), "erode": N_("eroded floor, baked again"),
       "push": N_("corners pushed out")}
#: What the other method does with a radius this one refuses: (this is "shrink", the other
#: passes) -> the sentence.
_OTHER_VERDICT = {
    (True, True): lambda: _("Erode-then-bake lets it through."),
    (True, False): lambda: _("Erode-then-bake says the same."),
    (False, True): lambda: _("Shrinking the portals lets it through."),
    (False, False): lambda: _("Shrinking the portals says the same."),
}
#: Why a method can keep less than the radius (eroding never does).
WHY_SHORT = {
    "shrink": N_("Shrinking moves each corner r along its portal, but the path leaves the "
                 "corner at a slant and passes closer than r."),
    "push": N_("Pushing moves each corner r out from the wall corner it bends round, but it "
               "looks at the path only: nothing checks the pieces between the pushed corners "
               "against the walls."),
    "erode": "",
}


def legend_html() -> str:
    return _BOX.format(_(
        "Drag the {start} or the {goal}; a click elsewhere moves the one chosen with "
        "<i>{click}</i>. Funnel edges: {left} and {right} as the traveller sees them; the "
        "portal being tested is {purple}.").format(
        start=_in(START_COLOUR, _("start")), goal=_in(PALETTE["orange"], _("goal")),
        click=_("click moves"), left=_in(LEFT_COLOUR, _("left")),
        right=_in(RIGHT_COLOUR, _("right")), purple=_in(TESTED_COLOUR, _("purple"))))


@check.first_is(GridState, "the GridApp's .state")
def grid_html(state) -> str:
    if state.error is not None:
        return _BOX.format("<b>" + _("No path:") + f"</b> {html.escape(state.error)}")
    la, lp = state.lengths
    n_ok = sum(1 for *_x, v in state.checks if v)
    text = (_("{astar}: {n} points, length {length}").format(
                astar=f'<b style="color:{PALETTE["grey"]}">A*</b>', n=len(state.path),
                length=fmt_number(la, 2)) + "<br>"
            + _("{pulled}: {n} points, length {length} ({saved} shorter)").format(
                pulled=f'<b style="color:{PALETTE["blue"]}">' + _("string pulled") + "</b>",
                n=len(state.pulled), length=fmt_number(lp, 2),
                saved=fmt_number(state.saved, 1) + "%") + "<br>"
            + _("line-of-sight checks: {n} ({clear}, {blocked})").format(
                n=len(state.checks),
                clear=f'<span style="color:{PALETTE["green"]}">'
                      + _("{n} clear").format(n=n_ok) + "</span>",
                blocked=f'<span style="color:{PALETTE["vermillion"]}">'
                        + _("{n} blocked").format(n=len(state.checks) - n_ok) + "</span>"))
    if state.stuck:
        n = len(state.stuck)
        text += (f'<br><b style="color:{PALETTE["vermillion"]}">&#9888; '
                 + (_("{n} pulled segment grazes a wall corner that A* would never pass: "
                      "the unit gets stuck there. The sight test must follow the movement "
                      "rule.") if n == 1 else
                    _("{n} pulled segments graze a wall corner that A* would never pass: "
                      "the unit gets stuck there. The sight test must follow the movement "
                      "rule.")).format(n=n)
                 + "</b>")
    return _BOX.format(text)
