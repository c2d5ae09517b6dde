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
from lessons_lib.catalogue import reading_order as catalogue_reading_order

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


def test_every_file_derived_from_the_catalogue_is_what_make_index_writes():
    stale = [str(path.relative_to(ROOT)) for path, text in make_index.derived_files().items()
             if path.read_text() != text]
    assert not stale, f"{stale} stale: run .venv/bin/python tools/make_index.py"


def test_the_hub_memory_limit_grows_with_the_catalogue(monkeypatch):
    values = (ROOT / "deploy" / "z2jh" / "values.yaml").read_text()
    monkeypatch.setattr(make_index, "LESSONS", (*LESSONS, LESSONS[0]))
    grown = make_index.with_memory_limit(values)
    assert f"limit: {make_index.memory_limit_mb(len(LESSONS) + 1)}M" in grown != values
    with pytest.raises(ValueError, match="memory limit"):
        make_index.with_memory_limit("singleuser: {}")


def test_the_readme_table_lists_the_catalogue_in_order():
    readme = (ROOT / "README.md").read_text()
    rows = re.findall(r"^\| (\d+) \| \[([^\]]+)\]\(notebooks/([^)]+)\) \|", readme, re.M)
    assert rows == [(str(i.number), i.title, i.notebook) for i in LESSONS]
    for item in LESSONS:  # a picture of each lesson, and the file is there
        assert item.picture.startswith(item.slug), item.picture
        assert re.search(rf"!\[Lesson {item.number}[^\]]*\]\(docs/img/{re.escape(item.picture)}\)",
                         readme), f"the README shows no docs/img/{item.picture}"
        assert (ROOT / "docs" / "img" / item.picture).is_file(), (
            f"docs/img/{item.picture} is missing: take it with tools/readme_shots.py "
            f"{item.number}")


def test_every_readme_shot_setup_is_a_lessons_and_the_others_have_the_default():
    import readme_shots  # tools/readme_shots.py

    stale = set(readme_shots.SETUPS) - {item.slug for item in LESSONS}
    assert not stale, f"tools/readme_shots.py sets up {sorted(stale)}, not in the catalogue"
    assert callable(readme_shots.DEFAULT.run) and readme_shots.DEFAULT.figures == 1
    # the four lessons' captions describe a preset, a frame or a button pressed: they keep
    # their own setups
    assert {item.slug for item in LESSONS[:4]} <= set(readme_shots.SETUPS)


def test_every_link_in_the_readme_and_docs_to_a_file_of_the_repository_resolves():
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target:
                continue
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_no_prose_counts_the_lessons_by_hand():
    """How many lessons there are and which order to take them in come from the catalogue."""
    words = r"(two|three|four|five|six|seven|eight|nine|ten|\d+)"
    pattern = re.compile(rf"\b{words}\s+(hands-on\s+|interactive\s+|jupyter\s+)*"
                         r"(lessons|notebooks)\b", re.I)
    import tomllib

    texts = {"README.md": (ROOT / "README.md").read_text(),
             "lessons_lib/__init__.py": (ROOT / "lessons_lib" / "__init__.py").read_text(),
             "pyproject description": tomllib.loads(
                 (ROOT / "pyproject.toml").read_text())["project"]["description"],
             "index intro": make_index.build().cells[0].source}
    texts.update({p.name: p.read_text() for p in (ROOT / "docs").glob("*.md")})
    for where, text in texts.items():
        assert not pattern.search(text), f"{where}: {pattern.search(text).group(0)!r}"
    assert catalogue_reading_order() in make_index.build().cells[0].source


def test_lesson_lookup_and_a_clear_error():
    second = LESSONS[1]
    assert lesson(2) == lesson(second.slug) == lesson(second.notebook) == second
    with pytest.raises(ValueError, match=f"the lessons are {LESSONS[0].slug}"):
        lesson("05_nope")


def test_each_lesson_is_called_by_its_catalogue_title_wherever_a_notebook_names_it():
    """Issue 41: lesson 2 had three names (the catalogue's, its own heading's and lesson 1's
    link). Every "Lesson N · ..." in a notebook now uses the catalogue's title; the headings
    of lessons 1 and 2 are checked here (lessons 3 and 4 keep a longer heading for now)."""
    titles = {str(item.number): item.title for item in LESSONS}
    said = []
    for item in LESSONS:
        nb = nbformat.read(ROOT / "notebooks" / item.notebook, as_version=4)
        text = " ".join(" ".join(c.source.split()) for c in nb.cells if c.cell_type == "markdown")
        said += re.findall(r"\[Lesson (\d+) · ([^\]]+)\]", text)
        if item.number in (1, 2):
            assert nb.cells[0].source.startswith(f"# Lesson {item.number} · {item.title}\n")
    assert said
    for number, name in said:
        assert name == titles[number], (number, name)
