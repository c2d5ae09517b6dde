"""The kernel's share of one redraw, ipympl's way against the lessons' painter (CPU time).

For each app on the shared loop: move the frame (or a slider, without one), then make the
frame a page would get. *ipympl*: a full Agg render and ipympl's difference PNG (what
``LESSONS_FAST_DRAW=0`` does; the round trip through the browser comes on top). *painter*:
``Painter.render`` (background cache, moving artists only) and its cheaper PNG. CPU time of
this process, so a busy machine inflates both alike; the two take turns.
"""

from __future__ import annotations

import itertools
import time

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_webagg_core import FigureCanvasWebAggCore

from common import row


def _apps():
    from lessons_lib import apps
    from lessons_lib.apps.core import LessonApp
    from lessons_lib.catalogue import app_registry

    for name in sorted(app_registry()):
        cls = getattr(apps, name, None)
        if isinstance(cls, type) and issubclass(cls, LessonApp):
            yield name, cls


def _moves(app):
    """A callable that makes the next change a learner would make most often."""
    if app.frame is not None:
        values = itertools.cycle(app.frame_values(step=max(1, app.frame.count // 40)))
        return "frame", lambda: app.show_frame(next(values))
    import ipywidgets as widgets

    for spec in app.controls:
        w = getattr(app, spec.name)
        if isinstance(w, widgets.FloatSlider | widgets.IntSlider) and not w.disabled:
            values = itertools.cycle([w.value, min(w.max, w.value + w.step)])
            return spec.name, lambda w=w, values=values: setattr(w, "value", next(values))
    return None, None


def run(repeat: int = 24) -> list[dict]:
    rows = []
    for name, cls in _apps():
        app = cls()
        try:
            what, move = _moves(app)
            if move is None:
                continue
            canvas, painter = app.fig.canvas, app.painter
            painter.render()
            FigureCanvasWebAggCore.get_diff_image(canvas)

            def plain(canvas=canvas):
                FigureCanvasAgg.draw(canvas)
                canvas._png_is_old = True
                return FigureCanvasWebAggCore.get_diff_image(canvas)

            def fast(canvas=canvas, painter=painter):
                painter.render()
                canvas._png_is_old = True
                return painter._diff_image()

            times = {"ipympl": [], "painter": []}
            sizes = {"ipympl": [], "painter": []}
            for k in range(2 * repeat):
                move()
                label, fn = (("ipympl", plain), ("painter", fast))[k % 2]
                t0 = time.process_time()
                png = fn()
                times[label].append((time.process_time() - t0) * 1000)
                sizes[label].append(len(png) / 1024)
            for label in ("ipympl", "painter"):
                s = sorted(times[label])
                rows.append(row(f"{name}: {what} change -> frame ({label})",
                                {"median": float(np.median(s)), "p90": s[int(0.9 * len(s))],
                                 "max": s[-1]},
                                note=f"render + PNG, CPU; PNG {np.median(sizes[label]):.0f} kB"
                                     + (f"; {painter.fast_draws} fast, {painter.partial_draws}"
                                        f" partial, {painter.full_draws} full renders"
                                        if label == "painter" else "")))
        finally:
            plt.close(app.fig)
    return rows


if __name__ == "__main__":
    for r in run():
        print(f"{r['name']:55s} {r['median']:7.1f} {r['p90']:7.1f} {r['unit']}  {r['note']}")
