"""benchmarks/bench_apps.py moves every control of every app of the catalogue, so a new
lesson needs no benchmark of its own: its cases are checked here (nothing is timed)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_apps  # noqa: E402

from lessons_lib.catalogue import app_registry  # noqa: E402


def test_every_app_of_the_catalogue_is_benchmarked():
    assert set(bench_apps.apps()) == set(app_registry())


@pytest.mark.parametrize("name", sorted(app_registry()))
def test_each_control_is_moved_through_values_it_takes_and_each_move_draws(name):
    cls = bench_apps.apps()[name]
    moved = dict(bench_apps.moves(cls))
    declared = [*cls.controls, *([cls.frame] if cls.frame is not None else [])]
    assert {s.name for s in declared if len(bench_apps.values_of(s)) > 1} == set(moved)
    for control, values in moved.items():
        app = cls()
        assert len(set(map(repr, values))) == len(values) > 1, control
        widget = bench_apps.control_widget(app, control)
        values = bench_apps.values_now(app, control)
        assert len(values) > 1, f"{name}.{control}: fewer than two values it takes now"
        before = app.draw_count
        widget.value = next(v for v in values if v != widget.value)
        assert app.draw_count > before, f"{name}.{control}: the move drew nothing"
