"""Portals, corridor validation and the funnel algorithm (with a step-by-step trace).

Conventions: 2D, x to the right, y up. Polygons are convex and counter-clockwise. A corridor
is a list of polygons, each sharing one whole edge with the next; that shared edge is a
*portal*, written ``(left, right)`` as the traveller crossing it sees it.

The only geometric test the funnel needs is the sign of a cross product,
:func:`cross` ``(a, b, c) = (b - a) x (c - a)``: positive when ``c`` is to the left of the
ray from ``a`` through ``b``, negative to the right, zero on the line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import validate as check
from .i18n import N_, _

__all__ = [
    "CorridorTooNarrow",
    "END_CLASSES",
    "FunnelStep",
    "cross",
    "crossing",
    "portals_from_corridor",
    "validate_portals",
    "funnel",
    "funnel_steps",
    "step_text",
    "path_from_steps",
    "portal_midpoint_path",
    "shrink_portals",
    "push_corners",
    "corridor_walls",
    "path_clearance",
    "point_in_polygon",
    "corridor_path",
    "check_polygon",
    "strip_corridor",
]

#: Relative tolerance for "the same point" and "on the line" in validation: a fraction of
#: the geometry's own size (:func:`lessons_lib.validate.tolerance`), never of its distance
#: from the origin.
EPS = 1e-9
#: The most portals :func:`strip_corridor` makes.
MAX_STRIP_PORTALS = 1_000_000
#: The most portals :func:`funnel` and :func:`funnel_steps` take: the lesson's cost figure
#: and the benchmark go up to 100,000 (well under a second; a trace of them about 0.2 GB).
#: The restarting funnel may rescan, so more is refused up front rather than left to run.
MAX_PORTALS = 100_000


class CorridorTooNarrow(ValueError):
    """A portal is narrower than the agent's diameter."""

    def __init__(self, index: int, width: float, radius: float) -> None:
        self.index = index
        self.width = width
        self.radius = radius
        super().__init__(_("portal {index} is {width} wide, narrower than 2 x radius = "
                           "{diameter}: an agent of radius {radius} cannot pass").format(
            index=index, width=f"{width:.3g}", diameter=f"{2 * radius:.3g}",
            radius=f"{radius:.3g}"))


def cross(a, b, c) -> float:
    """Twice the signed area of triangle abc: > 0 when c is left of a->b (counter-clockwise)."""
    try:
        r = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])
    except (TypeError, IndexError, KeyError, OverflowError):
        r = math.nan
    if not r - r == 0.0:
        for name, v in (("a", a), ("b", b), ("c", c)):
            check.array(v, name, (None,), what="coordinates")
            if np.shape(v)[0] < 2:
                raise ValueError(f"{name} must be a 2D point (x, y), got {check.describe(v)}")
        raise ValueError("cross overflowed: the points are too far apart (beyond 1e150)")
    return r


# -- polygons and portals -------------------------------------------------------------------
def check_polygon(poly, index: int = 0) -> np.ndarray:
    """Return ``poly`` as an (N, 2) array after checking it is convex and counter-clockwise.

    The checks run on the polygon moved to its first vertex and scaled by its own size, so a
    unit square at (5e4, 5e4) or one scaled by 1e200 is judged like the unit square.
    """
    index = check.integer(index, "index")
    try:
        p = check.array(poly, f"polygon {index}", (None, 2), finite=False)
    except ValueError:
        shape = np.shape(poly) if isinstance(poly, np.ndarray) else None
        raise ValueError(f"polygon {index} must be an (N, 2) array with N >= 3 of numbers, "
                         f"got {'shape ' + str(shape) if shape else repr(poly)[:40]}") from None
    if len(p) < 3:
        raise ValueError(f"polygon {index} must be an (N, 2) array with N >= 3, "
                         f"got shape {p.shape}")
    if not np.isfinite(p).all():
        raise ValueError(f"polygon {index} contains NaN or infinity")
    size = check.extent(p)
    if not math.isfinite(size):
        raise ValueError(f"polygon {index} is too large to measure (its size overflows): "
                         "scale it down")
    if size == 0.0:
        raise ValueError(f"polygon {index} repeats a vertex: remove the duplicate")
    rel = check.tolerance(p, EPS, size) / size  # never finer than the floats where it sits
    q = (p - p[0]) / size
    nxt = np.concatenate([q[1:], q[:1]])
    edges = nxt - q
    lens = np.hypot(edges[:, 0], edges[:, 1])
    if (lens <= rel).any():
        raise ValueError(f"polygon {index} repeats a vertex: remove the duplicate")
    area2 = float(np.sum(q[:, 0] * nxt[:, 1] - nxt[:, 0] * q[:, 1]))
    if area2 < -rel:
        raise ValueError(f"polygon {index} is clockwise: list its vertices counter-clockwise "
                         "(reverse them)")
    if area2 <= rel:
        raise ValueError(f"polygon {index} has no area (all its vertices are on one line)")
    enext = np.concatenate([edges[1:], edges[:1]])
    turns = edges[:, 0] * enext[:, 1] - edges[:, 1] * enext[:, 0]
    if (turns < -rel * lens * np.concatenate([lens[1:], lens[:1]])).any():
        raise ValueError(f"polygon {index} is not convex: split it into convex pieces")
    # convex turns that wind more than once would make a star: total turning must be 2 pi
    angles = np.arctan2(turns, (edges * enext).sum(axis=1))
    if abs(angles.sum() - 2 * math.pi) > 1e-6:
        raise ValueError(f"polygon {index} winds around more than once (self-intersecting)")
    return p


