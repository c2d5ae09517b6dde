"""The maths modules and every lesson's model never pull in a plotting or widget library
(see docs/adding-a-lesson.md).

The modules are found, not listed: every top-level module of ``lessons_lib`` but the
catalogue, and every ``lessons_lib/apps/<lesson>/model.py``, so a new maths module or lesson
is checked the day it is added. Each is imported in a fresh interpreter, so nothing another
test imported first can hide a dependency; then ``sys.modules`` is inspected.

A small lesson may keep its model, view and panel in its ``app.py`` (no ``model.py``): its
maths then lives in a top-level module, checked here, and the package stays small
(:data:`SMALL_APP_LINES`); past that it splits into model, view and panel like the others.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import lessons_lib

FORBIDDEN = ("matplotlib", "ipywidgets", "IPython", "ipympl")
ROOT = Path(lessons_lib.__file__).parent


def maths_modules() -> list[str]:
    """Every top-level module of lessons_lib (not the packages, not the catalogue)."""
    return sorted(f"lessons_lib.{m.name}" for m in pkgutil.iter_modules([str(ROOT)])
                  if not m.ispkg and m.name != "catalogue")


def lesson_models() -> list[str]:
    """Every lesson package's ``model`` module."""
    return sorted(f"lessons_lib.apps.{path.parent.name}.model"
                  for path in ROOT.glob("apps/*/model.py"))


#: The most lines a lesson package without a model.py may hold in its app.py.
SMALL_APP_LINES = 250
#: The modules a small lesson package (no model.py) has: the app, its questions, the exports.
SMALL_MODULES = {"__init__", "app", "exercises", "figures"}


def lesson_packages() -> list[Path]:
    """Each app package of the catalogue."""
    from lessons_lib.catalogue import app_registry

    return sorted({ROOT.joinpath(*m.split(".")[1:]) for m in app_registry().values()})


@pytest.mark.parametrize("package", lesson_packages(), ids=lambda p: p.name)
def test_a_lesson_without_a_model_module_is_small(package):
    if (package / "model.py").exists():
        assert f"lessons_lib.apps.{package.name}.model" in lesson_models()
        return
    modules = {p.stem for p in package.glob("*.py")}
    assert modules <= SMALL_MODULES, (
        f"{package.name} has no model.py but has {sorted(modules - SMALL_MODULES)}: split "
        f"its model, view and panel into model.py, view.py and panel.py")
    lines = len((package / "app.py").read_text().splitlines())
    assert lines <= SMALL_APP_LINES, (
        f"{package.name}/app.py has {lines} lines with no model.py: past {SMALL_APP_LINES}, "
        f"move the model to model.py (pure: no widgets), the artists to view.py and the "
        f"HTML to panel.py")


def test_the_four_lessons_keep_their_model_modules():
    """The lessons written before the small-lesson rule keep a separate, checked model."""
    from lessons_lib.catalogue import LESSONS

    for item in LESSONS[:4]:
        key = item.apps[0][1].rsplit(".", 1)[-1]
        assert f"lessons_lib.apps.{key}.model" in lesson_models(), key


def test_discovery_finds_the_known_modules():
    found = set(maths_modules()) | set(lesson_models())
    assert {"lessons_lib.cubic", "lessons_lib.rotations", "lessons_lib.navmesh",
            "lessons_lib.apps.gimbal.model", "lessons_lib.apps.funnel.model"} <= found
    assert "lessons_lib.catalogue" not in found


@pytest.mark.parametrize("module", maths_modules() + lesson_models())
def test_module_imports_no_plotting_or_widgets(module):
    code = (f"import json, sys; import {module}; "
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, f"import {module} failed:\n{out.stderr[-2000:]}"
    loaded = set(json.loads(out.stdout.splitlines()[-1]))
    assert not loaded & set(FORBIDDEN), f"{module} imports {sorted(loaded & set(FORBIDDEN))}"
