"""Grid path finding and string pulling.

A grid is a 2D boolean array ``grid[y, x]``, ``True`` where the cell is blocked. Cell
``(x, y)`` is the closed unit square ``[x, x + 1] x [y, y + 1]``; a path visits cell
centres ``(x + 0.5, y + 0.5)`` and is written as a list of integer ``(x, y)`` pairs.

The ``corner_cutting`` rule is the single switch shared by movement and line of sight:

* ``corner_cutting=False`` (the default, the careful rule): a diagonal step is allowed only
  when both cells it passes between are free, and a sight line may not even touch a blocked
  cell, not at a corner point either. A unit never grazes a wall corner.
* ``corner_cutting=True``: a diagonal step only needs its target cell free (it may squeeze
  between two blocked cells that touch at a corner), and a sight line is blocked only when it
  passes through the *inside* of a blocked cell.

:func:`line_of_sight` is exact: it looks at every cell whose square the segment touches,
with integer arithmetic, not at a rounded (Bresenham) line.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from types import SimpleNamespace

import numpy as np

from . import validate as check
from .i18n import _

__all__ = [
    "NoPathError",
    "check_grid",
    "grid_astar",
    "line_of_sight",
    "string_pull",
    "path_length",
    "make_line_of_sight",
    "segment_cells",
    "serpentine_grid",
    "catmull_rom",
]

SQRT2 = math.sqrt(2.0)
#: The most cells :func:`serpentine_grid` makes (a 2000 x 2000 grid).
MAX_CELLS = 4_000_000
#: The most cells :func:`grid_astar` searches (500 x 500): about a second at worst (every
#: cell opened); the lesson's grids have a few hundred to 6,000 (200 walls of the snake).
MAX_SEARCH_CELLS = 250_000
#: The most samples per piece :func:`catmull_rom` takes (the lesson's app uses 40) ...
MAX_CURVE_SAMPLES = 10_000
#: ... and the most points of the curve it makes (16 MB).
MAX_CURVE_POINTS = 1_000_000


class NoPathError(ValueError):
    """The goal cannot be reached from the start on this grid."""


def check_grid(grid) -> np.ndarray:
    """``grid`` (rows = y, columns = x; True or 1 = blocked) as a 2D bool array, or a
    ValueError saying what is wrong."""
    if isinstance(grid, str | bytes) or grid is None:
        raise ValueError(f"the grid must be a 2D array of booleans, got {type(grid).__name__}")
    try:
        g = np.asarray(grid)
    except (TypeError, ValueError):
        raise ValueError("the grid must be a 2D array of booleans, not a ragged list") from None
    if g.ndim != 2 or g.shape[0] == 0 or g.shape[1] == 0:
        raise ValueError(f"the grid must be a non-empty 2D array (rows = y, columns = x), "
                         f"got shape {g.shape}")
    if g.dtype != bool:
        if not np.issubdtype(g.dtype, np.number) or not np.isin(g, (0, 1)).all():
            raise ValueError("the grid must hold booleans (True = blocked) or 0/1 values")
        g = g.astype(bool)
    return g


def _check_cell(grid: np.ndarray, cell, name: str) -> tuple[int, int]:
    if isinstance(cell, str | bytes):
        raise ValueError(f"{name} must be an (x, y) pair of cell indices, got "
                         f"{check.describe(cell)}")
    try:
        x, y = cell
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an (x, y) pair of cell indices, got "
                         f"{check.describe(cell)}") from None
    try:
        x = check.integer(x, f"{name}'s x", whole_floats=True)
        y = check.integer(y, f"{name}'s y", whole_floats=True)
    except ValueError:
        raise ValueError(f"{name} must be whole cell indices, got {cell!r:.60}") from None
    h, w = grid.shape
    if not (0 <= x < w and 0 <= y < h):
        raise ValueError(f"{name} {(x, y)} is outside the {w} x {h} grid")
    return x, y


def _diagonal_ok(grid: np.ndarray, x: int, y: int, dx: int, dy: int,
                 corner_cutting: bool) -> bool:
    """May a diagonal step go from (x, y) by (dx, dy)? Its target is already known free."""
    return corner_cutting or not (grid[y, x + dx] or grid[y + dy, x])


def grid_astar(grid, start, goal, corner_cutting: bool = False) -> list[tuple[int, int]]:
    """Shortest 8-connected path of cells from ``start`` to ``goal`` (both ``(x, y)``).

    Straight steps cost 1, diagonal steps sqrt(2); ``corner_cutting`` decides whether a
    diagonal step may pass a blocked cell that touches it at a corner (see the module text).
    Among equally short paths it returns the first one the search completes: on open floor
    that is one of many staircases.
    Raises :class:`NoPathError` (a ValueError) when the goal cannot be reached, and a
    ValueError for a grid of more than :data:`MAX_SEARCH_CELLS` (250,000) cells.
    """
    g = check_grid(grid)
    if g.size > MAX_SEARCH_CELLS:
        raise ValueError(f"grid_astar searches at most {MAX_SEARCH_CELLS:,} cells, got a "
                         f"{g.shape[1]} x {g.shape[0]} grid ({g.size:,}): use a smaller grid")
    s = _check_cell(g, start, "start")
    t = _check_cell(g, goal, "goal")
    corner_cutting = check.flag(corner_cutting, "corner_cutting")
    for name, (x, y) in (("start", s), ("goal", t)):
        if g[y, x]:
            raise ValueError(_("the {name} cell {cell} is blocked: pick a free cell").format(
                name=_(name), cell=(x, y)))
    h, w = g.shape
    steps = [(1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
             (1, 1, SQRT2), (1, -1, SQRT2), (-1, 1, SQRT2), (-1, -1, SQRT2)]

    def heuristic(x, y):  # octile distance: exact on an empty grid, so admissible
        ax, ay = abs(x - t[0]), abs(y - t[1])
        return max(ax, ay) + (SQRT2 - 1.0) * min(ax, ay)

    best = {s: 0.0}
    parent: dict[tuple[int, int], tuple[int, int] | None] = {s: None}
    counter = 0
    heap = [(heuristic(*s), 0.0, counter, s)]
    closed = set()
    while heap:
        _f, cost, _c, cell = heapq.heappop(heap)
        if cell in closed:
            continue
        if cell == t:
            path = []
            node: tuple[int, int] | None = cell
            while node is not None:
                path.append(node)
                node = parent[node]
            return path[::-1]
        closed.add(cell)
        x, y = cell
        for dx, dy, step in steps:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h) or g[ny, nx]:
                continue
            if dx and dy and not _diagonal_ok(g, x, y, dx, dy, corner_cutting):
                continue
            new = cost + step
            if new < best.get((nx, ny), math.inf) - 1e-12:
                best[(nx, ny)] = new
                parent[(nx, ny)] = cell
                counter += 1
                heapq.heappush(heap, (new + heuristic(nx, ny), new, counter, (nx, ny)))
    raise NoPathError((_("no path from {s} to {t}: the goal is walled off "
                         "(corner_cutting=True)") if corner_cutting else
                       _("no path from {s} to {t}: the goal is walled off "
                         "(corner_cutting=False)")).format(s=s, t=t))


def segment_cells(shape, a, b, corner_cutting: bool = False) -> np.ndarray:
    """The cells ``(x, y)`` whose square the segment between the centres of ``a`` and ``b``
    meets: every touched cell (corners included) when ``corner_cutting`` is False, only the
    cells whose inside it crosses when True. Exact (integer arithmetic). Both cells must be
    inside the grid ``shape`` (rows, columns), so the work is at most the grid's size."""
    if not isinstance(shape, tuple | list) or len(shape) != 2:
        raise ValueError(f"shape must be (rows, columns), got {shape!r:.40}")
    h = check.integer(shape[0], "shape's rows", lo=1)
    w = check.integer(shape[1], "shape's columns", lo=1)
    box = SimpleNamespace(shape=(h, w))
    ax, ay = _check_cell(box, a, "a")
    bx, by = _check_cell(box, b, "b")
    corner_cutting = check.flag(corner_cutting, "corner_cutting")
    # Doubled coordinates: centres become odd integers, cell corners even integers.
    px, py = 2 * ax + 1, 2 * ay + 1
    dx, dy = 2 * (bx - ax), 2 * (by - ay)
    xs = np.arange(min(ax, bx), max(ax, bx) + 1)
    ys = np.arange(min(ay, by), max(ay, by) + 1)
    cx, cy = np.meshgrid(xs, ys)
    cx = cx.ravel()
    cy = cy.ravel()
    # Side of the line for each of the four corners of each cell (sign of the cross product).
    sides = []
    for ox in (0, 2):
        for oy in (0, 2):
            sides.append(dx * (2 * cy + oy - py) - dy * (2 * cx + ox - px))
    s = np.stack(sides)
    if corner_cutting:
        # the inside is crossed unless every corner is on one side or on the line
        hit = ~((s >= 0).all(axis=0) | (s <= 0).all(axis=0))
    else:
        hit = ~((s > 0).all(axis=0) | (s < 0).all(axis=0))
    # Every cell of the index box overlaps the segment's box (the ends are cell centres),
    # so the line-side test above decides alone.
    return np.stack([cx[hit], cy[hit]], axis=1)


