"""Every place where the project leans on another library's private parts, in one list.

A private attribute can change in any release. Each entry names the attribute, who uses it
and why; :data:`TESTED` gives the versions the list was checked on (the versions CI installs,
pinned in ``environment.yml``), and ``pyproject.toml`` bounds these libraries to that range.
``tests/test_hooks.py`` checks that every entry still exists in the installed versions and
that those versions fall within the bounds, so an upgrade that removes a hook fails a test
instead of a learner's page.

Where a hook disappears anyway, each user degrades rather than breaks: the text cache checks
itself and turns off (:func:`lessons_lib.apps.fastdraw.textcache.works`); the painter can be
switched off with ``LESSONS_FAST_DRAW=0``; the server plug-ins are only used by
``make classroom`` and ``voila.json``.

Plain data: importing it imports nothing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hook:
    library: str   #: the distribution (as pip names it)
    target: str    #: ``module:Class.attribute`` (an attribute of instances marked ``()``)
    user: str      #: the project module that relies on it
    why: str


#: The versions every hook below was tested on (CI's, and ``environment.yml``'s pins).
TESTED = {
    "matplotlib": "3.11",
    "ipympl": "0.10",
    "ipywidgets": "8.1",
    "voila": "0.5",
    "jupyter-server": "2.21",
    "tornado": "6.6",
    "ipykernel": "7.4",
    "traitlets": "5.16",
    "numpy-quaternion": "2024.0",
}

_TEXT = "lessons_lib.apps.fastdraw.textcache"
_PAINTER = "lessons_lib.apps.fastdraw.painter"
_SERVER = "lessons_server.classroom"

HOOKS: tuple[Hook, ...] = (
    # matplotlib: the text cache replays the Agg text path
    Hook("matplotlib", "matplotlib.ft2font:FT2Font._layout", _TEXT,
         "lay a line out once and keep it"),
    Hook("matplotlib", "matplotlib.ft2font:FT2Font._set_transform", _TEXT,
         "render a glyph at a sub-pixel offset"),
    Hook("matplotlib", "matplotlib.ft2font:FT2Font._render_glyph", _TEXT,
         "render one glyph's coverage bitmap"),
    Hook("matplotlib", "matplotlib.backends.backend_agg:RendererAgg._prepare_font", _TEXT,
         "the FT2Font and size Agg would use for a text"),
    Hook("matplotlib", "matplotlib.backends.backend_agg:RendererAgg()._renderer", _TEXT,
         "blend a cached glyph bitmap (draw_text_image)"),
    Hook("matplotlib", "matplotlib.text:Text()._x", _TEXT,
         "StampedText draws its stamp from a copy placed at the stamp's centre (also _y)"),
    Hook("matplotlib", "matplotlib.text:Text()._transform", _TEXT,
         "the copy is drawn in pixel coordinates"),
    Hook("matplotlib", "matplotlib.text:Text()._clipon", _TEXT,
         "the stamp is drawn unclipped; the clip applies when pasting"),
    Hook("matplotlib", "matplotlib.text:Text()._bbox_patch", _TEXT,
         "a label's box is copied with it"),
    Hook("matplotlib", "matplotlib.artist:Artist._set_gc_clip", _TEXT,
         "a stamp is pasted with the label's own clip"),
    # matplotlib: the painter decides what changed since the cached background
    Hook("matplotlib", "matplotlib.axes:Axes()._axis_map", _PAINTER,
         "an axes' axis objects, to see whether its ticks show"),
    Hook("matplotlib", "matplotlib.axes:Axes()._left_title", _PAINTER,
         "the side titles belong to an axes' cache key (also _right_title)"),
    Hook("matplotlib", "matplotlib.axes:Axes()._position", _PAINTER,
         "the axes' box without a layout pass"),
    Hook("matplotlib", "matplotlib.artist:Artist()._stale", _PAINTER,
         "read staleness without the setter's callbacks"),
    Hook("matplotlib", "matplotlib.transforms:Bbox._is_finite", _PAINTER,
         "skip boxes of artists with no extent"),
    # ipympl: the painter sends frames itself
    Hook("ipympl", "ipympl.backend_nbagg:Canvas._png_is_old", _PAINTER,
         "whether the buffer changed since the last frame was sent"),
    Hook("ipympl", "ipympl.backend_nbagg:Canvas._force_full", _PAINTER,
         "the frame sent is a full image, not a diff"),
    Hook("ipympl", "ipympl.backend_nbagg:Canvas()._last_buff", _PAINTER,
         "the buffer the next diff is taken against"),
    Hook("ipympl", "ipympl.backend_nbagg:Canvas.get_diff_image", _PAINTER,
         "replaced per canvas by the cheaper PNG encoder"),
    Hook("ipympl", "ipympl.backend_nbagg:Canvas.handle_event", _PAINTER,
         "replaced per canvas: one draw per page message"),
    Hook("ipympl", "ipympl.backend_nbagg:Canvas().syncing_data_url", _PAINTER,
         "False once a page shows the canvas"),
    # matplotlib: presenter mode draws a figure at another dpi
    Hook("matplotlib", "matplotlib.figure:Figure()._original_dpi", "lessons_lib.apps.core.layout",
         "the dpi before the screen's pixel ratio: presenter mode changes it, so that the "
         "page's pixel-ratio message keeps presenter mode's size"),
    # matplotlib: no pointer readout for a footer no lesson shows
    Hook("matplotlib", "matplotlib.backend_bases:NavigationToolbar2()._id_drag",
         "lessons_lib.apps.core.figure",
         "the toolbar's pointer-move handler, disconnected"),
    # ipywidgets: the widget channel's guard
    Hook("ipywidgets", "ipywidgets:Widget._handle_msg", "lessons_lib.apps.core.guard",
         "messages other than updates go to ipywidgets' own handler"),
    Hook("ipywidgets", "ipywidgets.widgets.widget_selection:_Selection",
         "lessons_lib.apps.core.guard", "selection widgets are checked by index"),
    Hook("ipywidgets", "ipywidgets:Widget._handle_control_comm_msg",
         "lessons_lib.apps.core.guard",
         "replaced: the page's request for every state, each state built once"),
    Hook("ipywidgets", "ipywidgets:Widget._control_comm", "lessons_lib.apps.core.guard",
         "the page's control comm, the answer's channel"),
    Hook("ipywidgets", "ipywidgets.widgets.widget:_instances", "lessons_lib.apps.core.guard",
         "every widget, whose states the answer carries"),
    Hook("ipywidgets", "ipywidgets.widgets.widget:_remove_buffers",
         "lessons_lib.apps.core.guard", "binary parts of the states sent as buffers"),
    *(Hook("ipywidgets", f"ipywidgets:Widget.{name}", "lessons_lib.apps.core.guard",
           "what model a state is for, as ipywidgets' answer names it")
      for name in ("_model_name", "_model_module", "_model_module_version")),
    # traitlets: a number control refuses NaN set from Python, as from the page
    Hook("traitlets", "traitlets:HasTraits()._trait_validators", "lessons_lib.apps.core.guard",
         "the widget's own validator (ipywidgets' clamp), called after the check"),
    Hook("traitlets", "traitlets:HasTraits._register_validator", "lessons_lib.apps.core.guard",
         "a per-widget validator for its value"),
    # matplotlib: the canvas channel's guard
    Hook("matplotlib", "matplotlib.cbook:CallbackRegistry().callbacks",
         "lessons_lib.apps.core.guard",
         "a pointer event goes through only when a lesson listens to it"),
    # ipykernel: a room kernel that reached its memory cap says so in the server's log
    Hook("ipykernel", "ipykernel.iostream:OutStream()._original_stdstream_copy",
         "lessons_server.memcap", "the server log's descriptor, kept apart from the page's"),
    # matplotlib, in a pooled kernel's warm-up
    Hook("matplotlib", "matplotlib._pylab_helpers:Gcf.get_all_fig_managers", _SERVER,
         "the figures a pre-heated kernel draws before its student arrives"),
    # voila: the room's kernel pool
    Hook("voila", "voila.voila_kernel_manager:voila_kernel_manager_factory",
         "lessons_server.room",
         "the pool class the room's manager subclasses (``<pool>`` below)"),
    Hook("voila", "voila.voila_kernel_manager:<pool>()._pools", _SERVER,
         "the pooled kernels per notebook: counted, and refilled after the room arrives"),
    Hook("voila", "voila.voila_kernel_manager:<pool>._initialize", _SERVER,
         "a pooled kernel's notebook run, followed by the warm-up"),
    # voila: a student's server behind a hub loads Voila's extension itself, then puts
    # the routes it added behind the login (Jupyter Server's own check misses them)
    Hook("voila", "voila.server_extension:_load_jupyter_server_extension",
         "lessons_server.student_server",
         "Voila's extension entry point, called before the routes are wrapped"),
    # tornado: the static-file and gzip caches
    Hook("tornado", "tornado.web:RequestHandler()._headers", _SERVER,
         "a kept file's headers are replayed"),
    Hook("tornado", "tornado.web:RequestHandler()._headers_written", _SERVER,
         "headers are kept only before they are sent"),
    Hook("tornado", "tornado.web:GZipContentEncoding.transform_first_chunk", _SERVER,
         "each static file is compressed once"),
    Hook("tornado", "tornado.web:GZipContentEncoding()._gzipping", _SERVER,
         "whether tornado compresses this response: only then is a kept body served"),
    Hook("tornado", "tornado.web:RequestHandler()._finished", _SERVER,
         "a request the server's own checks already answered is not checked again"),
    # numpy-quaternion: imported with scipy.interpolate blocked, its calculus helpers fall
    # back on its own finite differences (no lesson uses them; the import costs 0.4 s)
    Hook("numpy-quaternion", "quaternion.calculus:fd_derivative", "lessons_lib.__init__",
         "quaternion is imported with sys.modules['scipy.interpolate'] = None"),
    # jupyter_server: the v1-only kernel websocket
    Hook("jupyter-server",
         "jupyter_server.services.kernels.connection.channels:"
         "ZMQChannelsWebsocketConnection.handle_incoming_message", _SERVER,
         "legacy-protocol clients are refused before they can stall the server"),
)
