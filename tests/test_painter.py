"""The fast drawing path gives the same pixels as a full draw, and knows when it cannot."""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image

from lessons_lib.apps import fastdraw
from lessons_lib.apps.fastdraw.painter import Painter, choose_throttle_ms, encode_png

# These test the fast path itself; `make test-plain` (LESSONS_FAST_DRAW=0) runs without it.
pytestmark = pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")


def _pixels(fig) -> np.ndarray:
    return np.asarray(fig.canvas.get_renderer().buffer_rgba()).copy()


def _full_pixels(fig) -> np.ndarray:
    """A plain Agg render of the whole figure, bypassing the painter."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg.draw(fig.canvas)
    return _pixels(fig)


@pytest.fixture
def scene():
    with plt.ioff():
        fig = plt.figure(figsize=(5, 3), dpi=100)
    ax1 = fig.add_subplot(1, 2, 1)
    ax2 = fig.add_subplot(1, 2, 2)
    t = np.linspace(0, 6, 200)
    ax1.plot(t, np.sin(t), color="0.6")                      # static
    ax1.set_title("static title")
    ax2.fill_between(t, 0, np.cos(t) ** 2, color="#99CCEE")   # static
    (dot,) = ax1.plot([0], [0], "o", color="C3", zorder=5)    # dynamic
    (cursor,) = ax2.plot([0, 0], [0, 1], color="k", zorder=5)  # dynamic
    label = ax2.text(0.05, 0.9, "t = 0", transform=ax2.transAxes, zorder=6)  # dynamic
    painter = Painter.attach(fig, [dot, cursor, label])
    yield fig, painter, (dot, cursor, label), t
    plt.close(fig)


def _move(parts, x: float) -> None:
    dot, cursor, label = parts
    dot.set_data([x], [np.sin(x)])
    cursor.set_xdata([x, x])
    label.set_text(f"t = {x:.2f}")


def test_fast_draw_equals_full_draw_pixel_for_pixel(scene):
    fig, painter, parts, _ = scene
    fig.canvas.draw()                       # builds the background
    for x in (0.5, 1.7, 3.3, 5.9):
        _move(parts, x)
        fig.canvas.draw()
        fast = _pixels(fig)
        assert np.array_equal(fast, _full_pixels(fig)), x
    assert painter.fast_draws == 4
    assert painter.full_draws == 1


def test_a_changed_background_artist_forces_a_full_draw(scene):
    fig, painter, parts, t = scene
    fig.canvas.draw()
    fig.axes[0].lines[0].set_ydata(np.cos(t))   # a static line changes
    _move(parts, 2.0)
    fig.canvas.draw()
    assert painter.full_draws == 2 and painter.fast_draws == 0
    assert np.array_equal(_pixels(fig), _full_pixels(fig))
    fig.axes[0].set_title("another title")
    fig.canvas.draw()
    assert painter.full_draws == 3
    assert np.array_equal(_pixels(fig), _full_pixels(fig))


def test_new_limits_or_size_force_a_full_draw(scene):
    fig, painter, parts, _ = scene
    fig.canvas.draw()
    fig.axes[1].set_xlim(0, 3)
    fig.canvas.draw()
    assert painter.full_draws == 2
    assert np.array_equal(_pixels(fig), _full_pixels(fig))
    fig.axes[1].set_xlim(0, 3)                   # the same limits again: still fast
    _move(parts, 1.0)
    fig.canvas.draw()
    assert painter.fast_draws == 1
    assert np.array_equal(_pixels(fig), _full_pixels(fig))
    fig.set_dpi(150)                              # a high-dpi screen
    fig.canvas.draw()
    assert painter.full_draws == 3
    assert np.array_equal(_pixels(fig), _full_pixels(fig))


def _side_by_side(left=(0.08, 0.15, 0.38, 0.75), right=(0.58, 0.15, 0.38, 0.75)):
    """A 6x3 inch figure with two axes side by side, a grey sine in each."""
    with plt.ioff():
        fig = plt.figure(figsize=(6, 3), dpi=100)
    axes = fig.add_axes(left), fig.add_axes(right)
    t = np.linspace(0, 6, 300)
    for ax in axes:
        ax.plot(t, np.sin(t), color="0.5")
    return fig, axes


def test_an_axes_that_moves_is_redrawn_alone_when_it_overlaps_nothing():
    """A close-up whose limits follow the moving point: only that axes is re-rendered."""
    fig, (whole, close) = _side_by_side((0.06, 0.12, 0.4, 0.8), (0.58, 0.12, 0.4, 0.8))
    try:
        whole.set_title("whole")
        (dot,) = whole.plot([0], [0], "o", color="C3", zorder=5)
        (near,) = close.plot([0], [0], "o", color="C3", ms=12, zorder=5)
        painter = Painter.attach(fig, [dot, near])
        fig.canvas.draw()
        for x in (0.7, 2.2, 4.1):
            dot.set_data([x], [np.sin(x)])
            near.set_data([x], [np.sin(x)])
            close.set_xlim(x - 0.5, x + 0.5)
            close.set_ylim(np.sin(x) - 0.5, np.sin(x) + 0.5)
            fig.canvas.draw()
            fast = _pixels(fig)
            assert np.array_equal(fast, _full_pixels(fig)), x
        assert painter.partial_draws == 3 and painter.full_draws == 1
        dot.set_data([5.0], [np.sin(5.0)])          # and with the close-up still: fast
        fig.canvas.draw()
        assert painter.fast_draws == 1
        assert np.array_equal(_pixels(fig), _full_pixels(fig))
        # a close-up that grows over its neighbour: back to a full render (the dot stays
        # clear of the overlap: dynamic artists are drawn over every axes)
        dot.set_data([0.5], [np.sin(0.5)])
        close.set_position((0.3, 0.12, 0.6, 0.8))
        fig.canvas.draw()
        assert painter.full_draws == 2
        assert np.array_equal(_pixels(fig), _full_pixels(fig))
    finally:
        plt.close(fig)


def test_a_close_up_without_ticks_is_not_measured_again_when_only_its_limits_move():
    """Measuring an axes (its tight box) cost 2 ms of lesson 3's 11 ms frame; without ticks
    nothing of its frame follows the limits. With ticks it is measured every time."""
    fig, (ticked, bare) = _side_by_side()
    try:
        bare.set_xticks([])
        bare.set_yticks([])
        (dot,) = bare.plot([0], [0], "o", color="C3", zorder=5)
        painter = Painter.attach(fig, [dot])
        fig.canvas.draw()
        calls = {ticked: 0, bare: 0}
        for ax in calls:
            measure = ax.get_tightbbox

            def counted(*args, ax=ax, measure=measure, **kw):
                calls[ax] += 1
                return measure(*args, **kw)
            ax.get_tightbbox = counted
        for x in (1.0, 2.5, 4.0):
            dot.set_data([x], [np.sin(x)])
            bare.set_xlim(x - 0.5, x + 0.5)
            fig.canvas.draw()
            assert np.array_equal(_pixels(fig), _full_pixels(fig)), x
        assert calls[bare] == 0 and painter.partial_draws == 3
        for x in (3.0, 9.5):                      # the ticked one: new tick labels each time
            ticked.set_xlim(0, x)
            fig.canvas.draw()
            assert np.array_equal(_pixels(fig), _full_pixels(fig)), x
        assert calls[ticked] == 2 and painter.partial_draws == 5
    finally:
        plt.close(fig)


def test_what_an_axes_draw_skips_is_neither_measured_nor_an_overlap():
    """Animated artists (lesson 2's titles and legend, pasted by a layer of their own) and
    the moving ones are not in the background an axes re-renders: a note of either reaching
    over the neighbour leaves the axes redrawn alone, and the animated one is never measured
    (its text layout was 1.2 ms a yaw step for the legend alone)."""
    fig, (left, _right) = _side_by_side()
    try:
        pasted = left.text(1.1, 0.5, "pasted by another layer", transform=left.transAxes)
        pasted.set_animated(True)
        moving = left.text(1.1, 0.2, "t = 0", transform=left.transAxes)
        painter = Painter.attach(fig, [moving])
        fig.canvas.draw()
        calls = []
        measure = pasted.get_tightbbox
        pasted.get_tightbbox = lambda *a, **k: calls.append(1) or measure(*a, **k)
        for x in (3.0, 4.5, 9.0):
            left.set_xlim(0, x)
            moving.set_text(f"t = {x}")
            fig.canvas.draw()
            assert np.array_equal(_pixels(fig), _full_pixels(fig)), x
        assert painter.partial_draws == 3 and painter.full_draws == 1 and not calls
    finally:
        plt.close(fig)


def test_hiding_a_background_artist_is_seen(scene):
    fig, painter, parts, _ = scene
    fig.canvas.draw()
    fig.axes[0].lines[0].set_visible(False)
    fig.canvas.draw()
    assert painter.full_draws == 2
    assert np.array_equal(_pixels(fig), _full_pixels(fig))
    _move(parts, 4.0)                             # and fast again after that
    fig.canvas.draw()
    assert painter.fast_draws == 1
    assert np.array_equal(_pixels(fig), _full_pixels(fig))


def test_an_artist_that_leaves_or_joins_the_dynamic_ones_is_drawn_where_it_is():
    """A dynamic list that follows the state (lesson 2's nose markers go behind the sphere
    and into the background): one that left is not in the cached background, one that
    joined is in it; its axes alone is re-rendered, and the next frames are fast again."""
    with plt.ioff():
        fig = plt.figure(figsize=(6, 3), dpi=100)
    try:
        left = fig.add_axes((0.06, 0.12, 0.4, 0.8))
        right = fig.add_axes((0.58, 0.12, 0.4, 0.8))
        t = np.linspace(0, 6, 300)
        left.plot(t, np.sin(t), color="0.5")
        (dot,) = left.plot([0], [0], "o", color="C3", ms=12, zorder=5)
        (cursor,) = right.plot([0, 0], [-1, 1], color="k", zorder=5)
        chosen = [dot, cursor]
        painter = Painter.attach(fig, lambda: chosen)
        fig.canvas.draw()
        chosen.remove(dot)                        # the dot goes into the background
        dot.set_data([1.5], [np.sin(1.5)])
        fig.canvas.draw()
        assert np.array_equal(_pixels(fig), _full_pixels(fig))
        assert painter.partial_draws == 1 and painter.full_draws == 1
        cursor.set_xdata([2.0, 2.0])
        fig.canvas.draw()
        assert painter.fast_draws == 1
        chosen.append(dot)                        # and out of it again
        dot.set_data([4.0], [np.sin(4.0)])
        fig.canvas.draw()
        assert np.array_equal(_pixels(fig), _full_pixels(fig))
        assert painter.partial_draws == 2 and painter.full_draws == 1
        for x in (4.5, 5.0):
            cursor.set_xdata([x, x])
            fig.canvas.draw()
            assert np.array_equal(_pixels(fig), _full_pixels(fig))
        assert painter.fast_draws == 3
    finally:
        plt.close(fig)


def test_dynamic_artists_at_one_zorder_cover_each_other_as_in_a_full_draw_once_each(scene):
    fig, painter, _, _ = scene
    ax = fig.axes[0]
    under = ax.plot([2.0], [0.5], "s", color="C0", ms=30, zorder=5)[0]
    over = ax.plot([2.1], [0.5], "o", color="C1", ms=30, zorder=5)[0]
    Painter.attach(fig, [over, under, [over]])      # in the other order, one twice
    fig.canvas.draw()
    for x in (2.5, 3.0):
        under.set_data([x], [0.5])
        over.set_data([x + 0.1], [0.5])
        fig.canvas.draw()
        assert np.array_equal(_pixels(fig), _full_pixels(fig)), x
    assert painter.fast_draws == 2


def test_saving_draws_every_artist(scene):
    fig, _, parts, _ = scene
    fig.canvas.draw()
    _move(parts, 3.0)
    fig.canvas.draw()
    live = _pixels(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi)
    saved = np.asarray(Image.open(buf).convert("RGBA"))
    assert saved.shape == live.shape
    assert np.array_equal(saved, live)


def test_without_dynamic_artists_every_draw_is_full(scene):
    fig, painter, parts, _ = scene
    Painter.attach(fig, None)
    for x in (1.0, 2.0):
        _move(parts, x)
        fig.canvas.draw()
        assert np.array_equal(_pixels(fig), _full_pixels(fig))
    assert painter.fast_draws == 0 and painter.full_draws == 2


def test_dynamic_list_may_be_a_callable_and_foreign_artists_are_ignored(scene):
    fig, painter, parts, _ = scene
    with plt.ioff():
        other = plt.figure()
    stranger = other.add_subplot().plot([0, 1])[0]
    Painter.attach(fig, lambda: [*parts, stranger, None])
    fig.canvas.draw()
    _move(parts, 2.5)
    fig.canvas.draw()
    assert painter.fast_draws == 1
    assert np.array_equal(_pixels(fig), _full_pixels(fig))
    plt.close(other)


def test_request_without_a_page_only_asks_for_a_draw(scene):
    fig, painter, parts, _ = scene
    assert not painter.page_attached              # no browser in a test
    _move(parts, 1.0)
    painter.request()
    assert painter.full_draws == 0 and painter.fast_draws == 0


def test_request_with_a_page_draws_and_sends_at_once(scene):
    fig, painter, parts, _ = scene
    canvas = fig.canvas
    sent = []
    canvas.send_binary = sent.append              # what would go to the page
    canvas.syncing_data_url = False               # as after the page's "initialized"
    assert painter.page_attached
    painter.request()
    _move(parts, 2.0)
    painter.request()
    assert painter.full_draws == 1 and painter.fast_draws == 1
    assert len(sent) == 2
    # every frame is a whole picture: a frame the page drops (a newer one arrived before it
    # loaded) cannot leave stale pixels behind
    assert canvas._image_mode == "full"
    for frame, want in ((sent[1], _pixels(fig)),):
        got = np.asarray(Image.open(io.BytesIO(frame)).convert("RGBA"))
        assert np.array_equal(got, want)
    first = np.asarray(Image.open(io.BytesIO(sent[0])).convert("RGBA"))
    assert first.shape == _pixels(fig).shape and (first[:, :, 3] == 255).all()


def test_the_draws_one_page_message_asks_for_make_one_draw(scene):
    fig, painter, parts, _ = scene
    canvas = fig.canvas
    sent = []
    canvas.send_binary = sent.append
    canvas.syncing_data_url = False
    asks = [canvas.mpl_connect("motion_notify_event", lambda e: canvas.draw_idle())
            for _ in range(2)]                     # e.g. mplot3d's orbit, then the app
    canvas.handle_event({"type": "motion_notify", "x": 20, "y": 20, "button": 0,
                         "buttons": 1, "modifiers": [], "guiEvent": {}})
    assert painter.full_draws + painter.fast_draws == 1 and len(sent) == 1
    for cid in asks:
        canvas.mpl_disconnect(cid)
    canvas.handle_event({"type": "motion_notify", "x": 30, "y": 20, "button": 0,
                         "buttons": 1, "modifiers": [], "guiEvent": {}})
    assert len(sent) == 1                          # nothing asked: nothing drawn


def test_encode_png_round_trips():
    rng = np.random.default_rng(3)
    opaque = rng.integers(0, 256, (20, 30, 4), dtype=np.uint8)
    opaque[:, :, 3] = 255
    clear = opaque.copy()
    clear[::2, :, :] = 0
    for pixels, mode in ((opaque, "RGB"), (clear, "RGBA")):
        image = Image.open(io.BytesIO(encode_png(pixels)))
        assert image.mode == mode
        assert np.array_equal(np.asarray(image.convert("RGBA")), pixels)


def _idat_rows(png: bytes) -> np.ndarray:
    """The decompressed scanlines of a PNG (filter byte first), read chunk by chunk."""
    import struct
    import zlib

    at, data, size = 8, b"", None
    while at < len(png):
        (length,), tag = struct.unpack(">I", png[at:at + 4]), png[at + 4:at + 8]
        body = png[at + 8:at + 8 + length]
        if tag == b"IHDR":
            size = struct.unpack(">II", body[:8]) + (3 if body[9] == 2 else 4,)
        elif tag == b"IDAT":
            data += body
        at += 12 + length
    w, h, channels = size
    return np.frombuffer(zlib.decompress(data), np.uint8).reshape(h, 1 + w * channels)


def test_encode_png_leaves_rows_unfiltered():
    """A per-row filter search (Pillow's) cost more than deflate itself for a chart."""
    y, x = np.mgrid[0:40, 0:50]
    pixels = np.zeros((40, 50, 4), np.uint8)
    pixels[..., 0], pixels[..., 1], pixels[..., 2] = x * 5, y * 6, (x + y) * 2
    pixels[..., 3] = 255                                  # a gradient: Sub or Up would win
    rows = _idat_rows(encode_png(pixels))
    assert (rows[:, 0] == 0).all()
    assert np.array_equal(rows[:, 1:].reshape(40, 50, 3), pixels[..., :3])


@pytest.mark.parametrize("h, w", [(1, 1), (1, 7), (5, 1), (23, 37), (400, 790), (470, 820)])
def test_opaque_frames_take_the_word_copy_and_give_the_same_rows(h, w):
    """The RGB scanlines are built by copying each pixel as a 4-byte word over the last
    one's alpha (10 to 20 times faster than numpy's 3-of-4 byte copy): the same bytes as
    the plain copy at any size, and this numpy writes the words in order (else the
    encoder falls back to the plain copy, and this says so)."""
    from lessons_lib.apps.fastdraw import painter as painter_module

    assert painter_module._FAST_RGB, "numpy wrote the overlapping words out of order"
    pixels = np.random.default_rng(h * w).integers(0, 256, (h, w, 4), dtype=np.uint8)
    pixels[:, :, 3] = 255
    assert np.array_equal(painter_module._rows_rgb_fast(pixels),
                          painter_module._rows_plain(pixels, 3))
    assert np.array_equal(_idat_rows(encode_png(pixels))[:, 1:].reshape(h, w, 3),
                          pixels[:, :, :3])


@pytest.mark.parametrize("bad", [np.zeros((4, 4, 3), np.uint8), np.zeros((4, 4, 4), float),
                                 np.zeros((4, 16), np.uint8)])
def test_encode_png_refuses_what_is_not_rgba_bytes(bad):
    with pytest.raises(ValueError, match="uint8"):
        encode_png(bad)


def test_with_the_fast_path_off_the_canvas_is_plain_ipympl(monkeypatch):
    from lessons_lib.apps.fastdraw import painter as painter_module

    monkeypatch.setattr(painter_module, "ENABLED", False)
    with plt.ioff():
        fig = plt.figure(figsize=(2, 2))
    try:
        canvas = fig.canvas
        painter = Painter.attach(fig, [])
        assert "draw" not in vars(canvas) and "get_diff_image" not in vars(canvas)
        canvas.syncing_data_url = False
        calls = []
        monkeypatch.setattr(canvas, "draw_idle", lambda: calls.append(1))
        painter.request()
        assert calls == [1] and painter.full_draws == 0
    finally:
        plt.close(fig)


def test_hold_puts_requests_off_to_one(scene):
    fig, painter, parts, _ = scene
    fig.canvas.syncing_data_url = False
    fig.canvas.send_binary = lambda data: None
    with painter.hold():
        for x in (1.0, 2.0, 3.0):
            _move(parts, x)
            painter.request()
        assert painter.full_draws + painter.fast_draws == 0
    assert painter.full_draws + painter.fast_draws == 1


# -- every app that names dynamic artists -----------------------------------------------------
def _apps_with_dynamic() -> list[str]:
    from lessons_lib import apps
    from lessons_lib.apps.core import LessonApp
    from lessons_lib.catalogue import app_registry

    names = []
    for name in sorted(app_registry()):
        cls = getattr(apps, name, None)
        if (isinstance(cls, type) and issubclass(cls, LessonApp)
                and cls.dynamic_artists is not LessonApp.dynamic_artists):
            names.append(name)
    return names


#: At most this share of pixels may differ between a fast and a full draw (antialiased edges
#: where a dynamic artist crosses a static one drawn after it in a full draw).
TOLERANCE = 0.0005


def _assert_same_picture(fig, what: str) -> None:
    fast = _pixels(fig)
    full = _full_pixels(fig)
    assert fast.shape == full.shape
    differ = np.any(fast != full, axis=2).mean()
    assert differ <= TOLERANCE, f"{what}: {differ:.3%} of the pixels differ from a full draw"


@pytest.mark.parametrize("name", _apps_with_dynamic() or [
    pytest.param("-", marks=pytest.mark.skip(reason="no app names dynamic artists yet"))])
def test_an_apps_fast_draws_equal_full_draws(name):
    import ipywidgets as widgets

    from lessons_lib import apps

    app = getattr(apps, name)()
    painter = app.painter
    try:
        painter.render()                           # the background
        if app.frame is not None:
            values = app.frame_values(step=max(1, app.frame.count // 6))
            for value in values[1:] + values[:1]:
                app.show_frame(value)
                painter.render()
                _assert_same_picture(app.fig, f"{name} at frame {value}")
            assert painter.fast_draws + painter.partial_draws >= len(values) // 2, (
                f"{name}: frame changes were drawn in full ({painter.full_draws} times)")
        for spec in app.controls:                  # a control change, then frames again
            w = getattr(app, spec.name)
            if isinstance(w, widgets.FloatSlider | widgets.IntSlider) and not w.disabled:
                w.value = w.value + w.step if w.value + w.step <= w.max else w.min
                painter.render()
                _assert_same_picture(app.fig, f"{name} after {spec.name}")
                break
        if app.frame is not None:
            app.show_frame(app.frame_values()[-1])
            painter.render()
            _assert_same_picture(app.fig, f"{name} at the last frame after a change")
    finally:
        plt.close(app.fig)




def _page(fig) -> list:
    """Attach a pretend page to ``fig``'s canvas: the frames it would receive."""
    sent = []
    fig.canvas.send_binary = sent.append
    fig.canvas.syncing_data_url = False
    return sent


def _image(frame: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(frame)).convert("RGBA"))


def test_an_unchanged_figure_is_sent_again_without_a_new_render(scene):
    fig, painter, parts, _ = scene
    sent = _page(fig)
    painter.request()                       # the first picture
    fig.canvas.handle_refresh({})           # a page opening asks twice: refresh ...
    fig.canvas.handle_draw({})              # ... and draw
    assert painter.full_draws + painter.fast_draws == 1 and painter.reused == 2
    assert len(sent) == 3 and sent[1] == sent[0] and sent[2] == sent[0]
    _move(parts, 2.5)                       # a change is rendered, never reused
    painter.request()
    assert painter.fast_draws == 1 and painter.reused == 2
    assert np.array_equal(_image(sent[-1]), _full_pixels(fig))


def test_a_prepared_first_frame_is_sent_without_a_render_or_png(scene):
    """What classroom mode's warm-up (lessons_server.classroom.WARM_UP) does in a pooled
    kernel: the page's first image is then the prepared PNG, encoded once, before it came."""
    from unittest import mock

    import lessons_lib.apps.fastdraw.painter as painter_module
    from lessons_server.classroom import WARM_UP

    fig, painter, parts, _ = scene
    namespace = {}
    with mock.patch.dict("sys.modules", {"ipympl.backend_nbagg": painter_module}), \
            mock.patch("matplotlib._pylab_helpers.Gcf.get_all_fig_managers",
                       return_value=[mock.Mock(canvas=fig.canvas)]):
        exec(WARM_UP, namespace)  # noqa: S102 - the warm-up's own text, as the kernel runs it
    renders = painter.full_draws + painter.fast_draws
    assert renders == 1
    sent = _page(fig)
    with mock.patch.object(painter_module, "encode_png",
                           wraps=painter_module.encode_png) as encoded:
        fig.canvas.handle_refresh({})       # the page opening: refresh, then draw
        fig.canvas.handle_draw({})
        assert encoded.call_count == 0 and painter.full_draws + painter.fast_draws == 1
        assert len(sent) == 2 and sent[0] == sent[1]
        assert np.array_equal(_image(sent[0]), _full_pixels(fig))
        _move(parts, 3.0)                   # a change is rendered and encoded as before
        painter.request()
        assert encoded.call_count == 1
    assert np.array_equal(_image(sent[-1]), _full_pixels(fig))


@pytest.mark.parametrize("dpi", [100, 60])
def test_a_save_in_between_never_leaves_an_old_picture(scene, dpi):
    """``savefig`` draws the figure into the canvas's own buffer at the canvas's dpi, into
    another at any other. Even when nothing is left marked stale after it (as after any
    draw), the next frame is the figure as it is now: the painter sees the buffer changed."""
    fig, painter, parts, _ = scene
    sent = _page(fig)
    painter.request()
    _move(parts, 4.0)
    fig.savefig(io.BytesIO(), format="png", dpi=dpi)
    fig.stale = False
    painter.request()
    assert painter.reused == 0
    assert np.array_equal(_image(sent[-1]), _full_pixels(fig))


def test_the_pointer_rate_limit_follows_a_frames_cost_within_bounds():
    assert choose_throttle_ms(0.0) == 33.0           # ipympl's default is the least
    assert choose_throttle_ms(0.010) == 33.0
    assert choose_throttle_ms(0.100) == 150.0        # the cost with a 50 % margin
    assert choose_throttle_ms(5.0) == 250.0          # at most 4 moves a second
    for bad in (-0.1, float("nan"), float("inf"), "0.1", None, True):
        with pytest.raises(ValueError, match="frame's cost"):
            choose_throttle_ms(bad)


def test_views_that_share_a_place_swap_without_wiping_each_other():
    """Lesson 3's lower plot is one of three axes in the same place, one visible at a time.
    Showing one and hiding another re-renders both: the hidden one's clearing must not wipe
    the one just drawn (it did when the hidden one came later in the figure), and a moving
    artist of the hidden one is not drawn."""
    with plt.ioff():
        fig = plt.figure(figsize=(5, 3), dpi=100)
    try:
        top = fig.add_axes((0.1, 0.75, 0.8, 0.22))
        views = [fig.add_axes((0.1, 0.1, 0.8, 0.4)) for _ in range(3)]
        t = np.linspace(0, 6, 100)
        (dot,) = top.plot([0], [0], "o", color="C3")
        marks = []
        for k, ax in enumerate(views):
            ax.plot(t, np.sin(t + k), color=f"C{k}", lw=2)
            ax.set_title(f"view {k}")
            (m,) = ax.plot([1], [0], "s", color="k", ms=9)
            marks.append(m)
            ax.set_visible(k == 0)
        painter = Painter.attach(fig, [dot, *marks])
        fig.canvas.draw()
        for shown in (2, 0, 1, 2, 0):
            for k, ax in enumerate(views):
                ax.set_visible(k == shown)
            dot.set_data([shown], [0])
            fig.canvas.draw()
            fast = _pixels(fig)
            assert np.array_equal(fast, _full_pixels(fig)), shown
        assert painter.partial_draws >= 4
    finally:
        plt.close(fig)


def test_steering_views_in_any_order_look_like_full_draws():
    """Lesson 3's lower plot: Terms, Phase portrait and Speed sweep share a place. After the
    phase portrait, Terms and the sweep came up empty (the hidden portrait's clearing wiped
    them), with the portrait's moving dot still drawn."""
    from lessons_lib.apps import SteeringApp

    app = SteeringApp()
    try:
        app.painter.render()
        views = [o[1] if isinstance(o, tuple) else o for o in app.view.options]
        for view in [*views[1:], *views, views[0], views[-1], views[1]]:
            app.view.value = view
            app.show_frame(app.frame_values()[len(app.frame_values()) // 3])
            app.painter.render()
            _assert_same_picture(app.fig, f"steering's {view} view")
    finally:
        plt.close(app.fig)
