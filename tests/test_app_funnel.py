"""Lesson 4's apps: the models without widgets, then the apps headless (set a control,
check what is drawn)."""

from __future__ import annotations

import html
import math
import re
from types import SimpleNamespace

import matplotlib.colors as mcolors
import numpy as np
import pytest
from shapely.geometry import LineString, Point
from shapely.geometry import box as box_polygon

from lessons_lib import funnel as fn
from lessons_lib.apps import FunnelApp, GridApp
from lessons_lib.apps.core.figure import MIN_TEXT_PX
from lessons_lib.apps.funnel import model, view
from lessons_lib.apps.funnel.app import PRESETS
from lessons_lib.apps.funnel.view import WARN_COLOUR
from lessons_lib.navmesh import lesson_walkable, reflex_corners
from lessons_lib.pathsmooth import path_length

from browser import run_async  # tests/browser.py


def params(**kw):
    base = dict(start_x=model.DEFAULT_START[0], start_y=model.DEFAULT_START[1],
                goal_x=model.DEFAULT_GOAL[0], goal_y=model.DEFAULT_GOAL[1], radius=0.0,
                method="shrink", corridor="astar", show_curve=False)
    base.update(kw)
    return SimpleNamespace(**base)


# -- the model, no widgets -------------------------------------------------------------------
def test_model_article_case():
    st = model.compute_funnel(params())
    assert st.ok and len(st.portals) == 7 and st.n_corners == 3
    assert f"{st.saved:.0f}" == "21"
    assert st.steps[-1].n_corners == 3  # the goal is not a corner
    corners = {tuple(c) for c in reflex_corners(lesson_walkable())}
    assert all(tuple(b) in corners for b in st.path[1:-1])
    assert path_length(st.path) == pytest.approx(path_length(st.shortest))
    assert np.allclose(fn.path_from_steps(list(st.steps)), st.path)


def test_model_bad_corridor_and_the_one_holding_the_shortest_path():
    bad = params(start_x=model.BAD_CORRIDOR_START[0], start_y=model.BAD_CORRIDOR_START[1],
                 goal_x=model.BAD_CORRIDOR_GOAL[0], goal_y=model.BAD_CORRIDOR_GOAL[1])
    st = model.compute_funnel(bad)
    assert st.excess("path") > 10
    assert st.excess("midpoints") > st.excess("path")
    best = model.compute_funnel(SimpleNamespace(**{**vars(bad), "corridor": "best"}))
    assert best.excess("path") == pytest.approx(0.0, abs=1e-7)
    assert best.corridor != st.corridor


def test_model_radius_two_ways_measured_to_the_obstacles():
    free = lesson_walkable()
    shrink = model.compute_funnel(params(radius=0.4))
    erode = model.compute_funnel(params(radius=0.4, method="erode"))
    for st in (shrink, erode):
        assert st.clearance == pytest.approx(free.boundary.distance(LineString(st.path)),
                                             abs=1e-9)
        p, w = st.clearance_at
        assert math.dist(p, w) == pytest.approx(st.clearance)
    assert shrink.clearance < 0.4 * 0.75     # shrinking cuts the corner
    assert erode.clearance >= 0.4 - 1e-9     # eroding keeps the radius
    # a door narrower than 2 r: impassable both ways, each says so
    door = dict(start_x=1.2, start_y=1.0, goal_x=14.5, goal_y=1.0, radius=0.8)
    a = model.compute_funnel(params(**door))
    b = model.compute_funnel(params(**door, method="erode"))
    assert not a.ok and a.narrow_portal is not None and "cannot pass" in a.error
    assert not b.ok and "narrower than 2 r" in b.error
    assert a.other_method_passes is False and b.other_method_passes is False


def test_model_start_in_a_wall_is_an_error_not_an_exception():
    st = model.compute_funnel(params(start_x=3.7, start_y=4.5))
    assert not st.ok and "inside a wall" in st.error and st.path is None


def test_model_curve_leaves_the_floor_and_is_longer():
    from lessons_lib.apps.funnel.app import CURVE_GOAL, CURVE_START

    st = model.compute_funnel(params(start_x=CURVE_START[0], start_y=CURVE_START[1],
                                     goal_x=CURVE_GOAL[0], goal_y=CURVE_GOAL[1],
                                     show_curve=True))
    assert len(st.curve_off) >= 1 and path_length(st.curve) > path_length(st.path)
    free = lesson_walkable()
    assert all(not free.covers(Point(q)) for q in st.curve_off)


def test_model_grid_article_numbers():
    grid = model.parse_grid(model.ARTICLE_GRID)
    st = model.compute_grid(grid, SimpleNamespace(
        start_x=1, start_y=2, goal_x=8, goal_y=5, corner_cutting=False, sight_rule="same"))
    la, lp = st.lengths
    assert (len(st.path), f"{la:.2f}", len(st.pulled), f"{lp:.2f}") == (9, "9.66", 4, "9.37")
    assert f"{st.saved:.0f}" == "3" and not st.stuck
    trap = model.compute_grid(grid, SimpleNamespace(
        start_x=1, start_y=2, goal_x=8, goal_y=5, corner_cutting=False, sight_rule="careless"))
    assert trap.stuck and len(trap.touch_points) == len(trap.stuck)


# -- FunnelApp --------------------------------------------------------------------------------
@pytest.fixture
def app():
    a = FunnelApp()
    yield a
    import matplotlib.pyplot as plt

    plt.close(a.fig)


@pytest.fixture
def grid_app():
    a = GridApp()
    yield a
    import matplotlib.pyplot as plt

    plt.close(a.fig)


def xy(line):
    x, y = line.get_data()
    return np.column_stack([np.asarray(x, float), np.asarray(y, float)])


def event(app, x, y, buttons=(1,)):
    return SimpleNamespace(inaxes=app.ax, xdata=x, ydata=y, button=1, buttons=buttons)


def test_opens_on_the_article_case_at_the_finished_path(app):
    assert app.preset.value == PRESETS[0].name
    assert app.step.value == app.step.max == app.state.n_beats - 1
    assert "7 portals crossed with 3 corners" in app.preset_note.value
    assert "21% shorter" in app.preset_note.value
    assert "corners fixed so far: 3" in app.panels["step"].value


def test_stepping_draws_each_step_and_never_recomputes(app):
    computed = app.compute_count
    v = app.view
    for b in range(app.step.max + 1):
        app.step.value = b
        beat = app.state.beats[b]
        s = app.state.steps[beat.step]
        apex, left, right = beat.before if beat.phase == "test" else (s.apex, s.left, s.right)
        assert np.allclose(xy(v.apex), [apex])
        assert np.allclose(xy(v.left_edge), [apex, left])
        assert np.allclose(xy(v.right_edge), [apex, right])
        assert np.allclose(v.wedge.get_xy()[:3], [apex, left, right])
        corners = s.corners[:-1] if beat.phase == "test" else s.corners
        assert np.allclose(xy(v.corners), corners)
        if 0 <= s.portal < len(app.state.portals):
            assert np.allclose(xy(v.tested), s.tested)
        text = app.panels["step"].value
        assert f"Step {b} of {app.step.max}" in text
        assert f"corners fixed so far: {len(corners) - 1 - (s.event == 'goal')}" in text
        # the long sentence is behind "why?", the short one names the points drawn
        assert f"<details><summary>why?</summary>{html.escape(s.text)}</details>" in text
    assert app.compute_count == computed


def _brief(app) -> str:
    text = app.panels["step"].value
    return html.unescape(re.sub("<[^>]+>", "", text.split("<details>")[0]))


