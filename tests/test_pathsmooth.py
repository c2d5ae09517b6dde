"""Grid A*, exact line of sight and string pulling, against independent references."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, box

from lessons_lib.pathsmooth import (
    NoPathError,
    grid_astar,
    line_of_sight,
    make_line_of_sight,
    path_length,
    segment_cells,
    serpentine_grid,
    string_pull,
)

STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def random_grid(rng, h=12, w=14, density=0.3):
    return rng.random((h, w)) < density


def reference_sight(grid, a, b, corner_cutting):
    """Independent: shapely, cell by cell. Strict rule = the closed square is touched;
    corner cutting = the segment meets the square's inside."""
    seg = LineString([(a[0] + 0.5, a[1] + 0.5), (b[0] + 0.5, b[1] + 0.5)])
    ys, xs = np.nonzero(grid)
    for x, y in zip(xs, ys, strict=True):
        square = box(x, y, x + 1, y + 1)
        if corner_cutting:
            if a != b and seg.relate_pattern(square, "T********"):
                return False
            if a == b and grid[a[1], a[0]]:
                return False
        elif seg.intersects(square):
            return False
    return True


def reference_astar_length(grid, start, goal, corner_cutting):
    """Independent: Dijkstra in networkx over the same 8-connected moves."""
    h, w = grid.shape
    graph = nx.Graph()
    for y in range(h):
        for x in range(w):
            if grid[y, x]:
                continue
            for dx, dy in STEPS:
                nx_, ny_ = x + dx, y + dy
                if not (0 <= nx_ < w and 0 <= ny_ < h) or grid[ny_, nx_]:
                    continue
                if dx and dy and not corner_cutting and (grid[y, nx_] or grid[ny_, x]):
                    continue
                graph.add_edge((x, y), (nx_, ny_), weight=math.hypot(dx, dy))
    try:
        return nx.dijkstra_path_length(graph, start, goal)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


# -- line of sight --------------------------------------------------------------------------
@pytest.mark.parametrize("corner_cutting", [False, True])
def test_line_of_sight_matches_shapely_on_random_grids(corner_cutting):
    rng = np.random.default_rng(1 + corner_cutting)
    differ = 0
    for _ in range(20):
        g = random_grid(rng, 9, 10, 0.25)
        free = np.argwhere(~g)
        for _ in range(20):
            (ay, ax), (by, bx) = free[rng.integers(len(free), size=2)]
            a, b = (int(ax), int(ay)), (int(bx), int(by))
            got = line_of_sight(g, a, b, corner_cutting)
            assert got == reference_sight(g, a, b, corner_cutting), (a, b)
            differ += got != line_of_sight(g, a, b, not corner_cutting)
    assert differ > 0  # the two rules really do disagree somewhere


def test_line_of_sight_is_exact_at_corners():
    g = np.zeros((3, 3), bool)
    g[0, 1] = True  # cell (1, 0)
    # (0,0) -> (1,1) passes the corner point (1, 1) of blocked cell (1, 0)
    assert not line_of_sight(g, (0, 0), (1, 1))
    assert line_of_sight(g, (0, 0), (1, 1), corner_cutting=True)
    # a shallow line a rounded (Bresenham) line gets wrong: (0,0) -> (3,1) runs through the
    # lattice point (2, 1), the corner of cell (2, 0): touched but not entered
    g = np.zeros((3, 4), bool)
    g[0, 2] = True
    assert not line_of_sight(g, (0, 0), (3, 1))
    assert line_of_sight(g, (0, 0), (3, 1), corner_cutting=True)
    g = np.zeros((3, 4), bool)
    g[1, 1] = True  # cell (1, 1): the line (0,0)->(3,2) goes through its inside
    assert not line_of_sight(g, (0, 0), (3, 2), corner_cutting=True)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_line_of_sight_is_symmetric(seed):
    rng = np.random.default_rng(seed)
    g = random_grid(rng, 8, 8, 0.3)
    a = tuple(int(v) for v in rng.integers(0, 8, 2))
    b = tuple(int(v) for v in rng.integers(0, 8, 2))
    for cc in (False, True):
        assert line_of_sight(g, a, b, cc) == line_of_sight(g, b, a, cc)


@pytest.mark.parametrize("corner_cutting", [False, True])
def test_sight_for_one_step_equals_the_movement_rule(corner_cutting):
    """The trap avoided: a single step is visible exactly when A* may take it."""
    rng = np.random.default_rng(4)
    for _ in range(10):
        g = random_grid(rng, 6, 6, 0.35)
        h, w = g.shape
        for y in range(h):
            for x in range(w):
                if g[y, x]:
                    continue
                for dx, dy in STEPS:
                    nx_, ny_ = x + dx, y + dy
                    if not (0 <= nx_ < w and 0 <= ny_ < h):
                        continue
                    may_move = not g[ny_, nx_] and (
                        corner_cutting or not (dx and dy) or not (g[y, nx_] or g[ny_, x]))
                    assert line_of_sight(g, (x, y), (nx_, ny_), corner_cutting) == may_move


