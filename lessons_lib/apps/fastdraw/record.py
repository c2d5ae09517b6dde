"""Record what matplotlib draws for an app's moving artists, as primitives a page can replay.

The browser's Play (issue 43) draws the moving parts of a figure in the page, over a
background picture of everything else. So that the page draws what the kernel would, the
geometry is not worked out a second time: the same artists the painter draws over its
cached background are drawn, the same way, into a :class:`Recorder`, a matplotlib renderer
that keeps each primitive in the canvas's pixels instead of rasterizing it:

- paths (lines, polygons, markers, and each member of a path collection: matplotlib's own
  fallbacks break markers and collections into paths): the segments after every transform,
  face and edge colour with alpha, line width, dashes, cap and join in pixels, and the clip
  rectangle;
- text: the string, the left end of its baseline, angle, size in pixels, colour, family,
  weight and slant (each line of a label is a call of its own, already laid out by
  matplotlib with the Agg renderer's metrics).

Coordinates are canvas pixels with y down, as the page's ``<canvas>`` counts them.
:func:`pack` puts the frames of an animation into a few flat arrays (float32 vertices, byte
op codes, a string table) within :data:`LIMITS`, and :func:`replay` draws a packed frame
back through an Agg renderer: the tests compare that with the painter's own frame.

What the recorder cannot express (a clip path, a hatch, an image, math text) is counted in
``FrameRecord.unsupported``; an animation with any is not played by the page (the kernel
plays it).
"""

from __future__ import annotations

import struct
import weakref
from dataclasses import dataclass, field

import numpy as np
from matplotlib import font_manager
from matplotlib.artist import Artist
from matplotlib.backend_bases import GraphicsContextBase, RendererBase
from matplotlib.path import Path
from matplotlib.transforms import Bbox, IdentityTransform

from ... import validate as check

#: What a primitive is: a path, or a line of text.
OP_PATH, OP_TEXT = 1, 2
#: Floats kept per primitive (see :data:`PATH_FIELDS` and :data:`TEXT_FIELDS`).
PROPS = 18
#: A path's fields: fill and stroke colours (alpha 0: none), width, cap, join, clip
#: rectangle (x, y, w, h; w < 0: none), how many dash lengths (the first is the offset),
#: how many segments.
PATH_FIELDS = ("fill_r", "fill_g", "fill_b", "fill_a", "stroke_r", "stroke_g", "stroke_b",
               "stroke_a", "width", "cap", "join", "clip_x", "clip_y", "clip_w", "clip_h",
               "dashes", "segments", "spare")
#: A text line's fields: colour, size in pixels, angle (degrees, anticlockwise), where its
#: baseline starts, its string and font in the tables, weight (100-900), slant, clip.
TEXT_FIELDS = ("r", "g", "b", "a", "size", "angle", "x", "y", "string", "font", "weight",
               "clip_x", "clip_y", "clip_w", "clip_h", "italic", "spare1", "spare2")
#: Segment codes (matplotlib's) and the vertices each carries.
SEGMENT_VERTICES = {Path.MOVETO: 1, Path.LINETO: 1, Path.CURVE3: 2, Path.CURVE4: 3,
                    Path.CLOSEPOLY: 0}
CAPS = ("butt", "round", "projecting")
_PLAIN = (Path.MOVETO, Path.LINETO, Path.CLOSEPOLY)
JOINS = ("miter", "round", "bevel")
#: Fields of the header in front of a packed animation (:meth:`Animation.to_bytes`).
HEADER = struct.Struct("<4sIIIIIII")
MAGIC = b"LMA1"


@dataclass(frozen=True)
class Limits:
    """Hard bounds of what is recorded and sent (a ValueError past any of them)."""
    primitives: int = 4000          #: per frame
    vertices: int = 60_000          #: per frame
    frame_bytes: int = 1_500_000    #: per frame, packed
    frames: int = 2401              #: per animation (lesson 3: 30 s at 75 a second)
    animation_bytes: int = 24_000_000   #: per animation, packed
    strings: int = 20_000           #: distinct strings per animation
    string_chars: int = 200         #: per string


    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            check.integer(value, f"limits.{name}", lo=1, hi=1_000_000_000)


LIMITS = Limits()
#: The recorder of each Agg renderer (see :func:`record_frame`).
_RECORDERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: Bytes a primitive, a segment, a vertex and a dash length take once packed.
_PRIM_BYTES, _SEG_BYTES, _VERT_BYTES, _DASH_BYTES = 1 + 4 * PROPS, 1, 8, 4


