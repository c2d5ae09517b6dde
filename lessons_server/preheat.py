"""Lesson 1's page rendered before a hub student opens it.

``make classroom`` pre-heats kernels with Voila's own pool (``preheat_kernel``), which runs
each lesson in a kernel before anyone asks for it and keeps the page it made. That pool
belongs to the ``voila`` command: behind a hub Voila is a server extension, whose page
handler finds no pool on the server's kernel manager and starts every lesson's kernel, and
runs the lesson in it, only when its page is opened (3 s of a student's first wait). A
student's server uses :class:`PreheatingKernelManager` instead
(deploy/singleuser/jupyter_server_config.py):

- once the lessons are on the server (the pull finished, the index was shown, or the
  server started with them there), it starts one kernel for the catalogue's first lesson,
  in that lesson's folder, and runs the lesson in it with Voila's own renderer, keeping the
  page's HTML as it comes;
- Voila's page handler asks every kernel manager for a pool (``notebook_data``,
  ``get_pool_size``, ``get_rendered_notebook``: the interface of Voila's own pre-heating
  manager); this one answers for lesson 1's page only, so the first student to open it
  gets the page already made and the kernel that made it. Every other page, and lesson 1
  opened again, starts a kernel of its own as usual.

It does so once per server start: the kernel is a student's first lesson's, not a pool, so
a server holds at most the one kernel the memory guarantee counts (deploy/z2jh/values.yaml).
The kernel is started by the same kernel manager class as every other, so it runs under
the same memory cap (:mod:`lessons_server.memcap`); it is not culled while it waits.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import PurePosixPath

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Unicode

from lessons_lib.catalogue import LESSONS

#: The lesson whose page is made ahead: the catalogue's first.
FIRST = LESSONS[0]


def warm_up_code(lesson=FIRST) -> str:
    """What a pre-heated kernel runs while it waits for the lessons: the imports of the
    widget backend and of ``lesson``'s apps, which the lesson's first cell makes again."""
    modules = ["ipympl.backend_nbagg", *dict.fromkeys(module for _, module in lesson.apps)]
    return (f"import importlib as _i\nfor _m in {modules!r}:\n    _i.import_module(_m)\n"
            "del _i, _m")


def renderer_factory(settings: dict, handler_kwargs: dict, log) -> Callable:
    """``make(notebook_path)``: a Voila ``NotebookRenderer`` for a page of this server, made
    as Voila's page handler makes it (``handler_kwargs``: that handler's route arguments;
    ``settings``: the server's web settings), without a request."""
    from voila.notebook_renderer import NotebookRenderer
    from voila.utils import get_page_config

    voila_configuration = handler_kwargs["voila_configuration"]
    base_url = settings.get("base_url", "/")

    def make(notebook_path: str):
        page_kwargs = {"base_url": base_url, "settings": settings, "log": log,
                       "voila_configuration": voila_configuration}
        page_config = get_page_config(**page_kwargs)
        if voila_configuration.page_config_hook:
            page_config = voila_configuration.page_config_hook(
                page_config, **page_kwargs, notebook_path=notebook_path)
        return NotebookRenderer(
            voila_configuration=voila_configuration,
            traitlet_config=handler_kwargs.get("config"), notebook_path=notebook_path,
            template_paths=handler_kwargs.get("template_paths", []),
            config_manager=settings.get("config_manager"),
            contents_manager=settings.get("contents_manager"), base_url=base_url,
            kernel_spec_manager=settings.get("kernel_spec_manager"), page_config=page_config,
            mathjax_config=settings.get("mathjax_config"),
            mathjax_url=settings.get("mathjax_url"))

    return make


