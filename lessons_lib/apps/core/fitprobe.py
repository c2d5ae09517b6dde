"""The page's size report as a widget of its own: a small anywidget whose front end
(``fitprobe.js``, in this folder) measures the app's column and the visible height, and
sets :attr:`FitProbe.value` to ``"width height present"``. The widget guard checks it like
a text box (a string of at most ``MAX_TEXT`` characters), then the layout parses it
(:func:`.layout.parse_fit`)."""

from __future__ import annotations

from pathlib import Path

import anywidget
import ipywidgets as widgets
import traitlets

ESM = (Path(__file__).with_name("fitprobe.js")).read_text(encoding="utf-8")


class FitProbe(anywidget.AnyWidget, widgets.ValueWidget):
    """Hidden; one per app, inside its root box (it finds the app by ``.lesson-app``)."""

    _esm = traitlets.Unicode(ESM).tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)
