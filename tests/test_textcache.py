"""Text drawn through the cache is matplotlib's own, pixel for pixel, and is reused."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from lessons_lib.apps.fastdraw import textcache
from lessons_lib.apps.fastdraw.textcache import TextCache

pytestmark = pytest.mark.skipif(
    not textcache.SUPPORTED or not textcache.ENABLED,
    reason="this matplotlib lacks the text path the cache replays, or LESSONS_FAST_DRAW=0")


def _render(fig, cache: TextCache | None) -> np.ndarray:
    renderer = fig.canvas.get_renderer()
    renderer.__dict__.pop("draw_text", None)
    if cache is not None:
        assert cache.install(renderer)
    FigureCanvasAgg.draw(fig.canvas)
    return np.asarray(renderer.buffer_rgba()).copy()


@pytest.fixture
def page():
    with plt.ioff():
        fig = plt.figure(figsize=(6, 4), dpi=100)
    rng = np.random.default_rng(7)
    texts = [fig.text(rng.uniform(0, 0.85), rng.uniform(0.05, 0.9), "",
                      fontsize=float(rng.choice([8, 9, 10, 12.5])),
                      rotation=float(rng.choice([0, 0, 0, 33, 90])),
                      color=rng.uniform(0, 1, 3), fontweight=str(rng.choice(["normal", "bold"])),
                      ha=str(rng.choice(["left", "center", "right"])))
             for _ in range(20)]
    fig.text(0.05, 0.5, "no antialiasing", antialiased=False)
    fig.text(0.05, 0.35, r"math $\alpha^2_{ij}$ goes the usual way")
    ax = fig.add_axes((0.55, 0.1, 0.4, 0.4))
    ax.plot([0, 1], [0, 1])
    ax.set_title("q₀ → q₁, 90°")
    yield fig, texts
    plt.close(fig)


def _move(texts, k: int) -> None:
    for i, t in enumerate(texts):
        t.set_text(f"{(k * 7 + i) % 23 - 11:+.1f}° yaw\nstep {k}")
        x, y = t.get_position()
        t.set_position((x + 0.0037 * (i % 3), y))        # whole and sub-pixel moves


def test_cached_text_is_matplotlibs_pixel_for_pixel(page):
    fig, texts = page
    cache = TextCache()
    for k in range(12):
        _move(texts, k)
        stock = _render(fig, None)
        assert np.array_equal(_render(fig, cache), stock), k
    assert cache.hits > 0 and cache.layout_hits > 0


def test_what_was_drawn_before_is_neither_laid_out_nor_rasterized_again(page):
    fig, texts = page
    _move(texts, 3)
    cache = TextCache()
    first = _render(fig, cache)
    misses, layouts = cache.misses, cache.layout_misses
    assert misses > 0 and layouts > 0
    again = _render(fig, cache)
    assert np.array_equal(again, first)
    assert cache.misses == misses and cache.layout_misses == layouts
    # a text moved by whole pixels: laid out, but every glyph found again
    texts[0].set_position(texts[0].get_position())        # unchanged position ...
    x, y = texts[0].get_position()
    texts[0].set_position((x + 10 / 600, y))              # ... then 10 px to the right
    stock = _render(fig, None)
    assert np.array_equal(_render(fig, cache), stock)
    assert cache.misses == misses


def test_install_is_idempotent_and_only_for_agg(page):
    fig, _ = page
    cache = TextCache()
    renderer = fig.canvas.get_renderer()
    assert cache.install(renderer) and cache.install(renderer)
    assert renderer.draw_text.__func__ is textcache._draw_text
    assert not cache.install(object())


def test_the_caches_start_over_when_full(page, monkeypatch):
    fig, texts = page
    monkeypatch.setattr(textcache, "MAX_GLYPHS", 5)
    monkeypatch.setattr(textcache, "MAX_LAYOUTS", 2)
    cache = TextCache()
    _move(texts, 1)
    stock = _render(fig, None)
    assert np.array_equal(_render(fig, cache), stock)
    assert len(cache.glyphs) <= 5 and len(cache.layouts) <= 2


def test_the_painter_draws_text_through_the_cache(page):
    from lessons_lib.apps.fastdraw.painter import TEXT_CACHE, Painter

    fig, texts = page
    painter = Painter.attach(fig, [texts[0]])
    painter.render()
    assert fig.canvas.get_renderer().draw_text.__func__ is textcache._draw_text
    assert fig.canvas.get_renderer()._lesson_text_cache is TEXT_CACHE


def test_the_self_check_passes_here_and_a_broken_text_path_turns_the_cache_off(monkeypatch):
    """works() compares a sample drawn both ways; a cached path that fails (a matplotlib
    whose private API changed) leaves the cache off and the text drawn matplotlib's way."""
    monkeypatch.setattr(textcache, "_works", None)
    assert textcache.works() is True

    def broken(*args, **kwargs):        # as if FT2Font._render_glyph had changed
        raise TypeError("_render_glyph() takes 2 arguments")

    monkeypatch.setattr(textcache, "_works", None)
    monkeypatch.setattr(TextCache, "glyph", broken)
    assert textcache.works() is False
    with plt.ioff():
        fig = plt.figure(figsize=(2, 1), dpi=100)
    fig.text(0.1, 0.5, "still drawn")
    assert not TextCache().install(fig.canvas.get_renderer())
    FigureCanvasAgg.draw(fig.canvas)
    assert (np.asarray(fig.canvas.get_renderer().buffer_rgba())[..., :3] < 128).any()
    plt.close(fig)