def test_segment_cells_straight_line():
    cells = segment_cells((5, 5), (0, 2), (4, 2))
    assert sorted(map(tuple, cells)) == [(x, 2) for x in range(5)]


def test_line_of_sight_bad_input():
    g = np.zeros((3, 3), bool)
    with pytest.raises(ValueError, match="outside"):
        line_of_sight(g, (0, 0), (3, 0))
    with pytest.raises(ValueError, match="whole cell"):
        line_of_sight(g, (0.5, 0), (1, 0))
    with pytest.raises(ValueError, match="2D"):
        line_of_sight(np.zeros(3, bool), (0, 0), (1, 0))
    with pytest.raises(ValueError, match="booleans"):
        line_of_sight(np.full((2, 2), 0.5), (0, 0), (1, 0))


# -- A* -------------------------------------------------------------------------------------
@pytest.mark.parametrize("corner_cutting", [False, True])
def test_astar_is_optimal_against_networkx(corner_cutting):
    rng = np.random.default_rng(10 + corner_cutting)
    found = 0
    for _ in range(60):
        g = random_grid(rng, 10, 12, 0.3)
        free = np.argwhere(~g)
        (ay, ax), (by, bx) = free[rng.integers(len(free), size=2)]
        a, b = (int(ax), int(ay)), (int(bx), int(by))
        want = reference_astar_length(g, a, b, corner_cutting)
        if want is None:
            with pytest.raises(NoPathError):
                grid_astar(g, a, b, corner_cutting)
            continue
        path = grid_astar(g, a, b, corner_cutting)
        assert path[0] == a and path[-1] == b
        assert path_length(path) == pytest.approx(want)
        for p, q in zip(path, path[1:], strict=False):  # every step is a legal move
            assert max(abs(q[0] - p[0]), abs(q[1] - p[1])) == 1
            assert line_of_sight(g, p, q, corner_cutting)
        found += 1
    assert found > 30


def test_astar_corner_rule_changes_the_answer():
    g = np.zeros((2, 2), bool)
    g[0, 1] = g[1, 0] = True  # two blocked cells touching at a corner
    with pytest.raises(NoPathError, match="walled off"):
        grid_astar(g, (0, 0), (1, 1))
    assert grid_astar(g, (0, 0), (1, 1), corner_cutting=True) == [(0, 0), (1, 1)]


def test_astar_bad_input():
    g = np.zeros((3, 3), bool)
    g[1, 1] = True
    with pytest.raises(ValueError, match="blocked"):
        grid_astar(g, (1, 1), (0, 0))
    with pytest.raises(ValueError, match="outside"):
        grid_astar(g, (0, 0), (5, 0))
    with pytest.raises(ValueError, match=r"\(x, y\) pair"):
        grid_astar(g, 3, (0, 0))


# -- string pulling -------------------------------------------------------------------------
@pytest.mark.parametrize("corner_cutting", [False, True])
def test_string_pull_keeps_sight_and_never_lengthens(corner_cutting):
    rng = np.random.default_rng(20 + corner_cutting)
    for _ in range(60):
        g = random_grid(rng, 14, 16, 0.25)
        free = np.argwhere(~g)
        (ay, ax), (by, bx) = free[rng.integers(len(free), size=2)]
        try:
            path = grid_astar(g, (int(ax), int(ay)), (int(bx), int(by)), corner_cutting)
        except NoPathError:
            continue
        sight = make_line_of_sight(g, corner_cutting)
        pulled = string_pull(path, sight)
        assert pulled[0] == path[0] and pulled[-1] == path[-1]
        assert path_length(pulled) <= path_length(path) + 1e-9
        idx = [path.index(p) for p in pulled]
        assert idx == sorted(idx)  # a subsequence of the original, in order
        for p, q in zip(pulled, pulled[1:], strict=False):
            assert line_of_sight(g, p, q, corner_cutting)


def test_string_pull_staircase_on_an_open_field():
    g = np.zeros((5, 9), bool)
    path = grid_astar(g, (0, 0), (8, 4))
    pulled = string_pull(path, make_line_of_sight(g))
    assert pulled == [(0, 0), (8, 4)]
    assert path_length(pulled) == pytest.approx(math.hypot(8, 4))


