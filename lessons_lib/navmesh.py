"""A navigation mesh: convex polygons baked from the walkable floor, their adjacency, a
polygon-level A*, and the exact shortest path on the floor to compare against.

Search on the mesh answers with a *corridor*, the list of polygons to walk through; the
funnel (:mod:`lessons_lib.funnel`) then pulls the shortest line through that corridor.

The floor is a shapely polygon with holes (walls and pillars). :func:`bake_navmesh` cuts it
into convex pieces without adding vertices, so every vertex of the mesh is an obstacle
corner or a corner of the outline, as in the navmeshes game engines bake.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
import shapely.geometry

from . import validate as check
from .funnel import (
    _inside_convex,
    check_polygon,
    funnel,
    portal_midpoint_path,
    portals_from_corridor,
    shrink_portals,
)

__all__ = [
    "ARTICLE_GOAL",
    "ARTICLE_START",
    "BAD_CORRIDOR_GOAL",
    "BAD_CORRIDOR_START",
    "NavMesh",
    "NoRouteError",
    "Route",
    "bake_navmesh",
    "boundary_edges",
    "clearance",
    "erode",
    "grid_navmesh",
    "hertel_mehlhorn",
    "lesson_navmesh",
    "lesson_walkable",
    "reflex_corners",
    "segment_in_floor",
    "shortest_path",
    "turns",
    "walkable_area",
]


class NoRouteError(ValueError):
    """No corridor joins the start's polygon to the goal's."""


@dataclass
class Route:
    """Everything one query produces, from corridor to path."""

    start: np.ndarray
    goal: np.ndarray
    corridor: list[int]            # polygon indices, start polygon first
    portals: np.ndarray            # (K, 2, 2): (left, right) per portal
    path: np.ndarray               # funnel path through (possibly shrunk) portals
    midpoints: np.ndarray          # start, portal middles, goal: the naive zigzag
    radius: float = 0.0
    shrunk: np.ndarray | None = None


class NavMesh:
    """Convex counter-clockwise polygons over a shared vertex list.

    ``vertices`` is (V, 2); ``polygons`` lists each polygon as vertex indices, counter-
    clockwise. Two polygons are neighbours when they share an edge (the same two vertex
    indices, walked in opposite directions).
    """

    def __init__(self, vertices, polygons: Sequence[Sequence[int]]) -> None:
        v = check.array(vertices, "vertices", (None, 2), min_rows=1, finite=False)
        if not np.isfinite(v).all():
            raise ValueError("vertices contain NaN or infinity")
        polygons = check.items(polygons, "polygons", "vertex-index lists")
        if len(polygons) == 0:
            raise ValueError("a navmesh needs at least one polygon")
        self.vertices = v
        self.polygons: list[list[int]] = []
        for i, poly in enumerate(polygons):
            idx = [check.integer(k, f"a vertex index of polygon {i}")
                   for k in check.items(poly, f"polygon {i}", "vertex indices")]
            if any(k < 0 or k >= len(v) for k in idx):
                raise ValueError(f"polygon {i} refers to a vertex that does not exist "
                                 f"(there are {len(v)} vertices)")
            check_polygon(v[idx], i)
            self.polygons.append(idx)
        self.coords = [v[idx] for idx in self.polygons]
        self.centroids = np.array([c.mean(axis=0) for c in self.coords])
        # directed edge (a, b) -> polygon holding it counter-clockwise
        owner: dict[tuple[int, int], int] = {}
        for i, idx in enumerate(self.polygons):
            for k in range(len(idx)):
                e = (idx[k], idx[(k + 1) % len(idx)])
                if e in owner:
                    raise ValueError(f"polygons {owner[e]} and {i} both use edge {e} in the same "
                                     "direction: they overlap")
                owner[e] = i
        #: neighbours[i] = list of (j, (a, b)) where (a, b) is i's edge shared with j
        self.neighbours: list[list[tuple[int, tuple[int, int]]]] = [[] for _ in self.polygons]
        for (a, b), i in owner.items():
            j = owner.get((b, a))
            if j is not None:
                self.neighbours[i].append((j, (a, b)))
        self.bounds = (v.min(axis=0), v.max(axis=0))
        #: the walkable floor the mesh was baked from (a shapely polygon), when known
        self.free = None

    @classmethod
    def from_polygons(cls, polygons: Iterable, decimals: int = 9) -> NavMesh:
        """Build a mesh from polygons given as coordinates; equal vertices are merged."""
        decimals = check.integer(decimals, "decimals", lo=0, hi=15)
        polygons = check.items(polygons, "polygons", "(N, 2) coordinate arrays")
        index: dict[tuple[float, float], int] = {}
        verts: list[tuple[float, float]] = []
        polys = []
        for i, poly in enumerate(polygons):
            ids = []
            for x, y in check.array(poly, f"polygon {i}", (None, 2)):
                key = (round(float(x), decimals), round(float(y), decimals))
                if key not in index:
                    index[key] = len(verts)
                    verts.append((float(x), float(y)))
                ids.append(index[key])
            polys.append(ids)
        return cls(np.array(verts), polys)

    def __len__(self) -> int:
        return len(self.polygons)

    def locate(self, point) -> int | None:
        """Index of a polygon containing ``point`` (inside or on its boundary), or None."""
        try:
            p = check.point(point, "point")
        except ValueError:
            raise ValueError(f"a point must be a finite (x, y) pair, got {point!r:.60}") from None
        lo, hi = self.bounds
        slack = check.tolerance(self.vertices)  # the mesh's own size, not the origin's
        if (p < lo - slack).any() or (p > hi + slack).any():
            return None
        order = np.argsort(np.hypot(*(self.centroids - p).T))
        for i in order:
            if _inside_convex(p, self.coords[i]):
                return int(i)
        return None

    def _require(self, point, name: str) -> int:
        i = self.locate(point)
        if i is None:
            raise ValueError(f"the {name} ({point[0]:.3g}, {point[1]:.3g}) is not on the "
                             "navmesh: it is inside a wall or outside the map")
        return i

    def find_corridor(self, start, goal, blocked: Iterable[int] = ()) -> list[int]:
        """The polygons from the start's to the goal's, by A* over portal midpoints.

        A search state is "just crossed this portal into this polygon", placed at the
        portal's middle; moving on costs the straight distance to the next portal's middle
        (or to the goal), and the heuristic is the straight distance to the goal. Polygons in
        ``blocked`` are never entered (useful to show what a bad corridor costs).
        """
        s = self._point(start, "start")
        g = self._point(goal, "goal")
        ps = self._require(s, "start")
        pg = self._require(g, "goal")
        last = len(self.polygons) - 1
        blocked = {check.integer(b, "a blocked polygon index", lo=0, hi=last)
                   for b in check.items(blocked, "blocked", "polygon indices")}
        if ps in blocked or pg in blocked:
            raise NoRouteError("the start or goal polygon is blocked")
        if ps == pg:
            return [ps]
        v = self.vertices

        def dist(a, b) -> float:
            return math.hypot(a[0] - b[0], a[1] - b[1])

        # state: (polygon we are in, edge we came through) ; position = that edge's middle
        start_state = (ps, None)
        pos = {start_state: (float(s[0]), float(s[1]))}
        best = {start_state: 0.0}
        parent: dict = {start_state: None}
        heap = [(dist(s, g), 0.0, 0, start_state)]
        counter = 0
        done = set()
        while heap:
            _f, cost, _c, state = heapq.heappop(heap)
            if state in done:
                continue
            done.add(state)
            poly, _edge = state
            if poly == pg:
                corridor = []
                node = state
                while node is not None:
                    corridor.append(node[0])
                    node = parent[node]
                return corridor[::-1]
            here = pos[state]
            for j, (a, b) in self.neighbours[poly]:
                if j in blocked:
                    continue
                nxt = (j, (b, a))
                mid = ((v[a, 0] + v[b, 0]) / 2, (v[a, 1] + v[b, 1]) / 2)
                new = cost + dist(here, mid)
                if new < best.get(nxt, math.inf):
                    best[nxt] = new
                    pos[nxt] = mid
                    parent[nxt] = state
                    counter += 1
                    heapq.heappush(heap, (new + dist(mid, g), new, counter, nxt))
        raise NoRouteError("no corridor joins the start to the goal: they are in separate "
                           "parts of the map")

    def corridor_along(self, points) -> list[int]:
        """The polygons a polyline walks through, in order (a polygon left and entered again
        cuts the loop out). Raises ValueError when the polyline leaves the mesh."""
        pts = check.array(points, "points", (None, 2), min_rows=1)
        cur = self._require(pts[0], "first point")
        corridor = [cur]
        for p, q in zip(pts[:-1], pts[1:], strict=True):
            d = q - p
            for _guard in range(4 * len(self.polygons) + 4):
                if _inside_convex(q, self.coords[cur], tol=1e-12):
                    break
                poly = self.coords[cur]
                e = np.roll(poly, -1, axis=0) - poly
                outward = np.column_stack([e[:, 1], -e[:, 0]])
                speed = outward @ d
                with np.errstate(divide="ignore", invalid="ignore"):
                    t = np.where(speed > 0, ((poly - p) * outward).sum(axis=1) / speed, np.inf)
                # collinear edges share the line, so the same t: take the one holding the
                # exit point
                exit_pt = p + float(t.min()) * d
                ties = np.nonzero(t <= t.min() + 1e-9 * (1.0 + abs(float(t.min()))))[0]
                k = int(ties[np.argmin([_point_segment_gap(exit_pt, poly[m],
                                                           poly[(m + 1) % len(poly)])
                                        for m in ties])])
                ids = self.polygons[cur]
                edge = (ids[k], ids[(k + 1) % len(ids)])
                nxt = next((j for j, e2 in self.neighbours[cur] if e2 == edge), None)
                if nxt is None:
                    raise ValueError(f"the polyline leaves the mesh through a wall near "
                                     f"{tuple(np.round(p + t[k] * d, 3))}")
                cur = nxt
                if cur in corridor:
                    del corridor[corridor.index(cur) + 1:]
                else:
                    corridor.append(cur)
        return corridor

    def corridor_holding(self, path, nudge: float = 1e-6) -> list[int]:
        """The corridor that holds ``path``, a path that may bend exactly at obstacle corners
        (a funnel or visibility-graph path): each bend is nudged ``nudge`` off its corner,
        out of the turn, and :meth:`corridor_along` walks the result."""
        p = check.array(path, "path", (None, 2), min_rows=1)
        nudge = check.length(nudge, "nudge", allow_zero=True)
        q = p.copy()
        for k in range(1, len(p) - 1):
            u = p[k] - p[k - 1]
            w = p[k + 1] - p[k]
            u /= max(np.hypot(*u), 1e-300)
            w /= max(np.hypot(*w), 1e-300)
            out = u - w
            size = np.hypot(*out)
            if size > 1e-12:
                q[k] = p[k] + nudge * out / size
        return self.corridor_along(q)

    @staticmethod
    def _point(value, name: str) -> np.ndarray:
        try:
            return check.point(value, name)
        except ValueError:
            raise ValueError(f"the {name} must be a finite (x, y) pair, got {value!r:.60}") \
                from None

    def corridor_polygons(self, corridor: Sequence[int]) -> list[np.ndarray]:
        """The coordinates of the corridor's polygons, in order."""
        ids = [check.integer(i, "a corridor index", lo=0, hi=len(self.coords) - 1)
               for i in check.items(corridor, "corridor", "polygon indices")]
        return [self.coords[i] for i in ids]

    @property
    def max_radius(self) -> float:
        """Half the map's smaller side: no agent wider than that fits anywhere on it."""
        lo, hi = self.bounds
        return 0.5 * float(np.min(hi - lo))

    def route(self, start, goal, radius: float = 0.0, blocked: Iterable[int] = ()) -> Route:
        """Corridor, portals, funnel path and midpoint zigzag for one query.

        With ``radius > 0`` the funnel runs through portals shrunk by the radius; a portal
        too narrow raises :class:`~lessons_lib.funnel.CorridorTooNarrow`. ``radius`` is a
        finite number of metres, at least 0 and at most :attr:`max_radius` (half the map's
        smaller side), also when start and goal share a polygon and there is no portal.
        """
        s = self._point(start, "start")
        g = self._point(goal, "goal")
        radius = check.length(radius, "radius", allow_zero=True)
        if radius > self.max_radius:
            raise ValueError(f"radius {radius:g} m is more than half the map's smaller side "
                             f"({self.max_radius:g} m): an agent that size fits nowhere on it")
        corridor = self.find_corridor(s, g, blocked)
        portals = np.asarray(portals_from_corridor(self.corridor_polygons(corridor)),
                             dtype=float).reshape(-1, 2, 2)
        shrunk = shrink_portals(portals, radius) if radius > 0 else None
        path = funnel(s, g, shrunk if shrunk is not None else portals)
        return Route(s, g, corridor, portals, path, portal_midpoint_path(s, g, portals),
                     float(radius), shrunk)


