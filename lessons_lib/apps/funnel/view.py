"""Lesson 4's artists, made once; ``draw_*`` only moves them (``set_data`` and friends).

Colours (Okabe & Ito, :data:`PALETTE`), each with one meaning on the map:
left edge and left portal ends vermillion, right edge and right ends blue, the portal
being tested purple (nothing else is purple), the funnel a yellow wedge with a yellow apex
star (drawn under the start: at step 0 the start's disc sits in the star's middle), the
start a green disc (nothing else green), the goal an orange square, the path black (dashed,
with a tick from each corner, when its corners are pushed out), the exact shortest path
sky blue dashed, the midpoint zigzag grey dashed. A step that moves an edge draws the old
edge ghosted (thin, dotted, faint) and the new one solid; a corner's first beat draws the
funnel before it, the end that crossed (ringed) and the ray to it in dark red, dashed.
"""

from __future__ import annotations

import numpy as np
from matplotlib.artist import Artist
from matplotlib.collections import LineCollection, PathCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, PathPatch, Polygon, Rectangle
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D
from shapely.geometry import LineString
from shapely.geometry.polygon import orient

from ... import validate as check
from ...navmesh import NavMesh
from ..core import GREYS, LABEL_SIZE, LINE, MARKER, PALETTE, REDS, TINTS, bare_axes, rc_context
from .model import FunnelState, GridState

LEFT_COLOUR = PALETTE["vermillion"]
RIGHT_COLOUR = PALETTE["blue"]
TESTED_COLOUR = PALETTE["purple"]
WEDGE_COLOUR = PALETTE["yellow"]
APEX_COLOUR = PALETTE["black"]
PATH_COLOUR = PALETTE["black"]
SHORTEST_COLOUR = PALETTE["sky"]
ZIGZAG_COLOUR = PALETTE["grey"]
START_COLOUR = PALETTE["green"]
GOAL_COLOUR = PALETTE["orange"]
CURVE_COLOUR = PALETTE["orange"]
#: the ray from the apex to a portal end that lies across the other edge (a corner's first
#: beat): dark red and dashed, apart from every other line on the map
WARN_COLOUR = REDS["warning"]
#: An edge's old place, after a step moved it: dotted (every route line is solid or dashed)
GHOST_STYLE = (0, (1, 2.5))
WALL_COLOUR = GREYS["wall"]
FLOOR_COLOUR = GREYS["floor"]

_LABEL_CACHE: dict[int, tuple[Path, Path]] = {}


#: The largest map coordinate and radius, in metres, and the most points, that
#: :func:`swept_path` takes (a lesson's maps are tens of metres, its paths a few points);
#: a radius under SWEEP_LEAST (a nanometre) draws nothing (GEOS fails on subnormal ones).
SWEEP_EXTENT, SWEEP_POINTS, SWEEP_LEAST = 1e6, 100_000, 1e-9


def swept_path(path, radius: float) -> Path:
    """The ground a disc of ``radius`` covers moving along ``path`` (the path buffered by the
    radius, holes kept), as a matplotlib path; a single point's path for no path or radius.
    ``path``: None or (N, 2) points, N at most :data:`SWEEP_POINTS`, each coordinate and the
    radius at most :data:`SWEEP_EXTENT` metres."""
    radius = check.length(radius, "radius", allow_zero=True, cap=SWEEP_EXTENT)
    nothing = Path(np.zeros((1, 2)))
    if path is None:
        return nothing
    points = check.array(path, "path", (None, 2))
    if len(points) > SWEEP_POINTS or np.abs(points).max(initial=0.0) > SWEEP_EXTENT:
        raise ValueError(f"path takes at most {SWEEP_POINTS:,} points within "
                         f"±{SWEEP_EXTENT:g} m, got {len(points):,} points reaching "
                         f"{np.abs(points).max():g} m")
    area = LineString(points).buffer(radius) if len(points) >= 2 and radius >= SWEEP_LEAST else None
    if area is None or area.is_empty or area.geom_type != "Polygon":
        return nothing
    area = orient(area, 1.0)
    rings = [area.exterior, *area.interiors]
    return Path.make_compound_path(*(Path(np.asarray(r.coords), closed=True)
                                        for r in rings))


