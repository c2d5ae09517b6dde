"""The funnel algorithm against an independent shortest path (shapely + networkx)."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from lessons_lib.funnel import (
    CorridorTooNarrow,
    corridor_path,
    corridor_walls,
    cross,
    crossing,
    funnel,
    funnel_steps,
    path_clearance,
    path_from_steps,
    portal_midpoint_path,
    portals_from_corridor,
    shrink_portals,
    strip_corridor,
    validate_portals,
)
from lessons_lib.pathsmooth import path_length


# -- random corridors -----------------------------------------------------------------------
def random_corridor(rng: np.random.Generator, n_min: int = 2, n_max: int = 12):
    """A wiggly strip of convex CCW polygons: quads between cross-sections, some split into
    triangles, some cross-sections pinched to a point on one side (fan-like corridors)."""
    for _attempt in range(200):
        m = int(rng.integers(n_min, n_max + 1))
        heading = rng.uniform(0, 2 * np.pi)
        c = np.zeros(2)
        lefts, rights = [], []
        for _k in range(m + 1):
            n = np.array([-np.sin(heading), np.cos(heading)])
            half_l = rng.uniform(0.3, 2.0)
            half_r = rng.uniform(0.3, 2.0)
            lefts.append(c + half_l * n)
            rights.append(c - half_r * n)
            step = rng.uniform(1.0, 3.0)
            heading += rng.uniform(-1.0, 1.0)
            c = c + step * np.array([np.cos(heading), np.sin(heading)])
        # occasionally share a vertex between consecutive cross-sections (a triangle)
        for k in range(1, m + 1):
            if rng.random() < 0.15:
                if rng.random() < 0.5:
                    lefts[k] = lefts[k - 1]
                else:
                    rights[k] = rights[k - 1]
        polys = []
        ok = True
        for k in range(m):
            quad = [rights[k], rights[k + 1], lefts[k + 1], lefts[k]]
            pts = [quad[0]]
            for p in quad[1:]:
                if not np.allclose(p, pts[-1]):
                    pts.append(p)
            if len(pts) < 3 or Polygon(pts).area < 0.05:
                ok = False
                break
            if not _convex_ccw(pts):
                ok = False
                break
            if len(pts) == 4 and rng.random() < 0.4:  # split into two triangles
                if rng.random() < 0.5:
                    polys += [[pts[0], pts[2], pts[3]], [pts[0], pts[1], pts[2]]]
                else:
                    polys += [[pts[0], pts[1], pts[3]], [pts[1], pts[2], pts[3]]]
            else:
                polys.append(pts)
        if not ok:
            continue
        outline = Polygon(list(rights) + list(reversed(lefts)))
        union = unary_union([Polygon(p) for p in polys])
        if not outline.is_valid or union.geom_type != "Polygon" or \
                abs(union.area - sum(Polygon(p).area for p in polys)) > 1e-9:
            continue
        return [np.array(p, dtype=float) for p in polys]
    raise RuntimeError("could not make a valid random corridor")


def _convex_ccw(pts) -> bool:
    m = len(pts)
    return all(cross(pts[i - 1], pts[i], pts[(i + 1) % m]) > 1e-9 for i in range(m))


def random_inside(rng, poly) -> np.ndarray:
    w = rng.dirichlet(np.ones(len(poly)))
    return w @ np.asarray(poly)


def visibility_shortest(polys, start, goal) -> float:
    """Independent reference: Dijkstra over the visibility graph of the corridor's union."""
    region = unary_union([Polygon(p) for p in polys])
    fat = region.buffer(1e-7)
    nodes = [tuple(start), tuple(goal)] + [tuple(v) for v in region.exterior.coords[:-1]]
    graph = nx.Graph()
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            a, b = nodes[i], nodes[j]
            if a == b:
                continue
            if fat.covers(LineString([a, b])):
                graph.add_edge(i, j, weight=math.dist(a, b))
    return nx.dijkstra_path_length(graph, 0, 1)