# -- baking a navmesh from the walkable area -------------------------------------------------
def _floor(free, name: str = "free"):
    """``free`` if it is a non-empty shapely Polygon or MultiPolygon, else a ValueError."""
    if not isinstance(free, shapely.geometry.Polygon | shapely.geometry.MultiPolygon):
        raise ValueError(f"{name} must be a shapely Polygon or MultiPolygon (the walkable "
                         f"floor, e.g. from walkable_area), got {type(free).__name__}")
    if free.is_empty:
        raise ValueError(f"{name} is empty: there is no floor to walk on")
    return free


def _ring(points, name: str) -> np.ndarray:
    p = check.array(points, name, (None, 2), min_rows=3, what="x, y pairs")
    if not np.isfinite(shapely.geometry.Polygon(p).area):
        raise ValueError(f"{name} is too large to measure (its area overflows): scale it down")
    return p


def walkable_area(outer, obstacles=()):
    """The walkable floor: the polygon ``outer`` minus every polygon in ``obstacles``.

    Returns a shapely Polygon (or MultiPolygon when obstacles cut the floor in pieces),
    exterior counter-clockwise and holes clockwise.
    """
    floor = shapely.geometry.Polygon(_ring(outer, "outer"))
    if not floor.is_valid or floor.area <= 0:
        raise ValueError("the outer boundary must be a simple polygon with an area")
    obstacles = check.items(obstacles, "obstacles", "(N, 2) polygons")
    if len(obstacles):
        holes = [shapely.geometry.Polygon(_ring(o, f"obstacle {i}"))
                 for i, o in enumerate(obstacles)]
        if not all(h.is_valid for h in holes):
            raise ValueError("every obstacle must be a simple polygon (no self-crossing)")
        floor = floor.difference(shapely.union_all(holes))
    return _orient(floor)


