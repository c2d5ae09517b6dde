"""Text on the live canvas without laying out or rasterizing again what Agg drew before.

Text is the slowest thing matplotlib 3.11's Agg renderer draws: each line is laid out
(``FT2Font._layout``, about 0.5-1 ms) and every glyph rendered by FreeType one by one
(with a few numpy calls each). Lessons 1 and 2 draw many labels and readouts a frame: in a
same-run A/B (``benchmarks/ab_caches.py``, numbers in docs/performance.md) this cache saves
about 2 ms of a lesson 1 yaw redraw and 4.6-6.4 ms of lesson 2's, and nothing in lessons 3-4.
This module gives one Agg renderer a ``draw_text`` that keeps

- each line's layout, by font, size, dpi, string and shaping options: a readout that
  shows a value again (Play's second loop, a slider moved back) is not laid out again;
- each glyph's coverage bitmap, by font, size, dpi, glyph, transform and the glyph's
  position within a pixel (in FreeType's 1/64 px): FreeType renders a glyph moved by whole
  pixels to the same bitmap moved by as many pixels, so a glyph met again at the same
  sub-pixel offset is only blended (``draw_text_image``), wherever it is.

Blending goes through the renderer exactly as before, with the same bitmaps at the same
places, so the pixels are those of matplotlib's own path (tests compare them). Math text
and usetex go the usual way. When matplotlib lacks the private functions this relies on,
or a first sample drawn both ways (:func:`works`) differs or fails, :meth:`TextCache.install`
does nothing, and a failure while drawing switches the cache off for good and draws the text
matplotlib's way: a newer matplotlib costs speed, never a broken picture.
"""

from __future__ import annotations

import copy
import math
import types

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.ft2font import FT2Font, RenderMode
from matplotlib.text import Text
from matplotlib.transforms import IdentityTransform

from . import ENABLED

#: Whether this matplotlib has the private API the cache replays (3.11's text path).
SUPPORTED = all(hasattr(FT2Font, name) for name in ("_layout", "_set_transform",
                                                      "_render_glyph")) \
    and hasattr(RendererAgg, "_prepare_font")
#: Entries kept before a cache starts over (a glyph is ~100 bytes; a layout ~1 kB).
MAX_GLYPHS = 50_000
MAX_LAYOUTS = 5_000
_works: bool | None = None              # the self-check's answer, once asked


def works() -> bool:
    """True when this matplotlib has the text path the cache replays and a sample (plain,
    bold, rotated and unantialiased lines) comes out of the cache pixel for pixel as
    matplotlib draws it. Checked once per process (a few ms)."""
    global _works
    if _works is None:
        _works = SUPPORTED and _sample_matches()
    return _works


def _sample_matches() -> bool:
    from matplotlib.figure import Figure

    def draw(cache):
        fig = Figure(figsize=(2.4, 0.8), dpi=100)
        FigureCanvasAgg(fig)
        fig.text(0.03, 0.6, "Ag 1.5\u00b0 yaw", fontsize=11)
        fig.text(0.5, 0.1, "pitch -90", fontsize=9, rotation=33, fontweight="bold")
        fig.text(0.05, 0.15, "x = 12", fontsize=10, antialiased=False)
        renderer = fig.canvas.get_renderer()
        if cache is not None:           # the cached path itself: its errors reach the try
            renderer.draw_text = types.MethodType(
                lambda r, gc, x, y, s, prop, angle, ismath=False, mtext=None:
                _draw_cached(r, gc, x, y, s, prop, angle, mtext), renderer)
            renderer._lesson_text_cache = cache
        fig.canvas.draw()
        return np.asarray(renderer.buffer_rgba()).copy()

    try:
        return bool(np.array_equal(draw(None), draw(TextCache())))
    except Exception:                  # a matplotlib whose private text API changed
        return False