@dataclass
class FrameRecord:
    """One frame's primitives, as recorded: chunks of arrays (:func:`pack` joins them)."""
    # uint8 arrays: OP_PATH / OP_TEXT
    kinds: list = field(default_factory=list, init=False)
    # float arrays (n, PROPS)
    props: list = field(default_factory=list, init=False)
    # uint8 arrays of segment codes
    codes: list = field(default_factory=list, init=False)
    # float arrays (n, 2)
    verts: list = field(default_factory=list, init=False)
    # float arrays
    dashes: list = field(default_factory=list, init=False)
    # text, by the "string" field (local)
    strings: list = field(default_factory=list, init=False)
    # (family, file), by "font" (local)
    fonts: list = field(default_factory=list, init=False)
    unsupported: int = field(default=0, init=False)
    primitive_count: int = field(default=0, init=False)
    segment_count: int = field(default=0, init=False)
    vertex_count: int = field(default=0, init=False)
    dash_count: int = field(default=0, init=False)

    def _add(self, kinds, props, codes=(), verts=None, dashes=()) -> None:
        """Append primitives (``kinds`` and their ``props`` rows) with their segments,
        vertices and dash lengths."""
        kinds = np.asarray(kinds, np.uint8).reshape(-1)
        self.kinds.append(kinds)
        self.props.append(np.asarray(props, np.float64).reshape(-1, PROPS))
        self.codes.append(np.asarray(codes, np.uint8).reshape(-1))
        self.verts.append(np.zeros((0, 2)) if verts is None
                          else np.asarray(verts, float).reshape(-1, 2))
        self.dashes.append(np.asarray(dashes, np.float64).reshape(-1))
        self.primitive_count += len(kinds)
        self.segment_count += len(self.codes[-1])
        self.vertex_count += len(self.verts[-1])
        self.dash_count += len(self.dashes[-1])

    def nbytes(self) -> int:
        return (self.primitive_count * _PRIM_BYTES + self.segment_count * _SEG_BYTES
                + self.vertex_count * _VERT_BYTES + self.dash_count * _DASH_BYTES
                + sum(len(s.encode()) for s in self.strings))


def _clip_fields(gc, height: float) -> list[float]:
    box = gc.get_clip_rectangle()
    if box is None:
        return [0.0, 0.0, -1.0, -1.0]
    x0, y0, x1, y1 = box.extents
    return [x0, height - y1, x1 - x0, y1 - y0]