# -- against the reference ------------------------------------------------------------------
def test_funnel_is_shortest_on_hundreds_of_random_corridors():
    rng = np.random.default_rng(2026)
    checked = 0
    for _ in range(250):
        polys = random_corridor(rng)
        start = random_inside(rng, polys[0])
        goal = random_inside(rng, polys[-1])
        portals = portals_from_corridor(polys)
        path = funnel(start, goal, portals)
        region = unary_union([Polygon(p) for p in polys])
        # start and goal included
        assert np.allclose(path[0], start) and np.allclose(path[-1], goal)
        # same length as the independent shortest path
        want = visibility_shortest(polys, start, goal)
        assert path_length(path) == pytest.approx(want, rel=1e-7, abs=1e-9)
        # every corner is a portal end point
        ends = np.array([p for lr in portals for p in lr])
        for corner in path[1:-1]:
            assert np.min(np.hypot(*(ends - corner).T)) < 1e-9
        # the path stays inside the corridor
        assert region.buffer(1e-7).covers(LineString(path))
        # the trace builds the same path
        assert np.allclose(path_from_steps(funnel_steps(start, goal, portals)), path)
        checked += 1
    assert checked == 250


def test_start_and_goal_on_portals_on_random_corridors():
    """Degenerate but common: start (or goal) exactly on the first (last) portal, so the
    funnel opens as a half-plane."""
    rng = np.random.default_rng(99)
    for _ in range(120):
        polys = random_corridor(rng, 2, 10)
        portals = portals_from_corridor(polys)
        l0, r0 = portals[0]
        ln, rn = portals[-1]
        start = l0 + rng.uniform(0.05, 0.95) * (r0 - l0)
        goal = ln + rng.uniform(0.05, 0.95) * (rn - ln) if rng.random() < 0.5 else \
            random_inside(rng, polys[-1])
        path = funnel(start, goal, portals)
        want = visibility_shortest(polys, start, goal)
        assert path_length(path) == pytest.approx(want, rel=1e-7, abs=1e-9)
        assert np.allclose(path_from_steps(funnel_steps(start, goal, portals)), path)


def test_funnel_never_longer_than_the_midpoint_zigzag():
    rng = np.random.default_rng(7)
    for _ in range(100):
        polys = random_corridor(rng)
        start, goal = random_inside(rng, polys[0]), random_inside(rng, polys[-1])
        portals = portals_from_corridor(polys)
        zig = portal_midpoint_path(start, goal, portals)
        assert path_length(funnel(start, goal, portals)) <= path_length(zig) + 1e-9


# -- portals from polygons ------------------------------------------------------------------
def square(x, y, w=1.0, h=1.0):
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def test_portal_sides_as_the_traveller_sees_them():
    # walking east from [0,1]^2 into [1,2]x[0,1]: left is up (y = 1), right is down
    (left, right), = portals_from_corridor([square(0, 0), square(1, 0)])
    assert np.allclose(left, (1, 1)) and np.allclose(right, (1, 0))
    # walking north: left is west
    (left, right), = portals_from_corridor([square(0, 0), square(0, 1)])
    assert np.allclose(left, (0, 1)) and np.allclose(right, (1, 1))


@pytest.mark.parametrize("polys, message", [
    ([square(0, 0), square(2, 0)], "share no edge"),
    ([square(0, 0), list(reversed(square(1, 0)))], "clockwise"),
    ([square(0, 0), [(1, 0), (2, 0), (1.2, 0.5), (2, 1), (1, 1)]], "not convex"),
    ([square(0, 0), [(1, 0), (1, 0), (2, 1), (1, 1)]], "repeats a vertex"),
    ([[(0, 0), (1, 0), (2, 0)]], "no area"),
    ([square(0, 0), [(1, 0), (np.nan, 0), (1, 1)]], "NaN"),
    ([], "empty"),
])
def test_bad_corridors_are_refused_clearly(polys, message):
    with pytest.raises(ValueError, match=message):
        portals_from_corridor(polys)


def test_going_back_and_forth_gives_crossing_portals():
    # A -> B -> A: the two portals are one edge walked both ways, so they cross
    with pytest.raises(ValueError, match="cross or are in the wrong order"):
        portals_from_corridor([square(0, 0), square(1, 0), square(0, 0)])


