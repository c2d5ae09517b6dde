"""Play drawn by the page, kernel side: what the recorder keeps of lesson 2's moving artists,
replayed over the figure's background, is the frame the kernel draws; the packer keeps to
its bounds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from motion_check import (
    LOUD_SHARE,
    assert_replay_is_the_kernels,
    kernel_frame,
    loud_share,
    replayed,
)

from lessons_lib.apps import fastdraw
from lessons_lib.apps.fastdraw import record
from lessons_lib.apps.interpolation import InterpolationApp

# The painter's background and order are the fast path's; without it nothing plays in the page.
pytestmark = pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")


@pytest.fixture(scope="module")
def app():
    return InterpolationApp()


def _moving(app) -> list:
    """What t moves in lesson 2's figure: the painter's moving artists, the ghosts, and
    every path of the sphere a nose marker behind it may lie under."""
    v = app.view
    return [*app.dynamic_artists(), *v.ghosts.values(),
            *(a for a in v.ax_sphere.lines if a.get_zorder() > 1.5)]


def _values(app) -> list[float]:
    """Two frames a step of t, as the page plays them."""
    return [float(v) for v in np.linspace(0.0, 1.0, 201)]


def _record(app, values, limits=record.LIMITS) -> record.Animation:
    renderer = app.fig.canvas.get_renderer()
    FigureCanvasAgg.draw(app.fig.canvas)          # the layout as a draw leaves it
    frames = []
    for value in values:
        app.draw(app.state, value)
        moving = list({id(a): a for a in _moving(app)}.values())
        frames.append(record.record_frame(app.painter.drawing_order(moving), renderer,
                                          limits))
    return record.pack(frames, renderer.width, renderer.height, app.fig.dpi, limits)


def test_replayed_frames_are_the_kernels(app):
    """Many frames of Play (steps and the frames between them), recorded and replayed over
    the background, against a full draw of the same frame; and a neighbouring frame's
    replay is told apart by the same measure."""
    values = _values(app)
    picks = sorted({0, 1, 7, 25, 49, 50, 77, 100, 131, 150, 173, 199, len(values) - 1})
    animation = _record(app, [values[i] for i in picks])
    assert animation.frame_count == len(picks) and animation.unsupported == 0
    background = app.painter.background_without(_moving(app))
    for j, i in enumerate(picks):
        truth = kernel_frame(app, values[i])
        got = replayed(app, animation, j, background)
        assert loud_share(truth, got) < LOUD_SHARE, f"frame {i} (t = {values[i]:.3f})"
        if 0 < j:
            assert loud_share(kernel_frame(app, values[picks[j - 1]]), got) > LOUD_SHARE / 3
    app.redraw()


def test_the_apps_own_recording_is_the_kernels(app):
    """The path Play takes: the app's own motion artists, recorded by the app."""
    assert_replay_is_the_kernels(app, [0.0, 0.33, 0.5, 0.77, 1.0])