def _pieces(free) -> list:
    if free.is_empty:
        return []
    if free.geom_type == "Polygon":
        return [free]
    if free.geom_type in ("MultiPolygon", "GeometryCollection"):
        return [g for g in free.geoms if g.geom_type == "Polygon" and not g.is_empty]
    raise ValueError(f"the walkable area must be a polygon, got a {free.geom_type}")


def hertel_mehlhorn(vertices, triangles) -> list[list[int]]:
    """Merge counter-clockwise triangles (vertex indices) into convex polygons.

    Hertel and Mehlhorn's rule: remove a diagonal (an edge shared by two pieces) whenever
    the piece it leaves behind is still convex at both ends of the diagonal. Diagonals are
    tried longest first. The result has at most four times the minimum number of convex
    pieces, and it never adds a vertex: every vertex is one of the triangles'.
    """
    v = check.array(vertices, "vertices", (None, 2), min_rows=3)
    tris = check.items(triangles, "triangles", "vertex-index triples")
    pieces: dict[int, list[int]] = {
        i: [check.integer(k, f"a vertex index of triangle {i}", lo=0, hi=len(v) - 1)
            for k in check.items(t, f"triangle {i}", "vertex indices")]
        for i, t in enumerate(tris)}
    if any(len(t) != 3 for t in pieces.values()):
        raise ValueError("every triangle must have exactly 3 vertex indices")
    owner: dict[tuple[int, int], int] = {}
    for i, t in pieces.items():
        for k in range(len(t)):
            owner[(t[k], t[(k + 1) % len(t)])] = i
    diagonals = sorted({(a, b) for (a, b) in owner if (b, a) in owner and a < b},
                       key=lambda e: -math.dist(v[e[0]], v[e[1]]))
    scale = max(1.0, float(np.abs(v).max()))
    for a, b in diagonals:
        p, q = owner.get((a, b)), owner.get((b, a))
        if p is None or q is None or p == q:
            continue
        pp, qq = pieces[p], pieces[q]
        ia, ja = pp.index(a), qq.index(a)
        # p walks ... a -> b ..., q walks ... b -> a ...: glue q's path from a round to b
        # into p in place of the edge a -> b.
        ib = (ia + 1) % len(pp)
        assert pp[ib] == b
        merged = pp[ib:] + pp[:ib]        # b ... a   (p without the edge a -> b)
        jb = qq.index(b)
        rest = qq[ja:] + qq[:ja]          # a ... b   (q from a round to b)
        assert rest[-1] == b and jb >= 0
        poly = merged + rest[1:-1]        # b ... a, then q's vertices strictly between
        n = len(poly)
        ok = True
        for idx in (n - 1 - (len(rest) - 2), 0):   # positions of a and b in poly
            prev_, here, next_ = v[poly[idx - 1]], v[poly[idx]], v[poly[(idx + 1) % n]]
            turn = (here[0] - prev_[0]) * (next_[1] - here[1]) - \
                (here[1] - prev_[1]) * (next_[0] - here[0])
            if turn < -1e-12 * scale * scale:
                ok = False
                break
        if not ok:
            continue
        del owner[(a, b)], owner[(b, a)]
        del pieces[q]
        pieces[p] = poly
        for k in range(n):
            owner[(poly[k], poly[(k + 1) % n])] = p
    return [pieces[i] for i in sorted(pieces)]


