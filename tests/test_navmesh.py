"""The navmesh: adjacency, point location, polygon-level A*, whole-map routes."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from lessons_lib.funnel import CorridorTooNarrow, funnel, portals_from_corridor
from lessons_lib.navmesh import (
    ARTICLE_GOAL,
    ARTICLE_START,
    BAD_CORRIDOR_GOAL,
    BAD_CORRIDOR_START,
    NavMesh,
    NoRouteError,
    bake_navmesh,
    boundary_edges,
    clearance,
    erode,
    grid_navmesh,
    hertel_mehlhorn,
    lesson_navmesh,
    lesson_walkable,
    reflex_corners,
    shortest_path,
    turns,
    walkable_area,
)
from lessons_lib.pathsmooth import path_length


@pytest.fixture(scope="module")
def mesh():
    return lesson_navmesh()


def shortest_in_region(region, start, goal) -> float:
    """Independent reference: visibility graph over the region's vertices (any holes too)."""
    fat = region.buffer(1e-7)
    rings = [region.exterior] + list(region.interiors)
    nodes = [tuple(start), tuple(goal)] + [tuple(v) for r in rings for v in r.coords[:-1]]
    graph = nx.Graph()
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            if nodes[i] != nodes[j] and fat.covers(LineString([nodes[i], nodes[j]])):
                graph.add_edge(i, j, weight=math.dist(nodes[i], nodes[j]))
    return nx.dijkstra_path_length(graph, 0, 1)


def midpoint_graph_cost(mesh, start, goal) -> float:
    """Independent reference for the corridor search: Dijkstra in networkx over
    (polygon, entry edge) states placed at edge middles."""
    ps, pg = mesh.locate(start), mesh.locate(goal)
    graph = nx.DiGraph()
    v = mesh.vertices
    pos = {("S",): tuple(start)}
    todo = [("S",)]
    state_poly = {("S",): ps}
    seen = {("S",)}
    while todo:
        s = todo.pop()
        poly = state_poly[s]
        if poly == pg:
            graph.add_edge(s, ("G",), weight=math.dist(pos[s], goal))
        for j, (a, b) in mesh.neighbours[poly]:
            t = (j, b, a)
            pos[t] = tuple((v[a] + v[b]) / 2)
            state_poly[t] = j
            graph.add_edge(s, t, weight=math.dist(pos[s], pos[t]))
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return nx.dijkstra_path_length(graph, ("S",), ("G",))


def random_free_point(rng, mesh):
    while True:
        p = rng.uniform(mesh.bounds[0], mesh.bounds[1])
        if mesh.locate(p) is not None:
            return p


def test_lesson_mesh_is_conforming(mesh):
    region = unary_union([Polygon(c) for c in mesh.coords])
    assert region.geom_type == "Polygon"  # one connected floor
    assert len(region.interiors) == 3     # two pillars and the wall between the doors
    assert region.area == pytest.approx(sum(Polygon(c).area for c in mesh.coords))
    for i, nbrs in enumerate(mesh.neighbours):  # adjacency is symmetric
        for j, (a, b) in nbrs:
            assert (i, (b, a)) in mesh.neighbours[j]


def test_locate(mesh):
    for i, c in enumerate(mesh.centroids):
        assert mesh.locate(c) == i
    assert mesh.locate((3.7, 4.5)) is None   # inside the left pillar
    assert mesh.locate((7.5, 5.0)) is None   # inside the wall
    assert mesh.locate((-1, 0)) is None
    with pytest.raises(ValueError, match="finite"):
        mesh.locate((np.nan, 1))


def test_corridor_search_is_optimal_for_its_metric(mesh):
    rng = np.random.default_rng(8)
    for _ in range(40):
        s, g = random_free_point(rng, mesh), random_free_point(rng, mesh)
        route = mesh.route(s, g)
        # a corridor: consecutive polygons are neighbours, start first, goal last
        assert route.corridor[0] == mesh.locate(s) or \
            Polygon(mesh.coords[route.corridor[0]]).buffer(1e-9).covers(Point(s))
        for a, b in zip(route.corridor, route.corridor[1:], strict=False):
            assert b in [j for j, _e in mesh.neighbours[a]]
        assert path_length(route.midpoints) == pytest.approx(midpoint_graph_cost(mesh, s, g))


