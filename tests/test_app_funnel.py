"""Headless tests of the lesson 4 apps: set a control, check what is drawn."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from lessons_lib import funnel as fn
from lessons_lib.apps import FunnelApp, GridApp
from lessons_lib.pathsmooth import path_length


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


def click(app, x, y):
    return SimpleNamespace(inaxes=app.ax, xdata=x, ydata=y, button=1)


# -- FunnelApp ------------------------------------------------------------------------------
def test_step_through_the_corridor(app):
    steps = app.steps
    assert len(steps) == app.step.max + 1 and app.play.max == app.step.max
    app.reset_button.click()
    assert app.step.value == 0
    assert np.allclose(xy(app.apex), [app.start])
    assert np.allclose(xy(app.corners), [app.start])
    seen_corners = 0
    for k in range(app.step.max + 1):
        app.step.value = k
        s = steps[k]
        assert np.allclose(xy(app.apex), [s.apex])
        assert np.allclose(xy(app.left_edge), [s.apex, s.left])
        assert np.allclose(xy(app.right_edge), [s.apex, s.right])
        assert np.allclose(xy(app.corners), s.corners)
        assert f"Step {k} of" in app.step_text.value
        if s.event.startswith("corner"):
            # the new apex is a portal end point, and the corner list just grew
            ends = app.portals.reshape(-1, 2)
            assert np.min(np.hypot(*(ends - np.asarray(s.apex)).T)) < 1e-9
            assert len(s.corners) > seen_corners
        seen_corners = len(s.corners)
    # the last step holds the funnel's path, which the route computed independently of the app
    assert np.allclose(xy(app.corners), fn.funnel(app.start, app.goal, app.portals))
    assert np.allclose(xy(app.corners), app.route.path)


def test_portals_are_numbered_at_their_middles(app):
    assert len(app.labels.get_paths()) == len(app.portals) == len(app.label_boxes.get_paths())
    assert np.allclose(app.labels.get_offsets(), app.portals.mean(axis=1))
    assert np.allclose(xy(app.left_ends), app.portals[:, 0])
    assert np.allclose(xy(app.right_ends), app.portals[:, 1])
    app.set_points(goal=(2.5, 1.5))  # a much shorter corridor: fewer numbers
    assert len(app.labels.get_paths()) == len(app.portals)


def test_buttons_and_play_move_the_step(app):
    app.reset_button.click()
    app.next_button.click()
    app.next_button.click()
    assert app.step.value == 2 and app.play.value == 2
    app.prev_button.click()
    assert app.step.value == 1
    app.play.value = 5
    assert app.step.value == 5
    assert np.allclose(xy(app.apex), [app.steps[5].apex])
    app.end_button.click()
    assert app.step.value == app.step.max
    app.next_button.click()  # past the end: stays
    assert app.step.value == app.step.max
    app.reset_button.click()
    app.prev_button.click()
    assert app.step.value == 0


def test_overlays_and_lengths(app):
    app.show_zigzag.value = True
    app.show_path.value = True
    assert app.zigzag.get_visible() and app.final_path.get_visible()
    zig = path_length(xy(app.zigzag))
    path = path_length(xy(app.final_path))
    assert path < zig
    assert f"{zig:.2f} m" in app.lengths.value and f"{path:.2f} m" in app.lengths.value
    assert f"saved {100 * (1 - path / zig):.1f}%" in app.lengths.value
    app.show_zigzag.value = False
    assert not app.zigzag.get_visible()


def test_radius_shrinks_portals_and_reports_clearance(app):
    app.radius.value = 0.3
    shrunk = np.array(app.shrunk_lines.get_segments())
    assert shrunk.shape == app.portals.shape
    widths = np.hypot(*(app.portals[:, 0] - app.portals[:, 1]).T)
    new_widths = np.hypot(*(shrunk[:, 0] - shrunk[:, 1]).T)
    assert np.allclose(new_widths, widths - 0.6)
    walls = fn.corridor_walls(app.mesh.corridor_polygons(app.route.corridor))
    clear = fn.path_clearance(xy(app.final_path), walls)
    assert clear == pytest.approx(app.clearance)
    assert f"{clear:.2f} m" in app.clearance_text.value
    assert app.agent.get_radius() == pytest.approx(0.3)


def test_too_narrow_door_is_flagged_not_a_traceback(app):
    app.radius.value = 0.8  # the doors are 1.5 m wide
    assert app.narrow_portal is not None
    mark = xy(app.narrow_mark)
    assert np.allclose(mark[0], app.portals[app.narrow_portal].mean(axis=0))
    assert "cannot pass" in app.last_error
    assert "No funnel" in app.step_text.value
    app.radius.value = 0.2
    assert app.narrow_portal is None and app.last_error is None
    assert len(xy(app.narrow_mark)) == 0


def test_click_and_drag_move_start_and_goal(app):
    before = list(app.route.corridor)
    app.click_mode.value = "goal"
    app._on_press(click(app, 14.5, 1.0))
    assert np.allclose(app.goal, (14.5, 1.0))
    assert app.route.corridor != before
    assert np.allclose(xy(app.goal_dot), [(14.5, 1.0)])
    # drag the start from where it is to the upper left
    sx, sy = app.start
    app._on_press(click(app, sx + 0.2, sy))
    app._on_motion(click(app, 2.0, 8.0))
    app._on_motion(click(app, 3.7, 4.5))  # over the pillar: ignored
    app._on_release(click(app, 3.7, 4.5))
    assert np.allclose(app.start, (2.0, 8.0))
    assert np.allclose(xy(app.corners)[0], (2.0, 8.0))
    assert np.allclose(xy(app.corners), app.route.path)


def test_click_in_a_wall_gives_a_message(app):
    app.click_mode.value = "start"
    guarded = app.guard(app._on_press)
    guarded(click(app, 7.5, 5.0))
    assert "inside a wall" in app.last_error
    assert np.allclose(app.start, (1.2, 1.0))
    with pytest.raises(ValueError, match="inside a wall"):
        app.set_points(goal=(3.7, 4.5))


def test_save_gif(app, tmp_path):
    path = app.save_gif(tmp_path / "funnel.gif", step=10, dpi=40)
    assert (tmp_path / "funnel.gif").stat().st_size > 1000
    assert path.endswith("funnel.gif")


# -- GridApp --------------------------------------------------------------------------------
def test_grid_app_default_numbers(grid_app):
    a = grid_app
    assert len(a.path) == 11 and len(a.pulled) == 4
    assert path_length(a.pulled) < path_length(a.path)
    assert np.allclose(xy(a.pulled_line), np.asarray(a.pulled) + 0.5)
    assert np.allclose(xy(a.astar_line), np.asarray(a.path) + 0.5)
    n_ok = sum(v for *_p, v in a.checks)
    assert len(a.check_ok.get_segments()) == n_ok
    assert len(a.check_fail.get_segments()) == len(a.checks) - n_ok
    assert "11 points" in a.info.value and "4 points" in a.info.value
    assert not a.stuck and len(xy(a.stuck_marks)) == 0


def test_grid_app_shows_the_trap(grid_app):
    a = grid_app
    a.sight_rule.value = a.SIGHT_RULES[1]
    assert a.stuck, "a careless sight test should let the path graze a corner"
    assert len(a.stuck_lines.get_segments()) == len(a.stuck)
    marks = xy(a.stuck_marks)
    # the marker sits on a corner of a blocked cell
    x, y = marks[0]
    assert x == int(x) and y == int(y)
    touching = a.grid[max(int(y) - 1, 0):int(y) + 1, max(int(x) - 1, 0):int(x) + 1]
    assert touching.any()
    assert "stuck" in a.info.value
    # when A* itself may cut corners, the same sight rule is honest again
    a.corner_cutting.value = True
    assert not a.stuck


def test_grid_app_checks_toggle_and_walls(grid_app):
    a = grid_app
    a.show_checks.value = False
    assert len(a.check_ok.get_segments()) == 0 and len(a.check_fail.get_segments()) == 0
    old = list(a.path)
    a._on_press(click(a, 3.5, 5.5))  # add a wall on the staircase
    assert a.grid[5, 3]
    assert a.path != old
    a.reset_button.click()
    assert not a.grid[5, 3] and a.path == old


def test_grid_app_walled_off_goal_is_a_message(grid_app):
    a = grid_app
    gx, gy = a.goal
    for x, y in [(gx - 1, gy), (gx + 1, gy), (gx - 1, gy - 1), (gx, gy - 1), (gx + 1, gy - 1)]:
        a.toggle_cell(x, y)
    assert "walled off" in a.last_error
    assert "No path" in a.info.value
    guarded = a.guard(a.toggle_cell)
    guarded(*a.goal)
    assert "must stay free" in a.last_error


def test_start_and_goal_in_one_polygon(app):
    app.set_points(goal=(1.3, 0.9))
    assert app.route.corridor == [app.mesh.locate((1.2, 1.0))]
    assert len(app.portals) == 0 and len(app.labels.get_paths()) == 0
    assert np.allclose(xy(app.corners), [(1.2, 1.0), (1.3, 0.9)])
    assert "saved 0.0%" in app.lengths.value
    app.radius.value = 0.3
    assert app.last_error is None and len(app.shrunk_lines.get_segments()) == 0
