"""Play drawn by the page for lesson 3 (issue 43): each frame the page draws over its
background is the frame the kernel draws, for each lower plot and on the 3D ramp, off the
slider's steps too; the background stays while time passes (the close-up and the slope
view follow the car, so they are recorded whole); the whole animation keeps within the
bounds; and Pause lands on a step the kernel draws."""

from __future__ import annotations

import zlib

import motion_check as mc
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from lessons_lib.apps import fastdraw
from lessons_lib.apps.core import app as core_app
from lessons_lib.apps.fastdraw import record
from lessons_lib.apps.steering import SteeringApp, model

pytestmark = pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")

#: The preset on the 3D ramp (the slope view instead of the close-up).
RAMP = next(sc.name for sc in model.SCENARIOS if sc.values.get("track") == model.SLOPE_TRACK)
#: Each lower plot, and the ramp (with the time plot).
CASES = (*model.VIEWS, "ramp")


def _no_running_loop():
    raise RuntimeError("no running event loop")


def _make(case: str) -> SteeringApp:
    if case == "ramp":
        return SteeringApp(RAMP)
    app = SteeringApp()
    app.view.value = case
    return app


@pytest.fixture(params=CASES)
def app(request, monkeypatch):
    """Lesson 3's app as in a kernel with no event loop running (what it would send later
    on the kernel's loop, it sends at once), with each lower plot and on the ramp."""
    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    monkeypatch.setattr(core_app.asyncio, "get_running_loop", _no_running_loop)
    made = _make(request.param)
    FigureCanvasAgg.draw(made.fig.canvas)
    return made


def _picks(app) -> list[float]:
    """Frame values Play in the page draws: the first, steps and substeps spread over the
    run (each far enough from the one before for the check to tell them apart), the last."""
    values = app.motion_values()
    n, sub = len(values), app.motion_substeps

    def step(share: float) -> int:
        return int(share * (n - 1)) // sub * sub

    at = [0, step(1 / 7) + 1, step(1 / 3) + 2, step(1 / 2), step(3 / 4) + 1, n - 1]
    return [values[min(i, n - 1)] for i in at]


def test_replay_is_the_kernels_frame(app):
    assert app.motion_substeps == 3
    animation = mc.assert_replay_is_the_kernels(app, _picks(app))
    assert animation.unsupported == 0


def test_background_is_steady(app):
    mc.assert_background_is_steady(app, _picks(app))


def test_every_axes_time_moves_is_recorded_whole(app):
    """An axes whose limits change with time (the close-up, the slope view) is one of the
    moving artists itself: all it holds moves on the screen."""
    moving = mc.moving(app)
    moved = []
    for ax in app.fig.axes:
        if not ax.get_visible():
            continue
        limits = []
        for value in (0.0, 6.0, 18.0):
            app.draw(app.state, value)
            limits.append((ax.get_xlim(), ax.get_ylim()))
        if len(set(limits)) > 1:
            moved.append(ax)
            assert ax in moving
    app.redraw()
    assert moved == [app.ax_slope if app.state.spline.dim == 3 else app.ax_close]


def test_the_frames_are_small(app):
    """Under 8 kB a frame on the road: the close-up's long lines only where it shows them,
    the time plot's whole-run lines not at all (its cursor is drawn over them)."""
    animation = app.record_motion(_picks(app))
    assert animation.nbytes / animation.frame_count < 8000
    assert len(animation.verts) / animation.frame_count < 600


def test_the_key_and_the_title_are_recorded_once(app, monkeypatch):
    """What motion_still names is drawn once for a run of frames, and the frames are those
    recorded drawing it each time."""
    values = _picks(app)
    legend = app.scene.terms_legend
    draws = []
    monkeypatch.setattr(legend, "draw", lambda renderer, draw=legend.draw: (
        draws.append(renderer), draw(renderer))[1])
    once = app.record_motion(values)
    assert len(draws) == (1 if app.ax_terms.get_visible() else 0)
    monkeypatch.setattr(type(app), "motion_still", lambda self: None)
    each = app.record_motion(values)
    assert len(draws) == (1 + len(values) if app.ax_terms.get_visible() else 0)
    for name in ("kinds", "props", "codes", "verts", "dashes", "offsets", "strings", "fonts"):
        assert np.array_equal(getattr(once, name), getattr(each, name)), name


#: A preset whose car leaves the road (and still plays three frames a step).
OFF_ROAD = next(sc.name for sc in model.SCENARIOS
                if model.left_road(SteeringApp(sc.name).state.run))