def _check_polygons(polygons) -> list[np.ndarray]:
    """:func:`check_polygon` for every polygon of a corridor, in one pass per vertex count:
    the same tests on a stack of polygons (a 100,000-polygon corridor was checked at 33 us a
    polygon, twice). Any polygon the stacked test flags, or that is not already a float
    array, goes through :func:`check_polygon` itself, which raises its message."""
    items = _sequence(polygons, "polygons")
    out: list = []
    groups: dict[int, list[int]] = {}
    for i, poly in enumerate(items):
        if isinstance(poly, np.ndarray) and poly.dtype == float and poly.ndim == 2 \
                and poly.shape[1] == 2 and len(poly) >= 3:
            out.append(poly)
            groups.setdefault(len(poly), []).append(i)
        else:
            out.append(check_polygon(poly, i))
    for idx in groups.values():
        for k in np.flatnonzero(~_convex_ccw_many(np.stack([out[i] for i in idx]))):
            out[idx[k]] = check_polygon(out[idx[k]], idx[k])
    return out


def _convex_ccw_many(p: np.ndarray) -> np.ndarray:
    """For a stack of polygons (G, N, 2): which pass every test of :func:`check_polygon`."""
    with np.errstate(all="ignore"):
        finite = np.isfinite(p).all(axis=(1, 2))
        span = p.max(axis=1) - p.min(axis=1)
        size = np.hypot(span[:, 0], span[:, 1])
        ok = finite & np.isfinite(size) & (size > 0)
        size = np.where(ok, size, 1.0)
        where = np.abs(p).max(axis=(1, 2))
        rel = np.maximum(EPS * size, 8.0 * np.finfo(float).eps * where) / size
        q = (p - p[:, :1]) / size[:, None, None]
        nxt = np.roll(q, -1, axis=1)
        edges = nxt - q
        lens = np.hypot(edges[..., 0], edges[..., 1])
        ok &= ~(lens <= rel[:, None]).any(axis=1)
        area2 = np.sum(q[..., 0] * nxt[..., 1] - nxt[..., 0] * q[..., 1], axis=1)
        ok &= area2 > rel
        enext = np.roll(edges, -1, axis=1)
        turns = edges[..., 0] * enext[..., 1] - edges[..., 1] * enext[..., 0]
        ok &= ~(turns < -rel[:, None] * lens * np.roll(lens, -1, axis=1)).any(axis=1)
        angles = np.arctan2(turns, (edges * enext).sum(axis=-1))
        ok &= np.abs(angles.sum(axis=1) - 2 * math.pi) <= 1e-6
    return ok


def _sequence(value, name: str):
    """A list or tuple (or array) of items; a ValueError for a number, text or None."""
    return check.items(value, name, "polygons")


def _same(a, b, scale: float) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= EPS * scale


def _shared_edge(pa: np.ndarray, pb: np.ndarray, ia: int, ib: int):
    # in Python floats: two small polygons, compared for every one of a long corridor
    a, b = pa.tolist(), pb.tolist()
    xs, ys = [p[0] for p in a + b], [p[1] for p in a + b]
    # check.tolerance of the pair: its own size, never finer than the floats where it sits
    tol = max(EPS * math.hypot(max(xs) - min(xs), max(ys) - min(ys)),
              8.0 * np.finfo(float).eps * max(max(map(abs, xs)), max(map(abs, ys))))
    na, nb = len(a), len(b)
    found = []
    for i in range(na):
        (px, py), (qx, qy) = a[i], a[(i + 1) % na]
        for j in range(nb):
            # counter-clockwise neighbours walk their shared edge in opposite directions
            (sx, sy), (tx, ty) = b[j], b[(j + 1) % nb]
            if math.hypot(sx - qx, sy - qy) <= tol and math.hypot(tx - px, ty - py) <= tol:
                found.append((i, j))
    if not found:
        raise ValueError(f"polygons {ia} and {ib} share no edge: consecutive corridor polygons "
                         "must have one whole edge in common (same two vertices)")
    if len(found) > 1:
        raise ValueError(f"polygons {ia} and {ib} share more than one edge")
    i, _j = found[0]
    # Polygon ia lies left of its edge p -> q, so the traveller leaving ia heads to the
    # right of that direction: q is on the traveller's left, p on the right.
    return pa[(i + 1) % na].copy(), pa[i].copy()


def portals_from_corridor(polygons) -> list[tuple[np.ndarray, np.ndarray]]:
    """Portals ``(left, right)`` between each pair of consecutive polygons of a corridor."""
    return _portals_between(_check_polygons(polygons))[0]


def _portals_between(polys: list[np.ndarray]) -> tuple[list, np.ndarray]:
    """The portals of checked polygons, as a list of pairs and as the validated array."""
    if not polys:
        raise ValueError("the corridor is empty: give at least one polygon")
    portals = [_shared_edge(polys[i], polys[i + 1], i, i + 1) for i in range(len(polys) - 1)]
    return portals, validate_portals(portals)


