"""Lesson 4's grid app on the shared loop: A* on a grid, then string pulling, with every
line-of-sight question drawn. Walls are edited by clicking cells; start and goal are
dragged (or set with their sliders). The model is :func:`.model.compute_grid`.
"""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from ... import validate as check
from ...i18n import N_, _
from ..core import (
    Choice,
    LessonApp,
    Preset,
    Slider,
    Toggle,
    figure_size,
    fmt_number,
    make_figure,
)
from ..core.app import takes_params
from ..core.theme import TEXT
from . import model, panel
from .model import ARTICLE_GRID, ARTICLE_GRID_GOAL, ARTICLE_GRID_START, SIGHT_RULES, GridState
from .view import GridView

_GRID = model.parse_grid(ARTICLE_GRID)
_H, _W = _GRID.shape


def _cell(name: str, label: str, top: int, value: int, help: str) -> Slider:
    return Slider(name, label, 0, top, step=1, value=value, integer=True, label_width="52px",
                  width="205px", help=help)


def _describe_article(state: GridState) -> str:
    la, lp = state.lengths
    return _("The article's numbers: A* answers {n} points, length {la}; string pulling keeps "
             "{m}, length {lp}, only {saved} shorter.").format(
        n=len(state.path), la=fmt_number(la, 2), m=len(state.pulled), lp=fmt_number(lp, 2),
        saved=fmt_number(state.saved, 0) + "%")


def _describe_trap(state: GridState) -> str:
    n = len(state.stuck)
    return (_("The sight test ignores corner touches while A* may not cut corners: "
              "{n} pulled segment grazes a wall corner (red cross).") if n == 1 else
            _("The sight test ignores corner touches while A* may not cut corners: "
              "{n} pulled segments graze a wall corner (red cross).")).format(n=n)


_WHERE = {"start_x": ARTICLE_GRID_START[0], "start_y": ARTICLE_GRID_START[1],
          "goal_x": ARTICLE_GRID_GOAL[0], "goal_y": ARTICLE_GRID_GOAL[1],
          "corner_cutting": False}