def bake_navmesh(free, merge: bool = True) -> NavMesh:
    """A navmesh baked from the walkable area ``free`` (a shapely Polygon with holes, or a
    MultiPolygon), the way engines bake theirs: a constrained Delaunay triangulation of the
    floor (shapely's ``constrained_delaunay_triangles``), its triangles merged into convex
    polygons by :func:`hertel_mehlhorn` (skip with ``merge=False``).
    ``free`` must be a non-empty shapely Polygon or MultiPolygon.

    No vertex is added: every vertex of the mesh is a corner of the floor's outline, a wall
    or a pillar, so a funnel path through it can bend only at obstacle corners. The mesh
    keeps the floor as ``mesh.free``.
    """
    free = _floor(free)
    merge = check.flag(merge, "merge")
    pieces = _pieces(free)
    if not pieces:
        raise ValueError("the walkable area is empty: nothing to bake")
    index: dict[tuple[float, float], int] = {}
    verts: list[tuple[float, float]] = []
    tris: list[list[int]] = []
    for piece in pieces:
        for tri in shapely.constrained_delaunay_triangles(piece).geoms:
            c = np.asarray(tri.exterior.coords, dtype=float)[:3]
            if (c[1, 0] - c[0, 0]) * (c[2, 1] - c[0, 1]) - \
                    (c[2, 0] - c[0, 0]) * (c[1, 1] - c[0, 1]) < 0:
                c = c[::-1]
            ids = []
            for x, y in c:
                key = (round(float(x), 9), round(float(y), 9))
                if key not in index:
                    index[key] = len(verts)
                    verts.append((float(x), float(y)))
                ids.append(index[key])
            tris.append(ids)
    polys = hertel_mehlhorn(verts, tris) if merge else tris
    mesh = NavMesh(np.array(verts), polys)
    mesh.free = free
    return mesh


