"""Lesson 2's picture: artists made once, moved with ``set_data`` for each state and each t.

Three copies of the aeroplane (Euler lerp, nlerp, slerp) with ghosts and nose trails; the
nose paths on the unit sphere; the angular speed of each blend against t; and the plane in
4D that holds nlerp's straight chord and slerp's arc. Everything is drawn with a fixed
orthographic camera on plain 2D axes, which is fast enough to scrub and to Play.

What changes only with the state (paths, speeds, the 4D chord and arc) is set in
:meth:`BlendView.show_state`; what changes with t in :meth:`BlendView.show_frame`, so that
scrubbing t touches only the moving parts.
"""

from __future__ import annotations

import numpy as np
import quaternion
from matplotlib.artist import Artist
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from ... import validate as check
from ...i18n import N_, _
from ..core import (
    FONT_SIZE,
    GREYS,
    LINE,
    MARKER,
    MIN_FONT_SIZE,
    PALETTE,
    bare_axes,
    make_figure,
    rc_context,
)
from .model import BEAD_STEP, GHOSTS, LABELS, METHODS, NOSE, UP, BlendState, checked_poses

COLOURS = {"euler": PALETTE["vermillion"], "nlerp": PALETTE["purple"], "slerp": PALETTE["blue"]}
#: Line styles that stay apart where two curves coincide (Euler lerp and slerp often do):
#: a wide solid line, a dash-dot and a dash on top.
STYLES = {"euler": dict(lw=LINE["wide"], ls="-", zorder=2.0),
          "nlerp": dict(lw=LINE["bold"], ls=(0, (6, 2, 1.5, 2)), zorder=2.1),
          "slerp": dict(lw=LINE["strong"], ls=(0, (4, 2.5)), zorder=2.2)}

#: Where each panel goes, in figure fractions (left, bottom, width, height). ``wide``: the
#: three aeroplanes, the speed plot under them, the sphere and the 4D plane on the right.
#: ``narrow`` (a figure under :data:`NARROW_IN` wide: a projector at 150% zoom, JupyterLab's
#: column): the three aeroplanes across the top, wide enough for their readouts, and the
#: speed plot, the sphere and the 4D plane side by side under them, with shorter titles.
ARRANGEMENTS = {
    "wide": dict(planes=[(0.006 + 0.2 * i, 0.44, 0.194, 0.5) for i in range(3)],
                 sphere=(0.605, 0.475, 0.39, 0.465), speed=(0.075, 0.085, 0.505, 0.225),
                 plane4d=(0.6, 0.005, 0.395, 0.415)),
    "narrow": dict(planes=[(0.004 + 0.333 * i, 0.53, 0.325, 0.39) for i in range(3)],
                   sphere=(0.365, 0.005, 0.3, 0.41), speed=(0.115, 0.1, 0.225, 0.25),
                   plane4d=(0.685, 0.005, 0.31, 0.41)),
}
#: Titles that change with the arrangement.
TITLES = {
    "wide": dict(sphere=N_("nose paths on the unit sphere"),
                 speed=N_("angular speed, ° per unit of t"),
                 plane4d=N_("4D: the plane of q₀ and q₁")),
    "narrow": dict(sphere=N_("nose paths"), speed=N_("speed, °/t"),
                   plane4d=N_("4D: q₀, q₁ plane")),
}
#: A figure narrower than this (inches at its dpi, so a width in text sizes: about 720 CSS
#: px at 100% zoom) takes the narrow arrangement. Presenter mode at 1280x720 draws the
#: figure 1007 px wide (6.29 in at 160 dpi) over the line under it: it keeps the wide
#: arrangement it had at 1067 px (at 6.3 it went narrow, the sphere smaller).
NARROW_IN = 6.2

#: Points the speed plot's title moves up in the narrow arrangement, for its legend's
#: second row.
NARROW_LEGEND_ROW = 13
#: ... when the figure is at least this tall (inches at its dpi, so in text sizes: 3.4 in
#: JupyterLab's column, 2.6 at 853x480, where the row would cover the readouts).
NARROW_LEGEND_MIN_IN = 3.0

#: The zorder of a nose marker behind the sphere: under the paths, over the grid and axis.
BEHIND_ZORDER = 1.5

#: How near (in points) a press must be to a keyframe's nose marker on the sphere to grab it.
GRAB_PT = 9.0

#: The figure, in inches at 100 dpi: 820 x 470 px fits JupyterLab's notebook column at
#: 1280 px with the file browser open (848 px measured).
FIG_SIZE = (8.2, 4.7)

# The aeroplane in its own frame: nose along +Z, up along +Y, wings along X. Triangles only
# (one PolyCollection, sorted far to near): a spindle fuselage, swept wings, a tailplane
# and a fin, so that it reads as an aircraft from any side (issue 41: two triangles and a
# fin 1 px wide did not). Y up and nose +Z in a right-handed frame put the LEFT wing on +X
# (see lesson 1): left yellow, right green, as the lesson says.
_SIZE = 0.92
_TIP = np.array([0.0, 0.0, 1.05])
_RING = [np.array(p) for p in ([0.0, 0.13, 0.3], [0.13, 0.0, 0.3], [0.0, -0.12, 0.3],
                                [-0.13, 0.0, 0.3])]
_TAIL = np.array([0.0, 0.05, -0.95])


def _mirror(points) -> np.ndarray:
    """The right-hand (-X) copy of left-hand points, wound the same way seen from above."""
    return (np.array(points) * [-1.0, 1.0, 1.0])[::-1]


def _wing(root_front, tip_front, tip_back, root_back) -> list[np.ndarray]:
    return [np.array([root_front, tip_front, tip_back]),
            np.array([root_front, tip_back, root_back])]


_LEFT_WING = _wing([0.1, 0.0, 0.42], [0.95, 0.0, -0.22], [0.95, 0.0, -0.42],
                   [0.1, 0.0, -0.28])
