"""Drags drawn by the page (issue 43, :mod:`lessons_lib.apps.core.livedrag`): while a drag
lasts, each move's picture of what it moves is recorded in the kernel and drawn by the
page's player over a picture of the rest; at the release the kernel draws its own figure.

Each frame the page got is replayed over the background it got and compared with the
kernel's full draw at that moment (and with the frame before, so that the comparison can
fail); a page that is not ready, a frame past the bounds or an orbit leave the drag to the
kernel."""

from __future__ import annotations

import io
import time
from types import SimpleNamespace

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from motion_check import LOUD_SHARE, HeldLoop, Page, as_in_a_kernel, loud_share, replayed
from PIL import Image
from test_app_gimbal import _drag as drag
from test_app_gimbal import _mouse as mouse
from test_app_gimbal import _on_aircraft as on_aircraft

from lessons_lib.apps import fastdraw
from lessons_lib.apps.fastdraw import painter as painter_module
from lessons_lib.apps.fastdraw import record
from lessons_lib.apps.gimbal import GimbalApp

pytestmark = pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")


@pytest.fixture
def kernel(monkeypatch):
    as_in_a_kernel(monkeypatch)


def ready(app) -> Page:
    page = Page(app)
    page.says({"type": "ready"})
    return page


def drawn(app) -> None:
    """What the page says once it drew a frame of a drag."""
    player = app.motion_player
    player._on_page(player, {"type": "drawn", "token": player.token, "frame": 0}, [])


class Watch:
    """Each frame of a drag the page was sent, with the kernel's full draw at that moment
    (the figure as a full render shows it with the artists as the app left them); the
    page answers each at once (``answer=False``: never)."""

    def __init__(self, app, monkeypatch, answer: bool = True) -> None:
        self.app = app
        self.frames: list[tuple[record.Animation, np.ndarray]] = []
        sent = app.motion_player.live

        def live(animation):
            sent(animation)
            FigureCanvasAgg.draw(app.fig.canvas)
            full = np.asarray(app.fig.canvas.get_renderer().buffer_rgba()).copy()
            self.frames.append((animation, full))
            if answer:
                drawn(app)

        monkeypatch.setattr(app.motion_player, "live", live)


def background_of(page: Page) -> np.ndarray:
    """The picture the page draws a drag over: the last "begin"'s PNG, as RGBA."""
    png = next(b[0] for c, b in reversed(page.sent) if c["type"] == "begin")
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def assert_frames_are_the_kernels(app, page: Page, watch: Watch) -> None:
    """Every frame the page drew is the kernel's full draw of that moment, and differs
    from the kernel's draw of the moment before by more (the measure can fail)."""
    background = background_of(page)
    assert len(watch.frames) >= 3
    for j, (animation, full) in enumerate(watch.frames):
        assert animation.frame_count == 1 and animation.unsupported == 0
        got = replayed(app, animation, 0, background)
        assert loud_share(full, got) < LOUD_SHARE, f"frame {j} of the drag"
        if j:
            assert loud_share(watch.frames[j - 1][1], got) > LOUD_SHARE / 3, \
                f"frame {j} looks like the one before: the drag did not move it"


# -- lesson 1: the aircraft ---------------------------------------------------------------
def test_a_drag_on_the_aircraft_is_drawn_by_the_page(kernel, monkeypatch):
    app = GimbalApp()
    page = ready(app)
    watch = Watch(app, monkeypatch)
    before = app.angles()
    requests = []
    original = app.painter.request
    monkeypatch.setattr(app.painter, "request", lambda *a, **k: (requests.append(1),
                                                                  original(*a, **k))[1])
    drag(app, on_aircraft(app), [(12, 0)] * 6)
    kinds = page.kinds()
    assert kinds[0] == "begin" and kinds[-1] == "hide"
    shown = [c for c, _ in page.sent if c["type"] == "frames"]
    assert len(shown) == len(watch.frames) >= 5 and all(c["show"] for c in shown)
    assert app.angles() != before
    # the kernel drew no figure while the drag lasted: only after the release
    assert len(requests) == 1 and app.live_drag.drags == 1 and not app.live_drag.active
    assert_frames_are_the_kernels(app, page, watch)


