"""Commit subjects stay one line a log can show: at most 72 characters, the why in the body.

Checked from the first commit that kept the rule (earlier subjects were paragraphs, median
264 characters). Skipped where the checkout has no history to read (an archive, a shallow
clone without that commit).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SINCE = "218b0d5c3f8b56f62f7963ea904e718fd8ccefbc"
LONGEST = 72


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def long_subjects(subjects: list[str]) -> list[str]:
    return [s for s in subjects if len(s) > LONGEST]


def test_commit_subjects_are_at_most_72_characters():
    if _git("cat-file", "-e", f"{SINCE}^{{commit}}").returncode != 0:
        pytest.skip("no git history with the first commit that kept the rule")
    log = _git("log", "--format=%s", f"{SINCE}..HEAD")
    assert log.returncode == 0, log.stderr
    long = long_subjects(log.stdout.splitlines())
    assert not long, (f"commit subjects over {LONGEST} characters (put the why in the body: "
                      "`git commit --amend` before it lands):\n  " + "\n  ".join(long))


def test_the_rule_catches_a_paragraph():
    assert long_subjects(["Fix it", "x" * 73]) == ["x" * 73]
