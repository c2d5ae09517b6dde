"""The lessons as the tests see them, every list derived from ``catalogue.LESSONS``.

A test that needs "every lesson", "a lesson" or a lesson's notebook takes it from here, never
by writing its name: a new lesson added to the catalogue is then checked by every shared test
(tests/test_hand_lists.py fails on a lesson's name written by hand outside its own files).
"""

from __future__ import annotations

import functools
from pathlib import Path

from lessons_lib.catalogue import LESSONS, Lesson, lesson
from lessons_lib.i18n import KOREAN_FOLDER

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SLUGS: tuple[str, ...] = tuple(item.slug for item in LESSONS)
NOTEBOOK_NAMES: tuple[str, ...] = tuple(item.notebook for item in LESSONS)
#: The lesson a test uses when any lesson will do (the first: the lightest to open).
FIRST: Lesson = LESSONS[0]
#: The lessons that have a Korean notebook (notebooks/ko/<the English notebook's name>), and
#: those notebooks' paths under notebooks/, with the Korean index: the Korean pages to check.
KOREAN: tuple[Lesson, ...] = tuple(item for item in LESSONS
                                   if (NOTEBOOKS / KOREAN_FOLDER / item.notebook).is_file())
KOREAN_NOTEBOOKS: tuple[str, ...] = tuple(f"{KOREAN_FOLDER}/{item.notebook}" for item in KOREAN)
KOREAN_INDEX = f"{KOREAN_FOLDER}/index.ipynb"
#: The Korean lessons' slugs as a page of notebooks/ names them (``ko/<slug>``).
KOREAN_SLUGS: tuple[str, ...] = tuple(f"{KOREAN_FOLDER}/{item.slug}" for item in KOREAN)

__all__ = ["FIRST", "KOREAN", "KOREAN_INDEX", "KOREAN_NOTEBOOKS", "KOREAN_SLUGS", "LESSONS",
           "NOTEBOOKS", "NOTEBOOK_NAMES", "SLUGS", "app_views", "english_of", "korean_notebook",
           "language_of", "lesson", "own_key"]


def korean_notebook(key: str) -> str:
    """The Korean notebook (``ko/...``) of the lesson whose own files carry ``key`` (see
    :func:`own_key`): the page a lesson's Korean browser walk opens."""
    return next(path for item, path in zip(KOREAN, KOREAN_NOTEBOOKS, strict=True)
                if own_key(item) == key)


def english_of(notebook: str) -> str:
    """The English notebook a path under notebooks/ is in step with (``ko/X`` -> ``X``)."""
    return Path(notebook).name


def language_of(notebook: str) -> str:
    """"ko" for a notebook in the Korean folder, else "en" (as lessons_lib.i18n decides)."""
    return "ko" if Path(notebook).parent.name == KOREAN_FOLDER else "en"


def own_key(item: Lesson) -> str:
    """The word a lesson's own files carry in their names: its first app's module
    (``lessons_lib.apps.gimbal`` -> ``gimbal``, so tests/test_browser_gimbal.py is lesson 1's)."""
    return item.apps[0][1].rsplit(".", 1)[-1]


# Run in the lesson's kernel after its last cell: how many views of an app (a widget with the
# 'lesson-app' class) each displayed output holds, looking inside boxes and Output widgets.
_COUNT_VIEWS = """
import ipywidgets as _w
def _views(model_id, seen=()):
    widget = _w.Widget.widgets.get(model_id) if hasattr(_w.Widget, 'widgets') else \\
        _w.widgets.widget._instances.get(model_id)
    if widget is None or model_id in seen:
        return 0
    seen = seen + (model_id,)
    count = int('lesson-app' in getattr(widget, '_dom_classes', ()))
    for child in getattr(widget, 'children', ()) or ():
        count += _views(child.model_id, seen)
    for out in getattr(widget, 'outputs', ()) or ():
        view = out.get('data', {}).get('application/vnd.jupyter.widget-view+json')
        if view:
            count += _views(view['model_id'], seen)
    return count
print(sum(_views(m) for m in IDS))
"""


@functools.cache
def app_views(notebook: str) -> int:
    """How many app views (``.lesson-app`` elements on the page) ``notebook`` shows, counted
    by running it in a fresh kernel: the number a browser test waits for."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOKS / notebook, as_version=4)
    client = NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str((NOTEBOOKS / notebook).parent)}})
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        ids = [out["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
               for cell in nb.cells for out in cell.get("outputs", [])
               if "application/vnd.jupyter.widget-view+json" in out.get("data", {})]
        probe = nbformat.v4.new_code_cell(_COUNT_VIEWS.replace("IDS", repr(ids)))
        nb.cells.append(probe)
        client.execute_cell(probe, len(nb.cells) - 1)
    text = "".join(out.get("text", "") for out in probe.outputs if out.get("name") == "stdout")
    return int(text.split()[-1])