class TextCache:
    """Layouts and glyph bitmaps, shared by every renderer it is installed on.
    ``hits``/``misses`` count glyphs, ``layout_hits``/``layout_misses`` lines."""

    def __init__(self) -> None:
        self.layouts: dict = {}
        self.glyphs: dict = {}
        self.hits = self.misses = self.layout_hits = self.layout_misses = 0

    def clear(self) -> None:
        self.layouts.clear()
        self.glyphs.clear()

    def install(self, renderer: RendererAgg) -> bool:
        """Give ``renderer`` the caching ``draw_text``; True when it has it."""
        if not isinstance(renderer, RendererAgg) or not works():
            return False
        current = renderer.__dict__.get("draw_text")
        if getattr(current, "__func__", None) is not _draw_text:
            renderer.draw_text = types.MethodType(_draw_text, renderer)
            renderer._lesson_text_cache = self
        return True

    # -- the two caches -----------------------------------------------------------------------
    def layout(self, font, size: float, dpi: float, s: str, flags, features, language):
        key = (id(font), size, dpi, s, flags,
               tuple(features) if features is not None else None,
               tuple(language) if isinstance(language, list) else language)
        found = self.layouts.get(key)
        if found is not None:
            self.layout_hits += 1
            return found[1]
        self.layout_misses += 1
        items = tuple((item.ft_object, item.glyph_index, item.x, item.y)
                      for item in font._layout(s, flags=flags, features=features,
                                               language=language))
        if len(self.layouts) >= MAX_LAYOUTS:
            self.layouts.clear()
        self.layouts[key] = (font, items)            # the font kept: its id stays its own
        return items

    def glyph(self, font, size: float, dpi: float, index: int, matrix: tuple, tx: int,
              ty: int, flags, antialiased: bool) -> tuple[np.ndarray, int, int]:
        """The coverage bitmap of a glyph at FreeType position ``(tx, ty)`` (1/64 px, y
        up), with its left column and top row on the canvas."""
        key = (id(font), size, dpi, index, matrix, tx & 63, ty & 63, flags, antialiased)
        found = self.glyphs.get(key)
        if found is None:
            self.misses += 1
            font.set_size(size, dpi)
            font._set_transform(np.array(matrix).reshape(2, 2), [tx, ty])
            bitmap = font._render_glyph(
                index, flags, RenderMode.NORMAL if antialiased else RenderMode.MONO)
            buffer = np.array(bitmap.buffer, dtype=np.uint8)
            if not antialiased:
                buffer *= 0xff
            if len(self.glyphs) >= MAX_GLYPHS:
                self.glyphs.clear()
            found = self.glyphs[key] = (font, buffer, bitmap.left - (tx >> 6),
                                        bitmap.top - (ty >> 6))
        else:
            self.hits += 1
        _, buffer, left, top = found
        return buffer, left + (tx >> 6), top + (ty >> 6)


#: The cache the painter installs on every live canvas.
CACHE = TextCache()


def _draw_text(self: RendererAgg, gc, x, y, s, prop, angle, ismath=False, mtext=None):
    """``RendererAgg.draw_text`` (matplotlib 3.11) through the renderer's cache."""
    global _works
    if ismath or _works is False:
        return RendererAgg.draw_text(self, gc, x, y, s, prop, angle, ismath, mtext)
    try:
        _draw_cached(self, gc, x, y, s, prop, angle, mtext)
    except Exception:                  # never seen: off for good, and matplotlib's way
        _works = False
        RendererAgg.draw_text(self, gc, x, y, s, prop, angle, ismath, mtext)


def _draw_cached(self: RendererAgg, gc, x, y, s, prop, angle, mtext) -> None:
    cache: TextCache = self._lesson_text_cache
    font = self._prepare_font(prop)
    flags = get_hinting_flag()
    size = prop.get_size_in_points()
    items = cache.layout(font, size, self.dpi, s, flags,
                         mtext.get_fontfeatures() if mtext is not None else None,
                         mtext.get_language() if mtext is not None else None)
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    matrix = tuple(int(v) for v in (0x10000 * np.array([[cos, -sin], [sin, cos]]))
                   .round().astype(int).ravel())
    antialiased = bool(gc.get_antialiased())
    height = self.height
    for ft, index, dx, dy in items:                     # dy is upwards, as FreeType's y
        tx = round(0x40 * (x + dx * cos - dy * sin))
        ty = round(0x40 * (height - y + dx * sin + dy * cos))
        buffer, left, top = cache.glyph(ft, size, self.dpi, index, matrix, tx, ty, flags,
                                        antialiased)
        self._renderer.draw_text_image(buffer, left, int(height) - top + buffer.shape[0],
                                       0, gc)