def test_swapped_portal_is_detected():
    rng = np.random.default_rng(11)
    detected = 0
    for _ in range(100):
        polys = random_corridor(rng, 3, 10)
        portals = [tuple(p) for p in portals_from_corridor(polys)]
        k = int(rng.integers(len(portals)))
        left, right = portals[k]
        if np.allclose(left, right):
            continue
        portals[k] = (right, left)
        start, goal = random_inside(rng, polys[0]), random_inside(rng, polys[-1])
        with pytest.raises(ValueError, match="swapped"):
            funnel(start, goal, portals)
        detected += 1
    assert detected > 80


def test_crossing_portals_are_refused():
    portals = [((1, 1), (1, 0)), ((2, 0), (1.5, 1))]
    with pytest.raises(ValueError, match="cross"):
        validate_portals(portals)


def test_start_and_goal_on_the_wrong_side():
    portals = portals_from_corridor([square(0, 0), square(1, 0)])
    with pytest.raises(ValueError, match="start"):
        funnel((1.5, 0.5), (1.8, 0.5), portals)
    with pytest.raises(ValueError, match="goal"):
        funnel((0.5, 0.5), (0.2, 0.5), portals)
    polys = [square(0, 0), square(1, 0)]
    with pytest.raises(ValueError, match="outside the first polygon"):
        corridor_path((0.5, 1.5), (1.5, 0.5), polys)
    with pytest.raises(ValueError, match="outside the last polygon"):
        corridor_path((0.5, 0.5), (2.5, 0.5), polys)


@pytest.mark.parametrize("bad", [(np.nan, 0), (0, 0, 0), "a"])
def test_bad_points(bad):
    with pytest.raises(ValueError):
        funnel(bad, (1, 1), [])


def test_bad_portal_shapes():
    with pytest.raises(ValueError, match="pairs"):
        funnel((0, 0), (1, 1), [((0, 0), (1, 1), (2, 2))])
    with pytest.raises(ValueError, match="NaN"):
        funnel((0, 0), (1, 1), [((0.5, np.nan), (0.5, 0))])


# -- degenerate cases -----------------------------------------------------------------------
def test_one_polygon_corridor_is_a_straight_line():
    path = corridor_path((0.1, 0.2), (0.9, 0.7), [square(0, 0)])
    assert np.allclose(path, [(0.1, 0.2), (0.9, 0.7)])
    path = funnel((0.3, 0.3), (0.3, 0.3), [])
    assert np.allclose(path, [(0.3, 0.3), (0.3, 0.3)])
    steps = funnel_steps((0.3, 0.3), (0.3, 0.3), [])
    assert np.allclose(path_from_steps(steps), path)


def test_collinear_points_give_a_straight_path():
    polys = [square(k, 0) for k in range(6)]
    path = corridor_path((0.5, 0.5), (5.5, 0.5), polys)
    assert np.allclose(path, [(0.5, 0.5), (5.5, 0.5)])
    # straight along a wall: the path runs exactly along y = 0
    path = corridor_path((0.0, 0.0), (6.0, 0.0), polys)
    assert path_length(path) == pytest.approx(6.0)


def test_start_on_a_portal():
    polys = [square(0, 0), square(1, 0), square(1, 1)]
    path = corridor_path((1.0, 0.5), (1.5, 1.5), polys)
    assert path_length(path) == pytest.approx(math.hypot(0.5, 1.0))


def test_zero_width_portal_forces_the_path_through_its_point():
    portals = [((1, 0.5), (1, 0.5)), ((2, 1), (2, 0))]
    path = funnel((0, 0), (3, 0), portals)
    assert np.allclose(path, [(0, 0), (1, 0.5), (3, 0)])
    steps = funnel_steps((0, 0), (3, 0), portals)
    assert np.allclose(path_from_steps(steps), path)


def test_fan_around_a_shared_vertex():
    # triangles fanned around (0, 0): the path hugs the shared vertex
    pts = [(np.cos(a), np.sin(a)) for a in np.linspace(0, 1.5 * np.pi, 10)]
    polys = [[(0, 0), pts[k], pts[k + 1]] for k in range(9)]
    start = np.mean(polys[0], axis=0)
    goal = np.mean(polys[-1], axis=0)
    path = corridor_path(start, goal, polys)
    assert any(np.allclose(c, (0, 0)) for c in path)
    assert path_length(path) == pytest.approx(visibility_shortest(polys, start, goal))