def test_the_panels_follow_a_drag_ten_times_a_second_and_end_exact(kernel, monkeypatch):
    """While the page draws a drag, the panels beside the figure are filled at most every
    PANEL_EVERY seconds; after the release they say what a plain app at the same angles
    says."""
    from lessons_lib.apps.core import livedrag

    app = GimbalApp()
    ready(app)
    Watch(app, monkeypatch)
    fills = []
    original = app._fill_panels
    monkeypatch.setattr(app, "_fill_panels", lambda content: (fills.append(1),
                                                              original(content)))
    clock = [100.0]
    monkeypatch.setattr(livedrag, "time", SimpleNamespace(monotonic=lambda: clock[0],
                                                           thread_time=time.thread_time))
    sent = {}                               # what each angle slider sent the page
    for name in ("yaw", "pitch", "roll"):
        w = getattr(app, name)
        monkeypatch.setattr(w, "send_state", lambda key=None, w=w, name=name: sent.setdefault(
            name, []).append(w.value) if key is None or "value" in key else None)
    start = on_aircraft(app)
    mouse(app, "button_press_event", *start)
    fills.clear()
    for k in range(1, 9):                  # 8 moves 25 ms apart: 0.2 s, two fillings
        clock[0] += 0.025
        mouse(app, "motion_notify_event", start[0] + 8 * k, start[1])
    assert app.live_drag.frames >= 8 and len(fills) == 2
    # the sliders go to the page with the panels: the roll turned at each move, sent twice
    assert len(sent["roll"]) == 2 and all(len(v) <= 2 for v in sent.values())
    # the hand stops: the filling put off is made when its time is up, with the last move's
    # numbers, before the release
    loop = HeldLoop().install(monkeypatch)
    clock[0] += 0.01
    mouse(app, "motion_notify_event", start[0] + 72, start[1])
    assert len(fills) == 2 and len(loop.timers) == 1
    assert 0 < loop.timers[0][0] <= livedrag.PANEL_EVERY
    clock[0] += loop.timers[0][0] + 1e-6
    loop.run()
    assert len(fills) == 3
    plain = GimbalApp(yaw=app.yaw.value, pitch=app.pitch.value, roll=app.roll.value)
    assert app.panels["gauge"].value == plain.panels["gauge"].value
    mouse(app, "button_release_event", start[0] + 72, start[1], held=False)
    plain = GimbalApp(yaw=app.yaw.value, pitch=app.pitch.value, roll=app.roll.value)
    for name in ("gauge", "info", "title"):
        assert app.panels[name].value == plain.panels[name].value
    for name, values in sent.items():       # and each slider's last is where it stands
        assert values[-1] == getattr(app, name).value, name


def test_each_frame_of_a_drag_stands_alone(kernel, monkeypatch):
    """A long drag holds no more than one frame in the page: each is sent as frame 0 of
    an animation of one, and the kernel's running total of an animation's bytes is not
    charged (a drag may last as long as the student likes)."""
    app = GimbalApp()
    page = ready(app)
    Watch(app, monkeypatch)
    drag(app, on_aircraft(app), [(3, 0)] * 30 + [(-3, 0)] * 30)
    frames = [c for c, _ in page.sent if c["type"] == "frames"]
    assert len(frames) > 40 and {c["first"] for c in frames} == {0}
    assert page.last("begin")["frames"] == 1
    assert app.motion_player.sent_bytes < 10 * app.motion_player.live_bytes / len(frames)


