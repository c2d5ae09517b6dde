"""Draw an ipympl figure and put it on the page with as little work as the change needs.

Four things make a control feel slow in ipympl, and :class:`Painter` removes each:

1. **The round trip before a draw.** ipympl's ``canvas.draw_idle()`` sends "draw" to the
   browser, which asks the kernel back to draw; only then is the picture rendered and sent.
   When a page is attached, :meth:`Painter.request` (and ``canvas.draw_idle()``, which it
   replaces) renders and sends the image straight away. The page's own draw requests
   (first show, a resize, a high-dpi screen) still work.
2. **Re-rendering what did not move.** An app may name its *dynamic* artists (the car, the
   moving dot, a readout): the rest of the figure is rendered once into a cached background
   and restored pixel for pixel before only the dynamic artists are drawn on it. The cache
   is rebuilt whenever anything else changed: an artist of the background marked stale by
   matplotlib (every setter does that), other view limits, axes position or 3D view, another
   canvas size or dpi. When that happened inside axes that overlap nothing else (a close-up
   that follows the car), only those axes are re-rendered into the cache. So a forgotten
   artist costs speed, never a stale picture. What
   naming does change is layering: dynamic artists are drawn on top of the background (in
   their axes' order, then by zorder), so name artists that nothing static covers.
   Every draw asked for while one page message (a pointer move, a key) is handled
   makes a single draw at the end of it.
3. **Drawing the same picture twice.** A page that opens asks for the picture twice (its
   "refresh" and its "draw"), and a pooled kernel drew it once already before the page
   came. When nothing was changed since the last render (the figure is not stale, and the
   canvas buffer is the one rendered into, at the same size and dpi), the last picture and
   its PNG are sent again (``reused``) instead of being rendered and encoded anew.
4. **PNG encoding.** The frame ipympl sends is encoded by :func:`encode_png`: unfiltered
   rows, zlib level 1, and RGB when nothing is transparent (Pillow's encoder searches five
   row filters and took twice the time for a larger file).
Putting a draw off while more page messages waited (so that the newest value wins) was
tried and taken out: it left lesson 4's drags without a repaint for tens of seconds in
Chromium. ipywidgets already sends a control's newest value only once the kernel is idle.

Saving (``savefig``, GIFs) never goes through the cache: matplotlib draws every artist.
``LESSONS_FAST_DRAW=0`` in the environment turns all three off (ipympl's own path), to
compare or to rule the painter out when something looks wrong.
"""

from __future__ import annotations

import math
import struct
import threading
import time
import weakref
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure, SubFigure
from matplotlib.ticker import FixedLocator, NullLocator
from matplotlib.transforms import Bbox

from ... import validate as check
from . import ENABLED
from .textcache import CACHE as TEXT_CACHE

#: zlib level for the PNG frames sent to the page (6 is zlib's and Pillow's default).
PNG_COMPRESS_LEVEL = 1

#: The page's pointer-move rate limit (``canvas.pan_zoom_throttle``, ms): ipympl's default
#: as the least, at most 4 moves a second, and how much above a frame's CPU cost it is set
#: (in the page the kernel shares the cores with the browser: a move's CPU time there was
#: 1.2 to 1.5 times what it is alone).
THROTTLE_MS_RANGE = (33.0, 250.0)
THROTTLE_MARGIN = 1.5
#: The least of that limit where the page draws a figure's drags (``core.livedrag``): a
#: move each display refresh at 60 Hz.
LIVE_THROTTLE_MS = 16.0