def test_mismatched_sight_rule_lets_the_unit_graze_a_wall():
    """The article's trap: movement forbids grazing corners, the sight test does not."""
    g = np.zeros((5, 5), bool)
    g[2, 2] = True  # one pillar cell
    path = grid_astar(g, (0, 3), (3, 0), corner_cutting=False)
    careless = string_pull(path, make_line_of_sight(g, corner_cutting=True))
    careful = string_pull(path, make_line_of_sight(g, corner_cutting=False))
    assert careless == [(0, 3), (3, 0)]  # straight over the pillar's corner (2, 2)
    # the careless pull keeps a segment the unit cannot walk (it touches the pillar's corner)
    assert any(not line_of_sight(g, p, q) for p, q in zip(careless, careless[1:], strict=False))
    assert all(line_of_sight(g, p, q) for p, q in zip(careful, careful[1:], strict=False))


def test_string_pull_counts_quadratic_checks_in_the_worst_case():
    calls = []

    def neighbours_only(a, b):
        calls.append((a, b))
        return abs(a - b) == 1

    n = 30
    pulled = string_pull(list(range(n)), neighbours_only)
    assert pulled == list(range(n))
    # every pair farther apart, then each neighbour once (the path is connected)
    assert len(calls) == (n - 1) * (n - 2) // 2 + (n - 1)


def _articles_pull(path, sight):
    """Article 002's Pull(), line for line: a neighbour is kept without a sight check."""
    result, anchor = [path[0]], 0
    while anchor < len(path) - 1:
        far = len(path) - 1
        while far > anchor + 1 and not sight(path[anchor], path[far]):
            far -= 1
        result.append(path[far])
        anchor = far
    return result


@pytest.mark.parametrize("seed", range(6))
def test_string_pull_without_neighbour_checks_asks_what_the_articles_pull_asks(seed):
    """Issue 41: the grid said 13 sight checks where the article's Pull() asks 12: ours
    asked again about the neighbour it stepped back to. With check_neighbours=False the
    calls are the article's, one for one, and the result is the same."""
    rng = np.random.default_rng(seed)
    g = rng.random((12, 12)) < 0.25
    g[0, 0] = g[11, 11] = False
    try:
        path = grid_astar(g, (0, 0), (11, 11))
    except ValueError:
        pytest.skip("no path on this random grid")
    sight = make_line_of_sight(g)
    ours, theirs = [], []
    pulled = string_pull(path, lambda a, b: ours.append((a, b)) or sight(a, b),
                         check_neighbours=False)
    assert pulled == _articles_pull(path, lambda a, b: theirs.append((a, b)) or sight(a, b))
    assert ours == theirs
    with pytest.raises(ValueError, match="check_neighbours"):
        string_pull(path, sight, check_neighbours="no")


def test_string_pull_bad_input():
    with pytest.raises(ValueError, match="at least one"):
        string_pull([], lambda a, b: True)
    with pytest.raises(ValueError, match="function"):
        string_pull([(0, 0)], None)
    assert string_pull([(1, 1)], lambda a, b: True) == [(1, 1)]


def test_path_length():
    assert path_length([(0, 0), (3, 4), (3, 5)]) == pytest.approx(6.0)
    assert path_length([(0, 0)]) == 0.0
    with pytest.raises(ValueError, match="NaN"):
        path_length([(0, 0), (np.nan, 1)])
    with pytest.raises(ValueError, match="shape"):
        path_length([1, 2, 3])


def test_serpentine_grid_is_the_hard_case():
    counts = []
    for n in (4, 8):
        g, s, t = serpentine_grid(n)
        path = grid_astar(g, s, t)
        calls = []
        sight = make_line_of_sight(g)
        string_pull(path, lambda a, b, calls=calls, sight=sight: calls.append(1) or sight(a, b))
        counts.append((len(path), len(calls)))
    (n1, c1), (n2, c2) = counts
    assert n2 > 1.8 * n1
    assert c2 > 3.0 * c1  # doubling the path about quadruples the sight checks
    with pytest.raises(ValueError, match="n_walls"):
        serpentine_grid(-1)


def test_string_pull_refuses_a_path_whose_neighbours_do_not_see_each_other():
    """Issue 30: a "grid path" with a jump through a wall was pulled into a string through
    the wall. Now the first pair that cannot see each other is named."""
    grid = np.zeros((5, 5), bool)
    grid[2, 0:4] = True                      # a wall across, open at x = 4
    def sight(a, b):
        return line_of_sight(grid, a, b)
    with pytest.raises(ValueError, match="points 1 and 2 of the path"):
        string_pull([(0, 0), (0, 1), (0, 3), (0, 4)], sight)
    path = grid_astar(grid, (0, 0), (0, 4))
    pulled = string_pull(path, sight)
    assert pulled[0] == (0, 0) and pulled[-1] == (0, 4)
    assert all(sight(a, b) for a, b in zip(pulled, pulled[1:], strict=False))
