"""Drags drawn by the page (issue 43).

While a student drags a thing on an app's figure (lesson 1's aircraft or its camera, the
car, knob or target of lesson 3's term figures, lesson 4's start or goal), every pointer
move still goes to the kernel, which works out what it does (the maths stays in
``lessons_lib``). What changes is the picture: instead of a whole
new figure rendered, encoded as a PNG and decoded by the page, the kernel records what the
drag moves (:meth:`LessonApp.drag_artists`) as primitives (:mod:`..fastdraw.record`) and
the app's page player (:mod:`..fastdraw.player`) draws them over a picture of the rest,
taken once when the drag starts. At the release the kernel draws the whole figure again and
the page's layer goes away.

A drag is drawn by the page only where it can be: a page player that said it is ready, an
app that names what its drags move, primitives the page can draw, a frame within
:data:`..fastdraw.record.LIMITS`. Anything else, or any failure on the way, and the drag is
drawn by the kernel as before (the fast path off draws every drag that way).

Each frame stands alone: the page keeps only the last, so a long drag holds no more memory
than one frame. The page says when it has drawn one ("drawn"); the kernel has at most
:data:`WINDOW` frames on their way at a time. A move that comes while they are is taken (the
app's state follows every move) but not drawn: the state then is, when the page answers
(or after :data:`ANSWER_WAIT`, for a page that does not). So a busy page or server makes a
drag skip frames instead of queueing them, and its end is never late behind old ones.
"""

from __future__ import annotations

import logging
import time
from contextlib import ExitStack

from .. import fastdraw

log = logging.getLogger("lessons_lib.apps")

#: Frames of a drag the page may have to draw before the kernel records another.
WINDOW = 2
#: Seconds after which a frame the page has not said it drew counts as drawn.
ANSWER_WAIT = 0.25
#: Seconds between two fillings of the app's panels while a drag is drawn by the page (their
#: numbers are read, not watched frame by frame; the release fills them as they end). The
#: page's own work on the panels (HTML, layout) held lesson 1's aircraft at 34 frames a
#: second where the orbit, which changes no panel, reached 54. The app's controls (lesson
#: 1's three angle sliders) are sent to the page with the panels, for the same reason.
PANEL_EVERY = 0.1