def test_a_corner_step_comes_in_two_beats_with_the_crossing_ray(app):
    """The article's corridor: steps 6, 10 and 12 of the trace fix its three corners; each
    takes two beats (6-7, 11-12, 14-15 on the step slider). The first draws the funnel
    before the step, the end that crossed ringed and the dark red ray to it; the second the
    apex at the new corner, no ray."""
    app.apply_preset(PRESETS[0].name)
    st = app.state
    corner_steps = [k for k, s in enumerate(st.steps) if s.event.startswith("corner")]
    assert corner_steps == [6, 10, 12]
    tests = [b for b, beat in enumerate(st.beats) if beat.phase == "test"]
    assert tests == [6, 11, 14] and [st.beats[b].step for b in tests] == corner_steps
    v = app.view
    for b in range(app.step.max + 1):
        app.show_frame(b)
        ray = xy(v.cross_ray)
        if b not in tests:
            assert len(ray) == 0 and len(xy(v.cross_end)) == 0
            continue
        beat, s = st.beats[b], st.steps[st.beats[b].step]
        prev = st.steps[beat.step - 1]
        apex = prev.apex
        assert np.allclose(ray, [apex, beat.end]) and np.allclose(xy(v.cross_end), [beat.end])
        assert v.cross_ray.get_color() == WARN_COLOUR
        # the ray leaves the wedge over the crossed edge: the end is on its far side
        a, e = np.array(apex), np.array(beat.end)
        edge = np.array(beat.before[1] if beat.crossed == "left" else beat.before[2])
        side = fn.cross(a, edge, e) * (1 if beat.crossed == "left" else -1)
        assert side > 0, (b, beat)
        assert np.allclose(xy(v.apex), [apex]) and not np.allclose(apex, s.apex)
        brief = _brief(app)
        assert f"lies across the {beat.crossed} edge" in brief
        assert f"({beat.end[0]:.2f}, {beat.end[1]:.2f})" in brief
        assert f"corners fixed so far: {s.n_corners - 1}" in app.panels["step"].value
        app.show_frame(b + 1)       # the second beat: the apex moved to the corner
        assert np.allclose(xy(v.apex), [s.apex]) and len(xy(v.cross_ray)) == 0
        assert f"becomes corner {s.n_corners}" in _brief(app)
        assert f"({s.apex[0]:.2f}, {s.apex[1]:.2f})" in _brief(app)
    # the first corner's crossing is the issue's: portal 5's left end over the right edge
    app.show_frame(6)
    assert "Portal 5's left end (4.50, 6.50) lies across the right edge" in _brief(app)


def test_an_old_edge_is_dotted_unlike_every_route_line(app):
    """Issue 41: at the last step a faint blue dashed old edge looked like the sky-blue
    dashed exact shortest path. The old edges are dotted; no route line is."""
    app.apply_preset(PRESETS[0].name)
    app.show_frame(len(app.state.beats) - 1)
    v = app.view
    ghosts = [g for g in (v.left_ghost, v.right_ghost) if g.get_visible()]
    assert ghosts
    route = (v.shortest, v.zigzag, v.curve, v.pushed, v.corners, v.cross_ray)
    for ghost in ghosts:
        on, off = ghost._dash_pattern[1]
        assert on < off        # dots: shorter than the gaps between them
        assert all(line._dash_pattern != ghost._dash_pattern for line in route)


def test_a_narrowing_step_ghosts_the_old_edge(app):
    app.apply_preset(PRESETS[0].name)
    st = app.state
    v = app.view
    b = next(b for b, beat in enumerate(st.beats)
             if st.steps[beat.step].event == "narrow_left" and beat.ghost_left is not None)
    app.show_frame(b)
    prev, s = st.steps[st.beats[b].step - 1], st.steps[st.beats[b].step]
    assert np.allclose(xy(v.left_ghost), [prev.apex, prev.left])
    assert np.allclose(xy(v.left_edge), [s.apex, s.left])
    assert len(xy(v.right_ghost)) == 0                 # the right edge did not move
    assert v.left_ghost.get_alpha() < 1
    assert "Dotted: where it was" in _brief(app)
    assert f"the left edge moves in to ({s.left[0]:.2f}, {s.left[1]:.2f})" in _brief(app)
    lines = _brief(app).split("corners fixed")[0]
    assert len(lines) < 200     # one or two lines beside the map, not six


def test_buttons_move_the_step(app):
    app.rewind_button.click()
    assert app.step.value == 0 and app.play.value == 0
    app.next_button.click()
    app.next_button.click()
    assert app.step.value == 2 and app.play.value == 2
    app.prev_button.click()
    assert app.step.value == 1
    app.end_button.click()
    assert app.step.value == app.step.max
    app.next_button.click()
    assert app.step.value == app.step.max
    app.rewind_button.click()
    app.prev_button.click()
    assert app.step.value == 0


def test_portals_numbered_big_enough_and_colours_that_mean_one_thing(app):
    v = app.view
    assert view.LABEL_SIZE * app.fig.dpi / 72 >= MIN_TEXT_PX     # >= 14 px on the page
    assert len(v.labels.get_paths()) == len(app.state.portals)
    st = app.state
    pt = v._metres_per_point()
    for at, (left, right) in zip(v.labels.get_offsets(), st.portals, strict=True):
        mid = (left + right) / 2     # at the middle, unless by the start, goal or path
        near = min(np.hypot(*(mid - st.start)), np.hypot(*(mid - st.goal)))
        on_path = view._distance_to_polyline(mid, st.path) < view.LABEL_PATH_PT * pt
        assert np.allclose(at, mid) or ((near < view.LABEL_CLEAR or on_path) and abs(
            fn.cross(left, right, at)) < 1e-9 and (at - left) @ (right - at) > 0)
    tested = mcolors.to_hex(v.tested.get_color())
    others = [v.left_ends, v.right_ends, v.left_edge, v.right_edge, v.corners, v.zigzag,
              v.shortest, v.curve, v.start_dot, v.goal_dot, v.apex]
    used = {mcolors.to_hex(line.get_color()) for line in others}
    used |= {mcolors.to_hex(line.get_markerfacecolor()) for line in others}
    used.add(mcolors.to_hex(v.shrunk_lines.get_colors()[0]))
    used.add(mcolors.to_hex(v.portal_lines.get_colors()[0]))
    assert tested not in used
    start = mcolors.to_hex(v.start_dot.get_markerfacecolor())
    portal_colours = {mcolors.to_hex(c) for c in (v.left_ends.get_color(),
                                                   v.right_ends.get_color(), tested,
                                                   v.shrunk_lines.get_colors()[0],
                                                   v.portal_lines.get_colors()[0])}
    assert start not in portal_colours


def test_every_preset_applies_and_describes_what_it_shows(app):
    for preset in PRESETS:
        app.apply_preset(preset.name)
        assert app.preset.value == preset.name
        assert app.preset_note.value, preset.name
        state = app.state
        assert state.ok == (preset.name != "A door narrower than the agent"), state.error
        if not state.ok:
            assert "No path" in app.panels["step"].value


def test_optimality_readout_and_overlay(app):
    app.apply_preset("A* picks the wrong side of the pillar")
    st = app.state
    text = app.panels["lengths"].value
    assert f"{st.lengths['path']:.2f} m" in text and f"{st.lengths['shortest']:.2f} m" in text
    assert f"+{st.excess('path'):.1f}%" in text and "does not hold the shortest path" in text
    assert app.view.shortest.get_visible()
    assert np.allclose(xy(app.view.shortest), st.shortest)
    app.corridor.value = "best"
    assert f"{app.state.excess('path'):.1f}" in ("0.0", "-0.0")
    assert np.allclose(xy(app.view.corners), app.state.path)