def test_a_busy_page_gets_the_newest_frame_not_every_one(kernel, monkeypatch):
    """While the page has not said it drew the frames on their way (WINDOW of them), the
    aircraft follows every move but none is recorded; the page's answer brings the state
    of the last move; a page that never answers gets one after ANSWER_WAIT."""
    from lessons_lib.apps.core import livedrag

    app = GimbalApp()
    page = ready(app)
    watch = Watch(app, monkeypatch, answer=False)
    monkeypatch.setattr(livedrag, "ANSWER_WAIT", 3600.0)   # however slow this host is
    start = on_aircraft(app)
    mouse(app, "button_press_event", *start)
    angles = []
    for k in range(1, 7):
        mouse(app, "motion_notify_event", start[0] + 10 * k, start[1])
        angles.append(app.angles())
    assert len(watch.frames) == livedrag.WINDOW and len(set(angles)) > livedrag.WINDOW
    drawn(app)                             # the page drew one: the newest state, at once
    assert len(watch.frames) == livedrag.WINDOW + 1
    FigureCanvasAgg.draw(app.fig.canvas)
    assert np.array_equal(watch.frames[-1][1], np.asarray(
        app.fig.canvas.get_renderer().buffer_rgba()))
    drawn(app)                             # nothing came since: nothing to draw
    assert len(watch.frames) == livedrag.WINDOW + 1
    # a page that stops answering: after ANSWER_WAIT the kernel goes on
    mouse(app, "motion_notify_event", start[0] + 80, start[1])
    mouse(app, "motion_notify_event", start[0] + 90, start[1])
    busy = len(watch.frames)
    monkeypatch.setattr(livedrag, "ANSWER_WAIT", 0.0)
    mouse(app, "motion_notify_event", start[0] + 100, start[1])
    assert len(watch.frames) == busy + 1
    mouse(app, "button_release_event", start[0] + 100, start[1], held=False)
    assert page.kinds()[-1] == "hide" and not app.live_drag.active


def test_a_release_behind_the_page_draws_the_hands_end_first(kernel, monkeypatch):
    """A release while the page still has frames to draw (the last moves taken, not drawn):
    the hand's end is recorded and sent as one more frame, then "hide"; the frame is the
    kernel's full draw after the release. A release with nothing behind sends no frame."""
    from lessons_lib.apps.core import livedrag

    app = GimbalApp()
    page = ready(app)
    watch = Watch(app, monkeypatch, answer=False)
    monkeypatch.setattr(livedrag, "ANSWER_WAIT", 3600.0)
    start = on_aircraft(app)
    mouse(app, "button_press_event", *start)
    for k in range(1, 6):
        mouse(app, "motion_notify_event", start[0] + 10 * k, start[1])
    assert len(watch.frames) == livedrag.WINDOW and app.live_drag.skipped
    mouse(app, "button_release_event", start[0] + 50, start[1], held=False)
    assert page.kinds()[-2:] == ["frames", "hide"] and len(watch.frames) == livedrag.WINDOW + 1
    FigureCanvasAgg.draw(app.fig.canvas)
    after = np.asarray(app.fig.canvas.get_renderer().buffer_rgba())
    got = replayed(app, watch.frames[-1][0], 0, background_of(page))
    assert loud_share(after, got) < LOUD_SHARE
    assert loud_share(watch.frames[-2][1], got) > LOUD_SHARE   # not the frame before it
    # the hand's end cannot be recorded (past the bounds): the kernel's figure, at once
    app = GimbalApp()
    page = ready(app)
    Watch(app, monkeypatch, answer=False)
    requests = []
    original = app.painter.request
    monkeypatch.setattr(app.painter, "request", lambda *a, **k: (requests.append(1),
                                                                  original(*a, **k))[1])
    start = on_aircraft(app)
    mouse(app, "button_press_event", *start)
    for k in range(1, 6):
        mouse(app, "motion_notify_event", start[0] + 5 * k, start[1])
    assert app.live_drag.skipped and not requests

    def refuse(artists):
        raise ValueError("past the bounds")

    monkeypatch.setattr(app, "record_drawn", refuse)
    mouse(app, "button_release_event", start[0] + 25, start[1], held=False)
    assert requests == [1] and page.kinds()[-1] == "hide" and not app.live_drag.active
    assert not app.painter.paused
    # the page drew everything: the release sends no frame
    app = GimbalApp()
    page = ready(app)
    watch = Watch(app, monkeypatch, answer=False)
    start = on_aircraft(app)
    mouse(app, "button_press_event", *start)
    mouse(app, "motion_notify_event", start[0] + 10, start[1])
    drawn(app)
    sent = len(watch.frames)
    assert sent == 1 and not app.live_drag.skipped
    mouse(app, "button_release_event", start[0] + 10, start[1], held=False)
    assert len(watch.frames) == sent and page.kinds()[-1] == "hide"


