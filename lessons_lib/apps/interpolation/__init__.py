"""Lesson 2's app package: one pair of orientations blended three ways (Euler lerp, nlerp,
slerp).

``model`` (pure maths: the angles -> :class:`BlendState`), ``view`` (the artists),
``panel`` (the HTML beside them), ``app`` (:class:`InterpolationApp` on the shared loop),
``planes`` (:class:`PlanesView`, the figure of the app's small copy, ``app.copy()``),
``figures`` (the lesson's static pictures) and ``exercises`` (the questions, made here so
that no answer is in the notebook's code). Names are imported on first use, so the
model imports without widgets or matplotlib.
"""

from ..lazy import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".app": ("OPENING_PRESET", "InterpolationApp"),
    ".planes": ("PlanesView",),
    ".model": ("LABELS", "METHODS", "NOSE", "SAMPLES", "UP", "BlendState", "compute",
               "describe", "preset_description"),
    ".view": ("COLOURS",),
})