DynamicSpec = Iterable[Artist] | Callable[[], Iterable[Artist]] | None
_KEEP = object()


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC of type and data."""
    crc = zlib.crc32(data, zlib.crc32(tag))
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)


def _rows_plain(pixels: np.ndarray, channels: int) -> np.ndarray:
    """The PNG scanlines of ``pixels``: a filter byte 0, then each pixel's first
    ``channels`` bytes."""
    h, w, _ = pixels.shape
    rows = np.empty((h, 1 + w * channels), np.uint8)
    rows[:, 0] = 0                                     # every row: filter type None
    rows[:, 1:].reshape(h, w, channels)[...] = pixels[:, :, :channels]
    return rows


def _rows_rgb_fast(pixels: np.ndarray) -> np.ndarray:
    """:func:`_rows_plain` for RGB, many times faster (see docs/performance.md): each
    pixel is copied as one 4-byte word to 3 bytes past the last, so its alpha lands where
    the next pixel's red then goes. That needs the words written in order along a row:
    :data:`_FAST_RGB` checks it once."""
    h, w, _ = pixels.shape
    stride = 1 + 3 * w
    out = np.empty(h * stride + 1, np.uint8)           # + 1: the last alpha spills over
    words = np.ascontiguousarray(pixels).view("<u4").reshape(h, w)
    np.ndarray((h, w), "<u4", buffer=out, offset=1, strides=(stride, 3))[...] = words
    rows = out[:-1].reshape(h, stride)
    rows[:, 0] = 0                                     # where the row before spilled
    return rows


def _fast_rgb_works() -> bool:
    probe = np.random.default_rng(0).integers(0, 256, (3, 37, 4), dtype=np.uint8)
    return np.array_equal(_rows_rgb_fast(probe), _rows_plain(probe, 3))


#: Whether this numpy writes overlapping words in order (else the plain copy is used).
_FAST_RGB = _fast_rgb_works()


def encode_png(pixels: np.ndarray, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """PNG bytes of an ``(h, w, 4)`` uint8 RGBA array; RGB when every pixel is opaque.

    Written here rather than by Pillow, whose encoder tries five filters on every row and
    keeps the best, a search that cost more than the compression (see docs/performance.md).
    Rows are stored unfiltered (filter type 0): a chart is long runs of equal pixels, which
    deflate finds anyway."""
    if not isinstance(pixels, np.ndarray):
        raise ValueError(f"encode_png takes an (h, w, 4) uint8 array, not "
                         f"{check.describe(pixels)}")
    if pixels.ndim != 3 or pixels.shape[2] != 4 or pixels.dtype != np.uint8:
        raise ValueError(f"encode_png takes an (h, w, 4) uint8 array, not {pixels.shape} "
                         f"{pixels.dtype}")
    compress_level = check.integer(compress_level, "compress_level", lo=0, hi=9)
    h, w, _ = pixels.shape
    channels = 3 if (pixels[:, :, 3] == 255).all() else 4
    rows = (_rows_rgb_fast(pixels) if channels == 3 and _FAST_RGB
            else _rows_plain(pixels, channels))
    header = struct.pack(">IIBBBBB", w, h, 8, 2 if channels == 3 else 6, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _png_chunk(b"IHDR", header),
                     _png_chunk(b"IDAT", zlib.compress(rows, compress_level)),
                     _png_chunk(b"IEND", b"")))


def _ticks_shown(axis: Axis) -> bool:
    """False when neither locator of ``axis`` can put a tick anywhere (``set_xticks([])``
    or a NullLocator), so that nothing of it depends on the limits."""
    return not all(isinstance(loc, NullLocator) or (isinstance(loc, FixedLocator)
                                                    and len(loc.locs) == 0)
                   for loc in (axis.get_major_locator(), axis.get_minor_locator()))


def _projects_itself(artist: Artist) -> bool:
    """An mplot3d artist (Line3D, Text3D, Poly3DCollection...): its axes' draw projects
    it, so it cannot be drawn alone over a background. A 3D axes itself can (its draw
    projects what it holds)."""
    return type(artist).__module__.startswith("mpl_toolkits.mplot3d") \
        and not isinstance(artist, Axes)


def choose_throttle_ms(cost_seconds: float, low: float | None = None) -> float:
    """The ms between two pointer moves the page may send, for moves that each cost the
    kernel ``cost_seconds``: the cost with a margin, within :data:`THROTTLE_MS_RANGE` (its
    least replaced by ``low``, when given, from 1 ms up to its most)."""
    cost_seconds = check.real(cost_seconds, "a frame's cost", lo=0.0, unit="s")
    least, high = THROTTLE_MS_RANGE
    if low is not None:
        least = check.real(low, "the least ms between pointer moves", lo=1.0, hi=high,
                           unit="ms")
    return float(min(high, max(least, math.ceil(cost_seconds * 1000.0 * THROTTLE_MARGIN))))


def _check_dynamic(spec) -> None:
    """``spec`` as :data:`DynamicSpec` allows (a function is checked when it is called)."""
    if spec is None or callable(spec):
        return
    items = spec if isinstance(spec, list | tuple) else None
    flat = [b for a in items or () for b in (a if isinstance(a, list | tuple) else [a])]
    if items is None or not all(isinstance(a, Artist) or a is None for a in flat):
        raise ValueError("dynamic must be None, a list of the figure's artists (or of lists of "
                         f"them) or a function returning one, got {check.describe(spec)}")


class Painter:
    """The drawing path of one ipympl figure; install it once with :meth:`attach`.

    ``dynamic`` is a list of artists, or a callable returning one (called at each draw, so
    the list may follow the app's state); ``None`` or empty means every draw is a full
    render. Attributes for tests and benchmarks: ``full_draws``, ``fast_draws``,
    ``partial_draws``, ``reused`` (draws that found nothing changed), ``sent``.
    """

    def __init__(self, fig: Figure, dynamic: DynamicSpec = None) -> None:
        if not isinstance(fig, Figure):
            raise ValueError(f"a Painter takes a matplotlib Figure, got {check.describe(fig)}")
        _check_dynamic(dynamic)
        self._fig = weakref.ref(fig)
        self.dynamic = dynamic
        self._background = None
        self._base = None
        self._key = None
        self._static: dict = {}
        self._cached_dynamic: dict = {}   # the artists left out of it, by id
        self._boxes: dict = {}
        self._frames: dict = {}       # per axes: (what its frame's box depends on, the box)
        self._figure_boxes: list = []
        self.full_draws = 0
        self.fast_draws = 0
        self.partial_draws = 0
        self.reused = 0
        self.sent = 0
        self._drawn = None           # (renderer, w, h, dpi, crc) of the last render, or None
        self._png = None             # (the render it encodes, its PNG bytes)
        self._renders = 0
        self._held = 0
        self._missed = False
        self._paused = False
        # JupyterLab sends comm messages over kernel subshells (a thread each): a page's
        # "draw" may come while the kernel's own loop (Lock it, Play) renders on the main
        # thread. One render at a time: they share the buffer, the background and the artists.
        self._lock = threading.RLock()

    # -- installing -----------------------------------------------------------------------
    @classmethod
    def attach(cls, fig: Figure, dynamic: DynamicSpec = _KEEP) -> Painter:
        """Make ``fig.canvas.draw`` (and so every draw the page asks for) go through a
        painter, and its frames use the cheaper encoding. Idempotent: a second call
        returns the installed painter, with ``dynamic`` changed when it is given. ``fig``: a
        matplotlib Figure; ``dynamic``: None, a list or tuple of its artists (or of lists of
        them), or a function returning one; a ValueError for anything else."""
        if not isinstance(fig, Figure):
            raise ValueError(f"attach() takes a matplotlib Figure, got {check.describe(fig)}")
        if dynamic is not _KEEP:
            _check_dynamic(dynamic)
        canvas = fig.canvas
        painter = getattr(canvas, "_lesson_painter", None)
        if painter is None:
            painter = cls(fig, None if dynamic is _KEEP else dynamic)
            canvas._lesson_painter = painter
            if ENABLED:
                canvas.draw = painter._canvas_draw
                canvas.draw_idle = painter._canvas_draw_idle   # apps' own draw_idle calls too
                if hasattr(canvas, "handle_event"):
                    canvas.handle_event = painter._handle_event
                if hasattr(canvas, "get_diff_image"):
                    canvas.get_diff_image = painter._diff_image
        elif dynamic is not _KEEP and dynamic != painter.dynamic:
            painter.dynamic = dynamic
            painter.invalidate()
        return painter

    @property
    def figure(self) -> Figure:
        fig = self._fig()
        if fig is None:
            raise RuntimeError("the figure of this painter no longer exists")
        return fig

    @property
    def page_attached(self) -> bool:
        """True once a browser view of the canvas has said it is ready for images."""
        return getattr(self.figure.canvas, "syncing_data_url", True) is False

    # -- drawing ----------------------------------------------------------------------------
    def request(self) -> None:
        """What an app calls after changing artists: draw and send now when a page shows
        the figure; otherwise (tests, nbconvert) the usual ``draw_idle``."""
        if self._paused:
            return
        if self._held:
            self._missed = True
        elif ENABLED and self.page_attached:
            self.draw_now()
        else:
            self.figure.canvas.draw_idle()

    @contextmanager
    def hold(self, send: bool = True) -> Iterator[Painter]:
        """Requests inside are put off to one at the end (e.g. while a GIF is written, whose
        frames the page need not see); with ``send=False`` they are dropped (the caller
        leaves the artists as they were: recording Play's frames for the page)."""
        send = check.flag(send, "send")
        self._held += 1
        missed = self._missed
        try:
            yield self
        finally:
            self._held -= 1
            if not send:
                self._missed = missed
            if not self._held and self._missed:
                self._missed = False
                self.request()

    @property
    def paused(self) -> bool:
        return self._paused

    @paused.setter
    def paused(self, value: bool) -> None:
        """While True, requests (and ``draw_idle``) draw nothing: the page draws the figure's
        moving parts itself (a drag drawn by the page, ``core.livedrag``), and the caller
        asks for a draw once it is set back to False."""
        self._paused = check.flag(value, "paused")

    def draw_now(self) -> None:
        """Render (fast when it can) and send the frame to every view of the canvas."""
        self.figure.canvas.draw()

    def invalidate(self) -> None:
        """Forget the cached background (the next draw is a full render)."""
        self._background = None
        self._key = None
        self._static = {}
        self._cached_dynamic = {}
        self._frames = {}
        self._drawn = None

    def _unchanged(self) -> bool:
        """True when the canvas buffer still holds the picture the figure would render:
        nothing marked stale since the last render, the same buffer, size and dpi, and no
        other draw into it since (``savefig`` at the canvas's own dpi draws into it: its
        checksum tells, for about 1 ms)."""
        fig = self.figure
        if self._drawn is None or fig.stale:
            return False
        return self._drawn == self._buffer_key()

    def _render_and_remember(self) -> None:
        """:meth:`render`, and note what the buffer then holds (for :meth:`_unchanged`)."""
        self._drawn = None
        self.render()
        self._renders += 1
        self._drawn = self._buffer_key()

    def _buffer_key(self) -> tuple:
        renderer = self.figure.canvas.get_renderer()
        crc = zlib.crc32(memoryview(renderer.buffer_rgba()).cast("B"))
        return (renderer, renderer.width, renderer.height, self.figure.dpi, crc)

    def render(self) -> bool:
        """Render into the canvas's Agg buffer without sending; True unless it was a full
        render (``full_draws``): a fast one restores the cached background and draws the
        dynamic artists (``fast_draws``); a partial one first re-renders just the axes whose
        background changed (other limits, a static artist set), when they overlap nothing
        else (``partial_draws``)."""
        fig = self.figure
        canvas = fig.canvas
        TEXT_CACHE.install(canvas.get_renderer())
        dynamic = self._dynamic_artists()
        if not dynamic:
            self.invalidate()
            FigureCanvasAgg.draw(canvas)
            self.full_draws += 1
            return False
        renderer = canvas.get_renderer()
        key = self._cache_key(renderer)
        dirty = self._dirty_axes(key, dynamic)
        if dirty is None:
            self._rebuild(renderer, dynamic)
            self.full_draws += 1
            return False
        pixels = np.asarray(renderer.buffer_rgba())
        pixels[...] = self._background
        if dirty:
            if not self._redraw_axes(renderer, pixels, dirty, dynamic):
                self._rebuild(renderer, dynamic)
                self.full_draws += 1
                return False
            self.partial_draws += 1
        else:
            self.fast_draws += 1
        self._draw_moving(renderer, dynamic)
        fig.stale = False
        return True

    def prepare_first_frame(self) -> None:
        """Render the figure (unless the buffer holds it already) and encode the PNG the
        page's first image will be, without sending anything: a pre-heated kernel does
        this before its student arrives, so their first image costs neither."""
        if not self._unchanged():
            self._render_and_remember()
        pixels = np.asarray(self.figure.canvas.get_renderer().buffer_rgba())
        self._png = (self._renders, encode_png(pixels))

    def background_without(self, artists: list[Artist]) -> np.ndarray:
        """The figure rendered in full without ``artists`` (a list of its artists), as an
        ``(h, w, 4)`` RGBA copy: the picture a page draws moving parts over. Renders into
        the canvas's buffer, so the cached background is forgotten and the next draw is a
        full one."""
        if not isinstance(artists, list | tuple) or not all(isinstance(a, Artist)
                                                            for a in artists):
            raise ValueError(f"background_without takes a list of artists, got "
                             f"{check.describe(artists)}")
        canvas = self.figure.canvas
        with self._lock:
            hidden = [a for a in {id(a): a for a in artists}.values() if not a.get_animated()]
            for artist in hidden:
                artist.set_animated(True)
            try:
                FigureCanvasAgg.draw(canvas)
                pixels = np.asarray(canvas.get_renderer().buffer_rgba()).copy()
            finally:
                for artist in hidden:
                    artist.set_animated(False)
                self.invalidate()
                self.figure.stale = True
        return pixels

    def frame_cost(self) -> float:
        """CPU seconds one frame of this figure costs this thread: a full Agg render and
        its PNG, the better of two (the first render of a figure also fills text and font
        caches). CPU time, not the clock's: a pre-heated kernel times it while Voila starts
        its other kernels, and the waits for a core then tripled the clock's figure. Leaves
        the background cached, so the page's first frame is a fast one."""
        canvas = self.figure.canvas
        best = math.inf
        for _ in range(2):
            start = time.thread_time()
            FigureCanvasAgg.draw(canvas)
            encode_png(np.asarray(canvas.get_renderer().buffer_rgba()))
            best = min(best, time.thread_time() - start)
        self.invalidate()
        self._render_and_remember()
        return best

    # -- internals ----------------------------------------------------------------------------
    def _canvas_draw_idle(self) -> None:
        """Replaces ``canvas.draw_idle``: with a page, the same as :meth:`request`;
        without one, ipympl's own (a "draw" event for a page that may come)."""
        if self.page_attached or self._held:
            self.request()
        else:
            type(self.figure.canvas).draw_idle(self.figure.canvas)

    def _handle_event(self, event):
        """Replaces ``canvas.handle_event`` (every message from the page): the draws its
        handlers ask for make one draw, at the end. A 3D orbit asks twice per pointer move
        (mplot3d, then the app re-placing its labels), so each move was drawn twice."""
        canvas = self.figure.canvas
        with self.hold():
            return type(canvas).handle_event(canvas, event)

    def _canvas_draw(self) -> None:
        """Replaces ``canvas.draw``: what ipympl's ``FigureCanvasWebAggCore.draw`` does,
        with :meth:`render` in place of the full Agg draw."""
        canvas = self.figure.canvas
        with self._lock:
            canvas._png_is_old = True
            try:
                if self._unchanged():
                    self.reused += 1
                else:
                    self._render_and_remember()
            finally:
                manager = getattr(canvas, "manager", None)
                if manager is not None and hasattr(manager, "refresh_all"):
                    manager.refresh_all()

    def _dynamic_artists(self) -> list[Artist]:
        spec = self.dynamic
        if spec is None:
            return []
        artists = spec() if callable(spec) else spec
        if artists is None:
            return []
        flat = {}                              # each once: drawn twice, edges darken
        for a in artists:
            for b in (a if isinstance(a, list | tuple) else [a]):
                flat.setdefault(id(b), b)
        return self.drawing_order(list(flat.values()))

    def drawing_order(self, artists: list[Artist]) -> list[Artist]:
        """Of ``artists`` (a list), those of this figure that can be drawn alone over a
        background, each once, in the order the painter draws them (the order a full draw
        would): by axes, then zorder, then their place among the axes' children. Left out:
        None, animated artists and mplot3d's own (its axes projects those as it draws; a 3D
        axes itself stays)."""
        if not isinstance(artists, list | tuple) or not all(
                a is None or isinstance(a, Artist) for a in artists):
            raise ValueError(f"drawing_order takes a list of artists, got "
                             f"{check.describe(artists)}")
        fig = self.figure
        axes_order = {id(ax): i for i, ax in enumerate(fig.axes)}
        # artists of this figure, not animated already, and not mplot3d's own (a 3D axes
        # projects those as it draws; a plain 2D artist of a 3D axes may move):
        # anything else stays in the background
        chosen = [a for a in {id(a): a for a in artists}.values()
                  if a is not None and a.get_figure(root=True) is fig and not a.get_animated()
                  and not _projects_itself(a)]

        # as the figure draws them: axes by axes, then by zorder, equal ones in the order
        # of the axes' children (so that two markers at one spot cover each other alike)
        places: dict = {}
        for ax in {id(a.axes): a.axes for a in chosen if a.axes is not None}.values():
            places.update((id(c), i) for i, c in enumerate(ax.get_children()))

        def order(a: Artist):
            ax = a.axes
            return (axes_order.get(id(ax), len(axes_order)) if ax is not None else -1,
                    a.get_zorder(), places.get(id(a), 0))

        return sorted(chosen, key=order)

    def _cache_key(self, renderer) -> dict:
        """What the background depends on besides its artists' stale flags: per axes (by
        id) its limits, place, 3D view, tickers and labels; ``None`` for the canvas."""
        fig = self.figure
        key: dict = {None: (renderer.width, renderer.height, fig.dpi,
                            tuple(id(ax) for ax in fig.axes))}
        for ax in fig.axes:
            key[id(ax)] = self._cache_key_of(ax)
        return key

    @staticmethod
    def _cache_key_of(ax: Axes) -> tuple:
        """One axes' part of :meth:`_cache_key`, its limits first."""
        view3d = tuple(getattr(ax, k, None) for k in ("elev", "azim", "roll"))
        ticking = tuple((id(axis.major.locator), id(axis.major.formatter),
                         id(axis.minor.locator), id(axis.minor.formatter),
                         axis.get_visible(), axis.label.get_text(),
                         axis.label.get_visible(), axis.label.get_color(),
                         axis.label.get_fontsize())
                        for axis in ax._axis_map.values())
        # titles move at every draw (so are always stale): watch what they say
        titles = tuple((t.get_text(), t.get_visible(), t.get_color(), t.get_fontsize())
                       for t in (ax.title, ax._left_title, ax._right_title))
        return (tuple(ax.viewLim.bounds), tuple(ax._position.bounds), view3d,
                ax.get_visible(), ticking, titles)

    def _dirty_axes(self, key: dict, dynamic: list[Artist]) -> list[Axes] | None:
        """The axes whose background must be re-rendered; None when the whole figure must.
        An artist that joined the dynamic ones since the cache was made is in its pixels;
        one that left them is missing there: either way its axes is re-rendered."""
        if self._background is None or self._key is None or key[None] != self._key[None]:
            return None
        if any(a.stale for a in self._static.get(None, ())):
            return None                     # a figure-level artist changed
        now = {id(a): a for a in dynamic}
        was = self._cached_dynamic
        switched = {id(a.axes) if a.axes is not None else None
                    for i, a in (*now.items(), *was.items()) if (i in now) != (i in was)}
        if None in switched:
            return None                     # a figure-level artist joined or left
        return [ax for ax in self.figure.axes
                if id(ax) in switched or key[id(ax)] != self._key[id(ax)]
                or any(a.stale for a in self._static.get(id(ax), ()))]

    def _box(self, bbox, renderer) -> tuple[int, int, int, int] | None:
        """Rows and columns ``(r0, r1, c0, c1)`` of the buffer that ``bbox`` (display
        coordinates, y up) covers, with a margin for antialiasing; None if empty."""
        if bbox is None or not np.all(np.isfinite(bbox.extents)):
            return None
        h, w = int(renderer.height), int(renderer.width)
        x0, y0, x1, y1 = bbox.extents
        r0, r1 = max(0, int(h - y1) - 3), min(h, int(np.ceil(h - y0)) + 3)
        c0, c1 = max(0, int(x0) - 3), min(w, int(np.ceil(x1)) + 3)
        return (r0, r1, c0, c1) if r0 < r1 and c0 < c1 else None

    def _axes_box(self, ax: Axes, renderer):
        """The buffer box of an axes with its ticks, labels, titles and whatever it holds
        that is not clipped to it (artists clipped to the axes cannot reach further): what
        ``ax.get_tightbbox`` gives for those artists, with the frame's part (axes, ticks,
        labels, titles) kept while what it depends on stays the same (a close-up that
        follows the car without ticks: its limits change, its frame does not). Animated
        artists are left out: ``ax.draw`` skips them (lesson 2's titles and legend are
        pasted by a figure-level layer; the moving ones are drawn over the background)."""
        loose = [a for a in ax.get_children()
                 if a.get_visible() and not a.get_animated() and not isinstance(a, Axis)
                 and a is not ax.patch and a not in ax.spines.values()
                 and not (a.get_clip_on() and (a.get_clip_box() is not None
                                               or a.get_clip_path() is not None))]
        depends = self._frame_depends(ax, renderer)
        known = self._frames.get(id(ax))
        if known is not None and known[0] == depends:
            frame = known[1]
        else:
            frame = ax.get_tightbbox(renderer, bbox_extra_artists=[])
            self._frames[id(ax)] = (depends, frame)
        if frame is None:
            return None
        boxes = [frame] + [b for b in (a.get_tightbbox(renderer) for a in loose)
                           if b is not None and b._is_finite()]
        return self._box(Bbox.union([b for b in boxes if b.width != 0 or b.height != 0]),
                         renderer)

    def _frame_depends(self, ax: Axes, renderer) -> tuple:
        """What the box of an axes' frame depends on: the canvas, the axes' cache key, but
        not its limits when no axis of it shows a tick (nothing there moves with them)."""
        key = self._cache_key_of(ax)
        shown = [axis for axis in ax._axis_map.values() if ax.axison and axis.get_visible()]
        if not any(_ticks_shown(axis) for axis in shown):
            key = key[1:]
        return (renderer.width, renderer.height, self.figure.dpi, key)

    @staticmethod
    def _overlap(a, b) -> bool:
        return a is not None and b is not None and a[0] < b[1] and b[0] < a[1] \
            and a[2] < b[3] and b[2] < a[3]

    def _measure(self, renderer) -> None:
        """Where each visible axes (with its labels) and each figure-level artist is."""
        fig = self.figure
        self._boxes = {}
        for ax in fig.axes:
            if ax.get_visible():
                self._boxes[id(ax)] = self._axes_box(ax, renderer)
        self._figure_boxes = [self._box(a.get_window_extent(renderer), renderer)
                              for a in fig.get_children()
                              if a is not fig.patch and not isinstance(a, Axes)
                              and a.get_visible() and not a.get_animated()]

    def _redraw_axes(self, renderer, pixels, dirty: list[Axes], dynamic) -> bool:
        """Re-render the background of ``dirty`` axes in place; False when they overlap
        another axes or a figure-level artist (then only a full render is right)."""
        fig = self.figure
        clean = [self._boxes.get(id(ax)) for ax in fig.axes
                 if ax not in dirty and ax.get_visible()]
        others = clean + self._figure_boxes
        for ax in dirty:
            old = self._boxes.get(id(ax))
            if any(self._overlap(old, o) for o in others):
                return False
        moving = [a for a in dynamic if a.axes in dirty]
        for artist in moving:
            artist.set_animated(True)
        try:
            # every old box first: an axes shown where a hidden one was (lesson 3's views
            # share a place) must not be wiped by the hidden one's clearing after it is drawn
            for ax in dirty:
                old = self._boxes.get(id(ax))
                if old is not None:
                    r0, r1, c0, c1 = old
                    pixels[r0:r1, c0:c1] = self._base[r0:r1, c0:c1]
            for ax in dirty:
                if ax.get_visible():
                    locator = ax.get_axes_locator()
                    ax.apply_aspect(locator(ax, renderer) if locator else None)
                    ax.draw(renderer)
                    new = self._axes_box(ax, renderer)
                    if any(self._overlap(new, o) for o in others):
                        return False
                    self._boxes[id(ax)] = new
                else:
                    self._boxes.pop(id(ax), None)
        finally:
            for artist in moving:
                artist.set_animated(False)
        self._background[...] = pixels
        if self._cached_dynamic.keys() != {id(a) for a in dynamic}:
            self._remember_static(dynamic, dirty)     # which artists it holds changed
        else:                                         # the same ones, all drawn now
            for ax in dirty:
                for artist in self._static.get(id(ax), ()):
                    artist._stale = False
        self._key = self._cache_key(renderer)
        return True

    def _remember_static(self, dynamic: list[Artist], axes: list[Axes] | None = None) -> None:
        """Note, by axes, the artists the background holds (all but ``dynamic``) and mark
        them drawn: a later setter marks one stale again. Containers turn stale whenever a
        child does, an axis whenever its limits are set (even to the same values), its ticks
        and label at every draw: the cache key covers limits, tickers and what labels say.
        With ``axes``, only theirs are noted again (the rest of the figure is unchanged)."""
        fig = self.figure
        roots = [fig] if axes is None else axes
        skip = {id(a) for a in dynamic}
        for root in roots:
            for axis in root.findobj(lambda a: isinstance(a, Axis)):
                skip.update(id(a) for a in axis.findobj())
        for ax in fig.axes if axes is None else axes:
            skip.update(id(t) for t in (ax.title, ax._left_title, ax._right_title))
        if axes is None:
            self._static = {}
        else:
            self._static.update((id(ax), []) for ax in axes)
        containers = Axes | Figure | SubFigure
        for root in roots:
            for artist in root.findobj(include_self=False):
                owner = artist.axes
                if id(artist) in skip or isinstance(artist, containers) \
                        or (axes is not None and owner not in axes):
                    continue
                artist._stale = False           # invisible ones are never drawn: unstale them
                self._static.setdefault(id(owner) if owner is not None else None,
                                        []).append(artist)
        self._cached_dynamic = {id(a): a for a in dynamic}

    def _rebuild(self, renderer, dynamic: list[Artist]) -> None:
        fig = self.figure
        for artist in dynamic:
            artist.set_animated(True)          # left out of the figure's normal draw
        try:
            axes = [ax for ax in fig.axes if not ax.get_animated()]
            for ax in axes:                    # the base: the figure without any axes
                ax.set_animated(True)
            try:
                FigureCanvasAgg.draw(fig.canvas)
            finally:
                for ax in axes:
                    ax.set_animated(False)
            self._base = np.asarray(renderer.buffer_rgba()).copy()
            FigureCanvasAgg.draw(fig.canvas)    # the background: everything else
            self._background = np.asarray(renderer.buffer_rgba()).copy()
            self._remember_static(dynamic)
            self._measure(renderer)             # (of the background: moving ones left out)
        finally:
            for artist in dynamic:
                artist.set_animated(False)
        self._draw_moving(renderer, dynamic)
        self._key = self._cache_key(renderer)  # drawing may have settled the layout
        fig.stale = False

    @staticmethod
    def _draw_moving(renderer, dynamic: list[Artist]) -> None:
        """Draw the moving artists over the background, leaving out those of a hidden axes
        (a full draw skips a hidden axes and everything in it)."""
        for artist in dynamic:
            if artist.axes is None or artist.axes.get_visible():
                artist.draw(renderer)

    def _diff_image(self):
        """``FigureCanvasWebAggCore.get_diff_image`` with :func:`encode_png`."""
        canvas = self.figure.canvas
        if not canvas._png_is_old:
            return None
        renderer = canvas.get_renderer()
        pixels = np.asarray(renderer.buffer_rgba())
        buff = pixels.view(np.uint32).squeeze(2)
        # Always a full frame. Frames are sent without waiting for the page to ask, so two
        # can arrive before the first has loaded; the page then shows only the second. A
        # difference image dropped that way leaves stale pixels behind (ghost markers seen
        # in lesson 4's drags); a full frame replaces everything.
        canvas.set_image_mode("full")
        canvas._last_buff = buff.copy()
        canvas._force_full = False
        canvas._png_is_old = False
        self.sent += 1
        if self._drawn is None or self._png is None or self._png[0] != self._renders:
            self._png = (self._renders, encode_png(pixels))
        return self._png[1]