def boundary_edges(free) -> np.ndarray:
    """Every edge of the floor's outline and of its holes: an (M, 2, 2) array, oriented so
    that the floor is on the left."""
    free = _floor(free)
    edges = []
    for piece in _pieces(free):
        piece = shapely.geometry.polygon.orient(piece, 1.0)
        for ring in [piece.exterior, *piece.interiors]:
            c = np.asarray(ring.coords, dtype=float)
            edges += [(c[k], c[k + 1]) for k in range(len(c) - 1)]
    return np.asarray(edges, dtype=float).reshape(-1, 2, 2)


def reflex_corners(free) -> np.ndarray:
    """The floor's reflex corners (interior angle over 180°): the corners of pillars and
    walls that poke into the floor. Shortest paths bend only there. An (K, 2) array."""
    free = _floor(free)
    out = []
    for piece in _pieces(free):
        piece = shapely.geometry.polygon.orient(piece, 1.0)
        for ring in [piece.exterior, *piece.interiors]:
            c = np.asarray(ring.coords, dtype=float)[:-1]
            prev_, next_ = np.roll(c, 1, axis=0), np.roll(c, -1, axis=0)
            turn = (c[:, 0] - prev_[:, 0]) * (next_[:, 1] - c[:, 1]) - \
                (c[:, 1] - prev_[:, 1]) * (next_[:, 0] - c[:, 0])
            out += list(c[turn < 0])
    return np.asarray(out, dtype=float).reshape(-1, 2)


def erode(free, radius: float):
    """The floor that the centre of a disc of ``radius`` may reach: ``free`` shrunk by the
    radius (what Recast does before baking). Rounded corners are approximated by polygons
    drawn *around* the true arc, so every point left is at least ``radius`` from every
    obstacle. May be a MultiPolygon (a door narrower than 2 r splits the floor) or empty."""
    free = _floor(free)
    r = check.length(radius, "the radius", allow_zero=True)
    if r == 0:
        return free
    out = free.buffer(-_eroded_reach(r), quad_segs=ERODE_QUAD_SEGS)
    return _orient(out)


#: Segments per quarter circle where :func:`erode` rounds a corner.
ERODE_QUAD_SEGS = 4


def _eroded_reach(radius: float) -> float:
    """How far :func:`erode` moves the floor's edge, so that the chords of its rounded
    corners still sit ``radius`` from the corner: ``radius / cos(pi / 16)``."""
    return radius / math.cos(math.pi / (4 * ERODE_QUAD_SEGS))


def turns(path, free, radius: float = 0.0) -> list[tuple[np.ndarray, list[int]]]:
    """The turns a person sees on ``path``: its bends (points other than start and goal)
    grouped by the obstacle corner of ``free`` they go round. A bend within reach of a
    reflex corner of ``free`` (``radius``, or the eroded floor's ``radius / cos(pi / 16)``)
    belongs to it, and consecutive bends of one corner make one turn: a path on an eroded
    floor bends at every point of a rounded corner, and shrunk portals that share a
    corner each put a bend ``radius`` from it. A bend near no corner is a turn of its own.
    Returns ``(corner, path indices of its bends)`` per turn, in path order."""
    pts = check.array(path, "path", (None, 2), min_rows=2)
    r = check.length(radius, "radius", allow_zero=True)
    corners = reflex_corners(free)
    reach = _eroded_reach(r) * (1 + 1e-6) + check.tolerance(pts, 1e-9)
    out: list[tuple[np.ndarray, list[int]]] = []
    last = None
    for i in range(1, len(pts) - 1):
        d = np.hypot(*(corners - pts[i]).T) if len(corners) else np.zeros(0)
        k = int(np.argmin(d)) if len(d) and d.min() <= reach else None
        if k is not None and k == last:
            out[-1][1].append(i)
        else:
            out.append((corners[k].copy() if k is not None else pts[i].copy(), [i]))
        last = k
    return out


def _orient(geom):
    """``geom`` with exteriors counter-clockwise and holes clockwise."""
    if geom.is_empty:
        return geom
    if geom.geom_type == "Polygon":
        return shapely.geometry.polygon.orient(geom, 1.0)
    return shapely.geometry.MultiPolygon(
        [shapely.geometry.polygon.orient(p, 1.0) for p in _pieces(geom)])


def _closest_on_segments(p, a, b):
    """For points p (K, 2) and segments a-b (M, 2): the nearest point of each segment to each
    point, (K, M, 2), and the distances (K, M)."""
    ab = b - a
    ll = np.einsum("ij,ij->i", ab, ab)
    t = np.clip(np.einsum("kmj,mj->km", p[:, None] - a[None], ab) / np.where(ll > 0, ll, 1.0),
                0.0, 1.0)
    near = a[None] + t[..., None] * ab[None]
    return near, np.hypot(*(p[:, None] - near).transpose(2, 0, 1))


