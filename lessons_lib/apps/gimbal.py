"""Lesson 1 app: three nested gimbal rings, an aircraft inside, every rotation order.

The view is a matplotlib 3D axes (orbit it with the mouse). Beside it: the rotation matrix,
the quaternion, the angles read back from the matrix (exactly, and with the common 0.4995
recipe), and a lock meter that becomes a LOCKED badge when the middle ring nears +-90.
Coloured traces show where the fin tip goes when each ring turns a little: at the lock the
outer and inner traces lie on top of each other, which is the lost degree of freedom.
"""

from __future__ import annotations

from contextlib import contextmanager

import ipywidgets as widgets
import numpy as np
from matplotlib.colors import to_rgba

from .. import rotations as rot
from .style import PALETTE, LessonApp, make_figure, rc_context

#: Ring colours, outer to inner (Okabe & Ito: blue, orange, bluish green).
RING_COLOURS = (PALETTE["blue"], PALETTE["orange"], PALETTE["green"])
RING_NAMES = ("outer", "middle", "inner")
RING_RADII = (1.0, 0.84, 0.69)

#: The badge says LOCKED when the outer and inner axes are at most this many degrees apart,
#: i.e. when the middle ring is within one slider step of +-90.
LOCK_BADGE_DEG = 1.0
#: Below this the meter warns that the lock is near.
NEAR_LOCK_DEG = 15.0

#: Each ring's trace shows the fin tip while that ring turns by +-TRACE_DEG degrees (a dot
#: marks the + end). At the lock the outer and inner traces cover the same arc.
TRACE_DEG = 45.0

#: Standard views: (elevation, azimuth) of the camera in matplotlib's frame.
VIEWS = {"3/4": (28.0, -32.0), "back": (10.0, 180.0), "side": (0.0, 90.0),
         "top": (90.0, 180.0)}

_BASIS = np.eye(3)
_LABEL_AT = (0.8, 2.45, 4.2)  # radians round each ring (outer, middle, inner)
_INDEX = {"X": 0, "Y": 1, "Z": 2}

# The aircraft, in body coordinates: y up, z out of the nose, so (right-handed) x points out
# of the left wing. Triangles/quads, each with a colour key. About 1.1 long, so it fits
# inside the inner ring. _XM/_XP/_U/_D: the fuselage's -x, +x, top and bottom points.
_NOSE, _TAIL = (0.0, 0.0, 0.58), (0.0, 0.0, -0.52)
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


def _to_plot(v: np.ndarray) -> np.ndarray:
    """World (x, y, z), Y up, to matplotlib's frame (z up): (z, x, y). A cyclic
    permutation, so the picture stays right-handed."""
    v = np.asarray(v, dtype=float)
    return v[..., [2, 0, 1]]


def _fmt(x: float, digits: int = 3) -> str:
    text = f"{x:+.{digits}f}"
    return "+0." + "0" * digits if text in ("-0." + "0" * digits,) else text


def _angle_between_lines(u: np.ndarray, v: np.ndarray) -> float | None:
    """Degrees between the lines along u and v (0..90); None when one has no direction."""
    nu, nv = np.linalg.norm(u), np.linalg.norm(v)
    if nu < 1e-9 or nv < 1e-9:
        return None
    return float(np.degrees(np.arctan2(np.linalg.norm(np.cross(u, v)), abs(u @ v))))


