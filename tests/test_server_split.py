"""The maths and the apps (``lessons_lib``) install and run without the server side
(``lessons_server``, Voila, JupyterLab, jupyter_server): a user who wants only the maths, or
the apps in another Jupyter front end, does not install a web server."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from lessons_lib.catalogue import app_registry

ROOT = Path(__file__).resolve().parent.parent
SERVER_ONLY = ("voila", "jupyter_server", "jupyterlab", "lessons_server", "notebook")

#: Imports every lessons_lib module and builds every app of the catalogue, with the server
#: packages made unimportable (a meta-path finder that refuses them), then prints which
#: top-level packages were loaded.
_NO_SERVER = """
import importlib, json, os, pkgutil, sys
os.environ.setdefault("MPLBACKEND", "module://ipympl.backend_nbagg")
BLOCKED = set(json.loads(sys.argv[1]))

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is server-side")
        return None

sys.meta_path.insert(0, Refuse())
import lessons_lib
modules = [m.name for m in pkgutil.walk_packages(lessons_lib.__path__, "lessons_lib.")]
for name in modules:
    importlib.import_module(name)
from lessons_lib.catalogue import app_registry
drawn = []
for cls, module in app_registry().items():
    app = getattr(importlib.import_module(module), cls)()
    app.fig.canvas.draw()
    drawn.append(cls)
print(json.dumps({"modules": len(modules), "apps": drawn,
                  "loaded": sorted({m.split(".")[0] for m in sys.modules})}))
"""


def test_core_dependencies_leave_out_the_server():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"]).lower()
    for name in ("voila", "jupyterlab", "jupyter-server", "jupyter_server", "notebook"):
        assert name not in core, f"{name} is a core dependency; it belongs in the server extra"
    server = " ".join(project["optional-dependencies"]["server"]).lower()
    assert "voila" in server and "jupyterlab" in server


def test_lessons_lib_imports_and_draws_every_app_without_the_server():
    out = subprocess.run([sys.executable, "-c", _NO_SERVER, json.dumps(SERVER_ONLY)],
                         capture_output=True, text=True, timeout=300, cwd=ROOT / "tests")
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["modules"] >= 40          # every module, not an empty walk
    assert sorted(result["apps"]) == sorted(app_registry())
    assert not set(result["loaded"]) & set(SERVER_ONLY)


@pytest.mark.slow
def test_a_fresh_install_without_extras_runs_the_maths_and_app_tests(tmp_path):
    """pip installs lessons_lib with no extras into a new environment: Voila and JupyterLab
    are absent, and the maths and app tests pass there against the installed copy."""
    env = tmp_path / "core"
    venv.EnvBuilder(with_pip=True).create(env)
    py = str(env / "bin" / "python")
    pip = [py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    src = tmp_path / "src"          # a copy: building in the checkout would leave build/
    for name in ("lessons_lib", "lessons_server"):
        shutil.copytree(ROOT / name, src / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    subprocess.run([*pip, str(src), "pytest", "hypothesis", "networkx", "nbformat"],
                   check=True, timeout=900, capture_output=True)
    absent = subprocess.run([py, "-c", "import voila"], capture_output=True, timeout=60)
    assert absent.returncode != 0, "voila came with the core install"
    tests = ["test_rotations.py", "test_funnel.py", "test_spline.py", "test_app_core.py",
             "test_app_gimbal.py", "test_app_funnel.py"]
    run = subprocess.run([str(env / "bin" / "pytest"), "-q", "-p", "no:cacheprovider",
                          "-m", "not browser and not notebook",
                          *[str(ROOT / "tests" / t) for t in tests]],
                         capture_output=True, text=True, timeout=1200, cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
