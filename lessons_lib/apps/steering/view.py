"""Lesson 3's artists: made once by :func:`build`, moved by :meth:`SteeringView.draw`.

Top left: the whole track; top right: a close-up that follows the car with the article's
debug colours (on the 3D ramp, a 3/4 view of the road around the car with both right
vectors instead). Bottom, one of: each term's share of the steering over time, the speed
sweep, or the phase portrait of the three controllers.
"""

from __future__ import annotations

import math
from itertools import pairwise
from types import SimpleNamespace

import matplotlib
import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Polygon
from matplotlib.patheffects import withStroke
from mpl_toolkits.mplot3d import proj3d

from ... import validate as check
from ...i18n import N_, _
from ...sweep import NO_BEST
from ...tracks import ROAD_HALF_WIDTH
from ..core import (
    FONT_SIZE,
    GREYS,
    LINE,
    MARKER,
    MIN_FONT_SIZE,
    PALETTE,
    REDS,
    bare_axes,
    make_figure,
    rc_context,
)
from ..fastdraw import StampedText
from .model import CONTROLLERS, DURATION, SWEEP_MODES, VIEWS, SteeringState

#: The article's debug colours, in the colour-blind-safe palette.
COLOURS = {"progress": PALETTE["blue"], "target": PALETTE["vermillion"],
           "to_target": PALETTE["yellow"], "tangent": PALETTE["green"],
           "offset": PALETTE["orange"], "car": PALETTE["sky"], "path": PALETTE["purple"],
           "road": PALETTE["light"], "centre": PALETTE["grey"]}
#: Line colours of the time plot: each term keeps the colour of its marker on the map.
TERM_COLOURS = {"position": PALETTE["vermillion"], "heading": PALETTE["green"],
                "crosstrack": PALETTE["orange"], "steering": PALETTE["black"]}
#: Line styles of the time plot beside the colours: Position (vermillion) dashed, apart
#: from Crosstrack (orange), which it resembled (issue 41).
TERM_STYLES = {"position": (0, (4.0, 1.6))}
#: The time plot's key: each line's name.
TERM_NAMES = {"position": N_("Position"), "heading": N_("Heading"),
              "crosstrack": N_("Crosstrack"), "steering": N_("steering (+ right)")}
#: Look-ahead modes in the sweep, and controllers in the phase portrait.
MODE_COLOURS = {"Fixed long": PALETTE["vermillion"], "Fixed short": PALETTE["sky"],
                "Adaptive": PALETTE["green"]}
#: The sweep's shading where every mode leaves the road: no mode is best there.
OFF_ROAD_COLOUR = PALETTE["grey"]
CONTROLLER_COLOURS = {"Article": PALETTE["blue"], "Pure pursuit": PALETTE["orange"],
                      "Stanley": PALETTE["purple"]}
#: The slope view's right vector from world up: a plain red, apart from the yellow one and
#: from the orange offset (vermillion, the palette's red, read as orange beside them)
WORLD_RIGHT_COLOUR = REDS["world right"]
SWEEP_LIMITS = (0.03, 30.0)  # m, the sweep's log scale
WIDTH, HEIGHT = 7.9, 5.0     # inches at 100 dpi: 790 x 500 px
SLOPE_HALF = 6.0             # m, the slope view's half width around the progress point
SLOPE_MAX = 30.0             # degrees, steeper than the ramp: for placing its labels


def best_colour(best: int) -> str:
    """The sweep's shading at a speed whose best mode is ``best`` (an index into
    :data:`SWEEP_MODES`, or :data:`~lessons_lib.sweep.NO_BEST`: grey, every mode left the
    road there)."""
    best = check.integer(best, "best", lo=NO_BEST, hi=len(SWEEP_MODES) - 1)
    return OFF_ROAD_COLOUR if best == NO_BEST else MODE_COLOURS[SWEEP_MODES[best]]