class PreheatingKernelManager(AsyncMappingKernelManager):
    """The server's kernel manager, with :data:`FIRST`'s page made ahead of its request."""

    lessons_folder = Unicode(
        "", config=True,
        help="The folder of the lessons' notebooks, relative to the server's root "
             "(default: $LESSONS_TARGETPATH/notebooks).")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        #: ``make(notebook_path)`` -> Voila's renderer (set by lessons_server.student_server)
        self.page_renderer: Callable | None = None
        self._kernel: asyncio.Task | None = None  # lesson 1's kernel starting, or started
        self._made: asyncio.Task | None = None    # lesson 1's page being made, or made
        self._made_for = ""                       # its path, as Voila's handler names it
        self._waiting = ""                        # its kernel, not culled while it waits
        self._env: dict = {}                      # the environment that kernel starts with

    @property
    def folder(self) -> str:
        return self.lessons_folder or str(
            PurePosixPath(os.environ.get("LESSONS_TARGETPATH", ".")) / "notebooks")

    def warm(self, base_url: str = "/") -> bool:
        """Start :data:`FIRST`'s kernel and import its modules, once per server start, the
        lessons there or not (a first sign-in pulls them meanwhile); whether it started now."""
        if self._kernel is not None:
            return False
        self._env = {**os.environ, "VOILA_PREHEAT": "True", "VOILA_BASE_URL": base_url,
                     "VOILA_SERVER_URL": base_url}
        self._kernel = asyncio.ensure_future(self._start_warm())
        self.log.info("Pre-heating a kernel for %s", FIRST.notebook)
        return True

    async def _start_warm(self) -> str:
        from lessons_server.classroom import warm_up

        kernel_id = await super().start_kernel(path=self.folder, env=self._env,
                                               kernel_name="python3")
        self._waiting = kernel_id
        try:
            await warm_up(self.get_kernel(kernel_id), code=warm_up_code())
        except Exception:   # a cold import is slower, not wrong
            self.log.warning("Could not warm up the kernel of %s", FIRST.notebook)
        self.log.info("The kernel of %s is warm", FIRST.notebook)
        return kernel_id

    def preheat(self, base_url: str = "/") -> bool:
        """:meth:`warm`, then start making :data:`FIRST`'s page in that kernel, once per
        server start, if its notebook is here and Voila is loaded; whether the page started
        now."""
        notebook = str(PurePosixPath(self.folder) / FIRST.notebook)
        self.warm(base_url)
        if self._made_for or self.page_renderer is None or not os.path.isfile(
                os.path.join(self.root_dir, notebook)):
            return False
        self._made_for = notebook
        self._made = asyncio.ensure_future(self._make_page(notebook, self._kernel))
        self.log.info("Making the page of %s ahead", notebook)
        return True

    async def _make_page(self, notebook: str, kernel: asyncio.Future | None) -> dict:
        """Run ``notebook`` with Voila's renderer in the warm ``kernel`` (a new one if None),
        in the notebook's folder, keeping the page as it comes."""
        from lessons_server.classroom import warm_up

        renderer = self.page_renderer(notebook)
        await renderer.initialize()
        folder = str(PurePosixPath(notebook).parent)
        if kernel is None or renderer.notebook.metadata.kernelspec.name != "python3":
            kernel_id = await super().start_kernel(
                path=folder, env=self._env,
                kernel_name=renderer.notebook.metadata.kernelspec.name)
        else:
            kernel_id = await kernel
        self._waiting = kernel_id
        cwd = os.path.join(self.root_dir, folder)
        if not await warm_up(self.get_kernel(kernel_id), code=f"import os; os.chdir({cwd!r})"):
            raise RuntimeError(f"the kernel of {notebook} could not enter its folder")
        task = asyncio.ensure_future(
            renderer.generate_content_hybrid(kernel_id, self.get_kernel(kernel_id)))
        return {"task": task, "renderer": renderer, "kernel_id": kernel_id}

    # -- what Voila's page handler asks (the interface of Voila's pre-heating manager) ----
    @property
    def notebook_data(self) -> dict:
        """The page made ahead (template and theme None: a page that asks for another
        template or theme in its address is made for it as usual)."""
        if self._made is None or self._made.done() and self._made.exception() is not None:
            return {}
        return {self._made_for: {"template": None, "theme": None}}

    def get_pool_size(self, notebook_name: str) -> int:
        return int(bool(self.notebook_data) and notebook_name == self._made_for)

    async def get_rendered_notebook(self, notebook_name: str,
                                    extra_kernel_env_variables: dict | None = None,
                                    **kwargs) -> tuple:
        if self._made is None or notebook_name != self._made_for:
            raise ValueError(f"no page of {notebook_name!r} was made ahead")
        made, self._made = self._made, None
        try:
            content = await made
        except Exception:   # the kernel did not start: make the page now, as Voila would
            self.log.exception("Making the page of %s ahead failed", notebook_name)
            content = await self._make_page(notebook_name, None)
        self._waiting = ""
        content["renderer"].stop_generator = True   # the handler renders what is left
        self.log.info("Using the page of %s made ahead (kernel %s)", notebook_name,
                      content["kernel_id"])
        return content["task"], content["renderer"].rendered_cache, content["kernel_id"]

    async def cull_kernel_if_idle(self, kernel_id: str):
        if kernel_id == self._waiting:
            return None
        return await super().cull_kernel_if_idle(kernel_id)


def preheat_on(kernel_manager, base_url: str) -> bool:
    """Ask ``kernel_manager`` to make lesson 1's page ahead (when it is a
    :class:`PreheatingKernelManager`: a student's server); whether it started now."""
    preheat = getattr(kernel_manager, "preheat", None)
    return bool(preheat and preheat(base_url))
