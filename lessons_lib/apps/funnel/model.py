"""Lesson 4's models, pure maths: control values in, a frozen state out.

:func:`compute_funnel` runs corridor search, the agent radius (shrunk portals, or the floor
eroded and baked again), the funnel with its step trace, the exact shortest path and the
portal-midpoint zigzag for :class:`~.app.FunnelApp`. :func:`compute_grid` runs A* and string
pulling for :class:`~.grid_app.GridApp`. Nothing here touches a widget or an artist.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from ... import funnel as fn
from ... import pathsmooth as ps
from ... import validate as check
from ...i18n import N_, _
from ...navmesh import (
    ARTICLE_GOAL,
    ARTICLE_START,
    BAD_CORRIDOR_GOAL,
    BAD_CORRIDOR_START,
    NavMesh,
    NoRouteError,
    bake_navmesh,
    clearance,
    erode,
    lesson_walkable,
    prepare_shortest_paths,
    shortest_path,
    turns,
)

__all__ = [
    "ARTICLE_GRID",
    "Beat",
    "ARTICLE_GRID_GOAL",
    "ARTICLE_GRID_START",
    "CORRIDORS",
    "CURVE_SAMPLES",
    "FunnelState",
    "GridState",
    "METHODS",
    "SIGHT_RULES",
    "compute_funnel",
    "compute_grid",
    "lesson_floor",
    "parse_grid",
    "prepare_floor",
]

#: how the agent's radius is handled
METHODS = ((N_("shrink the portals"), "shrink"), (N_("erode the floor, then bake"), "erode"),
           (N_("push the path's corners out"), "push"))
#: which corridor the funnel runs in
CORRIDORS = ((N_("A* over polygons"), "astar"),
             (N_("the one holding the shortest path"), "best"))

#: The largest agent radius the model takes (m): the app's slider goes to 0.9, and at 5 m
#: the eroded floor is gone (every door and the hall are narrower than 10 m).
MAX_RADIUS = 5.0
DEFAULT_START = ARTICLE_START
DEFAULT_GOAL = ARTICLE_GOAL
__all__ += ["BAD_CORRIDOR_GOAL", "BAD_CORRIDOR_START", "DEFAULT_GOAL", "DEFAULT_START"]


@functools.lru_cache(maxsize=1)
def lesson_floor():
    """The lesson map's floor and its baked navmesh (made once)."""
    free = lesson_walkable()
    return free, bake_navmesh(free)


#: Floors kept, one per agent radius: more than the radius slider's 18 values above zero,
#: so a learner sweeping it back and forth erodes and bakes each floor once, a radius step's
#: costliest part (see docs/performance.md).
RADIUS_FLOORS_KEPT = 32


@functools.lru_cache(maxsize=RADIUS_FLOORS_KEPT)
def _eroded(radius: float):
    free, _mesh = lesson_floor()
    floor = erode(free, radius)
    mesh = bake_navmesh(floor) if not floor.is_empty else None
    return floor, mesh


def _radius(value, name: str = "radius") -> float:
    return check.real(value, name, lo=0.0, hi=MAX_RADIUS, unit="m")


def _floor_for(radius: float):
    """The floor the agent's centre may use (eroded by the radius) and its navmesh."""
    radius = _radius(radius)
    if radius <= 0:
        return lesson_floor()
    return _eroded(round(float(radius), 6))


def nearest_floor_point(free, x: float, y: float, inset: float = 0.06) -> tuple[float, float]:
    """The point of the floor ``free`` (a shapely area) nearest (x, y), ``inset`` metres in
    from its edge (so that it lies on the floor, not on a wall's line)."""
    from shapely.geometry import Point
    from shapely.geometry.base import BaseGeometry
    from shapely.ops import nearest_points

    if not isinstance(free, BaseGeometry) or free.is_empty:
        raise ValueError(f"free must be a shapely area (the floor), got {check.describe(free)}")
    x, y = check.real(x, "x", unit="m"), check.real(y, "y", unit="m")
    inset = check.real(inset, "inset", lo=0.0, hi=1.0, unit="m")
    q = Point(x, y)
    if free.contains(q):
        return (float(x), float(y))
    edge = nearest_points(free.boundary, q)[0]
    inner = free.buffer(-inset)
    p = nearest_points(inner.boundary, edge)[0] if not inner.is_empty else edge
    return (float(p.x), float(p.y))