class SteeringView:
    """Every artist of the app, made once; :meth:`show_track`, :meth:`show_run` and
    :meth:`draw` only move them."""

    #: The bottom of the views above the lower plots, and the px kept clear under them
    #: (at 100 dpi, growing with it): a lower plot reaching into them made every change a
    #: full render (the painter redraws one axes alone only when it overlaps no other).
    VIEWS_BOTTOM, GAP_PX = 0.405, 16.0
    #: The whole-track map's title, and the sweep's two titles: the first that fits.
    MAP_TITLES = (N_("whole track: click to place the car"), N_("click to place the car"))
    #: The map's title on a slide (a GIF), which cannot be clicked.
    MAP_SLIDE_TITLE = N_("whole track")
    SWEEP_TITLES = {"rms": (N_("RMS crosstrack (m)"), N_("RMS (m)")),
                    "max": (N_("max crosstrack (m)"), N_("max (m)"))}
    #: The sweep's speed ticks, from the most to the fewest: the first whose labels fit.
    SWEEP_TICKS = ((4, 10, 15, 20, 25), (5, 15, 25), (5, 25))
    #: The slope view's readout, from the widest to the narrowest: the first that fits.
    #: The narrowest leaves both crosstracks to the readout under the figure
    #: (:attr:`slope_crosstrack_shown`).
    SLOPE_FORMATS = (
        N_("slope {slope:.1f}°   |T × up| = {norm:.2f}\n"
           "crosstrack with world up (red): {world:+.2f} m\n"
           "with projected up (yellow): {projected:+.2f} m"),
        N_("slope {slope:.1f}°, |T × up| = {norm:.2f}\ncrosstrack (m):\n"
           "world up (red) {world:+.2f}\nprojected up (yellow) {projected:+.2f}"),
        N_("slope {slope:.1f}°\n|T × up| = {norm:.2f}"),
    )

    def fit_margins(self, width: float, height: float) -> None:
        """Place the lower plots and choose the figure's words and ticks for a figure
        ``width`` x ``height`` CSS px, from the sizes of its texts as they will be drawn
        (at 150 % zoom and in presenter mode the same words take a larger part of a
        smaller figure): margins wide enough for the tick labels ("+1 right", "30 s"),
        the sweep's two plots apart by their labels, and of each list of titles, ticks
        and readouts the first that fits. Once per size, never per frame. ``width`` and
        ``height``: 1 to 100,000 px."""
        width = check.real(width, "width", lo=1.0, hi=1e5, unit="px")
        height = check.real(height, "height", lo=1.0, hi=1e5, unit="px")
        ratio = getattr(self.fig.canvas, "device_pixel_ratio", 1.0) or 1.0
        renderer = self.fig.canvas.get_renderer()
        pt = self.fig.dpi / ratio / 72.0          # CSS px per point
        with rc_context():                        # Hangul is measured in its own font
            family = list(matplotlib.rcParams["font.family"])

        def wide(text: str, size: float = 9) -> float:
            return renderer.get_text_width_height_descent(
                text, FontProperties(family=family, size=size), ismath=False)[0] / ratio

        line, tick, room = 1.25 * 9 * pt, 3 * pt, 0.35 * 9 * pt  # a label's height, tick+pad
        self._fit = SimpleNamespace(width=width, height=height, line=line, titles={})
        left = max(wide(_("+1 right")) + tick + room,                    # the terms' labels
                   1.25 * 10 * pt + pt + wide("−100") + tick + room)  # the phase portrait's
        right = width - (wide("25 m/s") / 2 + room)
        bottom = tick + line + room
        top = min(0.345 * height,
                  self.VIEWS_BOTTOM * height - max(1.0, pt * 72 / 100) * self.GAP_PX)
        for name, low in (("ax_terms", bottom), ("ax_phase", bottom + pt + 1.25 * 10 * pt)):
            getattr(self, name).set_position((left / width, low / height, (right - left) / width,
                                              (top - low) / height))
        with rc_context():                        # tick labels and the key made anew
            self._fit_sweep(wide, left, right, bottom, top, tick, room)
            self._fit_terms_ticks()
            self._fit_terms_key(right - left, wide)
        map_width = self.ax_map.get_position().width * width - 0.01 * width - 3 * 1.5 * pt
        titles = [_(t) for t in self.MAP_TITLES]
        self.overview.title.set_text(next((t for t in titles if wide(t) <= map_width),
                                          titles[-1]))
        slope_width = self.ax_slope.get_position().width * width * 0.98 - 2 * 1.5 * pt - 2
        sample = {"slope": -88.8, "norm": 0.89, "world": -8.88, "projected": -8.88}
        self._fit_slope_labels(wide, width, ratio)
        formats = [_(f) for f in self.SLOPE_FORMATS]
        self._slope_format = next(
            (f for f in formats
             if max(wide(row) for row in f.format(**sample).split("\n")) <= slope_width),
            formats[-1])

    def _fit_slope_labels(self, wide, width: float, ratio: float) -> None:
        """The slope view's "projected up" reaches left from its tip and "world up" right
        from its own: at 150 % zoom and in presenter mode they ran past the view's left edge
        into the map's "end". Each gets the fewest lines that fit, and the scene is drawn
        that far right of the view's middle (:attr:`_slope_shift`, m along the screen)."""
        ax = self.ax_slope
        ax.apply_aspect()                              # the square it draws in, at this size
        centre = np.array([np.mean(ax.get_xlim()), np.mean(ax.get_ylim()),
                           np.mean(ax.get_zlim())])
        proj = ax.get_proj()
        ends = [proj3d.proj_transform(*(centre + d), proj)[:2]
                for d in (np.zeros(3), self._screen_right)]
        (x0, _y0), (x1, _y1) = ax.transData.transform(ends) / ratio
        per_m = abs(x1 - x0)                           # CSS px per m across the screen
        box = ax.get_position()
        half = 0.5 * box.width * width - 3.0           # px from the middle to either edge
        tip = 1.1 * 3.5                                # m, where the labels sit on a vector
        lean = tip * math.sin(math.radians(SLOPE_MAX)) * per_m + 0.3 * per_m
        gap = 0.3 * per_m
        for names in ((_("projected up"), _("world up")), (_("projected\nup"), _("world up")),
                      (_("projected\nup"), _("world\nup"))):
            left, right = (max(wide(row) for row in n.split("\n")) for n in names)
            lo, hi = left + lean - half, half - gap - right    # the shift's bounds in px
            if lo <= hi:
                break
        shift = min(max(0.0, lo), hi) if lo <= hi else 0.5 * (lo + hi)
        self.slope_labels["normal"].set_text(names[0])
        self.slope_labels["world_up"].set_text(names[1])
        self._slope_shift = shift / per_m

    @property
    def slope_crosstrack_shown(self) -> bool:
        """Whether the slope view's readout gives both crosstracks (at this size)."""
        return "{world" in self._slope_format

    def _fit_sweep(self, wide, left, right, bottom, top, tick, room) -> None:
        """The sweep's two plots side by side, apart by the right one's tick labels and the
        left one's last speed label; their speed ticks, y ticks and titles."""
        span = self.ax_rms.get_xlim()
        y_labels = wide("0.1") + tick + room
        for ticks in self.SWEEP_TICKS:
            for unit_left in (True, False):
                labels = [str(t) for t in ticks[:-1]] + [f"{ticks[-1]} m/s"]  # units stay
                left_labels = labels if unit_left else [str(t) for t in ticks]
                gap = y_labels + wide(left_labels[-1]) / 2 + room
                plot = (right - left - gap) / 2
                per = plot / (span[1] - span[0])         # px per m/s
                fits = all((b - a) * per >= (wide(la) + wide(lb)) / 2 + room
                           for names in (labels, left_labels)
                           for (a, la), (b, lb) in pairwise(zip(ticks, names, strict=True)))
                if fits:
                    break
            if fits:
                break
        w, h = self._fit.width, self._fit.height
        decade = (top - bottom) / math.log10(SWEEP_LIMITS[1] / SWEEP_LIMITS[0])
        y_ticks = [0.1, 1, 10] if decade >= 1.2 * self._fit.line else [0.1, 10]
        for key, ax, x0, names in (("rms", self.ax_rms, left, left_labels),
                                   ("max", self.ax_max, left + plot + gap, labels)):
            ax.set_position((x0 / w, bottom / h, plot / w, (top - bottom) / h))
            ax.set_xticks(ticks, names)
            ax.set_yticks(y_ticks, [f"{v:g}" for v in y_ticks])
            ax.minorticks_off()
            titles = [_(t) for t in self.SWEEP_TITLES[key]]
            title = next((t for t in titles if wide(t, 10) <= 0.97 * plot - 4), titles[-1])
            self.sweep_titles[key].set_text(title)
            self._fit.titles[key] = ((wide(title, 10) + 6) / plot,
                                     (self._fit.line * 10 / 9 + 3) / (top - bottom))
        self._place_sweep_titles()

    #: Where a sweep plot's title may sit (axes fraction, alignment): the first corner that
    #: covers the fewest dots. At the top left it hid the fixed long look-ahead's dots.
    TITLE_CORNERS = ((0.01, 0.98, "left", "top"), (0.99, 0.98, "right", "top"),
                     (0.01, 0.03, "left", "bottom"), (0.99, 0.03, "right", "bottom"))

    def _place_sweep_titles(self) -> None:
        """Each sweep title in the corner of its plot with the fewest dots under it (once per
        size and once per sweep, never per frame)."""
        if self._fit is None:
            return
        for key, ax in (("rms", self.ax_rms), ("max", self.ax_max)):
            dots = [line.get_xydata() for line in self.sweep_lines[key].values()]
            xy = np.concatenate(dots) if dots else np.empty((0, 2))
            xy = xy[np.all(np.isfinite(xy), axis=1) & (xy[:, 1] > 0)]
            frac = ax.transAxes.inverted().transform(ax.transData.transform(xy)) \
                if len(xy) else np.empty((0, 2))
            w, h = self._fit.titles[key]
            m = 0.03                                   # a dot's radius and the line's width

            def covered(corner, frac=frac, w=w, h=h, m=m) -> int:
                x, y, ha, va = corner
                x0 = x - w if ha == "right" else x
                y0 = y - h if va == "top" else y
                return int(np.count_nonzero((frac[:, 0] > x0 - m) & (frac[:, 0] < x0 + w + m)
                                            & (frac[:, 1] > y0 - m) & (frac[:, 1] < y0 + h + m)))

            x, y, ha, va = min(self.TITLE_CORNERS, key=covered)
            self.sweep_titles[key].set(x=x, y=y, ha=ha, va=va)

    def _terms_key(self, columns: int) -> None:
        """The time plot's key in its top right corner, in ``columns`` columns."""
        if self.terms_legend is not None:
            self.terms_legend.remove()
        keys = ("position", "heading", "crosstrack", "steering")
        self.terms_legend = self.ax_terms.legend(
            [self.term_lines[k] for k in keys], [_(TERM_NAMES[k]) for k in keys],
            loc="upper right", ncol=columns, fontsize=MIN_FONT_SIZE, handlelength=2.0,
            borderpad=0.3, labelspacing=0.2, columnspacing=0.9, handletextpad=0.4,
            borderaxespad=0.2, framealpha=0.85, edgecolor="none")

    def _fit_terms_key(self, width_px: float, wide) -> None:
        """Four columns where they fit across the plot, else two."""
        entries = sum(wide(_(TERM_NAMES[k])) for k in TERM_NAMES)
        pt = self.fig.dpi / 72.0 / (getattr(self.fig.canvas, "device_pixel_ratio", 1.0) or 1.0)
        need = entries + 4 * (2.0 + 0.4) * 9 * pt + 3 * 0.9 * 9 * pt + 12
        self._terms_key(4 if need <= 0.95 * width_px else 2)

    def _fit_terms_ticks(self) -> None:
        """The terms plot's "0" only where it keeps apart from "+1 right" and "−1 left" (a
        run whose terms reach ±2.5 squeezes one unit to a few px on a short plot)."""
        if self._fit is None:
            return
        lo, hi = self.ax_terms.get_ylim()
        unit = self.ax_terms.get_position().height * self._fit.height / (hi - lo)
        ticks = [-1, 0, 1] if unit >= 1.15 * self._fit.line else [-1, 1]
        if list(self.ax_terms.get_yticks()) != ticks:      # a new run keeps them, mostly
            names = {-1: _("−1 left"), 0: "0", 1: _("+1 right")}
            self.ax_terms.set_yticks(ticks, [names[t] for t in ticks])

    def __init__(self) -> None:
        self.fig = make_figure(WIDTH, HEIGHT)
        fig = self.fig
        with rc_context():
            self.ax_map = fig.add_axes((0.005, self.VIEWS_BOTTOM, 0.565, 0.59))
            self.ax_close = fig.add_axes((0.58, self.VIEWS_BOTTOM, 0.415, 0.59))
            self.ax_slope = fig.add_axes((0.56, 0.39, 0.44, 0.62), projection="3d")
            self.ax_terms = fig.add_axes((0.085, 0.075, 0.875, 0.27))
            self.ax_rms = fig.add_axes((0.085, 0.075, 0.385, 0.27))
            self.ax_max = fig.add_axes((0.575, 0.075, 0.385, 0.27))
            self.ax_phase = fig.add_axes((0.085, 0.1, 0.875, 0.245))
            self.overview = self._build_map(self.ax_map, close=False)
            self.closeup = self._build_map(self.ax_close, close=True)
            self._build_terms()
            self._build_sweep()
            self._build_phase()
            self._build_slope()
        c = self.closeup
        self.car_patch, self.progress_dot, self.target_dot = c.car, c.progress_dot, c.target_dot
        self.target_line, self.tangent_arrow = c.target_line, c.tangent_arrow
        self.offset_arrow, self.path_line = c.offset_arrow, self.overview.path_line
        self._track = None
        self._run = None
        self._state = None
        self._fit = None
        self.fit_margins(WIDTH * 100, HEIGHT * 100)

    # -- building ------------------------------------------------------------------------
    def _build_map(self, ax, close: bool) -> SimpleNamespace:
        bare_axes(ax, frame=close)
        if close:
            ax.set_facecolor(GREYS["paper"])
        v = SimpleNamespace(ax=ax)
        (v.scale_bar,) = ax.plot([], [], color=PALETTE["black"], lw=LINE["bar"],
                                 solid_capstyle="butt")
        # pasted from their own pixels: the close-up re-renders them whenever it follows
        # the car, and the map's title is drawn every frame (it covers the moving path)
        v.scale_text = ax.add_artist(StampedText(0, 0, "", ha="center", va="bottom",
                                                 fontsize=MIN_FONT_SIZE))
        v.title = ax.add_artist(StampedText(
            0.01, 0.985, _("close-up") if close else _(self.MAP_TITLES[0]),
            transform=ax.transAxes, ha="left", va="top", fontsize=MIN_FONT_SIZE,
            color=GREYS["label"], zorder=9,
            bbox={"fc": GREYS["white"], "ec": "none", "alpha": 0.8, "pad": 1.5}))
        (v.edge_left,) = ax.plot([], [], color=COLOURS["centre"], lw=LINE["rule"])
        (v.edge_right,) = ax.plot([], [], color=COLOURS["centre"], lw=LINE["rule"])
        (v.centre_line,) = ax.plot([], [], color=COLOURS["centre"], lw=LINE["thin"], ls=(0, (6, 4)))
        (v.path_line,) = ax.plot([], [], color=COLOURS["path"], lw=LINE["trace"], alpha=0.9)
        (v.start_mark,) = ax.plot([], [], "x", color=COLOURS["path"], ms=MARKER["mark"],
                                  mew=LINE["bold"])
        (v.end_mark,) = ax.plot([], [], "|", color=PALETTE["black"], ms=MARKER["end"],
                                mew=LINE["thick"])
        # an open road's end, named: a bare black bar there went unexplained
        v.end_label = ax.annotate(_("end"), (0, 0), xytext=(0, 11), textcoords="offset points",
                                  ha="center", va="bottom", fontsize=MIN_FONT_SIZE,
                                  color=GREYS["dark"], visible=False)
        v.car = Polygon(np.zeros((6, 2)), closed=True, fc=COLOURS["car"], ec=PALETTE["black"],
                        lw=LINE["cursor"] if close else LINE["rule"], zorder=5)
        ax.add_patch(v.car)
        stroke = [withStroke(linewidth=LINE["wide"] if close else LINE["path"],
                             foreground=PALETTE["black"])]
        (v.target_line,) = ax.plot([], [], color=COLOURS["to_target"],
                                   lw=LINE["bold"] if close else LINE["trace"],
                                   zorder=6, path_effects=stroke)
        dot = MARKER["spot"] if close else MARKER["dot"]
        (v.progress_dot,) = ax.plot([], [], "o", color=COLOURS["progress"], ms=dot,
                                    mec=PALETTE["black"], zorder=8)
        (v.target_dot,) = ax.plot([], [], "o", color=COLOURS["target"], ms=dot,
                                  mec=PALETTE["black"], zorder=8)
        v.tangent_arrow = v.offset_arrow = None
        if close:
            v.tangent_arrow = ax.quiver([0], [0], [0], [0], color=COLOURS["tangent"],
                                        angles="xy", scale_units="xy", scale=1, width=0.012,
                                        zorder=7)
            v.offset_arrow = ax.quiver([0], [0], [0], [0], color=COLOURS["offset"],
                                       angles="xy", scale_units="xy", scale=1, width=0.012,
                                       zorder=7)
        box = ax.get_position()
        w, h = self.fig.get_size_inches()
        v.aspect = (box.width * w) / (box.height * h)  # width / height of the axes box
        return v

    def _build_terms(self) -> None:
        ax = self.ax_terms
        ax.axhline(0.0, color=PALETTE["grey"], lw=LINE["rule"])
        self.term_lines = {}
        for key, lw, z in (("steering", LINE["thick"], 2), ("position", LINE["trace"], 3),
                           ("heading", LINE["trace"], 3), ("crosstrack", LINE["trace"], 3)):
            (self.term_lines[key],) = ax.plot([], [], color=TERM_COLOURS[key], lw=lw, zorder=z,
                                              ls=TERM_STYLES.get(key, "-"),
                                              alpha=0.45 if key == "steering" else 1.0)
        # the plot's own key, in it (issue 41: the key under the controls was below the fold
        # at 1280x720); its columns are set by fit_margins to the room the plot has
        self.terms_legend = None
        self._terms_key(4)
        # over the term lines, under the key: Play drawn by the page then redraws the cursor
        # and the key each frame, not the four lines of the whole run (44 kB a frame)
        self.cursor = ax.axvline(0.0, color=PALETTE["blue"], lw=LINE["cursor"], zorder=4)
        self.end_line = ax.axvline(DURATION, color=PALETTE["black"], lw=LINE["thin"], ls=":")
        ax.set_xlim(0, DURATION)
        ax.set_ylim(-1.05, 1.05)
        ticks = np.arange(0, DURATION + 1, 5)
        # no "0" under the corner: it ran into "−1 left" beside it (a tick, no label)
        ax.set_xticks(ticks, [""] + [f"{t:.0f}" for t in ticks[1:-1]] + [f"{ticks[-1]:.0f} s"])
        ax.set_yticks([-1, 0, 1], [_("−1 left"), "0", _("+1 right")])
        ax.tick_params(length=2, pad=1)

    def _build_sweep(self) -> None:
        self.sweep_lines, self.sweep_spans, self.sweep_now = {}, {}, {}
        self.sweep_titles = {}
        for ax, key, label in ((self.ax_rms, "rms", _("RMS crosstrack (m)")),
                               (self.ax_max, "max", _("max crosstrack (m)"))):
            ax.set_yscale("log")
            ax.set_ylim(*SWEEP_LIMITS)
            ax.set_xlim(3.5, 25.5)
            ax.set_xticks([4, 10, 15, 20, 25], ["4", "10", "15", "20", "25 m/s"])
            ax.set_yticks([0.1, 1, 10], ["0.1", "1", "10"])
            ax.minorticks_off()
            ax.tick_params(length=2, pad=1)
            self.sweep_titles[key] = ax.text(
                0.01, 0.98, label, transform=ax.transAxes, ha="left", va="top", fontsize=FONT_SIZE,
                bbox={"fc": GREYS["white"], "ec": "none", "alpha": 0.8, "pad": 1.0}, zorder=5)
            self.sweep_spans[key] = [ax.axvspan(v - 0.5, v + 0.5, color="none", lw=0, zorder=0)
                                     for v in range(4, 26)]
            self.sweep_lines[key] = {m: ax.plot([], [], color=MODE_COLOURS[m], lw=LINE["strong"],
                                                marker="o", ms=MARKER["dust"])[0]
                                     for m in SWEEP_MODES}
            self.sweep_now[key] = ax.axvline(10.0, color=PALETTE["black"], lw=LINE["cursor"],
                                             ls="--")

    def _build_phase(self) -> None:
        ax = self.ax_phase
        ax.axhline(0.0, color=PALETTE["grey"], lw=LINE["rule"])
        ax.axvline(0.0, color=PALETTE["grey"], lw=LINE["rule"])
        self.phase_lines = {c: ax.plot([], [], color=CONTROLLER_COLOURS[c], lw=LINE["thin"])[0]
                            for c in CONTROLLERS}
        (self.phase_dot,) = ax.plot([], [], "o", color=PALETTE["black"], ms=MARKER["mark"],
                                    zorder=6)
        ax.set_xlabel(_("crosstrack error (m, + right of the line)"), labelpad=1)
        ax.set_ylabel(_("heading error (°)"), labelpad=1)
        ax.tick_params(length=2, pad=1)

    def _build_slope(self) -> None:
        ax = self.ax_slope
        ax.set_proj_type("ortho")
        azim = -60
        ax.view_init(elev=24, azim=azim)
        #: the world direction drawn left to right on the screen (orthographic view)
        self._screen_right = np.array([-math.sin(math.radians(azim)),
                                       math.cos(math.radians(azim)), 0.0])
        # drawn in this order, not by depth: the red right vector must lie over the yellow
        ax.computed_zorder = False
        (self.slope_left,) = ax.plot([], [], [], color=COLOURS["centre"], lw=LINE["rule"], zorder=1)
        (self.slope_right,) = ax.plot([], [], [], color=COLOURS["centre"], lw=LINE["rule"],
                                      zorder=1)
        (self.slope_centre,) = ax.plot([], [], [], color=COLOURS["centre"], lw=LINE["thin"],
                                       ls="--", zorder=1)
        (self.slope_car,) = ax.plot([], [], [], color=PALETTE["black"], lw=LINE["outline"],
                                    zorder=2)
        self.slope_vectors = {}
        # the two right vectors from one point, the red T x U narrow on the wide yellow unit
        # one: one direction, and the yellow's end past the red's is what cos(slope) loses
        # (issue 41: the red drawn 1.5 m up the normal looked like another vector)
        for key, colour, lw, z in (("tangent", COLOURS["tangent"], LINE["bar"], 3),
                                   ("world_up", PALETTE["grey"], LINE["bold"], 3),
                                   ("normal", COLOURS["progress"], LINE["bar"], 3),
                                   ("offset", COLOURS["offset"], LINE["bold"], 3),
                                   ("right", PALETTE["yellow"], LINE["beam"], 4),
                                   ("right_world", WORLD_RIGHT_COLOUR, 2.5, 5)):
            (line,) = ax.plot([], [], [], color=colour, lw=lw, solid_capstyle="butt", zorder=z)
            self.slope_vectors[key] = line
        self.slope_labels = {key: ax.text(0, 0, 0, text, fontsize=MIN_FONT_SIZE, color=colour,
                                          va="top" if key == "tangent" else "center")
                             for key, text, colour in (
                                 ("tangent", "T", COLOURS["tangent"]),
                                 ("world_up", _("world up"), GREYS["label"]),
                                 ("normal", _("projected up"), COLOURS["progress"]))}
        # at the foot of the view: at its top the labels of the up vectors ran into it
        self.slope_text = ax.text2D(0.02, 0.02, "", transform=ax.transAxes, ha="left",
                                    va="bottom", fontsize=MIN_FONT_SIZE,
                                    bbox={"fc": GREYS["white"], "ec": "none", "alpha": 0.85,
                                          "pad": 1.5})
        bare_axes(ax)
        ax.set_box_aspect((1, 1, 1), zoom=1.45)
        ax.set(xlim=(-SLOPE_HALF, SLOPE_HALF), ylim=(-SLOPE_HALF, SLOPE_HALF),
               zlim=(-SLOPE_HALF, SLOPE_HALF))     # the spans every frame keeps

    # -- which panels show ------------------------------------------------------------------
    @check.first_is(SteeringState, "the SteeringApp's .state")
    def show_track(self, state: SteeringState) -> None:
        sp = state.spline
        s = np.linspace(0.0, sp.length, max(200, int(sp.length * 2)))
        pts = sp.location_at(s)[:, :2]
        t = sp.direction_at(s)[:, :2]
        t /= np.linalg.norm(t, axis=1, keepdims=True)
        right = np.c_[t[:, 1], -t[:, 0]]
        left_edge, right_edge = pts - ROAD_HALF_WIDTH * right, pts + ROAD_HALF_WIDTH * right
        for v in (self.overview, self.closeup):
            v.centre_line.set_data(pts[:, 0], pts[:, 1])
            v.edge_left.set_data(left_edge[:, 0], left_edge[:, 1])
            v.edge_right.set_data(right_edge[:, 0], right_edge[:, 1])
            v.end_mark.set_data(([pts[-1, 0]], [pts[-1, 1]]) if not sp.closed else ([], []))
            v.end_label.xy = tuple(pts[-1])
            v.end_label.set_visible(not sp.closed)
        lo = pts.min(axis=0) - ROAD_HALF_WIDTH - 4
        hi = pts.max(axis=0) + ROAD_HALF_WIDTH + 4
        self._set_view(self.overview, lo, hi)
        three_d = sp.dim == 3
        self.ax_close.set_visible(not three_d)
        self.ax_slope.set_visible(three_d)
        if three_d:
            p3 = sp.location_at(s)
            r3 = np.c_[right, np.zeros(len(s))]
            for line, edge in ((self.slope_left, p3 - ROAD_HALF_WIDTH * r3),
                               (self.slope_right, p3 + ROAD_HALF_WIDTH * r3),
                               (self.slope_centre, p3)):
                line.set_data_3d(edge[:, 0], edge[:, 1], edge[:, 2])
        self._track = state.track

    def show_view(self, view: str) -> None:
        check.option(view, "view", VIEWS)
        self.ax_terms.set_visible(view == "Terms")
        self.ax_rms.set_visible(view == "Speed sweep")
        self.ax_max.set_visible(view == "Speed sweep")
        self.ax_phase.set_visible(view == "Phase portrait")

    @staticmethod
    def _set_view(v: SimpleNamespace, lo, hi) -> None:
        """Show at least the box lo..hi, with 1 m = 1 m on both axes (the box is widened)."""
        centre, size = 0.5 * (lo + hi), np.array(hi - lo, dtype=float)
        if size[0] / size[1] < v.aspect:
            size[0] = size[1] * v.aspect
        else:
            size[1] = size[0] / v.aspect
        lo, hi = centre - 0.5 * size, centre + 0.5 * size
        v.ax.set_xlim(lo[0], hi[0])
        v.ax.set_ylim(lo[1], hi[1])
        bar = next(b for b in (2.0, 5.0, 10.0, 20.0, 50.0, 100.0) if b >= 0.12 * size[0])
        x0, y0 = hi[0] - 0.03 * size[0] - bar, lo[1] + 0.04 * size[1]
        v.scale_bar.set_data([x0, x0 + bar], [y0, y0])
        v.scale_text.set_position((x0 + 0.5 * bar, y0 + 0.01 * size[1]))
        v.scale_text.set_text(f"{bar:.0f} m")

    # -- a new state ----------------------------------------------------------------------
    @check.first_is(SteeringState, "the SteeringApp's .state")
    def show_state(self, state: SteeringState) -> None:
        """Everything that changes with the state and not with the frame (once per state)."""
        if state is self._state:
            return
        self._state = state
        if state.track != self._track:
            self.show_track(state)
        self.show_view(state.view)
        if state.view == "Speed sweep":
            self.show_sweep(state)
        elif state.view == "Phase portrait":
            self.show_phase(state)
        run = state.run
        if run is self._run:
            return
        tr = run.trajectory
        for v in (self.overview, self.closeup):
            v.path_line.set_data(tr.x, tr.y)
            v.start_mark.set_data([tr.x[0]], [tr.y[0]])
        c = run.contributions
        zero = np.zeros(len(tr))
        for key, line in self.term_lines.items():
            line.set_data(tr.t, c.get(key, zero))
        lo = min(-1.05, *(float(np.min(c[k])) - 0.05 for k in c))
        hi = max(1.05, *(float(np.max(c[k])) + 0.05 for k in c))
        self.ax_terms.set_ylim(max(lo, -2.5), min(hi, 2.5))
        self._fit_terms_ticks()
        self.end_line.set_xdata([tr.t[-1], tr.t[-1]])
        self.end_line.set_visible(bool(tr.ended))
        self._run = run

    @check.first_is(SteeringState, "the SteeringApp's .state")
    def show_sweep(self, state: SteeringState) -> None:
        sw = state.sweep
        if sw is None:
            return
        for key in ("rms", "max"):
            values = getattr(sw, key)
            best = sw.best(key)
            for i, m in enumerate(SWEEP_MODES):
                self.sweep_lines[key][m].set_data(sw.speeds, values[i])
            for span, speed in zip(self.sweep_spans[key], range(4, 26), strict=True):
                hit = np.flatnonzero(sw.speeds == speed)
                span.set_facecolor(best_colour(best[hit[0]]) if len(hit) else "none")
                span.set_alpha(0.18)
            self.sweep_now[key].set_xdata([state.speed, state.speed])
        self._place_sweep_titles()

    @check.first_is(SteeringState, "the SteeringApp's .state")
    def show_phase(self, state: SteeringState) -> None:
        runs = {state.controller: state.run, **state.others}
        xs, ys = [], []
        for c, line in self.phase_lines.items():
            r = runs.get(c)
            if r is None:
                line.set_data([], [])
                continue
            cte, he = r.trajectory.crosstrack_error, r.heading_error
            line.set_data(cte, he)
            chosen = c == state.controller
            line.set_linewidth(2.4 if chosen else 1.4)
            line.set_alpha(1.0 if chosen else 0.5)
            line.set_zorder(4 if chosen else 2)
            xs.append(cte)
            ys.append(he)
        x, y = np.concatenate(xs), np.concatenate(ys)
        xr = max(0.5, float(np.max(np.abs(x)))) * 1.08
        yr = max(3.0, float(np.max(np.abs(y)))) * 1.1
        self.ax_phase.set_xlim(-xr, xr)
        self.ax_phase.set_ylim(-yr, yr)

    # -- one moment ------------------------------------------------------------------------
    @check.first_is(SteeringState, "the SteeringApp's .state")
    def draw(self, state: SteeringState, time: float | None) -> None:
        run = state.run
        tr = run.trajectory
        k = state.step(time)
        x, y, yaw = tr.x[k], tr.y[k], tr.yaw[k]
        outline = tr.vehicle.outline(x, y, yaw)
        pp, tg = run.progress_point[k], run.target[k]
        has_target = bool(np.all(np.isfinite(tg)))
        for v in (self.overview, self.closeup):
            v.car.set_xy(outline)
            v.progress_dot.set_data([pp[0]], [pp[1]])
            v.target_dot.set_data(([tg[0]], [tg[1]]) if has_target else ([], []))
            v.target_line.set_data(([x, tg[0]], [y, tg[1]]) if has_target else ([], []))
        focus = tg if has_target else pp
        centre = 0.5 * (np.array([x, y]) + focus)
        half = max(10.0, 0.5 * math.hypot(focus[0] - x, focus[1] - y) + 8.0)
        self._set_view(self.closeup, centre - half, centre + half)
        if state.controller == "Article":
            arrow = min(6.0, 0.3 * half) * tr.target_direction[k]
            arrow = arrow / max(np.linalg.norm(tr.target_direction[k]), 1e-12)
            self.tangent_arrow.set_offsets([tg])
            self.tangent_arrow.set_UVC([arrow[0]], [arrow[1]])
            off = tr.perpendicular_offset[k]
        else:
            self.tangent_arrow.set_UVC([0.0], [0.0])
            d = state.spline.direction_at(tr.progress[k])[:2]
            d = d / np.linalg.norm(d)
            off = tr.crosstrack_error[k] * np.array([d[1], -d[0]])
        self.offset_arrow.set_offsets([pp])
        self.offset_arrow.set_UVC([off[0]], [off[1]])
        self.cursor.set_xdata([tr.t[k], tr.t[k]])
        if state.view == "Phase portrait":
            self.phase_dot.set_data([tr.crosstrack_error[k]], [run.heading_error[k]])
        if state.spline.dim == 3:
            self._draw_slope(state, k)

    def _draw_slope(self, state: SteeringState, k: int) -> None:
        """The ramp around the car, and the two right vectors at its progress point."""
        run, sp = state.run, state.spline
        tr = run.trajectory
        s = float(tr.progress[k])
        f = sp.frame_at(s)
        p = np.array(f.point)
        t = np.array(f.tangent)
        up = np.array([0.0, 0.0, 1.0])
        normal = up - t * (up @ t)
        normal /= np.linalg.norm(normal)
        right_world = np.cross(t, up)               # length cos(slope)
        right = np.cross(t, normal)                 # unit
        car = np.array([tr.x[k], tr.y[k], p[2]])
        scale = 3.5
        vectors = {"tangent": scale * t, "world_up": scale * up, "normal": scale * normal,
                   "right_world": scale * right_world, "right": scale * right}
        for key, vec in vectors.items():
            seg = np.c_[p, p + vec]
            self.slope_vectors[key].set_data_3d(seg[0], seg[1], seg[2])
        off = car - p
        off = off - t * (off @ t)
        seg = np.c_[p, p + off]
        self.slope_vectors["offset"].set_data_3d(seg[0], seg[1], seg[2])
        # each label beside its tip on the side away from the others: the two ups on
        # either side of the screen's x between their tips (lifted apart by 1.2 m across
        # the road, they still ran into each other), "T" just under its tip, away from both
        lean = float(self._screen_right @ normal)     # < 0: projected up leans left
        sides = {"tangent": 1.0 if self._screen_right @ t >= 0 else -1.0,
                 "normal": -1.0 if lean < 0 else 1.0, "world_up": 1.0 if lean < 0 else -1.0}
        for key, side in sides.items():
            label = self.slope_labels[key]
            drop = 0.4 * up if key == "tangent" else 0.0  # "T" a little under its tip
            label.set_position_3d(p + 1.1 * vectors[key] + 0.3 * side * self._screen_right
                                  - drop)
            ha = "left" if side > 0 else "right"
            if label.get_ha() != ha:
                label.set_ha(ha)
        # the car on the road's plane: up the slope by tan(slope) per m along the road
        # (it was sin: at 26.6° the car lay 2.4° flatter than the road, its nose in it)
        outline = tr.vehicle.outline(tr.x[k], tr.y[k], tr.yaw[k])
        z = p[2] + (outline - p[:2]) @ t[:2] * (t[2] / max(t[:2] @ t[:2], 1e-12))
        self.slope_car.set_data_3d(outline[:, 0], outline[:, 1], z)
        half = SLOPE_HALF
        mid = p - self._slope_shift * self._screen_right      # the scene right of the middle
        self.ax_slope.set_xlim(mid[0] - half, mid[0] + half)
        self.ax_slope.set_ylim(mid[1] - half, mid[1] + half)
        self.ax_slope.set_zlim(mid[2] - half, mid[2] + half)
        slope = math.degrees(math.atan2(t[2], math.hypot(t[0], t[1])))
        world = run.world_up_crosstrack[k] if run.world_up_crosstrack is not None else math.nan
        self.slope_text.set_text(self._slope_format.format(
            slope=slope, norm=np.linalg.norm(right_world), world=world,
            projected=tr.crosstrack_error[k]))
