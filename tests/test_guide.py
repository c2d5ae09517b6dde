"""docs/adding-a-lesson.md is true: its example app runs as printed and draws inside its axes,
and the template notebook it points to is there, stripped, and shaped like a lesson."""

from __future__ import annotations

import re
import types
from pathlib import Path

import nbformat
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "adding-a-lesson.md"


def _example_module() -> types.ModuleType:
    """The guide's first Python block, run as a module of its own."""
    code = re.search(r"```python\n(.*?)```", GUIDE.read_text(), re.S).group(1)
    module = types.ModuleType("guide_example")
    exec(compile(code, str(GUIDE), "exec"), module.__dict__)  # noqa: S102 (our own docs)
    return module


def _inside(app) -> None:
    xs, ys = (np.asarray(v, float) for v in app.line.get_data())
    (x0, x1), (y0, y1) = app.ax.get_xlim(), app.ax.get_ylim()
    assert xs.size > 1, "the example draws nothing"
    assert np.all((xs >= x0) & (xs <= x1)) and np.all((ys >= y0) & (ys <= y1)), (
        f"the example draws outside its axes: x {xs.min():.2f}..{xs.max():.2f} in "
        f"{x0}..{x1}, y {ys.min():.2f}..{ys.max():.2f} in {y0}..{y1}")


def test_the_guides_example_app_runs_and_draws_inside_its_axes():
    example = _example_module()
    app = example.WaveApp()
    app.fig.canvas.draw()
    _inside(app)
    for t in app.frame_values():
        app.show_frame(t)
        _inside(app)
    for values in ({"amplitude": 3.0}, {"amplitude": 3.0, "squared": True},
                   {"amplitude": 0.0}):
        app.set(**values)
        _inside(app)
    app.apply_preset("tall")
    _inside(app)
    assert "peak" in app.panels["info"].value


def test_the_template_notebook_is_stripped_and_shaped_like_a_lesson():
    nb = nbformat.read(ROOT / "docs" / "lesson-template.ipynb", as_version=4)
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
    text = "\n".join(c.source for c in nb.cells)
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# Lesson")
    for part in ("%matplotlib widget", "Conventions", "NumberQuestion", "exercises.",
                 "## Summary"):
        assert part in text, f"the template has no {part!r}"
