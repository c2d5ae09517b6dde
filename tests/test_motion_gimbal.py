"""Lesson 1's "Lock it" drawn by the page (issue 43): the middle ring's slider animated along
:func:`model.lock_path` with :meth:`LessonApp.play_path`. Each of the page's frames is the
state computed at its angle (the path's steps and the angles between them), recorded and
replayed, and must be the kernel's full draw of that angle; the background stays still;
the end is the kernel's own figure of the lock; anything else the learner does ends it; a
page without the player, or a path past the bounds, leaves Lock it in the kernel. The last
test clicks Lock it in Voila."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from motion_check import (
    LOUD_SHARE,
    assert_background_is_steady,
    assert_replay_is_the_kernels,
    kernel_frame,
    loud_share,
    replayed,
)
from test_browser_motion import COMPARE
from test_browser_motion import LOUD_SHARE as PAGE_SHARE

from lessons_lib import rotations as rot
from lessons_lib.apps import fastdraw
from lessons_lib.apps.core import app as core_app
from lessons_lib.apps.fastdraw import player as motion
from lessons_lib.apps.fastdraw import record
from lessons_lib.apps.gimbal import GimbalApp, model
from lessons_lib.catalogue import LESSONS

import browser as h

pytestmark = pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")

SUB = GimbalApp.motion_substeps


def page_values(path) -> list[float]:
    """The angles the page draws for a lock path: SUB a step, evenly between its steps."""
    return [float(a + j * (b - a) / SUB) for a, b in zip(path[:-1], path[1:], strict=True)
            for j in range(SUB)] + [float(path[-1])]


def figure_pixels(app) -> np.ndarray:
    FigureCanvasAgg.draw(app.fig.canvas)
    return np.asarray(app.fig.canvas.get_renderer().buffer_rgba()).copy()


# -- the frames themselves ------------------------------------------------------------------
@pytest.mark.parametrize("order, start", [("YXZ", -20.0), ("XYZ", 35.0), ("ZYX", -150.0)])
def test_replayed_lock_frames_are_the_kernels(order, start):
    """Many of Lock it's frames, steps and the angles between them, for three ring orders:
    recorded, replayed over the background, against a full draw at that angle."""
    app = GimbalApp(order=order, **{rot.middle_angle_name(order): start})
    name = rot.middle_angle_name(order)
    values = page_values(model.lock_path(start))
    picked = values[:7] + values[30:34] + values[-4:]
    assert any(v != round(v) for v in picked)          # angles off the slider's steps
    # consecutive frames a third of a degree apart may look alike: the check that the
    # measure can fail is made on frames a degree or more apart
    assert_replay_is_the_kernels(app, picked, control=name, apart=0.9)
    assert_background_is_steady(app, values[::15] + values[-1:], control=name)


def test_a_frame_is_not_its_neighbours():
    """The comparison tells two angles apart: frame 0 replayed is not the lock."""
    app = GimbalApp()
    values = page_values(model.lock_path(app.pitch.value))
    FigureCanvasAgg.draw(app.fig.canvas)
    animation = app.record_path("pitch", [values[0], values[-1]])
    background = app.painter.background_without(
        list({id(a): a for a in app.motion_artists()}.values()))
    first = replayed(app, animation, 0, background)
    assert loud_share(kernel_frame(app, values[-1], "pitch"), first) > 3 * LOUD_SHARE
    app.redraw()


def test_record_path_leaves_the_app_as_it_was():
    app = GimbalApp()
    figure_pixels(app)            # (the ring labels are placed a little apart until the
    app.redraw()                  # figure has been drawn once)
    before = figure_pixels(app)
    params, state = app.params, app.state
    app.record_path("pitch", [10.0, 20.5, 89.0])
    assert app.params == params and app.state is state
    assert np.array_equal(figure_pixels(app), before)


@pytest.mark.parametrize("name, values", [
    ("order", [1.0]), ("turn_about", [1.0]), ("pitch", []), ("pitch", [0.0, float("nan")]),
    ("pitch", [0.0, 181.0]), ("pitch", "0, 90"), ("pitch", [0.0] * (record.LIMITS.frames + 1)),
    ("nose", [0.0]), (None, [0.0]),
])
def test_bad_paths_are_refused(name, values):
    app = GimbalApp()
    with pytest.raises(ValueError):
        app.record_path(name, values)
    with pytest.raises(ValueError):
        app.play_path(name, values, 40)


# -- the kernel's side of Lock it in the page ---------------------------------------------
class Page:
    """What the kernel sends the page's player, kept; and messages sent as the page would."""

    def __init__(self, app) -> None:
        self.player = app.motion_player
        self.sent: list[tuple[dict, list[bytes]]] = []
        self.player.send = lambda content, buffers=None: self.sent.append(
            (content, list(buffers or [])))

    def says(self, content) -> None:
        self.player._on_page(self.player, content, [])

    def kinds(self) -> list[str]:
        return [c["type"] for c, _ in self.sent]

    def last(self, kind: str) -> dict:
        return next(c for c, _ in reversed(self.sent) if c["type"] == kind)

    def frames(self, since: int = 0) -> dict[int, bytes]:
        """Frame index -> its packed run, for the frames sent since ``since``."""
        out = {}
        for content, buffers in self.sent[since:]:
            if content["type"] == "frames":
                out[content["first"]] = zlib.decompress(buffers[0])
        return out