def clearance(path, free) -> tuple[float, np.ndarray, np.ndarray]:
    """How close the polyline ``path`` comes to the obstacles of the floor ``free`` (walls,
    pillars and the outline; never the navmesh's own edges): the distance, the point of the
    path where it is reached and the nearest obstacle point to it."""
    pts = check.array(path, "path", (None, 2), min_rows=1)
    edges = boundary_edges(free)
    wa, wb = edges[:, 0], edges[:, 1]
    if len(pts) == 1:
        near, dist = _closest_on_segments(pts, wa, wb)
        k = int(np.argmin(dist[0]))
        return float(dist[0, k]), pts[0].copy(), near[0, k].copy()
    sa, sb = pts[:-1], pts[1:]
    best = (math.inf, pts[0], pts[0])
    near, dist = _closest_on_segments(pts, wa, wb)      # path vertices to walls
    k = np.unravel_index(int(np.argmin(dist)), dist.shape)
    best = (float(dist[k]), pts[k[0]].copy(), near[k].copy())
    ends = np.vstack([wa, wb])                           # wall ends to path pieces
    near2, dist2 = _closest_on_segments(ends, sa, sb)
    k2 = np.unravel_index(int(np.argmin(dist2)), dist2.shape)
    if dist2[k2] < best[0]:
        best = (float(dist2[k2]), near2[k2].copy(), ends[k2[0]].copy())
    cross_hits = _segments_cross_pairs(sa, sb, wa, wb)
    if cross_hits is not None:
        return 0.0, cross_hits, cross_hits.copy()
    return best


def _segments_cross_pairs(sa, sb, wa, wb):
    """The first proper crossing point of any path piece with any wall, or None."""
    d1 = _cross_rows(wa[None], wb[None], sa[:, None])
    d2 = _cross_rows(wa[None], wb[None], sb[:, None])
    d3 = _cross_rows(sa[:, None], sb[:, None], wa[None])
    d4 = _cross_rows(sa[:, None], sb[:, None], wb[None])
    hit = (d1 * d2 < 0) & (d3 * d4 < 0)
    if not hit.any():
        return None
    i, j = np.argwhere(hit)[0]
    t = d1[i, j] / (d1[i, j] - d2[i, j])
    return sa[i] + t * (sb[i] - sa[i])


# -- the exact shortest path in the floor: a visibility graph -------------------------------
def _segments_cross(p, q, a, b) -> np.ndarray:
    """Does segment p-q properly cross each segment a-b (interiors, not at end points)?"""
    d1 = _cross_rows(a, b, p)
    d2 = _cross_rows(a, b, q)
    d3 = _cross_rows(p, q, a)
    d4 = _cross_rows(p, q, b)
    return (d1 * d2 < 0) & (d3 * d4 < 0)


def _cross_rows(a, b, c):
    a, b, c = np.asarray(a, float), np.asarray(b, float), np.asarray(c, float)
    return (b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1]) - \
        (c[..., 0] - a[..., 0]) * (b[..., 1] - a[..., 1])