_LEFT_TAILPLANE = [np.array([[0.05, 0.03, -0.58], [0.42, 0.03, -0.86], [0.05, 0.03, -0.9]])]
FACES = [
    *(("fuselage", np.array([_TIP, _RING[k], _RING[(k + 1) % 4]]), PALETTE["light"])
      for k in range(4)),
    *(("fuselage", np.array([_RING[(k + 1) % 4], _RING[k], _TAIL]), PALETTE["light"])
      for k in range(4)),
    *(("left wing", f, PALETTE["yellow"]) for f in _LEFT_WING + _LEFT_TAILPLANE),
    *(("right wing", _mirror(f), PALETTE["green"]) for f in _LEFT_WING + _LEFT_TAILPLANE),
    ("fin", np.array([[0.0, 0.1, -0.45], [0.0, 0.47, -0.92], [0.0, 0.05, -0.95]]),
     PALETTE["sky"]),
]
FACE_POINTS = _SIZE * np.stack([f[1] for f in FACES])               # (faces, 3, 3)
_FACE_RGB = np.array([to_rgb(f[2]) for f in FACES])
_FACE_NORMALS = np.cross(FACE_POINTS[:, 1] - FACE_POINTS[:, 0],
                         FACE_POINTS[:, 2] - FACE_POINTS[:, 0])
_FACE_NORMALS /= np.linalg.norm(_FACE_NORMALS, axis=1, keepdims=True)
# the ghosts' and the end's outline: each wing's, the tailplane's and the fin's edges and
# the fuselage's top line, not every triangle (a ghost of 21 triangles is a tangle)
_OUTLINE = [_TIP, [0.1, 0.0, 0.42], [0.95, 0.0, -0.22], [0.95, 0.0, -0.42], [0.1, 0.0, -0.28],
            [0.05, 0.03, -0.58], [0.42, 0.03, -0.86], [0.05, 0.03, -0.9], _TAIL]
_OUTLINE = np.array(_OUTLINE, dtype=float)
_OUTLINES = [_OUTLINE, _OUTLINE * [-1.0, 1.0, 1.0], FACES[-1][1]]
_EDGES = _SIZE * np.concatenate([np.stack([p, np.roll(p, -1, axis=0)], axis=1)
                                 for p in _OUTLINES])


class Camera:
    """A fixed orthographic camera: world points -> (screen x, screen y) and depth.

    ``azimuth`` turns the camera about the world's Y (up) axis starting from +Z,
    ``elevation`` lifts it above the ground plane; larger depth is nearer the viewer.
    """

    def __init__(self, azimuth: float = 38.0, elevation: float = 22.0) -> None:
        azimuth = check.real(azimuth, "azimuth", unit="degrees")
        elevation = check.real(elevation, "elevation", lo=-89.0, hi=89.0, unit="degrees")
        az, el = np.radians(check.reduce_degrees(azimuth)), np.radians(elevation)
        towards_viewer = np.array([np.cos(el) * np.sin(az), np.sin(el), np.cos(el) * np.cos(az)])
        right = np.cross([0.0, 1.0, 0.0], towards_viewer)
        right /= np.linalg.norm(right)
        up = np.cross(towards_viewer, right)
        self.basis = np.stack([right, up, towards_viewer])  # rows: screen x, screen y, depth
        self.light = towards_viewer + 0.6 * up + 0.3 * right
        self.light /= np.linalg.norm(self.light)

    def project(self, points: np.ndarray) -> np.ndarray:
        """(..., 3) world points -> (..., 3): screen x, screen y, depth."""
        points = check.numbers(points, "points", "world coordinates")
        if points.ndim == 0 or points.shape[-1] != 3:
            raise ValueError(f"points must hold points of 3 coordinates, got shape "
                             f"{points.shape}")
        return points @ self.basis.T


