"""Lesson 1's picture: every artist made once (:class:`GimbalView`), then moved with
``set_data`` from a :class:`~.model.GimbalState`. No maths beyond placing what the model
computed.

The 3D axes shows the three rings, their axes (dashed), the aircraft, and at the nose one
arrow per ring: the axis that ring turns the aircraft about (right-hand rule). Away from the
lock the three arrows point three ways; at the lock the outer and inner arrows lie on one
line and a black dashed line marks the turn no ring can make. A small 2D inset in the
corner shows the world axes for the current camera, so it is never clipped by the 3D
frame, and the ring labels are placed on each ring where they are furthest from the
aircraft and from each other, for the current camera.

Everything that moves is a plain 2D artist of the 3D axes, in its projected coordinates: the
view projects every point of a frame with one call (``proj3d.proj_transform`` and the
axes' own ``get_proj()``) and sorts the aircraft's faces far to near itself, as mplot3d
would. A frame then costs about a quarter less than with mplot3d's Line3D/Text3D/Poly3DCollection
(each of which projects itself, one masked array at a time), and those artists can be
drawn over the painter's cached background (the empty 3D axes and the world axes in the
corner) instead of re-rendering the whole figure. The price: a camera change re-projects
the frame (:meth:`GimbalView.follow_camera`, which the app calls on every pointer move).
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.path import Path
from mpl_toolkits.mplot3d import proj3d

from ... import validate as check
from ...i18n import N_, _
from ..core import FONT_SIZE, GREYS, LINE, MARKER, PALETTE, bare_axes, fmt_number, rc_context
from .model import NOSE, GimbalState, angle_word

#: Ring colours, outer to inner (Okabe & Ito: blue, orange, bluish green).
RING_COLOURS = (PALETTE["blue"], PALETTE["orange"], PALETTE["green"])
RING_NAMES = ("outer", "middle", "inner")
RING_RADII = (1.0, 0.84, 0.69)

#: Standard views: (elevation, azimuth) of the camera in matplotlib's frame.
#: the camera buttons' names, as the page shows them (marked for the catalogue)
VIEW_WORDS = (N_("back"), N_("side"), N_("top"))
VIEWS = {"3/4": (28.0, -32.0), "back": (10.0, 180.0), "side": (0.0, 90.0),
         "top": (90.0, 180.0)}

#: Length of the motion arrows at the nose (world units; the outer ring has radius 1).
ARROW = 0.45

#: The world axes' corner (figure fractions), and its least side in heights of its labels'
#: text: in a small figure with presenter mode's 20 px text (853x480 px at 150 % zoom, a
#: window's bars taking some of it) the corner shrank to 69 px, and 'X' sat on 'Y up' and
#: on 'Z'.
GIZMO_BOX = (0.01, 0.01, 0.2, 0.24)
GIZMO_MIN_LINES = 4.5
#: A ring label's score off for each label (or world-axes label) its box would touch:
#: above a place outside the figure (1e4) and several marks near it (2e3 each), as at 5e3
#: a small figure at the lock put 'yaw 35°' on 'pitch −90°' rather than near three marks.
CLASH_PENALTY = 2e4

_BASIS = np.eye(3)
_LABEL_CANDIDATES = np.linspace(0.0, 2 * np.pi, 24, endpoint=False)

# The aircraft, in body coordinates: y up, z out of the nose, so (right-handed) x points out
# of the left wing. Triangles/quads, each with a colour key. About 1.1 long, so it fits
# inside the inner ring. _XM/_XP/_U/_D: the fuselage's -x, +x, top and bottom points.
_NOSE, _TAIL = tuple(NOSE), (0.0, 0.0, -0.52)
_XM, _XP, _U, _D = (-0.075, 0.0, 0.1), (0.075, 0.0, 0.1), (0.0, 0.075, 0.1), (0.0, -0.06, 0.1)
FIN_TIP = np.array([0.0, 0.30, -0.52])
_AIRCRAFT = [
    # nose cone (front of the fuselage), vermillion: the obvious front
    ((_NOSE, _XM, _U), "nose"), ((_NOSE, _U, _XP), "nose"),
    ((_NOSE, _XP, _D), "nose"), ((_NOSE, _D, _XM), "nose"),
    # rear fuselage
    ((_TAIL, _U, _XM), "body"), ((_TAIL, _XP, _U), "body"),
    ((_TAIL, _D, _XP), "body"), ((_TAIL, _XM, _D), "body"),
    # swept wings and tailplane
    (((-0.56, 0.0, -0.08), (-0.07, 0.0, 0.2), (0.07, 0.0, 0.2), (0.56, 0.0, -0.08),
      (0.5, 0.0, -0.18), (-0.5, 0.0, -0.18)), "wing"),
    (((-0.22, 0.0, -0.5), (-0.04, 0.0, -0.36), (0.04, 0.0, -0.36), (0.22, 0.0, -0.5)), "wing"),
    # the fin on top and a cockpit canopy: the obvious top
    (((0.0, 0.03, -0.3), tuple(FIN_TIP), (0.0, 0.30, -0.44), (0.0, 0.03, -0.18)), "top"),
    (((0.0, 0.11, 0.26), (-0.05, 0.06, 0.14), (0.0, 0.1, 0.05), (0.05, 0.06, 0.14)), "top"),
]
_FACE_COLOURS = {"nose": PALETTE["vermillion"], "body": GREYS["body"], "wing": GREYS["pale"],
                 "top": GREYS["top"]}
_FACES = [np.array(f, dtype=float) for f, _ in _AIRCRAFT]


def to_plot(v) -> np.ndarray:
    """World (x, y, z), Y up, to matplotlib's frame (z up): (z, x, y). A cyclic
    permutation, so the picture stays right-handed."""
    return _points3(v, "v")[..., [2, 0, 1]]


def _points3(v, name: str) -> np.ndarray:
    """``v`` as floats with 3 along the last axis (one point or many; NaN rows are a
    line's gaps)."""
    try:
        ndim = np.ndim(v)
    except (TypeError, ValueError):      # a ragged list: refused by the check below
        ndim = 1
    v = check.array(v, name, (None,) * max(ndim, 1), finite=False, what="coordinates")
    if v.ndim == 0 or v.shape[-1] != 3:
        raise ValueError(f"{name} must hold points of 3 coordinates (x, y, z), got shape "
                         f"{v.shape}")
    return v


def arrow_points(start: np.ndarray, vec: np.ndarray, head: float = 0.28) -> np.ndarray:
    """A 3D arrow as one polyline (pieces split by NaN): the shaft and a four-barbed head
    that reads as an arrow from any camera."""
    start, vec = check.point(start, "start", 3), check.point(vec, "vec", 3)
    head = check.real(head, "head", lo=0.0, hi=1.0)
    end = start + vec
    length = float(np.sqrt(vec @ vec))
    if not 0.0 < length < 1e150:
        raise ValueError(f"vec must have a length between 0 and 1e150, got {length:g}")
    d = vec / length
    # two unit vectors at right angles to d (and to each other), without np.cross's overhead
    k = int(np.argmin(np.abs(d)))
    i, j = (k + 1) % 3, (k + 2) % 3
    p1 = np.zeros(3)
    p1[i], p1[j] = -d[j], d[i]         # d x e_k, up to sign
    p1 /= np.sqrt(p1 @ p1)
    p2 = np.array([d[1] * p1[2] - d[2] * p1[1], d[2] * p1[0] - d[0] * p1[2],
                   d[0] * p1[1] - d[1] * p1[0]])
    back = end - head * length * d
    barb = 0.45 * head * length
    gap = np.full(3, np.nan)
    return np.array([start, end, gap, end, back + barb * p1, gap, end, back - barb * p1, gap,
                     end, back + barb * p2, gap, end, back - barb * p2])


_THETA = np.linspace(0, 2 * np.pi, 97)
_RING_COS, _RING_SIN = np.cos(_THETA)[:, None], np.sin(_THETA)[:, None]
_FACE_SPLITS = np.cumsum([len(f) for f in _FACES])[:-1]
_FACE_KEYS = [k for _, k in _AIRCRAFT]


class WorldLine(Line2D):
    """A 2D line of the 3D axes, in its projected coordinates (its transData), that keeps
    the world points it shows (``world``, what the tests read)."""

    world = np.empty((0, 3))

    def show(self, world: np.ndarray, xy: np.ndarray) -> None:
        """Show the projected points ``xy`` (N, 2) of the world points ``world`` (N, 3);
        NaN rows split the line into pieces."""
        world, xy = _world_and_xy(world, xy)
        self.world = world
        self.set_data(xy[:, 0], xy[:, 1])


class WorldFaces(PolyCollection):
    """Polygons the view has projected and sorted far to near already, with their world
    points (``world``). A 3D axes asks each of its collections to project itself before
    drawing: these have nothing left to do."""

    world = np.empty((0, 3))

    def do_3d_projection(self) -> float:
        return 0.0

    def show(self, world: np.ndarray, xy: np.ndarray, depth: np.ndarray,
             colours: np.ndarray | None = None) -> None:
        """The faces (``world``: their vertices one after the other, as in ``_FACES``),
        furthest first by mean depth, as mplot3d sorts them (equal ones too), so nearer
        ones cover them. Unlike mplot3d's, every face has its closing edge (mplot3d pads
        short faces with NaN, which leaves a triangle's third edge out)."""
        world, xy = _world_and_xy(world, xy)
        if len(world) != _FACE_SPLITS[-1] + len(_FACES[-1]):
            raise ValueError(f"world must hold the aircraft's {_FACE_SPLITS[-1] + len(_FACES[-1])}"
                             f" face vertices, got {len(world)}")
        depth = check.array(depth, "depth", (len(world),))
        if colours is not None:
            colours = check.array(colours, "colours", (len(_FACES), 4))
        self.world = world
        polys = np.split(xy, _FACE_SPLITS)
        far_first = np.argsort([d.mean() for d in np.split(depth, _FACE_SPLITS)])[::-1]
        self.set_verts([polys[i] for i in far_first])
        if colours is not None:
            self.set_facecolor(colours[far_first])


def _world_and_xy(world, xy) -> tuple[np.ndarray, np.ndarray]:
    """World points (N, 3) and their projections (N, 2), NaN allowed (a line's gaps)."""
    world = check.array(world, "world", (None, 3), finite=False)
    xy = check.array(xy, "xy", (len(world), 2), finite=False)
    return world, xy


def _add(ax, artist):
    ax.add_artist(artist)
    return artist


def gizmo_label_positions(ends: np.ndarray) -> np.ndarray:
    """Where the world axes' labels go (gizmo units, axes from the origin to ``ends``): just
    past each axis' tip; an axis that points at the reader (shorter than a third of the
    longest) gets its label on the side away from the other two, and labels that would
    still touch (two axes drawn in nearly the same direction after an orbit) are pushed
    apart the short way (each label's box: "Y up" is wide, so x needs more room than y).
    ``ends``: the three axes' tips, (3, 2), each coordinate within 1e6 gizmo units."""
    ends = check.array(ends, "ends", (3, 2))
    if np.abs(ends).max() > 1e6:
        raise ValueError("ends must lie within 1e6 gizmo units of the origin")
    lengths = np.linalg.norm(ends, axis=1)
    units = np.divide(ends, lengths[:, None], out=np.zeros_like(ends),
                      where=lengths[:, None] > 1e-9)
    pos = ends + units * 0.42
    for k in np.flatnonzero(lengths < lengths.max() / 3):
        away = -units[np.arange(3) != k].sum(axis=0)
        size = np.linalg.norm(away)
        pos[k] = away / size * 0.75 if size > 1e-6 else np.array([0.55, -0.55])
    reach = np.array([1.2, 0.75])                 # two labels' half sizes and a gap, x and y
    for _round in range(20):
        moved = False
        for i in range(3):
            for j in range(i + 1, 3):
                d = pos[i] - pos[j]
                overlap = reach - np.abs(d)
                if np.all(overlap > 0):          # the boxes touch: part them the short way
                    k = int(np.argmin(overlap / reach))
                    step = np.zeros(2)
                    step[k] = (1.0 if d[k] >= 0 else -1.0) * (overlap[k] / 2 + 0.01)
                    pos[i] += step
                    pos[j] -= step
                    moved = True
        if not moved:
            break
    return np.clip(pos, -1.9, 1.9)


class GimbalView:
    """The artists of one gimbal figure. ``ghost=True`` adds a see-through target aircraft."""

    def __init__(self, fig, ghost: bool = False) -> None:
        check.instance(fig, "fig", Figure, "a figure to draw in")
        ghost = check.flag(ghost, "ghost")
        self.fig = fig
        with rc_context():
            self.ax = ax = fig.add_axes((0.0, 0.0, 1.0, 1.0), projection="3d")
            self.gizmo_ax = fig.add_axes(GIZMO_BOX)
        self._state = None
        self._target = None
        self._camera = None
        self._fitted_to = None           # the figure's (width, height, dpi) the corner fits
        self._gizmo_boxes: list[tuple[float, float, float, float]] = []   # its labels, px
        self._sizes: dict[tuple[str, float], tuple[float, float]] = {}
        bare_axes(ax)
        lim = 1.02
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_zlim(-lim, lim)
        ax.set_box_aspect((1, 1, 1), zoom=1.3)
        ax.view_init(*VIEWS["3/4"])
        ax.set_proj_type("persp", focal_length=0.35)
        ax.computed_zorder = False
        self._build_gizmo()
        # a fixed drawing order (zorder): rings, then axes, the aircraft, the arrows on top
        # (sorting by depth every frame would make the arrows blink behind the wings)
        self.stand = _add(ax, WorldLine([], [], color=PALETTE["grey"], lw=LINE["thick"],
                                        ls=(0, (2, 2)), zorder=2))
        self.ring_lines, self.axis_lines, self.arrow_lines, self.ring_labels = [], [], [], []
        for n in range(3):
            colour = RING_COLOURS[n]
            self.ring_lines.append(_add(ax, WorldLine([], [], color=colour,
                                                      lw=LINE["ring"] - n * 0.6,
                                                      solid_capstyle="round", zorder=1)))
            self.axis_lines.append(_add(ax, WorldLine([], [], color=colour, lw=LINE["line"],
                                                      ls="--", zorder=2)))
            # the outer arrow is wide and pale, the inner one narrow: where they coincide
            # (at the lock) both stay visible, one inside the other
            self.arrow_lines.append(_add(ax, WorldLine(
                [], [], color=to_rgba(colour, (0.6, 0.95, 1.0)[n]),
                lw=(LINE["beam"], LINE["pointer"], LINE["path"])[n],
                solid_capstyle="round", zorder=4)))
            # plain text: as a StampedText the middle label was left stale at the figure's
            # foot in JupyterLab (not in Voila; cause not found)
            self.ring_labels.append(ax.text2D(
                0, 0, "", transform=ax.transData, color=colour, fontsize=FONT_SIZE,
                fontweight="bold", ha="center", va="center", zorder=6,
                bbox={"boxstyle": "round,pad=0.15", "fc": GREYS["white"], "ec": "none",
                      "alpha": 0.8}))
        self.missing_line = _add(ax, WorldLine([], [], color=PALETTE["black"], lw=LINE["heavy"],
                                               ls=(0, (3, 2)), zorder=5))
        self._face_colours = np.array([to_rgba(_FACE_COLOURS[k]) for k in _FACE_KEYS])
        self.aircraft = _add(ax, WorldFaces([], edgecolors=GREYS["edge"], linewidths=LINE["hair"],
                                            zorder=3))
        self.ghost = None
        if ghost:
            self.ghost = _add(ax, WorldFaces(
                [], facecolors=to_rgba(PALETTE["purple"], 0.22),
                edgecolors=to_rgba(PALETTE["purple"], 0.9), linewidths=LINE["thin"],
                linestyles="--", zorder=3))
        self.nose_marker = _add(ax, WorldLine([], [], marker="o", ms=MARKER["small"],
                                              color=PALETTE["black"], ls="none", zorder=5))
        # the lines by the name of their points in _points
        self._lines = {"stand": self.stand, "missing": self.missing_line,
                       "nose": self.nose_marker}
        for n in range(3):
            self._lines.update({f"ring{n}": self.ring_lines[n], f"axis{n}": self.axis_lines[n],
                                f"arrow{n}": self.arrow_lines[n]})

    def moving_artists(self) -> list:
        """Everything a frame changes (all of it but the world axes in the corner)."""
        faces = [self.aircraft] + ([self.ghost] if self.ghost is not None else [])
        return [self.stand, *self.ring_lines, *self.axis_lines, *faces, *self.arrow_lines,
                self.missing_line, self.nose_marker, *self.ring_labels]

    # -- the world axes in the corner ---------------------------------------------------------
    def _build_gizmo(self) -> None:
        g = self.gizmo_ax
        g.set_xlim(-2.1, 2.1)
        g.set_ylim(-2.1, 2.1)
        g.set_aspect("equal")
        bare_axes(g)
        g.patch.set_visible(False)
        self.gizmo_lines = [g.plot([], [], color=PALETTE["black"],
                                   lw=LINE["line"])[0] for _ in range(3)]
        self.gizmo_labels = [g.text(0, 0, name, fontsize=FONT_SIZE, ha="center", va="center",
                                    color=PALETTE["black"])
                             for name in ("X", _("Y up"), "Z")]

    def _project(self, pts_world: np.ndarray, M: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World points to the 3D axes' projected 2D coordinates (``M``: its
        ``get_proj()``), and their depth (larger: further from the camera)."""
        p = to_plot(np.atleast_2d(pts_world))
        x, y, z = proj3d.proj_transform(p[:, 0], p[:, 1], p[:, 2], M)
        return np.column_stack([x, y]), z

    def _screen(self, pts_world: np.ndarray, M: np.ndarray | None = None) -> np.ndarray:
        """Pixel positions of world points for the current camera."""
        xy, _ = self._project(pts_world, self.ax.get_proj() if M is None else M)
        return self.ax.transData.transform(xy)

    def camera(self) -> tuple[float, float]:
        return float(self.ax.elev), float(self.ax.azim)

    def camera_frame(self) -> np.ndarray:
        """The screen's right, up and towards-the-reader directions in the world (rows, unit
        vectors), at the centre of the picture, for the current camera."""
        centre = self._screen(np.zeros(3))[0]
        J = (self._screen(_BASIS * 1e-3) - centre).T          # (2, 3): px per world unit
        right = J[0] / np.linalg.norm(J[0])
        up = J[1] - (J[1] @ right) * right
        up /= np.linalg.norm(up)
        return np.stack([right, up, np.cross(right, up)])

    def centre_px(self) -> np.ndarray:
        """The pixel position of the centre of the rings (and of the aircraft)."""
        return self._screen(np.zeros(3))[0]

    def hits_aircraft(self, x: float, y: float, margin: float = 8.0) -> bool:
        """Is the pixel (``x``, ``y``) on the aircraft as drawn, or within ``margin`` px of
        it (its thin wings are easy to miss)?"""
        x, y = check.real(x, "x"), check.real(y, "y")
        margin = check.real(margin, "margin", lo=0.0, hi=1000.0, unit="px")
        if self._state is None:
            return False
        p = np.array([x, y], dtype=float)
        if not np.all(np.isfinite(p)):
            return False
        to_px = self.ax.transData
        for path in self.aircraft.get_paths():
            poly = to_px.transform(path.vertices)
            if Path(poly).contains_point(p):
                return True
            a, b = poly, np.roll(poly, -1, axis=0)
            ab = b - a
            t = np.clip(np.einsum("ij,ij->i", p - a, ab) / np.maximum(
                np.einsum("ij,ij->i", ab, ab), 1e-12), 0.0, 1.0)
            if np.min(np.linalg.norm(a + t[:, None] * ab - p, axis=1)) <= margin:
                return True
        return False

    def follow_camera(self) -> bool:
        """Re-project the frame if the camera moved (an orbit with the mouse); True when
        something changed."""
        if self._state is None or self.camera() == self._camera:
            return False
        self.draw(self._state, self._target)
        return True

    def _fit_gizmo(self) -> None:
        """Size the world axes' corner for the figure as it is now: its share of the
        figure (:data:`GIZMO_BOX`), but never under :data:`GIZMO_MIN_LINES` heights of its
        labels' text; and place its axes again (their length follows the picture's)."""
        fig = self.fig
        width, height = fig.bbox.width, fig.bbox.height
        self._fitted_to = (width, height, fig.dpi)
        least = GIZMO_MIN_LINES * self.gizmo_labels[0].get_size() * fig.dpi / 72.0
        x0, y0, w, h = GIZMO_BOX
        self.gizmo_ax.set_position((x0, y0, min(0.5, max(w, least / width)),
                                    min(0.5, max(h, least / height))))
        self._camera = None

    def _place_gizmo(self, M: np.ndarray) -> None:
        self._camera = self.camera()
        centre = self._screen(np.zeros(3), M)[0]
        tips = self._screen(_BASIS * 0.5, M) - centre
        scale = 1.3 / max(60.0, float(np.max(np.linalg.norm(tips, axis=1))))
        ends = tips * scale
        for k in range(3):
            self.gizmo_lines[k].set_data([0, ends[k][0]], [0, ends[k][1]])
        for k, xy in enumerate(gizmo_label_positions(ends)):
            self.gizmo_labels[k].set_position(tuple(xy))
        # the labels' boxes in px (centre, size), which the ring labels keep clear of
        self._gizmo_boxes = [((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0)
                             for x0, y0, x1, y1 in self.gizmo_boxes()]

    def _label_sizes(self) -> list[tuple[float, float]]:
        """Pixel width and height of each ring label's box (text and padding)."""
        sizes = []
        for t in self.ring_labels:
            key = (t.get_text(), self.fig.dpi)   # presenter mode draws at another dpi
            size = self._sizes.get(key)
            if size is None:
                # its size is right even before it is placed (the position is not)
                box = t.get_window_extent(self.fig.canvas.get_renderer())
                size = self._sizes[key] = (box.width + 8.0, box.height + 6.0)
            sizes.append(size)
        return sizes

    def label_boxes(self) -> list[tuple[float, float, float, float]]:
        """Where the ring labels are on the figure, in pixels: (x0, y0, x1, y1) each."""
        out = []
        for t, (w, h) in zip(self.ring_labels, self._label_sizes(), strict=True):
            x, y = self.ax.transData.transform(t.get_position())
            out.append((x - w / 2, y - h / 2, x + w / 2, y + h / 2))
        return out

    def gizmo_boxes(self) -> list[tuple[float, float, float, float]]:
        """Where the world-axes labels are on the figure, in pixels."""
        renderer = self.fig.canvas.get_renderer()
        return [tuple(t.get_window_extent(renderer).extents) for t in self.gizmo_labels]

    def _place_labels(self, xy: np.ndarray) -> None:
        """Each ring's label where the ring is furthest out on screen from the aircraft,
        inside the figure, and clear of the world axes and of the labels already placed.
        ``xy``: the projected label candidates of the three rings, then the centre, the
        nose and the arrow heads (see :meth:`_points`)."""
        width, height = self.fig.bbox.width, self.fig.bbox.height
        sizes = self._label_sizes()
        n_c = len(_LABEL_CANDIDATES)
        pix_all = self.ax.transData.transform(xy)
        centre = pix_all[3 * n_c]
        # the nose and the arrow heads: a label there would hide what the lesson points at
        marks = pix_all[3 * n_c + 1:]
        gizmo = self.gizmo_ax.get_position()
        gx1, gy1 = gizmo.x1 * width, gizmo.y1 * height
        placed: list[tuple[float, float, float, float]] = []
        obstacles = self._gizmo_boxes
        for n, (w, h) in enumerate(sizes):
            pix = pix_all[n * n_c:(n + 1) * n_c]
            x, y = pix[:, 0], pix[:, 1]
            score = np.linalg.norm(pix - centre, axis=1)
            inside = (x - w / 2 > 2) & (x + w / 2 < width - 2) & (y - h / 2 > 2) & (
                y + h / 2 < height - 2)
            inside &= ~((x - w / 2 < gx1) & (y - h / 2 < gy1))   # the world axes' corner
            score = np.where(inside, score, score - 1e4)
            # candidates x marks at once, not a Python loop (see docs/performance.md)
            near = ((np.abs(x[:, None] - marks[:, 0]) < w / 2 + 12)
                    & (np.abs(y[:, None] - marks[:, 1]) < h / 2 + 12))
            score = score - 2e3 * near.sum(axis=1)
            for px, py, pw, ph in placed + obstacles:
                clash = (np.abs(x - px) < (w + pw) / 2 + 2) & (np.abs(y - py) < (h + ph) / 2 + 2)
                score = np.where(clash, score - CLASH_PENALTY, score)
            best = int(np.argmax(score))
            placed.append((x[best], y[best], w, h))
            self.ring_labels[n].set_position(tuple(xy[n * n_c + best]))

    # -- drawing ------------------------------------------------------------------------------
    def set_view(self, name: str) -> None:
        if not isinstance(name, str) or name not in VIEWS:
            raise ValueError(f"unknown view {name!r:.60}: choose one of {', '.join(VIEWS)}")
        self.ax.view_init(*VIEWS[name])
        if self._state is not None:
            self.draw(self._state, self._target)

    def _points(self, state, target_matrix) -> dict[str, np.ndarray]:
        """The world points of one frame, by what they draw."""
        R = state.matrix
        c, s = np.cos(_LABEL_CANDIDATES)[:, None], np.sin(_LABEL_CANDIDATES)[:, None]
        pts = {"stand": np.outer([-1.3, -1.0], _BASIS["XYZ".index(state.order[0])])}
        for n in range(3):
            u, v = state.planes[n]
            r = RING_RADII[n]
            pts[f"ring{n}"] = r * (_RING_COS * u + _RING_SIN * v)
            pts[f"axis{n}"] = np.outer([-1.12 * r, 1.12 * r], state.axes[n])
            pts[f"arrow{n}"] = arrow_points(state.nose, ARROW * state.axes[n])
        if state.badge != "free":
            w = state.weakest * ARROW * 1.25
            pts["missing"] = np.array([state.nose - w, state.nose + w])
        pts["nose"] = state.nose[None, :]
        pts["aircraft"] = np.vstack(_FACES) @ R.T
        if target_matrix is not None:
            pts["ghost"] = np.vstack(_FACES) @ np.asarray(target_matrix).T
        # where a label may go, then what it must stay clear of (read by _place_labels):
        # the nose, the arrows (tips and shafts) and the dashed axis lines, which are what
        # the lesson points at (at the lock a label on the shared axis hid it)
        along = np.linspace(-1.12, 1.12, 17)[:, None]
        pts["labels"] = np.vstack([
            *(RING_RADII[n] * (c * state.planes[n][0] + s * state.planes[n][1])
              for n in range(3)),
            np.zeros(3), state.nose, state.nose + ARROW * state.axes,
            *(state.nose + f * ARROW * state.axes for f in (0.35, 0.7)),
            *(RING_RADII[n] * along * state.axes[n] for n in range(3))])
        return pts

    @check.first_is(GimbalState, "the GimbalApp's .state")
    def draw(self, state, target_matrix: np.ndarray | None = None) -> None:
        """Draw ``state`` (and the ghost at ``target_matrix``, a rotation matrix, if any)."""
        if target_matrix is not None:
            target_matrix = check.array(target_matrix, "target_matrix", (3, 3))
        pts = self._points(state, target_matrix)
        if self._fitted_to != (self.fig.bbox.width, self.fig.bbox.height, self.fig.dpi):
            self._fit_gizmo()
        M = self.ax.get_proj()
        if self.camera() != self._camera:
            self._place_gizmo(M)
        # one projection for every point of the frame, then cut back into its pieces
        xy, depth = self._project(np.vstack(list(pts.values())), M)
        cuts = np.cumsum([len(p) for p in pts.values()])[:-1]
        proj = dict(zip(pts, zip(np.split(xy, cuts), np.split(depth, cuts), strict=True),
                        strict=True))
        for n in range(3):
            self.ring_labels[n].set_text(f"{angle_word(state.names[n])} "
                                         f"{fmt_number(state.values[n], 0)}°")
        for key, line in self._lines.items():
            line.show(pts.get(key, np.empty((0, 3))), proj.get(key, (np.empty((0, 2)),))[0])
        self.aircraft.show(pts["aircraft"], *proj["aircraft"], self._face_colours)
        if self.ghost is not None:
            self.ghost.set_visible(target_matrix is not None)
            if target_matrix is not None:
                self.ghost.show(pts["ghost"], *proj["ghost"])
        self._state, self._target = state, target_matrix
        self._place_labels(proj["labels"][0])
