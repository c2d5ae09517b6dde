"""The maths modules never pull in a plotting or widget library (see docs/adding-a-lesson.md).

Each module is imported in a fresh interpreter, so nothing another test imported first can
hide a dependency; then ``sys.modules`` is inspected.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

MATHS = ["rotations", "interpolation", "spline", "steering", "vehicle", "controllers",
         "tracks", "funnel", "navmesh", "pathsmooth", "validate", "sweep"]
FORBIDDEN = ("matplotlib", "ipywidgets", "IPython", "ipympl")


@pytest.mark.parametrize("module", MATHS)
def test_maths_module_imports_no_plotting_or_widgets(module):
    code = (f"import json, sys; import lessons_lib.{module}; "
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    loaded = set(json.loads(out.stdout))
    assert not loaded & set(FORBIDDEN), (
        f"lessons_lib.{module} imports {sorted(loaded & set(FORBIDDEN))}")
