"""Lesson 3's static figures and the notebook's table helper (no widgets). (The three
terms' pictures are live: :class:`.terms.TermApp`.)

* :func:`slope_figure`: a ramp with world up, the road normal and the right vector;
* :func:`run_figure`: one run's path and crosstrack error (the exercises);
* :func:`sweep_figure`: the speed sweep on every track (the look-ahead section);
* :func:`table` and :func:`worked_example`: small HTML tables, so a cell's output always
  says what it shows (Voila hides the code).
"""

from __future__ import annotations

import html
import math

import numpy as np

from ... import validate as check
from ...i18n import _
from ...spline import Spline
from ...steering import SteeringParams, road_right
from ...tracks import TRACKS
from ..core import (
    FONT_SIZE,
    GREYS,
    LINE,
    MARKER,
    MIN_FONT_SIZE,
    PALETTE,
    TITLE_SIZE,
    bare_axes,
    make_figure,
    rc_context,
)
from . import model
from .view import COLOURS, MODE_COLOURS, ROAD_HALF_WIDTH, SWEEP_LIMITS, best_colour


def slope_figure(grade: float = 0.5):
    """3D: a road climbing at ``grade``; world up, the up projected off the tangent (road
    normal) and the road's right vector, at one point."""
    grade = check.real(grade, "grade", lo=-3.0, hi=3.0)
    fig = make_figure(4.6, 3.6)
    with rc_context():
        # room on the left and below for the z and x tick labels (at 0.0, 0.02 the z axis
        # label and the x axis's "0" were cut by the figure's edge)
        ax = fig.add_axes((0.06, 0.05, 0.88, 0.86), projection="3d")
    ramp = Spline([[0.0, 0.0, 0.0], [10.0, 0.0, 10.0 * grade]])
    s = 0.5 * ramp.length
    p, t = ramp.location_at(s), ramp.direction_at(s)
    up = np.array([0.0, 0.0, 1.0])
    n = up - t * np.dot(up, t)
    n /= np.linalg.norm(n)
    r = road_right(t)
    corners = np.array([ramp.location_at(0) - 3 * r, ramp.location_at(0) + 3 * r,
                        ramp.location_at(ramp.length) + 3 * r,
                        ramp.location_at(ramp.length) - 3 * r])
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    ax.add_collection3d(Poly3DCollection([corners], facecolor=PALETTE["sky"],
                                         edgecolor=PALETTE["black"], alpha=0.35))
    # each label on a white backing a little past its tip (the road's outline and the arrow
    # heads ran through 'world up' and the 'r' of 'right'): 'world up' centred above its
    # tip, 'road normal' under and left of its own (beside their tips the two touched),
    # the others beside theirs
    azim = math.radians(-128)
    screen_right = np.array([-math.sin(azim), math.cos(azim), 0.0])   # the view's x
    for vec, colour, label, ha, va, at in (
            (3 * t, COLOURS["tangent"], _("tangent"), "left", "center", 1.2 * 3 * t),
            (3 * up, GREYS["label"], _("world up"), "center", "bottom", 1.08 * 3 * up),
            (3 * n, COLOURS["progress"], _("road normal\n(up projected)"), "right", "top",
             2.6 * n - 0.6 * screen_right),
            (3 * r, COLOURS["offset"], _("right"), "left", "center", 1.2 * 3 * r)):
        ax.quiver(*p, *vec, color=colour, linewidth=LINE["arrow"], arrow_length_ratio=0.15)
        with rc_context():
            ax.text(*(p + at), label, fontsize=MIN_FONT_SIZE, color=colour, ha=ha, va=va,
                    bbox=dict(facecolor=GREYS["white"], alpha=0.8, edgecolor="none", pad=1.0))
    ax.set_xlim(0, 10)
    ax.set_ylim(-5, 5)
    ax.set_zlim(0, max(5.0, 10 * grade))
    ax.set_box_aspect((10, 10, max(5.0, 10 * grade)))
    ax.view_init(elev=32, azim=math.degrees(azim))
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_zlabel("z")
    slope = math.degrees(math.atan(grade))
    with rc_context():
        ax.set_title(_("grade {grade:.0%}: slope {slope:.1f}°").format(grade=grade, slope=slope),
                     fontsize=FONT_SIZE)
    return fig


