"""The shared app loop and everything every lesson app uses.

See :mod:`.app` for the loop (controls -> params -> compute -> state -> draw/panel),
:mod:`.controls` for the control specs, :mod:`.guard` for what the page may set,
:mod:`.figure` for figures and drags, :mod:`.gif` for slides, :mod:`.exercise` for
questions, and ``docs/adding-a-lesson.md`` for how a new app is put together.
"""

from .app import LessonApp, iter_widgets, side_by_side
from .controls import Choice, Frame, Params, Preset, Slider, Toggle
from .exercise import (
                       ChoiceQuestion,
                       NumberQuestion,
                       check_function,
                       fmt_number,
                       in_voila,
                       parse_number,
)
from .figure import (
                       FONT_SIZE,
                       MIN_FONT_SIZE,
                       PALETTE,
                       DragHandler,
                       make_figure,
                       rc_context,
                       use_ipympl,
)
from .guard import guard_widget

__all__ = [
    "FONT_SIZE", "MIN_FONT_SIZE", "PALETTE", "Choice", "ChoiceQuestion", "DragHandler", "Frame",
    "LessonApp", "NumberQuestion", "Params", "Preset", "Slider", "Toggle", "check_function",
    "fmt_number", "guard_widget", "in_voila", "iter_widgets", "make_figure", "parse_number",
    "rc_context", "side_by_side", "use_ipympl",
]
