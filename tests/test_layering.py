"""The maths modules and every lesson's model never pull in a plotting or widget library
(see docs/adding-a-lesson.md).

The modules are found, not listed: every top-level module of ``lessons_lib`` but the
catalogue, and every ``lessons_lib/apps/<lesson>/model.py``, so a new maths module or lesson
is checked the day it is added. Each is imported in a fresh interpreter, so nothing another
test imported first can hide a dependency; then ``sys.modules`` is inspected.
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