def test_route_is_shortest_inside_its_corridor(mesh):
    rng = np.random.default_rng(9)
    checked = 0
    for _ in range(30):
        s, g = random_free_point(rng, mesh), random_free_point(rng, mesh)
        route = mesh.route(s, g)
        region = unary_union([Polygon(mesh.coords[i]) for i in route.corridor])
        if region.geom_type != "Polygon":
            continue  # a corridor touching itself at a point: the reference cannot say
        assert path_length(route.path) == pytest.approx(shortest_in_region(region, s, g),
                                                        rel=1e-7)
        assert path_length(route.path) <= path_length(route.midpoints) + 1e-9
        checked += 1
    assert checked >= 20


def test_the_articles_corridor(mesh):
    """The article: seven portals, crossed with three corners, about 21% shorter."""
    route = mesh.route(ARTICLE_START, ARTICLE_GOAL)
    saved = 1 - path_length(route.path) / path_length(route.midpoints)
    assert len(route.portals) == 7
    assert len(route.path) - 2 == 3
    assert f"{100 * saved:.0f}" == "21"


def test_a_bad_corridor_cannot_be_fixed_by_smoothing(mesh):
    s, g = (1.2, 1.0), (14.8, 1.0)
    good = mesh.route(s, g)
    door = mesh.locate((7.5, 2.7))
    bad = mesh.route(s, g, blocked=[door])  # force the far door
    assert door in good.corridor and door not in bad.corridor
    assert path_length(bad.path) > path_length(good.path) + 2.0


def test_radius_and_narrow_doors(mesh):
    route = mesh.route((1.2, 1.0), (14.8, 9.0), radius=0.4)
    assert route.shrunk is not None and route.radius == 0.4
    with pytest.raises(CorridorTooNarrow, match="cannot pass"):
        mesh.route((1.2, 1.0), (14.8, 9.0), radius=0.8)  # the doors are 1 m wide


def test_route_errors(mesh):
    with pytest.raises(ValueError, match="not on the navmesh"):
        mesh.route((3.7, 4.5), (1, 1))
    with pytest.raises(ValueError, match="not on the navmesh"):
        mesh.route((1, 1), (20, 1))
    two = NavMesh.from_polygons([[(0, 0), (1, 0), (1, 1), (0, 1)],
                                 [(2, 0), (3, 0), (3, 1), (2, 1)]])
    with pytest.raises(NoRouteError, match="separate"):
        two.route((0.5, 0.5), (2.5, 0.5))


def test_same_polygon_route_is_straight(mesh):
    i = mesh.locate((1.0, 0.5))
    route = mesh.route((1.0, 0.5), tuple(mesh.centroids[i]))
    assert route.corridor == [i] and len(route.path) == 2


def test_bad_meshes():
    with pytest.raises(ValueError, match="clockwise"):
        NavMesh([(0, 0), (1, 0), (1, 1)], [[0, 2, 1]])
    with pytest.raises(ValueError, match="does not exist"):
        NavMesh([(0, 0), (1, 0), (1, 1)], [[0, 1, 5]])
    with pytest.raises(ValueError, match="overlap"):
        NavMesh([(0, 0), (1, 0), (1, 1), (0, 1)], [[0, 1, 2], [0, 1, 3]])
    with pytest.raises(ValueError, match="at least one polygon"):
        NavMesh([(0, 0)], [])
    with pytest.raises(ValueError, match="shape"):
        grid_navmesh([0, 1, 2], [0, 1], np.ones((2, 2)))
    with pytest.raises(ValueError, match="increasing"):
        grid_navmesh([0, 2, 1], [0, 1], np.ones((1, 2)))