def _inside(points, edges, tol: float) -> np.ndarray:
    """Even-odd point in region for each point; points within ``tol`` of an edge count in."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    a, b = edges[:, 0], edges[:, 1]
    ab = b - a
    ll = np.einsum("ij,ij->i", ab, ab)
    t = np.clip(np.einsum("kmj,mj->km", p[:, None] - a[None], ab) / ll, 0.0, 1.0)
    near = (np.hypot(*(p[:, None] - (a[None] + t[..., None] * ab[None])).transpose(2, 0, 1))
            <= tol).any(axis=1)
    ya, yb = a[:, 1][None], b[:, 1][None]
    py = p[:, 1][:, None]
    straddle = (ya > py) != (yb > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        x_at = a[:, 0][None] + (py - ya) * (b[:, 0] - a[:, 0])[None] / (yb - ya)
    odd = (straddle & (x_at > p[:, 0][:, None])).sum(axis=1) % 2 == 1
    return near | odd


def segment_in_floor(p, q, edges, tol: float = 1e-9) -> bool:
    """Does the closed segment p-q stay on the floor bounded by ``edges`` (it may touch walls
    and slide along them, never pass through them)?"""
    p, q = check.point(p, "p"), check.point(q, "q")
    edges = check.array(edges, "edges", (None, 2, 2), min_rows=1)
    tol = check.length(tol, "tol", allow_zero=True)
    if _segments_cross(p, q, edges[:, 0], edges[:, 1]).any():
        return False
    # split p-q where it touches outline corners; every piece's middle must be on the floor
    d = q - p
    ll = float(d @ d)
    if ll == 0.0:
        return bool(_inside(p, edges, tol)[0])
    ends = edges[:, 0]
    t = ((ends - p) @ d) / ll
    off = np.abs((ends[:, 0] - p[0]) * d[1] - (ends[:, 1] - p[1]) * d[0]) / math.sqrt(ll)
    cuts = np.unique(np.concatenate([[0.0, 1.0], t[(off <= tol) & (t > 0) & (t < 1)]]))
    mids = p + ((cuts[:-1] + cuts[1:]) / 2)[:, None] * d
    return bool(_inside(mids, edges, tol).all())


#: Pairs tested together by :func:`_sees`, times the floor's edges: bounds its arrays (each
#: float64 array of that many numbers is 16 MB).
_PAIR_BLOCK = 2_000_000


def _sees(p: np.ndarray, q: np.ndarray, edges: np.ndarray, tol: float) -> np.ndarray:
    """For each pair ``p[k]``-``q[k]`` ((M, 2) arrays): does the segment stay on the floor?
    Vectorised over pairs and edges, in blocks: proper crossings, then the middle of each
    segment; segments that pass exactly through an outline corner get the exact test of
    :func:`segment_in_floor`."""
    step = max(1, _PAIR_BLOCK // max(1, len(edges)))
    if len(p) > step:
        return np.concatenate([_sees(p[k:k + step], q[k:k + step], edges, tol)
                               for k in range(0, len(p), step)])
    a, b = edges[:, 0][None], edges[:, 1][None]
    pp, qq = p[:, None, :], q[:, None, :]
    crossed = (_cross_rows(a, b, pp) * _cross_rows(a, b, qq) < 0) & \
        (_cross_rows(pp, qq, a) * _cross_rows(pp, qq, b) < 0)
    ok = ~crossed.any(axis=1)
    cand = np.nonzero(ok)[0]
    if not len(cand):
        return ok
    pc, d = p[cand], q[cand] - p[cand]
    ll = np.einsum("ij,ij->i", d, d)
    rel = edges[:, 0][None] - pc[:, None]               # (C, E, 2) corners relative to p
    t = np.einsum("cej,cj->ce", rel, d) / np.where(ll > 0, ll, 1.0)[:, None]
    off = np.abs(rel[..., 0] * d[:, None, 1] - rel[..., 1] * d[:, None, 0]) / \
        np.sqrt(np.where(ll > 0, ll, 1.0))[:, None]
    through = ((off <= tol) & (t > 1e-12) & (t < 1 - 1e-12)).any(axis=1)
    ok[cand] = _inside(pc + 0.5 * d, edges, tol)
    for k in np.nonzero(through)[0]:
        ok[cand[k]] = segment_in_floor(pc[k], q[cand[k]], edges, tol)
    return ok


def _visible_from(i: int, nodes: np.ndarray, edges: np.ndarray, tol: float) -> np.ndarray:
    """Which nodes the segment from node ``i`` reaches without leaving the floor."""
    ok = _sees(np.broadcast_to(nodes[i], nodes.shape), nodes, edges, tol)
    ok[i] = False
    return ok


@functools.lru_cache(maxsize=32)  # lesson 4 asks for one floor per agent radius (19)
def _floor_graph(wkb: bytes):
    """Outline edges, reflex corners and which corners see each other, for one floor (the
    part of the visibility graph that does not depend on start and goal)."""
    free = shapely.from_wkb(wkb)
    edges = boundary_edges(free)
    corners = reflex_corners(free)
    tol = 1e-9 * max(1.0, float(np.abs(edges).max()))
    sees = np.zeros((len(corners), len(corners)), dtype=bool)
    i, j = np.triu_indices(len(corners), k=1)          # every pair once, all at once
    sees[i, j] = _sees(corners[i], corners[j], edges, tol)
    return edges, corners, sees | sees.T, tol


def prepare_shortest_paths(free) -> None:
    """Build (and keep) the part of :func:`shortest_path`'s graph that depends on the floor
    alone, so that the first query on ``free`` costs no more than the next ones."""
    _floor_graph(_floor(free).wkb)


def shortest_path(free, start, goal) -> np.ndarray:
    """The exact shortest path from ``start`` to ``goal`` on the floor ``free``: Dijkstra over
    the visibility graph of start, goal and the reflex corners. An (N, 2) array, start and
    goal included. Raises :class:`NoRouteError` when no path exists. The corner-to-corner
    part of the graph is kept for each floor, so only start and goal are new per query."""
    edges, corners, sees, tol = _floor_graph(_floor(free).wkb)
    s, g = NavMesh._point(start, "start"), NavMesh._point(goal, "goal")
    for name, p in (("start", s), ("goal", g)):
        if not _inside(p, edges, tol)[0]:
            raise ValueError(f"the {name} ({p[0]:.3g}, {p[1]:.3g}) is not on the floor")
    nodes = np.vstack([s, g, corners])
    n = len(nodes)
    adj = np.zeros((n, n), dtype=bool)
    adj[2:, 2:] = sees
    adj[0] = _visible_from(0, nodes, edges, tol)
    adj[1] = _visible_from(1, nodes, edges, tol)
    adj[:, 0], adj[:, 1] = adj[0], adj[1]
    dist = np.hypot(nodes[:, None, 0] - nodes[None, :, 0], nodes[:, None, 1] - nodes[None, :, 1])
    best = np.full(n, math.inf)
    parent = np.full(n, -1)
    best[0] = 0.0
    done = np.zeros(n, dtype=bool)
    while True:
        open_ = np.where(done, math.inf, best)
        i = int(np.argmin(open_))
        if not math.isfinite(open_[i]):
            break
        done[i] = True
        if i == 1:
            break
        new = best[i] + dist[i]
        better = adj[i] & ~done & (new < best)
        best[better] = new[better]
        parent[better] = i
    if not done[1]:
        raise NoRouteError("no path joins the start to the goal: they are in separate parts "
                           "of the floor")
    path = [1]
    while path[-1] != 0:
        path.append(int(parent[path[-1]]))
    return nodes[path[::-1]]


def _point_segment_gap(p, a, b) -> float:
    ab = b - a
    t = float(np.clip((p - a) @ ab / max(float(ab @ ab), 1e-300), 0.0, 1.0))
    return float(np.hypot(*(p - a - t * ab)))


def grid_navmesh(xs: Sequence[float], ys: Sequence[float], walkable,
                 triangulate=None) -> NavMesh:
    """A mesh from a rectilinear grid of cells (``walkable[j, i]`` for the cell between
    ``xs[i], xs[i+1]`` and ``ys[j], ys[j+1]``). ``triangulate(i, j)`` returns 0 to keep the
    cell a rectangle, 1 or 2 to split it along one diagonal or the other.

    Cells sharing a grid line share whole edges, so the mesh is conforming by construction.
    """
    xs = check.array(xs, "xs", (None,), min_rows=2)
    ys = check.array(ys, "ys", (None,), min_rows=2)
    try:
        raw = np.asarray(walkable)
    except (TypeError, ValueError):
        raise ValueError("walkable must be a 2D array of booleans (True = walkable)") from None
    if raw.dtype != bool and not (raw.dtype.kind in "iuf" and np.isin(raw, (0, 1)).all()):
        raise ValueError(f"walkable must be a 2D array of booleans (True = walkable), got "
                         f"elements of type {raw.dtype}")
    w = raw.astype(bool)
    if triangulate is not None and not callable(triangulate):
        raise ValueError("triangulate must be a function (i, j) -> 0, 1 or 2, or None")
    if w.shape != (len(ys) - 1, len(xs) - 1):
        raise ValueError(f"walkable must have shape (len(ys) - 1, len(xs) - 1) = "
                         f"{(len(ys) - 1, len(xs) - 1)}, got {w.shape}")
    if (np.diff(xs) <= 0).any() or (np.diff(ys) <= 0).any():
        raise ValueError("xs and ys must be strictly increasing")
    polys = []
    for j in range(len(ys) - 1):
        for i in range(len(xs) - 1):
            if not w[j, i]:
                continue
            a = (xs[i], ys[j])
            b = (xs[i + 1], ys[j])
            c = (xs[i + 1], ys[j + 1])
            d = (xs[i], ys[j + 1])
            kind = triangulate(i, j) if triangulate else 0
            if isinstance(kind, bool) or kind not in (0, 1, 2):
                raise ValueError(f"triangulate({i}, {j}) returned {check.describe(kind)}: it must "
                                 "give 0 "
                                 "(keep the rectangle), 1 or 2 (split along a diagonal)")
            if kind == 1:
                polys += [[a, b, c], [a, c, d]]
            elif kind == 2:
                polys += [[a, b, d], [b, c, d]]
            else:
                polys.append([a, b, c, d])
    return NavMesh.from_polygons(polys)


#: The lesson's map (metres): a 16 m x 10 m hall, a wall across it at x = 7 ... 8 with two
#: doors (y = 2 ... 3.5 and 6.5 ... 8, each 1.5 m wide), a pillar in each room.
LESSON_OUTER = ((0.0, 0.0), (16.0, 0.0), (16.0, 10.0), (0.0, 10.0))
LESSON_OBSTACLES = (
    ((3.0, 3.5), (4.5, 3.5), (4.5, 6.5), (3.0, 6.5)),       # left pillar
    ((7.0, 0.0), (8.0, 0.0), (8.0, 2.0), (7.0, 2.0)),       # wall below the lower door
    ((7.0, 3.5), (8.0, 3.5), (8.0, 6.5), (7.0, 6.5)),       # wall between the doors
    ((7.0, 8.0), (8.0, 8.0), (8.0, 10.0), (7.0, 10.0)),     # wall above the upper door
    ((11.0, 2.0), (12.5, 2.0), (12.5, 6.5), (11.0, 6.5)),   # right pillar
)


#: A* over polygon midpoints picks the corridor left of the right pillar; the shortest path
#: goes right of it (the article's last section: smoothing cannot repair the choice).
BAD_CORRIDOR_START = (11.7, 0.8)
BAD_CORRIDOR_GOAL = (12.4, 6.9)

#: The article's funnel case on the lesson map: a corridor of 7 portals that the funnel crosses
#: with 3 corners, 21% shorter than the portal-midpoint zigzag.
ARTICLE_START = (14.8, 0.8)
ARTICLE_GOAL = (2.2, 7.2)


def lesson_walkable():
    """The lesson map's floor: a shapely polygon whose holes are the pillars and the wall
    between the doors (the wall's ends join the outline)."""
    return walkable_area(LESSON_OUTER, LESSON_OBSTACLES)


def lesson_navmesh() -> NavMesh:
    """The navmesh the lesson walks through: :func:`lesson_walkable` baked by
    :func:`bake_navmesh`, every vertex an obstacle corner or a corner of the hall."""
    return bake_navmesh(lesson_walkable())
