"""Play drawn by the page, the kernel's side of the channel: what it sends, how the frame
slider follows, where Pause leaves the figure, and what it refuses from a page."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from motion_check import Page, as_in_a_kernel

from lessons_lib.apps import fastdraw
from lessons_lib.apps.core import app as core_app
from lessons_lib.apps.fastdraw import player as motion
from lessons_lib.apps.fastdraw import record
from lessons_lib.apps.interpolation import InterpolationApp

pytestmark = pytest.mark.skipif(not fastdraw.ENABLED, reason="LESSONS_FAST_DRAW=0")


@pytest.fixture
def app(monkeypatch):
    """Lesson 2's app as in a kernel, with no event loop running."""
    as_in_a_kernel(monkeypatch)
    return InterpolationApp()


def test_play_in_the_page(app):
    page = Page(app)
    page.says({"type": "ready"})
    start = app.play.value
    draws = app.draw_count
    app.play_button.value = True
    kinds = page.kinds()
    assert kinds[0] == "begin" and kinds[-1] == "play" and "frames" in kinds
    begin, play = page.last("begin"), page.last("play")
    frames = begin["frames"]
    assert frames == len(app.motion_values()) == app.play.max * app.motion_substeps + 1
    assert play["frame"] == start * app.motion_substeps
    assert play["interval_ms"] * play["substeps"] == app.frame.interval_ms
    png = page.sent[0][1][0]
    assert png.startswith(b"\x89PNG")
    # every frame sent once, each run within the bounds, as a packed animation
    covered = []
    for content, (blob,) in ((c, b) for c, b in page.sent if c["type"] == "frames"):
        import zlib

        raw = zlib.decompress(blob)
        head = record.HEADER.unpack_from(raw)
        assert head[0] == record.MAGIC and head[1] >= 1
        covered += range(content["first"], content["first"] + head[1])
        json.dumps(content)                      # the rest is plain JSON
    assert sorted(covered) == list(range(frames))
    assert app.draw_count == draws               # nothing drawn on the page's figure

    # the slider follows what the page shows, without a draw
    renders = app.painter.full_draws + app.painter.fast_draws + app.painter.partial_draws
    sub = app.motion_substeps
    page.says({"type": "shown", "token": play["token"], "frame": 40 * sub + 1})
    assert app.play.value == 40 and app.t.value == pytest.approx(0.40)
    assert app.draw_count == draws
    # ... and the panels beside it say what they say of that frame
    said = app.panel(app.state, 0.40)
    assert said != app.panel(app.state, app.frame.at(start))
    assert all(app.panel_widget(name).value == text for name, text in said.items())
    assert app.painter.full_draws + app.painter.fast_draws + app.painter.partial_draws == renders

    # Pause: the page says where it stopped; the kernel's figure shows that frame
    app.play_button.value = False
    assert page.kinds()[-1] == "stop"
    page.says({"type": "stopped", "token": play["token"], "frame": 45 * sub})
    assert app.t.value == pytest.approx(0.45) and app.draw_count == draws + 1
    assert app.current and page.kinds()[-1] == "hide"
    assert app.play_button.description == "Play"

    # a second Play sends no frames again
    before = len(page.sent)
    app.play_button.value = True
    assert page.kinds()[before:] == ["play"]
    page.says({"type": "ended", "token": play["token"], "frame": frames - 1})
    assert app.t.value == pytest.approx(1.0) and page.kinds()[-1] == "hide"


def test_a_control_change_ends_play_in_the_page(app):
    page = Page(app)
    page.says({"type": "ready"})
    app.play_button.value = True
    token = page.last("play")["token"]
    app.yaw1.value = app.yaw1.value - 10
    assert page.kinds()[-1] == "hide" and app.play_button.value is False
    # what the page says of the old animation now changes nothing
    t = app.t.value
    page.says({"type": "shown", "token": token, "frame": 3})
    assert app.t.value == t
    # the next Play records the new state's frames
    app.play_button.value = True
    assert page.last("begin")["token"] == token + 1


def test_a_redraw_for_anything_else_ends_play_in_the_page(app):
    page = Page(app)
    page.says({"type": "ready"})
    app.play_button.value = True
    app.redraw()                       # as a new size from the page does
    assert page.kinds()[-1] == "hide" and app.play_button.value is False


def test_scrub_while_the_page_plays(app):
    page = Page(app)
    page.says({"type": "ready"})
    app.play_button.value = True
    draws = app.draw_count
    app.t.value = 0.7
    assert page.last("seek")["frame"] == 70 * app.motion_substeps
    assert app.draw_count == draws and app.play_button.value is True


