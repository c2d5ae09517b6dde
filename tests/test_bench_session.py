"""benchmarks/scripted_session.py's pure parts: which controls a student presses, the drag it
sends, and the page's answers to the kernel's player (nothing is timed)."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import protocol_student as ps  # noqa: E402
import scripted_session as ss  # noqa: E402

from lessons_lib.apps.fastdraw.player import ESM  # noqa: E402
from lessons_lib.catalogue import LESSONS  # noqa: E402


def _model(name, **state):
    return {"model_name": name, "state": state}


def _output(model_id):
    data = {"data": {ps.VIEW: {"model_id": model_id}}, "output_type": "display_data"}
    return f'<script type="application/vnd.voila.cell-output+json">{json.dumps(data)}</script>'


def _states(player=True):
    return {
        "other": _model("VBoxModel", children=["IPY_MODEL_stray"]),
        "stray": _model("ButtonModel", icon=ss.LOCK_ICON),
        "app": _model("VBoxModel", children=["IPY_MODEL_fig", "IPY_MODEL_lock",
                                             "IPY_MODEL_reset", "IPY_MODEL_probe",
                                             "IPY_MODEL_player"]),
        "fig": _model(ps.CANVAS),
        "lock": _model("ButtonModel", icon=ss.LOCK_ICON),
        "reset": _model("ButtonModel", icon=ss.RESET_ICON),
        "probe": _model(ss.PLAYER, _esm="export default {size}"),   # another anywidget
        "player": _model(ss.PLAYER, **({"_esm": "export default {}"} if player else {})),
    }


def test_the_controls_are_those_of_the_canvas_app():
    html = _output("other") + _output("app")
    esm = "export default {}"
    assert ss.find_controls(html, _states(), "fig", esm) == {
        "lock": "lock", "reset": "reset", "player": "player"}
    with pytest.raises(ps.StudentError, match="no player"):
        ss.find_controls(html, _states(player=False), "fig", esm)
    with pytest.raises(ps.StudentError, match="no lock, reset, player"):
        ss.find_controls(_output("other"), _states(), "fig", esm)


def test_lesson_ones_app_shows_what_the_session_presses(monkeypatch):
    from lessons_lib.apps.core import app as core_app

    monkeypatch.setattr(core_app, "in_kernel", lambda: True)    # as in a student's kernel
    name, module = LESSONS[0].apps[0]
    app = getattr(importlib.import_module(module), name)()
    icons = {b.icon for b in (app.lock_button, app.reset_button)}
    assert icons == {ss.LOCK_ICON, ss.RESET_ICON}
    state = app.motion_player.get_state()
    assert state["_model_name"] == ss.PLAYER and state["_esm"] == ESM


def test_a_drag_goes_out_from_the_aircraft_and_back_with_the_button_held():
    events = ss.drag_events(400, 300, moves=7)
    assert [e["type"] for e in events] == ["button_press", *["motion_notify"] * 7,
                                           "button_release"]
    assert [e["buttons"] for e in events] == [1] * 8 + [0]
    xs = [e["x"] for e in events]
    assert xs[0] == xs[-1] == pytest.approx(ss.DRAG_FROM[0] * 400)
    assert max(xs) == pytest.approx(ss.DRAG_TO[0] * 400)
    assert all(e["y"] == pytest.approx(ss.DRAG_FROM[1] * 300) for e in events)
    with pytest.raises(ValueError):
        ss.drag_events(0, 300)


class _Kernel:
    def __init__(self):
        self.sent = []

    def comm(self, comm_id, data):
        self.sent.append((comm_id, data["content"]))


def _session():
    session = ss.Session("page", ss.Room(1), 1.0)
    session.page = type("P", (), {"kernel": _Kernel(), "canvas": "fig"})()
    session.player = "player"
    return session


def test_the_page_answers_ended_with_the_last_frame_when_the_time_is_up():
    async def scenario():
        s = _session()
        s.player_says({"type": "begin", "token": 3, "frames": 5})
        s.player_says({"type": "play", "token": 3, "frame": 1, "interval_ms": 10})
        await asyncio.sleep(0.3)
        return s

    s = asyncio.run(scenario())
    said = [m for _, m in s.page.kernel.sent]
    assert said[-1] == {"type": "ended", "token": 3, "frame": 4}
    assert all(m["type"] == "shown" and 1 <= m["frame"] < 4 for m in said[:-1])
    assert s.page_plays == 1


def test_the_page_says_where_it_stopped_and_ignores_another_animations_play():
    async def scenario():
        s = _session()
        s.player_says({"type": "begin", "token": 2, "frames": 1000})
        s.player_says({"type": "play", "token": 1, "frame": 0, "interval_ms": 10})
        assert s._playing is None
        s.player_says({"type": "play", "token": 2, "frame": 0, "interval_ms": 1000})
        await asyncio.sleep(0.01)
        s.player_says({"type": "stop", "token": 2})
        await asyncio.sleep(0.01)
        return s

    s = asyncio.run(scenario())
    assert [m for _, m in s.page.kernel.sent] == [{"type": "stopped", "token": 2, "frame": 0}]


def test_cpu_goes_to_the_phase_begun_last_and_none_after_the_end():
    samples = [(0.0, 0.0), (1.0, 1.0), (2.0, 3.0), (3.0, 6.0), (4.0, 10.0), (5.0, 15.0)]
    marks = [(0.9, "sliders"), (2.2, "drag"), (3.9, "end")]
    phases = ss.by_phase(samples, marks)
    assert phases == {"sliders": 2.0, "lock": 0.0, "drag": 7.0, "reset": 0.0}


def test_pngs_count_against_the_page_only_while_it_draws_a_drag():
    s = _session()

    def png():
        data = {"method": "custom", "content": {"data": json.dumps({"type": "binary"})}}
        s.hear("iopub", {"msg_type": "comm_msg", "content": {"comm_id": "fig", "data": data}},
               [b"png"])

    def player(**content):
        data = {"method": "custom", "content": content}
        s.hear("iopub", {"msg_type": "comm_msg",
                         "content": {"comm_id": "player", "data": data}}, [])

    player(type="begin", token=1, frames=75)      # Lock it: the kernel may still draw
    png()
    player(type="hide", token=1)
    player(type="begin", token=2, frames=1)       # a drag drawn by the page
    player(type="frames", token=2, first=0, show=True)
    png()
    player(type="hide", token=2)
    png()
    assert (s.pngs, s.pngs_while_page_drew, s.live_frames) == (3, 1, 1)
    assert ss.cycle_s(0.05) > ss.cycle_s(0.025) > ss.DRAG_MOVES * 0.025