@pytest.mark.parametrize("method", ["shrink", "erode", "push"])
def test_the_agents_radius_is_swept_along_the_walked_path(app, method):
    """Issue 41: the agent's radius was a disc at the start only. Once the path is walked,
    the ground the body covers along it is shaded: every point within the radius of the
    path, nothing farther."""
    from shapely.geometry import LineString, Point

    app.set(radius=0.4, method=method)
    app.show_frame(len(app.state.beats) - 1)
    st, swept = app.state, app.view.swept
    assert swept.get_visible()
    line = LineString(st.path)
    rng = np.random.default_rng(0)
    lo, hi = np.min(st.path, axis=0) - 1, np.max(st.path, axis=0) + 1
    for q in rng.uniform(lo, hi, size=(300, 2)):
        d = line.distance(Point(q))
        if abs(d - 0.4) > 0.02:
            assert swept.get_path().contains_point(q) == (d < 0.4), (q, d)
    app.show_frame(0)
    assert not swept.get_visible()       # the whole path is not known at step 0


def test_radius_shrink_and_erode_in_the_app(app):
    app.radius.value = 0.4
    st = app.state
    shrunk = np.array(app.view.shrunk_lines.get_segments())
    assert np.allclose(shrunk, st.used_portals)
    assert f"{st.clearance:.2f} m" in app.panels["radius"].value
    assert np.allclose(xy(app.view.clear_mark), [st.clearance_at[0]])
    assert app.view.agent.get_radius() == pytest.approx(0.4)
    app.method.value = "erode"
    assert app.state.clearance >= 0.4 - 1e-9
    assert len(app.view.agent_floor.get_paths()) == len(app.state.mesh.coords)
    assert len(app.view.shrunk_lines.get_segments()) == 0


def test_with_a_radius_the_exact_shortest_says_it_keeps_the_radius_clear(app):
    """With radius 0.4 m the shrunk-portal path (14.94 m) is shorter than the 'exact shortest'
    (15.17 m, on the eroded floor), shown as -1.6%: the label says which shortest it is."""
    app.radius.value = 0.0
    assert "exact shortest on the floor" in app.panels["lengths"].value
    app.radius.value = 0.4
    text = app.panels["lengths"].value
    assert "exact shortest (0.40 m clear)" in text
    assert app.state.lengths["path"] < app.state.lengths["shortest"]
    app.radius.value = 0.0


def test_narrow_door_is_marked_not_a_traceback(app):
    app.apply_preset("A door narrower than the agent")
    st = app.state
    left, right = st.portals[st.narrow_portal]
    assert np.allclose(xy(app.view.narrow_mark)[0], left + 0.85 * (right - left))
    assert "impassable" in app.panels["radius"].value
    assert "says the same" in app.panels["radius"].value
    app.radius.value = 0.2
    assert app.state.ok and len(xy(app.view.narrow_mark)) == 0


def test_drag_start_and_goal_and_click(app):
    d = app.drag
    gx, gy = app.goal
    d._press(event(app, gx + 0.2, gy))
    d._move(event(app, 14.5, 1.0))
    d._move(event(app, 3.7, 4.5))          # over the pillar: ignored
    d._end(event(app, 3.7, 4.5))
    assert np.allclose(app.goal, (14.5, 1.0))
    assert np.allclose(xy(app.view.goal_dot), [(14.5, 1.0)])
    sx, sy = app.start
    d._press(event(app, sx, sy + 0.3))
    d._move(event(app, 2.0, 8.5))
    d._move(event(app, 6.0, 8.0, buttons=()))   # moving with no button held ends the drag
    d._move(event(app, 5.0, 9.0))
    assert np.allclose(app.start, (2.0, 8.5)) and not d.active
    assert np.allclose(xy(app.view.corners)[0], (2.0, 8.5))
    assert np.allclose(xy(app.view.corners), app.state.path)
    assert app.preset.value == app.custom_label
    # a click away from both moves the one chosen
    app.click_mode.value = "start"
    d._press(event(app, 1.0, 9.0))
    d._end(event(app, 1.0, 9.0))
    assert np.allclose(app.start, (1.0, 9.0))


def test_click_in_a_wall_gives_a_message(app):
    app.click_mode.value = "start"
    app.drag._press(event(app, 7.5, 5.0))      # the start goes to the nearest floor point
    assert "inside a wall or a pillar" in app.panels["step"].value and app.last_error is None
    assert app.mesh.locate(app.start) is not None and math.dist(app.start, (7.5, 5.0)) < 0.8
    with pytest.raises(ValueError, match="inside a wall"):
        app.set_points(goal=(3.7, 4.5))
    app.start_x.value = 3.7                 # a slider may still put it in the pillar:
    app.start_y.value = 4.5                 # the page says so instead of drawing nonsense
    assert "inside a wall" in app.panels["step"].value


def test_save_gif(app, tmp_path):
    path = app.save_gif(tmp_path / "funnel.gif", step=3, dpi=80)
    assert (tmp_path / "funnel.gif").stat().st_size > 1000
    assert path.endswith("funnel.gif")


def test_start_and_goal_in_one_polygon(app):
    app.set_points(start=(1.2, 1.0), goal=(1.3, 0.9))
    assert len(app.state.portals) == 0 and len(app.view.labels.get_paths()) == 0
    assert np.allclose(xy(app.view.corners), [(1.2, 1.0), (1.3, 0.9)])
    assert "saves <b>0.0%</b>" in app.panels["lengths"].value


# -- GridApp ----------------------------------------------------------------------------------
def test_grid_app_article_numbers(grid_app):
    a = grid_app
    assert a.preset.value.startswith("The article's grid")
    info = a.panels["info"].value
    assert "9 points, length 9.66" in info and "4 points, length 9.37" in info
    assert "3.0% shorter" in info
    assert np.allclose(xy(a.view.pulled_line), np.asarray(a.pulled) + 0.5)
    assert np.allclose(xy(a.view.astar_line), np.asarray(a.path) + 0.5)


def test_grid_app_trap(grid_app):
    a = grid_app
    a.apply_preset("The line-of-sight trap")
    st = a.state
    assert st.stuck and len(a.view.stuck_lines.get_segments()) == len(st.stuck)
    x, y = xy(a.view.stuck_marks)[0]
    assert x == int(x) and y == int(y)
    assert "stuck" in a.panels["info"].value
    # counted in words, not "1 pulled segment(s) graze"
    said = "1 pulled segment grazes" if len(st.stuck) == 1 else "pulled segments graze"
    assert said in a.panels["info"].value and said in a.preset_note.value
    assert "(s)" not in a.panels["info"].value + a.preset_note.value
    a.corner_cutting.value = True
    assert not a.state.stuck


def test_grid_readout_follows_wall_edits(grid_app):
    a = grid_app
    before = len(a.path)
    a.drag._press(event(a, 3.5, 1.5))       # a wall on the A* path
    a.drag._end(event(a, 3.5, 1.5))
    assert a.grid[1, 3] and len(a.path) != before or a.path != []
    assert f"{len(a.path)} points, length {path_length(a.path):.2f}" in a.panels["info"].value
    assert a.preset.value == a.custom_label   # the article's numbers are for its own map
    a.reset_button.click()
    assert not a.grid[1, 3] and len(a.path) == before


def test_grid_drag_start_and_goal(grid_app):
    a = grid_app
    d = a.drag
    d._press(event(a, a.start[0] + 0.5, a.start[1] + 0.5))
    d._move(event(a, 0.5, 0.5))
    d._end(event(a, 0.5, 0.5))
    assert a.start == (0, 0) and a.path[0] == (0, 0)
    d._press(event(a, a.goal[0] + 0.5, a.goal[1] + 0.5))
    d._move(event(a, 10.5, 6.5))
    d._end(event(a, 10.5, 6.5))
    assert a.goal == (10, 6) and a.path[-1] == (10, 6)
    assert f"{len(a.path)} points" in a.panels["info"].value