def prepare_floor(radius: float) -> None:
    """Make (and keep) everything a radius's first visit builds: the eroded floor, its
    navmesh and its visibility graph, ten times a later visit's cost. ``radius``: 0 to
    :data:`MAX_RADIUS` m."""
    floor, mesh = _floor_for(radius)
    if mesh is not None:
        prepare_shortest_paths(floor)


@dataclass(frozen=True)
class Beat:
    """One frame of the walk through the trace. A step that fixes a corner takes two beats:
    ``phase`` "test" draws the funnel ``before`` it (apex, left, right as the crossing end
    was tested against it), the ``end`` that crossed and the ray to it over the ``crossed``
    edge; "move" draws the apex moved to the new corner. Any other step is one beat
    (``phase`` "")."""

    step: int                           # index into FunnelState.steps
    phase: str = ""
    before: tuple | None = None
    end: tuple | None = None
    crossed: str = ""
    ghost_left: tuple | None = None     # (apex, old end) of an edge this step moved
    ghost_right: tuple | None = None


def _ghost(prev, s, side: str):
    """The edge on ``side`` before step ``s``, when ``s`` moved it (same apex, another end,
    and not an edge that had shrunk onto the apex)."""
    old, new = getattr(prev, side), getattr(s, side)
    if prev.apex != s.apex or old == new or old == prev.apex:
        return None
    return (prev.apex, old)


def beats_of(steps) -> tuple[Beat, ...]:
    """The beats of a trace (the list :func:`lessons_lib.funnel.funnel_steps` returns): one
    per step, two per corner step."""
    steps = check.items(steps, "steps", "funnel steps")
    if not all(isinstance(s, fn.FunnelStep) for s in steps):
        raise ValueError("steps must be the list funnel_steps() returns (FunnelStep items)")
    out = []
    for k, s in enumerate(steps):
        hit = fn.crossing(steps[k - 1], s) if k else None
        if hit is None:
            ghosts = ((_ghost(steps[k - 1], s, "left"), _ghost(steps[k - 1], s, "right"))
                      if k else (None, None))
            out.append(Beat(k, ghost_left=ghosts[0], ghost_right=ghosts[1]))
            continue
        before, end, crossed = hit
        out.append(Beat(k, "test", before, end, crossed))
        out.append(Beat(k, "move", before, end, crossed))
    return tuple(out)