def run_figure(trajectory, spline: Spline, title: str = ""):
    """A small static picture of one run: the path on the road (its edges drawn, an arrow
    from the start for the direction of travel), and crosstrack vs time."""
    from ...vehicle import Trajectory

    if not isinstance(trajectory, Trajectory):
        raise ValueError(f"trajectory must be a Trajectory, got {type(trajectory).__name__}")
    if not isinstance(spline, Spline):
        raise ValueError(f"spline must be a Spline, got {type(spline).__name__}")
    if not isinstance(title, str):
        raise ValueError(f"title is text, got {type(title).__name__}")
    fig = make_figure(8.0, 2.6)
    with rc_context():
        ax_map = fig.add_axes((0.0, 0.02, 0.45, 0.86))
        ax_ct = fig.add_axes((0.53, 0.2, 0.45, 0.68))
    pts = spline.sample(400)
    s = np.linspace(0.0, spline.length, len(pts))
    d = spline.direction_at(s)[:, :2]
    right = np.c_[d[:, 1], -d[:, 0]] / np.hypot(d[:, 0], d[:, 1])[:, None]
    for side in (-ROAD_HALF_WIDTH, ROAD_HALF_WIDTH):   # the road's edges
        ax_map.plot(*(pts[:, :2] + side * right).T, color=COLOURS["centre"], lw=LINE["rule"])
    ax_map.plot(*pts[:, :2].T, color=COLOURS["centre"], lw=LINE["thin"], ls=(0, (6, 4)))
    ax_map.plot(trajectory.x, trajectory.y, color=COLOURS["path"], lw=LINE["trace"])
    ax_map.plot(trajectory.x[0], trajectory.y[0], "x", color=COLOURS["path"], ms=MARKER["mark"],
                mew=LINE["bold"])
    # which way the car drives: an arrow along the road from the start
    s0 = float(trajectory.progress[0])
    p0, t0 = spline.location_at(s0)[:2], spline.direction_at(s0)[:2]
    t0 = t0 / math.hypot(*t0)
    ax_map.annotate("", xy=p0 + 14.0 * t0, xytext=p0 + 2.0 * t0,
                    arrowprops={"arrowstyle": "-|>", "color": PALETTE["black"], "lw": LINE["line"],
                                "mutation_scale": 14})
    ax_map.set_aspect("equal")
    bare_axes(ax_map)
    ax_ct.axhline(0, color=PALETTE["grey"], lw=LINE["rule"])
    ax_ct.plot(trajectory.t, trajectory.crosstrack_error, color=COLOURS["offset"], lw=LINE["line"])
    with rc_context():
        ax_ct.set_xlabel(_("time (s)"))
        ax_ct.set_ylabel(_("crosstrack (m)"))
        if title:
            fig.suptitle(_(title), fontsize=FONT_SIZE, y=0.99)
    return fig




def stored_sweeps() -> dict[str, model.SpeedSweep]:
    """The notebook's sweeps (Position Delta only, from the start of each track), stored in
    :mod:`.sweep_data` so the lesson page does not spend four seconds of CPU on them at
    every start; ``tests/test_app_steering.py`` checks them against :func:`model.sweep`.
    Write them again with ``python -m lessons_lib.apps.steering.figures``."""
    from .sweep_data import SWEEPS

    out = {}
    for name, d in SWEEPS.items():
        out[name] = model.SpeedSweep(
            speeds=np.array(d["speeds"]), rms=np.array(d["rms"]), max=np.array(d["max"]),
            movement=np.array(d["movement"]), look_ahead=tuple(d["look_ahead"]))
    return out


#: What the notebook's sweep figure shows: Position Delta only, as in the article's
#: look-ahead section, each run from the start of its track.
NOTEBOOK_SWEEP = SteeringParams(use_heading=False, use_crosstrack=False)


