"""Helpers behind the game-maths lessons.

The maths modules (rotations, interpolation, spline, steering, vehicle, pathsmooth, funnel)
import only numpy, scipy and quaternion. Everything interactive lives in
:mod:`lessons_lib.apps`, the only place that imports matplotlib widgets and ipywidgets.
"""

__version__ = "0.1.0"