def _as_portals(portals) -> np.ndarray:
    if isinstance(portals, str | bytes) or not hasattr(portals, "__len__") \
            or check._ndim(portals) == 0:
        raise ValueError(f"portals must be a list of (left, right) pairs of 2D points, got "
                         f"{type(portals).__name__}")
    if len(portals) == 0:
        return np.zeros((0, 2, 2))
    try:
        raw = np.asarray(portals)
        if raw.dtype.kind not in "iuf":
            raise TypeError
        arr = raw.astype(float)
    except (TypeError, ValueError):
        raise ValueError("portals must be a list of (left, right) pairs of 2D points") from None
    if arr.ndim != 3 or arr.shape[1:] != (2, 2):
        raise ValueError(f"portals must be a list of (left, right) pairs of 2D points, "
                         f"got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError("portals contain NaN or infinity")
    return arr


def validate_portals(portals) -> np.ndarray:
    """Check that consecutive portals bound a convex counter-clockwise piece of corridor.

    Between portal ``i`` and ``i + 1`` the corridor walks ``right_i -> right_i+1 ->
    left_i+1 -> left_i`` counter-clockwise; portals that cross, or a portal whose left and
    right are swapped, make that quadrilateral turn clockwise somewhere and are rejected.
    Returns the portals as an (N, 2, 2) array.
    """
    arr = _as_portals(portals)
    n = len(arr)
    if n < 2:
        return arr
    quads = np.stack([arr[:-1, 1], arr[1:, 1], arr[1:, 0], arr[:-1, 0]], axis=1)  # (n-1,4,2)
    # each piece's tolerance from its own size (and the float resolution where it sits)
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    with np.errstate(over="ignore"):
        sizes = np.hypot(*(hi - lo).T)
    where = np.abs(quads).max(axis=(1, 2))
    scales = np.maximum(sizes, 8.0 * np.finfo(float).eps * where / EPS).tolist()
    for k in range(n - 1):
        q = quads[k]
        scale = scales[k]
        pts = [q[0]]
        for p in q[1:]:
            if not _same(p, pts[-1], scale):
                pts.append(p)
        if len(pts) > 1 and _same(pts[0], pts[-1], scale):
            pts.pop()
        m = len(pts)
        if m < 3:
            continue
        bad = False
        for t in range(m):
            a, b, c = pts[t - 1], pts[t], pts[(t + 1) % m]
            lab = math.hypot(b[0] - a[0], b[1] - a[1])
            lbc = math.hypot(c[0] - b[0], c[1] - b[1])
            turn = cross(a, b, c)
            if turn < -EPS * max(lab * lbc, (scale * EPS) ** 2):
                bad = True
                break
            dot = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1])
            if abs(turn) <= EPS * lab * lbc and dot < 0:  # a U-turn: one edge walked back
                bad = True
                break
        if bad:
            raise ValueError(f"portals {k} and {k + 1} cross or are in the wrong order "
                             f"(is left/right swapped in one of them?): the corridor between "
                             f"them must run right{k} -> right{k + 1} -> left{k + 1} -> "
                             f"left{k} counter-clockwise")
    return arr


# -- the funnel -----------------------------------------------------------------------------
#: How a tested portal end relates to the funnel it is tested against.
END_CLASSES = {
    "opens": N_("sets the {side} edge, which had shrunk onto the apex (the funnel had just "
                "opened there)"),
    "inside": N_("lies inside the funnel, so the {side} edge moves in to it"),
    "on_line": N_("lies on the {side} edge's line, so the edge keeps its direction and now "
                  "ends there"),
    "same": N_("is the point the {side} edge already ends on: nothing changes on the {side}"),
    "outside": N_("lies outside the funnel on the {side}: it would widen the funnel, so it is "
                  "ignored and the {side} edge stays"),
    "at_apex": N_("is the apex itself: it sets no limit on the {side}"),
    "across": N_("lies across the {other} edge: no straight line from the apex passes between "
                 "the two edges any more"),
    "not_tested": N_("is not tested: a corner was fixed first"),
}
#: The words "left" and "right" as the step sentences put them into END_CLASSES.
SIDE_WORDS = {"left": N_("left"), "right": N_("right")}


def _end_class_text(kind: str, side: str) -> str:
    """What a tested portal end did (``kind``, a key of :data:`END_CLASSES`) on ``side``
    ("left" or "right"), in the learner's language."""
    kind = check.option(kind, "kind", list(END_CLASSES))
    side = check.option(side, "side", ["left", "right"])
    other = "right" if side == "left" else "left"
    return _(END_CLASSES[kind]).format(side=_(SIDE_WORDS[side]), other=_(SIDE_WORDS[other]))