@dataclass(frozen=True)
class FunnelState:
    """Everything the funnel app shows for one set of control values."""

    start: np.ndarray
    goal: np.ndarray
    radius: float
    method: str
    corridor_choice: str
    mesh: NavMesh                       # the mesh the corridor is in (eroded one for "erode")
    error: str | None = None            # why there is no path (the page shows it)
    narrow_portal: int | None = None    # shrink: the first portal narrower than 2 r
    corridor: tuple[int, ...] = ()
    portals: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    used_portals: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    steps: tuple = ()
    path: np.ndarray | None = None      # the funnel path (start ... goal)
    midpoints: np.ndarray | None = None  # the portal-midpoint zigzag
    shortest: np.ndarray | None = None  # exact shortest path for this agent on the floor
    clearance: float = math.nan         # to walls and pillars only
    clearance_at: tuple = ()            # (point on the path, nearest obstacle point)
    curve: np.ndarray | None = None     # Catmull-Rom through the path
    curve_off: np.ndarray | None = None  # its samples that are off the floor
    other_method_passes: bool | None = None
    turns: tuple = ()                   # (obstacle corner, path indices of its bends) per turn
    point_path: np.ndarray | None = None  # push: the funnel's own path, before pushing
    beats: tuple = ()                   # the frames of the walk (see Beat)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def n_beats(self) -> int:
        return len(self.beats)

    def beat_of(self, step: int, phase: str = "test") -> int:
        """The beat that shows step ``step`` (of a corner step, its ``phase`` beat:
        "test" the crossing, "move" the apex moved)."""
        step = check.integer(step, "step", whole_floats=True)
        phase = check.option(phase, "phase", ["test", "move"])
        for b, beat in enumerate(self.beats):
            if beat.step == step and (beat.phase in ("", phase)):
                return b
        raise ValueError(f"step {step} is not in the trace (0 to {self.n_steps - 1})")

    @property
    def n_steps(self) -> int:
        return len(self.steps)

    @property
    def n_corners(self) -> int:
        """The funnel's corners: every bend of the path, start and goal left out."""
        return len(self.path) - 2 if self.path is not None else 0

    @property
    def n_turns(self) -> int:
        """The turns a learner sees: consecutive bends round one obstacle corner count once
        (see :func:`lessons_lib.navmesh.turns`)."""
        return len(self.turns)

    def turns_within(self, n_corners: int) -> int:
        """How many turns the first ``n_corners`` corners of the path lie on."""
        n_corners = check.integer(n_corners, "n_corners", whole_floats=True)
        return sum(1 for _c, bends in self.turns if bends[0] <= n_corners)

    @property
    def lengths(self) -> dict[str, float]:
        out = {}
        for name in ("path", "midpoints", "shortest"):
            value = getattr(self, name)
            out[name] = ps.path_length(value) if value is not None else math.nan
        return out

    @property
    def saved(self) -> float:
        """Percent the funnel path saves over the midpoint zigzag."""
        L = self.lengths
        return 100.0 * (1.0 - L["path"] / L["midpoints"]) if L["midpoints"] > 0 else 0.0

    def excess(self, name: str) -> float:
        """Percent by which ``path`` or ``midpoints`` is longer than the exact shortest."""
        name = check.option(name, "name", ["path", "midpoints"])
        L = self.lengths
        return 100.0 * (L[name] / L["shortest"] - 1.0) if L["shortest"] > 0 else 0.0


def _point(x: float, y: float) -> np.ndarray:
    return np.array([float(x), float(y)])


#: Catmull-Rom samples per piece of the path: the app's curve and the lesson's figure
#: (one sampling, so the page states one count of samples off the floor)
CURVE_SAMPLES = 40


_FUNNEL_FIELDS = {
    **dict.fromkeys(("start_x", "start_y", "goal_x", "goal_y"), check.real),
    "radius": _radius,
    "method": lambda v, n: check.option(v, n, [m for _, m in METHODS]),
    "corridor": lambda v, n: check.option(v, n, [c for _, c in CORRIDORS]),
    "show_curve": check.flag,
}


