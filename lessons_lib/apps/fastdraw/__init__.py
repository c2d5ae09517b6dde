"""The drawing fast path: one entry point between the lessons and the private corners of
matplotlib and ipympl it relies on.

The lessons work the same without it. ``LESSONS_FAST_DRAW=0`` in the environment turns it
off: figures then draw the way plain ipympl does (every draw a full render, ipympl's own
draw-request round trip and PNG encoding), :class:`StampedText` draws as a plain
``Text``, and matplotlib's text path is not replaced. CI runs the app and browser tests both
ways (``make test`` and ``make test-plain``).

What it does, and what each part was measured to save: ``docs/performance.md``. Every
private attribute of another library that it (or any other part of the project) touches is
listed, with the versions it was tested on, in :mod:`lessons_lib.hooks`.

Use from the apps:

- :func:`attach` ``(fig, dynamic)``: the figure's painter (made once; idempotent), which
  every draw goes through. ``painter.request()`` after moving artists; ``painter.hold()``
  around work that must not be shown half done; ``painter.frame_cost()``.
- :class:`StampedText`: a label pasted from its own pixels while its look is unchanged.
- :func:`choose_throttle_ms`: the page's pointer-move rate limit for a frame's cost.
- Play drawn by the page (issue 43): :mod:`.record` records what matplotlib draws for an
  app's moving artists as primitives (paths, text) and packs them; :mod:`.player` is the
  anywidget that draws them on a canvas over the figure. ``LessonApp`` uses both when an
  app names its :meth:`~lessons_lib.apps.core.app.LessonApp.motion_artists`; off with the
  rest of the fast path, or alone with ``player.PAGE_PLAY = False``.
"""

from __future__ import annotations

import os

#: False when ``LESSONS_FAST_DRAW=0``: every figure draws the way plain ipympl does.
ENABLED = os.environ.get("LESSONS_FAST_DRAW", "1").strip() != "0"

from .painter import Painter, choose_throttle_ms, encode_png  # noqa: E402
from .textcache import StampedText  # noqa: E402

__all__ = ["ENABLED", "Painter", "StampedText", "attach", "choose_throttle_ms", "encode_png"]


def attach(fig, dynamic=None) -> Painter:
    """The painter every draw of ``fig`` goes through (made on first call). ``dynamic``: the
    artists a frame moves (or a function returning them), drawn over a cached background;
    None keeps what an earlier call gave (or full draws when none did)."""
    if dynamic is None:
        return Painter.attach(fig)
    return Painter.attach(fig, dynamic)
