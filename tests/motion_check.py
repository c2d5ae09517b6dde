"""Checks shared by the tests of animations drawn by the page (issue 43): a frame recorded
by :meth:`~lessons_lib.apps.core.app.LessonApp.record_motion` (Play: frame values) or
:meth:`~lessons_lib.apps.core.app.LessonApp.record_path` (a slider along a path, with
``control=`` its name) and replayed over the painter's background is the frame matplotlib
draws in full, and that background does not move with the frame."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg

from lessons_lib.apps.fastdraw import record

#: Channel difference above which a pixel counts as different (anti-aliasing of a marker
#: placed half a pixel apart stays under it on most of its edge).
LOUD = 64
#: At most this share of the figure's pixels may differ by more than LOUD.
LOUD_SHARE = 0.003


def loud_share(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels whose colours differ by more than :data:`LOUD` in a channel."""
    diff = np.abs(a[..., :3].astype(int) - b[..., :3].astype(int)).max(axis=2)
    return float((diff > LOUD).mean())


def pose(app, value, control: str | None = None) -> tuple:
    """The state and frame drawn for ``value``: of the frame control, or (``control``)
    of that slider, the state computed for it with every other control as it is."""
    if control is None:
        return app.state, value
    params = app.compute_params(app.params).replace(**{control: value})
    return app.compute(params), app.frame_value


def kernel_frame(app, value, control: str | None = None) -> np.ndarray:
    """The figure at ``value`` (of the frame, or of slider ``control``) as matplotlib
    draws it in full."""
    app.draw(*pose(app, value, control))
    FigureCanvasAgg.draw(app.fig.canvas)
    return np.asarray(app.fig.canvas.get_renderer().buffer_rgba()).copy()


def replayed(app, animation, index: int, background: np.ndarray) -> np.ndarray:
    """Frame ``index`` of ``animation`` drawn by :func:`record.replay` over ``background``."""
    renderer = app.fig.canvas.get_renderer()
    np.asarray(renderer.buffer_rgba())[...] = background
    record.replay(animation, index, renderer)
    return np.asarray(renderer.buffer_rgba()).copy()


def moving(app) -> list:
    """The app's moving artists, each once."""
    return list({id(a): a for a in (app.motion_artists() or [])}.values())


def assert_replay_is_the_kernels(app, values, control: str | None = None,
                                 apart: float = 0.0) -> record.Animation:
    """Record ``values`` with the app's own :meth:`record_motion` (or, with ``control``,
    :meth:`record_path` of that slider), replay each frame over the background and compare
    it with a full draw of that frame; a neighbouring frame's full draw must differ from it
    by the same measure (so the check can fail), where the two values are more than
    ``apart`` apart."""
    FigureCanvasAgg.draw(app.fig.canvas)          # the layout as a draw leaves it
    animation = (app.record_motion(list(values)) if control is None
                 else app.record_path(control, list(values)))
    assert animation.frame_count == len(values) and animation.unsupported == 0
    background = app.painter.background_without(moving(app))
    for j, value in enumerate(values):
        got = replayed(app, animation, j, background)
        assert loud_share(kernel_frame(app, value, control), got) < LOUD_SHARE, \
            f"frame {value}"
        if j and abs(value - values[j - 1]) > apart:
            assert loud_share(kernel_frame(app, values[j - 1], control), got) \
                > LOUD_SHARE / 3
    app.redraw()
    return animation


def assert_background_is_steady(app, values, control: str | None = None) -> None:
    """What the page draws over is the same at each of ``values`` (of the frame, or of
    slider ``control``)."""
    pictures = []
    for value in values:
        app.draw(*pose(app, value, control))
        pictures.append(app.painter.background_without(moving(app)))
    app.redraw()
    for value, picture in zip(values[1:], pictures[1:], strict=True):
        assert np.array_equal(pictures[0], picture), f"the background moved at {value}"


class Page:
    """What the kernel sends the page's player, kept; and messages sent as the page would."""

    def __init__(self, app) -> None:
        self.app = app
        self.player = app.motion_player
        self.sent: list[tuple[dict, list[bytes]]] = []
        self.player.send = lambda content, buffers=None: self.sent.append(
            (content, list(buffers or [])))

    def says(self, content, buffers=None) -> None:
        self.player._on_page(self.player, content, buffers or [])

    def kinds(self) -> list[str]:
        return [c["type"] for c, _ in self.sent]

    def last(self, kind: str) -> dict:
        return next(c for c, _ in reversed(self.sent) if c["type"] == kind)


def no_running_loop():
    raise RuntimeError("no running event loop")


class HeldLoop:
    """An event loop that runs nothing by itself, for ``asyncio.get_running_loop``: a test
    reads what was scheduled (``timers``: [seconds from now, function]) and calls it."""

    def __init__(self) -> None:
        self.timers: list[list] = []

    def time(self) -> float:
        return 0.0

    def call_at(self, when: float, fn):
        timer = [when, fn]
        self.timers.append(timer)
        return SimpleNamespace(when=lambda: timer[0], cancel=lambda: self.timers.remove(timer))

    def run(self) -> None:
        """Call what is scheduled, soonest first."""
        due, self.timers = sorted(self.timers, key=lambda t: t[0]), []
        for _, fn in due:
            fn()

    def install(self, monkeypatch) -> HeldLoop:
        import asyncio

        monkeypatch.setattr(asyncio, "get_running_loop", lambda: self)
        return self


def as_in_a_kernel(monkeypatch) -> None:
    """Apps made after this behave as in a kernel with no event loop running: what an app
    would send later, on the kernel's loop, it sends at once. (Playwright's sync API, alive
    for the browser tests of the same session, leaves its loop running in this thread.)"""
    from lessons_lib.apps.core import app as core_app

    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    monkeypatch.setattr(core_app.asyncio, "get_running_loop", no_running_loop)
