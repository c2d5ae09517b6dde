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


def guide_table() -> list[tuple[list[str], str]]:
    """The guide's table of the files a new lesson touches: (paths, kind) for each row,
    kind one of required, optional, generated."""
    text = GUIDE.read_text()
    table = text[text.index("| file | | what to do |"):].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        first, kind = [cell.strip() for cell in line.strip("|").split("|")[:2]]
        rows.append((re.findall(r"`([^`]+)`", first), kind))
    return rows


def _expand(path: str, directory: str | None = None) -> list[str]:
    """``path`` for every lesson of the catalogue (``<slug>``, ``<key>``); a bare file name
    after a path with a folder is in that folder (``view.py`` after ``apps/<key>/model.py``)."""
    from lessons_lib.catalogue import LESSONS

    if "/" not in path and directory:
        path = f"{directory}/{path}"
    if "<slug>" not in path and "<key>" not in path:
        return [path]
    return [path.replace("<slug>", item.slug).replace(
        "<key>", item.apps[0][1].rsplit(".", 1)[-1]) for item in LESSONS]


def test_the_guides_table_names_files_the_house_has_and_needs():
    rows = guide_table()
    kinds = {kind for _, kind in rows}
    assert kinds == {"required", "optional", "generated"}, kinds
    for paths, kind in rows:
        directory = None
        for path in paths:
            directory = path.rsplit("/", 1)[0] if "/" in path else directory
            if kind != "required":
                continue
            if "<topic>" in path:   # the maths: some module and its test exist
                assert list(ROOT.glob(path.replace("<topic>", "*"))), path
                continue
            for one in _expand(path, directory):
                assert (ROOT / one).exists(), (
                    f"the guide says every lesson has {path}, and {one} is missing: fix "
                    f"the table in docs/adding-a-lesson.md or the lesson")


def test_the_guides_generated_files_are_what_the_tools_write():
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import make_index

    generated = {p for paths, kind in guide_table() if kind == "generated" for p in paths}
    written = {str(p.relative_to(ROOT)) for p in make_index.derived_files()}
    assert written | {"notebooks/index.ipynb", "docs/img/<picture>"} == generated, (
        "the guide's generated rows and what tools/make_index.py (and readme_shots.py) write "
        "differ")


def test_the_guides_optional_rows_are_optional_for_the_house():
    """What the guide calls optional, the house does without: no shared test asks every
    lesson for a browser test or a benchmark of its own, or a README setup."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import readme_shots

    optional = {p for paths, kind in guide_table() if kind == "optional" for p in paths}
    assert {"tests/test_browser_<key>.py", "benchmarks/bench_<key>.py",
            "tools/readme_shots.py", "tests/lesson_questions.py"} <= optional
    assert readme_shots.DEFAULT.run is not None
    assert (ROOT / "benchmarks" / "bench_apps.py").is_file()


def _pattern(path: str, directory: str | None) -> re.Pattern:
    if "/" not in path and directory:
        path = f"{directory}/{path}"
    return re.compile(re.sub(r"<(slug|key|topic|picture|module)>", "[^/]+", re.escape(path)))


def test_every_file_of_a_lesson_of_its_own_is_a_row_of_the_guides_table():
    """A lesson's own files (those whose path carries its app's key or its slug) are each
    of a kind the table names, so the table is the whole list a new lesson may touch."""
    import subprocess

    from lessons_lib.catalogue import LESSONS

    patterns, directory = [], None
    for paths, _kind in guide_table():
        for path in paths:
            directory = path.rsplit("/", 1)[0] if "/" in path else directory
            patterns.append(_pattern(path, directory))
    words = {w for item in LESSONS for w in (item.slug, item.apps[0][1].rsplit(".", 1)[-1])}
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    own = [f for f in files if any(w in f for w in words)]
    assert own, "no lesson's own file found"
    unlisted = [f for f in own if not any(p.fullmatch(f) for p in patterns)]
    assert not unlisted, (f"{unlisted} belong to a lesson but no row of the table in "
                          "docs/adding-a-lesson.md names their kind: add one")
