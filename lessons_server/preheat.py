"""Lesson 1's kernel started before a hub student opens it.

``make classroom`` pre-heats kernels with Voila's own pool (``preheat_kernel``), which runs
each lesson in a kernel before anyone asks for it. That pool belongs to the ``voila``
command: behind a hub Voila is a server extension, whose page handler finds no pool on the
server's kernel manager and starts every lesson's kernel when its page is opened (1.5-3 s
of a student's first wait, with the imports of the lesson's modules). A student's server
uses :class:`PreheatingKernelManager` instead (deploy/singleuser/jupyter_server_config.py):

- once the lessons are on the server (the pull finished, the index was shown, or the
  server started with them there), it starts one kernel for the catalogue's first lesson,
  in that lesson's folder, with the environment Voila gives its kernels, and imports the
  lesson's modules in it (:func:`warm_up_code`);
- when Voila asks for a kernel for that lesson's page (the request's ``SCRIPT_NAME``, which
  Voila puts in the kernel's environment, names the notebook), it gets that one, and
  runs the lesson in it as usual.

It does so once per server start: the kernel is a student's first lesson's, not a pool, so
a server holds at most the one kernel the memory guarantee counts (deploy/z2jh/values.yaml).
Every kernel, this one too, is started by the same kernel manager class, so it runs under
the same memory cap (:mod:`lessons_server.memcap`), and is culled when idle like any other.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import PurePosixPath

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Unicode

from lessons_lib.catalogue import LESSONS

#: The lesson whose kernel is pre-heated: the catalogue's first.
FIRST = LESSONS[0]


def warm_up_code(lesson=FIRST) -> str:
    """What a pre-heated kernel runs before its page asks for it: the imports of the
    widget backend and of ``lesson``'s apps, which the lesson's first cell makes again."""
    modules = ["ipympl.backend_nbagg", *dict.fromkeys(module for _, module in lesson.apps)]
    return (f"import importlib as _i\nfor _m in {modules!r}:\n    _i.import_module(_m)\n"
            "del _i, _m")


class PreheatingKernelManager(AsyncMappingKernelManager):
    """The server's kernel manager, with :data:`FIRST`'s kernel started ahead of its page."""

    lessons_folder = Unicode(
        "", config=True,
        help="The folder of the lessons' notebooks, relative to the server's root "
             "(default: $LESSONS_TARGETPATH/notebooks).")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._warm: asyncio.Task | None = None   # the kernel starting or waiting
        self._started = False                    # once per server start

    @property
    def folder(self) -> str:
        return self.lessons_folder or str(
            PurePosixPath(os.environ.get("LESSONS_TARGETPATH", ".")) / "notebooks")

    def preheat(self, base_url: str = "/") -> bool:
        """Start :data:`FIRST`'s kernel, once per server start, if its notebook is here;
        whether it was started now."""
        if self._started or not os.path.isfile(
                os.path.join(self.root_dir, self.folder, FIRST.notebook)):
            return False
        env = {**os.environ, "VOILA_PREHEAT": "False", "VOILA_BASE_URL": base_url,
               "VOILA_SERVER_URL": base_url}
        self._started = True
        self._warm = asyncio.ensure_future(self._start_warm(env))
        self.log.info("Pre-heating a kernel for %s", FIRST.notebook)
        return True

    async def _start_warm(self, env: dict) -> str:
        from lessons_server.classroom import warm_up

        kernel_id = await super().start_kernel(path=self.folder, env=env,
                                               kernel_name="python3")
        try:
            await warm_up(self.get_kernel(kernel_id), code=warm_up_code())
        except Exception:   # a cold import is slower, not wrong
            self.log.warning("Could not warm up the kernel of %s", FIRST.notebook)
        return kernel_id

    def _for_first_lesson(self, path, kwargs) -> bool:
        page = (kwargs.get("env") or {}).get("SCRIPT_NAME", "")
        return (kwargs.get("kernel_name") in (None, "python3") and path == self.folder
                and page.endswith("/" + FIRST.notebook))

    async def start_kernel(self, *, kernel_id=None, path=None, **kwargs) -> str:
        if kernel_id is None and self._warm is not None and self._for_first_lesson(path, kwargs):
            warm, self._warm = self._warm, None
            try:
                kernel = await warm
            except Exception:
                self.log.exception("The pre-heated kernel of %s failed", FIRST.notebook)
            else:
                if kernel in self:   # not culled meanwhile
                    self.log.info("Using the pre-heated kernel %s for %s", kernel,
                                  FIRST.notebook)
                    return kernel
        return await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)


def preheat_on(kernel_manager, base_url: str) -> bool:
    """Ask ``kernel_manager`` to pre-heat (when it is a :class:`PreheatingKernelManager`:
    a student's server); whether it started a kernel now."""
    preheat = getattr(kernel_manager, "preheat", None)
    return bool(preheat and preheat(base_url))
