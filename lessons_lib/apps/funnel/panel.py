"""Lesson 4's HTML beside the figures, every number read from the model's state."""

from __future__ import annotations

import html

from ... import validate as check
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
        return _BOX.format(f'<b style="color:{PALETTE["vermillion"]}">No path.</b> '
                           + html.escape(state.error))
    b = _beat(state, b)
    beat = state.beats[b]
    s = state.steps[beat.step]
    n = state.n_beats - 1
    goal = len(state.used_portals)
    where = "start" if s.portal < 0 else "goal" if s.portal >= goal else f"portal {s.portal}"
    colour = TESTED_COLOUR if 0 <= s.portal < goal else GREYS["dark"]
    return _BOX.format(
        f'<b>Step {b} of {n}</b> &middot; <b style="color:{colour}">{where}</b><br>'
        f"{brief(state, b)}<br>"
        f"<details><summary>why?</summary>{html.escape(s.text)}</details>"
        f"<span style=\"color:{GREYS['note']}\">corners fixed so far: {_fixed(state, b)}"
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
_END_PHRASES = {"inside": "the {edge} moves in to {p}", "on_line": "the {edge} moves in to {p}",
                "opens": "the {edge} moves in to {p}",
                "outside": "its {side} end {p} would widen the funnel: ignored",
                "same": "the {edge} already ends at {p}"}


def _in(colour: str, text: str) -> str:
    return f'<b style="color:{colour}">{text}</b>'


def _end_phrase(side: str, cls: str, p) -> str:
    c = _SIDE_COLOUR[side]
    words = _END_PHRASES.get(cls, "its {side} end is the apex")
    return words.format(edge=_in(c, side + " edge"), p=_in(c, _xy(p)), side=side)


@check.first_is(FunnelState, "the FunnelApp's .state")
def brief(state, b: int) -> str:
    """One or two lines for beat ``b``, naming the points the map highlights there, each
    in its colour on the map (left vermillion, right blue, the crossing ray dark red)."""
    b = _beat(state, b)
    beat = state.beats[b]
    s = state.steps[beat.step]
    goal = len(state.used_portals)
    star = _in(PALETTE["black"], "apex &#9733;")
    if s.event == "start":
        return f"The funnel opens at the {_in(START_COLOUR, 'start')}: the {star} sits on it."
    if beat.phase == "test":
        crossed = beat.crossed
        own = "left" if crossed == "right" else "right"
        name = (f"The {_in(GOAL_COLOUR, 'goal')} {_in(GOAL_COLOUR, _xy(beat.end))}"
                if s.portal >= goal else
                f"Portal {s.portal}'s {own} end {_in(_SIDE_COLOUR[own], _xy(beat.end))}")
        return (f"{name} lies across the {_in(_SIDE_COLOUR[crossed], crossed + ' edge')}: "
                f"the {_in(WARN_COLOUR, 'dashed ray')} from the {star} to it leaves the "
                "funnel.")
    if beat.phase == "move":
        crossed = beat.crossed
        c = _SIDE_COLOUR[crossed]
        restart = ("the goal" if s.restart >= goal else f"portal {s.restart}")
        return (f"So the {_in(c, crossed + ' edge')}'s end {_in(c, _xy(s.apex))} becomes "
                f"corner {s.n_corners}: the {star} moves there and the scan restarts from "
                f"{restart}.")
    if s.event == "goal":
        return (f"The {_in(GOAL_COLOUR, 'goal')} {_in(GOAL_COLOUR, _xy(s.tested[0]))} lies "
                f"inside the funnel: the {star} sees it. Done.")
    (pl, pr) = s.tested
    text = (f"Portal {s.portal}: {_end_phrase('right', s.right_end, pr)}; "
            f"{_end_phrase('left', s.left_end, pl)}.")
    if beat.ghost_left is not None or beat.ghost_right is not None:
        text += " Dotted: where it was."
    elif s.event == "keep":
        text += " Nothing narrows."
    return text


def grazing(n: int) -> str:
    """'1 pulled segment grazes' / '2 pulled segments graze'."""
    n = check.integer(n, "n", lo=0)
    return f"{n} pulled segment grazes" if n == 1 else f"{n} pulled segments graze"


#: the label of the app's toggle that draws the exact shortest path
SHORTEST_TOGGLE = "exact shortest path (sky blue)"


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
        name = ("funnel path, corners pushed out" if state.point_path is not None
                else "funnel path (this corridor)")
        rows.append((name, PATH_LABEL_COLOUR, L["path"],
                     state.excess("path")))
    if state.shortest is not None:
        # with a radius it is the shortest path that keeps the radius clear (on the eroded
        # floor): a shrunk-portal path passes closer, so it can be the shorter of the two
        name = ("exact shortest on the floor" if state.radius <= 0 else
                f"exact shortest ({fmt_number(state.radius, 2)} m clear)")
        rows.append((name, SHORTEST_COLOUR, L["shortest"], 0.0))
    rows.append(("portal-midpoint zigzag", ZIGZAG_COLOUR, L["midpoints"],
                 state.excess("midpoints") if state.shortest is not None else None))
    body = "".join(
        f'<tr><td style="color:{c};font-weight:600;padding-right:8px">{name}</td>'
        f'<td style="text-align:right;white-space:nowrap">{_m(v)}</td>'
        f'<td style="text-align:right;padding-left:8px;white-space:nowrap">'
        f'{"" if e is None else ("+" if e >= 0 else "") + fmt_number(e, 1) + "%"}</td></tr>'
        for name, c, v, e in rows)
    extra = ""
    if state.path is not None:
        extra = (f"{len(state.portals)} portals, {corner_count(state)}; the funnel saves "
                 f"<b>{fmt_number(state.saved, 1)}%</b> over the zigzag."
                 f'<br><span class="lesson-bends">{bends_text(state)}</span>')
        if state.shortest is not None and state.excess("path") > 0.05 \
                and state.point_path is None:
            extra += (" <b>This corridor does not hold the shortest path:</b> no smoothing "
                      "inside it can reach " + ("the sky-blue line." if shortest_drawn else
                                                f"it (tick <i>{SHORTEST_TOGGLE}</i> under "
                                                "More controls to see it)."))
    return _BOX.format(f'<table style="{TEXT}">{body}</table>{extra}')


PATH_LABEL_COLOUR = PALETTE["black"]


#: Why a path can bend more often than it turns (said wherever the two counts differ).
ROUNDED = "it rounds each obstacle corner in short straight pieces"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@check.first_is(FunnelState, "the FunnelApp's .state")
def corner_count(state) -> str:
    """The path's corners as a learner sees them: "3 corners", or "3 turns (8 bends: ...)"
    when it rounds an obstacle corner in several bends (an eroded floor's rounded corner,
    shrunk portals that share a corner)."""
    if state.n_turns == state.n_corners:
        return _plural(state.n_corners, "corner")
    return f"{_plural(state.n_turns, 'turn')} ({state.n_corners} bends: {ROUNDED})"


def _on_turns(state, n_corners: int) -> str:
    """For the step readout: on how many turns the corners fixed so far lie, when that
    is fewer than the corners."""
    if state.n_turns == state.n_corners or n_corners == 0:
        return ""
    return f", on {_plural(state.turns_within(n_corners), 'turn')} ({ROUNDED})"


def _xy(p) -> str:
    return f"({fmt_number(p[0], 2)}, {fmt_number(p[1], 2)})"


@check.first_is(FunnelState, "the FunnelApp's .state")
def bends_text(state) -> str:
    """Where the funnel path bends, start and goal left out; by turn, round the obstacle
    corners, when it rounds corners in several bends."""
    if state.path is None or len(state.path) <= 2:
        return "bends: none (a straight line)"
    if state.n_turns != state.n_corners:
        return "turns round the corners at " + ", ".join(_xy(c) for c, _b in state.turns)
    return "bends at " + ", ".join(_xy(p) for p in state.path[1:-1])


def _point_clearance(state) -> str:
    """What a point agent's clearance means: it grazes the corners it bends round; a path
    that touches nothing (a straight line in the open) grazes none (issue 41: "0.23 m (a
    point agent grazes the corners)" of a straight path)."""
    if state.clearance <= 1e-9:
        return "a point agent grazes the corners it bends round"
    if len(state.path) <= 2:
        return "a straight line: it bends round no corner, so it touches none"
    return "it bends round corners yet touches none"


@check.first_is(FunnelState, "the FunnelApp's .state")
def radius_html(state) -> str:
    r = state.radius
    if r <= 0:
        if state.ok:
            return _BOX.format(f"clearance to walls and pillars: {_m(state.clearance)} "
                               f"({_point_clearance(state)})")
        return ""
    how = HOW[state.method]
    if not state.ok:
        other = ("erode-then-bake" if state.method == "shrink" else "shrinking the portals")
        verdict = ""
        if state.other_method_passes is not None:
            said = "lets it through" if state.other_method_passes else "says the same"
            verdict = f" {other.capitalize()} {said}."
        return _BOX.format(f'<b style="color:{PALETTE["vermillion"]}">radius {_m(r)} '
                           f"({how}): impassable.</b>{verdict}")
    d = state.clearance
    short = d < r - 1e-9
    colour = PALETTE["vermillion"] if short else PALETTE["green"]
    text = (f'{how}: clearance to walls and pillars <b style="color:{colour}">{_m(d)}</b> = '
            f"{fmt_number(d / r, 2)} &times; radius {_m(r)} (circled on the map at the last step)")
    if short:
        text += "<br>" + WHY_SHORT[state.method]
        if d == 0:
            text += " Here the path cuts through a wall."
    return _BOX.format(text)


#: How each method keeps the radius, as the radius readout names it.
HOW = {"shrink": "shrunk portals", "erode": "eroded floor, baked again",
       "push": "corners pushed out"}
#: Why a method can keep less than the radius (eroding never does).
WHY_SHORT = {
    "shrink": "Shrinking moves each corner r along its portal, but the path leaves the corner "
              "at a slant and passes closer than r.",
    "push": "Pushing moves each corner r out from the wall corner it bends round, but it "
            "looks at the path only: nothing checks the pieces between the pushed corners "
            "against the walls.",
    "erode": "",
}


def legend_html() -> str:
    return _BOX.format(
        f'Drag the <b style="color:{START_COLOUR}">start</b> or the '
        f'<b style="color:{PALETTE["orange"]}">goal</b>; a click elsewhere moves the one '
        f'chosen with <i>click moves</i>. Funnel edges: '
        f'<b style="color:{LEFT_COLOUR}">left</b> and '
        f'<b style="color:{RIGHT_COLOUR}">right</b> as the traveller sees them; the portal '
        f'being tested is <b style="color:{TESTED_COLOUR}">purple</b>.')


@check.first_is(GridState, "the GridApp's .state")
def grid_html(state) -> str:
    if state.error is not None:
        return _BOX.format(f"<b>No path:</b> {html.escape(state.error)}")
    la, lp = state.lengths
    n_ok = sum(1 for *_x, v in state.checks if v)
    text = (f'<b style="color:{PALETTE["grey"]}">A*</b>: {len(state.path)} points, length '
            f"{fmt_number(la, 2)}<br>"
            f'<b style="color:{PALETTE["blue"]}">string pulled</b>: {len(state.pulled)} '
            f"points, length {fmt_number(lp, 2)} ({fmt_number(state.saved, 1)}% shorter)<br>"
            f"line-of-sight checks: {len(state.checks)} "
            f'(<span style="color:{PALETTE["green"]}">{n_ok} clear</span>, '
            f'<span style="color:{PALETTE["vermillion"]}">{len(state.checks) - n_ok} '
            "blocked</span>)")
    if state.stuck:
        text += (f'<br><b style="color:{PALETTE["vermillion"]}">&#9888; '
                 f"{grazing(len(state.stuck))} a wall corner that A* would never pass: the "
                 "unit gets stuck there. The sight test must follow the movement rule.</b>")
    return _BOX.format(text)
