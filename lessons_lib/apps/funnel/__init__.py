"""Lesson 4's app package: string pulling on a grid and the funnel through a navmesh.

``model`` (pure maths: control values -> :class:`FunnelState` / :class:`GridState`),
``view`` (the artists), ``panel`` (the HTML beside them), ``app`` (:class:`FunnelApp`),
``grid_app`` (:class:`GridApp`) and ``figures`` (the lesson's static pictures). Names are
imported on first use, so the model imports without widgets or matplotlib.
"""

from ..lazy import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".app": ("PRESETS", "FunnelApp"),
    ".grid_app": ("GridApp",),
    ".model": ("ARTICLE_GRID", "ARTICLE_GRID_GOAL", "ARTICLE_GRID_START", "DEFAULT_GOAL",
               "DEFAULT_START", "FunnelState", "GridState", "compute_funnel", "compute_grid",
               "parse_grid"),
})