def test_grid_walled_off_goal_is_a_message(grid_app):
    a = grid_app
    gx, gy = a.goal
    for x, y in [(gx - 1, gy - 1), (gx, gy - 1), (gx + 1, gy - 1), (gx - 1, gy), (gx + 1, gy),
                 (gx - 1, gy + 1), (gx, gy + 1), (gx + 1, gy + 1)]:
        if not a.grid[y, x]:
            a.toggle_cell(x, y)
    assert "No path" in a.panels["info"].value
    guarded = a.guard(a.toggle_cell)
    guarded(*a.goal)
    assert "must stay free" in a.last_error
    a.apply_preset("The article's grid: 9 points become 4")   # the preset restores the map
    assert len(a.path) == 9


def test_a_step_change_touches_only_the_step_artists(app):
    """Stepping re-sets only the funnel's own artists, so the route (floor, corridor,
    portals, labels, paths, markers) is not drawn again for every step."""
    from matplotlib.artist import Artist
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    v = app.view
    step = v.step_artists()
    route = [a for a in vars(v).values() if isinstance(a, Artist) and a not in step
             and a not in (v.ax, v.fig)]
    assert len(route) > 15
    for k in (0, 1, 4, app.step.max):
        FigureCanvasAgg.draw(app.fig.canvas)        # drawn: nothing shown is stale
        app.step.value = k
        assert [a for a in route if a.stale and a.get_visible()] == [], k
        assert k == 0 or any(a.stale for a in step)
    computed = app.state
    app.show_shortest.value = True                  # an overlay: the route is set again
    assert v.shortest.get_visible() and app.state is computed
    app.radius.value = 0.4                          # a new state: the route follows it
    assert np.allclose(app.view.shrunk_lines.get_segments(), app.state.used_portals)


def test_at_step_0_the_start_and_the_apex_star_are_both_in_sight(app):
    """At step 0 the apex is the start: the start's green disc shows in the middle and the
    yellow star's points around it (a star on top used to hide the start)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    app.step.value = 0
    assert np.allclose(xy(app.view.apex), [app.start])
    canvas = app.fig.canvas
    FigureCanvasAgg.draw(canvas)
    pixels = np.asarray(canvas.get_renderer().buffer_rgba())[..., :3].astype(int)
    x, y = app.ax.transData.transform(app.start)
    row, col = int(round(pixels.shape[0] - y)), int(round(x))
    colour = lambda name: np.array(mcolors.to_rgb(name)) * 255  # noqa: E731
    near = pixels[row - 20:row + 21, col - 20:col + 21].reshape(-1, 3)

    def share(name):
        return (np.abs(near - colour(name)).max(axis=1) < 12).mean()

    assert np.abs(pixels[row, col] - colour(view.START_COLOUR)).max() < 12
    assert share(view.START_COLOUR) > 0.05          # the disc
    assert share(view.WEDGE_COLOUR) > 0.01          # the star's points around it


def test_the_page_counts_the_turns_a_learner_sees_on_the_eroded_floor(app):
    """Erode-then-bake rounds each corner with short chords and the funnel bends at every
    chord's end: the page counts those bends by the obstacle corner they go round."""
    from lessons_lib.apps.funnel import panel

    app.apply_preset("Radius 0.4 m by eroding the floor")
    st = app.state
    assert (st.n_corners, st.n_turns) == (8, 3)
    corners = {tuple(c) for c in reflex_corners(lesson_walkable())}
    assert [tuple(c) for c, _b in st.turns] == [(11.0, 2.0), (7.0, 3.5), (4.5, 6.5)]
    assert all(tuple(c) in corners for c, _b in st.turns)
    bends = [i for _c, group in st.turns for i in group]
    assert bends == list(range(1, len(st.path) - 1))   # every bend on exactly one turn
    for c, group in st.turns:                          # each on the arc round its corner
        for i in group:
            assert 0.4 <= math.dist(st.path[i], c) <= 0.4 / math.cos(math.pi / 16) + 1e-9
    said = "3 turns (8 bends: it rounds each obstacle corner in short straight pieces)"
    assert said in app.panels["lengths"].value and said in app.preset_note.value
    assert "corners" not in app.panels["lengths"].value.split("saves")[0]
    assert panel.bends_text(st) == ("turns round the corners at (11.00, 2.00), (7.00, 3.50), "
                                    "(4.50, 6.50)")
    assert "corners fixed so far: 8, on 3 turns" in app.panels["step"].value
    app.step.value = 0
    assert "corners fixed so far: 0</span>" in app.panels["step"].value
    for k, s in enumerate(st.steps):                   # part way: the turns reached so far
        if s.n_corners:
            app.step.value = st.beat_of(k, "move")
            n = sum(1 for _c, group in st.turns if group[0] <= s.n_corners)
            assert f"corners fixed so far: {s.n_corners}, on {n} turn" in \
                app.panels["step"].value
    app.apply_preset(PRESETS[0].name)                 # a point agent: every bend a turn
    assert app.state.n_turns == app.state.n_corners == 3
    assert "7 portals, 3 corners;" in app.panels["lengths"].value


def test_pushing_the_corners_out_is_a_third_radius_method(app):
    """The game-engine trick: the funnel's corners moved r out; measured, not assumed."""
    free = lesson_walkable()
    point = model.compute_funnel(params())
    st = model.compute_funnel(params(radius=0.4, method="push"))
    assert st.ok and np.allclose(st.point_path, point.path)
    assert np.allclose(st.path[[0, -1]], point.path[[0, -1]])
    for a, b in zip(point.path[1:-1], st.path[1:-1], strict=True):
        assert math.dist(a, b) == pytest.approx(0.4)           # each corner pushed r out
        assert free.boundary.distance(Point(b)) == pytest.approx(0.4)
    assert st.clearance == pytest.approx(free.boundary.distance(LineString(st.path)),
                                         abs=1e-9)
    assert 0 < st.clearance < 0.4                              # the pieces between cut in
    app.apply_preset("Radius 0.4 m by pushing the corners out")
    assert app.state.method == "push"
    note = app.preset_note.value
    assert f"keeps {st.clearance:.2f} m ({st.clearance / 0.4:.2f} r)" in note
    on_corner = any(np.allclose(app.state.clearance_at[0], c) for c in st.path[1:-1])
    assert not on_corner and "on a straight piece between pushed corners" in note
    assert np.allclose(xy(app.view.pushed), app.state.path)
    assert len(app.view.push_ticks.get_segments()) == app.state.n_corners == 3
    assert "corners pushed out" in app.panels["radius"].value
    assert "looks at the path only" in app.panels["radius"].value
    app.method.value = "shrink"                                # the push artists go
    assert len(xy(app.view.pushed)) == 0 and len(app.view.push_ticks.get_segments()) == 0


