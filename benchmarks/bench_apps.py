"""Every app of the catalogue: what one change of each of its controls costs on the kernel
side, the callback plus a full Agg render of the figure (``common.full_draw``), live (no
data-URL PNG, as with a page connected).

The apps and their controls come from ``catalogue.LESSONS`` and each app's declared specs,
so a new lesson is measured here with no benchmark of its own; a ``bench_<lesson>.py``
is for what this does not move (drags, presets, a model's own work).
"""

from __future__ import annotations

import itertools

from common import full_draw, row, time_ms

BUDGET = "<= 50 ms"
#: How many values of a slider a benchmark cycles through (min to max).
SLIDER_VALUES = 7


def values_of(spec, lo: float | None = None, hi: float | None = None) -> list:
    """The values a control is moved through: a slider's from min to max (``lo`` and ``hi``
    where the app narrows them now, as a frame that ends early), each option of a menu, a
    toggle's two."""
    if hasattr(spec, "values"):            # Choice
        return list(spec.values)
    if hasattr(spec, "min"):               # Slider, Frame
        lo = spec.min if lo is None else max(spec.min, lo)
        hi = spec.max if hi is None else min(spec.max, hi)
        steps = int((hi - lo) / spec.step + 1e-9)
        picked = {round(steps * k / (SLIDER_VALUES - 1)) for k in range(SLIDER_VALUES)}
        return sorted({spec.check(min(hi, lo + k * spec.step)) for k in picked})
    return [not spec.default, spec.default]  # Toggle


def moves(cls) -> list[tuple[str, list]]:
    """(control name, values) for every declared control of app class ``cls``, its frame
    last; a control with one value (nothing to move) is left out."""
    specs = [*cls.controls, *([cls.frame] if cls.frame is not None else [])]
    return [(spec.name, vals) for spec in specs if len(vals := values_of(spec)) > 1]


def apps() -> dict[str, type]:
    """Every app class of the catalogue, by name."""
    from lessons_lib import apps as registry
    from lessons_lib.catalogue import app_registry

    return {name: getattr(registry, name) for name in sorted(app_registry())}


def control_widget(app, name: str):
    """The widget of the app's control ``name`` (its frame slider for the frame)."""
    frame = type(app).frame
    return app.frame_slider if frame is not None and name == frame.name else getattr(app, name)


def values_now(app, name: str) -> list:
    """The values control ``name`` of ``app`` is moved through, within its range now."""
    cls = type(app)
    spec = next(s for s in [*cls.controls, cls.frame] if s is not None and s.name == name)
    widget = control_widget(app, name)
    return values_of(spec, getattr(widget, "min", None), getattr(widget, "max", None))


def run() -> list[dict]:
    rows = []
    for name, cls in apps().items():
        for control, _ in moves(cls):
            app = cls()    # as opened: a change of another control may end the frame at 0
            app.fig.canvas.syncing_data_url = False
            widget = control_widget(app, control)
            values = values_now(app, control)
            cycle = itertools.cycle(values[1:] + values[:1])

            def change(widget=widget, cycle=cycle, fig=app.fig):
                widget.value = next(cycle)
                full_draw(fig)

            rows.append(row(f"{name}: {control} + full draw (live)",
                            time_ms(change, repeat=max(15, len(values))), budget=BUDGET))
    return rows
