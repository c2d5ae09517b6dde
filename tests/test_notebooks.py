"""Every notebook is stored without outputs and runs top to bottom in a fresh kernel."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: the English notebooks, then the Korean ones (notebooks/ko: same code, Korean prose)
ALL = sorted(NOTEBOOKS.glob("*.ipynb")) + sorted((NOTEBOOKS / "ko").glob("*.ipynb"))


def _name(path: Path) -> str:
    return str(path.relative_to(NOTEBOOKS))
CELL_TIMEOUT = 180  # seconds per cell: generous, the machines are shared and noisy


def test_there_are_notebooks():
    assert any(p.name == "index.ipynb" for p in ALL), "notebooks/index.ipynb is missing"


@pytest.mark.parametrize("path", ALL, ids=_name)
def test_stored_without_outputs(path):
    nb = json.loads(path.read_text())
    dirty = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
             and (c.get("outputs") or c.get("execution_count") is not None)]
    assert not dirty, (f"{path.name} has stored outputs in cells {dirty}: run "
                       f"`nbstripout {path}` (or install the git filter, see README)")


@pytest.mark.notebook
@pytest.mark.parametrize("path", ALL, ids=_name)
def test_runs_top_to_bottom(path):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError, naming the cell, when one fails
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{path.name}: {out.get('ename')}"
            if out.get("name") == "stderr":
                assert "Traceback" not in out.get("text", ""), out["text"][:500]


def _links(path):
    nb = json.loads(path.read_text())
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return re.findall(r"\]\(([^)#\s]+\.ipynb)\)", text)


@pytest.mark.parametrize("folder", [NOTEBOOKS, NOTEBOOKS / "ko"], ids=_name)
def test_index_links_every_lesson_and_only_existing_ones(folder):
    index = folder / "index.ipynb"
    links = _links(index)
    lessons = sorted(p.name for p in ALL if p.parent == folder and re.match(r"\d\d_", p.name))
    missing = [name for name in links if not (folder / name).resolve().exists()]
    assert not missing, f"index.ipynb links to notebooks that do not exist: {missing}"
    unlisted = [name for name in lessons if name not in links]
    assert not unlisted, f"index.ipynb does not link these lessons: {unlisted}"