@dataclass(frozen=True, slots=True)
class FunnelStep:
    """One portal visit of the funnel algorithm, for a learner to walk through.

    ``portal`` indexes the caller's portal list; ``len(portals)`` stands for the goal, -1 for
    the opening step. ``tested`` is the portal ``(left, right)`` that was looked at;
    ``right_end`` and ``left_end`` say how each of its ends related to the funnel when it was
    tested (a key of :data:`END_CLASSES`; the right end is tested first, the left end against
    the funnel as the right end left it). ``apex``, ``left`` and ``right`` are the funnel
    *after* the visit; ``left_portal`` and ``right_portal`` name the portals the edge points
    are ends of (same numbering). After a corner, ``restart`` is the portal the scan goes on
    from (the one after the corner's own portal), else -2.

    ``corners`` is the path fixed so far, start first (the goal is added at the last step);
    ``n_corners`` counts its bends, start and goal excluded. Steps share one list of
    corners, so a trace takes memory in proportion to the corridor.
    """

    portal: int
    tested: tuple[tuple[float, float], tuple[float, float]]
    apex: tuple[float, float]
    left: tuple[float, float]
    right: tuple[float, float]
    event: str
    right_end: str = ""
    left_end: str = ""
    left_portal: int = -1
    right_portal: int = -1
    restart: int = -2
    goal_index: int = 0
    _path: list = field(default_factory=list, repr=False, compare=False)
    _n: int = 0

    @property
    def corners(self) -> tuple[tuple[float, float], ...]:
        return tuple(self._path[:self._n])

    @property
    def n_corners(self) -> int:
        """Bends fixed so far: corners without the start and (at the last step) the goal."""
        return max(self._n - (2 if self.event == "goal" else 1), 0)

    @property
    def text(self) -> str:
        """What this step did, in one or two sentences that the geometry makes true."""
        return step_text(self)


def _where(k: int, goal_index: int) -> str:
    if k < 0:
        return _("the start")
    if k >= goal_index:
        return _("the goal")
    return _("portal {k}").format(k=k)


def _end_of(k: int, goal_index: int, side: str) -> str:
    """``side``'s end of portal ``k`` (the start or the goal when it is one of those)."""
    if k < 0 or k >= goal_index:
        return _where(k, goal_index)
    return (_("the left end of portal {k}") if side == "left" else
            _("the right end of portal {k}")).format(k=k)


def step_text(s: FunnelStep) -> str:
    """The sentence for one step (see :class:`FunnelStep`)."""
    if not isinstance(s, FunnelStep):
        raise ValueError(f"step_text needs a FunnelStep (from funnel_steps), got "
                         f"{type(s).__name__}")
    if s.event == "start":
        return _("The funnel opens at the start: apex, left edge and right edge all sit on it.")
    goal = s.goal_index
    if s.portal >= goal:  # the goal is tested as a portal whose two ends are the goal
        if s.event == "goal":
            return _("The goal {p} lies inside the funnel (or on an edge): a straight line "
                     "from the apex reaches it. Done.").format(p=_fmt(s.tested[0]))
        template = (_("The goal {p} lies across the left edge: the line from the apex to it "
                      "would cut through the wall. The left edge's end {apex} becomes corner "
                      "{n}; the apex moves there and the scan restarts from {restart}.")
                    if s.event == "corner_left" else
                    _("The goal {p} lies across the right edge: the line from the apex to it "
                      "would cut through the wall. The right edge's end {apex} becomes corner "
                      "{n}; the apex moves there and the scan restarts from {restart}."))
        return template.format(p=_fmt(s.tested[0]), apex=_fmt(s.apex), n=s.n_corners,
                               restart=_where(s.restart, goal))
    (pl, pr) = s.tested
    right = _("Portal {portal}: its right end {p} {does}").format(
        portal=s.portal, p=_fmt(pr), does=_end_class_text(s.right_end, "right"))
    if s.event == "corner_left":
        return right + _(". The left edge's end {apex} ({which}) becomes corner {n}; the apex "
                         "moves there, both edges restart on it, and the scan restarts from "
                         "{restart}.").format(
            apex=_fmt(s.apex), which=_end_of(s.left_portal, goal, "left"), n=s.n_corners,
            restart=_where(s.restart, goal))
    text = right + _("; its left end {p} {does}.").format(
        p=_fmt(pl), does=_end_class_text(s.left_end, "left"))
    if s.event == "corner_right":
        return text + _(" The right edge's end {apex} ({which}) becomes corner {n}; the apex "
                        "moves there, both edges restart on it, and the scan restarts from "
                        "{restart}.").format(
            apex=_fmt(s.apex), which=_end_of(s.right_portal, goal, "right"), n=s.n_corners,
            restart=_where(s.restart, goal))
    if s.event == "keep":
        text += _(" Nothing narrows at this step, so the funnel stays as it was.")
    return text


def crossing(prev: FunnelStep, s: FunnelStep):
    """For a corner step ``s`` (``prev`` the step before it): the funnel its crossing end
    was tested against, as ``(apex, left, right)``, the end that crossed, and the side of
    the edge it crossed ("left" or "right"). The right end is tested first, so a left end
    that crosses meets the right edge as the right end left it. None for any other step."""
    if not (isinstance(prev, FunnelStep) and isinstance(s, FunnelStep)):
        raise ValueError("crossing needs two consecutive FunnelSteps (from funnel_steps)")
    if not s.event.startswith("corner"):
        return None
    (pl, pr) = s.tested
    if s.event == "corner_left":   # the right end lies across the left edge
        return (prev.apex, prev.left, prev.right), pr, "left"
    moved = s.right_end in _MOVED or s.right_end == "at_apex"
    right = pr if moved else prev.right
    return (prev.apex, prev.left, right), pl, "right"


def _pt(p) -> tuple[float, float]:
    return (float(p[0]), float(p[1]))


def _fmt(p) -> str:
    return f"({p[0]:.3g}, {p[1]:.3g})"