@pytest.mark.parametrize("radius", [0.2, 0.4, 0.6])
@pytest.mark.parametrize("start, goal", [((1.2, 1.0), (14.8, 9.0)), (ARTICLE_START, ARTICLE_GOAL)])
def test_radius_shrink_portals_against_erode_then_bake(mesh, radius, start, goal):
    """Shrinking portals passes wall corners closer than the radius (measured to the
    obstacles with shapely); eroding the floor and baking again keeps the radius."""
    free = lesson_walkable()
    shrunk = mesh.route(start, goal, radius=radius)
    d, on_path, on_wall = clearance(shrunk.path, free)
    assert d == pytest.approx(free.boundary.distance(LineString(shrunk.path)), abs=1e-9)
    assert math.dist(on_path, on_wall) == pytest.approx(d)
    assert LineString(shrunk.path).distance(Point(on_path)) < 1e-9
    assert free.boundary.distance(Point(on_wall)) < 1e-9
    assert d < radius * 0.75
    eroded = bake_navmesh(erode(free, radius)).route(start, goal)
    d2, _p, _w = clearance(eroded.path, free)
    assert d2 == pytest.approx(free.boundary.distance(LineString(eroded.path)), abs=1e-9)
    assert d2 >= radius - 1e-9
    assert path_length(eroded.path) > path_length(shrunk.path)


def test_a_door_narrower_than_the_agent_is_closed_both_ways(mesh):
    free = lesson_walkable()
    s, g = (1.2, 1.0), (14.8, 1.0)      # through a 1.5 m door, with a 0.8 m radius
    with pytest.raises(CorridorTooNarrow, match="cannot pass"):
        mesh.route(s, g, radius=0.8)
    with pytest.raises(NoRouteError):
        bake_navmesh(erode(free, 0.8)).route(s, g)


def test_clearance_of_a_path_through_a_wall_is_zero():
    free = lesson_walkable()
    d, p, _w = clearance([(6.0, 5.0), (9.0, 5.0)], free)
    assert d == 0.0 and 7.0 <= p[0] <= 8.0


# -- the baked navmesh -------------------------------------------------------------------
def random_floor(rng, n_obstacles=None):
    """A 12 m x 8 m hall with a few random convex obstacles (rotated boxes and triangles),
    some touching the outline; the largest connected piece of floor."""
    outer = [(0, 0), (12, 0), (12, 8), (0, 8)]
    obstacles = []
    for _ in range(int(rng.integers(2, 7)) if n_obstacles is None else n_obstacles):
        c = rng.uniform((0.5, 0.5), (11.5, 7.5))
        if rng.random() < 0.6:
            w, h = rng.uniform(0.4, 2.5, 2)
            box = np.array([(-w, -h), (w, -h), (w, h), (-w, h)]) / 2
        else:
            ang = np.sort(rng.uniform(0, 2 * np.pi, 3))
            box = np.column_stack([np.cos(ang), np.sin(ang)]) * rng.uniform(0.5, 1.5)
        t = rng.uniform(0, np.pi)
        rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        obstacles.append(box @ rot.T + c)
    free = walkable_area(outer, obstacles)
    if free.geom_type != "Polygon":
        free = max(free.geoms, key=lambda g: g.area)
    return free


def random_point_on(rng, free):
    lo = np.array(free.bounds[:2])
    hi = np.array(free.bounds[2:])
    while True:
        p = rng.uniform(lo, hi)
        if free.buffer(-0.05).contains(Point(p)):
            return p


def reference_shortest(free, start, goal):
    """Visibility graph (shapely for sight, networkx for Dijkstra): path and length."""
    fat = free.buffer(1e-7)
    rings = [free.exterior] + list(free.interiors)
    nodes = [tuple(start), tuple(goal)] + [tuple(v) for r in rings for v in r.coords[:-1]]
    graph = nx.Graph()
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            if nodes[i] != nodes[j] and fat.covers(LineString([nodes[i], nodes[j]])):
                graph.add_edge(i, j, weight=math.dist(nodes[i], nodes[j]))
    idx = nx.dijkstra_path(graph, 0, 1)
    return np.array([nodes[i] for i in idx]), nx.path_weight(graph, idx, "weight")


def is_reflex_corner(free, p, eps=1e-4) -> bool:
    """Independent: a corner whose floor angle is over 180 degrees fills more than half of a
    small disc around it."""
    disc = Point(p).buffer(eps, quad_segs=64)
    on_outline = free.boundary.distance(Point(p)) < 1e-9
    return on_outline and free.intersection(disc).area > 0.5 * disc.area * (1 + 1e-3)


def floors():
    rng = np.random.default_rng(404)
    return [("lesson", lesson_walkable())] + [(f"random {k}", random_floor(rng))
                                              for k in range(12)]