def label_paths(k: int) -> tuple[Path, Path]:
    """Outline of the number ``k`` (0 to 100,000) centred on (0, 0), and a box behind it,
    in points."""
    k = check.integer(k, "k", lo=0, hi=100_000)
    if k not in _LABEL_CACHE:
        text = TextPath((0, 0), str(k), size=LABEL_SIZE)
        ext = text.get_extents()
        cx, cy = (ext.x0 + ext.x1) / 2, (ext.y0 + ext.y1) / 2
        glyph = text.transformed(Affine2D().translate(-cx, -cy))
        hw, hh = ext.width / 2 + 1.6, ext.height / 2 + 1.6
        box = Path([(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh), (-hw, -hh)], closed=True)
        _LABEL_CACHE[k] = (glyph, box)
    return _LABEL_CACHE[k]


#: where along a portal its number may sit, in order of preference (0 left end, 1 right)
_LABEL_AT = (0.5, 0.3, 0.7, 0.15, 0.85)
#: metres a portal's number keeps from the start and the goal: the apex star (26 pt) sits on
#: the start at step 0, and covered a number 0.6 m away on an exercise's small map
LABEL_CLEAR = 0.9


#: in points, from a number's centre: the start's or goal's centre (the 26-pt apex star and
#: a box), the path's line (half a 2-digit box's diagonal and the line's half width)
LABEL_CLEAR_PT, LABEL_PATH_PT = 22.0, 10.0


def _distance_to_polyline(points: np.ndarray, line: np.ndarray) -> np.ndarray:
    """Each point's distance to the polyline ``line`` (n, 2), n >= 2; points (..., 2)."""
    a, b = line[:-1], line[1:]
    ab = b - a
    t = np.einsum("...sk,sk->...s", points[..., None, :] - a, ab) / np.maximum(
        np.einsum("sk,sk->s", ab, ab), 1e-18)
    near = a + np.clip(t, 0.0, 1.0)[..., None] * ab
    return np.linalg.norm(points[..., None, :] - near, axis=-1).min(axis=-1)


def _half_box(k: int, metres_per_point: float) -> np.ndarray:
    """Half the width and height of number ``k``'s box on the map, in metres, with a
    point of margin."""
    box = label_paths(k)[1].get_extents()
    return (np.array([box.width, box.height]) / 2 + 1.0) * metres_per_point


