"""The page-side player of Play: an anywidget whose front end (``player.js``, in this folder)
lays a ``<canvas>`` exactly over an app's ipympl figure and draws recorded frames
(:mod:`.record`) over the figure's background at the display's rate.

The kernel sends custom messages: ``begin`` (a new animation: its frame count, and the
background, PNG bytes of the figure without its moving artists, as a binary buffer);
``frames`` (a run of packed frames, :meth:`.record.Animation.to_bytes` compressed with
zlib, with their string and font tables; the first run before Play starts, the others
while it plays; with ``show``, one frame of a drag, drawn at once:
:meth:`MotionPlayer.live`); ``play`` (from a frame, at an interval), ``seek``, ``stop``
(the page stops where it is and says which frame it shows) and ``hide`` (the kernel's own
figure shows that frame now).

The page may send only what :func:`check_page_message` accepts: ``ready`` (it found the
figure and can draw), ``shown`` (the frame it shows, a few times a second, for the frame
slider), ``stopped`` and ``ended`` (the frame it stopped on), ``drawn`` (a frame of a drag
is on the screen: the kernel records the next), each for the current animation, with a
frame within it, at most :data:`PAGE_RATE` a second (``drawn``: :data:`DRAWN_RATE`). The
page can set no trait: the widget guard refuses every update
(:func:`lessons_lib.apps.core.guard.allowed_keys` gives this widget none).
"""

from __future__ import annotations

import logging
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import anywidget
import traitlets

from ... import validate as check
from . import record
from .record import Animation

log = logging.getLogger("lessons_lib.apps")

ESM = (Path(__file__).with_name("player.js")).read_text(encoding="utf-8")

#: False: every app's Play stays in the kernel, as before the page could draw it (for an
#: A/B of the two, ``benchmarks/bench_motion.py``).
PAGE_PLAY = True
#: zlib level of the packed frames sent to the page (colours, widths and codes repeat from
#: primitive to primitive: lesson 2's 101 frames went from 2.9 MB to 0.23 MB at level 1).
ANIMATION_COMPRESS_LEVEL = 1
#: The messages a page may send on this channel, and whether each names a frame.
PAGE_MESSAGES = {"ready": False, "shown": True, "stopped": True, "ended": True,
                 "drawn": True}
#: How many messages a second the page may send (and in a burst): more are dropped.
PAGE_RATE = 20.0
PAGE_BURST = 10
#: The same for "drawn" (a frame of a drag is on the screen): one a display frame, and
#: each is only a count (``core.livedrag``).
DRAWN_RATE = 120.0
#: How many milliseconds a frame of the page's player may last, at least and at most.
INTERVAL_RANGE_MS = (4.0, 2000.0)