# -- the trace ------------------------------------------------------------------------------
def test_steps_on_a_known_corridor():
    # east, north, east, south around a wall whose top end is (2, 1)
    polys = [square(0, 0), square(1, 0), square(1, 1), square(2, 1), square(2, 0)]
    portals = portals_from_corridor(polys)
    steps = funnel_steps((0.5, 0.5), (2.5, 0.5), portals)
    events = [s.event for s in steps]
    assert events[0] == "start" and events[-1] == "goal"
    assert "corner_right" in events
    corner_step = steps[events.index("corner_right")]
    assert corner_step.apex == (2.0, 1.0)
    assert corner_step.corners == ((0.5, 0.5), (2.0, 1.0))
    assert np.allclose(path_from_steps(steps), [(0.5, 0.5), (2, 1), (2.5, 0.5)])
    # corners only ever grow, and each step's text is a sentence
    for a, b in zip(steps, steps[1:], strict=False):
        assert b.corners[:len(a.corners)] == a.corners
    assert all(s.text.endswith(".") for s in steps)


def test_funnel_edges_never_cross_during_the_walk():
    rng = np.random.default_rng(5)
    for _ in range(60):
        polys = random_corridor(rng)
        start, goal = random_inside(rng, polys[0]), random_inside(rng, polys[-1])
        for s in funnel_steps(start, goal, portals_from_corridor(polys)):
            if s.event in ("narrow_both", "narrow_left", "narrow_right", "keep"):
                # the left edge is never strictly right of the right edge
                assert cross(s.apex, s.right, s.left) >= -1e-9


def test_unfinished_trace_is_refused():
    steps = funnel_steps((0, 0), (1, 0), [])
    with pytest.raises(ValueError, match="unfinished"):
        path_from_steps(steps[:-1])


# -- agent radius ---------------------------------------------------------------------------
def test_shrink_portals_pulls_both_ends_in():
    out = shrink_portals([((0, 2), (0, 0))], 0.5)
    assert np.allclose(out[0], [(0, 1.5), (0, 0.5)])
    assert np.allclose(shrink_portals([((0, 2), (0, 0))], 1.0)[0], [(0, 1), (0, 1)])
    assert np.allclose(shrink_portals([((0, 2), (0, 0))], 0.0)[0], [(0, 2), (0, 0)])


def test_too_narrow_portal_is_named():
    portals = [((0, 2), (0, 0)), ((1, 1.5), (1, 0.5)), ((2, 3), (2, 0))]
    with pytest.raises(CorridorTooNarrow, match="portal 1 is 1 wide") as info:
        shrink_portals(portals, 0.6)
    assert info.value.index == 1
    assert isinstance(info.value, ValueError)
    with pytest.raises(ValueError, match="radius"):
        shrink_portals(portals, -1)
    with pytest.raises(ValueError, match="radius"):
        shrink_portals(portals, np.nan)


def _eroded_shortest(polys, start, goal, radius) -> tuple[float, float]:
    """Exact agent answer: shortest path in the corridor shrunk by the radius."""
    region = unary_union([Polygon(p) for p in polys])
    free = region.buffer(-radius, quad_segs=32)
    if free.geom_type != "Polygon" or not free.covers(Point(start)) or \
            not free.covers(Point(goal)):
        return math.nan, math.nan
    fat = free.buffer(1e-7)
    nodes = [tuple(start), tuple(goal)] + [tuple(v) for v in free.exterior.coords[:-1]]
    graph = nx.Graph()
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            if nodes[i] != nodes[j] and fat.covers(LineString([nodes[i], nodes[j]])):
                graph.add_edge(i, j, weight=math.dist(nodes[i], nodes[j]))
    path = nx.dijkstra_path(graph, 0, 1)
    line = LineString([nodes[k] for k in path])
    return line.length, region.exterior.distance(line)