@pytest.mark.parametrize("case", ["opening", "off the road", "looping"])
def test_the_whole_animation_is_within_the_bounds(monkeypatch, case):
    """Every frame of Play, from the first step to the last: within record.LIMITS, three
    frames a step, and fewer where the car loops off the road (at 25 m/s on the hairpin
    its loops fill the close-up: at three a step they would pass the bound)."""
    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    app = SteeringApp(OFF_ROAD) if case == "off the road" else SteeringApp()
    if case == "looping":
        app.set(track="hairpin", speed=25.0)
    assert model.left_road(app.state.run) == (case != "opening")
    sub = app.motion_substeps
    assert sub == (2 if case == "looping" else 3)
    values = app.motion_values()
    assert len(values) == app.play.max * sub + 1
    animation = app.record_motion(values)
    assert animation.frame_count == len(values) and animation.unsupported == 0
    assert animation.nbytes <= record.LIMITS.animation_bytes
    if case == "looping":
        assert animation.nbytes * 3 / 2 > record.LIMITS.animation_bytes


def test_a_long_line_is_cut_where_agg_cuts_it():
    """A line that leaves the canvas and comes back is cut 1 px outside it, and starts a
    new subpath where it comes back (where Agg starts its dashes again); a solid line is
    cut to its clip box widened by the margin instead."""
    from matplotlib.path import Path
    from matplotlib.transforms import Bbox, IdentityTransform

    out_and_back = Path(np.array([[50.0, 20.0], [50.0, 500.0], [60.0, 20.0]]))
    codes, verts = record._clip_polyline(out_and_back, IdentityTransform(), (100, 50),
                                         None, 3.0)
    assert codes.tolist() == [Path.MOVETO, Path.LINETO, Path.MOVETO, Path.LINETO]
    assert verts[1].tolist() == pytest.approx([50.0, 51.0])
    assert verts[2, 1] == pytest.approx(51.0) and verts[3].tolist() == [60.0, 20.0]
    x = np.linspace(-200.0, 200.0, 401)
    long = Path(np.c_[x, 20 + 0.0 * x])
    codes, verts = record._clip_polyline(long, IdentityTransform(), (100, 50), None, 3.0)
    assert verts[:, 0].min() == pytest.approx(-1.0) and verts[:, 0].max() == pytest.approx(101.0)
    box = Bbox.from_extents(40, 0, 60, 50)
    codes, verts = record._clip_polyline(long, IdentityTransform(), (100, 50), box, 3.0)
    assert verts[:, 0].min() == pytest.approx(36.0) and verts[:, 0].max() == pytest.approx(64.0)


class Page:
    """What the kernel sends the page's player, kept; and messages sent as the page would."""

    def __init__(self, app) -> None:
        self.player = app.motion_player
        self.sent: list[tuple[dict, list]] = []
        self.player.send = lambda content, buffers=None: self.sent.append(
            (content, list(buffers or [])))

    def says(self, content) -> None:
        self.player._on_page(self.player, content, [])

    def last(self, kind: str) -> dict:
        return next(c for c, _ in reversed(self.sent) if c["type"] == kind)

    def frames_sent(self) -> list[int]:
        """The frames the page was sent, in the order they came."""
        out = []
        for content, (blob,) in ((c, b) for c, b in self.sent if c["type"] == "frames"):
            count = record.HEADER.unpack_from(zlib.decompress(blob))[1]
            out += range(content["first"], content["first"] + count)
        return out


def test_play_in_the_page_and_pause_on_a_step(monkeypatch):
    """On the ramp at 25 m/s (a short run): Play sends every frame once, the slider
    follows the page, and Pause at a substep shows the step it rounds to, drawn by the
    kernel."""
    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    monkeypatch.setattr(core_app.asyncio, "get_running_loop", _no_running_loop)
    app = SteeringApp(RAMP)
    app.set(speed=25.0)
    page = Page(app)
    page.says({"type": "ready"})
    app.play_button.value = True
    sub = app.motion_substeps
    begin, play = page.last("begin"), page.last("play")
    assert begin["frames"] == app.play.max * sub + 1 and play["substeps"] == sub == 3
    assert sorted(page.frames_sent()) == list(range(begin["frames"]))
    draws = app.draw_count
    page.says({"type": "shown", "token": play["token"], "frame": 30 * sub + 2})
    assert app.play.value == 31 and app.draw_count == draws
    app.play_button.value = False
    page.says({"type": "stopped", "token": play["token"], "frame": 40 * sub + 1})
    assert app.frame_slider.value == pytest.approx(40 * 0.04) and app.draw_count == draws + 1
    assert page.last("hide") and not app.play_button.value


def test_no_player_with_the_fast_path_off(monkeypatch):
    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    monkeypatch.setattr(fastdraw, "ENABLED", False)
    assert SteeringApp().motion_player is None
