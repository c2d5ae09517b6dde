"""Keep the Korean notebooks' code cells equal to the English ones.

notebooks/ko/X.ipynb holds the Korean prose of notebooks/X.ipynb and the same code cells, in
the same order. The English notebook is the one place code is edited; this tool copies every
code cell's source into the Korean notebook, keeping its markdown (and its cells' ids).

    .venv/bin/python tools/sync_ko.py            # copy the code cells into notebooks/ko/
    .venv/bin/python tools/sync_ko.py --check    # exit 1 and name the notebooks that differ

A Korean notebook with a different number of code cells cannot be synced by position: the
tool says so and leaves it alone (add or remove the code cell in the Korean notebook, with
its prose, then run the tool).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
KOREAN = NOTEBOOKS / "ko"


def code_sources(nb) -> list[str]:
    """The source of every code cell of ``nb``, in order."""
    return [cell.source for cell in nb.cells if cell.cell_type == "code"]


def pairs(korean: Path = KOREAN) -> list[tuple[Path, Path]]:
    """(English, Korean) notebook paths, for every notebook in ``korean``."""
    return [(korean.parent / path.name, path) for path in sorted(korean.glob("*.ipynb"))]


def differences(english: Path, korean: Path) -> str:
    """'' when the code cells agree; else one line saying how they differ."""
    if not english.is_file():
        return f"{korean.name}: no English notebook {english.name} beside notebooks/ko"
    en = code_sources(nbformat.read(english, as_version=4))
    ko = code_sources(nbformat.read(korean, as_version=4))
    if len(en) != len(ko):
        return (f"{korean.name}: {len(ko)} code cells in Korean, {len(en)} in English: add or "
                "remove the Korean cell with its prose, then run tools/sync_ko.py")
    changed = [n for n, (a, b) in enumerate(zip(en, ko, strict=True)) if a != b]
    if changed:
        return (f"{korean.name}: code cell(s) {', '.join(str(n + 1) for n in changed)} differ "
                "from the English: run tools/sync_ko.py")
    return ""


def sync(english: Path, korean: Path) -> bool:
    """Copy the code cells of ``english`` into ``korean``; True when the file changed."""
    en = code_sources(nbformat.read(english, as_version=4))
    nb = nbformat.read(korean, as_version=4)
    cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    if len(cells) != len(en):
        raise SystemExit(differences(english, korean))
    changed = False
    for cell, source in zip(cells, en, strict=True):
        if cell.source != source:
            cell.source, changed = source, True
        if cell.outputs or cell.execution_count is not None:
            cell.outputs, cell.execution_count, changed = [], None, True
    if changed:
        nbformat.write(nb, korean)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when a Korean notebook's code differs")
    args = parser.parse_args(argv)
    found = pairs()
    if args.check:
        problems = [p for p in (differences(en, ko) for en, ko in found) if p]
        for line in problems:
            print(line, file=sys.stderr)
        return 1 if problems else 0
    for en, ko in found:
        print(f"{ko.relative_to(ROOT)}: {'synced' if sync(en, ko) else 'already equal'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