def _no_running_loop():
    raise RuntimeError("no running event loop")


@pytest.fixture
def kernel(monkeypatch):
    """Apps made here run as in a kernel, with no event loop running: what the app would
    send later, on the kernel's loop, it sends at once."""
    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    monkeypatch.setattr(core_app.asyncio, "get_running_loop", _no_running_loop)


def _ready(app) -> Page:
    page = Page(app)
    page.says({"type": "ready"})
    return page


def test_lock_it_plays_in_the_page(kernel):
    app = GimbalApp()
    page = _ready(app)
    start = app.pitch.value
    path = [float(v) for v in model.lock_path(start)]
    values = page_values(path)
    draws = app.draw_count
    app.lock_button.click()
    kinds = page.kinds()
    assert kinds[0] == "begin" and kinds[-1] == "play" and "frames" in kinds
    begin, play = page.last("begin"), page.last("play")
    assert begin["frames"] == len(values) == model.LOCK_FRAMES * SUB + 1
    assert play["frame"] == 0 and play["substeps"] == SUB
    assert play["interval_ms"] * SUB == pytest.approx(model.LOCK_INTERVAL_MS)
    assert page.sent[0][1][0].startswith(b"\x89PNG")
    # every frame sent once, each the state at its angle (steps and the angles between)
    runs = page.frames()
    covered = sorted(k for first, raw in runs.items()
                     for k in range(first, first + record.HEADER.unpack_from(raw)[1]))
    assert covered == list(range(len(values)))
    for first, raw in runs.items():
        count = record.HEADER.unpack_from(raw)[1]
        assert raw == app.record_path("pitch", values[first:first + count]).to_bytes()
    assert app.draw_count == draws and app.pitch.value == start   # nothing drawn yet

    # the slider follows what the page shows, on the path's steps, without a draw
    renders = app.painter.full_draws + app.painter.fast_draws + app.painter.partial_draws
    page.says({"type": "shown", "token": play["token"], "frame": 10 * SUB + 1})
    assert app.pitch.value == path[10] and app.draw_count == draws
    assert app.painter.full_draws + app.painter.fast_draws + app.painter.partial_draws \
        == renders

    # the end: the kernel's full figure of the lock, as Lock it without animation draws it
    page.says({"type": "ended", "token": play["token"], "frame": len(values) - 1})
    assert app.pitch.value == path[-1] == -90.0 and app.state.badge == "locked"
    assert page.kinds()[-1] == "hide" and app.draw_count == draws + 1
    plain = GimbalApp()
    plain.lock_it()
    assert app.params == plain.params
    assert {k: w.value for k, w in app.panels.items()} == \
        {k: w.value for k, w in plain.panels.items()}
    assert np.array_equal(figure_pixels(app), figure_pixels(plain))


def test_lock_it_again_from_the_same_pose_sends_no_frames(kernel):
    """A page cannot make the kernel record more: the same Lock it is recorded once."""
    app = GimbalApp()
    page = _ready(app)
    app.lock_button.click()
    page.says({"type": "ended", "token": page.last("play")["token"],
               "frame": page.last("begin")["frames"] - 1})
    app.reset_button.click()
    before = len(page.sent)
    app.lock_button.click()
    assert "frames" not in page.kinds()[before:] and page.kinds()[-1] == "play"
    for _ in range(5):                   # clicks while it plays: each the same frames
        app.lock_button.click()
    assert "frames" not in page.kinds()[before:]


@pytest.mark.parametrize("interrupt", ["yaw", "order", "reset", "lock", "turn", "view"])
def test_anything_else_ends_lock_it_in_the_page(kernel, interrupt):
    """Another control, Reset, a new Lock it, a turn or a camera button while it plays: the
    page's animation ends and the kernel's figure shows the controls as they are (the
    slider where the page last showed it); what the page then says of it changes nothing."""
    app = GimbalApp()
    page = _ready(app)
    path = [float(v) for v in model.lock_path(app.pitch.value)]
    app.lock_button.click()
    play = page.last("play")
    page.says({"type": "shown", "token": play["token"], "frame": 8 * SUB})
    assert app.pitch.value == path[8]
    before = len(page.sent)
    if interrupt == "yaw":
        app.yaw.value = 10.0
    elif interrupt == "order":
        app.order.value = "XYZ"
    elif interrupt == "reset":
        app.reset_button.click()
    elif interrupt == "lock":
        app.lock_button.click()
    elif interrupt == "turn":
        app.turn("nose", 5.0)
    else:
        app.view_buttons["top"].click()
    assert "hide" in page.kinds()[before:]
    if interrupt == "lock":              # a new Lock it from where the ring was shown
        assert page.last("play")["token"] == play["token"] + 1
        assert page.last("begin")["frames"] == model.LOCK_FRAMES * SUB + 1
        assert app.pitch.value == path[8]
        return
    # the state is the one computed for the controls, and drawn
    assert app.state.angles == app.angles() and app.state.order == app.order.value
    if interrupt == "reset":
        assert app.params == GimbalApp().params
    now = dict(app.params)
    page.says({"type": "shown", "token": play["token"], "frame": 20 * SUB})
    page.says({"type": "ended", "token": play["token"], "frame": model.LOCK_FRAMES * SUB})
    assert dict(app.params) == now
    expected = GimbalApp(**{k: v for k, v in now.items()})
    expected.view.ax.view_init(app.view.ax.elev, app.view.ax.azim)
    expected.redraw()
    assert np.array_equal(figure_pixels(app), figure_pixels(expected))


