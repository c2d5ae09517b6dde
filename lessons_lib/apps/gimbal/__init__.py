"""Lesson 1's app package: gimbal rings, the lock, and the exercise answered with sliders.

``model`` (pure maths: slider values -> :class:`GimbalState`), ``view`` (the artists),
``panel`` (the HTML beside them), ``app`` (:class:`GimbalApp` on the shared loop) and
``exercises`` (:class:`ReachExercise`).
"""

from .app import GimbalApp
from .exercises import ReachExercise
from .model import (
                    LOCK_FRAMES,
                    LOCK_INTERVAL_MS,
                    LOCK_TOL_DEG,
                    NEAR_LOCK_DEG,
                    NOSE,
                    REACH_TOL_DEG,
                    GimbalState,
                    Target,
                    compute_state,
                    reach_target,
)
from .view import ARROW, RING_COLOURS, RING_NAMES, RING_RADII, VIEWS

__all__ = ["ARROW", "LOCK_FRAMES", "LOCK_INTERVAL_MS", "LOCK_TOL_DEG", "NEAR_LOCK_DEG", "NOSE",
           "REACH_TOL_DEG", "RING_COLOURS", "RING_NAMES", "RING_RADII", "VIEWS", "GimbalApp",
           "GimbalState", "ReachExercise", "Target", "compute_state", "reach_target"]