def test_without_a_ready_page_play_stays_in_the_kernel(app, monkeypatch):
    page = Page(app)
    started = []
    monkeypatch.setattr(type(app), "animate", lambda self, *a, **k: started.append(k))
    app.play_button.value = True
    assert page.sent == [] and len(started) == 1


def test_plain_path_has_no_player(monkeypatch):
    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    monkeypatch.setattr(fastdraw, "ENABLED", False)
    assert InterpolationApp().motion_player is None
    monkeypatch.setattr(fastdraw, "ENABLED", True)
    monkeypatch.setattr(core_app, "in_kernel", lambda: False)
    assert InterpolationApp().motion_player is None      # no kernel: no page to play in
    monkeypatch.setattr(core_app, "in_kernel", lambda: True)
    assert InterpolationApp(compact=True).motion_player is None


BAD = [
    "ready", None, [], {"type": "play", "frame": 1}, {"type": "shown"},
    {"type": "shown", "token": 1}, {"type": "shown", "token": 1, "frame": -1},
    {"type": "shown", "token": 1, "frame": 10**9}, {"type": "shown", "token": 1, "frame": 2.0},
    {"type": "shown", "token": 1, "frame": True}, {"type": "shown", "token": 2, "frame": 1},
    {"type": "stopped", "token": "1", "frame": 1}, {"type": "eval", "token": 1, "frame": 1},
]


@pytest.mark.parametrize("content", BAD, ids=[repr(b)[:40] for b in BAD])
def test_page_messages_refused(content):
    with pytest.raises(ValueError):
        motion.check_page_message(content, [], 10, 1)


def test_page_messages_accepted():
    assert motion.check_page_message({"type": "ready"}, [], 0, 0) == ("ready", None)
    assert motion.check_page_message({"type": "shown", "token": 3, "frame": 9}, [], 10, 3) \
        == ("shown", 9)
    with pytest.raises(ValueError, match="binary"):
        motion.check_page_message({"type": "ready"}, [b"x"], 10, 3)


@settings(max_examples=200, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(content=st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2**40) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["type", "token", "frame", "x"]) | st.text(max_size=5), inner,
        max_size=4), max_leaves=8),
    frames=st.integers(0, 30), token=st.integers(0, 5))
def test_page_message_fuzz(content, frames, token):
    """Anything a page sends: a known kind with a frame within the animation, or a
    ValueError."""
    try:
        kind, frame = motion.check_page_message(content, [], frames, token)
    except ValueError:
        return
    assert kind in motion.PAGE_MESSAGES
    assert frame is None or (isinstance(frame, int) and 0 <= frame < frames)


def test_rate_gate():
    gate = motion.RateGate(rate=10.0, burst=5)
    assert sum(gate.allow(0.0) for _ in range(50)) == 5
    assert sum(gate.allow(1.0) for _ in range(50)) == 5     # ten came back, five fit
    assert gate.allow(1.05) is False and gate.allow(1.2) is True


def test_a_flood_from_the_page_is_dropped(app):
    page = Page(app)
    page.says({"type": "ready"})
    app.play_button.value = True
    token = page.last("play")["token"]
    heard = []
    page.player.listener = lambda kind, frame: heard.append(frame)
    for k in range(200):
        page.says({"type": "shown", "token": token, "frame": k % 50})
    assert len(heard) <= motion.PAGE_BURST + 2 and page.player.refused >= 180


def test_the_page_cannot_set_the_players_traits(app):
    """The player is behind the widget guard: an update of its code from the page is
    refused."""
    player = app.motion_player
    esm = player._esm
    player.comm.handle_msg({"content": {"data": {"method": "update",
                                                 "state": {"_esm": "alert(1)"}}}})
    assert player._esm == esm and app.last_error is not None


def test_the_kernel_never_records_past_the_bound(app, monkeypatch):
    """A frame range longer than the animation bound keeps Play in the kernel."""
    page = Page(app)
    page.says({"type": "ready"})
    monkeypatch.setattr(record, "LIMITS", record.Limits(frames=50))
    started = []
    monkeypatch.setattr(type(app), "animate", lambda self, *a, **k: started.append(k))
    app.play_button.value = True
    assert "play" not in page.kinds() and len(started) == 1
    with pytest.raises(ValueError):
        app.record_motion(np.linspace(0, 1, 51).tolist())
