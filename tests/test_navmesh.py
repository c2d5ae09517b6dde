"""The navmesh: adjacency, point location, polygon-level A*, whole-map routes."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from lessons_lib.funnel import CorridorTooNarrow
from lessons_lib.navmesh import NavMesh, NoRouteError, grid_navmesh, lesson_navmesh
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


def test_lesson_route_saves_about_a_fifth(mesh):
    route = mesh.route((1.2, 1.0), (14.8, 9.0))
    saved = 1 - path_length(route.path) / path_length(route.midpoints)
    assert 0.1 < saved < 0.3
    # it bends only at corners of walls or pillars
    assert len(route.path) == 5


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
def test_radius_on_the_lesson_map_against_the_exact_answer(mesh, radius):
    """Shrinking portals keeps only about radius / sqrt(2) at the pillar's corner; the exact
    path (corridor eroded by the radius with shapely) keeps the full radius and is longer."""
    from test_funnel import _eroded_shortest

    s, g = (1.2, 1.0), (14.8, 9.0)
    route = mesh.route(s, g, radius=radius)
    polys = mesh.corridor_polygons(route.corridor)
    from lessons_lib.funnel import corridor_walls, path_clearance

    clear = path_clearance(route.path, corridor_walls(polys))
    exact_len, exact_clear = _eroded_shortest(polys, s, g, radius)
    assert clear == pytest.approx(radius / math.sqrt(2), rel=1e-3)
    assert exact_clear >= radius - 2e-4
    assert exact_len > path_length(route.path)
