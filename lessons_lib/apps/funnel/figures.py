"""Lesson 4's static pictures (made once, shown with ``fig.canvas``): how the work of the two
smoothers grows, and a Catmull-Rom curve through a funnel path that leaves the floor."""

from __future__ import annotations

import time

import numpy as np
from matplotlib.collections import PolyCollection

from ... import funnel as fn
from ... import pathsmooth as ps
from ... import validate as check
from ...i18n import _
from ..core import GREYS, LINE, MARKER, PALETTE, make_figure, rc_context
from .view import FLOOR_COLOUR, WALL_COLOUR, _plain_axes

__all__ = ["cost_figure", "curve_figure", "funnel_work", "string_pull_work"]


#: The largest inputs of the cost figure's measurements (the lesson's are 16 walls and 1000
#: portals; string pulling's sight checks grow with the square of the walls).
MAX_WORK_WALLS = 200
MAX_WORK_PORTALS = 100_000


def string_pull_work(n_walls: int) -> tuple[int, int, float]:
    """String pulling on a snaking grid path through ``n_walls`` walls: (path points, sight
    checks, milliseconds). Its work grows with the square of ``n_walls``: at most
    :data:`MAX_WORK_WALLS`."""
    n_walls = check.integer(n_walls, "n_walls", lo=0, hi=MAX_WORK_WALLS)
    grid, s, g = ps.serpentine_grid(n_walls)
    path = ps.grid_astar(grid, s, g)
    sight = ps.make_line_of_sight(grid)
    calls = []
    t0 = time.perf_counter()
    ps.string_pull(path, lambda a, b: calls.append(1) or sight(a, b), check_neighbours=False)
    return len(path), len(calls), 1000 * (time.perf_counter() - t0)


def funnel_work(n_portals: int, seed: int = 1) -> tuple[int, int, float]:
    """The funnel on a wandering corridor of ``n_portals`` portals: (portals, portal visits,
    milliseconds); at most :data:`MAX_WORK_PORTALS`."""
    n_portals = check.integer(n_portals, "n_portals", lo=0, hi=MAX_WORK_PORTALS)
    polys = fn.strip_corridor(n_portals, seed=seed)
    portals = np.array(fn.portals_from_corridor(polys))
    s, g = polys[0].mean(axis=0), polys[-1].mean(axis=0)
    t0 = time.perf_counter()
    fn.funnel(s, g, portals)
    ms = 1000 * (time.perf_counter() - t0)
    return n_portals, len(fn.funnel_steps(s, g, portals)), ms


def cost_figure(string_cost, funnel_cost, width: float = 7.5, height: float = 3.0):
    """Work against input size on log-log axes: sight checks of string pulling, portal visits
    of the funnel (rows as returned by :func:`string_pull_work` and :func:`funnel_work`)."""
    string_cost = check.array(string_cost, "string_cost", (None, 3), min_rows=1,
                              what="rows (points, checks, ms)")
    funnel_cost = check.array(funnel_cost, "funnel_cost", (None, 3), min_rows=1,
                              what="rows (portals, visits, ms)")
    if (string_cost[:, :2] <= 0).any() or (funnel_cost[:, :2] <= 0).any():
        raise ValueError("sizes and counts must be positive: they go on log axes")
    fig = make_figure(width, height)
    with rc_context():
        ax = fig.add_subplot(1, 1, 1)
        ax.loglog([p for p, _c, _m in string_cost], [c for _p, c, _m in string_cost], "o-",
                  color=PALETTE["vermillion"],
                  label=_("string pulling: sight checks (x = path points)"))
        ax.loglog([n for n, _v, _m in funnel_cost], [v for _n, v, _m in funnel_cost], "s-",
                  color=PALETTE["blue"], label=_("funnel: portal visits (x = portals)"))
        ax.set_xlabel(_("input size"))
        ax.set_ylabel(_("work (checks or visits)"))
        ax.legend(loc="lower right")
        fig.tight_layout()
    return fig


def curve_figure(mesh, path, curve, off, width: float = 7.5, height: float = 3.9):
    """The funnel path, a Catmull-Rom curve through it, and the curve's samples that are off
    the floor, on the lesson map."""
    from ...navmesh import NavMesh

    if not isinstance(mesh, NavMesh):
        raise ValueError(f"mesh must be a NavMesh, got {type(mesh).__name__}")
    path = check.array(path, "path", (None, 2), min_rows=2)
    curve = check.array(curve, "curve", (None, 2), min_rows=2)
    off = check.array(off, "off", (None, 2))
    fig = make_figure(width, height)
    with rc_context():
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_facecolor(WALL_COLOUR)
        ax.add_collection(PolyCollection(mesh.coords, facecolors=FLOOR_COLOUR,
                                         edgecolors=GREYS["mesh"]))
        ax.plot(*np.asarray(path).T, "-o", color=PALETTE["black"], lw=LINE["bold"],
                label=_("funnel path"))
        ax.plot(*np.asarray(curve).T, "-.", color=PALETTE["orange"], lw=LINE["bold"],
                label=_("Catmull-Rom through it"))
        ax.plot(*np.asarray(off).reshape(-1, 2).T, "X", color=PALETTE["vermillion"],
                ms=MARKER["knob"], label=_("curve inside a wall"))
        lo, hi = mesh.bounds
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[1], hi[1])
        _plain_axes(ax)
        ax.legend(loc="upper left", framealpha=0.95)
    return fig
