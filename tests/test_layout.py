"""The shared layout (lessons_lib/apps/core/layout.py), headless: where the figure goes and
how large it is for the room the page reports, the page's report checked, the figure
re-rendered at its new size with clicks still landing on the same data point, and
presenter mode."""

from __future__ import annotations

import functools

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rooms import ROOMS

import lessons_lib
from lessons_lib.apps import GimbalApp, GridApp, InterpolationApp
from lessons_lib.apps.core import iter_widgets
from lessons_lib.apps.core.figure import FIGURE_DPI, PRESENT_DPI
from lessons_lib.apps.core.guard import FIGURE_MAX_PX, FIGURE_MIN_PX
from lessons_lib.apps.core.layout import (
    BESIDE_SHARE,
    EXPLAIN_BESIDE_PX,
    EXPLAIN_PX,
    GAP_PX,
    HEIGHT_SHARE_BESIDE,
    HEIGHT_SHARE_PRESENT_UNDER,
    HEIGHT_SHARE_UNDER,
    PRESENT_UNDER_GAIN,
    PRESENT_ZOOM,
    SIDE_PX,
    SLACK_PX,
    figure_box,
    parse_fit,
)
from lessons_lib.catalogue import app_registry


@pytest.fixture
def grid():
    app = GridApp()
    yield app
    plt.close(app.fig)


# -- figure_box -------------------------------------------------------------------------------
def test_a_wide_room_puts_the_figure_beside_the_controls_and_grows_it():
    w, h, beside = figure_box(1250, 1080, (600, 400))
    assert beside and w == 1250 - SIDE_PX - GAP_PX - SLACK_PX and h == round(w * 400 / 600)


def test_a_narrow_room_puts_the_figure_under_the_controls_at_the_full_width():
    room = SIDE_PX + GAP_PX + SLACK_PX + int(BESIDE_SHARE * 600) - 10
    w, h, beside = figure_box(room, 2000, (600, 400))
    assert not beside and w == room - GAP_PX


def test_the_figure_is_never_taller_than_the_window_allows():
    w, h, beside = figure_box(1250, 720, (480, 460))
    assert beside and h <= HEIGHT_SHARE_BESIDE * 720 + 1
    w, h, beside = figure_box(823, 480, (820, 470))
    assert not beside and h <= HEIGHT_SHARE_UNDER * 480 + 1


def test_in_presenter_mode_the_figure_under_the_controls_takes_the_window_less_a_row():
    """853x480 (150 % zoom) in presenter mode: the 20 px controls do not fit beside lesson
    1's figure, and under them it was held to 62 % of the window: 310 px wide in an 823 px
    row, smaller than without presenter mode (450 px), its 20 px labels on top of each
    other. Now it takes the window's height less about one zoomed control row (49 px)."""
    natural = (480, 460)
    normal_w, _, _ = figure_box(823, 480, natural)
    w, h, beside = figure_box(823, 480, natural, SIDE_PX * PRESENT_ZOOM, present=True)
    assert not beside and 0.8 * 480 <= h <= 480 - 49
    assert w >= 0.9 * normal_w
    # beside the controls, and out of presenter mode, nothing changes
    assert figure_box(1250, 720, natural, present=True) == figure_box(1250, 720, natural)
    assert figure_box(823, 480, (820, 470), present=False)[1] <= HEIGHT_SHARE_UNDER * 480 + 1


def test_the_figure_leaves_room_under_it_for_the_explanation_line():
    """Issue 42's stage: an app's explanation line goes under its figure, so where the
    window's height holds the figure (beside the controls, or under them in presenter
    mode) the figure is ``below`` px shorter; under the controls out of presenter mode the
    38 % of the window it leaves already holds it, and nothing changes."""
    natural = (480, 460)
    for args, present in (((1250, 720, natural), False),
                          ((823, 480, natural, SIDE_PX * PRESENT_ZOOM), True)):
        _, h, beside = figure_box(*args, present=present)
        _, h_below, beside_below = figure_box(*args, present=present, below=90)
        assert beside_below == beside and abs(h - 90 - h_below) <= 1, (args, h, h_below)
    assert figure_box(823, 480, (820, 470), below=90) == figure_box(823, 480, (820, 470))
    with pytest.raises(ValueError, match="below"):
        figure_box(823, 480, (820, 470), below=-1)


