"""Lesson 4: app latency (callback + full Agg draw) and how the two smoothers scale.

Budget from the issue: a step, a drag or a slider redraws in at most 50 ms median. The
funnel must grow linearly with the number of portals; string pulling is shown growing
faster on snaking grid paths.
"""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np

from lessons_lib import funnel as fn
from lessons_lib import pathsmooth as ps
from lessons_lib.apps.funnel import FunnelApp, GridApp

from common import full_draw, row, time_ms

BUDGET = "<= 50 ms"


def strip_portals(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Portals of :func:`lessons_lib.funnel.strip_corridor` read straight off its pieces
    (walking +x, the top end is on the left), plus start and goal."""
    polys = fn.strip_corridor(n, seed=seed)
    portals = np.array([[p[2], p[1]] for p in polys[:-1]])
    return portals, polys[0].mean(axis=0), polys[-1].mean(axis=0)


def _app_rows() -> list[dict]:
    rows = []
    app = FunnelApp()
    app.fig.canvas.syncing_data_url = False  # as with a browser attached
    try:
        steps = itertools.cycle(range(app.step.max + 1))

        def step():
            app.step.value = next(steps)
            full_draw(app.fig)

        rows.append(row("funnel step slider: callback + full draw", time_ms(step),
                        budget=BUDGET, note=f"{app.step.max + 1} steps"))

        goals = itertools.cycle([(14.8, 9.0), (14.5, 1.0), (9.5, 5.5), (12.0, 8.5)])

        def drag():
            app.set_points(goal=next(goals))
            full_draw(app.fig)

        rows.append(row("drag goal: A* corridor + funnel trace + full draw", time_ms(drag),
                        budget=BUDGET))

        radii = itertools.cycle([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])

        def radius():
            app.radius.value = next(radii)
            full_draw(app.fig)

        rows.append(row("agent radius slider: shrink + funnel + full draw", time_ms(radius),
                        budget=BUDGET))
        rows.append(row("funnel app: full draw alone", time_ms(lambda: full_draw(app.fig))))
    finally:
        plt.close(app.fig)

    grid = GridApp()
    grid.fig.canvas.syncing_data_url = False
    try:
        rules = itertools.cycle(["careless", "same"])

        def rule():
            grid.sight_rule.value = next(rules)
            full_draw(grid.fig)

        rows.append(row("grid sight rule: A* + string pull + full draw", time_ms(rule),
                        budget=BUDGET))

        def wall():
            grid.toggle_cell(10, 2)
            full_draw(grid.fig)

        rows.append(row("grid click a wall: A* + string pull + full draw", time_ms(wall),
                        budget=BUDGET))
    finally:
        plt.close(grid.fig)
    return rows


def _scaling_rows() -> list[dict]:
    rows = []
    per_portal = []
    for n in (100, 1_000, 10_000, 100_000):
        portals, s, g = strip_portals(n)
        repeat = 20 if n <= 1_000 else (5 if n <= 10_000 else 3)
        stats = time_ms(lambda portals=portals, s=s, g=g: fn.funnel(s, g, portals),
                        repeat=repeat, warmup=1)
        per_portal.append(1000 * stats["median"] / n)
        note = f"{per_portal[-1]:.1f} us per portal"
        if n <= 10_000:  # the work itself, free of timing noise: portal visits per portal
            visits = len(fn.funnel_steps(s, g, portals))
            note += f", {visits / n:.2f} visits per portal"
        rows.append(row(f"funnel, {n:,} portals", stats, note=note))
    rows.append(row("funnel: us per portal at 10^5 / at 10^2", per_portal[-1] / per_portal[0],
                    unit="ratio", note="about 1 means linear (noisy on a shared machine)"))
    for walls in (4, 8, 16, 32):
        grid, s, g = ps.serpentine_grid(walls)
        path = ps.grid_astar(grid, s, g)
        sight = ps.make_line_of_sight(grid)
        stats = time_ms(lambda path=path, sight=sight: ps.string_pull(path, sight),
                        repeat=5 if walls < 32 else 3, warmup=1)
        calls = []
        ps.string_pull(path, lambda a, b, calls=calls, sight=sight:
                       calls.append(1) or sight(a, b))
        rows.append(row(f"string pull, {len(path)}-point snaking grid path", stats,
                        note=f"{len(calls)} sight checks"))
    return rows


def _exercise_rows() -> list[dict]:
    """An exercise's "Show this case" on its small copy of the map (two questions taking
    turns, so that each press changes the case), with the copy's full draw."""
    from lessons_lib.apps.funnel import exercises

    copy = FunnelApp().copy()
    copy.fig.canvas.syncing_data_url = False
    try:
        buttons = itertools.cycle([exercises.step_question(copy, 4).show_button,
                                   exercises.rooms_corners_question(copy).show_button])

        def show():
            next(buttons).click()
            full_draw(copy.fig)

        return [row("exercise copy: Show this case + full draw", time_ms(show), budget=BUDGET)]
    finally:
        plt.close(copy.fig)


def run() -> list[dict]:
    return _app_rows() + _exercise_rows() + _scaling_rows()