@pytest.mark.parametrize("preset", [p.name for p in PRESETS])
def test_a_step_change_is_a_fast_draw_that_looks_like_a_full_one(app, preset):
    """The step artists, and every artist drawn over the wedge, are dynamic: a step change
    restores the cached background and draws only those, in a full draw's layering."""
    from test_painter import TOLERANCE, _full_pixels, _pixels

    app.apply_preset(preset)
    painter = app.painter
    painter.render()                                   # the background
    fast = painter.fast_draws
    values = app.frame_values(step=max(1, app.step.max // 4))
    for value in values[1:] + values[:1]:
        app.show_frame(value)
        painter.render()
        quick = _pixels(app.fig)
        differ = np.any(quick != _full_pixels(app.fig), axis=2).mean()
        assert differ <= TOLERANCE, f"{preset} at step {value}: {differ:.3%} differ"
    assert painter.fast_draws - fast >= len(values) - 1, "step changes were drawn in full"


def test_a_path_shorter_than_the_agents_shortest_reads_minus_not_plus_minus(app):
    app.apply_preset("Radius 0.4 m by shrinking the portals")   # shrunk: cuts the corners
    e = app.state.excess("path")
    text = app.panels["lengths"].value
    assert e < 0 and f"{abs(e):.1f}%" in text and "+−" not in text and "+-" not in text


def test_the_clearance_circle_is_not_hidden_under_the_apex_star():
    """The radius presets say the closest approach is "circled on the map"; once the path is
    done the apex star sits on the last corner, so the circle (and its line) must be drawn
    over the star, in the fast redraws too."""
    app = FunnelApp()
    app.apply_preset("Radius 0.4 m by pushing the corners out")
    app.go_to_end()
    v = app.view
    assert v.clear_mark.get_xydata().size, "this preset circles its closest approach"
    for mark in (v.clear_mark, v.clear_line):
        assert mark.get_zorder() > v.apex.get_zorder()
        assert mark in app.dynamic_artists()
        assert mark.get_visible()
    app.show_frame(0)     # before the walk: no circle on a corner not fixed yet
    assert not v.clear_mark.get_visible() and not v.clear_line.get_visible()
    assert "circled on the map at the last step" in app.panels["radius"].value


# -- the exercises ----------------------------------------------------------------------------
def test_a_point_agents_clearance_says_what_it_grazes(app):
    """Issue 41: "clearance 0.23 m (a point agent grazes the corners)" on a straight path,
    which grazes nothing. On the article's route it bends round corners at clearance 0; on
    a straight one it touches none and says so."""
    from lessons_lib.apps.funnel.panel import radius_html

    app.apply_preset(PRESETS[0].name)
    app.set(radius=0.0)
    bent = app.state
    assert len(bent.path) > 2 and bent.clearance == 0.0
    assert "grazes the corners it bends round" in radius_html(bent)
    app.set(start_x=2.0, start_y=2.0, goal_x=2.0, goal_y=5.0, radius=0.0)
    straight = app.state
    assert len(straight.path) == 2 and straight.clearance > 0
    text = radius_html(straight)
    assert "grazes" not in text and "straight line" in text


def _all_panels(app) -> str:
    return " ".join(w.value for w in app.panels.values()) + " " + app.preset_note.value


@pytest.mark.parametrize("portal", [4, 5, 6])
def test_step_questions_ask_what_the_trace_does_and_show_the_step_before(app, portal):
    from lessons_lib.apps.funnel import exercises

    q = exercises.step_question(app, portal)
    i = next(i for i, s in enumerate(app.state.steps) if s.portal == portal)
    step = app.state.steps[i]
    k = app.state.beat_of(i, "test")         # the step slider's number (it counts beats)
    assert f"step {k} tests portal {portal}" in q.widget.children[0].value
    assert q.answer == exercises._MOVES[step.event]
    assert q.judge(q.answer)[0] and step.text in q.judge(q.answer)[1]
    for option in q.reasons:
        ok, why = q.judge(option)
        assert ok == (option == q.answer) and (ok or why.startswith(f"Not '{option}': "))
    app.step.value = 0
    q.show_button.click()
    assert app.step.value == k - 1 and app.preset.value == exercises.ARTICLE


@pytest.mark.parametrize("portal", [2, 3, 4, 5, 6])
def test_a_wrong_step_answer_is_told_why_not_what_is_right(app, portal):
    """Issue 41: exercise 2's feedback on a wrong pick stated the right one ("something does
    change: the right end lies inside the funnel, so it narrows its side, and the left end
    ..."). A wrong pick is told about the end it named, or what to test again: never the
    answer, nor both ends' fates."""
    from lessons_lib.apps.funnel import exercises

    try:
        q = exercises.step_question(app, portal)
    except ValueError:
        pytest.skip(f"portal {portal} is not tested")
    for option in q.reasons:
        if option == q.answer:
            continue
        why = q.judge(option)[1].lower()
        assert q.answer not in why.removeprefix(f"not '{option}'"), (option, why)
        assert not ("the left end" in why and "the right end" in why), (option, why)
        assert "crosses over the other edge" not in why or "needs an end" in why
        assert "so it narrows its side" not in why


def test_the_first_corner_question_counts_the_step_the_funnel_knows(app):
    from lessons_lib.apps.funnel import exercises

    q = exercises.first_corner_question(app)
    steps = app.state.steps
    k = int(q.answer)
    beat = app.state.beats[k]      # the beat where the apex moves to the first corner
    i = beat.step
    assert beat.phase == "move" and steps[i].n_corners == 1
    assert all(not s.event.startswith("corner") for s in steps[:i])
    assert q.judge(str(k))[0]
    seen = [v for v, why in q.wrong.items() if "sees the crossing" in why]
    assert seen == [k - 1] and app.state.beats[k - 1].phase == "test"
    # the two known slips get their own explanation: the step the edge reached the corner,
    # and the portal number read as a step
    reached = [v for v, why in q.wrong.items() if "nothing is fixed yet" in why]
    assert reached and reached[0] < k and not q.judge(f"{reached[0]:g}")[0]
    assert steps[i].portal in q.wrong and "count the steps" in q.wrong[steps[i].portal]
    # the page does not give it away: the app as it opens (above the question) and as the
    # question's button leaves it say how many corners, never at which step one was fixed
    for state_of in ("opened", "shown"):
        if state_of == "shown":
            q.show_button.click()
            assert app.step.value == 0 and "corners fixed so far: 0" in app.panels["step"].value
        assert f"step {k}" not in _all_panels(app).lower()
    app.show_frame(k)
    assert "becomes corner 1" in app.panels["step"].value


def test_the_step_questions_above_exercise_3_do_not_give_its_answer(app):
    """Exercise 2's questions come just before 'at which step is the first corner fixed?'.
    Its second question once asked about portal 5, step 6: the first corner itself, so its
    verdict ('a corner is fixed') answered exercise 3."""
    import json
    import re
    from pathlib import Path

    from lessons_lib.apps.funnel import exercises

    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "04_funnel_algorithm.ipynb")
                    .read_text(encoding="utf-8"))
    sources = ["".join(c["source"]) for c in nb["cells"]]
    first = next(i for i, s in enumerate(sources) if "first_corner_question" in s)
    asked = [int(m) for s in sources[:first]
             for m in re.findall(r"step_question\(.*?portal=(\d+)\)", s)]
    assert asked
    k = int(exercises.first_corner_question(app).answer)
    for portal in asked:
        q = exercises.step_question(app, portal)
        assert f"step {k} " not in q.widget.children[0].value, portal
        assert f"step {k - 1})" not in q.widget.children[0].value, portal


def _notebook_questions(namespace: dict) -> list:
    """Lesson 4's exercise questions as its cells make them (each cell one expression)."""
    import json
    from pathlib import Path

    from lessons_lib.apps.funnel import exercises

    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "04_funnel_algorithm.ipynb")
                    .read_text(encoding="utf-8"))
    cells = ["".join(c["source"]).strip() for c in nb["cells"] if c["cell_type"] == "code"]
    calls = [c for c in cells if c.startswith("exercises.") and "_question(" in c]
    return [eval(c, {"FunnelApp": FunnelApp, "exercises": exercises, **namespace})  # noqa: S307
            for c in calls]


def _pixels(app) -> np.ndarray:
    app.fig.canvas.draw()
    return np.asarray(app.fig.canvas.buffer_rgba()).copy()


