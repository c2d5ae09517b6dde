"""The project's own files install it: pyproject, conda environment, Binder, Makefile, CI."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _conda_names(path):
    names = []
    for line in path.read_text().splitlines():
        m = re.match(r"\s+- ([A-Za-z0-9_.-]+)", line)
        if m and not line.strip().startswith("- -"):
            names.append(m.group(1))
    return names


def test_binder_environment_is_the_root_one():
    assert (ROOT / "binder" / "environment.yml").read_bytes() == \
        (ROOT / "environment.yml").read_bytes()


def test_conda_environment_is_conda_forge_only_and_pinned():
    text = (ROOT / "environment.yml").read_text()
    channels = re.search(r"channels:\n((?:\s+- .+\n)+)", text).group(1)
    assert "conda-forge" in channels and "defaults\n" not in channels.replace("nodefaults", "")
    assert re.search(r"- python=3\.12\b", text)
    for line in text.split("dependencies:")[1].splitlines():
        m = re.match(r"\s+- ([a-z][a-z0-9_.-]*)(.*)", line)
        if m and m.group(1) not in ("pip",):
            assert re.match(r"(=\d+\.\d+|>=\d)", m.group(2).strip()), f"unpinned: {line}"


def test_conda_names_cover_the_runtime_dependencies():
    conda = set(_conda_names(ROOT / "environment.yml"))
    pip_to_conda = {"numpy-quaternion": "quaternion"}
    for dep in _pyproject()["project"]["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.-]+", dep).group(0).lower()
        assert pip_to_conda.get(name, name) in conda, f"{name} is missing from environment.yml"
    assert "quaternion" in conda and "numpy-quaternion" not in conda


def test_runtime_dependencies_have_checked_lower_bounds():
    deps = _pyproject()["project"]["dependencies"]
    for dep in deps:
        assert ">=" in dep and "==" not in dep, f"{dep}: give a lower bound, not a pin"
    server = _pyproject()["project"]["optional-dependencies"]["server"]
    assert any(d.startswith("voila>=0.5.") and int(d.split(".")[2].split(",")[0]) >= 6
               for d in server), "voila 0.5.6 fixed a file-reading vulnerability"
    assert any(d.startswith("numpy-quaternion") for d in deps)
    assert not any(re.match(r"quaternion\b", d) for d in deps), "`quaternion` is unrelated"


def test_postbuild_installs_the_package():
    text = (ROOT / "binder" / "postBuild").read_text()
    assert text.startswith("#!") and "set -e" in text and "pip install" in text
    assert (ROOT / "binder" / "postBuild").stat().st_mode & 0o111


@pytest.mark.slow
def test_repo2docker_builds_from_binder_folder():
    exe = shutil.which("repo2docker") or str(Path(sys.executable).parent / "repo2docker")
    out = subprocess.run([exe, "--no-build", "--debug", str(ROOT)], capture_output=True,
                         text=True, timeout=300)
    dockerfile = out.stdout
    assert out.returncode == 0, out.stderr[-2000:]
    assert '--file "binder/environment.yml"' in dockerfile, dockerfile[-3000:]
    assert "./binder/postBuild" in dockerfile


def test_makefile_targets_bootstrap_the_venv():
    text = (ROOT / "Makefile").read_text()
    for target in ("lab", "voila", "test", "bench"):
        assert re.search(rf"^{target}:.*", text, re.M), f"no `{target}` target"
    assert "-m venv" in text and "pyproject.toml" in text
    assert "--Voila.ip=$(HOST)" in text and "HOST   ?= 127.0.0.1" in text


def test_ci_runs_make_test_from_a_fresh_venv():
    text = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in text and "make test" in text and "rm -rf .venv" in text
    assert "playwright install" not in text


def _make_n(*args: str) -> list[str]:
    """The commands `make -n` would run, for the pytest and ruff lines."""
    # not the variables of a `make test PYTEST_ARGS=...` this test may be running under
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PYTEST_ARGS", "MARKERS")}
    out = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    return [line.strip() for line in out.stdout.splitlines() if "pytest" in line or "ruff" in line]


def test_make_test_leaves_out_the_slow_tests_and_ci_runs_them_after():
    """`make test` = ruff + pytest -m "not slow"; `make test-slow` the rest; `make test-all`
    both; PYTEST_ARGS adds to each; CI runs `make test`, then `make test-slow`."""
    fast = _make_n("test")
    assert fast[0].endswith("ruff check .") and fast[1].endswith('pytest -m "not slow"'), fast
    assert _make_n("test", "PYTEST_ARGS=-k funnel")[1].endswith('-m "not slow" -k funnel')
    assert _make_n("test-slow")[-1].endswith("pytest -m slow"), _make_n("test-slow")
    everything = _make_n("test-all")
    assert everything[0].endswith("ruff check .") and everything[1].endswith("pytest"), everything
    assert "-m" not in _pyproject()["tool"]["pytest"]["ini_options"]["addopts"].split()
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert ci.index("make test") < ci.index("make test-slow")
    assert sum("took" in line and line.startswith("echo") for line in ci) >= 2
    readme = (ROOT / "README.md").read_text().split("## Tests", 1)[1]
    for command in ("make test", "make test-slow", "make test-all", '-m "not slow"'):
        assert command in readme, command


def test_readme_quick_start_and_binder_links():
    text = (ROOT / "README.md").read_text()
    assert "make lab" in text and "make test" in text and "make voila" in text
    assert "conda env create -f environment.yml" in text
    assert "urlpath=lab/tree/notebooks" in text
    assert "urlpath=voila/render/notebooks/index.ipynb" in text     # lands on the index
    assert "mybinder.org/v2/gh/" in text


def test_ci_runs_the_app_and_browser_tests_with_the_fast_path_off_too():
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert ci.index("make test") < ci.index("make test-plain") < ci.index("make test-slow")
    plain = " ".join(_make_n("test-plain"))
    assert "LESSONS_FAST_DRAW=0" in plain
    for tests in ("test_app_", "test_browser_", "test_notebooks.py"):
        assert tests in plain, f"make test-plain leaves out {tests}"


def test_licences_named_in_the_metadata_and_readme_are_the_files():
    """MIT for the code (LICENSE), CC BY 4.0 for the lesson text and figures
    (LICENSE-content): the same two in pyproject, the installed metadata and the README."""
    from importlib.metadata import metadata

    project = _pyproject()["project"]
    assert project["license"] == "MIT AND CC-BY-4.0"
    assert project["license-files"] == ["LICENSE", "LICENSE-content"]
    code, content = ((ROOT / name).read_text() for name in project["license-files"])
    assert code.startswith("MIT License\n")
    assert "Copyright (c) 2026 the game-maths lessons authors" in code
    assert "Creative Commons Attribution 4.0 International" in content
    assert "https://creativecommons.org/licenses/by/4.0/legalcode" in content
    assert "the game-maths lessons authors" in content
    installed = metadata("lessons_lib")
    assert installed["License-Expression"] == project["license"]
    assert installed.get_all("License-File") == project["license-files"]
    readme = (ROOT / "README.md").read_text().split("## May I reuse this?", 1)[1]
    readme = readme.split("\n## ", 1)[0]
    assert "MIT licence ([LICENSE](LICENSE))" in readme
    assert "CC BY 4.0 ([LICENSE-content](LICENSE-content))" in readme