def test_in_presenter_mode_a_much_wider_figure_under_the_controls_wins():
    """A 1280x720 projector in presenter mode: the 20 px controls (600 px) left lesson 2's
    figure 659 px wide beside them, smaller than out of presenter mode (810 px), with 350 px
    of the window empty under it. Under the controls it is 1067 px, so it goes there; lesson
    1's near-square figure (as wide either way) stays beside, and at 1920x1080 every
    lesson's figure stays beside its controls."""
    naturals = {"gimbal": ((480, 460), 360), "interpolation": ((820, 470), 420),
                "steering": ((790, 500), 420), "funnel": ((660, 425), 430)}
    for name, (natural, side) in naturals.items():
        zoomed = side * PRESENT_ZOOM
        beside_w = figure_box(1250, 720, natural, zoomed, present=True)
        if name == "gimbal":
            assert beside_w[2], name
        else:
            w, h, beside = beside_w
            assert not beside and h == round(HEIGHT_SHARE_PRESENT_UNDER * 720), name
            assert w >= PRESENT_UNDER_GAIN * (1250 - zoomed - GAP_PX - SLACK_PX), name
        assert figure_box(1890, 1080, natural, zoomed, present=True)[2], name
        assert figure_box(1250, 720, natural, side)[2], name      # not presenting: beside


def test_a_figure_held_to_the_least_size_that_would_not_fit_beside_goes_under():
    """Lesson 3's tuning exercise (700x240, a wide strip) in presenter mode at 1280x720: its
    height floor held it at 700 px where 649 px were left beside the 571 px controls, so the
    page wrapped the controls under a 700x240 figure in a 1240 px row. Now it is laid out
    under them, at the row's width."""
    side = SIDE_PX * PRESENT_ZOOM
    w, h, beside = figure_box(1240, 720, (700, 240), side, present=True)
    assert not beside and w == 1240 - GAP_PX
    for room in range(300, 2400, 7):                 # never wider than the room it is given
        for natural in ((700, 240), (480, 460), (790, 500)):
            w, _, beside = figure_box(room, 720, natural, side, present=True)
            assert not beside or w <= room - side - GAP_PX - SLACK_PX, (room, natural)


@pytest.mark.parametrize("room, height", [(100, 100), (20_000, 20_000), (1, 1)])
def test_the_figure_stays_within_the_bounds(room, height):
    w, h, _ = figure_box(room, height, (600, 400))
    assert FIGURE_MIN_PX <= min(w, h) and max(w, h) <= FIGURE_MAX_PX


@pytest.mark.parametrize("bad", [float("nan"), -1, float("inf"), "800", None])
def test_figure_box_refuses_bad_numbers(bad):
    with pytest.raises(ValueError, match="figure_box"):
        figure_box(bad, 700, (600, 400))
    with pytest.raises(ValueError, match="figure_box"):
        figure_box(800, 700, (bad, 400))


@pytest.mark.parametrize("natural", [(1e-300, 1), (1, 1e-300), (5e-324, 5e-324), (1e300, 1),
                                     (240, 2401), (2401, 240), (0.5, 0.5)])
def test_figure_box_refuses_a_degenerate_natural_size_saying_the_limit(natural):
    """Issue 46: a degenerate natural size gave 'cannot convert float NaN to integer' or a
    figure 0 px tall; it is refused, the message saying the limit."""
    with pytest.raises(ValueError, match=r"figure_box: .*(>= 1 px|<= 100000 px|within 0\.1 "
                                         r"to 10)"):
        figure_box(800, 700, natural)


@pytest.mark.parametrize("natural", [None, (1,), (1, 2, 3), "ab", 5, [[600, 400]]])
def test_figure_box_refuses_a_natural_size_that_is_not_two_numbers(natural):
    with pytest.raises(ValueError, match="figure_box: natural"):
        figure_box(800, 700, natural)


@pytest.mark.parametrize("where", range(4))
def test_figure_box_refuses_integers_beyond_float_range(where):
    args = [800, 700, (600, 400), SIDE_PX]
    args[where] = 10**400 if where != 2 else (10**400, 400)
    with pytest.raises(ValueError, match="figure_box: .*within float range"):
        figure_box(*args)