def write_stored_sweeps(path=None) -> str:
    """Compute the notebook's sweeps with the model and write :mod:`.sweep_data`."""
    from pathlib import Path

    path = Path(path or Path(__file__).with_name("sweep_data.py"))
    lines = ["# ruff: noqa: E501",
             '"""The notebook\'s speed sweeps, computed by :func:`.model.sweep` (Position Delta',
             "only, from each track's start) and written by :func:`.figures.write_stored_sweeps`;",
             'a test checks them against a fresh computation. Do not edit by hand."""', "",
             "SWEEPS = {"]
    for name in TRACKS:
        sw = model.sweep(name, NOTEBOOK_SWEEP, (0.0, 0.0, 0.0))
        lines.append(f"    {name!r}: {{")
        lines.append(f"        'speeds': {[float(v) for v in sw.speeds]!r},")
        for key in ("rms", "max", "movement"):
            rows = [[float(f"{v:.9g}") for v in row] for row in getattr(sw, key)]
            lines.append(f"        {key!r}: [")
            for row in rows:
                lines.append(f"            {row!r},")
            lines.append("        ],")
        lines.append(f"        'look_ahead': {list(sw.look_ahead)!r},")
        lines.append("    },")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def sweep_figure(params: SteeringParams | None = None, tracks=tuple(TRACKS), speed=None):
    """RMS crosstrack error against speed for fixed long, fixed short and adaptive look-ahead,
    one panel per track, the lowest at each speed shaded (``params``: the other settings;
    default Position Delta only, as in the article's look-ahead section, from the stored
    sweeps)."""
    if params is not None and not isinstance(params, SteeringParams):
        raise ValueError(f"params must be SteeringParams (or None), got "
                         f"{type(params).__name__}")
    tracks = tuple(check.items(tracks, "tracks", "track names"))
    if not tracks or not all(isinstance(t, str) and t in TRACKS for t in tracks):
        raise ValueError(f"tracks must name some of {', '.join(TRACKS)}, got {tracks!r:.80}")
    if speed is not None:
        speed = check.real(speed, "speed", lo=0.0, unit="m/s")
    stored = stored_sweeps() if params is None else {}
    params = params or NOTEBOOK_SWEEP
    fig = make_figure(2.3 * len(tracks) + 0.6, 2.9)
    width = 0.9 / len(tracks)
    for i, name in enumerate(tracks):
        with rc_context():
            ax = fig.add_axes((0.07 + i * width, 0.17, width - 0.025, 0.6))
        sw = stored.get(name) or model.sweep(name, params, (0.0, 0.0, 0.0))
        best = sw.best("rms")
        for v, b in zip(sw.speeds, best, strict=True):
            ax.axvspan(v - 0.5, v + 0.5, color=best_colour(b), alpha=0.18, lw=0)
        for j, mode in enumerate(model.SWEEP_MODES):
            ax.plot(sw.speeds, sw.rms[j], color=MODE_COLOURS[mode], lw=LINE["strong"], marker="o",
                    ms=MARKER["dust"],
                    label=_(mode.lower()) + (f" ({sw.look_ahead[j]:g} m)" if j < 2 else ""))
        if speed is not None:
            ax.axvline(speed, color=PALETTE["black"], lw=LINE["cursor"], ls="--")
        ax.set_yscale("log")
        ax.set_ylim(*SWEEP_LIMITS)
        ax.set_xlim(sw.speeds[0] - 0.5, sw.speeds[-1] + 0.5)
        ax.set_xticks([5, 10, 15, 20, 25])
        ax.set_yticks([0.1, 1, 10], ["0.1", "1", "10"] if i == 0 else [])
        ax.minorticks_off()
        with rc_context():
            ax.set_title(_(name.replace("_", " ")), fontsize=TITLE_SIZE)
            ax.set_xlabel(_("speed (m/s)"), labelpad=1)
            if i == 0:
                ax.set_ylabel(_("RMS crosstrack (m)"))
    handles, labels = fig.axes[0].get_legend_handles_labels()
    with rc_context():
        fig.legend(handles, labels, loc="upper center", ncol=3, frameon=False,
                   fontsize=FONT_SIZE, bbox_to_anchor=(0.5, 1.0))
    return fig


def table(rows, columns, digits: int = 2, caption: str = ""):
    """A small HTML table of dicts (``columns``: the keys to show, or (key, heading)
    pairs); NaN reads "never" (a run that never settles); ``caption`` says what it is. The
    headings, the caption and the texts in it are shown in the learner's language (the
    catalogue's, where it has them), so a shared code cell makes a Korean table too."""
    from IPython.display import HTML

    rows = [dict(r) if isinstance(r, dict) else None for r in check.items(rows, "rows", "dicts")]
    if None in rows:
        raise ValueError("rows must be dicts (column -> value)")
    columns = check.items(columns, "columns", "column names")
    if not all(isinstance(c, str) or (isinstance(c, tuple) and len(c) == 2
                                      and all(isinstance(x, str) for x in c)) for c in columns):
        raise ValueError("columns must be names, or (name, heading) pairs of text")
    digits = check.integer(digits, "digits", lo=0, hi=12)
    if not isinstance(caption, str):
        raise ValueError(f"caption is text, got {type(caption).__name__}")
    cols = [c if isinstance(c, tuple) else (c, c.replace("_", " ")) for c in columns]
    missing = sorted({k for r in rows for k, _label in cols if k not in r})
    if missing:
        raise ValueError(f"rows lack the columns {', '.join(missing)}")

    def cell(v):
        if isinstance(v, float | np.floating):
            return _("never") if np.isnan(v) else f"{v:.{digits}f}".replace("-", "\u2212")
        return html.escape(_(v) if isinstance(v, str) else str(v))

    head = "".join(f"<th>{html.escape(_(label))}</th>" for _key, label in cols)
    body = "".join("<tr>" + "".join(f"<td>{cell(r[k])}</td>" for k, _label in cols) + "</tr>"
                   for r in rows)
    cap = f"<caption style='caption-side:top;text-align:left'>{html.escape(_(caption))}" \
          "</caption>" if caption else ""
    return HTML(f"<table>{cap}<tr>{head}</tr>{body}</table>")


def worked_example(caption: str, rows: list[tuple[str, str]]):
    """A two-column table (what, value) under a caption that states the situation, for the
    results of a small code cell (so Voila, which hides the code, still shows the context)."""
    rows = check.items(rows, "rows", "(what, value) pairs")
    if not all(isinstance(r, list | tuple) and len(r) == 2 for r in rows):
        raise ValueError("rows must be (what, value) pairs")
    return table([{"what": a, "value": b} for a, b in rows], [("what", ""), ("value", "")],
                 caption=caption)


if __name__ == "__main__":
    print(write_stored_sweeps())
