"""Lesson 4 apps: string pulling on a grid (:class:`GridApp`) and the funnel algorithm
stepping through a navmesh corridor portal by portal (:class:`FunnelApp`).

Both build their figure once and update artists in place; every callback is guarded.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np
from matplotlib.collections import LineCollection, PathCollection, PolyCollection
from matplotlib.patches import Circle, Rectangle
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

from .. import funnel as fn
from .. import pathsmooth as ps
from ..navmesh import NavMesh, NoRouteError, lesson_navmesh
from .style import PALETTE, LessonApp, make_figure, rc_context

LEFT_COLOUR = PALETTE["vermillion"]
RIGHT_COLOUR = PALETTE["blue"]
TESTED_COLOUR = PALETTE["green"]
ZIGZAG_COLOUR = PALETTE["purple"]
PATH_COLOUR = PALETTE["black"]
START_COLOUR = PALETTE["green"]
GOAL_COLOUR = PALETTE["orange"]

#: the default query on the lesson map: lower left room to upper right room
DEFAULT_START = (1.2, 1.0)
DEFAULT_GOAL = (14.8, 9.0)
LABEL_SIZE = 7.0  # points

#: the lesson's grid (x to the right, y up; '#' blocked). Row 0 of the text is the TOP row.
LESSON_GRID = """
.....#........
.....#........
.....#........
.....#........
..............
..##..........
..##..........
..##..........
..............
""".strip("\n")
GRID_START = (0, 7)
GRID_GOAL = (9, 8)


def parse_grid(text: str) -> np.ndarray:
    """A text map ('#' blocked, '.' free; first line is the top) as ``grid[y, x]``."""
    rows = [r for r in text.strip("\n").splitlines()]
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("the grid text must have rows of equal length")
    bad = set("".join(rows)) - set(".#")
    if bad:
        raise ValueError(f"the grid text may only hold '.' and '#', found {sorted(bad)}")
    return np.array([[c == "#" for c in r] for r in reversed(rows)], dtype=bool)


_LABEL_CACHE: dict[int, tuple[Path, Path]] = {}


def _label_paths(k: int) -> tuple[Path, Path]:
    """Outline of the number ``k`` centred on (0, 0), and a box behind it, in points."""
    if k not in _LABEL_CACHE:
        text = TextPath((0, 0), str(k), size=LABEL_SIZE)
        ext = text.get_extents()
        cx, cy = (ext.x0 + ext.x1) / 2, (ext.y0 + ext.y1) / 2
        glyph = text.transformed(Affine2D().translate(-cx, -cy))
        hw, hh = ext.width / 2 + 1.2, ext.height / 2 + 1.2
        box = Path([(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh), (-hw, -hh)], closed=True)
        _LABEL_CACHE[k] = (glyph, box)
    return _LABEL_CACHE[k]


def _html_lengths(zig: float, path: float) -> str:
    saved = 100.0 * (1.0 - path / zig) if zig > 0 else 0.0
    return (f'<span style="color:{ZIGZAG_COLOUR}"><b>zigzag</b> {zig:.2f} m</span> &middot; '
            f'<b>funnel</b> {path:.2f} m &middot; <b>saved {saved:.1f}%</b>')


class FunnelApp(LessonApp):
    """Step the funnel algorithm through the corridor between a start and a goal.

    Controls (attributes): ``play``, ``step`` (slider), ``prev_button``, ``next_button``,
    ``reset_button``, ``show_zigzag``, ``show_path``, ``radius``, ``click_mode``.
    Call :meth:`set_points` to move start and goal from code.
    """

    def __init__(self, mesh: NavMesh | None = None, start=DEFAULT_START, goal=DEFAULT_GOAL,
                 width: float = 6.6, height: float = 4.25) -> None:
        super().__init__()
        self.mesh = mesh if mesh is not None else lesson_navmesh()
        self.start = np.asarray(start, dtype=float)
        self.goal = np.asarray(goal, dtype=float)
        self.route = None
        self.steps: list[fn.FunnelStep] = []
        self.portals = np.zeros((0, 2, 2))
        self.used_portals = np.zeros((0, 2, 2))
        self.clearance = float("nan")
        self.narrow_portal: int | None = None
        self._dragging: str | None = None
        self._route_key: tuple | None = None

        # -- controls
        self.play = widgets.Play(value=0, min=0, max=1, step=1, interval=900,
                                 description="play", show_repeat=False,
                                 layout=widgets.Layout(width="90px"))
        self.step = widgets.IntSlider(value=0, min=0, max=1, description="step",
                                      continuous_update=True,
                                      style={"description_width": "40px"},
                                      layout=widgets.Layout(width="260px"))
        self.prev_button = widgets.Button(description="", icon="step-backward",
                                          tooltip="previous step",
                                          layout=widgets.Layout(width="44px"))
        self.next_button = widgets.Button(description="", icon="step-forward",
                                          tooltip="next step", layout=widgets.Layout(width="44px"))
        self.reset_button = widgets.Button(description="reset", icon="undo",
                                           tooltip="back to the first step",
                                           layout=widgets.Layout(width="80px"))
        self.end_button = widgets.Button(description="finish", icon="fast-forward",
                                         tooltip="jump to the finished path",
                                         layout=widgets.Layout(width="80px"))
        self.show_zigzag = widgets.Checkbox(value=True, description="portal-midpoint zigzag",
                                            indent=False, layout=widgets.Layout(width="auto"))
        self.show_path = widgets.Checkbox(value=False, description="finished funnel path",
                                          indent=False, layout=widgets.Layout(width="auto"))
        self.radius = widgets.FloatSlider(value=0.0, min=0.0, max=0.9, step=0.05,
                                          description="agent radius", readout_format=".2f",
                                          style={"description_width": "85px"},
                                          layout=widgets.Layout(width="310px"))
        self.click_mode = widgets.ToggleButtons(options=["start", "goal"], value="goal",
                                                description="click moves",
                                                style={"description_width": "75px",
                                                       "button_width": "60px"})
        self.step_text = widgets.HTML(layout=widgets.Layout(min_height="9em"))
        self.lengths = widgets.HTML()
        self.clearance_text = widgets.HTML()

        # -- figure, built once
        self.fig = make_figure(width, height)
        with rc_context():
            self.ax = self.fig.add_axes((0.01, 0.01, 0.98, 0.98))
        self._build_artists()

        side = widgets.VBox(
            [self.step_text, self.lengths, self.show_zigzag, self.show_path, self.radius,
             self.clearance_text, self.click_mode,
             widgets.HTML(f'<small>Drag the <b style="color:{START_COLOUR}">start</b> or '
                          f'<b style="color:{GOAL_COLOUR}">goal</b>, or click the map.<br>'
                          f'Portal ends: <b style="color:{LEFT_COLOUR}">left</b> / '
                          f'<b style="color:{RIGHT_COLOUR}">right</b> as the traveller '
                          'sees them.</small>'),
             self.status],
            layout=widgets.Layout(width="345px", padding="0 0 0 8px"))
        self.fig.canvas.layout.flex = "0 0 auto"
        steps_row = widgets.HBox([self.play, self.prev_button, self.next_button, self.step,
                                  self.reset_button, self.end_button],
                                 layout=widgets.Layout(align_items="center"))
        self.widget = widgets.HBox([widgets.VBox([self.fig.canvas, steps_row]), side],
                                   layout=widgets.Layout(align_items="flex-start"))

        # -- wiring (every callback guarded)
        self.play.observe(self.guard(self._on_play), names="value")
        self.step.observe(self.guard(self._on_step), names="value")
        self.prev_button.on_click(self.guard(lambda _b: self._nudge(-1)))
        self.next_button.on_click(self.guard(lambda _b: self._nudge(+1)))
        self.reset_button.on_click(self.guard(lambda _b: self._goto(0)))
        self.end_button.on_click(self.guard(lambda _b: self._goto(self.step.max)))
        self.show_zigzag.observe(self.guard(lambda _c: self._draw_overlays()), names="value")
        self.show_path.observe(self.guard(lambda _c: self._draw_overlays()), names="value")
        self.radius.observe(self.guard(lambda _c: self.recompute()), names="value")
        canvas = self.fig.canvas
        canvas.mpl_connect("button_press_event", self.guard(self._on_press))
        canvas.mpl_connect("motion_notify_event", self.guard(self._on_motion))
        canvas.mpl_connect("button_release_event", self.guard(self._on_release))

        self.recompute()

    # -- artists --------------------------------------------------------------------------
    def _build_artists(self) -> None:
        ax = self.ax
        lo, hi = self.mesh.bounds
        ax.set_xlim(lo[0] - 0.2, hi[0] + 0.2)
        ax.set_ylim(lo[1] - 0.2, hi[1] + 0.2)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ("left", "bottom", "top", "right"):
            ax.spines[side].set_visible(False)
        # walls and pillars: the dark background the floor polygons are laid on
        ax.add_patch(Rectangle(
            lo, *(hi - lo), facecolor="#5A5A5A", edgecolor="none", zorder=0))
        self.floor = PolyCollection(self.mesh.coords, facecolors="#F4F4F4",
                                    edgecolors="#C8C8C8", linewidths=0.6, zorder=1)
        ax.add_collection(self.floor)
        self.corridor = PolyCollection([], facecolors="#D6ECFA", edgecolors="#A9CBE3",
                                       linewidths=0.6, zorder=2)
        ax.add_collection(self.corridor)
        self.portal_lines = LineCollection([], colors="#7A7A7A", linewidths=1.0, zorder=3)
        ax.add_collection(self.portal_lines)
        self.shrunk_lines = LineCollection([], colors=PALETTE["green"], linewidths=2.2,
                                           alpha=0.55, zorder=3)
        ax.add_collection(self.shrunk_lines)
        (self.left_ends,) = ax.plot([], [], "o", ms=4, color=LEFT_COLOUR, zorder=6)
        (self.right_ends,) = ax.plot([], [], "o", ms=4, color=RIGHT_COLOUR, zorder=6)
        # Portal numbers: glyph outlines in one PathCollection on white boxes in another,
        # two draw calls instead of one text layout + box per portal.
        points = Affine2D().scale(self.fig.dpi / 72.0)
        self.label_boxes = PathCollection([], offsets=np.zeros((0, 2)),
                                          offset_transform=ax.transData, transform=points,
                                          facecolors="white", edgecolors="none", alpha=0.85,
                                          zorder=7)
        self.labels = PathCollection([], offsets=np.zeros((0, 2)),
                                     offset_transform=ax.transData, transform=points,
                                     facecolors="#333333", edgecolors="none", zorder=7.5)
        ax.add_collection(self.label_boxes)
        ax.add_collection(self.labels)
        (self.zigzag,) = ax.plot([], [], "--", lw=1.6, color=ZIGZAG_COLOUR, zorder=4,
                                 label="portal-midpoint zigzag")
        (self.final_path,) = ax.plot([], [], "-", lw=2.5, color=PALETTE["sky"], zorder=4,
                                     alpha=0.9, label="funnel path")
        (self.tested,) = ax.plot([], [], "-", lw=5, color=TESTED_COLOUR, alpha=0.6,
                                 solid_capstyle="round", zorder=5)
        (self.left_edge,) = ax.plot([], [], "-", lw=1.8, color=LEFT_COLOUR, zorder=8)
        (self.right_edge,) = ax.plot([], [], "-", lw=1.8, color=RIGHT_COLOUR, zorder=8)
        (self.corners,) = ax.plot([], [], "-o", lw=2.4, ms=5, color=PATH_COLOUR, zorder=9)
        (self.apex,) = ax.plot([], [], "*", ms=16, color=PALETTE["yellow"], mec="black",
                               mew=0.8, zorder=13)
        (self.narrow_mark,) = ax.plot([], [], "X", ms=14, color=PALETTE["vermillion"],
                                      mec="white", zorder=11)
        self.agent = Circle((0, 0), 0.0, facecolor=START_COLOUR, alpha=0.25, edgecolor="none",
                            zorder=10)
        ax.add_patch(self.agent)
        (self.start_dot,) = ax.plot([], [], "o", ms=11, color=START_COLOUR, mec="white",
                                    mew=1.2, zorder=12)
        (self.goal_dot,) = ax.plot([], [], "s", ms=10, color=GOAL_COLOUR, mec="black",
                                   mew=0.8, zorder=12)

    # -- the model ------------------------------------------------------------------------
    def set_points(self, start=None, goal=None) -> None:
        """Move the start and/or goal (map coordinates) and rerun corridor and funnel."""
        for name, value in (("start", start), ("goal", goal)):
            if value is None:
                continue
            p = np.asarray(value, dtype=float)
            if self.mesh.locate(p) is None:
                raise ValueError(f"the {name} ({p[0]:.2f}, {p[1]:.2f}) is inside a wall: "
                                 "put it on the floor")
            setattr(self, name, p)
        self.recompute()

    def recompute(self, keep_step: bool = False) -> None:
        """Corridor search, portals, funnel trace; then redraw everything."""
        self.clear_message()
        self.narrow_portal = None
        r = float(self.radius.value)
        key = (tuple(self.start), tuple(self.goal))
        if self.route is not None and self._route_key == key:
            route = self.route  # only the radius changed: same corridor, same portals
        else:
            try:
                route = self.mesh.route(self.start, self.goal)  # corridor and raw portals
            except NoRouteError as exc:
                self.show_message(str(exc))
                return
            self._route_key = key
        self.route = route
        self.portals = route.portals
        used = self.portals
        if r > 0:
            try:
                used = fn.shrink_portals(self.portals, r)
            except fn.CorridorTooNarrow as exc:
                self.narrow_portal = exc.index
                self.show_message(str(exc))
                used = None
        self.used_portals = used
        if used is None:
            self.steps = []
            self.clearance = float("nan")
        else:
            self.steps = fn.funnel_steps(self.start, self.goal, used)
            walls = fn.corridor_walls(self.mesh.corridor_polygons(route.corridor))
            self.clearance = fn.path_clearance(fn.path_from_steps(self.steps), walls)
        n = max(len(self.steps) - 1, 1)
        old = self.step.value
        with self.step.hold_trait_notifications(), self.play.hold_trait_notifications():
            self.step.max = n
            self.play.max = n
        target = min(old, n) if keep_step else n
        if self.step.value != target:
            self.step.value = target  # observer draws the step
        else:
            self._draw_step(target)
        self._draw_route()

    # -- drawing --------------------------------------------------------------------------
    def _draw_route(self) -> None:
        route = self.route
        self.corridor.set_verts(self.mesh.corridor_polygons(route.corridor))
        self.portal_lines.set_segments(list(self.portals))
        if len(self.portals):
            self.left_ends.set_data(self.portals[:, 0, 0], self.portals[:, 0, 1])
            self.right_ends.set_data(self.portals[:, 1, 0], self.portals[:, 1, 1])
        else:
            self.left_ends.set_data([], [])
            self.right_ends.set_data([], [])
        mids = self.portals.mean(axis=1) if len(self.portals) else np.zeros((0, 2))
        pairs = [_label_paths(k) for k in range(len(mids))]
        glyphs = [g for g, _b in pairs]
        boxes = [b for _g, b in pairs]
        self.labels.set_paths(glyphs)
        self.labels.set_offsets(mids)
        self.label_boxes.set_paths(boxes)
        self.label_boxes.set_offsets(mids)
        r = float(self.radius.value)
        if r > 0 and self.used_portals is not None:
            self.shrunk_lines.set_segments(list(self.used_portals))
        else:
            self.shrunk_lines.set_segments([])
        if self.narrow_portal is not None:
            m = self.portals[self.narrow_portal].mean(axis=0)
            self.narrow_mark.set_data([m[0]], [m[1]])
        else:
            self.narrow_mark.set_data([], [])
        self.agent.set_center(tuple(self.start))
        self.agent.set_radius(r)
        self.start_dot.set_data([self.start[0]], [self.start[1]])
        self.goal_dot.set_data([self.goal[0]], [self.goal[1]])
        self._draw_overlays()

    def _draw_overlays(self) -> None:
        zig = self.route.midpoints
        self.zigzag.set_data(zig[:, 0], zig[:, 1])
        self.zigzag.set_visible(self.show_zigzag.value)
        r = float(self.radius.value)
        if self.steps:
            path = fn.path_from_steps(self.steps)
            self.final_path.set_data(path[:, 0], path[:, 1])
            self.lengths.value = _html_lengths(ps.path_length(zig), ps.path_length(path))
            clear_colour = PALETTE["vermillion"] if self.clearance < r - 1e-9 else \
                PALETTE["green"]
            self.clearance_text.value = (
                f'measured clearance from the walls: <b style="color:{clear_colour}">'
                f'{self.clearance:.2f} m</b> (radius {r:.2f} m)'
                + ("<br><small>shrinking portals lets the path pass a corner closer than "
                   "the radius</small>" if self.clearance < r - 1e-9 else ""))
        else:
            self.final_path.set_data([], [])
            self.lengths.value = (f'<span style="color:{ZIGZAG_COLOUR}"><b>zigzag</b> '
                                  f'{ps.path_length(zig):.2f} m</span> &nbsp; '
                                  '<b>no path for this radius</b>')
            self.clearance_text.value = (
                f'<b style="color:{PALETTE["vermillion"]}">portal {self.narrow_portal} is '
                f'too narrow for radius {r:.2f} m</b>')
        self.final_path.set_visible(self.show_path.value)
        self.redraw()

    def _draw_step(self, k: int) -> None:
        if not self.steps:
            for line in (self.tested, self.left_edge, self.right_edge, self.corners, self.apex):
                line.set_data([], [])
            self.step_text.value = ("<b>No funnel:</b> the agent does not fit through "
                                    f"portal {self.narrow_portal}. Make the radius smaller.")
            self.redraw()
            return
        k = int(np.clip(k, 0, len(self.steps) - 1))
        s = self.steps[k]
        (tl, tr) = s.tested
        self.tested.set_data([tl[0], tr[0]], [tl[1], tr[1]])
        self.left_edge.set_data([s.apex[0], s.left[0]], [s.apex[1], s.left[1]])
        self.right_edge.set_data([s.apex[0], s.right[0]], [s.apex[1], s.right[1]])
        c = np.asarray(s.corners, dtype=float)
        self.corners.set_data(c[:, 0], c[:, 1])
        self.apex.set_data([s.apex[0]], [s.apex[1]])
        n_portals = len(self.used_portals)
        where = ("start" if s.portal < 0 else "goal" if s.portal >= n_portals
                 else f"portal {s.portal}")
        event = s.event.replace("_", " ")
        self.step_text.value = (
            f"<b>Step {k} of {len(self.steps) - 1}</b> &middot; {where} &middot; "
            f"<i>{html.escape(event)}</i><br>{html.escape(s.text)}<br>"
            f"<small>corners fixed so far: {len(s.corners) - 1}</small>")
        self.redraw()

    # -- callbacks ------------------------------------------------------------------------
    def _on_play(self, change) -> None:
        self.step.value = change["new"]

    def _on_step(self, change) -> None:
        if self.play.value != change["new"]:
            self.play.value = change["new"]
        self._draw_step(change["new"])

    def _nudge(self, delta: int) -> None:
        self._goto(self.step.value + delta)

    def _goto(self, k: int) -> None:
        self.step.value = int(np.clip(k, self.step.min, self.step.max))

    def _sync_for_gif(self, value) -> None:
        self._draw_step(value)

    def _near(self, x: float, y: float) -> str | None:
        for name, p in (("start", self.start), ("goal", self.goal)):
            if np.hypot(p[0] - x, p[1] - y) < 0.6:
                return name
        return None

    def _on_press(self, event) -> None:
        if event.inaxes is not self.ax or event.xdata is None:
            return
        grabbed = self._near(event.xdata, event.ydata)
        if grabbed is not None:
            self._dragging = grabbed
            return
        self.set_points(**{self.click_mode.value: (event.xdata, event.ydata)})

    def _on_motion(self, event) -> None:
        if self._dragging is None or event.inaxes is not self.ax or event.xdata is None:
            return
        if self.mesh.locate((event.xdata, event.ydata)) is None:
            return  # dragging over a wall: wait until the pointer is on the floor again
        self.set_points(**{self._dragging: (event.xdata, event.ydata)})

    def _on_release(self, _event) -> None:
        self._dragging = None


class GridApp(LessonApp):
    """A* on a grid, then string pulling, with the line-of-sight checks drawn.

    Controls: ``corner_cutting`` (the movement rule of A*), ``sight_rule`` (``"same as
    movement"`` or ``"ignores corner touches"``: the trap), ``show_checks``. Clicking a
    cell toggles a wall; :meth:`toggle_cell` does it from code.
    """

    SIGHT_RULES = ("same as movement", "ignores corner touches")

    def __init__(self, grid=None, start=GRID_START, goal=GRID_GOAL, width: float = 6.4,
                 height: float = 4.15) -> None:
        super().__init__()
        self.grid = parse_grid(LESSON_GRID) if grid is None else \
            np.array(ps._check_grid(grid), dtype=bool)
        self.start = tuple(start)
        self.goal = tuple(goal)
        self.path: list = []
        self.pulled: list = []
        self.checks: list = []
        self.stuck: list = []

        self.corner_cutting = widgets.Checkbox(
            value=False, indent=False, layout=widgets.Layout(width="auto"),
            description="A* may cut corners (step past a wall corner)")
        self.sight_rule = widgets.Dropdown(options=self.SIGHT_RULES, value=self.SIGHT_RULES[0],
                                           description="line of sight",
                                           style={"description_width": "85px"},
                                           layout=widgets.Layout(width="320px"))
        self.show_checks = widgets.Checkbox(value=True, indent=False,
                                            description="draw the line-of-sight checks",
                                            layout=widgets.Layout(width="auto"))
        self.reset_button = widgets.Button(description="reset map", icon="undo",
                                           layout=widgets.Layout(width="110px"))
        self.info = widgets.HTML(layout=widgets.Layout(min_height="8em"))

        self.fig = make_figure(width, height)
        with rc_context():
            self.ax = self.fig.add_axes((0.01, 0.01, 0.98, 0.98))
        self._build_artists()
        side = widgets.VBox(
            [self.corner_cutting, self.sight_rule, self.show_checks, self.reset_button,
             self.info,
             widgets.HTML("<small>Click a cell to add or remove a wall.</small>"),
             self.status],
            layout=widgets.Layout(width="340px", padding="0 0 0 8px"))
        self.fig.canvas.layout.flex = "0 0 auto"
        self.widget = widgets.HBox([self.fig.canvas, side],
                                   layout=widgets.Layout(align_items="flex-start"))
        self._initial = self.grid.copy()
        for w in (self.corner_cutting, self.sight_rule, self.show_checks):
            w.observe(self.guard(lambda _c: self.recompute()), names="value")
        self.reset_button.on_click(self.guard(self._reset))
        self.fig.canvas.mpl_connect("button_press_event", self.guard(self._on_press))
        self.recompute()

    def _build_artists(self) -> None:
        ax = self.ax
        h, w = self.grid.shape
        self.image = ax.imshow(self.grid, origin="lower", extent=(0, w, 0, h),
                               cmap="Greys", vmin=0, vmax=1.4, interpolation="nearest",
                               zorder=0)
        ax.set_xticks(np.arange(w + 1), minor=False)
        ax.set_yticks(np.arange(h + 1), minor=False)
        ax.tick_params(length=0, labelbottom=False, labelleft=False)
        ax.grid(True, color="#D0D0D0", lw=0.6)
        for side in ("left", "bottom", "top", "right"):
            ax.spines[side].set_visible(True)
        ax.set_xlim(0, w)
        ax.set_ylim(0, h)
        ax.set_aspect("equal")
        self.check_ok = LineCollection([], colors=PALETTE["green"], linewidths=0.9,
                                       linestyles="--", alpha=0.8, zorder=2)
        self.check_fail = LineCollection([], colors=PALETTE["vermillion"], linewidths=0.8,
                                         linestyles=":", alpha=0.8, zorder=2)
        ax.add_collection(self.check_ok)
        ax.add_collection(self.check_fail)
        (self.astar_line,) = ax.plot([], [], "-o", ms=4, lw=1.4, color=PALETTE["grey"],
                                     zorder=3, label="A* cells")
        (self.pulled_line,) = ax.plot([], [], "-o", ms=7, lw=2.6, color=PALETTE["blue"],
                                      zorder=4, label="string pulled")
        self.stuck_lines = LineCollection([], colors=PALETTE["vermillion"], linewidths=4.0,
                                          zorder=5)
        ax.add_collection(self.stuck_lines)
        (self.stuck_marks,) = ax.plot([], [], "X", ms=13, color=PALETTE["vermillion"],
                                      mec="white", zorder=6)
        (self.start_dot,) = ax.plot([], [], "o", ms=12, color=START_COLOUR, mec="white",
                                    zorder=7)
        (self.goal_dot,) = ax.plot([], [], "s", ms=11, color=GOAL_COLOUR, mec="black",
                                   zorder=7)

    def _sight_corner_rule(self) -> bool:
        """The corner rule the line-of-sight test uses (the trap: it may differ from A*'s)."""
        if self.sight_rule.value == self.SIGHT_RULES[0]:
            return bool(self.corner_cutting.value)
        return True

    def recompute(self) -> None:
        self.clear_message()
        move_rule = bool(self.corner_cutting.value)
        sight_rule = self._sight_corner_rule()
        self.image.set_data(self.grid)
        try:
            self.path = ps.grid_astar(self.grid, self.start, self.goal, move_rule)
        except ps.NoPathError as exc:
            self.path, self.pulled, self.checks, self.stuck = [], [], [], []
            self.show_message(str(exc))
            self._draw()
            return
        sight = ps.make_line_of_sight(self.grid, sight_rule)
        self.checks = []

        def recorded(a, b):
            ok = sight(a, b)
            self.checks.append((a, b, ok))
            return ok

        self.pulled = ps.string_pull(self.path, recorded)
        # segments the unit cannot walk under the movement rule
        self.stuck = [(a, b) for a, b in zip(self.pulled, self.pulled[1:], strict=False)
                      if not ps.line_of_sight(self.grid, a, b, move_rule)]
        self._draw()

    def _draw(self) -> None:
        def centre(cells):
            c = np.asarray(cells, dtype=float).reshape(-1, 2) + 0.5
            return c[:, 0], c[:, 1]

        self.astar_line.set_data(*centre(self.path))
        self.pulled_line.set_data(*centre(self.pulled))
        show = self.show_checks.value
        ok = [np.asarray([a, b], float) + 0.5 for a, b, v in self.checks if v] if show else []
        bad = [np.asarray([a, b], float) + 0.5 for a, b, v in self.checks if not v] if show \
            else []
        self.check_ok.set_segments(ok)
        self.check_fail.set_segments(bad)
        self.stuck_lines.set_segments([np.asarray([a, b], float) + 0.5 for a, b in self.stuck])
        if self.stuck:
            pts = np.array([self._touch_point(a, b) for a, b in self.stuck])
            self.stuck_marks.set_data(pts[:, 0], pts[:, 1])
        else:
            self.stuck_marks.set_data([], [])
        self.start_dot.set_data(*centre([self.start]))
        self.goal_dot.set_data(*centre([self.goal]))
        if self.path:
            la, lp = ps.path_length(self.path), ps.path_length(self.pulled)
            saved = 100 * (1 - lp / la) if la else 0.0
            n_ok = sum(v for *_x, v in self.checks)
            text = (f'<b style="color:{PALETTE["grey"]}">A*</b>: {len(self.path)} points, '
                    f'length {la:.2f}<br>'
                    f'<b style="color:{PALETTE["blue"]}">string pulled</b>: '
                    f'{len(self.pulled)} points, length {lp:.2f} ({saved:.1f}% shorter)<br>'
                    f'line-of-sight checks: {len(self.checks)} '
                    f'(<span style="color:{PALETTE["green"]}">{n_ok} clear</span>, '
                    f'<span style="color:{PALETTE["vermillion"]}">'
                    f'{len(self.checks) - n_ok} blocked</span>)')
            if self.stuck:
                text += (f'<br><b style="color:{PALETTE["vermillion"]}">&#9888; '
                         f'{len(self.stuck)} pulled segment(s) graze a wall corner that A* '
                         'would never pass: the unit gets stuck there. The sight test must '
                         'follow the movement rule.</b>')
            self.info.value = text
        else:
            self.info.value = "<b>No path:</b> the goal is walled off."
        self.redraw()

    def _touch_point(self, a, b) -> tuple[float, float]:
        """A blocked-cell corner the segment a-b touches (for the warning marker)."""
        cells = ps.segment_cells(self.grid.shape, a, b, corner_cutting=False)
        blocked = [tuple(c) for c in cells if self.grid[c[1], c[0]]]
        p0 = np.asarray(a, float) + 0.5
        d = np.asarray(b, float) - np.asarray(a, float)
        best, best_dist = (p0[0], p0[1]), np.inf
        for cx, cy in blocked:
            for corner in ((cx, cy), (cx + 1, cy), (cx, cy + 1), (cx + 1, cy + 1)):
                v = np.asarray(corner, float) - p0
                dist = abs(d[0] * v[1] - d[1] * v[0])
                if dist < best_dist:
                    best, best_dist = corner, dist
        return (float(best[0]), float(best[1]))

    def toggle_cell(self, x: int, y: int) -> None:
        """Add or remove a wall at cell (x, y); start and goal cells stay free."""
        h, w = self.grid.shape
        if not (0 <= x < w and 0 <= y < h):
            raise ValueError(f"cell ({x}, {y}) is outside the {w} x {h} grid")
        if (x, y) in (self.start, self.goal):
            raise ValueError("the start and goal cells must stay free")
        self.grid[y, x] = not self.grid[y, x]
        self.recompute()

    def _reset(self, _b=None) -> None:
        self.grid = self._initial.copy()
        self.recompute()

    def _on_press(self, event) -> None:
        if event.inaxes is not self.ax or event.xdata is None:
            return
        self.toggle_cell(int(np.floor(event.xdata)), int(np.floor(event.ydata)))
