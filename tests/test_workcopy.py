"""`make lab` opens a working copy of the lessons, and the shipped notebooks stay clean.

JupyterLab saves a learner's outputs and attempts into the notebook it has open; `make lab`
used to open notebooks/ itself, so a session wrote into the repository (and its "stored
without outputs" test then failed), with no way to start a lesson afresh (issue 41).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from browser import free_port
from lessons import FIRST, lesson

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
sys.path.insert(0, str(ROOT / "tools"))
import workcopy  # noqa: E402  (tools/ is not a package)

LESSON = lesson(3).slug


def _shipped_paths() -> list[Path]:
    """The English notebooks and the Korean ones (notebooks/ko, copied to WORK/ko)."""
    return sorted(NOTEBOOKS.glob("*.ipynb")) + sorted((NOTEBOOKS / "ko").glob("*.ipynb"))


def shipped_bytes() -> dict[str, bytes]:
    return {p.relative_to(NOTEBOOKS).as_posix(): p.read_bytes() for p in _shipped_paths()}


def test_the_copy_is_made_once_and_never_overwrites_the_learners_work(tmp_path):
    work = tmp_path / "mine"
    assert sorted(workcopy.make_copy(work)) == sorted(
        p.relative_to(NOTEBOOKS).with_suffix("").as_posix() for p in _shipped_paths())
    assert {p.relative_to(work).as_posix(): p.read_bytes()
            for p in work.rglob("*.ipynb")} == shipped_bytes()
    assert any(p.parent.name == "ko" for p in work.rglob("*.ipynb")), "no Korean copy"
    (work / f"{LESSON}.ipynb").write_text("my attempt")
    assert workcopy.make_copy(work) == []
    assert (work / f"{LESSON}.ipynb").read_text() == "my attempt"


def test_a_lesson_starts_afresh_and_the_old_attempt_is_kept(tmp_path):
    work = tmp_path / "mine"
    workcopy.make_copy(work)
    (work / f"{LESSON}.ipynb").write_text("my attempt")
    kept = workcopy.afresh(work, f"{LESSON}.ipynb")
    assert kept == work / f"{LESSON}-before-afresh.ipynb" and kept.read_text() == "my attempt"
    assert (work / f"{LESSON}.ipynb").read_bytes() == (NOTEBOOKS / f"{LESSON}.ipynb").read_bytes()
    with pytest.raises(ValueError, match="no lesson 'lesson_9'"):
        workcopy.afresh(work, "lesson_9")
    assert workcopy.main([str(work), "--afresh", "lesson_9"]) == 2


def test_make_lab_opens_the_working_copy_which_git_ignores():
    plan = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout
    assert "tools/workcopy.py my-lessons" in plan and "--notebook-dir=my-lessons" in plan
    assert "--notebook-dir=notebooks" not in plan
    ignored = subprocess.run(["git", "check-ignore", "-q", f"my-lessons/{FIRST.notebook}"],
                             cwd=ROOT)
    assert ignored.returncode == 0
    plan = subprocess.run(["make", "-n", "afresh", f"LESSON={LESSON}"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    assert f"--afresh {LESSON}" in plan


def _wait(url: str, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "make lab exited early"
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"JupyterLab did not answer on {url}")


def _save_with_outputs(base: str, name: str) -> None:
    """Save the notebook with an output, the way JupyterLab's autosave writes it back."""
    with urllib.request.urlopen(f"{base}/api/contents/{name}") as r:
        model = json.load(r)
    nb = nbformat.from_dict(model["content"])
    cell = next(c for c in nb.cells if c.cell_type == "code")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="a learner's run\n")]
    body = json.dumps({"type": "notebook", "format": "json", "content": nb}).encode()
    request = urllib.request.Request(f"{base}/api/contents/{name}", data=body, method="PUT",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).close()


def test_a_lab_session_saves_into_the_copy_and_leaves_notebooks_as_shipped(tmp_path):
    before = shipped_bytes()
    work, port = tmp_path / "mine", free_port()
    args = (f"--no-browser --port={port} --ServerApp.ip=127.0.0.1 --IdentityProvider.token= "
            "--ServerApp.password= --ServerApp.disable_check_xsrf=True --allow-root")
    proc = subprocess.Popen(["make", "lab", f"WORK={work}", f"LAB_ARGS={args}"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(f"{base}/api/contents", proc)
        _save_with_outputs(base, f"{LESSON}.ipynb")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    saved = nbformat.read(work / f"{LESSON}.ipynb", as_version=4)
    assert any(c.get("outputs") for c in saved.cells if c.cell_type == "code")
    assert shipped_bytes() == before