class LiveDrag:
    """The page-drawn drags of one app (see the module docstring). ``frames`` counts the
    frames the page drew in the current (or last) drag, ``drags`` the drags it drew."""

    def __init__(self, app) -> None:
        from ... import validate as check
        from .app import LessonApp

        self.app = check.instance(app, "app", LessonApp)
        self.artists: list | None = None
        self.frames = 0
        self.drags = 0
        self.waiting = 0                # frames sent the page has not said it drew
        self.sent_at = 0.0              # when the last was sent (monotonic seconds)
        self.skipped = False            # a move came while the page was drawing
        self.panels_at = 0.0            # when the app last filled its panels
        self._held: ExitStack | None = None     # the controls' sync to the page, held

    @property
    def active(self) -> bool:
        """True while a drag is drawn by the page."""
        return self.artists is not None

    def begin(self, item) -> bool:
        """A drag of ``item`` (what the app's press handler returned) starts: from now on
        each redraw of the app is recorded and drawn by the page, over the figure as it is
        without :meth:`LessonApp.drag_artists`. False (the kernel draws the drag) when the
        page cannot draw it."""
        app = self.app
        player = app.motion_player
        if self.active:
            self.end()
        if player is None or not player.ready or app.state is None:
            return False
        app.stop_motion()                   # one animation on the page at a time
        artists = app.drag_artists(item)
        if artists is None:
            return False
        moving = list(artists)              # each drawn once (Painter.drawing_order)
        try:
            background = app.painter.background_without(moving)
            player.begin(fastdraw.encode_png(background), 1)
        except ValueError as exc:
            log.info("a drag stays drawn by the kernel: %s", exc)
            return False
        app.forget_motion()
        app.painter.paused = True           # no figure from the kernel until the release
        self.artists = moving
        self.frames = self.waiting = 0
        self.skipped = False
        self.panels_at = 0.0                # the drag's first move fills them
        self.drags += 1
        self._hold_controls()
        return True

    def show(self) -> bool:
        """Draw the drag's artists, as the app has drawn them now, on the page; False
        (nothing sent: the caller draws the figure) when no drag is drawn by the page or
        this frame cannot be (the rest of the drag is then drawn by the kernel)."""
        if self.artists is None:
            return False
        app = self.app
        try:
            animation = app.record_drawn(self.artists)
            if animation.unsupported:
                raise ValueError(f"{animation.unsupported} primitives the page cannot draw")
            app.motion_player.live(animation)
        except ValueError as exc:
            log.info("the rest of a drag is drawn by the kernel: %s", exc)
            self.artists = None
            self._send_controls()
            app.painter.paused = False
            app.motion_player.hide()
            return False
        self.frames += 1
        self.waiting += 1
        self.sent_at = time.monotonic()
        return True

    def busy(self) -> bool:
        """True while a drag drawn by the page has :data:`WINDOW` frames on their way (for
        less than :data:`ANSWER_WAIT`): the caller draws nothing now, and the app is
        redrawn when the page says it drew one."""
        if self.artists is None or self.waiting < WINDOW:
            return False
        if time.monotonic() - self.sent_at >= ANSWER_WAIT:
            self.waiting = 0                # a page that does not answer: go on
            return False
        self.skipped = True
        return True

    def panels_due(self) -> bool:
        """Whether a redraw fills the app's panels now: always, but while a drag is drawn
        by the page, at most once every :data:`PANEL_EVERY` seconds. A filling put off is
        made when that time is up (:meth:`LessonApp.fill_panels_in`; where no loop runs, at
        the release), so the panels never stay behind a hand that stopped moving."""
        if self.artists is None:
            return True
        wait = PANEL_EVERY - (time.monotonic() - self.panels_at)
        if wait <= 0:
            return True
        self.app.fill_panels_in(wait)
        return False

    def panels_filled(self) -> None:
        """The app filled its panels (:meth:`LessonApp.fill_panels_now`): the controls
        the drag moved are sent to the page with them."""
        self.panels_at = time.monotonic()
        self._send_controls()
        if self.artists is not None:
            self._hold_controls()

    def _hold_controls(self) -> None:
        """Keep what the drag sets on the app's controls from the page until the panels
        are next filled (ipywidgets' ``hold_sync``: the latest value of each is sent then)."""
        if self._held is None:
            held = ExitStack()
            for w in self.app.control_widgets():
                held.enter_context(w.hold_sync())
            self._held = held

    def _send_controls(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            held.close()

    def drawn(self) -> None:
        """The page drew a frame of the drag: one fewer on its way; a move that came
        meanwhile is drawn now."""
        self.waiting = max(0, self.waiting - 1)
        if self.skipped and self.artists is not None:
            self.skipped = False
            self.app.redraw()

    def end(self) -> None:
        """The drag is over. Where the page's last frame is behind the hand (a move came
        while frames were on their way), the hand's end is recorded and drawn by the page at
        once. Then the kernel draws the whole figure, and the page's layer goes as that
        picture is painted (the "hide" goes first: the page takes it away at the figure's
        next picture)."""
        if self.artists is None:
            return
        app = self.app
        if self.skipped:
            self.skipped = False
            app.draw(app.state, app.frame_value)
            if not self.show():     # a frame the page cannot draw: the kernel's figure now
                app.redraw()
                return
        self.artists = None
        app.motion_player.hide()
        self._send_controls()
        app.painter.paused = False
        app.redraw()

    def cost(self) -> float | None:
        """CPU seconds a frame of a drag drawn by the page costs here (recording what
        :meth:`LessonApp.drag_artists` gives for any item, at the app's state), or None
        when the app's drags are drawn by the kernel."""
        app = self.app
        if app.motion_player is None or app.state is None:
            return None
        artists = app.drag_artists(None)
        if artists is None:
            return None
        start = time.thread_time()
        try:
            app.record_drawn(list(artists))
        except ValueError:
            return None
        return time.thread_time() - start