def front_back(xyz: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split a projected path into the part in front of the sphere and the part behind.

    Returns two (N, 2) arrays with NaN where the other part is, so each draws as one line;
    the points where the path crosses the rim belong to both, so the line is unbroken.
    ``xyz``: (N, 3) projected points (screen x, screen y, depth).
    """
    xyz = check.array(xyz, "xyz", (None, 3))
    front = xyz[:, 2] >= 0
    both_f = front | np.r_[front[1:], False] | np.r_[False, front[:-1]]
    both_b = ~front | np.r_[~front[1:], False] | np.r_[False, ~front[:-1]]
    f = xyz[:, :2].copy()
    b = xyz[:, :2].copy()
    f[~both_f] = np.nan
    b[~both_b] = np.nan
    return f, b


def nice_ceiling(value: float) -> float:
    """The next of 1, 1.5, 2, 2.5, ... times a power of ten: few distinct speed scales.
    ``value``: a number from 1e-300 to 1e300."""
    value = check.real(value, "value", lo=1e-300, hi=1e300)
    step = 10.0 ** np.floor(np.log10(value))
    return float(np.ceil(value / step * 2) / 2 * step)


def _scale_and_peaks(state: BlendState) -> tuple[float, list[tuple[str, str]]]:
    """The speed plot's top, and (method, peak as text) for each curve that goes off it."""
    peaks = {m: float(np.max(state.speeds[m])) for m in METHODS}
    cap = 3.0 * max(peaks["euler"], peaks["slerp"], 1.0)
    top = nice_ceiling(max(10.0, 1.12 * min(max(peaks.values()), cap)))
    return top, [(m, f"{peaks[m]:.0f}") for m in METHODS if peaks[m] > cap]


@check.first_is(BlendState, "the InterpolationApp's .state")
def speed_scale(state: BlendState) -> tuple[float, list[str]]:
    """The speed plot's top, and the curves that go off it.

    A long-way nlerp can spin thousands of degrees per unit t as its chord passes near the
    centre of the sphere: the scale is capped at 3x the other curves and the cut is named.
    """
    top, peaks = _scale_and_peaks(state)
    cut = [_("{method} peaks at {peak}").format(method=_(LABELS[m]), peak=peak)
           for m, peak in peaks]
    # (the view prints them as "↑ nlerp peaks at 5014", on the title's line)
    return top, cut


def plane_display(omega_deg: float) -> np.ndarray:
    """2x2 map (for row vectors) from plane coordinates to the picture.

    It turns the plane by -omega/2, so q0 sits below the horizontal through 0, the target
    as far above it and the arc runs counter-clockwise on the right; the other copy of q1
    is then on the left, and the whole wedge fits a wide, low box.
    """
    omega_deg = check.real(omega_deg, "omega_deg", lo=-720.0, hi=720.0, unit="degrees")
    phi = np.radians(-omega_deg / 2.0)
    return np.array([[np.cos(phi), np.sin(phi)], [-np.sin(phi), np.cos(phi)]])


class StaticLayer(Artist):
    """Everything that never changes, rendered once and pasted back on each full draw.

    Text is by far the slowest thing Agg draws. Titles, frames, the little axes, the sphere's
    circles and the speed plot's ticks change only with the speed scale, so they are marked
    *animated* (left out of the normal draw) and this artist, drawn first, pastes their
    cached pixels back, or draws them and caches the result when this size, dpi and
    ``scale`` have not been seen yet (a few are kept). It is still a full redraw of the
    figure: every other artist is drawn from scratch each time. When the figure is being
    saved (a GIF, savefig) matplotlib draws animated artists itself, so this does nothing.
    """

    KEEP = 8

    def __init__(self, figure) -> None:
        super().__init__()
        self.set_figure(figure)
        self.set_zorder(-100)
        self.members: list[Artist] = []
        self._scale: object = None
        self._cache: dict = {}

    @property
    def scale(self) -> object:
        """What the pasted pixels depend on besides size and dpi (the speed plot's top)."""
        return self._scale

    @scale.setter
    def scale(self, value: object) -> None:
        if value != self._scale:
            self._scale = value
            self.stale = True        # other pixels: a cached background of them is old

    def add(self, *artists: Artist) -> None:
        """Draw ``artists`` (matplotlib Artists of this figure) as part of the layer."""
        for artist in artists:
            check.instance(artist, "each artist", Artist)
        for artist in artists:
            artist.set_animated(True)
            self.members.append(artist)
        self._cache.clear()

    def draw(self, renderer) -> None:
        fig = self.get_figure()
        if fig.canvas.is_saving():
            return
        key = (renderer.width, renderer.height, fig.dpi, self.scale)
        pixels = self._cache.get(key)
        if pixels is not None:
            renderer.restore_region(pixels)
            return
        for ax in fig.axes:
            ax.apply_aspect()
        for artist in sorted(self.members, key=lambda a: a.get_zorder()):
            artist.draw(renderer)
        if len(self._cache) >= self.KEEP:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = renderer.copy_from_bbox(fig.bbox)


#: What each aeroplane's panel must show, in its data units: x and y up to PLANE_HALF, and
#: down to PLANE_BOTTOM (room for the two readout lines under the aeroplane).
PLANE_HALF, PLANE_BOTTOM = 1.2, -1.62


def _frame(frame) -> np.ndarray:
    """An orientation as a 3x3 matrix of finite numbers."""
    return check.array(frame, "frame", (3, 3))


def _plain_view(ax, half: float, bottom: float | None = None) -> None:
    ax.set_xlim(-half, half)
    ax.set_ylim(-half if bottom is None else bottom, half)
    ax.set_aspect("equal", adjustable="box")
    bare_axes(ax)


#: Two points of the 4D circle closer than this (a chord, in radii) get their labels spread
#: apart, each this many degrees further along the circle.
LABEL_APART = 0.3
LABEL_SPREAD_DEG = 25.0


def _place_label(label: Text, point: np.ndarray) -> None:
    """Put a label just outside a point of the unit circle, on the side away from 0."""
    label.set_position(point * 1.1)
    label.set_ha("left" if point[0] > 0.35 else "right" if point[0] < -0.35 else "center")
    label.set_va("bottom" if point[1] > 0.35 else "top" if point[1] < -0.35 else "center")


def _sphere_circles() -> list[np.ndarray]:
    s = np.linspace(0, 2 * np.pi, 97)
    c, z = np.cos(s), np.zeros_like(s)
    return [np.stack([c, z, np.sin(s)], axis=1),            # equator (the ground plane)
            np.stack([c, np.sin(s), z], axis=1),            # meridian in the XY plane
            np.stack([z, np.sin(s), c], axis=1)]            # meridian in the YZ plane


class Planes:
    """The three aeroplanes side by side, one small axes each, with ghosts, nose trails, the
    dotted end outline and the two angles under each; on any figure: the lesson's big
    picture (:class:`BlendView`) and the small copy beside an exercise (:mod:`.planes`).

    ``rects``: one (left, bottom, width, height) per method, in figure fractions.
    """

    def __init__(self, fig, camera: Camera, rects=None, fontsize: float = MIN_FONT_SIZE) -> None:
        check.instance(fig, "fig", Figure, "a figure to draw in")
        self.camera = check.instance(camera, "camera", Camera)
        if rects is not None:
            rects = check.array(rects, "rects", (len(METHODS), 4)).tolist()
        fontsize = check.real(fontsize, "fontsize", lo=4.0, hi=40.0, unit="pt")
        self._ghosts_shown: int | None = None       # how many ghosts are drawn (None: new state)
        rects = rects or [(0.006 + 0.2 * i, 0.44, 0.194, 0.5) for i in range(len(METHODS))]
        self.ax, self.bodies, self.ghosts, self.targets = {}, {}, {}, {}
        self.trails, self.readouts = {}, {}
        for i, m in enumerate(METHODS):
            ax = fig.add_axes(rects[i])
            _plain_view(ax, PLANE_HALF, bottom=PLANE_BOTTOM)
            ax.set_title(_(LABELS[m]), color=COLOURS[m], fontweight="bold", pad=3, y=1.0)
            for spine in ax.spines.values():
                spine.set_visible(True)
                spine.set_color(COLOURS[m])
            if i == 0:
                self.gizmo = self._draw_gizmo(ax, fontsize)
            self.targets[m] = ax.add_collection(LineCollection(
                [], colors=PALETTE["black"], linewidths=LINE["rule"], linestyles=(0, (2, 2)),
                alpha=0.55, zorder=1))
            self.ghosts[m] = ax.add_collection(LineCollection(
                [], colors=COLOURS[m], linewidths=LINE["faint"], alpha=0.35, zorder=2))
            (self.trails[m],) = ax.plot([], [], color=COLOURS[m], lw=LINE["line"], zorder=3)
            self.bodies[m] = ax.add_collection(PolyCollection(
                [], edgecolors=PALETTE["black"], linewidths=LINE["fine"], zorder=4))
            self.readouts[m] = ax.text(0.5, 0.02, "", transform=ax.transAxes, ha="center",
                                       va="bottom", fontsize=fontsize, linespacing=1.15)
            self.ax[m] = ax
        self.fill()

    def _draw_gizmo(self, ax, fontsize: float) -> list[Artist]:
        """Small world X, Y, Z axes in the upper-left corner, inside the panel's frame
        (placed there by :meth:`fill`)."""
        drawn = []
        self._gizmo_tips = []
        for name, vec in (("X", [1, 0, 0]), ("Y", [0, 1, 0]), ("Z", [0, 0, 1])):
            tip = self.camera.project(np.array(vec, float))[:2] * 0.22
            self._gizmo_tips.append(tip)
            drawn += ax.plot([], [], color=PALETTE["grey"], lw=LINE["thin"])
            drawn.append(ax.text(0, 0, name, color=GREYS["label"], fontsize=fontsize,
                                 ha="center", va="center"))
        return drawn

    def fill(self) -> None:
        """Each frame as wide as its slot on the figure as sized now: in a slot wider than
        the drawing the x limits grow (equal scales kept) instead of the frame shrinking to
        the drawing's shape, which left a narrow frame with the readout under the aeroplane
        wider than it; in a taller slot the frame shrinks to the drawing's height, so the
        readout stays under the aeroplane. The gizmo goes to the frame's upper-left corner,
        its letters a quarter of their size inside the frame (placed at a fixed 0.42 below
        the top, the "Y" sat on the frame's line at every size). Call it after each resize."""
        fig = next(iter(self.ax.values())).figure
        width_in, height_in = fig.get_size_inches()
        span = PLANE_HALF - PLANE_BOTTOM
        for ax in self.ax.values():
            slot = ax.get_position(original=True)
            aspect = (slot.height * height_in) / (slot.width * width_in)   # height / width
            ax.set_xlim(*(np.array([-1, 1]) * max(PLANE_HALF, span / aspect / 2)))
            ax.set_ylim(PLANE_BOTTOM, PLANE_HALF)
        ax = self.ax[METHODS[0]]
        (left, right), (_, top) = ax.get_xlim(), ax.get_ylim()
        slot = ax.get_position(original=True)
        # data units per point of the frame as drawn (equal scales: the tighter direction)
        per_pt = max((right - left) / (slot.width * width_in * 72),
                     span / (slot.height * height_in * 72))
        size = self.gizmo[1].get_fontsize() * per_pt          # a letter's size, in data units
        tips = 1.45 * np.array(self._gizmo_tips)
        origin = np.array([left + (0.35 + 0.25) * size - tips[:, 0].min(),
                           top - (0.6 + 0.25) * size - tips[:, 1].max()])
        for k, tip in enumerate(self._gizmo_tips):
            line, label = self.gizmo[2 * k], self.gizmo[2 * k + 1]
            line.set_data(*np.stack([origin, origin + tip]).T)
            label.set_position(origin + tip * 1.45)

    def outline(self, frame: np.ndarray) -> np.ndarray:
        """The aeroplane's outline at orientation ``frame`` (a 3x3 matrix), projected."""
        return self.camera.project(_EDGES @ _frame(frame).T)[..., :2]

    def body(self, frame: np.ndarray):
        """The aeroplane's faces at orientation ``frame`` (3x3), far first, and colours."""
        frame = _frame(frame)
        pts = self.camera.project(FACE_POINTS @ frame.T)            # (faces, 3, 3)
        normals = _FACE_NORMALS @ frame.T
        facing = normals @ self.camera.basis[2]
        light = np.abs(normals @ self.camera.light)
        shade = (0.55 + 0.45 * light) * np.where(facing >= 0, 1.0, 0.8)
        order = np.argsort(pts[..., 2].mean(axis=1))                  # far faces first
        colours = np.clip(_FACE_RGB * shade[:, None], 0, 1)
        return pts[order, :, :2], colours[order]

    @check.first_is(BlendState, "the InterpolationApp's .state")
    def show_state(self, state: BlendState) -> None:
        """The dotted end outline; the ghosts are redrawn at the next frame."""
        self._ghosts_shown = None
        for m in METHODS:
            self.targets[m].set_segments(self.outline(state.frames[m][-1]))

    def show_frame(self, state: BlendState, t: float, poses: dict,
                   readouts: dict) -> dict[str, np.ndarray]:
        """The aeroplanes at t, the ghosts passed, the nose trails and the readouts; returns
        each method's rotation matrix at t."""
        check.instance(state, "state", BlendState, "the InterpolationApp's .state")
        t = check.probability(t, "t")
        checked_poses(poses)
        if not isinstance(readouts, dict) or not all(isinstance(readouts.get(m), str)
                                                     for m in METHODS):
            raise ValueError(f"readouts must map each of {', '.join(METHODS)} to a text, got "
                             f"{check.describe(readouts)}")
        cam = self.camera
        upto = state.ts <= t + 1e-9
        passed = GHOSTS <= t + 1e-9
        n_ghosts = int(passed.sum())
        frames = {}
        for m in METHODS:
            frame = frames[m] = quaternion.as_rotation_matrix(poses[m])
            verts, colours = self.body(frame)
            self.bodies[m].set_verts(verts)
            self.bodies[m].set_facecolor(colours)
            if n_ghosts != self._ghosts_shown:      # they change 6 times in a blend
                self.ghosts[m].set_segments(
                    [seg for g in state.ghosts[m][passed] for seg in self.outline(g)])
            tips = cam.project(np.vstack([state.noses[m][upto], frame @ NOSE]) * _TIP[2] * _SIZE)
            self.trails[m].set_data(tips[:, 0], tips[:, 1])
            self.readouts[m].set_text(readouts[m])
        self._ghosts_shown = n_ghosts
        return frames


class BlendView:
    """The figure and its artists; ``show_state`` and ``show_frame`` move them."""

    def __init__(self, camera: Camera | None = None) -> None:
        self.camera = Camera() if camera is None else check.instance(camera, "camera", Camera)
        self.fig = make_figure(*FIG_SIZE)
        self._state: BlendState | None = None
        self.show_up = False
        with rc_context():
            self._build_planes()
            self._build_sphere()
            self._build_speed()
            self._build_plane4d()
        self._build_static()
        self.arrangement = "wide"
        self._cut: list[str] = []
        self._cut_peaks: list[tuple[str, str]] = []

    # -- construction -------------------------------------------------------------------------
    def _build_planes(self) -> None:
        self.planes = Planes(self.fig, self.camera)
        p = self.planes
        self.ax_obj, self.bodies, self.ghosts, self.targets = p.ax, p.bodies, p.ghosts, p.targets
        self.trails, self.readouts, self.gizmo = p.trails, p.readouts, p.gizmo

    def _build_sphere(self) -> None:
        cam = self.camera
        ax = self.ax_sphere = self.fig.add_axes((0.605, 0.43, 0.39, 0.51))
        _plain_view(ax, 1.1)
        self.title_sphere = ax.set_title(_(TITLES["wide"]["sphere"]), pad=3, y=1.0)
        rim = np.linspace(0, 2 * np.pi, 121)
        front, back = [np.stack([np.cos(rim), np.sin(rim)], axis=1)], []
        for circle in _sphere_circles():
            f, b = front_back(cam.project(circle))
            front.append(f)
            back.append(b)
        self.sphere_grid = [
            ax.add_collection(LineCollection(front, colors=[PALETTE["grey"]] + [
                PALETTE["light"]] * (len(front) - 1), linewidths=LINE["light"], zorder=0)),
            ax.add_collection(LineCollection(back, colors=PALETTE["light"], linewidths=LINE["fine"],
                                             linestyles=":", zorder=0))]
        (self.axis_line,) = ax.plot([], [], color=PALETTE["black"], lw=LINE["light"], ls="-.",
                                    alpha=0.6, zorder=1)
        self.nose_front, self.nose_back, self.nose_now, self.beads = {}, {}, {}, {}
        self.up_front, self.up_back, self.up_now = {}, {}, {}
        bead = {"euler": "o", "nlerp": "s", "slerp": "D"}
        for m in METHODS:
            c, style = COLOURS[m], STYLES[m]
            (self.nose_back[m],) = ax.plot([], [], color=c, lw=style["lw"] * 0.6,
                                           ls=style["ls"], alpha=0.3, zorder=2)
            (self.nose_front[m],) = ax.plot([], [], color=c, lw=style["lw"], ls=style["ls"],
                                            zorder=3 + style["zorder"] / 10,
                                            solid_capstyle="butt")
            (self.beads[m],) = ax.plot([], [], bead[m], color=c, ms=MARKER["grain"], zorder=4)
            (self.nose_now[m],) = ax.plot([], [], "o", color=c, ms=MARKER["point"],
                                          mec=GREYS["white"], mew=LINE["thin"], zorder=5)
            (self.up_back[m],) = ax.plot([], [], color=c, lw=LINE["thin"], ls=":", alpha=0.3,
                                         zorder=2)
            (self.up_front[m],) = ax.plot([], [], color=c, lw=LINE["up"], ls=":", zorder=3)
            (self.up_now[m],) = ax.plot([], [], "s", color=c, ms=MARKER["small"],
                                        mec=GREYS["white"], mew=LINE["rule"], zorder=5)
        (self.nose_start,) = ax.plot([], [], "o", mfc=GREYS["white"], mec=PALETTE["black"],
                                     ms=MARKER["point"], mew=LINE["outline"], zorder=6)
        (self.nose_end,) = ax.plot([], [], "X", color=PALETTE["black"], ms=MARKER["point"],
                                   zorder=6)

    def _build_speed(self) -> None:
        ax = self.ax_speed = self.fig.add_axes((0.075, 0.085, 0.505, 0.225))
        ax.set_xlim(0, 1)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1])
        # t = 1 at the right: "t = 0" at the left touched the speed's own 0 in the corner
        ax.set_xticklabels(["0", "", "0.5", "", "t = 1"])
        ax.tick_params(labelsize=MIN_FONT_SIZE, pad=2)
        ax.yaxis.set_major_locator(MaxNLocator(3, integer=True))
        self.speed_lines = {}
        for m in METHODS:
            (self.speed_lines[m],) = ax.plot([], [], color=COLOURS[m], label=_(LABELS[m]),
                                             solid_capstyle="butt", **STYLES[m])
        self.cursor = ax.axvline(0.5, color=PALETTE["black"], lw=LINE["thin"], ls=":")
        # every title gets y=1: an automatic title position measures the axes' tick labels
        # on every draw, a few milliseconds per axes that never move
        title_pad = 20
        self.title_speed = self._title_speed(_(TITLES["wide"]["speed"]), title_pad)
        # on the title's line, right-aligned: one line lower it touched the legend's "slerp"
        # in the plot's top right corner, over the curve it names (on the title's line it
        # reached the title at 1280x720, and the legend one line lower)
        self.off_chart = ax.text(0.99, 0.97, "", ha="right", va="top", fontsize=MIN_FONT_SIZE,
                                 color=PALETTE["black"], transform=ax.transAxes, zorder=6,
                                 bbox=dict(facecolor=GREYS["white"], edgecolor="none", alpha=0.85,
                                           pad=1.0))
        self.legend = ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3,
                                frameon=False, fontsize=MIN_FONT_SIZE, handlelength=3.2,
                                borderaxespad=0.1, columnspacing=1.2)
        # the narrow figure's plot is a third as wide: the same legend in two rows (issue 41:
        # it had none there, and the line styles went unnamed), the title a row higher
        self.legend_narrow = Legend(ax, list(self.speed_lines.values()),
                                    [_(LABELS[m]) for m in METHODS], loc="lower left",
                                    bbox_to_anchor=(-0.12, 1.0), ncols=2, frameon=False,
                                    fontsize=MIN_FONT_SIZE, handlelength=2.6, borderaxespad=0.1,
                                    columnspacing=0.8, handletextpad=0.5, labelspacing=0.25)
        self.legend_narrow.set_visible(False)
        ax.add_artist(self.legend_narrow)
        self._title_pads = {"wide": title_pad, "narrow": title_pad + NARROW_LEGEND_ROW}

    def _title_speed(self, text: str, pad: float):
        """The speed plot's title, ``pad`` points over it (set_title again moves the same
        left-hand title: the public way to change its pad)."""
        return self.ax_speed.set_title(text, loc="left", fontsize=FONT_SIZE, fontweight="bold",
                                       pad=pad, y=1.0)

    def _build_plane4d(self) -> None:
        ax = self.ax_4d = self.fig.add_axes((0.6, 0.005, 0.395, 0.37))
        _plain_view(ax, 1.3, bottom=-1.05)
        ax.set_aspect("equal", adjustable="datalim")      # the box stays; limits follow
        self.title_4d = ax.set_title(_(TITLES["wide"]["plane4d"]), fontsize=FONT_SIZE,
                                     fontweight="bold", pad=3,
                     y=1.0)
        s = np.linspace(0, 2 * np.pi, 121)
        (self.circle4d,) = ax.plot(np.cos(s), np.sin(s), color=PALETTE["light"], lw=LINE["thin"],
                                   zorder=0)
        (self.origin4d,) = ax.plot([0], [0], "+", color=PALETTE["grey"], ms=MARKER["dot"], zorder=1)
        self.rays = ax.add_collection(LineCollection([], colors=PALETTE["purple"],
                                                     linewidths=LINE["fine"], alpha=0.45, zorder=1))
        (self.arc,) = ax.plot([], [], color=COLOURS["slerp"], lw=LINE["arrow"], zorder=2,
                              label=_("slerp's arc"))
        (self.chord,) = ax.plot([], [], color=COLOURS["nlerp"], lw=LINE["line"], ls=(0, (5, 2)),
                                zorder=2, label=_("nlerp's chord"))
        (self.chord_beads,) = ax.plot([], [], "o", mfc=GREYS["white"], mec=COLOURS["nlerp"],
                                      ms=MARKER["bead"], mew=LINE["thin"], zorder=3)
        (self.nlerp_beads,) = ax.plot([], [], "s", color=COLOURS["nlerp"], ms=MARKER["bead"],
                                      zorder=3)
        (self.slerp_beads,) = ax.plot([], [], "D", color=COLOURS["slerp"], ms=MARKER["dust"],
                                      zorder=4)
        (self.ray_now,) = ax.plot([], [], color=COLOURS["nlerp"], lw=LINE["thin"], zorder=4)
        (self.chord_now,) = ax.plot([], [], "o", mfc=GREYS["white"], mec=COLOURS["nlerp"],
                                    ms=MARKER["mark"], mew=LINE["outline"], zorder=5)
        (self.nlerp_now,) = ax.plot([], [], "s", color=COLOURS["nlerp"], ms=MARKER["point"],
                                    mec=GREYS["white"], mew=LINE["thin"], zorder=5)
        (self.slerp_now,) = ax.plot([], [], "o", color=COLOURS["slerp"], ms=MARKER["point"],
                                    mec=GREYS["white"], mew=LINE["thin"], zorder=6)
        style = dict(fontsize=MIN_FONT_SIZE, ha="center", va="center", zorder=7, clip_on=True)
        self.label_q0 = ax.text(0, 0, "q₀", **style)
        self.label_target = ax.text(0, 0, "", **style)
        self.label_other = ax.text(0, 0, "", color=GREYS["label"], **style)
        (self.other_dot,) = ax.plot([], [], "o", mfc=GREYS["white"], mec=GREYS["label"],
                                    ms=MARKER["small"], zorder=3)
        # from a spread label back to its point (see _show_plane); under the markers t moves,
        # which the painter draws over the cached background
        self.leaders = ax.add_collection(LineCollection([], colors=GREYS["label"],
                                                        linewidths=LINE["rule"], zorder=1.5))
        self.note4d = ax.text(0.5, 0.5, "", transform=ax.transAxes, ha="center", va="center",
                              fontsize=MIN_FONT_SIZE, color=GREYS["label"])

    def _build_static(self) -> None:
        # pre-render what never changes: frames, titles, ticks, gizmo, sphere circles
        fig = self.fig
        self.static = StaticLayer(fig)
        fig.add_artist(self.static)
        dynamic_text = {*self.readouts.values(), self.off_chart, self.label_q0,
                        self.label_target, self.label_other, self.note4d}
        for ax in fig.axes:
            ax.patch.set_visible(False)                 # the figure's own white shows
            self.static.add(*ax.spines.values(), ax.xaxis, ax.yaxis,
                            *(a for a in ax.get_children()
                              if isinstance(a, Text) and a not in dynamic_text))
        self.static.add(*self.gizmo, *self.sphere_grid, self.legend, self.legend_narrow)

    # -- the arrangement: wide or narrow, chosen by the figure's width --------------------------
    def fit(self) -> str:
        """Take the arrangement (:data:`ARRANGEMENTS`) the figure's present width calls for:
        ``"narrow"`` under :data:`NARROW_IN` inches (the width in text sizes), else
        ``"wide"``. Call it after each resize, before drawing; returns the arrangement."""
        narrow = self.fig.get_size_inches()[0] < NARROW_IN
        self.arrange("narrow" if narrow else "wide")
        return self.arrangement

    def arrange(self, name: str) -> None:
        """Move the panels to arrangement ``name`` and set its titles."""
        if not isinstance(name, str) or name not in ARRANGEMENTS:
            raise ValueError(f"arrangement is 'wide' or 'narrow', not {check.describe(name)}")
        rects, titles = ARRANGEMENTS[name], TITLES[name]
        for m, rect in zip(METHODS, rects["planes"], strict=True):
            self.planes.ax[m].set_position(rect)
        self.planes.fill()
        self.ax_sphere.set_position(rects["sphere"])
        self.ax_speed.set_position(rects["speed"])
        self.ax_4d.set_position(rects["plane4d"])
        self.title_sphere.set_text(_(titles["sphere"]))
        self.title_4d.set_text(_(titles["plane4d"]))
        narrow = name == "narrow"
        self.legend.set_visible(not narrow)
        # two rows fit over the plot when the figure is tall enough (JupyterLab's column);
        # lower (853x480) the aeroplanes' titles alone carry the colours
        rows = narrow and self.fig.get_size_inches()[1] >= NARROW_LEGEND_MIN_IN
        self.legend_narrow.set_visible(rows)
        self._title_speed(_(titles["speed"]), self._title_pads["narrow" if rows else "wide"])
        for artist in self.gizmo:                # its letters reached the first title
            artist.set_visible(not narrow)
        self.arrangement = name
        self._show_off_chart()
        if self._state is not None:
            self._show_plane(self._state)

    def _show_off_chart(self) -> None:
        if not self._cut:
            self.off_chart.set_text("")
        elif self.arrangement == "narrow":
            self.off_chart.set_text("↑ " + ", ".join(
                _("{method} {peak}").format(method=_(LABELS[m]), peak=peak)
                for m, peak in self._cut_peaks))
        else:
            self.off_chart.set_text("↑ " + ", ".join(self._cut))

    # -- the state: paths, speeds, the 4D plane ---------------------------------------------------
    @check.first_is(BlendState, "the InterpolationApp's .state")
    def show_state(self, state: BlendState, show_up: bool) -> None:
        """Everything that depends on the orientations and toggles, not on t."""
        show_up = check.flag(show_up, "show_up")
        cam = self.camera
        self._state = state
        for m in METHODS:
            self.speed_lines[m].set_data(state.ts, state.speeds[m])
            f, b = front_back(cam.project(state.noses[m]))
            self.nose_front[m].set_data(f[:, 0], f[:, 1])
            self.nose_back[m].set_data(b[:, 0], b[:, 1])
            beads = cam.project(state.noses[m][::BEAD_STEP])
            self.beads[m].set_data(beads[:, 0], beads[:, 1])
            f, b = front_back(cam.project(state.ups[m]))
            self.up_front[m].set_data(f[:, 0], f[:, 1])
            self.up_back[m].set_data(b[:, 0], b[:, 1])
            for artist in (self.up_front[m], self.up_back[m], self.up_now[m]):
                artist.set_visible(show_up)
        start = cam.project(state.noses["slerp"][0])
        end = cam.project(state.noses["slerp"][-1])
        self.nose_start.set_data([start[0]], [start[1]])
        self.nose_end.set_data([end[0]], [end[1]])
        if state.axis is None:
            self.axis_line.set_data([], [])
        else:
            ends = cam.project(np.stack([-1.1 * state.axis, 1.1 * state.axis]))
            self.axis_line.set_data(ends[:, 0], ends[:, 1])
        top, cut = speed_scale(state)
        self.ax_speed.set_ylim(0.0, top)
        self.static.scale = top                         # its tick labels are pre-rendered
        self._cut = cut
        self._cut_peaks = _scale_and_peaks(state)[1]
        self._show_off_chart()
        self.planes.show_state(state)
        self._show_plane(state)

    def _show_plane(self, state: BlendState) -> None:
        plane = state.plane
        moving = (self.rays, self.arc, self.chord, self.chord_beads, self.nlerp_beads,
                  self.slerp_beads, self.ray_now, self.chord_now, self.nlerp_now,
                  self.slerp_now, self.label_q0, self.label_target, self.label_other,
                  self.other_dot, self.circle4d, self.origin4d, self.leaders)
        for artist in moving:
            artist.set_visible(plane is not None)
        if plane is None:
            self.note4d.set_text(_("start = end:\nno plane") if self.arrangement == "narrow"
                                 else _("start = end: one point of the\n4D sphere, so no plane"))
            self._display = None
            return
        self.note4d.set_text("")
        m = self._display = plane_display(plane.omega)      # row vectors: xy @ m
        arc, chord, nl = plane.slerp @ m, plane.chord @ m, plane.nlerp @ m
        self.arc.set_data(arc[:, 0], arc[:, 1])
        self.chord.set_data(chord[:, 0], chord[:, 1])
        every = slice(None, None, BEAD_STEP)
        self.chord_beads.set_data(chord[every, 0], chord[every, 1])
        self.nlerp_beads.set_data(nl[every, 0], nl[every, 1])
        self.slerp_beads.set_data(arc[every, 0], arc[every, 1])
        self.rays.set_segments([np.stack([[0.0, 0.0], p]) for p in nl[every]])
        q0 = np.array([1.0, 0.0]) @ m
        target, other = plane.target @ m, plane.other @ m
        self._fit_plane()
        spots = {"q0": q0, "target": target}
        leaders = []
        if np.linalg.norm(target - q0) < LABEL_APART:
            # close together (the wrap-around: 5° of the circle): each label moved along the
            # circle away from the other, the target's up, q0's down (issue 41: stacked
            # right beside the two points, "−q₁" sat on "q₀")
            turn = np.radians(LABEL_SPREAD_DEG)
            for name, sign in (("q0", -1.0), ("target", 1.0)):
                a = np.arctan2(spots[name][1], spots[name][0]) + sign * turn
                spot = np.array([np.cos(a), np.sin(a)])
                leaders.append(np.stack([spots[name] * 1.04, spot * 1.07]))
                spots[name] = spot
        self.leaders.set_segments(leaders)
        for label, point in ((self.label_q0, spots["q0"]), (self.label_target, spots["target"]),
                             (self.label_other, other)):
            _place_label(label, point)
        self.label_target.set_text(state.target_sign)
        self.label_other.set_text(state.other_sign)
        self.other_dot.set_data([other[0]], [other[1]])
        if np.linalg.norm(other - q0) < 0.3:          # (the long way round from q1 to q1)
            self.label_other.set_ha("right")
            self.label_q0.set_ha("left")

    def _fit_plane(self) -> None:
        """Frame the whole unit circle (the arc, the chord, the origin and both copies of q1
        lie on it or in it: a circle cut at the box's edge once hid -q1 on the cut), at
        equal scales, with room for the labels just outside it (at 1.1, a line of text
        tall and three characters wide) at any size of the box."""
        box = self.ax_4d.get_position(original=True)
        fig_w, fig_h = self.fig.get_size_inches()
        width, height = box.width * fig_w * 72, box.height * fig_h * 72     # in points
        size = self.label_q0.get_fontsize()
        label_h, label_w = 1.3 * size, 2.0 * size
        # the label's far edge, 1.1 + its size in data units, reaches the box's edge
        half_y = 1.1 / max(0.2, 1.0 - 2.0 * label_h / height)
        half_x = 1.1 / max(0.2, 1.0 - 2.0 * label_w / width)
        half_x = max(half_x, half_y * width / height)
        half_y = half_x * height / width
        self.ax_4d.set_xlim(-half_x, half_x)
        self.ax_4d.set_ylim(-half_y, half_y)

    # -- the keyframe markers, for a drag on the sphere -------------------------------------------
    def keyframe_at(self, x: float, y: float) -> str | None:
        """``"start"`` or ``"end"``: the keyframe nose marker (○ or ✖) under the figure pixel
        (x, y) (an event's ``x, y``), within :data:`GRAB_PT` points; the nearer if both are;
        None for a point on neither."""
        x, y = check.real(x, "x", unit="px"), check.real(y, "y", unit="px")
        reach = GRAB_PT * self.fig.dpi / 72.0
        best, nearest = None, reach
        for name, marker in (("end", self.nose_end), ("start", self.nose_start)):
            xs, ys = marker.get_data()
            if len(xs) != 1:
                continue
            px, py = self.ax_sphere.transData.transform((xs[0], ys[0]))
            distance = float(np.hypot(px - x, py - y))
            if distance <= nearest:
                best, nearest = name, distance
        return best

    @check.first_is(BlendState, "the InterpolationApp's .state")
    def keyframe_in_front(self, state: BlendState, which: str) -> bool:
        """Is that keyframe's nose on the sphere's near side (toward the viewer)?"""
        check.option(which, "which", ["start", "end"])
        nose = state.noses["slerp"][0 if which == "start" else -1]
        return bool(self.camera.project(nose)[2] >= 0)

    def sphere_direction(self, xdata: float, ydata: float, front: bool) -> np.ndarray:
        """The unit vector (world) seen at (xdata, ydata) on the sphere's picture, on its near
        side (``front``) or its far side; a point off the disc goes to the rim."""
        xy = np.array([check.real(xdata, "xdata"), check.real(ydata, "ydata")])
        front = check.flag(front, "front")
        r = float(np.hypot(*xy))
        if r > 1.0:
            xy /= r
        depth = np.sqrt(max(0.0, 1.0 - float(xy @ xy)))
        return self.camera.basis.T @ np.array([xy[0], xy[1], depth if front else -depth])

    # -- the frame: poses at t ---------------------------------------------------------------------
    def outline(self, frame: np.ndarray) -> np.ndarray:
        return self.planes.outline(frame)

    def body(self, frame: np.ndarray):
        return self.planes.body(frame)

    def show_frame(self, state: BlendState, t: float, poses: dict, readouts: dict) -> None:
        """Move the aeroplanes, ghosts, trails, sphere markers, cursor and 4D markers to t
        (``state`` is the one last given to :meth:`show_state`)."""
        frames = self.planes.show_frame(state, t, poses, readouts)
        cam = self.camera
        for m in METHODS:
            nose = cam.project(frames[m] @ NOSE)
            self.nose_now[m].set_data([nose[0]], [nose[1]])
            self.nose_now[m].set_zorder(5 if nose[2] >= 0 else BEHIND_ZORDER)
            up = cam.project(frames[m] @ UP)
            self.up_now[m].set_data([up[0]], [up[1]])
        self.cursor.set_xdata([t, t])
        plane, m = state.plane, self._display
        if plane is not None:
            chord_pt = ((1 - t) * np.array([1.0, 0.0]) + t * plane.target) @ m
            nl = plane.coords(quaternion.as_float_array(poses["nlerp"])) @ m
            sl = plane.coords(quaternion.as_float_array(poses["slerp"])) @ m
            self.chord_now.set_data([chord_pt[0]], [chord_pt[1]])
            self.nlerp_now.set_data([nl[0]], [nl[1]])
            self.slerp_now.set_data([sl[0]], [sl[1]])
            self.ray_now.set_data([0.0, nl[0]], [0.0, nl[1]])