def line_of_sight(grid, a, b, corner_cutting: bool = False) -> bool:
    """True when the straight segment between the centres of cells ``a`` and ``b`` is clear.

    Follows the same ``corner_cutting`` rule as :func:`grid_astar`, so a path smoothed with
    it is one the unit can walk.
    """
    g = check_grid(grid)
    a = _check_cell(g, a, "a")
    b = _check_cell(g, b, "b")
    cells = segment_cells(g.shape, a, b, corner_cutting)
    return not g[cells[:, 1], cells[:, 0]].any()


def make_line_of_sight(grid, corner_cutting: bool = False) -> Callable[[object, object], bool]:
    """A two-argument line-of-sight test bound to ``grid``, ready for :func:`string_pull`."""
    g = check_grid(grid)
    corner_cutting = check.flag(corner_cutting, "corner_cutting")

    def visible(a, b) -> bool:
        cells = segment_cells(g.shape, _check_cell(g, a, "a"), _check_cell(g, b, "b"),
                              corner_cutting)
        return not g[cells[:, 1], cells[:, 0]].any()

    return visible


def string_pull(path: Sequence, line_of_sight: Callable[[object, object], bool],
                check_neighbours: bool = True) -> list:
    """Drop every point that the previous kept point can see past.

    From the current anchor, look at the farthest point first and step back until one is in
    sight; keep it and make it the new anchor. Neighbouring points of a valid path always see
    each other, so this never gets stuck; in the worst case it asks ``line_of_sight`` about
    every pair, O(n^2) calls. A path whose neighbouring points do not see each other (grid
    cells that are not neighbours, a jump through a wall) is refused with a ValueError
    naming the first such pair: that asks about the neighbour the search stepped back to.
    With ``check_neighbours=False`` a neighbour is kept unasked, as the source article's
    ``Pull()`` does, so the calls are exactly its sight checks: for a path known to be
    connected (grid_astar's).
    """
    check_neighbours = check.flag(check_neighbours, "check_neighbours")
    try:
        if isinstance(path, str | bytes):
            raise TypeError
        pts = list(path)
    except TypeError:
        raise ValueError(f"path must be a list of points, got {type(path).__name__}") from None
    if not pts:
        raise ValueError("string_pull needs a path with at least one point")
    if not callable(line_of_sight):
        raise ValueError("line_of_sight must be a function (a, b) -> bool")
    result = [pts[0]]
    anchor = 0
    last = len(pts) - 1
    while anchor < last:
        far = last
        while far > anchor + 1 and not line_of_sight(pts[anchor], pts[far]):
            far -= 1
        if far == anchor + 1 and check_neighbours and not line_of_sight(pts[anchor], pts[far]):
            raise ValueError(f"points {anchor} and {far} of the path, {pts[anchor]!r:.40} and "
                             f"{pts[far]!r:.40}, do not see each other: give a connected "
                             "path (neighbouring grid cells, as grid_astar returns)")
        result.append(pts[far])
        anchor = far
    return result