@pytest.mark.parametrize("name, free", floors())
def test_baked_mesh_covers_the_floor_and_every_vertex_is_on_an_obstacle(name, free):
    mesh = bake_navmesh(free)
    union = unary_union([Polygon(c) for c in mesh.coords])
    assert union.symmetric_difference(free).area < 1e-9 * free.area
    assert sum(Polygon(c).area for c in mesh.coords) == pytest.approx(free.area)
    for v in mesh.vertices:  # on the outline, a wall or a pillar: never in open floor
        assert free.boundary.distance(Point(v)) < 1e-9, (name, v)
    # Hertel-Mehlhorn leaves no diagonal whose removal keeps the piece convex
    for i, nbrs in enumerate(mesh.neighbours):
        for j, _edge in nbrs:
            merged = unary_union([Polygon(mesh.coords[i]), Polygon(mesh.coords[j])])
            assert merged.convex_hull.area > merged.area * (1 + 1e-9), (name, i, j)
    assert len(mesh) < len(bake_navmesh(free, merge=False))


def test_hertel_mehlhorn_merges_a_square_split_in_two():
    v = [(0, 0), (1, 0), (1, 1), (0, 1)]
    assert hertel_mehlhorn(v, [[0, 1, 2], [0, 2, 3]]) == [[2, 3, 0, 1]]
    # an L split in triangles keeps its reflex corner between two pieces
    ell = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    mesh = bake_navmesh(Polygon(ell))
    assert len(mesh) == 2


@pytest.mark.parametrize("name, free", floors())
def test_shortest_path_matches_the_visibility_graph_reference(name, free):
    rng = np.random.default_rng(len(name))
    for _ in range(4):
        s, g = random_point_on(rng, free), random_point_on(rng, free)
        want_path, want = reference_shortest(free, s, g)
        got = shortest_path(free, s, g)
        assert path_length(got) == pytest.approx(want, rel=1e-9, abs=1e-9)
        assert free.buffer(1e-7).covers(LineString(got))


@pytest.mark.parametrize("name, free", floors())
def test_funnel_bends_only_at_reflex_obstacle_corners(name, free):
    mesh = bake_navmesh(free)
    corners = {tuple(np.round(c, 9)) for c in reflex_corners(free)}
    rng = np.random.default_rng(7 + len(name))
    for _ in range(8):
        s, g = random_point_on(rng, free), random_point_on(rng, free)
        route = mesh.route(s, g)
        for bend in route.path[1:-1]:
            assert is_reflex_corner(free, bend), (name, bend)
            assert tuple(np.round(bend, 9)) in corners


@pytest.mark.parametrize("name, free", floors())
def test_funnel_in_the_corridor_holding_the_shortest_path_is_the_shortest_path(name, free):
    mesh = bake_navmesh(free)
    rng = np.random.default_rng(99 + len(name))
    for _ in range(5):
        s, g = random_point_on(rng, free), random_point_on(rng, free)
        best_path, best = reference_shortest(free, s, g)
        corridor = mesh.corridor_holding(best_path)
        portals = portals_from_corridor(mesh.corridor_polygons(corridor))
        assert path_length(funnel(s, g, portals)) == pytest.approx(best, rel=1e-9, abs=1e-9)
        # and the corridor A* picks is never better than that
        assert path_length(mesh.route(s, g).path) >= best - 1e-9


def test_lesson_map_bends_at_pillar_and_wall_corners(mesh):
    """The issue's two open-floor bends, (4.5, 2.0) and (3, 8), cannot happen any more."""
    free = lesson_walkable()
    for s, g in [((1.2, 1.0), (14.8, 9.0)), ((2.0, 8.5), (14.8, 9.0)),
                 (ARTICLE_START, ARTICLE_GOAL)]:
        route = mesh.route(s, g)
        for bend in route.path[1:-1]:
            assert is_reflex_corner(free, bend)
    assert np.allclose(mesh.route((1.2, 1.0), (14.8, 9.0)).path[1:-1], [(8, 3.5), (11, 6.5)])


