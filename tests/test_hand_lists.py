"""No hand list of lessons: every per-lesson list comes from ``catalogue.LESSONS``.

A lesson's name written by hand in a shared test, in deploy/ or in the server is a list a
new lesson is silently left out of (the layout sweep, the prose checks and the hub's memory
each once were). Only a lesson's own files may name it: those whose file name carries its
app's key (tests/test_browser_gimbal.py is lesson 1's, see ``lessons.own_key``). Per-lesson
tables in docs/ are checked to list every lesson of the catalogue.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from lessons import LESSONS, own_key

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import make_index  # noqa: E402  (tools/make_index.py: what is derived from the catalogue)

#: Where a lesson's name must come from the catalogue.
SCANNED = ("tests", "deploy", "lessons_server")
SUFFIXES = {".py", ".yaml", ".yml", ".json", ".cfg", ".toml", ".sh", ".txt"}
SKIPPED_NAMES = {"package-lock.json"}


def hand_written(text: str, own: set[str]) -> list[str]:
    """Lesson slugs in ``text`` (alone or in a notebook's name) that are not the file's own
    lessons' (``own``: slugs)."""
    slugs = [item.slug for item in LESSONS if item.slug not in own]
    if not slugs:
        return []
    pattern = r"\b(" + "|".join(map(re.escape, slugs)) + r")\b"
    return sorted({m.group(0) for m in re.finditer(pattern, text)})


def own_lessons(path: Path) -> set[str]:
    """The slugs of the lessons whose key the file's name carries."""
    return {item.slug for item in LESSONS if own_key(item) in path.name}


def scanned_files() -> list[Path]:
    files = [p for folder in SCANNED for p in sorted((ROOT / folder).rglob("*"))
             if p.is_file() and p.suffix in SUFFIXES and p.name not in SKIPPED_NAMES
             and "__pycache__" not in p.parts and "screenshots" not in p.parts]
    return [p for p in files if p != Path(__file__).resolve()]


@pytest.mark.parametrize("folder", SCANNED)
def test_no_lesson_name_is_written_by_hand(folder):
    problems = []
    for path in scanned_files():
        if path.relative_to(ROOT).parts[0] != folder:
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            names = hand_written(line, own_lessons(path))
            if names:
                problems.append(f"{path.relative_to(ROOT)}:{number}: {', '.join(names)}")
    assert not problems, (
        "lesson names written by hand (take them from tests/lessons.py or "
        "lessons_lib.catalogue: LESSONS, lesson(n).slug / .notebook), so a new or renamed "
        "lesson would be left out:\n  " + "\n  ".join(problems))


def test_the_scan_catches_a_planted_name_and_spares_a_lessons_own_file():
    first, second = LESSONS[0], LESSONS[-1]
    assert hand_written(f'LESSON = "{first.slug}"', set()) == [first.slug]
    assert hand_written(f'open("{second.notebook}")', set()) == [second.slug]
    assert hand_written(f'LESSON = "{first.slug}"', {first.slug}) == []
    assert own_lessons(ROOT / "tests" / f"test_browser_{own_key(first)}.py") == {first.slug}
    assert hand_written("lesson(1).notebook, 0.5_m", set()) == []


@pytest.mark.parametrize("doc, heading, how", make_index.MEASURED)
def test_per_lesson_tables_in_the_docs_list_every_lesson_or_say_it_is_not_measured(
        doc, heading, how):
    text = (ROOT / doc).read_text()
    _, _, rows = make_index.table_span(text, heading)
    missing = [item.slug for item in LESSONS if item.slug not in rows]
    assert make_index.with_unmeasured(text, heading, how) == text, (
        f"{doc}: the line under the table {heading!r} should name the lessons it has no "
        f"row for ({missing or 'none'}): run .venv/bin/python tools/make_index.py, or "
        f"measure them with `{how}` and add their rows")
    if missing:
        assert f"({missing[0]})" in text.split(heading, 1)[1]


def test_the_generated_line_names_a_lesson_missing_from_a_table_and_goes_with_its_row():
    doc, heading, how = make_index.MEASURED[0]
    text = (ROOT / doc).read_text()
    first = LESSONS[0]
    row = next(line for line in text.splitlines() if line.startswith(f"| {first.slug} |"))
    fixed = make_index.with_unmeasured(text.replace(row + "\n", ""), heading, how)
    line = next(x for x in fixed.splitlines() if x.startswith(make_index.NOT_MEASURED))
    assert f"lesson {first.number} ({first.slug})" in line
    assert make_index.with_unmeasured(fixed, heading, how) == fixed      # written once
    end, tail, _ = make_index.table_span(text, heading)
    stale = text[:end] + f"\n\n{make_index.NOT_MEASURED} lesson 9 (gone)." + text[tail:]
    assert make_index.with_unmeasured(stale, heading, how) == text   # what is, once