class GimbalApp(LessonApp):
    """Gimbal rings on sliders, in any of the six orders, with matrix and quaternion beside.

    Controls (attributes): ``yaw``, ``pitch``, ``roll`` (sliders, degrees), ``order``
    (dropdown), ``lock_button``, ``reset_button``, ``view_buttons`` (dict). Artists:
    ``ring_lines``, ``axis_lines``, ``trace_lines``, ``ring_labels`` (outer to inner),
    ``aircraft``. ``state`` holds what was drawn last (matrix, quaternion, axes, ...).
    """

    def __init__(self, yaw: float = 35.0, pitch: float = -20.0, roll: float = 15.0,
                 order: str = "YXZ", width: float = 5.6, height: float = 4.8) -> None:
        super().__init__()
        rot.check_order(order)
        self._initial = (float(yaw), float(pitch), float(roll), order)
        self.state: dict = {}

        # -- controls ----------------------------------------------------------------------
        def slider(name, axis, value):
            return widgets.FloatSlider(
                value=value, min=-180, max=180, step=1, description=f"{name} ({axis})",
                readout_format=".0f", continuous_update=True,
                style={"description_width": "70px"}, layout=widgets.Layout(width="330px"))

        self.yaw = slider("yaw", "Y", yaw)
        self.pitch = slider("pitch", "X", pitch)
        self.roll = slider("roll", "Z", roll)
        self.sliders = {"yaw": self.yaw, "pitch": self.pitch, "roll": self.roll}
        self.order = widgets.Dropdown(
            options=[(self._order_label(o), o) for o in rot.ORDERS], value=order,
            description="order", style={"description_width": "70px"},
            layout=widgets.Layout(width="330px"))
        self.lock_button = widgets.Button(description="Lock it", icon="lock",
                                          tooltip="turn the middle ring to 90 degrees",
                                          layout=widgets.Layout(width="105px"))
        self.reset_button = widgets.Button(description="Reset", icon="undo",
                                           tooltip="back to the starting angles and order",
                                           layout=widgets.Layout(width="105px"))
        self.view_buttons = {name: widgets.Button(description=name, tooltip=f"{name} view",
                                                  layout=widgets.Layout(width="58px"))
                             for name in VIEWS}
        self.slider_box = widgets.VBox()
        self.lock_badge = widgets.HTML()
        self.info = widgets.HTML()
        self.title = widgets.HTML()

        # -- figure, built once ------------------------------------------------------------
        self.fig = make_figure(width, height)
        with rc_context():
            self.ax = self.fig.add_axes((0.0, 0.0, 1.0, 1.0), projection="3d")
        self._build_artists()

        # -- wiring -------------------------------------------------------------------------
        for s in self.sliders.values():
            s.observe(self.guard(self._on_change), names="value")
        self.order.observe(self.guard(self._on_order), names="value")
        self.lock_button.on_click(self.guard(lambda _b: self.lock_it()))
        self.reset_button.on_click(self.guard(lambda _b: self.reset()))
        for name, button in self.view_buttons.items():
            button.on_click(self.guard(lambda _b, n=name: self.set_view(n)))

        views = widgets.HBox([widgets.Label("view", layout=widgets.Layout(width="40px"))]
                             + list(self.view_buttons.values()))
        side = widgets.VBox(
            [self.slider_box, self.order,
             widgets.HBox([self.lock_button, self.reset_button]), views,
             self.lock_badge, self.info, self.status],
            layout=widgets.Layout(width="410px", padding="0 0 0 8px"))
        self.widget = widgets.HBox([widgets.VBox([self.title, self.fig.canvas]), side],
                                   layout=widgets.Layout(align_items="flex-start"))
        self._renest()
        self._update()

    def _ipython_display_(self):  # a bare `GimbalApp()` at the end of a cell shows the app
        from IPython.display import display

        display(self.widget)

    # -- construction ------------------------------------------------------------------------
    @staticmethod
    def _order_label(order: str) -> str:
        names = rot.ring_angle_names(order)
        return f"{order}: {names[0]} > {names[1]} > {names[2]}"

    def _build_artists(self) -> None:
        from mpl_toolkits.mplot3d.art3d import Poly3DCollection

        ax = self.ax
        ax.set_axis_off()
        lim = 1.02
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_zlim(-lim, lim)
        ax.set_box_aspect((1, 1, 1), zoom=1.35)
        ax.view_init(*VIEWS["3/4"])
        ax.set_proj_type("persp", focal_length=0.35)
        # fixed drawing order: rings and axes, then the aircraft, then the traces on top (a
        # per-frame depth sort would make the traces blink behind the wings)
        ax.computed_zorder = False

        # fixed world triad (one artist: the three arms are split by NaN) and the stand
        # holding the outer ring
        origin = np.array([-0.95, -0.95, -0.95])
        arms = []
        for k in range(3):
            arms += [_to_plot(origin), _to_plot(origin + 0.32 * _BASIS[k]), [np.nan] * 3]
        arms = np.array(arms)
        (self.world_lines,) = ax.plot(arms[:, 0], arms[:, 1], arms[:, 2],
                                      color=PALETTE["black"], lw=1.2)
        self.world_labels = [ax.text(*_to_plot(origin + 0.42 * _BASIS[k]), name, fontsize=8,
                                     ha="center", va="center")
                             for k, name in enumerate(("X", "Y up", "Z"))]
        (self.stand,) = ax.plot([], [], [], color=PALETTE["grey"], lw=3, ls=(0, (2, 2)))

        self.ring_lines, self.axis_lines, self.trace_lines = [], [], []
        self.ring_labels = []
        for n in range(3):
            colour = RING_COLOURS[n]
            (ring,) = ax.plot([], [], [], color=colour, lw=4.5 - n * 0.6, solid_capstyle="round",
                              zorder=1)
            (axis,) = ax.plot([], [], [], color=colour, lw=1.6, ls="--", zorder=2)
            # the outer trace is wide and pale, the inner one narrow: when they coincide (at
            # the lock) both stay visible, one inside the other. A solid dot marks the + end.
            (trace,) = ax.plot([], [], [], color=to_rgba(colour, (0.45, 0.9, 1.0)[n]),
                               lw=(7.0, 3.0, 2.5)[n], solid_capstyle="round", zorder=4,
                               marker="o", markevery=[-1], ms=(10, 6, 5)[n], mfc=colour,
                               mec=colour)
            label = ax.text(0, 0, 0, "", color=colour, fontsize=10, fontweight="bold",
                            ha="center", va="center", zorder=5,
                            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                                  "alpha": 0.75})
            self.ring_lines.append(ring)
            self.axis_lines.append(axis)
            self.trace_lines.append(trace)
            self.ring_labels.append(label)

        faces = [np.array(f, dtype=float) for f, _ in _AIRCRAFT]
        self._aircraft_body = faces
        self.aircraft = Poly3DCollection(
            [_to_plot(f) for f in faces], facecolors=[_FACE_COLOURS[k] for _, k in _AIRCRAFT],
            edgecolors="#404040", linewidths=0.5, zorder=3)
        ax.add_collection3d(self.aircraft)
        (self.fin_marker,) = ax.plot([], [], [], marker="o", ms=5, color=PALETTE["black"],
                                     ls="none", zorder=5)

    # -- actions -----------------------------------------------------------------------------
    def angles(self) -> tuple[float, float, float]:
        return float(self.yaw.value), float(self.pitch.value), float(self.roll.value)

    def set_angles(self, yaw: float | None = None, pitch: float | None = None,
                   roll: float | None = None) -> None:
        """Move several sliders at once and draw once."""
        with self._held():
            for name, value in (("yaw", yaw), ("pitch", pitch), ("roll", roll)):
                if value is not None:
                    self.sliders[name].value = float(value)
        self._update()

    def lock_it(self) -> None:
        """Turn the middle ring to +90 degrees: the outer and inner rings line up."""
        self.set_angles(**{rot.middle_angle_name(self.order.value): 90.0})

    def reset(self) -> None:
        yaw, pitch, roll, order = self._initial
        with self._held():
            self.order.value = order
            self.yaw.value, self.pitch.value, self.roll.value = yaw, pitch, roll
        self._renest()
        self._update()
        self.set_view("3/4")

    def set_view(self, name: str) -> None:
        if name not in VIEWS:
            raise ValueError(f"unknown view {name!r}: choose one of {', '.join(VIEWS)}")
        self.ax.view_init(*VIEWS[name])
        self.redraw()

    _holding = False

    @contextmanager
    def _held(self):
        """Change several controls without a redraw for each; the caller draws once."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False

    def _on_change(self, _change=None) -> None:
        if not self._holding:
            self._update()

    def _on_order(self, _change=None) -> None:
        if self._holding:
            return
        self._renest()
        self._update()

    def _renest(self) -> None:
        """Put the sliders in ring order (outer first) with their ring's colour."""
        order = self.order.value
        names = rot.ring_angle_names(order)
        for n, name in enumerate(names):
            s = self.sliders[name]
            s.style.handle_color = RING_COLOURS[n]
        self.slider_box.children = [self.sliders[name] for name in names]

    # -- drawing -----------------------------------------------------------------------------
    def _update(self) -> None:
        order = self.order.value
        yaw, pitch, roll = self.angles()
        ring_angles = dict(zip("YXZ", (yaw, pitch, roll), strict=True))
        outer, middle, inner = (ring_angles[a] for a in order)

        R_outer = rot.axis_rotation(order[0], outer)
        R_middle = R_outer @ rot.axis_rotation(order[1], middle)
        R = R_middle @ rot.axis_rotation(order[2], inner)
        frames = (R_outer, R_middle, R)
        axes = rot.gimbal_axes(yaw, pitch, roll, order)
        q = rot.euler_to_quaternion(yaw, pitch, roll, order)
        i, j, k = (_INDEX[a] for a in order)
        # each ring lies in the plane of its own axis and the next ring's axis
        planes = ((i, j), (j, k), (k, i))
        theta = np.linspace(0, 2 * np.pi, 97)
        names = rot.ring_angle_names(order)
        values = (outer, middle, inner)

        for n in range(3):
            u, v = _BASIS[planes[n][0]], _BASIS[planes[n][1]]
            r = RING_RADII[n]
            circle = r * (np.cos(theta)[:, None] * u + np.sin(theta)[:, None] * v)
            pts = _to_plot(circle @ frames[n].T)
            self.ring_lines[n].set_data_3d(pts[:, 0], pts[:, 1], pts[:, 2])
            ends = _to_plot(np.outer([-1.12 * r, 1.12 * r], axes[n]))
            self.axis_lines[n].set_data_3d(ends[:, 0], ends[:, 1], ends[:, 2])
            # labels sit at different places round their rings, so that two rings lying in
            # one plane (at the lock) do not put their labels on top of each other
            t = _LABEL_AT[n]
            where = frames[n] @ (r * (np.cos(t) * u + np.sin(t) * v))
            self.ring_labels[n].set_position_3d(_to_plot(where))
            self.ring_labels[n].set_text(f"{names[n]} {values[n]:.0f}°")
        stand = _to_plot(np.outer([-1.3, -1.0], _BASIS[i]))
        self.stand.set_data_3d(stand[:, 0], stand[:, 1], stand[:, 2])

        self.aircraft.set_verts([_to_plot(f @ R.T) for f in self._aircraft_body])

        # where the fin tip goes when each ring alone turns by -TRACE_DEG .. +TRACE_DEG
        tip = R @ FIN_TIP
        fin = _to_plot(tip)
        self.fin_marker.set_data_3d([fin[0]], [fin[1]], [fin[2]])
        sweep = np.linspace(-TRACE_DEG, TRACE_DEG, 25)
        velocities = []
        for n in range(3):
            turned = rot.axis_angle_matrix(axes[n], sweep) @ tip
            pts = _to_plot(turned)
            self.trace_lines[n].set_data_3d(pts[:, 0], pts[:, 1], pts[:, 2])
            velocities.append(np.cross(axes[n], tip))

        lock_angle = rot.lock_angle(yaw, pitch, roll, order)
        locked = lock_angle <= LOCK_BADGE_DEG + 1e-9  # slider steps land on 89 exactly
        exact = rot.matrix_to_euler(R, order)
        naive = rot.quaternion_to_euler_naive(q, order)
        naive_error = rot.angle_between(rot.euler_to_matrix(*naive, order), R)
        trace_gap = _angle_between_lines(velocities[0], velocities[2])

        self.state = {"order": order, "angles": (yaw, pitch, roll), "matrix": R,
                      "quaternion": q, "axes": axes, "lock_angle": lock_angle,
                      "lock_measure": rot.lock_measure(yaw, pitch, roll, order),
                      "locked": locked, "readback": exact, "naive": naive,
                      "naive_error": naive_error, "fin_velocities": np.array(velocities),
                      "trace_gap": trace_gap}

        rings = ", ".join(f'{where} <b style="color:{c}">{name}</b>' for where, name, c
                          in zip(RING_NAMES, names, RING_COLOURS, strict=True))
        if locked:
            banner = (f'<span class="gimbal-lock-banner" style="background:'
                      f'{PALETTE["vermillion"]};color:white;font-weight:700;padding:2px 8px;'
                      f'border-radius:4px">GIMBAL LOCK: {names[0]} and {names[2]} now turn '
                      'about the same axis</span>')
        else:
            banner = (f'<span style="color:{PALETTE["grey"]};font-size:12px">'
                      "drag the picture to orbit it</span>")
        self.title.value = (f'<div style="font-size:14px;line-height:1.6">Order <b>{order}</b>'
                            f": {rings}<br>{banner}</div>")
        self._update_panel()
        self.redraw()

    def _update_panel(self) -> None:
        st = self.state
        order, R, q = st["order"], st["matrix"], st["quaternion"]
        names = rot.ring_angle_names(order)
        lock_angle = st["lock_angle"]
        if st["locked"]:
            colour, word = PALETTE["vermillion"], "LOCKED"
        elif lock_angle < NEAR_LOCK_DEG:
            colour, word = PALETTE["orange"], "nearly locked"
        else:
            colour, word = PALETTE["green"], "free"
        width = max(2.0, 100.0 * lock_angle / 90.0)
        badge = (f'<span class="gimbal-badge" style="background:{colour};color:white;'
                 f'font-weight:700;padding:1px 8px;border-radius:4px">{word}</span>')
        self.lock_badge.value = (
            f'<div style="line-height:1.35">{badge} '
            f'<b>{names[0]}</b> and <b>{names[2]}</b> axes {lock_angle:.1f}° apart'
            f'<div style="background:{PALETTE["light"]};height:9px;width:300px;margin:3px 0">'
            f'<div style="background:{colour};height:9px;width:{width:.1f}%"></div></div>'
            f'<span style="font-size:12px">The lock is at <b>{names[1]} = ±90°</b> '
            f'(the middle ring in order {order}).</span></div>')

        cell = 'style="padding:0 6px;text-align:right"'
        rows = "".join("<tr>" + "".join(f"<td {cell}>{_fmt(x)}</td>" for x in row) + "</tr>"
                       for row in R)
        w, x, y, z = q.w, q.x, q.y, q.z
        sliders = st["angles"]

        def angle_row(label, t, extra=""):
            cells = "".join(f'<td style="padding:0 5px;text-align:right">{v:.1f}°</td>'
                            for v in t)
            return f"<tr><td>{label}</td>{cells}<td>{extra}</td></tr>"

        same = np.allclose(st["readback"], sliders, atol=0.05)
        note = ("the same numbers as the sliders" if same else
                "<b>a different triple, the same orientation</b>")
        gap = st["trace_gap"]
        if gap is not None and gap < 0.5:
            traces = (f"{names[0]} and {names[2]} move it along <b>the same circle</b>: "
                      "the same motion!")
        else:
            traces = (f"where the fin tip goes if one ring turns by ±{TRACE_DEG:.0f}° "
                      "(dot: the + end).")
        err = st["naive_error"]
        err_colour = PALETTE["vermillion"] if err > 0.01 else PALETTE["grey"]
        head = "".join(f'<th style="padding:0 5px;text-align:right">{a}</th>'
                       for a in ("yaw", "pitch", "roll"))
        self.info.value = (
            '<div style="font-size:13px;line-height:1.3">'
            f'<b>R</b> = R<sub>{order[0]}</sub>·R<sub>{order[1]}</sub>·R<sub>{order[2]}</sub>'
            f'<table style="font-family:monospace;border-left:2px solid #444;'
            f'border-right:2px solid #444;margin:2px 0 4px 0">{rows}</table>'
            f'<b>q</b> (w, x, y, z) = <span style="font-family:monospace">({_fmt(w)}, '
            f'{_fmt(x)}, {_fmt(y)}, {_fmt(z)})</span>'
            f'<table style="margin:4px 0"><tr><td></td>{head}<td></td></tr>'
            + angle_row("sliders", sliders)
            + angle_row("<b>read back from R</b>", st["readback"])
            + angle_row("0.4995 recipe", st["naive"],
                        f'<span style="color:{err_colour}">off by {err:.2f}°</span>')
            + f'</table><span style="font-size:12px">Read back: {note}</span><br>'
            f'<b>Fin-tip traces</b>: {traces}'
            '</div>')