def test_shrunk_portals_can_pass_closer_than_the_radius():
    """The honest measurement: shrinking portals is an approximation. Compared with the exact
    answer (the corridor eroded by the radius), its path may pass a wall corner at less than
    the radius, while the exact path keeps the full radius."""
    # an L-shaped bend: east along the bottom, then north; the inside corner is (2, 1)
    polys = [square(0, 0, 2, 1), square(2, 0, 1, 1), square(2, 1, 1, 2)]
    start, goal = (0.5, 0.5), (2.5, 2.5)
    radius = 0.3
    portals = shrink_portals(portals_from_corridor(polys), radius)
    path = funnel(start, goal, portals)
    clearance = path_clearance(path, corridor_walls(polys))
    exact_len, exact_clear = _eroded_shortest(polys, start, goal, radius)
    assert clearance < radius - 0.05           # the approximation cuts the corner
    assert exact_clear >= radius - 2e-4        # the exact path keeps it (arcs as chords)
    assert exact_len >= path_length(path) - 1e-9  # ...and is longer for it


def test_shrunk_portals_clearance_statistics():
    rng = np.random.default_rng(3)
    below, total = 0, 0
    for _ in range(40):
        polys = random_corridor(rng, 3, 8)
        start, goal = random_inside(rng, polys[0]), random_inside(rng, polys[-1])
        radius = 0.15
        try:
            shrunk = shrink_portals(portals_from_corridor(polys), radius)
        except CorridorTooNarrow:
            continue
        region = unary_union([Polygon(p) for p in polys])
        if region.exterior.distance(Point(start)) < radius or \
                region.exterior.distance(Point(goal)) < radius:
            continue
        path = funnel(start, goal, shrunk)
        clear = path_clearance(path, corridor_walls(polys))
        # our clearance measure agrees with shapely's
        assert clear == pytest.approx(region.exterior.distance(LineString(path)), abs=1e-9)
        # never worse than radius * (something): corners are exactly r away along portals,
        # so the path is at least not touching walls
        assert clear > 0
        total += 1
        below += clear < radius - 1e-9
    assert total > 20


def test_corridor_walls_leave_out_portals():
    polys = [square(0, 0), square(1, 0)]
    walls = corridor_walls(polys)
    assert len(walls) == 6
    mids = walls.mean(axis=1)
    assert not np.any(np.all(np.isclose(mids, (1, 0.5)), axis=1))


def test_path_clearance_of_a_crossing_path_is_zero():
    walls = np.array([[(0, 0), (0, 2)]], dtype=float)
    assert path_clearance([(-1, 1), (1, 1)], walls) == 0.0
    assert path_clearance([(1, 0), (1, 2)], walls) == pytest.approx(1.0)
    assert path_clearance([(3, 4)], walls) == pytest.approx(math.hypot(3, 2))


def test_strip_corridor_is_valid_and_funnel_is_shortest_on_it():
    for seed in range(5):
        polys = strip_corridor(25, seed=seed)
        assert len(polys) == 26
        portals = portals_from_corridor(polys)
        start, goal = polys[0].mean(axis=0), polys[-1].mean(axis=0)
        path = funnel(start, goal, portals)
        assert path_length(path) == pytest.approx(visibility_shortest(polys, start, goal),
                                                  rel=1e-7)
    with pytest.raises(ValueError, match="n_portals"):
        strip_corridor(-2)


def test_step_edges_name_the_portals_they_come_from():
    rng = np.random.default_rng(21)
    for _ in range(40):
        polys = random_corridor(rng)
        start, goal = random_inside(rng, polys[0]), random_inside(rng, polys[-1])
        portals = portals_from_corridor(polys)
        n = len(portals)
        for s in funnel_steps(start, goal, portals):
            for point, k in ((s.left, s.left_portal), (s.right, s.right_portal)):
                if k == -1:
                    assert np.allclose(point, start)
                elif k == n:
                    assert np.allclose(point, goal)
                else:  # an end of that portal (after a corner both edges sit on the apex)
                    assert np.allclose(point, portals[k][0]) or np.allclose(point, portals[k][1])
            if s.event.startswith("corner"):
                assert np.allclose(s.corners[-1], s.apex)