# -- the page's report --------------------------------------------------------------------------
def test_parse_fit_reads_the_pages_report():
    assert parse_fit("1250 720 0") == (1250, 720, False)
    assert parse_fit("823 480 1") == (823, 480, True)


@pytest.mark.parametrize("bad", ["", "1250 720", "1250 720 2", "-5 720 0", "1e3 720 0",
                                 "0 720 0", "1250 NaN 0", "1250 720 0 1", "9" * 199, None, 3])
def test_parse_fit_refuses_anything_else(bad):
    with pytest.raises(ValueError):
        parse_fit(bad)


@pytest.mark.parametrize("bad", ["\u00b9\u00b2\u00b3 720 0", "1250 \u00b2\u00b3 1",
                                 "\u0661\u0662\u0663 720 0", "1250 720 \u00b9",
                                 "1" * 10**6 + " 720 0", "1250 720 01"])
def test_parse_fit_refuses_other_digits_and_huge_numbers_with_its_own_message(bad):
    """Issue 46: superscript digits pass str.isdigit() but not int(), and a 10**6-digit
    number passes it but exceeds int()'s digit limit: both raised int()'s own message."""
    with pytest.raises(ValueError, match="size report .*ASCII digits, at most 40"):
        parse_fit(bad)


def test_a_bad_report_from_the_page_is_a_message_and_changes_nothing(grid):
    size = tuple(grid.fig.get_size_inches())
    grid.fit_probe.value = "1250 NaN 0"
    assert grid.last_error and "size report" in grid.last_error
    assert tuple(grid.fig.get_size_inches()) == size and grid.fitted is None


def test_the_pages_report_resizes_the_figure(grid):
    grid.fit_probe.value = "1250 1080 0"
    w, h, beside = figure_box(1250, 1080, grid._natural, 420)
    assert grid.fitted == (w, h, beside, False) and grid.last_error is None
    assert np.allclose(grid.fig.get_size_inches() * FIGURE_DPI, (w, h), atol=1)


# -- re-rendered at the new size, clicks on the same data point ---------------------------------
def _click_cell(app, cell) -> None:
    """A click from the page on the centre of grid cell ``cell``, as ipympl sends it: x and
    y in the canvas's pixels, y from the top."""
    x, y = app.ax.transData.transform((cell[0] + 0.5, cell[1] + 0.5))
    height = app.fig.canvas.get_renderer().height
    for kind in ("button_press", "button_release"):
        app.fig.canvas.handle_event({"type": kind, "x": float(x), "y": float(height - y),
                                     "button": 0, "buttons": 1 if kind == "button_press" else 0,
                                     "modifiers": [], "guiEvent": None})


def test_a_click_lands_on_the_same_cell_at_two_sizes(grid):
    cell = next((x, y) for y in range(grid.grid.shape[0]) for x in range(grid.grid.shape[1])
                if not grid.grid[y, x] and (x, y) not in (grid.start, grid.goal))
    sizes = []
    for room in ((1890, 1080), (823, 480)):
        grid.fit(*room)
        grid.fig.canvas.draw()
        sizes.append(grid.fig.canvas.get_renderer().width)
        before = grid.grid.copy()
        _click_cell(grid, cell)
        changed = np.argwhere(grid.grid != before)
        assert [tuple(c[::-1]) for c in changed] == [cell], (room, changed)
    assert sizes[0] > 1.5 * sizes[1]     # the figure really was drawn at two sizes


def test_a_resize_rebuilds_the_painters_cached_background():
    app = InterpolationApp()
    try:
        app.fig.canvas.draw()
        full = app.painter.full_draws
        app.fit(1890, 1080)
        app.fig.canvas.draw()
        renderer = app.fig.canvas.get_renderer()
        assert app.painter.full_draws == full + 1
        assert (renderer.width, renderer.height) == pytest.approx(app.fitted[:2], abs=1)
        assert app.painter._background.shape[:2] == (renderer.height, renderer.width)
    finally:
        plt.close(app.fig)