def compute_funnel(params, curve_samples: int = CURVE_SAMPLES) -> FunnelState:
    """The funnel app's model. ``params`` needs ``start_x``, ``start_y``, ``goal_x``,
    ``goal_y``, ``radius``, ``method`` ("shrink", "erode" or "push"), ``corridor`` ("astar" or
    "best") and ``show_curve``; the radius is 0 to :data:`MAX_RADIUS` m. ``curve_samples``:
    1 to pathsmooth.MAX_CURVE_SAMPLES (10,000) per piece of the curve. A ValueError for
    anything else."""
    got = check.fields(params, "params", _FUNNEL_FIELDS)
    curve_samples = check.integer(curve_samples, "curve_samples", lo=1,
                                  hi=ps.MAX_CURVE_SAMPLES)
    s, g = _point(got["start_x"], got["start_y"]), _point(got["goal_x"], got["goal_y"])
    r, method, choice = got["radius"], got["method"], got["corridor"]
    free, mesh = lesson_floor()
    base = dict(start=s, goal=g, radius=r, method=method, corridor_choice=choice, mesh=mesh)
    for name, p in (("start", s), ("goal", g)):
        if mesh.locate(p) is None:
            return FunnelState(**base, error=_(
                "the {name} ({x}, {y}) is inside a wall or a pillar: put it on the floor"
            ).format(name=_(name), x=f"{p[0]:.2f}", y=f"{p[1]:.2f}"))
    agent_floor, agent_mesh = _floor_for(r)
    try:
        shortest = shortest_path(agent_floor, s, g) if agent_mesh is not None else None
    except (NoRouteError, ValueError):
        shortest = None
    if method == "erode" and r > 0:
        mesh = agent_mesh
        base["mesh"] = mesh if mesh is not None else base["mesh"]
        for name, p in (("start", s), ("goal", g)):
            if mesh is None or mesh.locate(p) is None:
                return FunnelState(**base, other_method_passes=_shrink_passes(s, g, r),
                                   error=_("the {name} is closer than {r} m to a wall: an "
                                           "agent that wide cannot stand there (the eroded "
                                           "floor ends short of it)").format(
                                       name=_(name), r=f"{r:.2f}"))
    try:
        corridor = _corridor(mesh, s, g, choice, shortest)
    except NoRouteError:
        other = _shrink_passes(s, g, r) if method == "erode" else None
        return FunnelState(**base, other_method_passes=other,
                           error=_("no corridor joins start and goal for a radius of {r} m: "
                                   "a door on the way is narrower than 2 r, so eroding the "
                                   "floor cut it shut").format(r=f"{r:.2f}"))
    portals = np.asarray(fn.portals_from_corridor(mesh.corridor_polygons(corridor)),
                         dtype=float).reshape(-1, 2, 2)
    used = portals
    base.update(corridor=tuple(corridor), portals=portals, used_portals=portals,
                midpoints=fn.portal_midpoint_path(s, g, portals), shortest=shortest)
    if method == "shrink" and r > 0:
        try:
            used = fn.shrink_portals(portals, r)
        except fn.CorridorTooNarrow as exc:
            return FunnelState(**base, narrow_portal=exc.index,
                               other_method_passes=_erode_passes(s, g, r),
                               error=str(exc))
        base["used_portals"] = used
    steps = tuple(fn.funnel_steps(s, g, used))
    path = point = fn.path_from_steps(list(steps))
    if method == "push" and r > 0:
        path = fn.push_corners(point, r)
    d, on_path, on_wall = clearance(path, free)
    curve = curve_off = None
    if got["show_curve"] and len(path) > 2:
        curve = ps.catmull_rom(path, curve_samples)
        _free, floor_mesh = lesson_floor()
        off = np.array([floor_mesh.locate(q) is None for q in curve])
        curve_off = curve[off]
    return FunnelState(**base, steps=steps, beats=beats_of(steps), path=path, clearance=d,
                       clearance_at=(on_path, on_wall), curve=curve, curve_off=curve_off,
                       turns=tuple(turns(path, free, r)),
                       point_path=point if path is not point else None)


def _corridor(mesh: NavMesh, s, g, choice: str, shortest) -> list[int]:
    if choice == "best" and shortest is not None:
        return mesh.corridor_holding(shortest)
    return mesh.find_corridor(s, g)


def _shrink_passes(s, g, r: float) -> bool:
    _free, mesh = lesson_floor()
    try:
        mesh.route(s, g, radius=r)
    except (fn.CorridorTooNarrow, NoRouteError):
        return False
    return True


def _erode_passes(s, g, r: float) -> bool:
    _floor, mesh = _floor_for(r)
    if mesh is None or mesh.locate(s) is None or mesh.locate(g) is None:
        return False
    try:
        mesh.find_corridor(s, g)
    except NoRouteError:
        return False
    return True


# -- the grid --------------------------------------------------------------------------------
#: The article's grid case: A* answers 9 points (length 9.66), string pulling keeps 4 (9.37).
#: Text map, first line the top row; '#' is a wall.
ARTICLE_GRID = """
.....#.....
.....##....
..#........
..#......#.
..#......#.
...........
...........
""".strip("\n")
ARTICLE_GRID_START = (1, 2)
ARTICLE_GRID_GOAL = (8, 5)

SIGHT_RULES = ((N_("same as movement"), "same"), (N_("ignores corner touches"), "careless"))


#: The longest text map :func:`parse_grid` reads (grid_astar's largest grid and its lines).
MAX_GRID_TEXT = ps.MAX_SEARCH_CELLS + 1000