def _prepare(start, goal, portals, validated: bool = False):
    s = _point(start, "start")
    g = _point(goal, "goal")
    if isinstance(portals, list | tuple | np.ndarray) and len(portals) > MAX_PORTALS:
        raise ValueError(f"the funnel takes at most {MAX_PORTALS:,} portals, got "
                         f"{len(portals):,}: split the corridor or use fewer portals")
    arr = portals if validated else validate_portals(portals)
    if len(arr):
        # how far beyond the portal's line the point is, against the size of the triangle
        # it makes with the portal (not its distance from the origin)
        l0, r0 = arr[0]
        if _beyond(s, r0, l0):
            raise ValueError("the start is beyond the first portal (or that portal has left "
                             "and right swapped): the start must be in the first polygon")
        ln, rn = arr[-1]
        if _beyond(g, ln, rn):
            raise ValueError("the goal is before the last portal (or that portal has left and "
                             "right swapped): the goal must be in the last polygon")
    # A start lying on the first portal(s) has already reached them: they constrain nothing,
    # and keeping them would open a half-plane funnel that rounding can tip over 180 degrees.
    first, last = 0, len(arr)
    while first < last and _on_segment(s, arr[first]):
        first += 1
    while last > first and _on_segment(g, arr[last - 1]):
        last -= 1
    pts = [(_pt(s), _pt(s))] + [(_pt(lr[0]), _pt(lr[1])) for lr in arr[first:last]] + \
        [(_pt(g), _pt(g))]
    index = [-1] + list(range(first, last)) + [len(arr)]
    return pts, index


def _point(value, name: str) -> np.ndarray:
    try:
        return check.point(value, name)
    except ValueError as exc:
        if "NaN" in str(exc):
            raise ValueError(f"{name} contains NaN or infinity") from None
        raise ValueError(f"{name} must be a 2D point (x, y): {exc}") from None


def _beyond(p, a, b) -> bool:
    """Is p on the right of the line a -> b by more than the rounding of that test?"""
    with np.errstate(over="ignore", invalid="ignore"):
        c = cross(p, a, b) if np.isfinite(p - a).all() and np.isfinite(p - b).all() else None
    if c is None or not math.isfinite(c):
        raise ValueError("the start or goal is too far from the portals to compare (overflow)")
    width = math.hypot(b[0] - a[0], b[1] - a[1])
    if width == 0.0:
        return False
    return c / width < -check.tolerance(np.array([p, a, b]), EPS)


def _on_segment(p, portal, rel: float = 1e-9) -> bool:
    """Is point p on the portal segment (within a small relative tolerance)?"""
    a, b = portal[0], portal[1]
    d = b - a
    ll = float(d @ d)
    tol = check.tolerance(np.array([a, b, p]), rel)  # the points' own size, not the origin's
    if ll == 0.0:
        return bool(np.hypot(*(p - a)) <= tol)
    t = float((p - a) @ d) / ll
    if t < -rel or t > 1 + rel:
        return False
    return abs(cross(a, b, p)) <= tol * math.sqrt(ll)


def _run(start, goal, portals, trace: list | None, validated: bool = False):
    pts, index = _prepare(start, goal, portals, validated)
    n = len(pts)
    goal_index = index[-1]
    apex = pts[0][0]
    apex_i = 0
    edge = [apex, apex]     # where the right (0) and the left (1) edge of the funnel end
    edge_i = [0, 0]         # the entries of pts those ends come from
    path = [apex]
    if trace is not None:
        trace.append(FunnelStep(-1, (apex, apex), apex, apex, apex, "start",
                                goal_index=goal_index, _path=path, _n=1))
    i = 1
    while i < n:
        corner = None
        ends = ["not_tested", "not_tested"]
        for k in (0, 1):    # the right end first, the left end against the funnel it left
            p = pts[i][1 - k]
            end = ends[k] = _classify_end(apex, edge[k], edge[1 - k], p, _SIGN[k])
            if end == "across":  # it crossed over the other edge, whose end is a corner
                corner = _CORNER[k]
                apex, apex_i = edge[1 - k], edge_i[1 - k]
                break
            if end != "outside":
                edge_i[k] = i
                if end != "same":
                    edge[k] = p
        right_end, left_end = ends
        if corner is not None:
            path.append(apex)
            edge[0] = edge[1] = apex
            edge_i[0] = edge_i[1] = apex_i
            if trace is not None:
                trace.append(FunnelStep(index[i], pts[i], apex, apex, apex, corner,
                                        right_end, left_end, index[apex_i], index[apex_i],
                                        index[apex_i + 1], goal_index, path, len(path)))
            i = apex_i + 1  # rescan from the portal after the new apex
            continue
        if i == n - 1:
            if pts[i][0] != path[-1] or len(path) == 1:
                path.append(pts[i][0])
            event = "goal"
        elif trace is None:
            i += 1
            continue
        else:
            event = _narrowing(right_end, left_end)
        if trace is not None:
            trace.append(FunnelStep(index[i], pts[i], apex, edge[1], edge[0], event,
                                    right_end, left_end, index[edge_i[1]], index[edge_i[0]],
                                    -2, goal_index, path, len(path)))
        i += 1
    return np.asarray(path, dtype=float)


#: Per side, right (0) then left (1): the sign that turns "left of" into "right of", and the
#: corner an end that crosses the other edge makes.
_SIGN = (1.0, -1.0)
_CORNER = ("corner_left", "corner_right")
_MOVED = ("inside", "on_line", "opens")