# -- a whole label, pasted ------------------------------------------------------------------
#: Stamps one label keeps before it starts over (a 100 x 20 px label is 8 kB).
MAX_STAMPS = 64


class StampedText(Text):
    """A label drawn on the live canvas from its own pixels: the text and its box are
    rendered once per string, look and dpi (matplotlib's way, on a small canvas of their
    own), then pasted at its place, to the whole pixel.

    A label that moves every frame (lesson 1's ring labels, ~1.2 ms each with their box)
    then costs a paste (~0.05 ms): matplotlib lays a text out again, updates and draws its
    box and looks its font up on every draw, even when the glyphs come from :data:`CACHE`.
    Pasting is compositing the same box and glyphs, so the pixels are those of a plain draw
    at that whole pixel, within a level of rounding. The box's style is read once per
    string (set it before the first draw). Saving (GIF, savefig), another renderer, or any
    failure draws it as a plain Text. Each label keeps its own stamps (they go with it).
    """

    _stamps: dict | None = None

    def _look(self, renderer) -> tuple:
        return (self.get_text(), renderer.dpi, hash(self.get_fontproperties()),
                str(self.get_color()), self.get_rotation(), self.get_ha(), self.get_va(),
                self.get_alpha(), self.get_rotation_mode())

    def draw(self, renderer) -> None:
        fig = self.get_figure(root=True)
        if (not ENABLED or not self.get_visible() or not self.get_text()
                or type(renderer) is not RendererAgg or fig is None or fig.canvas.is_saving()):
            return Text.draw(self, renderer)
        if self._stamps is None or len(self._stamps) >= MAX_STAMPS:
            self._stamps = {}
        key = self._look(renderer)
        stamp = self._stamps.get(key)
        try:
            if stamp is None:
                stamp = self._stamps[key] = self._stamp(renderer)
            image, dx, dy = stamp
            x, y = self.get_transform().transform(self.get_position())
            gc = renderer.new_gc()
            self._set_gc_clip(gc)
            renderer.draw_image(gc, round(x) + dx, round(y) + dy, image)
            gc.restore()
        except Exception:              # never seen: matplotlib's way
            return Text.draw(self, renderer)
        self.stale = False

    def _stamp(self, renderer) -> tuple[np.ndarray, int, int]:
        """The label's pixels, cropped, and where their lower left corner lies from the
        anchor (whole pixels). Drawn by matplotlib at a whole pixel of a canvas of its own."""
        ext = Text.get_window_extent(self, renderer)
        margin = int(4 * self.get_fontsize() * renderer.dpi / 72) + 8
        # drawn from the middle: room for the text on any side of it (any alignment or
        # rotation), then cropped
        side = 2 * (int(max(ext.width, ext.height)) + 2 * margin)
        own = RendererAgg(side, side, renderer.dpi)
        cx = cy = side // 2
        # drawn from a copy, at the middle and unclipped (the clip is applied when pasting):
        # the label itself is never changed, not even for a moment. JupyterLab sends comm
        # messages over kernel subshells, each on a thread of its own, so another thread may
        # draw or measure this label meanwhile; swapping its own _x/_y/_transform left it
        # with the stamp's IdentityTransform for good when two stamps overlapped.
        ghost = copy.copy(self)                 # (no stale callback: nothing goes stale)
        ghost._x, ghost._y, ghost._transform = cx, cy, IdentityTransform()
        ghost._clipon = False
        box = self.get_bbox_patch()
        if box is not None:                     # Text.draw moves and sizes its box
            ghost._bbox_patch = copy.copy(box)
            ghost._bbox_patch._clipon = False
        Text.draw(ghost, own)
        rgba = np.asarray(own.buffer_rgba())
        rows = np.flatnonzero(rgba[:, :, 3].any(axis=1))
        cols = np.flatnonzero(rgba[:, :, 3].any(axis=0))
        if not len(rows):
            return np.zeros((1, 1, 4), np.uint8), 0, 0
        r0, r1, c0, c1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
        # Agg's draw_image takes rows bottom to top
        return rgba[r0:r1, c0:c1][::-1].copy(), int(c0 - cx), int(side - r1 - cy)
