"""The lesson catalogue is the one list: the index, the app registry and the README agree."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import nbformat
import pytest

from lessons_lib import apps
from lessons_lib.catalogue import LESSONS, app_registry, lesson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import make_index  # noqa: E402  (tools/make_index.py)


def test_every_lesson_has_its_notebook_and_its_apps_import():
    for item in LESSONS:
        assert (ROOT / "notebooks" / item.notebook).exists(), item.notebook
        for name, module in item.apps:
            assert getattr(importlib.import_module(module), name) is getattr(apps, name)
    assert sorted(apps.__all__) == sorted(app_registry())
    assert [item.number for item in LESSONS] == list(range(1, len(LESSONS) + 1))


def test_the_index_notebook_is_what_make_index_writes():
    stored = nbformat.read(ROOT / "notebooks" / "index.ipynb", as_version=4)
    fresh = make_index.build()
    assert [c.source for c in stored.cells] == [c.source for c in fresh.cells], (
        "notebooks/index.ipynb is stale: run .venv/bin/python tools/make_index.py")


def test_the_readme_table_lists_the_catalogue_in_order():
    readme = (ROOT / "README.md").read_text()
    rows = re.findall(r"^\| (\d+) \| \[([^\]]+)\]\(notebooks/([^)]+)\) \|", readme, re.M)
    assert rows == [(str(i.number), i.title, i.notebook) for i in LESSONS]
    for item in LESSONS:  # a picture of each lesson
        assert re.search(rf"!\[Lesson {item.number}[^\]]*\]\(docs/img/{item.slug}", readme)


def test_lesson_lookup_and_a_clear_error():
    assert lesson(2).slug == lesson("02_euler_vs_slerp").slug == "02_euler_vs_slerp"
    with pytest.raises(ValueError, match="the lessons are 01_gimbal_lock"):
        lesson("05_nope")