def spaced_labels(portals, gap: float = 0.7, avoid=(), clear: float = LABEL_CLEAR,
                  path=None, path_clear: float = 0.0, metres_per_point: float = 0.0,
                  ) -> tuple[np.ndarray, list[int]]:
    """Where to number the portals: at their middles, or further along a portal whose
    middle is within ``clear`` metres of a point of ``avoid`` (the start and the goal: the
    goal's square hid the number of the door preset's last portal) or within
    ``path_clear`` metres of the polyline ``path`` (the route, drawn over the numbers; on
    a portal with no spot clear of it, the spot furthest from it), and neither within
    ``gap`` metres of a number already placed nor with its box (at ``metres_per_point``)
    on that number's; a portal with no such spot goes unnumbered (the eroded floor's many
    short portals along a rounded corner would otherwise pile up). ``portals``: (N, 2, 2)
    (each portal's two ends); ``avoid`` and ``path``: points (M, 2); distances in metres."""
    portals = check.array(portals, "portals", (None, 2, 2))
    avoid = check.array(avoid, "avoid", (None, 2)) if len(check.items(avoid, "avoid")) \
        else np.zeros((0, 2))
    path = None if path is None else check.array(path, "path", (None, 2))
    gap, clear, path_clear, metres_per_point = (
        check.real(v, n, lo=0.0, hi=1e6) for v, n in ((gap, "gap"), (clear, "clear"),
                                                        (path_clear, "path_clear"),
                                                        (metres_per_point, "metres_per_point")))
    placed: list[np.ndarray] = []
    numbers: list[int] = []
    keep_off = np.asarray(avoid, dtype=float).reshape(-1, 2)
    ends = np.asarray(portals, dtype=float).reshape(-1, 2, 2)
    t = np.asarray(_LABEL_AT)[None, :, None]
    spots = ends[:, None, 0] + t * (ends[:, None, 1] - ends[:, None, 0])   # portal, spot, xy
    # all portals' spots against the points to keep off and the path at once, not a loop
    # per portal, on every radius change (see docs/performance.md)
    far = (np.linalg.norm(spots[:, :, None] - keep_off[None, None], axis=-1)
           >= clear).all(axis=2)
    far[~far.any(axis=1), 0] = True          # nowhere clear of them: the middle
    line = None if path is None else np.asarray(path, dtype=float).reshape(-1, 2)
    off_path = (_distance_to_polyline(spots, line) if line is not None and len(line) >= 2
                and len(spots) else np.full(far.shape, np.inf))
    halves: list[np.ndarray] = []
    for k in range(len(spots)):
        half = _half_box(k, metres_per_point)
        free = far[k].copy()
        if placed:                  # each spot against every number placed, at once
            apart = spots[k][:, None] - np.asarray(placed)[None]           # spot, placed, xy
            free &= ((np.hypot(apart[..., 0], apart[..., 1]) >= gap)
                     & (np.abs(apart) >= half + np.asarray(halves)).any(axis=2)).all(axis=1)
        if not free.any():
            continue
        clear_of_path = free & (off_path[k] >= path_clear)
        pick = clear_of_path.argmax() if clear_of_path.any() else np.where(
            free, off_path[k], -1.0).argmax()
        placed.append(spots[k, pick])
        halves.append(half)
        numbers.append(k)
    return np.asarray(placed).reshape(-1, 2), numbers


def _xy(points) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    return p[:, 0], p[:, 1]


def _plain_axes(ax) -> None:
    ax.set_aspect("equal")
    bare_axes(ax)


