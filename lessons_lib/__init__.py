"""Helpers behind the game-maths lessons.

The maths modules (every top-level module here but :mod:`.catalogue`, the list of lessons,
and :mod:`.hooks`, the list of private hooks) import only numpy, scipy, quaternion and
shapely; ``tests/test_layering.py`` finds them and checks it. Everything interactive lives
in :mod:`lessons_lib.apps`, the only place that imports matplotlib and ipywidgets.
"""

import sys

__version__ = "0.1.0"


def _import_quaternion_without_scipy() -> None:
    """Import numpy-quaternion without the ``scipy.interpolate`` it loads for its calculus
    helpers (``quaternion.derivative``, ``quaternion.spline``...), which no lesson uses: in
    a lesson's kernel that import is 0.4 CPU-seconds and 40 MB, paid once per student.
    Those helpers then use numpy-quaternion's own finite differences (``fd_derivative``;
    listed in :mod:`.hooks`). Where scipy.interpolate
    or quaternion is already loaded (lesson 3's splines, tests) nothing changes."""
    if "quaternion" in sys.modules or "scipy.interpolate" in sys.modules:
        return
    sys.modules["scipy.interpolate"] = None  # makes its `from scipy.interpolate import` fail
    try:
        import quaternion  # noqa: F401
    finally:
        del sys.modules["scipy.interpolate"]


_import_quaternion_without_scipy()


def present(on: bool = True) -> None:
    """Presenter mode for every lesson app in this kernel (JupyterLab; a Voila page has a
    button, the P key and ``?present=1``): figures and controls with text of 20 px or more,
    figures as wide as their column, "More controls" hidden. ``present(False)`` goes back.
    (Imported here when called: the maths modules do not load the apps.)"""
    from .apps.core.layout import present as _present

    _present(on)