def path_length(points) -> float:
    """Sum of the straight pieces between consecutive points (cells count as their centres)."""
    try:
        p = check.array(points, "points", (None, 2), finite=False, what="x, y pairs")
    except ValueError as exc:
        raise ValueError(f"points must be an (N, 2) array of x, y pairs: {exc}") from None
    if not np.isfinite(p).all():
        raise ValueError("points contain NaN or infinity")
    if len(p) < 2:
        return 0.0
    with np.errstate(over="ignore"):
        total = float(np.hypot(*np.diff(p, axis=0).T).sum())
    if not math.isfinite(total):
        raise ValueError("the path is too long to measure (its length overflows): scale it "
                         "down")
    return total


def serpentine_grid(n_walls: int, height: int = 9, spacing: int = 3) -> tuple[np.ndarray, tuple,
                                                                           tuple]:
    """A grid of ``n_walls`` walls across a corridor, with gaps alternating top and bottom,
    plus a start and goal at its two ends. The A* path snakes through the gaps, so few of
    its points see each other: the hard case for string pulling."""
    n_walls = check.integer(n_walls, "n_walls", lo=0, hi=10**9)   # the product is checked
    height = check.integer(height, "height", lo=3, hi=10**9)
    spacing = check.integer(spacing, "spacing", lo=2, hi=10**9)
    width = (n_walls + 1) * spacing + 1
    if width * height > MAX_CELLS:
        raise ValueError(f"that grid has {width * height} cells, more than {MAX_CELLS}: use "
                         "fewer walls, a smaller height or a smaller spacing")
    g = np.zeros((height, width), dtype=bool)
    for k in range(n_walls):
        x = (k + 1) * spacing
        g[:, x] = True
        gap = height - 1 if k % 2 == 0 else 0
        g[gap, x] = False
    return g, (0, height // 2), (width - 1, height // 2)


def catmull_rom(points, samples: int = 24) -> np.ndarray:
    """A Catmull-Rom curve through ``points`` (the end points repeated), ``samples`` points
    per piece: the "make it look smooth" step the lesson warns about. An (M, 2) array.
    ``samples``: 1 to :data:`MAX_CURVE_SAMPLES` (10,000), and the curve at most
    :data:`MAX_CURVE_POINTS` (10**6) points; a ValueError beyond."""
    try:
        p = check.array(points, "points", (None, 2), min_rows=2, what="x, y pairs")
    except ValueError as exc:
        raise ValueError(f"catmull_rom needs an (N, 2) array with N >= 2: {exc}") from None
    if float(np.abs(p).max()) > 1e300:
        raise ValueError("catmull_rom: coordinates beyond 1e300 overflow the curve; scale "
                         "the points down")
    samples = check.integer(samples, "samples", lo=1, hi=MAX_CURVE_SAMPLES)
    if (len(p) - 1) * samples + 1 > MAX_CURVE_POINTS:
        raise ValueError(f"catmull_rom makes at most {MAX_CURVE_POINTS:,} points: "
                         f"{len(p) - 1:,} pieces of {samples} samples are too many")
    q = np.vstack([p[:1], p, p[-1:]])
    t = np.linspace(0.0, 1.0, samples, endpoint=False)[None, :, None]
    p0, p1, p2, p3 = (q[i:len(q) - 3 + i, None, :] for i in range(4))   # all pieces at once
    curve = 0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t ** 2
                   + (3 * p1 - p0 - 3 * p2 + p3) * t ** 3)
    return np.vstack([curve.reshape(-1, 2), q[-2:-1]])
