"""The shared app loop and everything every lesson app uses.

See :mod:`.app` for the loop (controls -> params -> compute -> state -> draw/panel),
:mod:`.controls` for the control specs, :mod:`.guard` for what the page may set,
:mod:`.figure` for figures and drags, :mod:`.theme` for colours and sizes, :mod:`.gif` for
slides, :mod:`.exercise` for questions, :mod:`.text` for printed numbers, and
``docs/adding-a-lesson.md`` for how a new app is put together. Each name is imported on
first use (:mod:`..lazy`): :mod:`.text` and :mod:`.controls`' specs do not need the widgets
loaded before a lesson's model can use them.
"""

from ..lazy import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".app": ("LessonApp", "side_by_side"),
    ".controls": ("Choice", "Frame", "Params", "Preset", "Slider", "Toggle"),
    ".exercise": ("ChoiceQuestion", "NumberQuestion", "check_function", "in_voila",
                  "parse_number"),
    ".figure": ("DragHandler", "bare_axes", "figure_size", "make_figure", "rc_context",
                "use_ipympl"),
    ".guard": ("guard_widget",),
    ".layout": ("iter_widgets", "quiet_tooltips"),
    ".text": ("fmt_number",),
    ".theme": ("FONT_SIZE", "GREYS", "LABEL_SIZE", "LINE", "MARKER", "MIN_FONT_SIZE",
               "PALETTE", "REDS", "TINTS", "TITLE_SIZE"),
})