def test_a_failure_while_drawing_falls_back_to_matplotlib_and_switches_the_cache_off(
        monkeypatch):
    with plt.ioff():
        fig = plt.figure(figsize=(2, 1), dpi=100)
    fig.text(0.1, 0.5, "a label")
    expected = _render(fig, None)
    monkeypatch.setattr(textcache, "_works", True)
    cache = TextCache()

    def broken(*args, **kwargs):
        raise RuntimeError("glyph")

    monkeypatch.setattr(cache, "glyph", broken)
    assert np.array_equal(_render(fig, cache), expected)
    assert textcache._works is False
    plt.close(fig)


def _labels(cls, texts, at):
    """A figure with one label of ``cls`` per text, each with a see-through rounded box, at
    whole pixels ``at``, in an axes (so clipped to it, as a lesson's labels are)."""
    from matplotlib.transforms import IdentityTransform

    with plt.ioff():
        fig = plt.figure(figsize=(4, 2), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.55, 0.05, 0.4, 0.9))   # far from (0, 0): a stamp is drawn there
    ax.set_axis_off()
    fig.patch.set_facecolor("#88aadd")          # a box 0.8 opaque shows what is under it
    labels = []
    for text, (x, y) in zip(texts, at, strict=True):
        ha = "left" if len(text) > 12 else "center"   # a long one from its left end
        label = cls(x, y, text, transform=IdentityTransform(), color="#D55E00", fontsize=10,
                    fontweight="bold", ha=ha, va="center", rotation=0,
                    bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                          "alpha": 0.8})
        ax.add_artist(label)
        assert label.get_clip_box() is not None
        labels.append(label)
    return fig, labels


def test_a_stamped_label_is_a_plain_labels_pixels_pasted():
    """Pasting the rendered label composes the same box and glyphs: at whole pixels the
    picture equals a plain Text's within a level of rounding, for any of its positions."""
    from matplotlib.text import Text

    texts = ["pitch \u221290°", "yaw 35°", "roll 0°", "whole track: click"]
    at = [(270, 150), (330, 60), (261, 40), (225, 110)]
    stamped, labels = _labels(textcache.StampedText, texts, at)
    plain, _ = _labels(Text, texts, at)
    a, b = _render(stamped, None), _render(plain, None)
    diff = np.abs(a.astype(int) - b.astype(int)).max(axis=2)
    assert diff.max() <= 2 and (diff > 0).mean() < 0.03     # 1-level rounding in boxes
    ground = np.round(np.asarray(stamped.patch.get_facecolor()) * 255)
    shown = (np.abs(a - ground) > 40).any(axis=2)       # the labels are there at all
    assert shown.sum() > 500 and (shown == (np.abs(b - ground) > 40).any(axis=2)).all()
    # moved: the same stamp, pasted elsewhere; a new string: a new stamp
    n = len(labels[0]._stamps)
    labels[0].set_position((300, 100))
    _render(stamped, None)
    assert len(labels[0]._stamps) == n
    labels[0].set_text("pitch 12°")
    _render(stamped, None)
    assert len(labels[0]._stamps) == n + 1
    plt.close(stamped)
    plt.close(plain)


def test_a_saved_figure_draws_stamped_labels_as_plain_text(tmp_path, monkeypatch):
    stamped, _ = _labels(textcache.StampedText, ["roll 15°"], [(100, 100)])
    monkeypatch.setattr(textcache.StampedText, "_stamp",
                        lambda *a: pytest.fail("a saved figure must not be stamped"))
    stamped.savefig(tmp_path / "label.png")
    plt.close(stamped)