def test_each_exercise_shows_its_case_in_a_small_map_beside_it(app):
    """Exercises 2-4's "Show this case" changed the lesson's app, about 700 px above the
    question: at 1280 x 720 the question and the map were never on screen together. Each
    question of the lesson now has its own small copy of the map in its row, and the button
    changes that copy's figure; the lesson's app is left as it was."""
    import matplotlib.pyplot as plt

    from lessons_lib.apps.core import iter_widgets

    app.apply_preset(PRESETS[1].name)        # the lesson's app, somewhere a learner left it
    before = (dict(app.params), app.step.value)
    questions = _notebook_questions({"funnel_app": app})
    assert len(questions) == 4                # exercise 2's two, exercises 3 and 4
    copies = []
    try:
        for q in questions:
            copy = q.beside
            copies.append(copy)
            assert isinstance(copy, FunnelApp) and copy.compact and copy is not app
            assert copy not in copies[:-1]          # one copy each: a widget shown twice
            shown = list(iter_widgets(q.widget))    # would fight over its size
            assert copy.fig.canvas in shown and q.show_button in shown
            assert "lesson-question-beside" in q.widget._dom_classes
            # the copy is small: the map, its steps and the step sentence, no other control
            assert copy.fig.get_figwidth() < 0.75 * app.fig.get_figwidth()
            assert copy.next_button in shown and copy.panels["step"] in shown
            assert copy.preset not in shown and copy.radius not in shown
            old = _pixels(copy)
            q.show_button.click()
            assert not np.array_equal(old, _pixels(copy)), q.prompt.value
            assert (dict(app.params), app.step.value) == before
    finally:
        for copy in copies:
            plt.close(copy.fig)


def test_a_question_beside_a_copy_takes_an_app_and_sizes_its_column_by_the_figure():
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    from lessons_lib.apps.core import NumberQuestion
    from lessons_lib.apps.core.exercise import BESIDE_MARGIN_PX

    copy = FunnelApp().copy()
    try:
        q = NumberQuestion("How many?", 2.0, hint="count", beside=copy)
        column, box = q.widget.children
        assert box is q.box and column.children == (copy.widget,)
        natural = round(copy.fig.get_figwidth() * copy.fig.dpi)
        assert column.layout.flex == f"0 1 {natural + BESIDE_MARGIN_PX}px"
        assert column.layout.min_width == "0"    # it may shrink: the copy then fits itself
        assert q.widget.layout.flex_flow == "row wrap-reverse"
        for bad in ("a map", widgets.HTML("a map"), 3):
            with pytest.raises(ValueError, match="beside takes a lesson app"):
                NumberQuestion("How many?", 2.0, hint="count", beside=bad)
    finally:
        plt.close(copy.fig)


def test_the_rooms_question_is_the_presets_corner_count(app):
    from lessons_lib.apps.funnel import exercises

    q = exercises.rooms_corners_question(app)
    q.show_button.click()
    assert app.preset.value == exercises.ROOMS and app.step.value == 0
    assert q.answer == app.state.n_corners > 0
    assert q.judge(f"{q.answer:g}")[0] and not q.judge(f"{q.answer + 1:g}")[0]
    # the hint points at where to look, never at how many: it once listed "one at the wall,
    # one at the right pillar"
    import re

    words = r"\b(one|two|three|four|five|six|once|twice|both|\d+)\b"
    assert not re.search(words, q.hint.lower()), q.hint


def test_the_readout_points_at_the_sky_blue_line_only_when_the_map_draws_it(app):
    """'The curve clips the wall' (and any drag with the default toggles) said 'no smoothing
    inside it can reach the sky-blue line' with no sky-blue line on the map."""
    import re

    def said():
        return re.sub("<[^>]+>", "", app.panel_widget("lengths").value)

    app.apply_preset("The curve clips the wall")
    assert not app.params.show_shortest and not app.view.shortest.get_visible()
    assert "does not hold the shortest path" in said() and "sky-blue line" not in said()
    assert app.show_shortest.description in said()      # it names the toggle that draws it
    app.set(show_shortest=True)
    assert app.view.shortest.get_visible() and "reach the sky-blue line" in said()


def test_portal_numbers_grow_with_the_figures_dpi(app):
    """The numbers' points-to-pixels scale was fixed at the dpi the figure was made with:
    on a 150 % screen (ipympl raises the dpi to 174) and in presenter mode (160 dpi) they
    stayed 11.6 px tall while every other text grew, about 9 CSS px of font at 150 %."""
    def glyph_px_per_dpi():
        app.fig.canvas.draw()
        labels = app.view.labels
        to_px = labels.get_transform()
        tallest = max(np.ptp(to_px.transform(p.vertices)[:, 1]) for p in labels.get_paths())
        return tallest / app.fig.dpi

    base = glyph_px_per_dpi()
    assert base * app.fig.dpi > 11                      # 9.5 pt digits at 116 dpi
    app.fig.canvas._set_device_pixel_ratio(1.5)
    assert app.fig.dpi > 170 and glyph_px_per_dpi() == pytest.approx(base)
    app.fig.canvas._set_device_pixel_ratio(1)
    app.present(True)
    try:
        assert app.fig.dpi > 150 and glyph_px_per_dpi() == pytest.approx(base)
    finally:
        app.present(False)


def test_exercise_4s_prose_says_what_its_button_shows(app):
    """The page said 'press the button: the small map beside the question shows the route',
    but the button opens the route at step 0, where the funnel path is not drawn yet and the
    only line is the dashed zigzag (3 bends; the answer is 2). The prose names the step and
    the button that draws the path, and those do what it says."""
    import json
    from pathlib import Path

    from lessons_lib.apps.funnel import exercises

    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "04_funnel_algorithm.ipynb")
                    .read_text())
    prose = next(" ".join("".join(c["source"]).split()) for c in nb["cells"]
                 if c["cell_type"] == "markdown" and "*Exercise 4.*" in "".join(c["source"]))
    q = exercises.rooms_corners_question(app)
    q.show_button.click()
    assert f"at step {app.step.value}" in prose and "zigzag" in prose
    assert f"**{app.end_button.description}**" in prose
    app.end_button.click()
    assert app.step.value == app.step.max and app.state.n_corners == q.answer


def test_the_curve_figure_marks_the_samples_off_the_floor_on_a_frameless_map():
    from lessons_lib import pathsmooth as ps
    from lessons_lib.apps.funnel import figures
    from lessons_lib.apps.funnel.app import CURVE_GOAL, CURVE_START
    from lessons_lib.navmesh import lesson_navmesh

    mesh = lesson_navmesh()
    path = mesh.route(CURVE_START, CURVE_GOAL).path
    curve = ps.catmull_rom(path, samples=60)
    off = np.array([mesh.locate(q) is None for q in curve])
    assert off.any()
    fig = figures.curve_figure(mesh, path, curve, curve[off])
    ax = fig.axes[0]
    assert not any(s.get_visible() for s in ax.spines.values())  # no stray frame line
    marks = next(line for line in ax.get_lines() if line.get_label() == "curve inside a wall")
    np.testing.assert_allclose(xy(marks), curve[off])


def test_sweeping_the_radius_back_and_forth_builds_each_floor_once(app):
    """Every radius the slider offers fits in the caches: the second sweep erodes no floor
    and builds no visibility graph again (each costs ~55 ms; a cached step ~5 ms)."""
    from lessons_lib import navmesh

    w = app.radius
    values = [round(w.min + k * w.step, 6) for k in range(round((w.max - w.min) / w.step) + 1)]
    assert len(values) - 1 < model.RADIUS_FLOORS_KEPT
    for v in values + values[::-1]:
        w.value = v
    eroded, graphs = model._eroded.cache_info(), navmesh._floor_graph.cache_info()
    for v in values + values[::-1]:
        w.value = v
    assert model._eroded.cache_info().misses == eroded.misses
    assert navmesh._floor_graph.cache_info().misses == graphs.misses



