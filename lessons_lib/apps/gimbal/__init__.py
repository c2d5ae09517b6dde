"""Lesson 1's app package: gimbal rings, the lock, and the exercise answered with sliders.

``model`` (pure maths: slider values -> :class:`GimbalState`), ``view`` (the artists),
``panel`` (the HTML beside them), ``app`` (:class:`GimbalApp` on the shared loop) and
``exercises`` (:class:`ReachExercise` and the notebook's questions). Names are imported on
first use, so the model imports without widgets or matplotlib.
"""

from ..lazy import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".app": ("GimbalApp",),
    ".exercises": ("ReachExercise",),
    ".model": ("LOCK_FRAMES", "LOCK_INTERVAL_MS", "LOCK_TOL_DEG", "NEAR_LOCK_DEG", "NOSE",
               "REACH_TOL_DEG", "GimbalState", "Target", "compute_state", "reach_target"),
    ".view": ("ARROW", "RING_COLOURS", "RING_NAMES", "RING_RADII", "VIEWS"),
})