def test_the_page_cannot_answer_for_frames_it_was_not_sent(kernel, monkeypatch):
    """"drawn" from a page: for the current animation only, never below zero frames on
    their way, at most DRAWN_RATE a second; anything else is refused."""
    from lessons_lib.apps.fastdraw import player as motion

    app = GimbalApp()
    ready(app)
    player = app.motion_player
    refused = player.refused
    for bad in ({"type": "drawn", "token": player.token + 1, "frame": 0},
                {"type": "drawn", "token": player.token, "frame": 1},
                {"type": "drawn", "token": player.token}):
        player._on_page(player, bad, [])
    assert player.refused == refused + 3
    for _ in range(50):                    # answers with nothing on its way change nothing
        drawn(app)
    assert app.live_drag.waiting == 0
    burst = int(motion.DRAWN_RATE)
    for _ in range(3 * burst):
        drawn(app)
    assert player.refused > refused + 3    # past the rate, dropped


def test_without_a_ready_page_the_kernel_draws_the_drag(kernel):
    app = GimbalApp()
    page = Page(app)                       # never said ready
    before = app.angles()
    drag(app, on_aircraft(app), [(12, 0)] * 4)
    assert page.sent == [] and app.angles() != before and app.live_drag.drags == 0


def test_an_orbit_is_drawn_by_the_page(kernel, monkeypatch):
    """A drag off the aircraft orbits the camera (mplot3d's own handlers): the page draws
    both axes whole, each frame after the camera turned; the kernel's figure at the end."""
    app = GimbalApp()
    page = ready(app)
    watch = Watch(app, monkeypatch)
    app.fig.canvas.draw()
    near_corner = (app.fig.bbox.width * 0.95, app.fig.bbox.height * 0.9)
    assert not app.view.hits_aircraft(*near_corner)
    camera = app.view.camera()
    drag(app, near_corner, [(-12, 3)] * 5)
    assert app.view.camera() != camera
    assert page.kinds()[0] == "begin" and page.kinds()[-1] == "hide"
    assert_frames_are_the_kernels(app, page, watch)
    # no aircraft to fly: the orbit alone, drawn by the page all the same
    plain = GimbalApp(fly=False)
    page = ready(plain)
    drag(plain, near_corner, [(-12, 3)] * 3)
    assert "frames" in page.kinds() and plain.live_drag.drags == 1


def test_a_frame_past_the_bounds_leaves_the_rest_to_the_kernel(kernel, monkeypatch):
    app = GimbalApp()
    page = ready(app)
    monkeypatch.setattr(record, "LIMITS", record.Limits(animation_bytes=100))
    drag(app, on_aircraft(app), [(12, 0)] * 4)
    assert "frames" not in page.kinds() and page.kinds()[-1] == "hide"
    assert not app.live_drag.active


def test_the_pointer_pace_where_the_page_draws_the_drags(kernel, monkeypatch):
    """A figure whose drags the page draws lets the pointer move as often as a frame of
    them costs (from a display refresh up); one drawn by the kernel, as a full draw."""
    from lessons_lib.apps.core.livedrag import LiveDrag

    measured = []                   # what the app paced itself by (a second measurement
    original = LiveDrag.cost        # differs on a busy machine)
    monkeypatch.setattr(LiveDrag, "cost", lambda self: measured.append(original(self))
                        or measured[-1])
    app = GimbalApp()
    cost = measured[0]
    assert cost is not None and cost > 0
    assert app.fig.canvas.pan_zoom_throttle == painter_module.choose_throttle_ms(
        app.pointer_cost() + cost, painter_module.LIVE_THROTTLE_MS)
    assert painter_module.LIVE_THROTTLE_MS <= app.fig.canvas.pan_zoom_throttle
    from lessons_lib.apps.funnel import FunnelApp

    plain = FunnelApp(compact=True)                      # a copy: drags by the kernel
    assert plain.live_drag.cost() is None
    assert plain.fig.canvas.pan_zoom_throttle >= painter_module.THROTTLE_MS_RANGE[0]
    assert painter_module.choose_throttle_ms(0.001) == painter_module.THROTTLE_MS_RANGE[0]
    assert painter_module.choose_throttle_ms(0.001, 16) == 16
    for bad in (0, -1, float("nan"), 1e9, "16"):
        with pytest.raises(ValueError):
            painter_module.choose_throttle_ms(0.001, bad)