class Recorder(RendererBase):
    """A matplotlib renderer that records primitives (see the module's docstring).

    ``like``: the Agg renderer of the figure's canvas, whose size, dpi and text metrics it
    takes (so text is laid out exactly as Agg lays it out); ``limits``: the bounds a frame
    must keep (a ValueError as soon as one is passed, so a frame is never recorded past
    them)."""

    def __init__(self, like, limits: Limits = LIMITS) -> None:
        super().__init__()
        for name in ("width", "height", "dpi", "get_text_width_height_descent"):
            if not hasattr(like, name):
                raise ValueError(f"a Recorder copies an Agg renderer, got {check.describe(like)}")
        self._like = like
        self.width, self.height, self.dpi = like.width, like.height, like.dpi
        self.limits = check.instance(limits, "limits", Limits)
        self.frame = FrameRecord()
        self._string_index: dict = {}
        self._font_index: dict = {}

    def reset(self) -> None:
        """Start a new frame."""
        self.frame = FrameRecord()
        self._string_index = {}
        self._font_index = {}

    def alone(self, artist: Artist) -> FrameRecord:
        """``artist``'s primitives, recorded apart from the frame being recorded."""
        check.instance(artist, "artist", Artist)
        kept = self.frame, self._string_index, self._font_index
        self.reset()
        try:
            artist.draw(self)
            return self.frame
        finally:
            self.frame, self._string_index, self._font_index = kept

    def paste(self, record: FrameRecord) -> None:
        """Add the primitives of ``record`` (from :meth:`alone`) to the frame, within its
        bounds; its texts' strings and fonts are the frame's own."""
        check.instance(record, "record", FrameRecord)
        frame, lim = self.frame, self.limits
        if frame.primitive_count + record.primitive_count > lim.primitives:
            raise ValueError(f"a frame may hold at most {lim.primitives} primitives")
        self._check_room(record.vertex_count)
        at_string, at_font = TEXT_FIELDS.index("string"), TEXT_FIELDS.index("font")
        for kinds, props, codes, verts, dashes in zip(record.kinds, record.props, record.codes,
                                                      record.verts, record.dashes, strict=True):
            texts = kinds == OP_TEXT
            if texts.any():
                props = props.copy()
                props[texts, at_string] = [
                    self._index(self._string_index, frame.strings, record.strings[int(i)])
                    for i in props[texts, at_string]]
                props[texts, at_font] = [
                    self._index(self._font_index, frame.fonts, record.fonts[int(i)])
                    for i in props[texts, at_font]]
            frame._add(kinds, props, codes, verts, dashes)
        frame.unsupported += record.unsupported

    @staticmethod
    def _index(index: dict, items: list, item) -> int:
        """``item``'s place in ``items`` (added at the end when new)."""
        at = index.setdefault(item, len(items))
        if at == len(items):
            items.append(item)
        return at

    # -- what artists ask a renderer ------------------------------------------------------
    def get_canvas_width_height(self):
        return self.width, self.height

    def points_to_pixels(self, points):
        return points * self.dpi / 72

    def get_text_width_height_descent(self, s, prop, ismath):
        return self._like.get_text_width_height_descent(s, prop, ismath)

    def flipy(self):
        return self._like.flipy()

    def new_gc(self):
        return GraphicsContextBase()

    def start_filter(self):            # an agg_filter: drawn without it, and counted
        self.frame.unsupported += 1

    def stop_filter(self, filter_func):
        pass

    # -- recording -----------------------------------------------------------------------
    def _check_room(self, vertices: int) -> None:
        frame, lim = self.frame, self.limits
        if frame.primitive_count >= lim.primitives:
            raise ValueError(f"a frame may hold at most {lim.primitives} primitives")
        if frame.vertex_count + vertices > lim.vertices:
            raise ValueError(f"a frame may hold at most {lim.vertices} vertices")

    def _segments(self, path, transform) -> tuple[list[int], np.ndarray]:
        """A path's segment codes and vertices in display pixels (y up)."""
        codes, points = [], []
        for vertices, code in path.iter_segments(transform, remove_nans=True, simplify=False,
                                                 curves=True):
            n = SEGMENT_VERTICES.get(int(code))
            if n is None:
                continue
            codes.append(int(code))
            if n:
                points.append(np.asarray(vertices, float).reshape(-1, 2)[-n:])
        return codes, (np.concatenate(points) if points else np.zeros((0, 2)))

    def _style(self, gc, rgbFace) -> tuple[list[float], list[float]]:
        """A path's fields but its segment count, and its dash lengths, from ``gc``."""
        if gc.get_hatch() is not None or gc.get_clip_path()[0] is not None:
            self.frame.unsupported += 1
        # colours as Agg takes them: the edge's from the context (with a forced alpha in
        # it); the face's own alpha unless the context forces one or the face has none
        stroke = list(gc.get_rgb())
        width = self.points_to_pixels(gc.get_linewidth())
        if rgbFace is None:
            fill = [0.0, 0.0, 0.0, 0.0]
        else:
            fill = list(rgbFace)
            if gc.get_forced_alpha() or len(fill) == 3:
                fill = fill[:3] + [gc.get_alpha()]
        if width <= 0:
            stroke[3] = 0.0
        offset, dash = gc.get_dashes()
        dashes = [] if dash is None or stroke[3] == 0 else \
            [self.points_to_pixels(offset or 0.0), *(self.points_to_pixels(d) for d in dash)]
        props = [*fill, *stroke, width, CAPS.index(gc.get_capstyle()),
                 JOINS.index(gc.get_joinstyle()), *_clip_fields(gc, self.height),
                 len(dashes), 0.0, 0.0]
        return props, dashes

    def draw_path(self, gc, path, transform, rgbFace=None):
        line = rgbFace is None and gc.get_hatch() is None and _is_polyline(path)
        if line:
            # as Agg strokes a line: cut at the canvas's edge (1 px out), each re-entry a new
            # subpath (its dashes start again there); a solid one also without the runs
            # wholly outside its clip rectangle (a close-up's part of a long road)
            codes, verts = _clip_polyline(
                path, transform, (self.width, self.height),
                None if gc.get_dashes()[1] is not None else gc.get_clip_rectangle(),
                4 * self.points_to_pixels(gc.get_linewidth()) + 2)
        else:
            codes, verts = self._segments(path, transform)
        if not len(codes):
            return
        self._check_room(len(verts))
        if not np.all(np.isfinite(verts)):
            return
        verts[:, 1] = self.height - verts[:, 1]
        props, dashes = self._style(gc, rgbFace)
        props[PATH_FIELDS.index("segments")] = len(codes)
        self.frame._add([OP_PATH], props, codes, verts, dashes)

    def draw_path_collection(self, gc, master_transform, paths, all_transforms, offsets,
                             offset_trans, facecolors, edgecolors, linewidths, linestyles,
                             antialiaseds, urls, offset_position, *, hatchcolors=None):
        """A collection of plain polygons and polylines (lesson 2's aeroplanes, the ghosts)
        recorded in a few array operations, with the colours, widths and dashes that
        matplotlib's fallback (``_iter_collection``) would give each member; anything else
        (curves, per-member transforms, several offsets, hatches) goes that fallback."""
        plain = (len(all_transforms) == 0 and len(paths) > 0 and len(offsets) <= 1
                 and all(len(p.vertices) > 0 for p in paths)
                 and gc.get_hatch() is None and gc.get_clip_path()[0] is None
                 and np.isin(np.concatenate([p.codes for p in paths if p.codes is not None]
                                            or [np.zeros(0, np.uint8)]), _PLAIN).all())
        if not plain:
            return super().draw_path_collection(
                gc, master_transform, paths, all_transforms, offsets, offset_trans,
                facecolors, edgecolors, linewidths, linestyles, antialiaseds, urls,
                offset_position, hatchcolors=hatchcolors)
        faces = np.asarray(facecolors, float).reshape(-1, 4) if len(facecolors) else None
        edges = np.asarray(edgecolors, float).reshape(-1, 4) if len(edgecolors) else None
        if faces is None and edges is None:
            return
        shift = np.zeros(2)
        if len(offsets):
            xo, yo = offset_trans.transform_non_affine(np.asarray(offsets, float))[0]
            shift = offset_trans.get_affine().transform((xo, yo))
            if not np.all(np.isfinite(shift)):
                return
        n = len(paths)
        sizes = np.array([len(p.vertices) for p in paths])
        every = master_transform.transform(np.concatenate([p.vertices for p in paths]))
        every = every + shift
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        codes = np.full(int(sizes.sum()), Path.LINETO, np.uint8)
        codes[starts] = Path.MOVETO
        for path, at in zip(paths, starts, strict=True):
            if path.codes is not None:
                codes[at:at + len(path.codes)] = path.codes
        keep = np.flatnonzero(codes != Path.CLOSEPOLY)
        if not np.all(np.isfinite(every[keep])):
            return super().draw_path_collection(
                gc, master_transform, paths, all_transforms, offsets, offset_trans,
                facecolors, edgecolors, linewidths, linestyles, antialiaseds, urls,
                offset_position, hatchcolors=hatchcolors)
        self._check_room(len(keep))
        if self.frame.primitive_count + n > self.limits.primitives:
            raise ValueError(f"a frame may hold at most {self.limits.primitives} primitives")
        verts = every[keep]
        verts[:, 1] = self.height - verts[:, 1]
        forced, alpha = gc.get_forced_alpha(), gc.get_alpha()
        idx = np.arange(n)
        props = np.zeros((n, PROPS))
        if faces is not None:
            fill = faces[idx % len(faces)].copy()
            if forced:
                fill[:, 3] = alpha
            fill[faces[idx % len(faces), 3] == 0] = 0.0    # a clear face is no face
            props[:, 0:4] = fill
        base_width = self.points_to_pixels(gc.get_linewidth())
        dash_rows = [[]] * n
        if edges is not None:
            stroke = edges[idx % len(edges)].copy()
            if forced:
                stroke[:, 3] = alpha
            widths = (np.asarray([self.points_to_pixels(w) for w in linewidths], float)
                      [idx % len(linewidths)] if len(linewidths) else np.full(n, base_width))
            widths[edges[idx % len(edges), 3] == 0] = 0.0
            stroke[widths <= 0, 3] = 0.0
            props[:, 4:8] = stroke
            props[:, 8] = widths
            if len(linestyles):
                for i in range(n):
                    offset, dash = linestyles[i % len(linestyles)]
                    if dash is not None and widths[i] > 0:
                        dash_rows[i] = [self.points_to_pixels(offset or 0.0),
                                        *(self.points_to_pixels(d) for d in dash)]
        props[:, 9] = CAPS.index(gc.get_capstyle())
        props[:, 10] = JOINS.index(gc.get_joinstyle())
        props[:, 11:15] = _clip_fields(gc, self.height)
        props[:, 15] = [len(d) for d in dash_rows]
        props[:, 16] = sizes
        dashes = [d for row in dash_rows for d in row]
        self.frame._add(np.full(n, OP_PATH), props, codes, verts, dashes)

    def draw_markers(self, gc, marker_path, marker_trans, path, trans, rgbFace=None):
        """Each marker as a path, at the whole pixel Agg puts it on (the marker's shape is
        worked out once)."""
        at = [vertices[-2:] for vertices, _code in path.iter_segments(trans, simplify=False)
              if len(vertices)]
        at = np.asarray(at, float).reshape(-1, 2)
        at = at[np.all(np.isfinite(at), axis=1)]
        codes, shape = self._segments(marker_path, marker_trans)
        if not len(at) or not codes or not np.all(np.isfinite(shape)):
            return
        n, m = len(at), len(shape)
        self._check_room(n * m)
        if self.frame.primitive_count + n > self.limits.primitives:
            raise ValueError(f"a frame may hold at most {self.limits.primitives} primitives")
        # Agg rounds each place to the nearest whole pixel, counted from the top
        x = np.floor(at[:, 0] + 0.5)
        top = np.floor(self.height - at[:, 1] + 0.5)
        verts = np.empty((n, m, 2))
        verts[:, :, 0] = x[:, None] + shape[None, :, 0]
        verts[:, :, 1] = top[:, None] - shape[None, :, 1]
        props, dashes = self._style(gc, rgbFace)
        props[PATH_FIELDS.index("segments")] = len(codes)
        self.frame._add(np.full(n, OP_PATH), np.tile(props, (n, 1)), np.tile(codes, n),
                        verts.reshape(-1, 2), dashes * n)

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        frame = self.frame
        if ismath or gc.get_clip_path()[0] is not None:
            frame.unsupported += 1
        if not s.strip():
            return
        self._check_room(0)
        if len(s) > self.limits.string_chars:
            raise ValueError(f"a text of a frame may be at most {self.limits.string_chars} "
                             "characters long")
        path = font_manager.findfont(prop)
        family = font_manager.get_font(path).family_name
        font = self._index(self._font_index, frame.fonts, (family, path))
        string = self._index(self._string_index, frame.strings, s)
        weight = prop.get_weight()
        weight = font_manager.weight_dict.get(weight, 400) if isinstance(weight, str) \
            else int(weight)
        size = self.points_to_pixels(prop.get_size_in_points())
        # y from the top already (Agg's flipy): the text's position as the page counts it
        ty = y if self.flipy() else self.height - y
        clip = _clip_fields(gc, self.height)
        frame._add([OP_TEXT], [*gc.get_rgb(), size, float(angle), float(x), float(ty), string,
                              font, weight, *clip,
                              1.0 if prop.get_style() != "normal" else 0.0, 0.0, 0.0])

    def draw_image(self, gc, x, y, im, transform=None):
        self.frame.unsupported += 1

    def draw_gouraud_triangles(self, gc, triangles_array, colors_array, transform):
        self.frame.unsupported += 1