def test_background_does_not_move_with_the_frame(app):
    """What the page draws over stays the same whole Play long (the ghosts, the nose marker
    behind the sphere and what lies over it are all recorded)."""
    values = _values(app)
    pictures = []
    for value in (values[0], values[len(values) // 3], values[-1]):
        app.draw(app.state, value)
        pictures.append(app.painter.background_without(_moving(app)))
    app.redraw()
    assert all(np.array_equal(pictures[0], p) for p in pictures[1:])


def test_recorded_text_and_markers(app):
    """The readouts are text (string, size and place from matplotlib's own layout) and the
    sphere's markers are paths."""
    animation = _record(app, [0.5])
    texts = animation.kinds == record.OP_TEXT
    assert texts.sum() >= 6 and any("from start" in s for s in animation.strings)
    size = animation.props[texts, record.TEXT_FIELDS.index("size")]
    assert np.all(size >= 14)            # no text under 14 px (at the figure's dpi)
    assert set(animation.fonts) == {"DejaVu Sans"}
    widths = animation.props[~texts, record.PATH_FIELDS.index("width")]
    assert (~texts).sum() > 100 and widths.max() > 1


def test_an_artist_named_twice_is_drawn_once(app):
    """Apps name some moving artists twice (lesson 2's dynamic artists do); the painter's
    order, which every recording goes through, has each once."""
    moving = _moving(app)
    order = app.painter.drawing_order(moving)
    assert len(order) == len({id(a) for a in order}) > 3
    assert app.painter.drawing_order(moving + moving[::-1]) == order


def test_recorder_stops_at_its_bounds(app):
    renderer = app.fig.canvas.get_renderer()
    order = app.painter.drawing_order(_moving(app))
    with pytest.raises(ValueError, match="primitives"):
        record.record_frame(order, renderer, record.Limits(primitives=20))
    with pytest.raises(ValueError, match="vertices"):
        record.record_frame(order, renderer, record.Limits(vertices=50))
    frame = record.record_frame(order, renderer)
    with pytest.raises(ValueError, match="bytes"):
        record.pack([frame], renderer.width, renderer.height, 100.0,
                    record.Limits(animation_bytes=1000))
    with pytest.raises(ValueError, match="frames"):
        record.pack([frame] * 3, renderer.width, renderer.height, 100.0,
                    record.Limits(frames=2))
    app.redraw()


def _synthetic(paths: int, vertices: int, texts: int) -> record.FrameRecord:
    frame = record.FrameRecord()
    for k in range(paths):
        props = np.zeros(record.PROPS)
        props[record.PATH_FIELDS.index("segments")] = vertices
        codes = [1] + [2] * (vertices - 1)
        frame._add([record.OP_PATH], props, codes, np.full((vertices, 2), float(k)))
    for k in range(texts):
        frame.strings.append(f"label {k}")
        frame.fonts.append(("DejaVu Sans", "DejaVuSans.ttf"))
        props = np.zeros(record.PROPS)
        props[record.TEXT_FIELDS.index("string")] = k
        props[record.TEXT_FIELDS.index("font")] = k
        frame._add([record.OP_TEXT], props)
    return frame


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(frames=st.integers(1, 12), paths=st.integers(0, 30), vertices=st.integers(1, 40),
       texts=st.integers(0, 5), primitives=st.integers(1, 60), max_vertices=st.integers(1, 900),
       frame_bytes=st.integers(16, 20_000), most_frames=st.integers(1, 12),
       total=st.integers(32, 100_000))
def test_packer_keeps_its_bounds(frames, paths, vertices, texts, primitives, max_vertices,
                                 frame_bytes, most_frames, total):
    """Whatever the frames and the limits: a clear ValueError, or an animation within every
    bound whose bytes say what it holds."""
    limits = record.Limits(primitives=primitives, vertices=max_vertices,
                           frame_bytes=frame_bytes, frames=most_frames, animation_bytes=total)
    recorded = [_synthetic(paths, vertices, texts) for _ in range(frames)]
    try:
        animation = record.pack(recorded, 64, 48, 100.0, limits)
    except ValueError as exc:
        assert str(exc)
        return
    assert animation.frame_count == frames <= most_frames
    assert animation.nbytes <= total
    per_frame = np.diff(animation.offsets, axis=0)
    assert per_frame[:, 0].max() <= primitives and per_frame[:, 2].max() <= max_vertices
    blob = animation.to_bytes()
    head = record.HEADER.unpack_from(blob)
    assert head[:4] == (record.MAGIC, frames, 64, 48)
    assert head[4:] == (len(animation.kinds), len(animation.codes), len(animation.verts),
                        len(animation.dashes))
    assert len(blob) >= animation.nbytes
    assert animation.strings == tuple(f"label {k}" for k in range(texts))


def test_animation_refuses_arrays_that_do_not_fit(app):
    animation = _record(app, [0.0, 1.0])
    fields = dict(vars(animation))
    with pytest.raises(ValueError, match="offsets"):
        record.Animation(**{**fields, "offsets": fields["offsets"] + 1})
    with pytest.raises(ValueError, match="finite"):
        bad = fields["verts"].copy()
        bad[0, 0] = np.nan
        record.Animation(**{**fields, "verts": bad})
    with pytest.raises(ValueError):
        record.replay(animation, 2, app.fig.canvas.get_renderer())
    app.redraw()
