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
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgba
from mpl_toolkits.mplot3d import proj3d
from mpl_toolkits.mplot3d.art3d import Poly3DCollection

from ..core import PALETTE, fmt_number, rc_context
from .model import NOSE

#: Ring colours, outer to inner (Okabe & Ito: blue, orange, bluish green).
RING_COLOURS = (PALETTE["blue"], PALETTE["orange"], PALETTE["green"])
RING_NAMES = ("outer", "middle", "inner")
RING_RADII = (1.0, 0.84, 0.69)

#: Standard views: (elevation, azimuth) of the camera in matplotlib's frame.
VIEWS = {"3/4": (28.0, -32.0), "back": (10.0, 180.0), "side": (0.0, 90.0),
         "top": (90.0, 180.0)}

#: Length of the motion arrows at the nose (world units; the outer ring has radius 1).
ARROW = 0.45

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
_FACE_COLOURS = {"nose": PALETTE["vermillion"], "body": "#B0B0B0", "wing": "#D0D0D0",
                 "top": "#505050"}
_FACES = [np.array(f, dtype=float) for f, _ in _AIRCRAFT]


def to_plot(v) -> np.ndarray:
    """World (x, y, z), Y up, to matplotlib's frame (z up): (z, x, y). A cyclic
    permutation, so the picture stays right-handed."""
    return np.asarray(v, dtype=float)[..., [2, 0, 1]]


def from_plot(v) -> np.ndarray:
    """The inverse of :func:`to_plot`."""
    return np.asarray(v, dtype=float)[..., [1, 2, 0]]


def arrow_points(start: np.ndarray, vec: np.ndarray, head: float = 0.28) -> np.ndarray:
    """A 3D arrow as one polyline (pieces split by NaN): the shaft and a four-barbed head
    that reads as an arrow from any camera."""
    start, vec = np.asarray(start, float), np.asarray(vec, float)
    end = start + vec
    length = float(np.sqrt(vec @ vec))
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


def _set3d(line, pts_world: np.ndarray) -> None:
    p = to_plot(pts_world)
    line.set_data_3d(p[:, 0], p[:, 1], p[:, 2])


