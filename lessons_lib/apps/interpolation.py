"""Lesson 2 app: one pair of orientations blended three ways (Euler lerp, nlerp, slerp).

Three copies of the same little aeroplane at the same ``t``, each with ghosts of where it
has been; the path of the nose on the unit sphere; the angular speed of each blend against
``t``. The figure is drawn with a fixed orthographic camera on plain 2D axes (fast enough
to scrub and to Play), built once and updated in place.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np
import quaternion
from matplotlib.artist import Artist
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgb
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from ..interpolation import angle_between, angular_speed, euler_lerp, nlerp, slerp, total_angle
from ..rotations import check_order, euler_to_quaternion
from .style import PALETTE, LessonApp, make_figure, rc_context

METHODS = ("euler", "nlerp", "slerp")
LABELS = {"euler": "Euler lerp", "nlerp": "nlerp", "slerp": "slerp"}
COLOURS = {"euler": PALETTE["vermillion"], "nlerp": PALETTE["purple"], "slerp": PALETTE["blue"]}

#: (start, end) as (yaw, pitch, roll) in degrees, order "YXZ".
PRESETS = {
    "Wrap-around: yaw -175° → 175°": ((-175, 0, 0), (175, 0, 0)),
    "Wide three-axis turn": ((30, -20, 10), (150, 70, 120)),
    "End at gimbal lock (pitch 90°)": ((0, 0, 0), (150, 90, 120)),
    "Article: yaw and roll together": ((0, 0, 0), (90, 0, 90)),
    "One axis only: yaw 0° → 120°": ((0, 0, 0), (120, 0, 0)),
}
CUSTOM = "(your own angles)"

#: Samples of t for paths, trails and the speed plot.
SAMPLES = 121
#: Ghost copies at these t (drawn once the object has passed them).
GHOSTS = np.linspace(0.0, 1.0, 7)

# The aeroplane in its own frame: nose along +Z, up along +Y, wings along X.
NOSE = np.array([0.0, 0.0, 1.0])
UP = np.array([0.0, 1.0, 0.0])
_SIZE = 0.8
_TIP = np.array([0.0, 0.0, 1.05])
_TAIL = np.array([0.0, 0.0, -0.45])
FACES = [
    # Y up and nose +Z in a right-handed frame put the LEFT wing on +X (see lesson 1).
    ("right wing", np.array([_TIP, _TAIL, [-0.95, 0.0, -0.6]]), PALETTE["green"]),
    ("left wing", np.array([_TIP, [0.95, 0.0, -0.6], _TAIL]), PALETTE["yellow"]),
    ("fin", np.array([[0.0, 0.0, -0.05], [0.0, 0.0, -0.5], [0.0, 0.55, -0.68]]),
     PALETTE["sky"]),
    ("keel", np.array([[0.0, 0.0, 0.85], [0.0, -0.16, -0.25], [0.0, 0.0, -0.45]]),
     PALETTE["grey"]),
]
_FACE_POINTS = _SIZE * np.stack([f[1] for f in FACES])               # (faces, 3, 3)
_FACE_RGB = np.array([to_rgb(f[2]) for f in FACES])
_FACE_NORMALS = np.cross(_FACE_POINTS[:, 1] - _FACE_POINTS[:, 0],
                         _FACE_POINTS[:, 2] - _FACE_POINTS[:, 0])
_FACE_NORMALS /= np.linalg.norm(_FACE_NORMALS, axis=1, keepdims=True)
# outline edges of every face, for ghosts and the target outline
_EDGES = np.concatenate([np.stack([p, np.roll(p, -1, axis=0)], axis=1) for p in _FACE_POINTS])


class Camera:
    """A fixed orthographic camera: world points -> (screen x, screen y) and depth.

    ``azimuth`` turns the camera about the world's Y (up) axis starting from +Z,
    ``elevation`` lifts it above the ground plane; larger depth is nearer the viewer.
    """

    def __init__(self, azimuth: float = 38.0, elevation: float = 22.0) -> None:
        az, el = np.radians(azimuth), np.radians(elevation)
        towards_viewer = np.array([np.cos(el) * np.sin(az), np.sin(el), np.cos(el) * np.cos(az)])
        right = np.cross([0.0, 1.0, 0.0], towards_viewer)
        right /= np.linalg.norm(right)
        up = np.cross(towards_viewer, right)
        self.basis = np.stack([right, up, towards_viewer])  # rows: screen x, screen y, depth
        self.light = towards_viewer + 0.6 * up + 0.3 * right
        self.light /= np.linalg.norm(self.light)

    def project(self, points: np.ndarray) -> np.ndarray:
        """(..., 3) world points -> (..., 3): screen x, screen y, depth."""
        return points @ self.basis.T


def _rotation_matrices(qs) -> np.ndarray:
    return quaternion.as_rotation_matrix(np.asarray(qs))


def _front_back(xyz: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split a projected path into the part in front of the sphere and the part behind.

    Returns two (N, 2) arrays with NaN where the other part is, so each draws as one line;
    the points where the path crosses the rim belong to both, so the line is unbroken.
    """
    front = xyz[:, 2] >= 0
    both_f = front | np.r_[front[1:], False] | np.r_[False, front[:-1]]
    both_b = ~front | np.r_[~front[1:], False] | np.r_[False, ~front[:-1]]
    f = xyz[:, :2].copy()
    b = xyz[:, :2].copy()
    f[~both_f] = np.nan
    b[~both_b] = np.nan
    return f, b