# -- presenter mode ------------------------------------------------------------------------------
def test_the_explanation_goes_beside_a_figure_under_the_controls_where_the_row_has_room(grid):
    """Issue 42's stage: lesson 4's grid under its controls at 853x480 keeps its figure's
    size and puts the preset note beside it (the row has 370 px to spare); so it does in
    presenter mode at 1280x720 (a map wider than under a reserved line); narrower rooms
    narrow the map to leave the note its room; beside the controls (1920x1080) the note
    is under the figure."""
    classes = lambda: grid.app_root._dom_classes  # noqa: E731
    assert grid.fit(833, 480) == figure_box(833, 480, grid._natural, 420)
    assert "lesson-explain-beside" in classes() and "lesson-stacked" in classes()
    grid.present(True)
    w, _, beside = grid.fit(1250, 699)
    under = figure_box(1250, 699, grid._natural, 420 * PRESENT_ZOOM, present=True,
                       below=EXPLAIN_PX * PRESENT_ZOOM)
    free = figure_box(1250, 699, grid._natural, 420 * PRESENT_ZOOM, present=True)
    assert not beside and w == free[0] > under[0] and "lesson-explain-beside" in classes()
    w, _, _ = grid.fit(1100, 699)
    assert w == int(1100 - GAP_PX - EXPLAIN_BESIDE_PX * PRESENT_ZOOM) < free[0]
    assert "lesson-explain-beside" in classes()
    grid.present(False)
    assert grid.fit(1880, 1080)[2] and "lesson-explain-beside" not in classes()


def test_presenter_mode_draws_larger_hides_more_controls_and_comes_back():
    app = GimbalApp()
    try:
        app.fit(1250, 720)
        shown = app.fitted
        lessons_lib.present()
        assert app.presenting and app.fig.dpi == PRESENT_DPI
        assert "lesson-present" in app.app_root._dom_classes
        lessons_lib.present(False)
        assert not app.presenting and app.fig.dpi == FIGURE_DPI and app.fitted == shown
        plt.close(app.fig)          # a closed app is left alone (the tests leave hundreds)
        lessons_lib.present()
        assert not app.presenting
    finally:
        lessons_lib.present(False)
        plt.close(app.fig)


def test_presenter_mode_tucks_lesson_2s_angle_sliders_only_in_a_low_window():
    """Lesson 2's angle sliders are tucked: the page hides them (CSS) when the app presents
    with its controls under the figure in a window under 600 px tall (853x480: a projector
    at 150 % zoom), and only then. At 1280x720 they stay (issue 41: hidden there, a
    student could not set the angles the lesson's things to try name)."""
    app = InterpolationApp()
    try:
        tucked = [w for w in iter_widgets(app.app_root) if "lesson-tuck" in w._dom_classes]
        assert len(tucked) == 1 and len(list(iter_widgets(tucked[0]))) > 6
        for room, presenting, stacked, tucking in (
                ("853x480", True, True, True), ("1280x720", True, True, False),
                ("1920x1080", True, False, False), ("853x480", False, True, False)):
            app.present(presenting)
            fw, fh, beside = app.fit(*ROOMS[room])
            classes = app.app_root._dom_classes
            assert ("lesson-stacked" in classes) is stacked is (not beside), room
            assert ("lesson-present" in classes) is presenting
            assert ("lesson-tucking" in classes) is tucking, (room, presenting)
    finally:
        plt.close(app.fig)


def test_only_a_primary_control_can_be_tucked(grid):
    stray = widgets.Checkbox()
    with pytest.raises(ValueError, match="only a primary control"):
        grid.arrange(primary=[grid.fig.canvas], tuck=[stray])


@pytest.mark.parametrize("bad", [1, "yes", None])
def test_present_takes_only_true_or_false(bad):
    with pytest.raises(ValueError, match="True or False"):
        lessons_lib.present(bad)