def test_boundary_and_reflex_corners_of_the_lesson_map():
    free = lesson_walkable()
    edges = boundary_edges(free)
    assert path_length(np.vstack([edges[:, 0], edges[:1, 0]])) > 0
    assert sum(math.dist(a, b) for a, b in edges) == pytest.approx(free.length)
    reflex = {tuple(p) for p in reflex_corners(free)}
    # four corners per pillar and per middle wall, two for each wall end on the outline
    assert len(reflex) == 4 + 4 + 4 + 2 + 2
    assert (7.0, 2.0) in reflex and (0.0, 0.0) not in reflex


def test_erosion_keeps_the_radius_and_closes_narrow_doors():
    free = lesson_walkable()
    for r in (0.2, 0.5):
        eroded = erode(free, r)
        # every point left is at least r from every obstacle, corners included
        for ring in [eroded.exterior, *eroded.interiors]:
            for v in ring.coords:
                assert free.exterior.distance(Point(v)) >= r - 1e-9
                assert all(h.distance(Point(v)) >= r - 1e-9 for h in
                           [Polygon(i) for i in free.interiors])
    # the doors are 1.5 m wide: a 0.8 m radius splits the floor in two
    assert erode(free, 0.8).geom_type == "MultiPolygon"
    with pytest.raises(ValueError, match="radius"):
        erode(free, -1)


def test_a_star_over_polygons_can_pick_a_corridor_without_the_shortest_path(mesh):
    """The article's last point, on the lesson map: the corridor A* picks goes left of the
    right pillar, the shortest path right of it; the funnel is perfect inside its corridor
    and still 15% longer."""
    free = lesson_walkable()
    s, g = BAD_CORRIDOR_START, BAD_CORRIDOR_GOAL
    route = mesh.route(s, g)
    best_path, best = reference_shortest(free, s, g)
    assert path_length(route.path) > 1.1 * best
    assert np.allclose(route.path[1:-1], [(11, 2), (11, 6.5)])
    holding = mesh.corridor_holding(best_path)
    assert holding != route.corridor
    portals = portals_from_corridor(mesh.corridor_polygons(holding))
    assert path_length(funnel(s, g, portals)) == pytest.approx(best)


def test_shortest_path_refuses_separate_pieces_and_points_off_the_floor():
    split = erode(lesson_walkable(), 0.8)   # the doors close: two pieces
    with pytest.raises(NoRouteError, match="separate"):
        shortest_path(split, (1.2, 1.0), (14.5, 1.0))
    with pytest.raises(ValueError, match="not on the floor"):
        shortest_path(lesson_walkable(), (3.7, 4.5), (1, 1))


def test_turns_group_the_bends_round_one_obstacle_corner():
    free = lesson_walkable()
    point = lesson_navmesh().route(ARTICLE_START, ARTICLE_GOAL).path
    assert [g for _c, g in turns(point, free)] == [[1], [2], [3]]   # a point: bend = turn
    for r in (0.2, 0.4, 0.6):
        path = bake_navmesh(erode(free, r)).route(ARTICLE_START, ARTICLE_GOAL).path
        found = turns(path, free, r)
        assert [i for _c, g in found for i in g] == list(range(1, len(path) - 1))
        assert len(found) < len(path) - 2                           # arcs of several bends
        for c, group in found:
            assert all(abs(math.dist(path[i], c) - r / math.cos(math.pi / 16)) < 1e-9
                       for i in group)
        where = [c for c, _g in found]
        assert all(not np.allclose(a, b) for a, b in zip(where, where[1:], strict=False))
    # a bend in open floor goes round no corner: a turn of its own
    ((where, group),) = turns([(1, 1), (2, 2), (3, 1)], free)
    assert group == [1] and np.allclose(where, (2, 2))
    with pytest.raises(ValueError, match="radius"):
        turns(point, free, -1)
    with pytest.raises(ValueError, match="free"):
        turns(point, "floor")


@pytest.mark.parametrize("bad", [[-1], [10**9], [True], [2.5]])
def test_find_corridor_refuses_a_blocked_index_that_is_no_polygon(bad):
    """Issue 30: blocked=[-1] and [10**9] were silently ignored."""
    mesh = lesson_navmesh()
    with pytest.raises(ValueError, match="blocked polygon index"):
        mesh.find_corridor(ARTICLE_START, ARTICLE_GOAL, blocked=bad)