def _nice_ceiling(value: float) -> float:
    """The next of 1, 1.5, 2, 2.5, ... times a power of ten: few distinct speed scales."""
    step = 10.0 ** np.floor(np.log10(value))
    return float(np.ceil(value / step * 2) / 2 * step)


def _fmt_q(q) -> str:
    w, x, y, z = quaternion.as_float_array(q)
    return f"({w:+.2f}, {x:+.2f}, {y:+.2f}, {z:+.2f})"


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
        self.scale: object = None
        self._cache: dict = {}

    def add(self, *artists: Artist) -> None:
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


class InterpolationApp(LessonApp):
    """Start and end orientations, a ``t`` slider with Play, and the three blends side by side.

    Controls (attributes): ``start`` and ``end`` (dicts of yaw/pitch/roll IntSliders),
    ``t`` (FloatSlider), ``play`` (Play, 0..100 -> t), ``preset`` (Dropdown),
    ``long_way`` (take the long way: blend towards the given q1 even when -q1 is nearer),
    ``wrap_euler`` (Euler lerp turns each angle the short way), ``show_up`` (also draw the
    path of the up vector on the sphere). State after each update: ``paths`` and
    ``current`` (quaternions per method), ``totals`` (degrees), ``speeds`` (per sample).
    """

    def __init__(self, preset: str = "Wide three-axis turn", order: str = "YXZ") -> None:
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}; choose one of {list(PRESETS)}")
        super().__init__()
        self.order = check_order(order)
        self.camera = Camera()
        self.ts = np.linspace(0.0, 1.0, SAMPLES)
        self._batch = False
        self._syncing = False
        self.paths: dict[str, np.ndarray] = {}
        self.current: dict[str, quaternion.quaternion] = {}
        self.totals: dict[str, float] = {}
        self.speeds: dict[str, np.ndarray] = {}
        self._build_controls()
        self._build_figure()
        self._layout()
        self.apply_preset(preset)
        self._wire()

    # -- controls -----------------------------------------------------------------------------
    def _build_controls(self) -> None:
        def angle(name, lo, hi, value):
            return widgets.IntSlider(value=value, min=lo, max=hi, step=1, description=name,
                                     continuous_update=True,
                                     style={"description_width": "42px"},
                                     layout=widgets.Layout(width="280px"))

        self.start = {"yaw": angle("yaw", -180, 180, 0), "pitch": angle("pitch", -90, 90, 0),
                      "roll": angle("roll", -180, 180, 0)}
        self.end = {"yaw": angle("yaw", -180, 180, 0), "pitch": angle("pitch", -90, 90, 0),
                    "roll": angle("roll", -180, 180, 0)}
        self.preset = widgets.Dropdown(options=[*PRESETS, CUSTOM], description="preset",
                                       style={"description_width": "46px"},
                                       layout=widgets.Layout(width="282px"))
        self.t = widgets.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.01, description="t",
                                     readout_format=".2f", continuous_update=True,
                                     style={"description_width": "12px"},
                                     layout=widgets.Layout(width="210px"))
        self.play = widgets.Play(value=50, min=0, max=100, step=1, interval=60,
                                 description="play", layout=widgets.Layout(width="auto"))
        self.long_way = widgets.Checkbox(value=False, description="take the long way",
                                         indent=False, layout=widgets.Layout(width="150px"))
        self.wrap_euler = widgets.Checkbox(value=False, description="wrap Euler angles",
                                           indent=False, layout=widgets.Layout(width="150px"))
        self.show_up = widgets.Checkbox(value=False, description="up-vector paths",
                                        indent=False, layout=widgets.Layout(width="130px"))
        self.info = widgets.HTML(layout=widgets.Layout(width="420px"))

    def _wire(self) -> None:
        for slider in (*self.start.values(), *self.end.values()):
            slider.observe(self.guard(self._on_angles), names="value")
        for box in (self.long_way, self.wrap_euler, self.show_up):
            box.observe(self.guard(self._on_angles), names="value")
        self.preset.observe(self.guard(self._on_preset), names="value")
        self.t.observe(self.guard(self._on_t), names="value")
        self.play.observe(self.guard(self._on_play), names="value")

    def _layout(self) -> None:
        top = widgets.HBox([self.preset, self.play, self.t, self.long_way, self.wrap_euler],
                           layout=widgets.Layout(align_items="center", flex_flow="row wrap"))
        start = widgets.VBox([widgets.HTML("<b>start</b> (t = 0)"), *self.start.values()])
        end = widgets.VBox([widgets.HTML("<b>end</b> (t = 1)"), *self.end.values()])
        self.fig.canvas.layout = widgets.Layout(width="auto")
        self.widget = widgets.VBox(
            [top, self.fig.canvas,
             widgets.HBox([start, end, widgets.VBox([self.show_up, self.info])],
                          layout=widgets.Layout(align_items="flex-start")),
             self.status],
            layout=widgets.Layout(width="1000px"))

    # -- figure -------------------------------------------------------------------------------
    def _build_figure(self) -> None:
        self.fig = fig = make_figure(9.6, 4.25)
        cam = self.camera
        with rc_context():
            self.ax_obj = {}
            self.bodies, self.ghosts, self.targets, self.trails, self.readouts = {}, {}, {}, {}, {}
            for i, m in enumerate(METHODS):
                ax = fig.add_axes((0.004 + 0.219 * i, 0.452, 0.214, 0.483))
                self._plain_view(ax, 1.2)
                ax.set_title(LABELS[m], color=COLOURS[m], fontweight="bold", pad=3)
                for spine in ax.spines.values():
                    spine.set_visible(True)
                    spine.set_color(COLOURS[m])
                if i == 0:
                    self._gizmo_lines = self._draw_gizmo(ax)
                self.targets[m] = ax.add_collection(LineCollection(
                    [], colors=PALETTE["black"], linewidths=0.8, linestyles=(0, (2, 2)),
                    alpha=0.55, zorder=1))
                self.ghosts[m] = ax.add_collection(LineCollection(
                    [], colors=COLOURS[m], linewidths=0.7, alpha=0.3, zorder=2))
                (self.trails[m],) = ax.plot([], [], color=COLOURS[m], lw=1.6, zorder=3)
                self.bodies[m] = ax.add_collection(PolyCollection(
                    [], edgecolors=PALETTE["black"], linewidths=0.6, zorder=4))
                self.readouts[m] = ax.text(0.5, 0.02, "", transform=ax.transAxes,
                                           ha="center", va="bottom", fontsize=8.5)
                self.ax_obj[m] = ax

            # the unit sphere with the nose paths
            ax = self.ax_sphere = fig.add_axes((0.665, 0.03, 0.33, 0.86))
            self._plain_view(ax, 1.1)
            ax.set_anchor("N")
            ax.set_title("nose paths on the unit sphere", pad=3)
            rim = np.linspace(0, 2 * np.pi, 121)
            front, back = [np.stack([np.cos(rim), np.sin(rim)], axis=1)], []
            for circle in self._sphere_circles():
                f, b = _front_back(cam.project(circle))
                front.append(f)
                back.append(b)
            self._sphere_grid = [
                ax.add_collection(LineCollection(front, colors=[PALETTE["grey"]] + [
                    PALETTE["light"]] * (len(front) - 1), linewidths=0.9, zorder=0)),
                ax.add_collection(LineCollection(back, colors=PALETTE["light"],
                                                 linewidths=0.6, linestyles=":", zorder=0))]
            (self.axis_line,) = ax.plot([], [], color=PALETTE["black"], lw=0.9, ls="-.",
                                        alpha=0.6, zorder=1)
            self.nose_front, self.nose_back, self.nose_now, self.beads = {}, {}, {}, {}
            self.up_front, self.up_back, self.up_now = {}, {}, {}
            # widest at the bottom, so paths that coincide still all show
            width = {"euler": 2.6, "nlerp": 5.5, "slerp": 1.6}
            layer = {"nlerp": 0.0, "euler": 0.1, "slerp": 0.2}
            alpha = {"euler": 1.0, "nlerp": 0.5, "slerp": 1.0}
            bead = {"euler": "o", "nlerp": "s", "slerp": "o"}
            for m in METHODS:
                c = COLOURS[m]
                (self.nose_back[m],) = ax.plot([], [], color=c, lw=width[m] * 0.6,
                                               alpha=0.3 * alpha[m], zorder=2)
                (self.nose_front[m],) = ax.plot([], [], color=c, lw=width[m], alpha=alpha[m],
                                                zorder=3 + layer[m], solid_capstyle="butt")
                (self.beads[m],) = ax.plot([], [], bead[m], color=c, ms=3.2, zorder=4)
                (self.nose_now[m],) = ax.plot([], [], "o", color=c, ms=8, mec="white",
                                              mew=1.0, zorder=5)
                (self.up_back[m],) = ax.plot([], [], color=c, lw=1.0, ls="--", alpha=0.3,
                                             zorder=2)
                (self.up_front[m],) = ax.plot([], [], color=c, lw=1.3, ls="--", zorder=3)
                (self.up_now[m],) = ax.plot([], [], "s", color=c, ms=5, mec="white",
                                            mew=0.8, zorder=5)
            (self.nose_start,) = ax.plot([], [], "o", mfc="white", mec=PALETTE["black"],
                                         ms=8, mew=1.5, zorder=6)
            (self.nose_end,) = ax.plot([], [], "X", color=PALETTE["black"], ms=8, zorder=6)

            # angular speed against t
            ax = self.ax_speed = fig.add_axes((0.065, 0.075, 0.58, 0.25))
            ax.set_xlim(0, 1)
            ax.set_xticks([0, 0.5, 1])
            ax.tick_params(labelsize=8, pad=2)
            ax.yaxis.set_major_locator(MaxNLocator(3, integer=True))
            self.speed_lines = {}
            for m, lw, z in (("euler", 2.7, 2.1), ("nlerp", 2.0, 2.0), ("slerp", 1.4, 2.2)):
                (self.speed_lines[m],) = ax.plot([], [], color=COLOURS[m], lw=lw, zorder=z)
            self.cursor = ax.axvline(0.5, color=PALETTE["black"], lw=1.0, ls="--")
            self.off_chart = ax.text(1.0, 1.03, "", transform=ax.transAxes, ha="right",
                                     va="bottom", fontsize=8.5, color=PALETTE["black"])
            ax.set_title("angular speed (degrees per unit of t)", loc="left", fontsize=9,
                         fontweight="bold", pad=3)

        # pre-render what never changes: frames, titles, ticks, gizmo, sphere circles
        self.static = StaticLayer(fig)
        fig.add_artist(self.static)
        dynamic_text = {*self.readouts.values(), self.off_chart}
        for ax in fig.axes:
            ax.patch.set_visible(False)                 # the figure's own white shows
            self.static.add(*ax.spines.values(), ax.xaxis, ax.yaxis,
                            *(a for a in ax.get_children()
                              if isinstance(a, Text) and a not in dynamic_text))
        self.static.add(*self._gizmo_lines, *self._sphere_grid)

    @staticmethod
    def _plain_view(ax, half: float) -> None:
        ax.set_xlim(-half, half)
        ax.set_ylim(-half, half)
        ax.set_aspect("equal", adjustable="box")
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_visible(False)

    def _draw_gizmo(self, ax) -> list[Artist]:
        """Small world X, Y, Z axes in the upper-left corner of an object panel."""
        origin = np.array([-0.92, 0.78])
        drawn = []
        for name, vec in (("X", [1, 0, 0]), ("Y", [0, 1, 0]), ("Z", [0, 0, 1])):
            p = self.camera.project(np.array(vec, float))[:2] * 0.22
            drawn += ax.plot(*np.stack([origin, origin + p]).T, color=PALETTE["grey"], lw=1.0)
            drawn.append(ax.text(*(origin + p * 1.35), name, color=PALETTE["grey"],
                                 fontsize=7, ha="center", va="center"))
        return drawn

    @staticmethod
    def _sphere_circles() -> list[np.ndarray]:
        s = np.linspace(0, 2 * np.pi, 97)
        c, z = np.cos(s), np.zeros_like(s)
        return [np.stack([c, z, np.sin(s)], axis=1),            # equator (the ground plane)
                np.stack([c, np.sin(s), z], axis=1),            # meridian in the XY plane
                np.stack([z, np.sin(s), c], axis=1)]            # meridian in the YZ plane

    # -- callbacks ----------------------------------------------------------------------------
    def _on_preset(self, change) -> None:
        if not self._batch and change["new"] != CUSTOM:
            self.apply_preset(change["new"])

    def _on_angles(self, _change=None) -> None:
        if self._batch:
            return
        if self.preset.value != CUSTOM and self._angles() != PRESETS.get(self.preset.value):
            self._batch = True
            try:
                self.preset.value = CUSTOM
            finally:
                self._batch = False
        self.update_paths()
        self.update_t()

    def _on_t(self, change) -> None:
        # keep Play's frame number in step with a scrubbed t, without echoing back
        if not self._syncing:
            self._syncing = True
            try:
                self.play.value = int(round(change["new"] * 100))
            finally:
                self._syncing = False
        self.update_t()

    def _on_play(self, change) -> None:
        if not self._syncing:
            self._syncing = True
            try:
                self.t.value = change["new"] / 100
            finally:
                self._syncing = False

    def _sync_for_gif(self, value) -> None:
        self.t.value = value / 100

    # -- public actions -------------------------------------------------------------------------
    def _angles(self) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        return (tuple(self.start[k].value for k in ("yaw", "pitch", "roll")),
                tuple(self.end[k].value for k in ("yaw", "pitch", "roll")))

    def apply_preset(self, name: str) -> None:
        """Set both orientations from a preset and redraw once."""
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; choose one of {list(PRESETS)}")
        self.set_orientations(*PRESETS[name])
        if self.preset.value != name:
            self._batch = True
            try:
                self.preset.value = name
            finally:
                self._batch = False

    def set_orientations(self, start, end) -> None:
        """Set the start and end (yaw, pitch, roll) in degrees and redraw once."""
        self._batch = True
        try:
            for sliders, values in ((self.start, start), (self.end, end)):
                for key, value in zip(("yaw", "pitch", "roll"), values, strict=True):
                    sliders[key].value = int(round(value))
        finally:
            self._batch = False
        self.update_paths()
        self.update_t()

    # -- maths -> artists -------------------------------------------------------------------------
    def _blend(self, method: str, t):
        e0, e1 = self._angles()
        if method == "euler":
            return euler_lerp(e0, e1, t, order=self.order, wrap=self.wrap_euler.value)
        q0, q1 = self.q0, self.q1
        blend = nlerp if method == "nlerp" else slerp
        return blend(q0, q1, t, shortest=not self.long_way.value)

    def update_paths(self) -> None:
        """Recompute everything that depends on the orientations and toggles (not on t)."""
        e0, e1 = self._angles()
        self.q0 = euler_to_quaternion(*e0, order=self.order)
        self.q1 = euler_to_quaternion(*e1, order=self.order)
        cam = self.camera
        self.true_angle = angle_between(self.q0, self.q1)
        self.frames, self.noses, self.ups = {}, {}, {}
        for m in METHODS:
            path = self._blend(m, self.ts)
            self.paths[m] = path
            self.frames[m] = _rotation_matrices(path)
            self.noses[m] = self.frames[m] @ NOSE
            self.ups[m] = self.frames[m] @ UP
            self.totals[m] = total_angle(path)
            self.speeds[m] = angular_speed(path, self.ts)
            self.speed_lines[m].set_data(self.ts, self.speeds[m])
            f, b = _front_back(cam.project(self.noses[m]))
            self.nose_front[m].set_data(f[:, 0], f[:, 1])
            self.nose_back[m].set_data(b[:, 0], b[:, 1])
            beads = cam.project(self.noses[m][:: (SAMPLES - 1) // 10])
            self.beads[m].set_data(beads[:, 0], beads[:, 1])
            f, b = _front_back(cam.project(self.ups[m]))
            self.up_front[m].set_data(f[:, 0], f[:, 1])
            self.up_back[m].set_data(b[:, 0], b[:, 1])
            for artist in (self.up_front[m], self.up_back[m], self.up_now[m]):
                artist.set_visible(self.show_up.value)
            self.targets[m].set_segments(self._outline(self.frames[m][-1]))

        start = cam.project(self.noses["slerp"][0])
        end = cam.project(self.noses["slerp"][-1])
        self.nose_start.set_data([start[0]], [start[1]])
        self.nose_end.set_data([end[0]], [end[1]])
        self._update_axis_line()

        # a long-way nlerp can spin thousands of degrees per unit t as its chord passes
        # near the centre: cap the scale at 3x the other curves and say what is cut off
        peaks = {m: float(np.max(v)) for m, v in self.speeds.items()}
        cap = 3.0 * max(peaks["euler"], peaks["slerp"], 1.0)
        top = _nice_ceiling(max(10.0, 1.12 * min(max(peaks.values()), cap)))
        self.ax_speed.set_ylim(0.0, top)
        self.static.scale = top                         # its tick labels are pre-rendered
        cut = [f"{LABELS[m]} peaks at {peaks[m]:.0f}" for m in METHODS if peaks[m] > cap]
        self.off_chart.set_text(("↑ off the chart: " + ", ".join(cut)) if cut else "")
        self._update_info()

    def _update_axis_line(self) -> None:
        """The fixed axis slerp turns about, through the sphere (hidden for no turn)."""
        path = quaternion.as_float_array(self.paths["slerp"])
        rel = quaternion.as_float_array(
            quaternion.as_quat_array(path[-1]) * quaternion.as_quat_array(path[0]).conjugate())
        vec = rel[1:]
        norm = np.linalg.norm(vec)
        if norm < 1e-9:
            self.axis_line.set_data([], [])
            self.sphere_note = "start and end are the same orientation: nothing to turn"
            return
        axis = vec / norm
        ends = self.camera.project(np.stack([-1.1 * axis, 1.1 * axis]))
        self.axis_line.set_data(ends[:, 0], ends[:, 1])
        # is the slerp nose path a great circle? only when the nose is square to the axis
        tilt = float(np.degrees(np.arcsin(np.clip(abs(self.noses["slerp"][0] @ axis), 0, 1))))
        kind = ("a great circle" if tilt < 0.5
                else f"a circle {tilt:.0f}° away from a great circle")
        self.sphere_note = (f"slerp turns about one fixed axis (-·-), so its nose moves on "
                            f"{kind}")

    def _outline(self, frame: np.ndarray) -> np.ndarray:
        return self.camera.project(_EDGES @ frame.T)[..., :2]

    def _body(self, frame: np.ndarray):
        pts = self.camera.project(_FACE_POINTS @ frame.T)            # (faces, 3, 3)
        normals = _FACE_NORMALS @ frame.T
        facing = normals @ self.camera.basis[2]
        light = np.abs(normals @ self.camera.light)
        shade = (0.55 + 0.45 * light) * np.where(facing >= 0, 1.0, 0.8)
        order = np.argsort(pts[..., 2].mean(axis=1))                  # far faces first
        colours = np.clip(_FACE_RGB * shade[:, None], 0, 1)
        return pts[order, :, :2], colours[order]

    def update_t(self) -> None:
        """Move the three objects, ghosts, trails, sphere markers and cursor to ``t``."""
        t = float(self.t.value)
        cam = self.camera
        upto = self.ts <= t + 1e-9
        for m in METHODS:
            q = self._blend(m, t)
            self.current[m] = q
            frame = quaternion.as_rotation_matrix(q)
            verts, colours = self._body(frame)
            self.bodies[m].set_verts(verts)
            self.bodies[m].set_facecolor(colours)
            ghost_frames = _rotation_matrices(self._blend(m, GHOSTS[GHOSTS <= t + 1e-9]))
            self.ghosts[m].set_segments(
                [seg for g in ghost_frames.reshape(-1, 3, 3) for seg in self._outline(g)])
            tips = cam.project(np.vstack([self.noses[m][upto], frame @ NOSE]) * _TIP[2] * _SIZE)
            self.trails[m].set_data(tips[:, 0], tips[:, 1])
            nose = cam.project(frame @ NOSE)
            self.nose_now[m].set_data([nose[0]], [nose[1]])
            self.nose_now[m].set_zorder(5 if nose[2] >= 0 else 1.5)
            up = cam.project(frame @ UP)
            self.up_now[m].set_data([up[0]], [up[1]])
            moved = angle_between(self.q0, q)
            left = angle_between(q, self.q1)
            self.readouts[m].set_text(f"{moved:.0f}° from start · {left:.0f}° to end")
        self.cursor.set_xdata([t, t])
        self.redraw()

    def _update_info(self) -> None:
        """The HTML panel: total angles, the sign of q1, the key to the sphere."""
        a = quaternion.as_float_array(self.q0)
        b = quaternion.as_float_array(self.q1)
        dot = float(a @ b)
        towards = "−q₁" if dot < 0 else "+q₁"
        other = "+q₁" if dot < 0 else "−q₁"
        short, long_ = self.true_angle, 360.0 - self.true_angle
        using = (f"long way: blends to {other}, {long_:.0f}°" if self.long_way.value
                 else f"short way: blends to {towards}, {short:.0f}°")
        flip = (dot < 0) != self.long_way.value
        target = _fmt_q(-self.q1 if flip else self.q1)
        totals = " &nbsp; ".join(
            f"<b style='color:{COLOURS[m]}'>{LABELS[m]} {self.totals[m]:.0f}°</b>"
            for m in METHODS)
        self.info.value = (
            "<div style='font-size:13px;line-height:1.45'>"
            f"<b>angle turned</b>: {totals}<br>"
            f"true angle between start and end: <b>{self.true_angle:.0f}°</b><br>"
            f"q₀ = {html.escape(_fmt_q(self.q0))}<br>q₁ = {html.escape(_fmt_q(self.q1))}<br>"
            f"q₀·q₁ = {dot:+.3f} → nlerp/slerp {html.escape(using)}<br>"
            f"target used: {html.escape(target)}<br>"
            f"<span style='color:#555'>{html.escape(self.sphere_note)}.<br>"
            "Sphere: ○ start, ✖ end, dots every 0.1 of t.</span></div>")