class RateGate:
    """A token bucket: at most ``rate`` events a second on average, ``burst`` at once."""

    def __init__(self, rate: float = PAGE_RATE, burst: int = PAGE_BURST) -> None:
        self.rate = check.real(rate, "rate", lo=0.1, hi=1000.0)
        self.burst = check.integer(burst, "burst", lo=1, hi=1000)
        self._tokens = float(self.burst)
        self._at: float | None = None

    def allow(self, now: float) -> bool:
        """True when an event at ``now`` (seconds, a monotonic clock) is within the rate."""
        now = check.real(now, "now", unit="s")
        if self._at is not None:
            self._tokens = min(float(self.burst),
                               self._tokens + max(0.0, now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


def check_page_message(content, buffers, frames: int, token: int) -> tuple[str, int | None]:
    """``(kind, frame)`` of a message from the page's player, or a ValueError saying what
    is wrong: a dict with a known ``type``; for the current animation (``token``); a frame
    (a whole number from 0 to ``frames`` - 1) where the type names one; no binary data."""
    frames = check.integer(frames, "frames", lo=0)
    token = check.integer(token, "token", lo=0)
    if buffers:
        raise ValueError("the player takes no binary data from the page")
    if not isinstance(content, dict):
        raise ValueError(f"a player message is a dict, not {check.describe(content)}")
    kind = content.get("type")
    if not isinstance(kind, str) or kind not in PAGE_MESSAGES:
        raise ValueError(f"unknown player message type {check.describe(kind)}")
    if not PAGE_MESSAGES[kind]:
        return kind, None
    got = content.get("token")
    if isinstance(got, bool) or not isinstance(got, int) or got != token:
        raise ValueError("a player message for another animation")
    frame = content.get("frame")
    if isinstance(frame, bool) or not isinstance(frame, int) or not 0 <= frame < frames:
        raise ValueError(f"a player's frame is a whole number from 0 to {frames - 1}, not "
                         f"{check.describe(frame)}")
    return kind, frame


class MotionPlayer(anywidget.AnyWidget):
    """Hidden; one per app that plays in the page, inside the app's root box (its front end
    finds the figure by ``.lesson-app``). ``listener(kind, frame)`` hears each accepted
    message; ``ready`` turns True once a page has said it can draw, and ``views`` counts
    the pages that did (a new one holds no frames yet)."""

    _esm = traitlets.Unicode(ESM).tag(sync=True)

    def __init__(self, listener: Callable[[str, int | None], None] | None = None) -> None:
        super().__init__()
        if listener is not None and not callable(listener):
            raise ValueError(f"listener must be a function or None, not "
                             f"{check.describe(listener)}")
        self.listener = listener
        self.ready = False
        self.views = 0
        self.token = 0
        self.frame_count = 0
        self.refused = 0
        self.sent_bytes = 0
        self.live_bytes = 0
        self._gate = RateGate()
        self._drawn_gate = RateGate(DRAWN_RATE)
        self.layout.height = "0px"
        self.layout.overflow = "hidden"
        self.on_msg(self._on_page)

    def begin(self, background_png: bytes, frame_count: int) -> int:
        """Start a new animation of ``frame_count`` frames over ``background_png`` (PNG
        bytes of the figure without its moving artists); its token."""
        if not isinstance(background_png, bytes) or not background_png.startswith(b"\x89PNG"):
            raise ValueError("the background is PNG bytes")
        frame_count = check.integer(frame_count, "frame_count", lo=1, hi=record.LIMITS.frames)
        self.token += 1
        self.frame_count = frame_count
        self.sent_bytes = len(background_png)
        self.send({"type": "begin", "token": self.token, "frames": frame_count},
                  buffers=[background_png])
        return self.token

    def send_frames(self, first: int, animation: Animation) -> None:
        """Send ``animation``'s frames as frames ``first`` onwards of the current one
        (within its frame count and, with all sent before, :data:`.record.LIMITS`)."""
        check.instance(animation, "animation", Animation)
        first = check.integer(first, "first", lo=0,
                              hi=max(0, self.frame_count - animation.frame_count))
        packed = zlib.compress(animation.to_bytes(), ANIMATION_COMPRESS_LEVEL)
        most = record.LIMITS.animation_bytes
        if self.sent_bytes + animation.nbytes > most:
            raise ValueError(f"an animation may take at most {most} bytes")
        self.sent_bytes += animation.nbytes
        self.send({"type": "frames", "token": self.token, "first": first,
                   "strings": list(animation.strings), "fonts": list(animation.fonts)},
                  buffers=[packed])

    def live(self, animation: Animation) -> None:
        """Draw ``animation``, one frame, at once, in place of the one shown: a frame of a
        drag drawn by the page (``core.livedrag``), for an animation begun with one frame.
        Each is bounded alone (:data:`.record.LIMITS`): the page keeps only the last."""
        check.instance(animation, "animation", Animation)
        if self.frame_count != 1 or animation.frame_count != 1:
            raise ValueError("a frame of a drag is one frame, in an animation of one")
        most = record.LIMITS.animation_bytes
        if animation.nbytes > most:
            raise ValueError(f"a frame may take at most {most} bytes")
        packed = zlib.compress(animation.to_bytes(), ANIMATION_COMPRESS_LEVEL)
        self.live_bytes += len(packed)
        self.send({"type": "frames", "token": self.token, "first": 0, "show": True,
                   "strings": list(animation.strings), "fonts": list(animation.fonts)},
                  buffers=[packed])

    def play(self, frame: int, interval_ms: float, substeps: int = 1) -> None:
        """Play from ``frame``, one frame every ``interval_ms`` on the page's clock;
        ``substeps`` frames make a step of the frame control (a stop lands on a step)."""
        frame = check.integer(frame, "frame", lo=0, hi=max(0, self.frame_count - 1))
        interval_ms = check.real(interval_ms, "interval_ms", lo=INTERVAL_RANGE_MS[0],
                                 hi=INTERVAL_RANGE_MS[1], unit="ms")
        substeps = check.integer(substeps, "substeps", lo=1, hi=8)
        self.send({"type": "play", "token": self.token, "frame": frame,
                   "interval_ms": interval_ms, "substeps": substeps})

    def seek(self, frame: int) -> None:
        """Go on playing from ``frame``."""
        frame = check.integer(frame, "frame", lo=0, hi=max(0, self.frame_count - 1))
        self.send({"type": "seek", "token": self.token, "frame": frame})

    def stop(self) -> None:
        """Stop where the page is; it answers ``stopped`` with that frame, and keeps it
        drawn until :meth:`hide`."""
        self.send({"type": "stop", "token": self.token})

    def hide(self) -> None:
        """Take the overlay away (the kernel's figure shows the frame now)."""
        self.send({"type": "hide", "token": self.token})

    def _on_page(self, _widget, content, buffers) -> None:
        try:
            kind = content.get("type") if isinstance(content, dict) else None
            gate = self._drawn_gate if kind == "drawn" else self._gate
            if not gate.allow(time.monotonic()):
                raise ValueError("the page sends player messages too fast")
            kind, frame = check_page_message(content, buffers, self.frame_count, self.token)
        except ValueError as exc:
            self.refused += 1
            log.info("player refused a message: %s", exc)
            return
        if kind == "ready":
            self.ready = True
            self.views += 1
        if self.listener is not None:
            self.listener(kind, frame)
