"""Lesson 3's app package: a car following a spline with the article's three steering terms.

``model`` (pure: control values -> a frozen run), ``view`` (the artists), ``panel`` (HTML),
``figures`` (the notebook's static figures and its table), ``challenge`` (the tuning
exercise), ``app`` (:class:`SteeringApp`, the loop that ties them together).
"""

from .app import SteeringApp
from .challenge import TuningChallenge
from .figures import run_figure, slope_figure, sweep_figure, table, term_figure, worked_example

__all__ = ["SteeringApp", "TuningChallenge", "run_figure", "slope_figure", "sweep_figure",
           "table", "term_figure", "worked_example"]