def test_in_a_kernel_every_radius_floor_is_built_while_the_learner_reads(monkeypatch):
    """A radius's first visit built its floor, navmesh and visibility graph (~50 ms, the
    slider's slowest step): in a kernel the app builds them all in its event loop, one
    step at a time, after it is shown. Outside a kernel nothing runs in the background."""

    from lessons_lib import navmesh
    from lessons_lib.apps.core import app as core_app
    from lessons_lib.apps.funnel import model as funnel_model

    funnel_model._eroded.cache_clear()
    navmesh._floor_graph.cache_clear()
    FunnelApp()
    assert funnel_model._eroded.cache_info().currsize == 0
    monkeypatch.setattr(core_app, "in_kernel", lambda: True)

    async def shown_in_a_kernel():
        app = FunnelApp()
        assert funnel_model._eroded.cache_info().currsize == 0   # nothing before it shows
        await app._idle_task
        return app

    app = run_async(shown_in_a_kernel())
    assert funnel_model._eroded.cache_info().currsize == 18       # 0.05 to 0.90 m
    assert navmesh._floor_graph.cache_info().currsize >= 18
    builds = funnel_model._eroded.cache_info().misses
    for k in range(1, 19):                     # the learner sweeps the slider: all built
        app.radius.value = round(0.05 * k, 2)
        assert app.last_error is None
    assert funnel_model._eroded.cache_info().misses == builds


def test_idle_work_stops_quietly_at_a_failing_step(monkeypatch):

    from lessons_lib.apps.core import app as core_app

    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    calls = []

    async def run():
        app = FunnelApp()
        app.when_idle([lambda: calls.append(1), lambda: 1 / 0, lambda: calls.append(2)],
                      pause=0.0)
        await app._idle_task
        return app

    app = run_async(run())
    assert calls == [1] and app.last_error is None


def test_a_point_put_on_the_map_lands_on_the_sliders_steps_and_on_the_floor():
    """The page snaps start and goal to their sliders' 0.05 m steps and sent the snapped
    value back as a move: every click or drag on the map computed and drew three times, and
    a point by a wall could round into it. They are put on the floor's nearest step here."""
    app = FunnelApp()
    rng = np.random.default_rng(4)
    free, _mesh = model.lesson_floor()
    edge = free.buffer(-0.012).boundary             # 12 mm from a wall, all round the map
    by_walls = [np.array(edge.interpolate(d).coords[0])
                for d in np.linspace(0.0, edge.length, 120, endpoint=False)]
    for q in [*by_walls, *rng.uniform([0.2, 0.2], [15.8, 9.8], (60, 2))]:
        if app.mesh.locate(q) is None:
            continue
        app.set_points(goal=q)
        g = (app.goal_x.value, app.goal_y.value)
        assert all(v == round(round(v / 0.05) * 0.05, 12) for v in g), g   # on the steps
        assert app.mesh.locate(g) is not None and app.state.error is None, (q, g)
        assert math.hypot(g[0] - q[0], g[1] - q[1]) <= 0.05 * math.sqrt(2) * 1.5
    # the lesson's walls lie on the 0.05 m grid; a wall that does not (here at x >= 5.04)
    # could take the nearest step: the nearest step on the floor is taken instead
    app.mesh = SimpleNamespace(locate=lambda p: None if p[0] >= 5.04 else 0)
    assert app._on_floor_grid("goal", 5.03, 3.01) == (5.0, 3.0)
    assert app._on_floor_grid("goal", 5.01, 3.01) == (5.0, 3.0)
    app.mesh = SimpleNamespace(locate=lambda p: None)
    assert app._on_floor_grid("goal", 5.03, 3.01) is None


def test_lesson_4_keeps_words_about_editing_code_in_the_code_cell():
    """Voila shows markdown and hides code: "Fix it in the cell and run the cell again" sat
    in markdown below the exercise, on a page where no cell can be edited. The instruction
    about code is a comment in the code cell; the exercise is introduced above the cell; its
    hint does not spell out the formula (it came before the instruction on Run All)."""
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "04_funnel_algorithm.ipynb")
                    .read_text(encoding="utf-8"))
    cells = [(c["cell_type"], "".join(c["source"])) for c in nb["cells"]]
    for kind, text in cells:
        if kind == "markdown":
            low = text.lower()
            assert "run the cell" not in low and "in the cell" not in low, text[:80]
    k = next(i for i, (kind, text) in enumerate(cells) if "def my_cross" in text)
    assert "Exercise 1" in cells[k - 1][1] and cells[k - 1][0] == "markdown"
    code = cells[k][1]
    assert code.index("# Exercise 1: fix my_cross") < code.index("def my_cross")
    assert "(b.x - a.x)(c.y - a.y)" not in code and "(b - a) x (c - a)" not in code
    from lessons_lib.apps.funnel import exercises

    hint = exercises.check_cross(lambda a, b, c: 0.0).value
    assert "Hint" in hint and "(b.x - a.x)(c.y - a.y)" not in hint


@pytest.mark.parametrize("where, said", [((3.7, 5.0), "inside a wall or a pillar"),
                                         ((16.1, 5.0), "outside the hall")])
def test_a_click_off_the_floor_moves_to_the_nearest_floor_point_and_says_so(where, said):
    """It did nothing and said nothing (lesson 3 places the car and says why: the same)."""
    app = FunnelApp()
    free, _mesh = model.lesson_floor()
    assert not free.contains(Point(*where))
    app.click_mode.value = "goal"
    app.drag._press(event(app, *where))
    app.drag._end(event(app, *where))
    goal = app.goal
    assert free.contains(Point(*goal)) and Point(*goal).distance(Point(*where)) < 0.8
    text = html.unescape(app.panels["step"].value)
    assert said in text and f"({where[0]:.2f}, {where[1]:.2f})" in text
    assert app.last_error is None
    app.radius.value = 0.1                      # another change: the note goes
    assert said not in app.panels["step"].value


def test_the_legend_does_not_say_where_the_click_toggle_is():
    from lessons_lib.apps.funnel import panel

    text = panel.legend_html()
    assert "chosen below" not in text and "chosen above" not in text
    assert "click moves" in text and FunnelApp().click_mode.description == "click moves"


def test_the_bends_question_says_a_count_is_a_whole_number(app):
    from lessons_lib.apps.funnel import exercises

    q = exercises.rooms_corners_question(app)
    for typed in ("-1", "1.5"):
        ok, why = q.judge(typed)
        assert not ok and "whole number" in why and "too low" not in why, typed
    assert q.judge(f"{q.answer:g}")[0] and "too" in q.judge(f"{q.answer + 3:g}")[1]


def test_the_lessons_curve_figure_and_the_app_count_the_same_samples():
    """The figure said '3 of 121 curve samples inside a wall', the app '2 of its 81': one
    sampling, one number. The lesson's cell runs the same route with the app's sampling."""
    import json
    from pathlib import Path

    from lessons_lib.apps.funnel.app import CURVE_GOAL, CURVE_START
    from lessons_lib.navmesh import lesson_navmesh
    from lessons_lib.pathsmooth import catmull_rom

    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "04_funnel_algorithm.ipynb")
                    .read_text(encoding="utf-8"))
    cell = next("".join(c["source"]) for c in nb["cells"] if "catmull_rom(across" in
                "".join(c["source"]))
    assert "samples=CURVE_SAMPLES" in cell
    mesh = lesson_navmesh()
    curve = catmull_rom(mesh.route(CURVE_START, CURVE_GOAL).path, samples=model.CURVE_SAMPLES)
    off = sum(mesh.locate(q) is None for q in curve)
    app = FunnelApp(preset="The curve clips the wall")
    assert f"{off} of its {len(curve)} samples" in app.preset_note.value


