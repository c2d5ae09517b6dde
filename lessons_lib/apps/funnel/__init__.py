"""Lesson 4's app package: string pulling on a grid and the funnel through a navmesh.

``model`` (pure maths: control values -> :class:`FunnelState` / :class:`GridState`),
``view`` (the artists), ``panel`` (the HTML beside them), ``app`` (:class:`FunnelApp`),
``grid_app`` (:class:`GridApp`) and ``figures`` (the lesson's static pictures).
"""

from .app import PRESETS, FunnelApp
from .grid_app import GridApp
from .model import (
    ARTICLE_GRID,
    ARTICLE_GRID_GOAL,
    ARTICLE_GRID_START,
    DEFAULT_GOAL,
    DEFAULT_START,
    FunnelState,
    GridState,
    compute_funnel,
    compute_grid,
    parse_grid,
)

__all__ = ["ARTICLE_GRID", "ARTICLE_GRID_GOAL", "ARTICLE_GRID_START", "DEFAULT_GOAL",
           "DEFAULT_START", "PRESETS", "FunnelApp", "FunnelState", "GridApp", "GridState",
           "compute_funnel", "compute_grid", "parse_grid"]