class FunnelView:
    """The lesson map with corridor, portals, funnel and paths."""

    def __init__(self, fig, mesh) -> None:
        check.instance(fig, "fig", Figure, "a figure to draw in")
        check.instance(mesh, "mesh", NavMesh, "the lesson's navigation mesh")
        with rc_context():
            self.ax = ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
        self.fig = fig
        self._route_for = None   # (state, show_zigzag, show_shortest) the route shows
        self.label_numbers: list[int] = []
        lo, hi = mesh.bounds
        ax.set_xlim(lo[0] - 0.2, hi[0] + 0.2)
        ax.set_ylim(lo[1] - 0.2, hi[1] + 0.2)
        _plain_axes(ax)
        ax.add_patch(Rectangle(lo, *(hi - lo), facecolor=WALL_COLOUR, edgecolor="none",
                               zorder=0))
        self.floor = PolyCollection(mesh.coords, facecolors=FLOOR_COLOUR,
                                    edgecolors=GREYS["floor edge"], linewidths=LINE["fine"],
                                    zorder=1)
        # the floor an agent's centre may use when the floor is eroded by its radius
        self.agent_floor = PolyCollection([], facecolors=GREYS["white"],
                                          edgecolors=GREYS["agent edge"], linewidths=LINE["hair"],
                                          zorder=1.5)
        self.corridor = PolyCollection([], facecolors=TINTS["corridor"],
                                       edgecolors=TINTS["corridor edge"], linewidths=LINE["fine"],
                                       zorder=2)
        self.portal_lines = LineCollection([], colors=GREYS["portal"], linewidths=LINE["thin"],
                                           zorder=3)
        self.shrunk_lines = LineCollection([], colors=GREYS["shrunk"], linewidths=LINE["path"],
                                           zorder=3.2)
        for c in (self.floor, self.agent_floor, self.corridor, self.portal_lines,
                  self.shrunk_lines):
            ax.add_collection(c)
        self.wedge = Polygon(np.zeros((3, 2)), closed=True, facecolor=WEDGE_COLOUR,
                             edgecolor="none", alpha=0.55, zorder=3.5)
        ax.add_patch(self.wedge)
        (self.left_ends,) = ax.plot([], [], "o", ms=MARKER["small"], color=LEFT_COLOUR, zorder=6)
        (self.right_ends,) = ax.plot([], [], "o", ms=MARKER["small"], color=RIGHT_COLOUR, zorder=6)
        # points to pixels at the figure's dpi whenever it is drawn: presenter mode and a
        # hi-dpi screen (ipympl multiplies the dpi by the device pixel ratio) raise it later
        points = Affine2D().scale(1 / 72.0) + fig.dpi_scale_trans
        self.label_boxes = PathCollection([], offsets=np.zeros((0, 2)),
                                          offset_transform=ax.transData, transform=points,
                                          facecolors=GREYS["white"], edgecolors=GREYS["rim"],
                                          linewidths=LINE["hair"], alpha=0.9, zorder=7)
        self.labels = PathCollection([], offsets=np.zeros((0, 2)),
                                     offset_transform=ax.transData, transform=points,
                                     facecolors=GREYS["ink"], edgecolors="none", zorder=7.5)
        ax.add_collection(self.label_boxes)
        ax.add_collection(self.labels)
        (self.zigzag,) = ax.plot([], [], "--", lw=LINE["line"], color=ZIGZAG_COLOUR, zorder=4)
        (self.shortest,) = ax.plot([], [], "--", lw=LINE["route"], color=SHORTEST_COLOUR,
                                   zorder=4.2)
        (self.curve,) = ax.plot([], [], "-.", lw=LINE["bold"], color=CURVE_COLOUR, zorder=4.4)
        (self.curve_off,) = ax.plot([], [], "x", ms=MARKER["mark"], mew=LINE["bold"],
                                    color=PALETTE["black"], zorder=9.5)
        (self.tested,) = ax.plot([], [], "-", lw=LINE["band"], color=TESTED_COLOUR, alpha=0.85,
                                 solid_capstyle="round", zorder=5)
        (self.left_edge,) = ax.plot([], [], "-", lw=LINE["heavy"], color=LEFT_COLOUR, zorder=8)
        (self.right_edge,) = ax.plot([], [], "-", lw=LINE["heavy"], color=RIGHT_COLOUR, zorder=8)
        # an edge's place before this step, when the step moved it: dotted, as no other line
        # is (dashed and faint, the blue one read as the sky-blue dashed shortest path)
        (self.left_ghost,) = ax.plot([], [], ls=GHOST_STYLE, lw=LINE["line"], color=LEFT_COLOUR,
                                     alpha=0.6, zorder=7.8)
        (self.right_ghost,) = ax.plot([], [], ls=GHOST_STYLE, lw=LINE["line"], color=RIGHT_COLOUR,
                                      alpha=0.6, zorder=7.8)
        # a corner's first beat: the ray from the apex to the end that crossed, and that end
        (self.cross_ray,) = ax.plot([], [], "--", lw=LINE["path"], color=WARN_COLOUR, zorder=8.5)
        (self.cross_end,) = ax.plot([], [], "o", ms=MARKER["circle"], mfc="none", mec=WARN_COLOUR,
                                    mew=LINE["heavy"], zorder=8.6)
        (self.corners,) = ax.plot([], [], "-o", lw=LINE["path"], ms=MARKER["small"],
                                  color=PATH_COLOUR, zorder=9)
        # "push the corners out": the pushed path dashed, a tick from each corner to where it
        # was pushed
        self.push_ticks = LineCollection([], colors=PATH_COLOUR, linewidths=LINE["cursor"],
                                         zorder=9.2)
        ax.add_collection(self.push_ticks)
        (self.pushed,) = ax.plot([], [], "--D", lw=LINE["arrow"], ms=MARKER["small"],
                                 color=PATH_COLOUR, zorder=9.3)
        # under the start and goal, and big enough for its five points to show around them:
        # at step 0 the apex is the start, and both stay in sight
        (self.apex,) = ax.plot([], [], "*", ms=MARKER["apex"], color=WEDGE_COLOUR, mec=APEX_COLOUR,
                               mew=LINE["cursor"], zorder=11.8)
        (self.narrow_mark,) = ax.plot([], [], "X", ms=MARKER["big"], color=PALETTE["black"],
                                      mec=GREYS["white"], zorder=11)
        # over the apex star (11.8), which sits on the last corner once the path is done:
        # a preset that says "circled on the map" must show the circle
        (self.clear_line,) = ax.plot([], [], "-", lw=LINE["line"], color=PALETTE["black"],
                                     zorder=11.9)
        (self.clear_mark,) = ax.plot([], [], "o", ms=MARKER["spot"], mfc="none",
                                     mec=PALETTE["black"], mew=LINE["bold"], zorder=11.9)
        self.agent = Circle((0, 0), 0.0, facecolor=START_COLOUR, alpha=0.25, edgecolor="none",
                            zorder=10)
        ax.add_patch(self.agent)
        # the ground the agent's body covers along the walked path (issue 41: a disc at the
        # start alone did not show where its radius reaches the walls); under the path
        self.swept = PathPatch(Path(np.zeros((1, 2))), facecolor=START_COLOUR, alpha=0.18,
                               edgecolor=START_COLOUR, lw=LINE["rule"], zorder=4.3, visible=False)
        ax.add_patch(self.swept)
        (self.start_dot,) = ax.plot([], [], "o", ms=MARKER["start"], color=START_COLOUR,
                                    mec=GREYS["white"], mew=LINE["outline"], zorder=12)
        (self.goal_dot,) = ax.plot([], [], "s", ms=MARKER["knob"], color=GOAL_COLOUR,
                                   mec=PALETTE["black"], mew=LINE["thin"], zorder=12)

    def _metres_per_point(self) -> float:
        """How many metres of the map one point of text covers at the figure's size now
        (the numbers are sized in points: on a small copy in presenter mode they grow
        against the map, and their spacing in metres must grow with them)."""
        ax, (width, height) = self.ax, self.fig.get_size_inches()
        box = ax.get_position(original=True)
        x0, x1 = ax.get_xlim()
        y0, y1 = ax.get_ylim()
        inches_per_metre = min(width * box.width / (x1 - x0), height * box.height / (y1 - y0))
        return round(1.0 / (72.0 * inches_per_metre), 6)

    @check.first_is(FunnelState, "the FunnelApp's .state")
    def draw_route(self, state, show_zigzag: bool, show_shortest: bool) -> None:
        """Everything that depends on the query, not on the step. Set only when the state
        or an overlay changed since the last call: a step change leaves these artists
        alone, so only the step's own artists are drawn again."""
        show_zigzag = check.flag(show_zigzag, "show_zigzag")
        show_shortest = check.flag(show_shortest, "show_shortest")
        drawn = self._route_for
        pt = self._metres_per_point()
        if drawn is not None and drawn[0] is state and drawn[1:] == (show_zigzag,
                                                                      show_shortest, pt):
            return
        self._route_for = (state, show_zigzag, show_shortest, pt)
        eroded = state.method == "erode" and state.radius > 0
        self.floor.set_facecolor(GREYS["eroded"] if eroded else FLOOR_COLOUR)
        self.agent_floor.set_verts(state.mesh.coords if eroded else [])
        self.corridor.set_verts(state.mesh.corridor_polygons(state.corridor))
        portals = state.portals
        self.portal_lines.set_segments(list(portals))
        self.left_ends.set_data(*_xy(portals[:, 0] if len(portals) else []))
        self.right_ends.set_data(*_xy(portals[:, 1] if len(portals) else []))
        mids, numbers = spaced_labels(
            portals, avoid=(state.start, state.goal),
            clear=max(LABEL_CLEAR, LABEL_CLEAR_PT * pt), path=state.path,
            path_clear=LABEL_PATH_PT * pt, metres_per_point=pt)
        self.label_numbers = numbers      # which portal each shown number belongs to
        pairs = [label_paths(k) for k in numbers]
        self.labels.set_paths([gl for gl, _b in pairs])
        self.labels.set_offsets(mids)
        self.label_boxes.set_paths([b for _g, b in pairs])
        self.label_boxes.set_offsets(mids)
        shrunk = state.method == "shrink" and state.radius > 0 and state.ok
        self.shrunk_lines.set_segments(list(state.used_portals) if shrunk else [])
        if state.narrow_portal is not None:
            # on the refused portal, towards its right end: its number sits at the middle
            left, right = portals[state.narrow_portal]
            self.narrow_mark.set_data(*_xy(left + 0.85 * (right - left)))
        else:
            self.narrow_mark.set_data([], [])
        zig = state.midpoints if state.midpoints is not None else []
        self.zigzag.set_data(*_xy(zig))
        self.zigzag.set_visible(show_zigzag)
        best = state.shortest if state.shortest is not None else []
        self.shortest.set_data(*_xy(best))
        self.shortest.set_visible(show_shortest)
        self._draw_push(state)
        self.curve.set_data(*_xy(state.curve if state.curve is not None else []))
        self.curve_off.set_data(*_xy(state.curve_off if state.curve_off is not None else []))
        if state.ok and state.clearance_at:
            p, w = state.clearance_at
            self.clear_line.set_data(*_xy([p, w]))
            self.clear_mark.set_data(*_xy(p))
        else:
            self.clear_line.set_data([], [])
            self.clear_mark.set_data([], [])
        self.agent.set_center(tuple(state.start))
        self.agent.set_radius(state.radius)
        self.swept.set_path(swept_path(state.path if state.ok else None, state.radius))
        self.start_dot.set_data(*_xy(state.start))
        self.goal_dot.set_data(*_xy(state.goal))

    def _draw_push(self, state) -> None:
        """The path with its corners pushed out, and where each corner went."""
        point = state.point_path
        if point is None:
            self.pushed.set_data([], [])
            self.push_ticks.set_segments([])
            return
        self.pushed.set_data(*_xy(state.path))
        self.push_ticks.set_segments([np.array([a, b]) for a, b in
                                      zip(point[1:-1], state.path[1:-1], strict=True)])

    def step_artists(self) -> list:
        """The artists :meth:`draw_step` moves or shows (the rest only change with the
        route): the funnel's own, then the closest approach's and the swept body, shown at
        the last step."""
        return [self.wedge, self.tested, self.left_edge, self.right_edge, self.left_ghost,
                self.right_ghost, self.cross_ray, self.cross_end, self.corners, self.apex,
                self.clear_line, self.clear_mark, self.swept]

    def dynamic_artists(self) -> list:
        """For fast redraws (:mod:`lessons_lib.apps.fastdraw.painter`): the step artists and
        every artist drawn over the lowest of them, the wedge. The painter draws these on
        top of a cached background, so the layering stays that of a full draw."""
        floor = self.wedge.get_zorder()
        return [a for a in vars(self).values()
                if isinstance(a, Artist) and a.axes is self.ax and a.get_zorder() >= floor]

    def route_artists(self) -> list:
        """What a drag of the start or the goal changes (:meth:`draw_route` and
        :meth:`draw_step`): every artist of the map from the corridor up. The floor under
        it changes only with the agent's radius and how it is kept."""
        floor = self.corridor.get_zorder()
        return [a for a in vars(self).values()
                if isinstance(a, Artist) and a.axes is self.ax and a.get_zorder() >= floor]

    @check.first_is(FunnelState, "the FunnelApp's .state")
    def draw_step(self, state, b: int | None) -> None:
        """The funnel at beat ``b`` of the walk (nothing when there is no trace): a corner's
        first beat shows the funnel before the step with the crossing ray; any other beat
        the funnel after its step, with the edges it moved ghosted where they were."""
        if b is not None:
            b = check.integer(b, "b (a beat)", lo=0, hi=max(len(state.beats) - 1, 0))
        done = not state.beats or b is None or b >= len(state.beats) - 1
        # the closest approach is about the whole path: shown once it is walked (at step 0
        # its black ring gave away a corner not fixed yet)
        for mark in (self.clear_line, self.clear_mark):
            mark.set_visible(done)
        self.swept.set_visible(done and len(self.swept.get_path().vertices) > 1)
        lines = (self.tested, self.left_edge, self.right_edge, self.left_ghost,
                 self.right_ghost, self.cross_ray, self.cross_end, self.corners, self.apex)
        for line in lines:
            line.set_data([], [])
        try:
            self._draw_beat(state, b)
        finally:
            # an empty line still costs a draw each frame: hide it instead
            for line in lines:
                line.set_visible(len(line.get_xdata()) > 0)

    def _draw_beat(self, state, b: int | None) -> None:
        if not state.beats or b is None:
            self.wedge.set_visible(False)
            return
        beat = state.beats[b]
        s = state.steps[beat.step]
        (tl, tr) = s.tested
        is_portal = 0 <= s.portal < len(state.used_portals)
        self.tested.set_data(*_xy([tl, tr] if is_portal else []))
        if beat.phase == "test":
            apex, left, right = beat.before
            self.cross_ray.set_data(*_xy([apex, beat.end]))
            self.cross_end.set_data(*_xy(beat.end))
            corners = s.corners[:-1]      # the corner is not fixed yet
        else:
            apex, left, right = s.apex, s.left, s.right
            corners = s.corners
            for ghost, line in ((beat.ghost_left, self.left_ghost),
                                (beat.ghost_right, self.right_ghost)):
                if ghost is not None:
                    line.set_data(*_xy(ghost))
        self.left_edge.set_data(*_xy([apex, left]))
        self.right_edge.set_data(*_xy([apex, right]))
        self.wedge.set_xy(np.array([apex, left, right], dtype=float))
        self.wedge.set_visible(True)
        self.corners.set_data(*_xy(corners))
        self.apex.set_data(*_xy(apex))