def test_lesson_3s_lower_plot_keeps_its_tick_labels_inside_the_figure_in_presenter_mode():
    """Presenter mode draws larger text: the lower plot's left margin grows with it (kept at
    the normal size, it cut "+1 right" off at the figure's left edge at 1920x1080)."""
    from lessons_lib.apps.steering import SteeringApp

    app = SteeringApp()
    try:
        for presenting in (False, True):
            app.present(presenting)
            app.fit(1900, 1000)
            renderer = app.fig.canvas.get_renderer()
            app.fig.canvas.draw()
            for label in app.scene.ax_terms.get_yticklabels():
                box = label.get_window_extent(renderer)
                assert box.x0 >= 0, (presenting, label.get_text(), box.x0)
    finally:
        app.present(False)
        plt.close(app.fig)


# -- every room keeps the painter's fast path ----------------------------------------------------
#: (device pixel ratio, room, presenter): 100 %, 150 % zoom, JupyterLab's column, presenter
#: mode on a 1920x1080 projector and on a 150 %-zoomed one.
PAINT_ROOMS = {"100%": (1.0, ROOMS["1280x720"], False), "150%": (1.5, ROOMS["853x480"], False),
               "lab": (1.0, ROOMS["lab"], False), "present": (1.0, ROOMS["1920x1080"], True),
               "present-150%": (1.5, ROOMS["853x480"], True)}


@pytest.mark.parametrize("name", sorted(app_registry()))
def test_a_slider_move_redraws_only_what_changed_in_every_room(name):
    """The painter re-renders one axes alone only where it overlaps no other; at 853x480
    lesson 3's lower plot reached 5 px into the views above it, and every change there was a
    full render (its kernel frame 11 -> 43 ms, the slowest slider of issue 29's 150 % run)."""
    app = getattr(lessons_lib.apps, name)()
    canvas = app.fig.canvas
    canvas.syncing_data_url = False                 # a page is showing it: changes are drawn
    sliders = [w for w in iter_widgets(app.widget)
               if isinstance(w, widgets.FloatSlider | widgets.IntSlider) and not w.disabled]
    try:
        for room, (ratio, size, presenting) in PAINT_ROOMS.items():
            canvas._handle_set_device_pixel_ratio(ratio)
            app.present(presenting)
            app.fit(*size)
            canvas.draw()
            frames, whole = app.painter.sent, []
            for slider in sliders:
                full = app.painter.full_draws
                slider.value = (slider.value + slider.step if slider.value < slider.max
                                else slider.min)
                if app.painter.full_draws != full:
                    whole.append(slider.description or "a slider")
            assert app.painter.sent >= frames + len(sliders), f"{room}: a move sent no frame"
            assert not whole, (
                f"{name} in the {room} room: moving {', '.join(whole)} re-rendered the whole "
                "figure, not only the axes it changes: at this size those axes (their ticks "
                "and labels) overlap another axes. Give them room in the app's view (its "
                "axes positions, or fewer/shorter tick labels), then re-run this test")
    finally:
        app.present(False)
        plt.close(app.fig)


_DIGITS = st.one_of(st.integers(0, 10**7).map(str), st.integers(10**300, 10**400).map(str),
                    st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=6))
_REPORTS = st.one_of(
    st.tuples(_DIGITS, _DIGITS, st.sampled_from(["0", "1", "01", "\u00b9", "\u0661"]))
    .map(" ".join),
    st.text(max_size=50))


@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(report=_REPORTS)
@example(report="\u00b9\u00b2\u00b3 720 0").via("issue 46")
@example(report="1250 \u0667\u0662\u0660 1").via("issue 46")
def test_any_report_through_the_probes_channel_fits_or_is_a_message(report):
    """Issue 46: a report as the page sends it (the probe's comm), with any digits (ASCII,
    superscript, Arabic-Indic) and numbers beyond float range, lays the app out within the
    figure's bounds or leaves one line saying the report is not a size; nothing raises."""
    app = _probe_app()
    app.clear_message()
    app.fit_probe.comm.handle_msg({"content": {"data": {
        "method": "update", "state": {"value": report}, "buffer_paths": []}}, "buffers": []})
    if app.last_error is None:
        w, h = app.fig.canvas.get_width_height(physical=False)
        assert FIGURE_MIN_PX <= min(w, h) and max(w, h) <= FIGURE_MAX_PX
    else:
        assert "size report" in app.last_error or "at most 200 characters" in app.last_error
        assert "\n" not in app.last_error


@functools.cache
def _probe_app():
    return GridApp()