# -- lesson 4: the start and the goal -------------------------------------------------------
def drag_through(app, ax, points) -> None:
    """Press at the first of ``points`` (data coordinates of ``ax``), move through the
    others, release at the last."""
    app.fig.canvas.draw()
    pixels = [tuple(ax.transData.transform(p)) for p in points]
    mouse(app, "button_press_event", *pixels[0])
    for x, y in pixels[1:]:
        mouse(app, "motion_notify_event", x, y)
    mouse(app, "button_release_event", *pixels[-1], held=False)


def test_dragging_the_funnels_goal_is_drawn_by_the_page(kernel, monkeypatch):
    from lessons_lib.apps.funnel import FunnelApp

    app = FunnelApp()
    page = ready(app)
    watch = Watch(app, monkeypatch)
    gx, gy = app.goal
    drag_through(app, app.ax, [(gx, gy), (13.0, 2.0), (14.5, 1.0), (12.0, 4.0), (9.0, 2.5)])
    assert np.allclose(app.goal, (9.0, 2.5))
    assert page.kinds()[0] == "begin" and page.kinds()[-1] == "hide"
    assert_frames_are_the_kernels(app, page, watch)
    # the step artists are among what the page draws: a drag may change the last step
    assert set(app.view.dynamic_artists()) <= set(app.view.route_artists())


def test_dragging_the_grids_start_is_drawn_by_the_page(kernel, monkeypatch):
    from lessons_lib.apps.funnel import GridApp

    app = GridApp()
    assert app.motion_player is not None          # a player for its drags alone
    page = ready(app)
    watch = Watch(app, monkeypatch)
    sx, sy = app.start
    drag_through(app, app.ax, [(sx + 0.5, sy + 0.5), (2.5, 1.5), (0.5, 0.5), (4.5, 3.5)])
    assert app.start == (4, 3)
    assert page.kinds()[0] == "begin" and page.kinds()[-1] == "hide"
    assert_frames_are_the_kernels(app, page, watch)


# -- lesson 3: the car of each term's figure ----------------------------------------------
@pytest.mark.parametrize("term", ["position", "heading", "crosstrack"])
def test_dragging_a_terms_car_is_drawn_by_the_page(kernel, monkeypatch, term):
    """Each of lesson 3's term figures: its car dragged sideways and forwards, then its
    knob turned; every frame the page drew is the kernel's."""
    import math

    from lessons_lib.apps.steering.terms import KNOB_M, TermApp

    app = TermApp(term=term)
    page = ready(app)
    watch = Watch(app, monkeypatch)
    x, y, yaw = app.car_x.value, app.car_y.value, math.radians(app.heading.value)
    centre = (x + 1.3 * math.cos(yaw), y + 1.3 * math.sin(yaw))
    drag_through(app, app.ax, [centre, *((centre[0] + 0.6 * k, centre[1] - 0.5 * k)
                                         for k in range(1, 5))])
    assert (app.car_x.value, app.car_y.value) != (x, y)
    x, y, yaw = app.car_x.value, app.car_y.value, math.radians(app.heading.value)
    knob = (x + KNOB_M * math.cos(yaw), y + KNOB_M * math.sin(yaw))
    drag_through(app, app.ax, [knob, *((knob[0], knob[1] + 0.8 * k) for k in range(1, 4))])
    assert app.live_drag.drags == 2 and page.kinds()[-1] == "hide"
    assert_frames_are_the_kernels(app, page, watch)