# -- the step sentences, checked against the geometry --------------------------------------
def _side(apex, edge, p) -> float:
    """cross(apex, edge, p) scaled to a distance (so a tolerance means metres)."""
    d = math.dist(apex, edge)
    return cross(apex, edge, p) / d if d > 0 else 0.0


def _check_end(cls, apex, edge, other, p, side: str):
    """The class the trace gave one tested end agrees with where that end lies."""
    inward = 1.0 if side == "right" else -1.0  # right edge: inside is to its left
    if cls == "opens":
        assert apex == edge and p != apex
    elif cls == "at_apex":
        assert apex == edge and p == apex
    elif cls == "same":
        assert p == edge
    elif cls == "outside":  # strictly beyond the edge, on the outer side: it would widen
        assert inward * _side(apex, edge, p) < 0
    elif cls == "inside":   # strictly inside this edge, and not across the other one
        assert inward * _side(apex, edge, p) > 0
        assert apex == other or inward * _side(apex, other, p) <= 1e-9
    elif cls == "on_line":
        assert _side(apex, edge, p) == 0.0
    elif cls == "across":   # on or beyond the other edge
        assert apex != other and inward * _side(apex, other, p) >= -1e-9
    else:
        raise AssertionError(f"unknown class {cls}")


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_every_step_sentence_is_true_on_random_corridors(seed):
    rng = np.random.default_rng(seed)
    phrases = {"outside": "would widen the funnel", "across": "lies across",
               "inside": "lies inside the funnel", "same": "already ends on",
               "opens": "had shrunk onto the apex"}
    for _ in range(100):
        polys = random_corridor(rng)
        start, goal = random_inside(rng, polys[0]), random_inside(rng, polys[-1])
        portals = portals_from_corridor(polys)
        steps = funnel_steps(start, goal, portals)
        for prev, s in zip(steps, steps[1:], strict=False):
            a, left, right = prev.apex, prev.left, prev.right
            pl, pr = s.tested
            text = s.text
            if s.portal == len(portals):  # the goal
                assert "goal" in text
            else:
                _check_end(s.right_end, a, right, left, pr, "right")
                new_right = right if s.right_end in ("outside", "same", "across") else pr
                if s.event != "corner_left":
                    _check_end(s.left_end, a, left, new_right, pl, "left")
                    assert s.right == new_right
                else:
                    assert s.left_end == "not_tested"
                # the sentence names each end's class, and "widen" only for an end outside
                ends = [s.right_end] + ([s.left_end] if s.event != "corner_left" else [])
                assert text.count("would widen") == ends.count("outside")
                for cls in set(ends):
                    if cls in phrases:
                        assert phrases[cls] in text, (cls, text)
            beat = crossing(prev, s)  # the first of a corner's two beats, drawn before it
            if s.event.startswith("corner"):
                (ba, bl, br), end, crossed = beat
                assert ba == a and bl == left
                if crossed == "left":    # the right end, tested first, lies across the left
                    assert end == pr and br == right
                    _check_end("across", a, left, right, pr, "right")
                else:                    # the left end, against the right edge it met
                    met = right if s.right_end in ("outside", "same", "across") else pr
                    assert end == pl and br == met
                    _check_end("across", a, left, br, pl, "left")
                # the second beat: the apex moves to the end of the edge that was crossed
                assert s.apex == (bl if crossed == "left" else br)
                corner = left if s.event == "corner_left" else right
                assert s.apex == corner == s.left == s.right
                assert s.corners[-1] == corner and s.n_corners == prev.n_corners + 1
                assert f"becomes corner {s.n_corners}" in text
                # the scan restarts from the portal after the corner's own portal, and says so
                own = s.left_portal
                assert s.restart == own + 1
                where = "the goal" if s.restart == len(portals) else f"portal {s.restart}"
                assert f"restarts from {where}" in text
                nxt = steps[steps.index(s) + 1]
                assert nxt.portal == s.restart
            else:
                assert beat is None
                assert s.n_corners == prev.n_corners
                if s.event == "keep":
                    assert "Nothing narrows" in text
                    assert (s.apex, s.left, s.right) == (a, left, right)
        # the corner count leaves out the start and the goal
        assert steps[-1].n_corners == len(path_from_steps(steps)) - 2


