"""The learner's working copy of the lessons, for self-study in JupyterLab (`make lab`).

JupyterLab saves what a learner does (outputs, edited cells, half-finished attempts) into the
notebook it has open. Opened on notebooks/, that wrote into the repository's own lessons.
`make lab` opens a copy instead, in a git-ignored folder (``my-lessons/`` by default):

    python tools/workcopy.py [WORK]                     copy each lesson not yet in WORK
    python tools/workcopy.py [WORK] --afresh LESSON     start LESSON again from the shipped
                                                        one (the old copy is kept beside it)

A lesson already in WORK is never overwritten by the first form: the learner's work stays.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
#: The suffix of the copy kept when a lesson is started afresh.
KEPT = "-before-afresh"


#: The Korean notebooks' folder, copied as ``WORK/ko/``: a kernel started there is Korean
#: (lessons_lib/i18n.py), as in notebooks/ko/.
KOREAN = "ko"


def shipped() -> dict[str, Path]:
    """Lesson name (the path under notebooks/ without .ipynb: ``01_gimbal_lock``, and
    ``ko/01_gimbal_lock`` for the Korean one) -> the shipped notebook."""
    paths = sorted(NOTEBOOKS.glob("*.ipynb")) + sorted((NOTEBOOKS / KOREAN).glob("*.ipynb"))
    return {p.relative_to(NOTEBOOKS).with_suffix("").as_posix(): p for p in paths}


def make_copy(work: Path) -> list[str]:
    """Copy into ``work`` every shipped notebook it does not have yet; the names copied."""
    copied = []
    for name, src in shipped().items():
        mine = work / f"{name}.ipynb"
        if not mine.exists():
            mine.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, mine)
            copied.append(name)
    return copied


def afresh(work: Path, lesson: str) -> Path | None:
    """Put the shipped ``lesson`` in ``work`` again; the learner's copy, if any, is moved to
    ``<lesson>-before-afresh.ipynb`` (replacing an older one) and its path returned."""
    lessons = shipped()
    name = lesson.removesuffix(".ipynb")
    if name not in lessons:
        raise ValueError(f"no lesson {lesson!r}: choose one of {', '.join(lessons)}")
    mine, kept = work / f"{name}.ipynb", work / f"{name}{KEPT}.ipynb"
    mine.parent.mkdir(parents=True, exist_ok=True)
    moved = None
    if mine.exists():
        mine.replace(kept)
        moved = kept
    shutil.copyfile(lessons[name], mine)
    return moved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work", nargs="?", default="my-lessons", type=Path,
                        help="the working copy's folder (default my-lessons)")
    parser.add_argument("--afresh", metavar="LESSON",
                        help="start this lesson again, e.g. 03_spline_steering")
    args = parser.parse_args(argv)
    try:
        if args.afresh:
            moved = afresh(args.work, args.afresh)
            kept = f"; your old copy is {moved}" if moved else ""
            print(f"{args.work}/{args.afresh.removesuffix('.ipynb')}.ipynb starts afresh{kept}")
        else:
            copied = make_copy(args.work)
            print(f"Lessons in {args.work}/" + (f" (new: {', '.join(copied)})" if copied else ""))
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