class GridView:
    """The grid with walls, A* cells, the pulled path and the sight checks."""

    def __init__(self, fig, shape) -> None:
        check.instance(fig, "fig", Figure, "a figure to draw in")
        shape = check.items(shape, "shape", "two sizes (rows, columns)")
        if len(shape) != 2:
            raise ValueError(f"shape must be (rows, columns), got {check.describe(shape)}")
        h, w = (check.integer(n, f"shape's {what}", lo=1, hi=500)
                for n, what in zip(shape, ("rows", "columns"), strict=True))
        self.shape = (h, w)
        with rc_context():
            self.ax = ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
        # walls as squares without antialiasing (the same pixels), not an image of the grid,
        # whose resampling was most of a full draw (see docs/performance.md)
        self.walls = PolyCollection([], facecolors=WALL_COLOUR, edgecolors="none",
                                    antialiaseds=False, zorder=0)
        ax.add_collection(self.walls)
        # the cell lines as one collection over the cells, not as ticks with grid lines,
        # which the axis machinery laid out at every draw (see docs/performance.md);
        # a thin grey frame all round, not a plot's black left and bottom axes
        bare_axes(ax, frame=True)
        ax.add_collection(LineCollection(
            [((x, 0), (x, h)) for x in range(w + 1)] + [((0, y), (w, y)) for y in range(h + 1)],
            colors=GREYS["pale"], linewidths=LINE["fine"], zorder=1.5))
        ax.set_xlim(0, w)
        ax.set_ylim(0, h)
        ax.set_aspect("equal")
        # a check that passed became a piece of the blue path: drawn over it, or it never
        # shows (the checks that failed cross open cells and stay under everything)
        self.check_ok = LineCollection([], colors=PALETTE["green"], linewidths=LINE["strong"],
                                       linestyles=(0, (4, 3)), zorder=4.5)
        self.check_fail = LineCollection([], colors=PALETTE["vermillion"], linewidths=LINE["thin"],
                                         linestyles=":", alpha=0.8, zorder=2)
        ax.add_collection(self.check_ok)
        ax.add_collection(self.check_fail)
        (self.astar_line,) = ax.plot([], [], "-o", ms=MARKER["small"], lw=LINE["line"],
                                     color=PALETTE["grey"], zorder=3)
        (self.pulled_line,) = ax.plot([], [], "-o", ms=MARKER["point"], lw=LINE["route"],
                                      color=PALETTE["blue"], zorder=4)
        self.stuck_lines = LineCollection([], colors=PALETTE["vermillion"], linewidths=LINE["ring"],
                                          zorder=5)
        ax.add_collection(self.stuck_lines)
        (self.stuck_marks,) = ax.plot([], [], "X", ms=MARKER["big"], color=PALETTE["vermillion"],
                                      mec=GREYS["white"], zorder=6)
        (self.start_dot,) = ax.plot([], [], "o", ms=MARKER["big"], color=PALETTE["green"],
                                    mec=GREYS["white"], mew=LINE["outline"], zorder=7)
        (self.goal_dot,) = ax.plot([], [], "s", ms=MARKER["start"], color=PALETTE["orange"],
                                   mec=PALETTE["black"], zorder=7)

    def dynamic_artists(self) -> list:
        """For fast redraws: everything over the cells and their lines (the walls change
        only when a cell is clicked; dragging start or goal moves only these)."""
        return [self.check_ok, self.check_fail, self.astar_line, self.pulled_line,
                self.stuck_lines, self.stuck_marks, self.start_dot, self.goal_dot]

    @check.first_is(GridState, "the GridApp's .state")
    def draw(self, state, show_checks: bool) -> None:
        """The grid of ``state`` (its shape the view's) with its path; ``show_checks``: the
        sight checks too."""
        show_checks = check.flag(show_checks, "show_checks")
        if np.shape(state.grid) != self.shape:
            raise ValueError(f"state's grid is {np.shape(state.grid)}, this view's "
                             f"{self.shape}")

        def centre(cells):
            c = np.asarray(cells, dtype=float).reshape(-1, 2) + 0.5
            return c[:, 0], c[:, 1]

        ys, xs = np.nonzero(state.grid)
        self.walls.set_verts(np.stack([np.column_stack([xs + dx, ys + dy])
                                       for dx, dy in ((0, 0), (1, 0), (1, 1), (0, 1))], axis=1))
        self.astar_line.set_data(*centre(state.path))
        self.pulled_line.set_data(*centre(state.pulled))
        ok = [np.asarray([a, b], float) + 0.5 for a, b, v in state.checks if v]
        bad = [np.asarray([a, b], float) + 0.5 for a, b, v in state.checks if not v]
        self.check_ok.set_segments(ok if show_checks else [])
        self.check_fail.set_segments(bad if show_checks else [])
        self.stuck_lines.set_segments([np.asarray([a, b], float) + 0.5 for a, b in state.stuck])
        self.stuck_marks.set_data(*_xy(state.touch_points))
        self.start_dot.set_data(*centre([state.start]))
        self.goal_dot.set_data(*centre([state.goal]))