def test_a_straight_route_has_no_corners():
    steps = funnel_steps((0.5, 0.5), (1.5, 0.5), portals_from_corridor([square(0, 0),
                                                                         square(1, 0)]))
    assert steps[-1].event == "goal" and steps[-1].n_corners == 0
    assert all(s.event != "keep" or "Nothing narrows" in s.text for s in steps)


def test_trace_memory_grows_linearly():
    """Every step shares one list of corners: doubling the corridor doubles the memory
    (a copy of the path per corner made 200,000 portals take 6.6 GB)."""
    import gc
    import tracemalloc

    def traced(n):
        polys = strip_corridor(n, seed=3)
        portals = np.array([[p[2], p[1]] for p in polys[:-1]])
        s, g = polys[0].mean(axis=0), polys[-1].mean(axis=0)
        gc.collect()
        tracemalloc.start()
        steps = funnel_steps(s, g, portals)
        _cur, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return peak, len(steps), steps[-1].n_corners

    traced(500)   # first call: one-time allocations (caches, lazy imports) out of the way
    small, n_small, _c = traced(500)
    big, n_big, c_big = traced(4_000)
    assert c_big > 500  # many corners: the old copies would have grown quadratically
    assert big / n_big < 1.3 * small / n_small
    assert big / n_big < 1000  # bytes per step


def test_one_routine_classes_both_ends_mirror_for_mirror():
    """The right and the left end are classed by one routine with a side sign: an end on
    the right of a funnel is classed like its mirror image on the left, for every class."""
    from lessons_lib.funnel import END_CLASSES, _classify_end

    def mirror(p):
        return (-p[0], p[1])

    rng = np.random.default_rng(21)
    grid = [(float(x), float(y)) for x in range(-2, 3) for y in range(-2, 3)]
    seen = set()
    for _ in range(3000):
        apex, mine, other, p = (grid[k] for k in rng.integers(len(grid), size=4))
        if rng.random() < 0.3:
            p = mine if rng.random() < 0.5 else apex
        got = _classify_end(apex, mine, other, p, 1.0)
        assert got == _classify_end(*map(mirror, (apex, mine, other, p)), -1.0)
        seen.add(got)
    assert seen == set(END_CLASSES) - {"not_tested"}


def test_push_corners_moves_each_corner_out_of_its_turn():
    from lessons_lib.funnel import push_corners

    path = [(0, 0), (2, 0), (2, 2), (4, 2), (6, 2)]        # left turn, right turn, straight
    out = push_corners(path, 0.5)
    h = 0.5 / math.sqrt(2)
    assert np.allclose(out, [(0, 0), (2 + h, -h), (2 - h, 2 + h), (4, 2), (6, 2)])
    assert np.array_equal(push_corners(path, 0), np.asarray(path, float))
    assert np.array_equal(push_corners([(0, 0), (1, 1)], 1), [(0, 0), (1, 1)])
    with pytest.raises(ValueError, match="radius"):
        push_corners(path, -1)
    with pytest.raises(ValueError, match="path"):
        push_corners([(0, 0)], 0.5)


def test_pushing_a_corner_can_swing_the_path_into_a_pillar():
    """The lesson's claim: on the curve preset's route the path runs from the lower door's
    corner straight past a corner of the right pillar; pushed 0.2 m, it cuts the pillar."""
    from lessons_lib.apps.funnel.app import CURVE_GOAL, CURVE_START
    from lessons_lib.funnel import push_corners
    from lessons_lib.navmesh import LESSON_OBSTACLES, clearance, lesson_navmesh, lesson_walkable

    path = lesson_navmesh().route(CURVE_START, CURVE_GOAL).path
    assert np.allclose(path[1], (8.0, 3.5))                # the lower door's corner
    pillar = Polygon(LESSON_OBSTACLES[-1])                 # the right pillar
    assert LineString(path).distance(Point(11.0, 6.5)) < 1e-9
    assert LineString(path).intersection(pillar).length < 1e-9
    pushed = push_corners(path, 0.2)
    assert LineString(pushed).intersection(pillar).length > 0.1
    assert clearance(pushed, lesson_walkable())[0] == 0.0