def _is_polyline(path) -> bool:
    """Whether ``path`` is lines alone (MOVETO and LINETO, no curve, no closing)."""
    codes = path.codes
    return len(path.vertices) > 1 and (
        codes is None or bool(np.isin(codes, (Path.MOVETO, Path.LINETO)).all()))


def _clip_polyline(path, transform, size, box, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """The polyline ``path`` through ``transform`` (to display pixels, y up) as Agg's own
    path pipeline gives it to the stroker (matplotlib's ``cleanup_path``): non-finite
    vertices removed, cut to the canvas (``size``; the clipper widens it by 1 px) where a
    segment that comes back in starts a new subpath (its dashes start again there), and
    simplified as Agg simplifies it (a long line: within a ninth of a pixel). With ``box``
    (a Bbox), cut to it widened by ``margin`` px instead (a solid line only: a part of a long
    road in a close-up; the joins and caps cut off cannot reach ``box``). Segment codes and
    vertices."""
    clip = (0.0, 0.0, float(size[0]), float(size[1])) if box is None else \
        tuple(np.asarray(box.extents, float) + (-margin, -margin, margin, margin))
    cleaned = path.cleaned(transform, remove_nans=True, clip=clip,
                           simplify=path.should_simplify)
    codes = np.asarray(cleaned.codes, np.uint8)
    keep = codes != Path.STOP
    return codes[keep], np.asarray(cleaned.vertices, float)[keep]


def record_frame(artists, like, limits: Limits = LIMITS, *, still: dict | None = None
                 ) -> FrameRecord:
    """Draw ``artists`` (a list of matplotlib Artists, in the order they are to be drawn)
    into a :class:`Recorder` copying the Agg renderer ``like``; their primitives. An
    artist of a hidden axes is left out, as a full draw leaves it out. ``still``: a dict
    the caller keeps from frame to frame, whose keys are artists that stay as they are from
    one frame to the next (a key drawn over a moving cursor): each is recorded once, and
    its primitives are copied into the frames after."""
    if not isinstance(artists, list | tuple) or not all(isinstance(a, Artist) for a in artists):
        raise ValueError(f"record_frame takes a list of artists, got {check.describe(artists)}")
    if still is not None and not isinstance(still, dict):
        raise ValueError(f"record_frame's still is a dict, not {check.describe(still)}")
    recorder = _RECORDERS.get(like)
    if recorder is None or recorder.limits != limits or \
            (recorder.width, recorder.height, recorder.dpi) != (like.width, like.height, like.dpi):
        # one per renderer, kept: matplotlib caches text metrics per renderer
        recorder = _RECORDERS[like] = Recorder(like, limits)
    recorder.reset()
    for artist in artists:
        if artist.axes is not None and not artist.axes.get_visible():
            continue
        if still is None or artist not in still:
            artist.draw(recorder)
            continue
        if not isinstance(still[artist], FrameRecord):
            still[artist] = recorder.alone(artist)
        recorder.paste(still[artist])
    frame = recorder.frame
    if frame.nbytes() > limits.frame_bytes:
        raise ValueError(f"a frame may take at most {limits.frame_bytes} bytes packed")
    return frame


@dataclass(frozen=True)
class Animation:
    """Frames packed flat: frame ``k``'s primitives are ``offsets[k, 0]`` to
    ``offsets[k + 1, 0]`` of ``kinds`` and ``props``; its segments, vertices and dash
    lengths start at ``offsets[k, 1:4]`` of ``codes``, ``verts`` and ``dashes``. The
    "string" and "font" fields index ``strings`` and ``fonts`` (CSS family names; ``files``
    the font files, for :func:`replay`). ``unsupported``: primitives the page cannot draw."""
    width: int
    height: int
    dpi: float
    kinds: np.ndarray
    props: np.ndarray
    codes: np.ndarray
    verts: np.ndarray
    dashes: np.ndarray
    offsets: np.ndarray
    strings: tuple
    fonts: tuple
    files: tuple
    unsupported: int

    def __post_init__(self) -> None:
        """Refuse arrays that do not make an animation (a ValueError)."""
        check.integer(self.width, "width", lo=1, hi=16384)
        check.integer(self.height, "height", lo=1, hi=16384)
        check.real(self.dpi, "dpi", lo=1.0, hi=2000.0)
        check.integer(self.unsupported, "unsupported", lo=0)
        shapes = {"kinds": (np.uint8, 1), "props": (np.float32, 2), "codes": (np.uint8, 1),
                  "verts": (np.float32, 2), "dashes": (np.float32, 1),
                  "offsets": (np.int32, 2)}
        for name, (dtype, ndim) in shapes.items():
            array = getattr(self, name)
            if not isinstance(array, np.ndarray) or array.dtype != dtype or array.ndim != ndim:
                raise ValueError(f"an animation's {name} is a {ndim}-D {np.dtype(dtype).name} "
                                 f"array, not {check.describe(array)}")
        for name in ("props", "verts", "dashes"):
            if not np.all(np.isfinite(getattr(self, name))):
                raise ValueError(f"an animation's {name} must be finite")
        off = self.offsets
        if off.shape[1:] != (4,) or len(off) < 2 or np.any(off[0] != 0) \
                or np.any(np.diff(off, axis=0) < 0) or self.props.shape[1:] != (PROPS,) \
                or self.verts.shape[1:] != (2,) or tuple(off[-1]) != (
                    len(self.kinds), len(self.codes), len(self.verts), len(self.dashes)) \
                or len(self.props) != len(self.kinds):
            raise ValueError("an animation's offsets do not match its arrays")
        for name in ("strings", "fonts", "files"):
            items = getattr(self, name)
            if not isinstance(items, tuple) or not all(isinstance(v, str) for v in items):
                raise ValueError(f"an animation's {name} is a tuple of texts")

    @property
    def frame_count(self) -> int:
        return len(self.offsets) - 1

    @property
    def nbytes(self) -> int:
        return HEADER.size + sum(a.nbytes for a in (self.offsets, self.kinds, self.props,
                                                    self.codes, self.verts, self.dashes))

    def to_bytes(self) -> bytes:
        """The arrays for the page: a header (magic, frames, width, height, primitives,
        segments, vertices, dash lengths), then offsets (int32), props (float32), verts
        (float32), dashes (float32), kinds and codes (uint8), each 4-byte aligned."""
        parts = [HEADER.pack(MAGIC, self.frame_count, self.width, self.height,
                             len(self.kinds), len(self.codes), len(self.verts),
                             len(self.dashes))]
        for array in (self.offsets, self.props, self.verts, self.dashes, self.kinds,
                      self.codes):
            raw = np.ascontiguousarray(array).tobytes()
            parts.append(raw + b"\0" * (-len(raw) % 4))
        return b"".join(parts)


def _joined(chunks: list, dtype, empty: tuple) -> np.ndarray:
    return np.concatenate(chunks).astype(dtype) if chunks else np.zeros(empty, dtype)


def pack(frames, width: int, height: int, dpi: float, limits: Limits = LIMITS) -> Animation:
    """The :class:`FrameRecord` s of an animation (all recorded at ``width`` x ``height`` px
    and ``dpi``) as one :class:`Animation`; a ValueError past any of ``limits``."""
    limits = check.instance(limits, "limits", Limits)
    if not isinstance(frames, list | tuple) or \
            not all(isinstance(f, FrameRecord) for f in frames):
        raise ValueError(f"pack takes a list of recorded frames, got {check.describe(frames)}")
    width = check.integer(width, "width", lo=1, hi=16384)
    height = check.integer(height, "height", lo=1, hi=16384)
    dpi = check.real(dpi, "dpi", lo=1.0, hi=2000.0)
    if not 1 <= len(frames) <= limits.frames:
        raise ValueError(f"an animation has 1 to {limits.frames} frames, not {len(frames)}")
    strings: dict = {}
    fonts: dict = {}
    total = HEADER.size
    offsets = np.zeros((len(frames) + 1, 4), np.int32)
    kinds, props, codes, verts, dashes = [], [], [], [], []
    for k, frame in enumerate(frames):
        lim = limits
        if frame.primitive_count > lim.primitives or frame.vertex_count > lim.vertices:
            raise ValueError(f"frame {k} holds more than {lim.primitives} primitives or "
                             f"{lim.vertices} vertices")
        size = frame.nbytes() + 16
        if size > lim.frame_bytes:
            raise ValueError(f"frame {k} takes more than {lim.frame_bytes} bytes packed")
        total += size
        if total > lim.animation_bytes:
            raise ValueError(f"an animation may take at most {lim.animation_bytes} bytes "
                             f"packed; this one passes it at frame {k}")
        k_kinds = _joined(frame.kinds, np.uint8, (0,))
        p = _joined(frame.props, np.float64, (0, PROPS))
        texts = k_kinds == OP_TEXT
        if texts.any():
            si = p[texts, TEXT_FIELDS.index("string")].astype(int)
            fi = p[texts, TEXT_FIELDS.index("font")].astype(int)
            p[texts, TEXT_FIELDS.index("string")] = [
                strings.setdefault(frame.strings[i], len(strings)) for i in si]
            p[texts, TEXT_FIELDS.index("font")] = [
                fonts.setdefault(frame.fonts[i], len(fonts)) for i in fi]
            if len(strings) > lim.strings:
                raise ValueError(f"an animation may show at most {lim.strings} texts")
        kinds.append(k_kinds)
        props.append(p.astype(np.float32))
        codes.append(_joined(frame.codes, np.uint8, (0,)))
        verts.append(_joined(frame.verts, np.float32, (0, 2)))
        dashes.append(_joined(frame.dashes, np.float32, (0,)))
        offsets[k + 1] = offsets[k] + (len(k_kinds), len(codes[-1]), len(verts[-1]),
                                       len(dashes[-1]))
    font_list = sorted(fonts, key=fonts.get)
    return Animation(
        width=width, height=height, dpi=dpi, kinds=np.concatenate(kinds),
        props=np.concatenate(props).reshape(-1, PROPS),
        codes=np.concatenate(codes),
        verts=np.concatenate(verts),
        dashes=np.concatenate(dashes), offsets=offsets,
        strings=tuple(sorted(strings, key=strings.get)),
        fonts=tuple(family for family, _ in font_list),
        files=tuple(path for _, path in font_list),
        unsupported=sum(f.unsupported for f in frames))


def _gc_for(renderer, row, height: float, clip_at: int):
    gc = renderer.new_gc()
    x, y, w, h = (float(v) for v in row[clip_at:clip_at + 4])
    if w >= 0:
        gc.set_clip_rectangle(Bbox.from_bounds(x, height - y - h, w, h))
    return gc


def replay(animation: Animation, index: int, renderer) -> int:
    """Draw frame ``index`` of ``animation`` with ``renderer`` (an Agg renderer of the same
    size, over whatever it holds); how many primitives were drawn. What the page's player
    does with Canvas 2D, done with matplotlib's own rasterizer."""
    check.instance(animation, "animation", Animation)
    index = check.integer(index, "index", lo=0, hi=animation.frame_count - 1)
    if not all(hasattr(renderer, n) for n in ("width", "height", "draw_path", "draw_text")):
        raise ValueError(f"replay draws with an Agg renderer, not {check.describe(renderer)}")
    if (renderer.width, renderer.height) != (animation.width, animation.height):
        raise ValueError(f"replay needs a {animation.width}x{animation.height} renderer, not "
                         f"{renderer.width}x{renderer.height}")
    h = float(animation.height)
    p0, s0, v0, d0 = (int(v) for v in animation.offsets[index])
    p1 = int(animation.offsets[index + 1, 0])
    per_point = 72.0 / animation.dpi
    f = {name: i for i, name in enumerate(PATH_FIELDS)}
    t = {name: i for i, name in enumerate(TEXT_FIELDS)}
    for p in range(p0, p1):
        row = animation.props[p]
        if animation.kinds[p] == OP_TEXT:
            gc = _gc_for(renderer, row, h, t["clip_x"])
            gc.set_foreground(tuple(float(v) for v in row[0:4]), isRGBA=True)
            prop = font_manager.FontProperties(
                fname=animation.files[int(row[t["font"]])],
                size=float(row[t["size"]]) * per_point)
            renderer.draw_text(gc, float(row[t["x"]]), float(row[t["y"]]),
                               animation.strings[int(row[t["string"]])], prop,
                               float(row[t["angle"]]))
            gc.restore()
            continue
        nseg, ndash = int(row[f["segments"]]), int(row[f["dashes"]])
        seg = animation.codes[s0:s0 + nseg]
        counts = np.array([SEGMENT_VERTICES[int(c)] for c in seg], int)
        nvert = int(counts.sum())
        pts = animation.verts[v0:v0 + nvert].astype(float)
        pts[:, 1] = h - pts[:, 1]
        dash = animation.dashes[d0:d0 + ndash]
        s0, v0, d0 = s0 + nseg, v0 + nvert, d0 + ndash
        full_codes, full_verts = [], []
        at = 0
        for c, n in zip(seg, counts, strict=True):
            if n == 0:
                full_codes.append(Path.CLOSEPOLY)
                full_verts.append((0.0, 0.0))
            else:
                full_codes.extend([int(c)] * n)
                full_verts.extend(pts[at:at + n])
                at += n
        gc = _gc_for(renderer, row, h, f["clip_x"])
        gc.set_foreground(tuple(float(v) for v in row[4:8]), isRGBA=True)
        gc.set_linewidth(float(row[f["width"]]) * per_point)
        gc.set_capstyle(CAPS[int(row[f["cap"]])])
        gc.set_joinstyle(JOINS[int(row[f["join"]])])
        if ndash:
            gc.set_dashes(float(dash[0]) * per_point, [float(d) * per_point for d in dash[1:]])
        fill = tuple(float(v) for v in row[0:4])
        renderer.draw_path(gc, Path(np.array(full_verts, float).reshape(-1, 2),
                                    np.array(full_codes, np.uint8)),
                           IdentityTransform(), fill if fill[3] > 0 else None)
        gc.restore()
    return p1 - p0