class GridApp(LessonApp):
    """A* on a grid, then string pulling, with the line-of-sight checks drawn.

    Controls: ``corner_cutting`` (the movement rule of A*), ``sight_rule`` ("same" as
    movement, or "careless": ignores corner touches, the trap), ``show_checks``, and the
    start and goal cells. Clicking a cell toggles a wall (:meth:`toggle_cell` from code);
    ``reset_button`` restores the map. ``view`` holds the artists.
    """

    controls = (
        Toggle("corner_cutting", N_("A* may cut corners (step past a wall corner)"), primary=True),
        Choice("sight_rule", N_("line of sight"), SIGHT_RULES, value="same", label_width="95px",
               primary=True,
               width="380px", help=N_("the rule the sight test follows")),
        Toggle("show_checks", N_("draw the line-of-sight checks"), value=True, redraw=True,
               primary=True),
        _cell("start_x", N_("start x"), _W - 1, ARTICLE_GRID_START[0],
              N_("start x (cell index)")),
        _cell("start_y", N_("start y"), _H - 1, ARTICLE_GRID_START[1],
              N_("start y (cell index)")),
        _cell("goal_x", N_("goal x"), _W - 1, ARTICLE_GRID_GOAL[0], N_("goal x (cell index)")),
        _cell("goal_y", N_("goal y"), _H - 1, ARTICLE_GRID_GOAL[1], N_("goal y (cell index)")),
    )
    presets = (
        Preset(N_("The article's grid: 9 points become 4"), {**_WHERE, "sight_rule": "same"},
               _describe_article),
        Preset(N_("The line-of-sight trap"), {**_WHERE, "sight_rule": "careless"}, _describe_trap),
    )

    def __init__(self, preset: str | None = None, *, width: float = 6.0, height: float = 4.0,
                 **controls) -> None:
        self._size = figure_size(width, height)
        self.grid = _GRID.copy()
        self._initial = _GRID.copy()
        super().__init__(preset, **controls)

    def build(self) -> None:
        self.fig = make_figure(*self._size)
        self.view = GridView(self.fig, self.grid.shape)
        self.ax = self.view.ax
        self.reset_button = widgets.Button(description=_("reset map"), icon="undo",
                                           tooltip=_("remove your walls, restore the map"),
                                           layout=widgets.Layout(width="120px"))
        self.reset_button.on_click(self.guard(lambda _b: self.reset_map()))
        self.drag = self.drag_handler(self._on_press, self._on_move)

    def dynamic_artists(self):
        return self.view.dynamic_artists()

    def drag_artists(self, item):
        """Dragging the start or the goal moves the paths and the checks, not the walls."""
        return self.view.dynamic_artists()

    @takes_params
    def compute(self, params) -> GridState:
        return model.compute_grid(self.grid, params)

    @check.first_is(GridState, "the app's .state")
    def draw(self, state: GridState, frame) -> None:
        self.view.draw(state, self.params.show_checks)

    @check.first_is(GridState, "the app's .state")
    def panel(self, state: GridState, frame) -> str:
        return panel.grid_html(state)

    def layout(self) -> widgets.Widget:
        """Beside the grid (under it on a narrow page): the preset, the rules, the reset
        and the readout; start and goal cells behind "More controls" (or drag them)."""
        cells = widgets.VBox([widgets.HBox([self.start_x, self.start_y],
                                           layout=widgets.Layout(flex_flow="row wrap")),
                              widgets.HBox([self.goal_x, self.goal_y],
                                           layout=widgets.Layout(flex_flow="row wrap"))])
        return self.arrange(
            primary=[self.preset, self.corner_cutting, self.sight_rule, self.show_checks,
                     self.reset_button],
            readout=[self.panel_widget("info", min_height="7em")],
            explain=[self.preset_note],
            extra=[widgets.HTML(f'<div style="{TEXT}">'
                                + _("Click a cell to add or remove a wall; drag the green "
                                    "start or the orange goal.") + "</div>"),
                   self.status],
            secondary=[cells], side=420, name="grid-app")

    # -- the map --------------------------------------------------------------------------
    def toggle_cell(self, x: int, y: int) -> None:
        """Add or remove a wall at cell (x, y); start and goal cells stay free."""
        h, w = self.grid.shape
        x = check.integer(x, f"the cell's x (the grid is {w} x {h})", lo=0, hi=w - 1)
        y = check.integer(y, f"the cell's y (the grid is {w} x {h})", lo=0, hi=h - 1)
        if (x, y) in (self.start, self.goal):
            raise ValueError(_("the start and goal cells must stay free"))
        self.grid[y, x] = not self.grid[y, x]
        self.recompute()

    def reset_map(self) -> None:
        self.grid = self._initial.copy()
        self.recompute()

    def apply_preset(self, name: str) -> None:
        """A preset also restores the map it was made for."""
        with self.batch():
            super().apply_preset(name)        # (an unknown name raises before the map moves)
            self.grid = self._initial.copy()
            self.recompute()

    @takes_params
    def matching_preset(self, params):
        """A preset is for the map as it was made: once walls are edited, none matches."""
        if not np.array_equal(self.grid, self._initial):
            return None
        return super().matching_preset(params)

    @property
    def start(self) -> tuple[int, int]:
        return (int(self.start_x.value), int(self.start_y.value))

    @property
    def goal(self) -> tuple[int, int]:
        return (int(self.goal_x.value), int(self.goal_y.value))

    def _cell_at(self, event) -> tuple[int, int] | None:
        if event.inaxes is not self.ax or event.xdata is None:
            return None
        h, w = self.grid.shape
        x, y = int(np.floor(event.xdata)), int(np.floor(event.ydata))
        return (x, y) if 0 <= x < w and 0 <= y < h else None

    def _on_press(self, event):
        cell = self._cell_at(event)
        if cell is None:
            return None
        for name in ("start", "goal"):
            if cell == getattr(self, name):
                return name
        self.toggle_cell(*cell)
        return None

    def _on_move(self, item, event) -> None:
        cell = self._cell_at(event)
        if cell is None or self.grid[cell[1], cell[0]] or cell in (self.start, self.goal):
            return
        self.set(**{f"{item}_x": cell[0], f"{item}_y": cell[1]})

    @property
    def path(self):
        return list(self.state.path)

    @property
    def pulled(self):
        return list(self.state.pulled)