class GimbalView:
    """The artists of one gimbal figure. ``ghost=True`` adds a see-through target aircraft."""

    def __init__(self, fig, ghost: bool = False) -> None:
        self.fig = fig
        with rc_context():
            self.ax = ax = fig.add_axes((0.0, 0.0, 1.0, 1.0), projection="3d")
            self.gizmo_ax = fig.add_axes((0.01, 0.01, 0.2, 0.24))
        self._state = None
        self._camera = None
        self._sizes: dict[str, tuple[float, float]] = {}
        ax.set_axis_off()
        lim = 1.02
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_zlim(-lim, lim)
        ax.set_box_aspect((1, 1, 1), zoom=1.3)
        ax.view_init(*VIEWS["3/4"])
        ax.set_proj_type("persp", focal_length=0.35)
        # fixed drawing order: rings and axes, then the aircraft, then the arrows on top (a
        # per-frame depth sort would make the arrows blink behind the wings)
        ax.computed_zorder = False
        self._build_gizmo()
        (self.stand,) = ax.plot([], [], [], color=PALETTE["grey"], lw=3, ls=(0, (2, 2)))

        self.ring_lines, self.axis_lines, self.arrow_lines, self.ring_labels = [], [], [], []
        for n in range(3):
            colour = RING_COLOURS[n]
            (ring,) = ax.plot([], [], [], color=colour, lw=4.5 - n * 0.6,
                              solid_capstyle="round", zorder=1)
            (axis,) = ax.plot([], [], [], color=colour, lw=1.6, ls="--", zorder=2)
            # the outer arrow is wide and pale, the inner one narrow: where they coincide
            # (at the lock) both stay visible, one inside the other
            (arrow,) = ax.plot([], [], [], color=to_rgba(colour, (0.6, 0.95, 1.0)[n]),
                               lw=(7.0, 3.2, 2.6)[n], solid_capstyle="round", zorder=4)
            label = ax.text(0, 0, 0, "", color=colour, fontsize=10, fontweight="bold",
                            ha="center", va="center", zorder=6,
                            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                                  "alpha": 0.8})
            self.ring_lines.append(ring)
            self.axis_lines.append(axis)
            self.arrow_lines.append(arrow)
            self.ring_labels.append(label)
        (self.missing_line,) = ax.plot([], [], [], color=PALETTE["black"], lw=2.4,
                                       ls=(0, (3, 2)), zorder=5)

        self.aircraft = Poly3DCollection(
            [to_plot(f) for f in _FACES], facecolors=[_FACE_COLOURS[k] for _, k in _AIRCRAFT],
            edgecolors="#404040", linewidths=0.5, zorder=3)
        ax.add_collection3d(self.aircraft)
        self.ghost = None
        if ghost:
            self.ghost = Poly3DCollection(
                [to_plot(f) for f in _FACES], facecolors=to_rgba(PALETTE["purple"], 0.22),
                edgecolors=to_rgba(PALETTE["purple"], 0.9), linewidths=1.0,
                linestyles="--", zorder=3)
            ax.add_collection3d(self.ghost)
        (self.nose_marker,) = ax.plot([], [], [], marker="o", ms=5, color=PALETTE["black"],
                                      ls="none", zorder=5)

    # -- the world axes in the corner ---------------------------------------------------------
    def _build_gizmo(self) -> None:
        g = self.gizmo_ax
        g.set_xlim(-2.1, 2.1)
        g.set_ylim(-2.1, 2.1)
        g.set_aspect("equal")
        g.set_axis_off()
        g.patch.set_visible(False)
        self.gizmo_lines = [g.plot([], [], color=PALETTE["black"], lw=1.6)[0] for _ in range(3)]
        self.gizmo_labels = [g.text(0, 0, name, fontsize=10, ha="center", va="center",
                                    color=PALETTE["black"])
                             for name in ("X", "Y up", "Z")]

    def _screen(self, pts_world: np.ndarray, M: np.ndarray | None = None) -> np.ndarray:
        """Pixel positions of world points for the current camera (``M``: its projection,
        ``ax.get_proj()``, when the caller already has it)."""
        p = to_plot(np.atleast_2d(pts_world))
        M = self.ax.get_proj() if M is None else M
        x, y, _ = proj3d.proj_transform(p[:, 0], p[:, 1], p[:, 2], M)
        return self.ax.transData.transform(np.column_stack([x, y]))

    def camera(self) -> tuple[float, float]:
        return float(self.ax.elev), float(self.ax.azim)

    def follow_camera(self) -> bool:
        """Re-place the gizmo and the labels if the camera moved (an orbit with the mouse);
        True when something changed."""
        if self._state is None or self.camera() == self._camera:
            return False
        self._place_camera_dependent(self._state)
        return True

    def _place_camera_dependent(self, state) -> None:
        M = self.ax.get_proj()
        if self.camera() != self._camera:
            self._place_gizmo(M)
        self._place_labels(state, M)

    def _place_gizmo(self, M: np.ndarray) -> None:
        self._camera = self.camera()
        centre = self._screen(np.zeros(3), M)[0]
        tips = self._screen(_BASIS * 0.5, M) - centre
        scale = 1.3 / max(60.0, float(np.max(np.linalg.norm(tips, axis=1))))
        for k in range(3):
            d = tips[k] * scale
            self.gizmo_lines[k].set_data([0, d[0]], [0, d[1]])
            n = np.linalg.norm(d)
            off = d / n * 0.42 if n > 1e-6 else np.array([0.3, 0.3])
            self.gizmo_labels[k].set_position(tuple(d + off))

    def _label_sizes(self) -> list[tuple[float, float]]:
        """Pixel width and height of each ring label's box (text and padding)."""
        sizes = []
        for t in self.ring_labels:
            text = t.get_text()
            size = self._sizes.get(text)
            if size is None:
                # its size is right even before it is placed (the position is not)
                box = t.get_window_extent(self.fig.canvas.get_renderer())
                size = self._sizes[text] = (box.width + 8.0, box.height + 6.0)
            sizes.append(size)
        return sizes

    def label_boxes(self) -> list[tuple[float, float, float, float]]:
        """Where the ring labels are on the figure, in pixels: (x0, y0, x1, y1) each."""
        out = []
        for t, (w, h) in zip(self.ring_labels, self._label_sizes(), strict=True):
            x, y = self._screen(from_plot(np.array(t.get_position_3d())))[0]
            out.append((x - w / 2, y - h / 2, x + w / 2, y + h / 2))
        return out

    def gizmo_boxes(self) -> list[tuple[float, float, float, float]]:
        """Where the world-axes labels are on the figure, in pixels."""
        renderer = self.fig.canvas.get_renderer()
        return [tuple(t.get_window_extent(renderer).extents) for t in self.gizmo_labels]

    def _place_labels(self, state, M: np.ndarray) -> None:
        """Each ring's label where the ring is furthest out on screen from the aircraft,
        inside the figure, and clear of the world axes and of the labels already placed."""
        width, height = self.fig.bbox.width, self.fig.bbox.height
        sizes = self._label_sizes()
        c, s = np.cos(_LABEL_CANDIDATES), np.sin(_LABEL_CANDIDATES)
        # one projection for every candidate point, the centre, the nose and arrow heads
        n_c = len(_LABEL_CANDIDATES)
        cands = [RING_RADII[n] * (c[:, None] * state.planes[n][0]
                                  + s[:, None] * state.planes[n][1]) for n in range(3)]
        pix_all = self._screen(np.vstack([*cands, np.zeros(3), state.nose,
                                          state.nose + ARROW * state.axes]), M)
        centre = pix_all[3 * n_c]
        # the nose and the arrow heads: a label there would hide what the lesson points at
        marks = pix_all[3 * n_c + 1:]
        gizmo = self.gizmo_ax.get_position()
        gx1, gy1 = gizmo.x1 * width, gizmo.y1 * height
        placed: list[tuple[float, float, float, float]] = []
        for n, (w, h) in enumerate(sizes):
            pts = cands[n]
            pix = pix_all[n * n_c:(n + 1) * n_c]
            x, y = pix[:, 0], pix[:, 1]
            score = np.linalg.norm(pix - centre, axis=1)
            inside = (x - w / 2 > 2) & (x + w / 2 < width - 2) & (y - h / 2 > 2) & (
                y + h / 2 < height - 2)
            inside &= ~((x - w / 2 < gx1) & (y - h / 2 < gy1))   # the world axes' corner
            score = np.where(inside, score, score - 1e4)
            for mx, my in marks:
                near = (np.abs(x - mx) < w / 2 + 12) & (np.abs(y - my) < h / 2 + 12)
                score = np.where(near, score - 2e3, score)
            for px, py, pw, ph in placed:
                clash = (np.abs(x - px) < (w + pw) / 2 + 2) & (np.abs(y - py) < (h + ph) / 2 + 2)
                score = np.where(clash, score - 5e3, score)
            best = int(np.argmax(score))
            placed.append((x[best], y[best], w, h))
            self.ring_labels[n].set_position_3d(to_plot(pts[best]))

    # -- drawing ------------------------------------------------------------------------------
    def set_view(self, name: str) -> None:
        if name not in VIEWS:
            raise ValueError(f"unknown view {name!r}: choose one of {', '.join(VIEWS)}")
        self.ax.view_init(*VIEWS[name])
        if self._state is not None:
            self._place_camera_dependent(self._state)

    def draw(self, state, target_matrix: np.ndarray | None = None) -> None:
        theta = np.linspace(0, 2 * np.pi, 97)
        c, s = np.cos(theta)[:, None], np.sin(theta)[:, None]
        for n in range(3):
            u, v = state.planes[n]
            r = RING_RADII[n]
            _set3d(self.ring_lines[n], r * (c * u + s * v))
            _set3d(self.axis_lines[n], np.outer([-1.12 * r, 1.12 * r], state.axes[n]))
            _set3d(self.arrow_lines[n], arrow_points(state.nose, ARROW * state.axes[n]))
            self.ring_labels[n].set_text(f"{state.names[n]} {fmt_number(state.values[n], 0)}°")
        outer_axis = _BASIS["XYZ".index(state.order[0])]
        _set3d(self.stand, np.outer([-1.3, -1.0], outer_axis))
        R = state.matrix
        self.aircraft.set_verts([to_plot(f @ R.T) for f in _FACES])
        if self.ghost is not None:
            visible = target_matrix is not None
            self.ghost.set_visible(visible)
            if visible:
                self.ghost.set_verts([to_plot(f @ target_matrix.T) for f in _FACES])
        _set3d(self.nose_marker, state.nose[None, :])

        # the black dashes (what they mean is said beside the picture, in the panel)
        if state.badge == "free":
            self.missing_line.set_data_3d([], [], [])
        else:
            w = state.weakest * ARROW * 1.25
            _set3d(self.missing_line, np.array([state.nose - w, state.nose + w]))
        self._state = state
        self._place_camera_dependent(state)