def test_push_corners_leaves_a_repeated_point_where_it_is():
    """A repeated point has no direction: no division by zero (a warning on a learner's
    page), and the point stays."""
    import warnings

    from lessons_lib.funnel import push_corners

    path = [(0, 0), (1, 0), (1, 0), (1, 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = push_corners(path, 0.3)
    assert np.isfinite(out).all()
    assert np.allclose(out[1:3], [(1, 0), (1, 0)])


def test_point_in_polygon_takes_any_simple_polygon_and_refuses_a_bow_tie():
    """Issue 30: a clockwise square, a non-convex polygon and a bow tie all answered False.
    Now either order and any simple shape is judged by its inside; a crossing one is
    refused."""
    from lessons_lib.funnel import point_in_polygon

    square = [(0, 0), (1, 0), (1, 1), (0, 1)]
    ell = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    comb = [(0, 0), (5, 0), (5, 2), (4, 2), (4, 1), (3, 1), (3, 2), (2, 2), (2, 1), (1, 1),
            (1, 2), (0, 2)]
    for poly in (square, square[::-1]):
        assert point_in_polygon((0.5, 0.5), poly)
        assert point_in_polygon((1.0, 0.5), poly)          # on an edge
        assert not point_in_polygon((1.5, 0.5), poly)
    for poly in (ell, ell[::-1]):
        assert point_in_polygon((0.5, 1.5), poly)
        assert not point_in_polygon((1.5, 1.5), poly)      # the notch
    assert [point_in_polygon((x + 0.5, 1.5), comb) for x in range(5)] == \
        [True, False, True, False, True]
    assert not point_in_polygon((1e308, 1e308), square)
    far = [(x + 1e9, y - 1e9) for x, y in ell]
    assert point_in_polygon((0.5 + 1e9, 1.5 - 1e9), far)
    assert not point_in_polygon((1.5 + 1e9, 1.5 - 1e9), far)
    with pytest.raises(ValueError, match="crosses itself"):
        point_in_polygon((0.5, 0.4), [(0, 0), (1, 1), (1, 0), (0, 1)])
    with pytest.raises(ValueError, match="no area"):
        point_in_polygon((0.5, 0.0), [(0, 0), (1, 0), (2, 0)])
    with pytest.raises(ValueError, match="repeats a vertex"):
        point_in_polygon((0.5, 0.5), [(0, 0), (1, 0), (1, 0), (0, 1)])


def test_corridor_path_checks_each_polygon_and_portal_once(monkeypatch):
    """Issue 30: a 100,000-polygon strip took over 10 s. Every stage was linear; the
    polygons were checked twice (33 us each) and the portals validated twice. Now the
    polygons are checked in stacks and each stage runs once: counted here, not timed."""
    import lessons_lib.funnel as fn

    polys = strip_corridor(300, seed=2)
    s, g = polys[0].mean(axis=0), polys[-1].mean(axis=0)
    expected = corridor_path(s, g, polys)
    calls = {"check_polygon": 0, "validate_portals": 0}
    for name in calls:
        original = getattr(fn, name)

        def counting(*args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(fn, name, counting)
    np.testing.assert_array_equal(fn.corridor_path(s, g, polys), expected)
    assert calls == {"check_polygon": 0, "validate_portals": 1}


def test_stacked_polygon_checks_refuse_what_check_polygon_refuses():
    from lessons_lib.funnel import check_polygon, portals_from_corridor

    polys = strip_corridor(20, seed=4)
    bad_ones = {"clockwise": polys[7][::-1].copy(), "not convex": None, "repeats": None}
    concave = polys[7].copy()
    concave[1] = (7.3, 1.0)                  # a vertex pulled inside: not convex
    repeat = np.vstack([polys[7][:1], polys[7]])
    bad_ones["not convex"], bad_ones["repeats"] = concave, repeat
    for what, bad in bad_ones.items():
        with pytest.raises(ValueError) as scalar:
            check_polygon(bad, 7)
        with pytest.raises(ValueError) as stacked:
            portals_from_corridor([*polys[:7], bad, *polys[8:]])
        assert str(stacked.value) == str(scalar.value), what
        assert "polygon 7" in str(stacked.value)
