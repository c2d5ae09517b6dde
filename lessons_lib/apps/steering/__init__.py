"""Lesson 3's app package: a car following a spline with the article's three steering terms.

``model`` (pure: control values -> a frozen run), ``view`` (the artists), ``panel`` (HTML),
``figures`` (the notebook's static figures and its table), ``terms`` (:class:`TermApp`, the
small live figure of one term, car and target dragged), ``challenge`` (the tuning
exercise), ``exercises`` (the other questions, made here so that no answer is in the
notebook's code), ``app`` (:class:`SteeringApp`, the loop that ties them together). Names are
imported on first use, so the model imports without widgets or matplotlib.
"""

from ..lazy import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".app": ("SteeringApp",),
    ".challenge": ("TuningChallenge",),
    ".figures": ("run_figure", "slope_figure", "sweep_figure", "table", "worked_example"),
    ".terms": ("TermApp",),
})