def test_the_grid_counts_sight_checks_as_the_articles_pull(grid_app):
    """Issue 41: the article's case showed 13 sight checks against the article's Pull()'s
    12 (ours asked again about a neighbour). The page counts as the article does, and says
    so; each check is a pair further apart than neighbours."""
    import html
    import json
    from pathlib import Path

    from lessons_lib.apps.funnel.panel import grid_html

    st = grid_app.state
    assert (len(st.path), len(st.pulled), len(st.checks)) == (9, 4, 12)
    index = {tuple(p): i for i, p in enumerate(st.path)}
    assert all(index[tuple(b)] > index[tuple(a)] + 1 for a, b, _ok in st.checks)
    assert "line-of-sight checks: 12 " in html.unescape(grid_html(st))
    nb = json.loads((Path(__file__).parent.parent / "notebooks" / "04_funnel_algorithm.ipynb")
                    .read_text(encoding="utf-8"))
    text = " ".join(" ".join("".join(c["source"]).split()) for c in nb["cells"])
    assert "9.37 long, after 12 sight checks. Like the article's *Pull* routine" in text


def test_the_grids_passed_checks_show_over_the_blue_path(grid_app):
    """'the dashed green ones passed' lay exactly under the thick blue path: every passed
    check is a kept segment, so they are drawn over it."""
    a = grid_app
    a.apply_preset(a.presets[0].name)
    st = a.state
    passed = {(tuple(p), tuple(q)) for p, q, ok in st.checks if ok}
    kept = set(zip(map(tuple, st.pulled), map(tuple, st.pulled[1:]), strict=False))
    assert passed and passed <= kept
    v = a.view
    assert v.check_ok.get_zorder() > v.pulled_line.get_zorder()
    assert len(v.check_ok.get_segments()) == len(passed)


def test_the_refused_doors_cross_leaves_its_portal_number_readable():
    app = FunnelApp(preset="A door narrower than the agent")
    st = app.state
    k = st.narrow_portal
    assert k is not None
    label = app.view.labels.get_offsets()[app.view.label_numbers.index(k)]
    mark = app.view.narrow_mark.get_xydata()[0]
    left, right = st.portals[k]
    assert abs(fn.cross(left, right, mark)) < 1e-9           # still on the refused portal
    to_px = app.ax.transData.transform
    gap = np.hypot(*(to_px(mark) - to_px(label)))
    assert gap > 20, gap    # the X (15 pt) and the number's box (about 13 px) do not overlap


@pytest.mark.parametrize("preset", [p.name for p in PRESETS])
def test_no_portal_number_hides_under_the_start_or_the_goal(preset):
    """In 'A door narrower than the agent' the goal's square sat on the last portal's
    number (its middle), and on an exercise's small map the apex star on the start covered
    portal 0's, 0.6 m away. A number keeps view.LABEL_CLEAR (0.9 m) from the start and the
    goal, moving along its portal when the middle is too close."""
    app = FunnelApp(preset=preset)
    v = app.view
    shown = v.labels.get_offsets()
    assert len(shown) == len(v.label_numbers) > 0
    for at, k in zip(shown, v.label_numbers, strict=True):
        for point in (app.state.start, app.state.goal):
            assert np.hypot(*(at - point)) >= view.LABEL_CLEAR, (k, at, point)
        left, right = app.state.portals[k]
        assert abs(fn.cross(left, right, at)) < 1e-9       # on its own portal


@pytest.mark.parametrize("preset", [p.name for p in PRESETS])
def test_every_preset_opens_at_the_finished_path(preset):
    """Some presets opened at the last step, some at step 0 (where the A* preset talked
    about 'the perfectly funnelled path' not drawn yet): each opens at the end."""
    app = FunnelApp()
    app.show_frame(3)
    app.apply_preset(preset)
    assert app.preset.value == preset
    st = app.state
    if st.ok:
        assert app.step.value == app.step.max == st.n_beats - 1
        assert np.allclose(xy(app.view.corners), st.steps[-1].corners)
        assert np.allclose(st.steps[-1].corners, st.point_path if st.point_path is not None
                           else st.path)


def _number_boxes(app) -> list[tuple[float, float, float, float]]:
    """Each shown portal number's box as drawn, in display px."""
    v, k = app.view, app.fig.dpi / 72
    app.fig.canvas.draw()
    boxes = []
    for (x, y), n in zip(v.ax.transData.transform(v.labels.get_offsets()), v.label_numbers,
                         strict=True):
        b = view.label_paths(n)[1].get_extents()
        boxes.append((x + b.x0 * k, y + b.y0 * k, x + b.x1 * k, y + b.y1 * k))
    return boxes


@pytest.mark.parametrize("compact, room, present", [
    (True, "853x480", False), (True, "853x480", True), (True, "1280x720", True),
    (False, "853x480", True)])
def test_portal_numbers_keep_apart_and_off_the_path_at_every_size(compact, room, present):
    """The numbers are sized in points, the spacing was in metres: on an exercise's small
    map in presenter mode the numbers touched, and the path (drawn over them) crossed 164
    of them across the presets and rooms (portal 0 by the goal, among others). Now no two
    boxes overlap, and a number the path crosses sits on a portal where every other spot
    is by the path, the start or the goal (checked with shapely) or would put its box on
    an earlier number's or within the numbers' least spacing of it."""
    import inspect

    from rooms import ROOMS

    gap = inspect.signature(view.spaced_labels).parameters["gap"].default

    app = FunnelApp().copy() if compact else FunnelApp()
    app.present(present)
    app.fit(*ROOMS[room])
    for preset in app.preset_list():
        app.preset.value = preset.name
        st, v = app.state, app.view
        boxes = _number_boxes(app)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), \
                    (preset.name, a, b)
        if st.path is None:                      # the door too narrow: no path drawn
            continue
        route = LineString(v.ax.transData.transform(st.path))
        pt = v._metres_per_point()
        line = LineString(st.path)
        k = app.fig.dpi / 72
        for i, (n, box) in enumerate(zip(v.label_numbers, boxes, strict=True)):
            if not route.intersects(box_polygon(*box)):
                continue
            left, right = st.portals[n]
            glyph_box = view.label_paths(n)[1].get_extents()
            for t in view._LABEL_AT:             # no spot on this portal was clear
                spot = left + t * (right - left)
                x, y = v.ax.transData.transform(spot)
                there = box_polygon(x + glyph_box.x0 * k, y + glyph_box.y0 * k,
                                    x + glyph_box.x1 * k, y + glyph_box.y1 * k)
                assert (line.distance(Point(spot)) < view.LABEL_PATH_PT * pt
                        or min(Point(spot).distance(Point(st.start)),
                               Point(spot).distance(Point(st.goal)))
                        < max(view.LABEL_CLEAR, view.LABEL_CLEAR_PT * pt)
                        or any(there.buffer(k).intersects(box_polygon(*b))
                               for b in boxes[:i])
                        or any(np.hypot(*(spot - q)) < gap
                               for q in v.labels.get_offsets()[:i])), (preset.name, n, t)


@pytest.mark.parametrize("path, radius, match", [
    ([[0, 0], [1, 1]], -0.1, "radius"),
    ([[0, 0], [1e7, 0]], 0.3, "within ±1e\\+06 m"),
    ([[0, 0], [1, float("nan")]], 0.3, "NaN"),
    ([[0, 0], [10**400, 0]], 0.3, "path"),
    ([[0, 0], [1, 1]], 10**400, "radius"),
])
def test_the_swept_radius_refuses_what_no_map_holds(path, radius, match):
    from lessons_lib.apps.funnel.view import swept_path

    with pytest.raises(ValueError, match=match):
        swept_path(path, radius)


def test_the_swept_radius_of_a_tiny_disc_is_nothing_drawn():
    from lessons_lib.apps.funnel.view import swept_path

    assert len(swept_path([[0, 0], [0, 0]], 5e-324).vertices) == 1
    assert len(swept_path([[0, 0], [3, 0]], 0.5).vertices) > 8