def _narrowing(right_end: str, left_end: str) -> str:
    """The event of a step that fixed no corner, from how its two ends were classed."""
    moved_r, moved_l = right_end in _MOVED, left_end in _MOVED
    return ("narrow_both" if moved_l and moved_r else "narrow_left" if moved_l
            else "narrow_right" if moved_r else "keep")


def _classify_end(apex, mine, other, p, sign: float) -> str:
    """How portal end ``p`` relates to the funnel (a key of :data:`END_CLASSES`), for the
    side whose edge runs from ``apex`` to ``mine``; ``other`` ends the opposite edge.
    ``sign`` is +1 for the right side and -1 for the left: it turns "left of" into "right
    of", so both sides are one test."""
    if apex == mine:
        return "at_apex" if p == apex else "opens"
    if p == mine:
        return "same"
    side = sign * cross(apex, mine, p)
    if side < 0.0:
        return "outside"
    c = sign * cross(apex, other, p)
    if apex == other or c < 0.0 or (c == 0.0 and _not_beyond(apex, other, p)):
        return "inside" if side > 0.0 else "on_line"
    return "across"


def _not_beyond(apex, edge, p) -> bool:
    """For p on the line through apex and edge: does p keep the funnel open?

    True when p is on the edge's ray no farther than the edge point (the funnel narrows to
    a line), or on the opposite ray: then the funnel is a half-plane (the apex lies on a
    portal) and p is on its other boundary, which crosses nothing.
    """
    ex, ey = edge[0] - apex[0], edge[1] - apex[1]
    if ex == 0.0 and ey == 0.0:
        return False  # the edge has collapsed onto the apex: restart the funnel there
    px, py = p[0] - apex[0], p[1] - apex[1]
    dot = ex * px + ey * py
    return dot <= 0.0 or px * px + py * py <= ex * ex + ey * ey


def funnel(start, goal, portals) -> np.ndarray:
    """Shortest path from ``start`` to ``goal`` through ``portals``: an (N, 2) array.

    This is the restarting ("simple stupid") funnel: after a corner it rescans from the
    portal after the new apex. On ordinary corridors each portal is visited about twice
    (measured in the benchmark); contrived corridors can make it rescan more.

    The path starts at ``start``, ends at ``goal`` and bends only at portal end points.
    Portals are validated (see :func:`validate_portals`); a start beyond the first portal or a
    goal before the last one is a ValueError, and so are more than :data:`MAX_PORTALS`
    (100,000) portals. To check that the start lies *inside* the first
    polygon, use :func:`corridor_path`, which has the polygons.
    """
    return _run(start, goal, portals, None)


def funnel_steps(start, goal, portals) -> list[FunnelStep]:
    """The same run as :func:`funnel`, one :class:`FunnelStep` per portal visit (at most
    :data:`MAX_PORTALS` portals, as there)."""
    steps: list[FunnelStep] = []
    _run(start, goal, portals, steps)
    return steps


def path_from_steps(steps: list[FunnelStep]) -> np.ndarray:
    """The finished path of a trace: the corners of its last step (start ... goal)."""
    if not isinstance(steps, list | tuple) or (steps and not isinstance(steps[-1], FunnelStep)):
        raise ValueError(f"steps must be the list funnel_steps returns, got {steps!r:.60}")
    if not steps or steps[-1].event != "goal":
        raise ValueError("the trace is unfinished: its last step must be the 'goal' step")
    return np.asarray(steps[-1].corners, dtype=float)


def portal_midpoint_path(start, goal, portals) -> np.ndarray:
    """The naive zigzag: start, the middle of every portal, goal."""
    s, g = _point(start, "start"), _point(goal, "goal")
    arr = _as_portals(portals)
    if arr.ndim != 3 or arr.shape[1:] != (2, 2) or not np.isfinite(arr).all():
        arr = validate_portals(portals)
    mids = 0.5 * arr[:, 0] + 0.5 * arr[:, 1]  # halves first: no overflow near 1e308
    return np.vstack([s[None], mids.reshape(-1, 2), g[None]])


# -- agent radius ---------------------------------------------------------------------------
def shrink_portals(portals, radius: float) -> np.ndarray:
    """Pull each portal's ends in by ``radius`` along the portal.

    An approximation: the path's corners end up ``radius`` from the wall corner *along the
    portal*, but the pieces next to a corner can pass closer than ``radius`` to it. Raises
    :class:`CorridorTooNarrow` for the first portal narrower than ``2 * radius``.
    """
    arr = validate_portals(portals)
    r = check.length(radius, "the radius", allow_zero=True)
    if r == 0 or not len(arr):
        return arr.copy()
    d = arr[:, 1] - arr[:, 0]
    width = np.hypot(d[:, 0], d[:, 1])
    too = np.nonzero(width < 2 * r * (1 - 1e-12))[0]
    if len(too):
        k = int(too[0])
        raise CorridorTooNarrow(k, float(width[k]), r)
    u = d / np.where(width > 0, width, 1.0)[:, None]
    out = arr.copy()
    out[:, 0] += r * u
    out[:, 1] -= r * u
    # a portal exactly 2r wide becomes a single point
    exact = width <= 2 * r
    out[exact, 0] = out[exact, 1] = arr[exact].mean(axis=1)
    return out


