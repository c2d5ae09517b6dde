"""A small navigation mesh: convex polygons, their adjacency, and a polygon-level A*.

Search on the mesh answers with a *corridor*, the list of polygons to walk through; the
funnel (:mod:`lessons_lib.funnel`) then pulls the shortest line through that corridor.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from . import validate as check
from .funnel import (
    check_polygon,
    funnel,
    point_in_polygon,
    portal_midpoint_path,
    portals_from_corridor,
    shrink_portals,
)

__all__ = ["NavMesh", "NoRouteError", "Route", "grid_navmesh", "lesson_navmesh"]


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
            if point_in_polygon(p, self.coords[i]):
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
        blocked = {check.integer(b, "a blocked polygon index")
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
                raise ValueError(f"triangulate({i}, {j}) returned {kind!r}: it must give 0 "
                                 "(keep the rectangle), 1 or 2 (split along a diagonal)")
            if kind == 1:
                polys += [[a, b, c], [a, c, d]]
            elif kind == 2:
                polys += [[a, b, d], [b, c, d]]
            else:
                polys.append([a, b, c, d])
    return NavMesh.from_polygons(polys)


#: The lesson's map: two rooms joined by two doors, a pillar in each room. Units are metres.
LESSON_XS = (0.0, 3.0, 4.5, 7.0, 8.0, 11.0, 12.5, 16.0)
LESSON_YS = (0.0, 2.0, 3.5, 5.0, 6.5, 8.0, 10.0)


def lesson_navmesh() -> NavMesh:
    """The map the lesson walks through (16 m x 10 m): left room with a pillar, a wall with
    two doors, right room with a taller pillar. Cells are split into triangles in a
    checkerboard of diagonals, as a navmesh generator would leave them."""
    nx_, ny_ = len(LESSON_XS) - 1, len(LESSON_YS) - 1
    walkable = np.ones((ny_, nx_), dtype=bool)
    walkable[2:4, 1] = False           # pillar in the left room
    walkable[:, 3] = False             # the wall between the rooms ...
    walkable[1, 3] = walkable[4, 3] = True   # ... with two doors
    walkable[1:4, 5] = False           # pillar in the right room

    def split(i: int, j: int) -> int:
        if i == 3:                     # keep the doors as plain rectangles
            return 0
        return 1 + (i + j) % 2

    return grid_navmesh(LESSON_XS, LESSON_YS, walkable, split)