def parse_grid(text: str) -> np.ndarray:
    """A text map ('#' blocked, '.' free; first line is the top) as ``grid[y, x]``: text of
    at most :data:`MAX_GRID_TEXT` characters."""
    if not isinstance(text, str) or len(text) > MAX_GRID_TEXT:
        raise ValueError(f"the grid text must be text of at most {MAX_GRID_TEXT:,} characters, "
                         f"got {check.describe(text)}")
    rows = [r for r in text.strip("\n").splitlines()]
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("the grid text must have rows of equal length")
    bad = set("".join(rows)) - set(".#")
    if bad:
        raise ValueError(f"the grid text may only hold '.' and '#', found {sorted(bad)}")
    return np.array([[c == "#" for c in r] for r in reversed(rows)], dtype=bool)


@dataclass(frozen=True)
class GridState:
    grid: np.ndarray
    start: tuple[int, int]
    goal: tuple[int, int]
    move_rule: bool                     # corner_cutting of A*
    sight_rule: bool                    # corner_cutting of the sight test
    error: str | None = None
    path: tuple = ()                    # A* cells
    pulled: tuple = ()                  # string-pulled cells
    checks: tuple = ()                  # (a, b, clear) for every sight question asked
    stuck: tuple = ()                   # pulled segments the movement rule forbids
    touch_points: tuple = ()            # a blocked-cell corner each stuck segment touches

    @property
    def lengths(self) -> tuple[float, float]:
        if not self.path:
            return math.nan, math.nan
        return ps.path_length(self.path), ps.path_length(self.pulled)

    @property
    def saved(self) -> float:
        la, lp = self.lengths
        return 100.0 * (1.0 - lp / la) if la else 0.0


_GRID_FIELDS = {
    **dict.fromkeys(("start_x", "start_y", "goal_x", "goal_y"),
                    lambda v, n: check.integer(v, n, whole_floats=True)),
    "corner_cutting": check.flag,
    "sight_rule": lambda v, n: check.option(v, n, [r for _, r in SIGHT_RULES]),
}


def compute_grid(grid: np.ndarray, params) -> GridState:
    """A* (``params.corner_cutting``), then string pulling with the chosen sight rule
    (``params.sight_rule``: "same" or "careless"), start ``(start_x, start_y)`` and goal
    (whole cells). A ValueError for a grid or params that are not these."""
    g = ps.check_grid(grid)
    p = check.fields(params, "params", _GRID_FIELDS)
    s, t = (p["start_x"], p["start_y"]), (p["goal_x"], p["goal_y"])
    move = p["corner_cutting"]
    sight = move if p["sight_rule"] == "same" else True
    base = dict(grid=g, start=s, goal=t, move_rule=move, sight_rule=sight)
    try:
        path = ps.grid_astar(g, s, t, move)
    except ValueError as exc:
        return GridState(**base, error=str(exc))
    visible = ps.make_line_of_sight(g, sight)
    checks = []

    def recorded(a, b):
        ok = visible(a, b)
        checks.append((a, b, ok))
        return ok

    # as the article's Pull() asks: a neighbour (always in sight on an A* path) unasked
    pulled = ps.string_pull(path, recorded, check_neighbours=False)
    stuck = tuple((a, b) for a, b in zip(pulled, pulled[1:], strict=False)
                  if not ps.line_of_sight(g, a, b, move))
    return GridState(**base, path=tuple(path), pulled=tuple(pulled), checks=tuple(checks),
                     stuck=stuck, touch_points=tuple(_touch_point(g, a, b) for a, b in stuck))


def _touch_point(grid: np.ndarray, a, b) -> tuple[float, float]:
    """The blocked-cell corner nearest the segment between the centres of a and b."""
    cells = ps.segment_cells(grid.shape, a, b, corner_cutting=False)
    p0 = np.asarray(a, float) + 0.5
    d = np.asarray(b, float) - np.asarray(a, float)
    best, best_dist = (float(p0[0]), float(p0[1])), math.inf
    for cx, cy in cells:
        if not grid[cy, cx]:
            continue
        for corner in ((cx, cy), (cx + 1, cy), (cx, cy + 1), (cx + 1, cy + 1)):
            v = np.asarray(corner, float) - p0
            dist = abs(d[0] * v[1] - d[1] * v[0])
            if dist < best_dist:
                best, best_dist = (float(corner[0]), float(corner[1])), dist
    return best