def push_corners(path, radius: float) -> np.ndarray:
    """Move each corner of a finished path ``radius`` away from the wall it bends round:
    along the bisector of its turn, to the outside (the side away from the obstacle, which
    a shortest path always has on the inside of its turn). Start, goal and points where
    the path goes straight on stay.

    The common game-engine trick, and blind: it looks at the path only, so the straight
    pieces next to a pushed corner can still pass closer than ``radius``, and a pushed
    corner can land in another wall (measure with :func:`path_clearance`).
    """
    p = check.array(path, "path", (None, 2), min_rows=2)
    r = check.length(radius, "the radius", allow_zero=True)
    out = p.copy()
    if r == 0 or len(p) < 3:
        return out
    d_in, d_out = p[1:-1] - p[:-2], p[2:] - p[1:-1]
    n_in, n_out = np.hypot(*d_in.T), np.hypot(*d_out.T)
    ok = (n_in > 0) & (n_out > 0)                 # a repeated point turns nowhere
    u, v = np.zeros_like(d_in), np.zeros_like(d_out)
    u[ok], v[ok] = d_in[ok] / n_in[ok, None], d_out[ok] / n_out[ok, None]
    away = u - v                                  # the outside of the turn
    size = np.hypot(*away.T)
    turning = size > 1e-12
    out[1:-1][turning] += r * away[turning] / size[turning][:, None]
    return out


def corridor_walls(polygons) -> np.ndarray:
    """The corridor's boundary edges that are walls (not portals): an (M, 2, 2) array."""
    polys = [check_polygon(p, i) for i, p in enumerate(_sequence(polygons, 'polygons'))]
    shared = set()
    for i in range(len(polys) - 1):
        left, right = _shared_edge(polys[i], polys[i + 1], i, i + 1)
        shared.add((i, _key(right), _key(left)))
        shared.add((i + 1, _key(left), _key(right)))
    walls = []
    for i, p in enumerate(polys):
        for k in range(len(p)):
            a, b = p[k], p[(k + 1) % len(p)]
            if (i, _key(a), _key(b)) not in shared:
                walls.append((a, b))
    return np.asarray(walls, dtype=float).reshape(-1, 2, 2)


def _key(p) -> tuple[float, float]:
    return (round(float(p[0]), 9), round(float(p[1]), 9))