def test_without_a_ready_page_lock_it_stays_in_the_kernel(kernel, monkeypatch):
    started = []
    monkeypatch.setattr(GimbalApp, "animate", lambda self, *a, **k: started.append(k))
    app = GimbalApp()
    page = Page(app)                    # never said ready
    app.lock_button.click()
    assert page.sent == [] and len(started) == 1


def test_past_the_bounds_lock_it_stays_in_the_kernel(kernel, monkeypatch):
    started = []
    monkeypatch.setattr(GimbalApp, "animate", lambda self, *a, **k: started.append(k))
    app = GimbalApp()
    page = _ready(app)
    monkeypatch.setattr(record, "LIMITS", record.Limits(frames=model.LOCK_FRAMES * SUB))
    app.lock_button.click()
    assert "play" not in page.kinds() and len(started) == 1


@pytest.mark.parametrize("switch", ["fast draw off", "page play off", "copy"])
def test_no_player_lock_it_stays_in_the_kernel(kernel, monkeypatch, switch):
    started = []
    monkeypatch.setattr(GimbalApp, "animate", lambda self, *a, **k: started.append(k))
    if switch == "fast draw off":
        monkeypatch.setattr(fastdraw, "ENABLED", False)
    elif switch == "page play off":
        monkeypatch.setattr(motion, "PAGE_PLAY", False)
    app = GimbalApp(compact=switch == "copy")
    assert app.motion_player is None
    assert app.play_path("pitch", [0.0, 90.0], 40) is False
    app.lock_button.click()
    assert len(started) == 1


def test_the_page_cannot_move_lock_it_past_its_frames(kernel):
    app = GimbalApp()
    page = _ready(app)
    app.lock_button.click()
    play = page.last("play")
    value = app.pitch.value
    for frame in (len(page_values(model.lock_path(value))), -1, 2.5, None, "3"):
        page.says({"type": "shown", "token": play["token"], "frame": frame})
    page.says({"type": "shown", "token": play["token"] + 1, "frame": 3})
    assert app.pitch.value == value and app.motion_player.refused == 6


# -- in Voila ---------------------------------------------------------------------------
NOTEBOOK = next(lesson.notebook for lesson in LESSONS
                if any(name == "GimbalApp" for name, _ in lesson.apps))
OVERLAY = ".gimbal-app-main .lesson-motion-overlay"


@pytest.mark.browser
@pytest.mark.slow
def test_lock_it_in_voila(voila_server, page):
    """Lock it in the lesson's main app: the overlay draws a good share of the frames while
    the slider follows, then goes, leaving the kernel's figure of the lock, which is what
    the overlay last drew (within the browser's own text)."""
    h.open_lesson(page, voila_server, NOTEBOOK)
    page.wait_for_selector(OVERLAY, state="attached", timeout=60_000)
    app = page.locator(".gimbal-app-main").first
    h.wait_idle(page)             # the five figures drawn: the kernel is free to record
    before = h.canvas_images(page)
    app.locator("button", has_text="Lock it").first.click()
    page.wait_for_function(
        f"() => {{ const o = document.querySelector('{OVERLAY}');"
        " return o.style.display === 'block'; }", timeout=60_000)
    page.wait_for_function(f"() => document.querySelector('{OVERLAY}').style.display"
                           " === 'none'", timeout=30_000)
    h.wait_idle(page)
    painted = page.evaluate(f"() => Number(document.querySelector('{OVERLAY}')"
                            ".dataset.painted)")
    last = page.evaluate(f"() => Number(document.querySelector('{OVERLAY}').dataset.frame)")
    # the page drew the animation (about 60 of its 76 frames on a quiet machine, fewer on
    # a busy one: it shows the newest that has come), ending on the last
    assert painted >= 10 and last == model.LOCK_FRAMES * SUB
    assert h.canvas_images(page) != before
    compare = COMPARE.replace(".lesson-motion-overlay", OVERLAY)
    stopped = page.evaluate(compare)
    assert stopped["share"] < PAGE_SHARE, stopped
    readouts = app.locator(".widget-readout").all_inner_texts()
    assert "-90" in [t.strip().replace("\u2212", "-") for t in readouts]   # a true minus
    h.assert_no_error_text(page)
    h.screenshot(page, "motion-lock-it")