def _point_segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points p (K,2) to segments a-b (M,2): a (K, M) array."""
    ab = b - a
    ll = np.einsum("ij,ij->i", ab, ab)
    ap = p[:, None, :] - a[None, :, :]
    t = np.einsum("kmj,mj->km", ap, ab) / np.where(ll > 0, ll, 1.0)
    t = np.clip(t, 0.0, 1.0)
    closest = a[None] + t[..., None] * ab[None]
    return np.hypot(*(p[:, None, :] - closest).transpose(2, 0, 1))


def path_clearance(path, walls) -> float:
    """Smallest distance between the path (a polyline) and any wall segment (``math.inf``
    when there are no walls).

    Its work is (path points) x (walls): both are input sizes.
    """
    p = check.array(path, "path", (None, 2), min_rows=1)
    w = check.array(walls, "walls", (None,), ravel=True)
    if len(w) % 4:
        raise ValueError(f"walls must be an (M, 2, 2) array of segments, got {np.shape(walls)}")
    w = w.reshape(-1, 2, 2)
    if len(w) == 0:
        return math.inf
    a, b = w[:, 0], w[:, 1]
    if len(p) == 1:
        return float(_point_segment_distance(p, a, b).min())
    s0, s1 = p[:-1], p[1:]
    # the minimum distance between two segments is reached at an end point of one of them,
    # unless they cross
    d1 = _point_segment_distance(np.vstack([s0, s1[-1:]]), a, b).min()
    d2 = min(_point_segment_distance(a, s0, s1).min(), _point_segment_distance(b, s0, s1).min())
    best = float(min(d1, d2))
    # crossing test: proper intersections mean distance 0
    c1 = _cross_many(s0[:, None], s1[:, None], a[None])
    c2 = _cross_many(s0[:, None], s1[:, None], b[None])
    c3 = _cross_many(a[None], b[None], s0[:, None])
    c4 = _cross_many(a[None], b[None], s1[:, None])
    if ((c1 * c2 < 0) & (c3 * c4 < 0)).any():
        return 0.0
    return best


def _cross_many(a, b, c):
    return (b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1]) - \
        (c[..., 0] - a[..., 0]) * (b[..., 1] - a[..., 1])


# -- corridors given as polygons ------------------------------------------------------------
def point_in_polygon(point, poly, tol: float = 1e-9) -> bool:
    """True when ``point`` is inside ``poly`` or within ``tol`` of its boundary.

    ``poly`` is any simple polygon, its vertices in either order, convex or not. A polygon
    whose edges cross (a bow tie) has no inside and is refused, as are repeated vertices
    and one with no area. The geometry is moved to the polygon's first vertex and scaled by
    its size first, so far from the origin or at any scale it is judged the same.
    """
    p = check.array(poly, "poly", (None, 2), min_rows=3)
    q = _point(point, "point")
    tol = check.length(tol, "tol", allow_zero=True)
    size = check.extent(p)
    if not math.isfinite(size):
        raise ValueError("poly is too large to measure (its size overflows): scale it down")
    if size == 0.0:
        raise ValueError("poly repeats a vertex: remove the duplicate")
    a = (p - p[0]) / size
    b = np.roll(a, -1, axis=0)
    e = b - a
    lens = np.hypot(e[:, 0], e[:, 1])
    rel = check.tolerance(p, EPS, size) / size
    if (lens <= rel).any():
        raise ValueError("poly repeats a vertex: remove the duplicate")
    far = a[int(np.argmax(np.hypot(a[:, 0], a[:, 1])))]
    off_line = np.abs(a[:, 0] * far[1] - a[:, 1] * far[0]) / math.hypot(*far)
    if off_line.max() <= rel:
        raise ValueError("poly has no area (all its vertices are on one line)")
    if _edges_cross(a, b):
        raise ValueError("poly crosses itself (a bow tie has no inside): give a simple "
                         "polygon, its edges meeting only at shared vertices")
    with np.errstate(over="ignore"):
        x = (q - p[0]) / size
    if not np.isfinite(x).all():  # a point that far from a finite polygon is outside it
        return False
    near = float(_point_segment_distance(x[None], a, b).min())
    if near * size <= tol or near <= rel:
        return True
    # crossing number: a ray to +x crosses the boundary an odd number of times from inside
    up = (a[:, 1] > x[1]) != (b[:, 1] > x[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        at = a[:, 0] + (x[1] - a[:, 1]) * e[:, 0] / e[:, 1]
    return bool(np.count_nonzero(up & (at > x[0])) % 2)


def _edges_cross(a: np.ndarray, b: np.ndarray) -> bool:
    """Do two edges a[i]-b[i] of a closed polygon that are not neighbours meet?"""
    n = len(a)
    if n < 4:
        return False
    c1 = _cross_many(a[:, None], b[:, None], a[None])   # [i, j]: edge j's ends seen
    c2 = _cross_many(a[:, None], b[:, None], b[None])   # from edge i's line
    sides = c1 * c2
    meet = (sides <= 0) & (sides.T <= 0)
    # on one line: they meet only if their extents overlap
    collinear = (c1 == 0) & (c2 == 0)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    overlap = ((lo[:, None] <= hi[None]) & (lo[None] <= hi[:, None])).all(axis=-1)
    meet &= ~collinear | overlap
    i, j = np.triu_indices(n, 1)
    apart = (j - i > 1) & ~((i == 0) & (j == n - 1))   # not sharing a vertex
    return bool(meet[i[apart], j[apart]].any())


def _inside_convex(q: np.ndarray, p: np.ndarray, tol: float = 1e-9) -> bool:
    """:func:`point_in_polygon` for a polygon already checked to be convex and
    counter-clockwise (:func:`check_polygon`, a navmesh's polygons): ``q`` left of (or
    within ``tol`` of) every edge. No argument checks: the fast path for loops."""
    e = np.roll(p, -1, axis=0) - p
    c = e[:, 0] * (q[1] - p[:, 1]) - e[:, 1] * (q[0] - p[:, 0])
    return bool((c >= -tol * np.maximum(1.0, np.hypot(e[:, 0], e[:, 1]))).all())


def corridor_path(start, goal, polygons, radius: float = 0.0) -> np.ndarray:
    """Funnel path through a corridor given as polygons, checking start and goal are inside.

    With ``radius > 0`` the portals are shrunk first (see :func:`shrink_portals`).
    """
    polys = _check_polygons(polygons)
    if not polys:
        raise ValueError("the corridor is empty: give at least one polygon")
    if not _inside_convex(_point(start, "start"), polys[0]):
        raise ValueError(f"the start {_fmt(np.asarray(start, float))} is outside the first "
                         "polygon of the corridor")
    if not _inside_convex(_point(goal, "goal"), polys[-1]):
        raise ValueError(f"the goal {_fmt(np.asarray(goal, float))} is outside the last "
                         "polygon of the corridor")
    portals, checked = _portals_between(polys)
    radius = check.length(radius, "radius", allow_zero=True)
    if radius:
        return funnel(start, goal, shrink_portals(portals, radius))
    return _run(start, goal, checked, None, validated=True)


def strip_corridor(n_portals: int, seed: int = 0, wiggle: float = 0.8) -> list[np.ndarray]:
    """A long corridor of ``n_portals + 1`` trapezoids between vertical portals at
    x = 1, 2, ...; the centre line wanders randomly (reproducible from ``seed``), so the
    shortest path bends many times. Every piece is convex and counter-clockwise."""
    n_portals = check.integer(n_portals, "n_portals", lo=0, hi=MAX_STRIP_PORTALS)
    seed = check.integer(seed, "seed", lo=0)
    wiggle = check.length(wiggle, "wiggle", allow_zero=True, cap=1e6)
    rng = np.random.default_rng(seed)
    m = n_portals + 2  # cross-sections, the first and last close the ends
    centre = np.cumsum(rng.uniform(-wiggle, wiggle, m))
    half = rng.uniform(0.3, 1.0, m)
    bottom, top = centre - half, centre + half
    x = np.arange(m, dtype=float)
    return [np.array([(x[k], bottom[k]), (x[k + 1], bottom[k + 1]), (x[k + 1], top[k + 1]),
                      (x[k], top[k])]) for k in range(m - 1)]
