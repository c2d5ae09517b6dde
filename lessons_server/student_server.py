"""A student's Jupyter server behind the hub: a server extension that makes every route
need the student's login and lets nbgitpuller pull the lessons only.

``deploy/singleuser/jupyter_server_config.py`` turns Voila's and nbgitpuller's own server
extensions off and this one on; it loads them itself, so that it runs after them:

- **Voila** is loaded as its extension would load it; then every route of the server whose
  handler is not a Jupyter Server handler (Voila's static, template and ``/voila/files``
  handlers are plain tornado ``StaticFileHandler``\\ s, which Jupyter Server's
  ``allow_unauthenticated_access = False`` cannot reach) is put behind :class:`LoginRequired`.
  Without it a logged-out browser got a picture from a student's home (issue 40).
- **the lessons' index** is answered at once, from the catalogue, not run in a kernel
  (:func:`lessons_server.landing.index_first`); lesson 1's kernel starts with the server and
  its page is made in it once the lessons are there (:mod:`lessons_server.preheat`).
- **the lessons are pulled as the server starts** (:func:`pull_at_start`), so the default
  URL's pull link goes straight on to the index (:func:`page_after_pull`).
- **nbgitpuller**'s page and its pull are served only for the lessons' repository, branch
  and folder (:func:`lessons_pull_problem`, from the environment the hub sets:
  ``LESSONS_REPO``, ``LESSONS_BRANCH``, ``LESSONS_TARGETPATH``). Any other link a student is
  sent (a notebook of another student's, pulled into their home and run by Voila in their
  kernel) gets a page that says why it is refused.

The identity of the user is Jupyter Server's (the hub's OAuth, through jupyterhub-singleuser);
nothing here decides who is logged in.
"""

from __future__ import annotations

import asyncio
import html
import os
import time
import urllib.parse

from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import locks, web
from tornado.ioloop import IOLoop

from lessons_server.preheat import preheat_on

#: The environment variables the hub sets on each student's server.
REPO_ENV, BRANCH_ENV, TARGET_ENV = "LESSONS_REPO", "LESSONS_BRANCH", "LESSONS_TARGETPATH"
#: The web setting that holds the pull made as the server started (:func:`pull_at_start`).
PULL_AT_START = "lessons_pull_at_start"
#: A pull link that comes this many seconds after the start-up pull finished is answered
#: by it; a later one (a server left running, the teacher's new commits) pulls again.
PULL_FRESH_S = 60.0


def _jupyter_server_extension_points():
    return [{"module": "lessons_server.student_server"}]


# -- every route behind the login ------------------------------------------------------
class LoginRequired(JupyterHandler):
    """Mixed in before a plain tornado handler: Jupyter Server's own login check
    (``JupyterHandler.prepare``, with ``allow_unauthenticated_access`` off) runs first, so
    a browser without the user's login is sent to log in (GET) or refused (403)."""

    @web.authenticated
    def get(self, *args, **kwargs):
        return super().get(*args, **kwargs)

    @web.authenticated
    def head(self, *args, **kwargs):
        return super().head(*args, **kwargs)


class FontsOpen(LoginRequired):
    """:class:`LoginRequired` for a handler of the installed packages' own files (Voila's
    templates and scripts, the widgets' extensions: :data:`PACKAGE_FILES`), except that a
    font file is served to anyone, as Jupyter Server serves its own static files.

    A page's stylesheet fetches its fonts in CORS mode, and JupyterHub (4.1 on) accepts its
    login cookie on such a request only with an XSRF token, which a font request cannot
    carry: behind the login the fonts never came, and every icon of a lesson on the hub
    (Play, Lock it, Reset) was an empty box. A font of an installed package is public
    anyway; a student's own files (``/voila/files``) stay behind the login, fonts too."""

    @allow_unauthenticated
    def get(self, *args, **kwargs):
        if self.request.path.lower().endswith(FONT_SUFFIXES):
            return super(LoginRequired, self).get(*args, **kwargs)
        return LoginRequired.get(self, *args, **kwargs)


#: The handlers that serve only the installed packages' files, by name (never a student's).
PACKAGE_FILES = frozenset({"TemplateStaticFileHandler", "MultiStaticFileHandler",
                           "FileFindHandler"})
#: What a font file's name ends with.
FONT_SUFFIXES = (".woff2", ".woff", ".ttf", ".otf", ".eot")


#: The handlers that answer without a login, by name: the hub's OAuth callback (the login
#: itself), logging out, and ``/api`` (the server's version, which the hub asks for).
OPEN_HANDLERS = frozenset({"JupyterHubOAuthCallbackHandler", "JupyterHubLogoutHandler",
                           "APIVersionHandler"})


def _open_without_login(handler: type) -> bool:
    if not issubclass(handler, JupyterHandler):
        return True     # plain tornado: Jupyter Server's login check never runs
    return any(getattr(getattr(handler, method, None), "__allow_unauthenticated", False)
               for method in ("get", "head"))


def behind_login(handler: type) -> type:
    """``handler`` with :class:`LoginRequired` in front (:class:`FontsOpen` for one of
    :data:`PACKAGE_FILES`), if it would answer a GET without the user's login (a plain
    tornado handler, or Jupyter Server's static files) and is not one of
    :data:`OPEN_HANDLERS`; else ``handler`` itself."""
    if not isinstance(handler, type) or not issubclass(handler, web.RequestHandler) \
            or handler.__name__ in OPEN_HANDLERS or not _open_without_login(handler):
        return handler
    front = FontsOpen if handler.__name__ in PACKAGE_FILES else LoginRequired
    return type(f"LoginRequired{handler.__name__}", (front, handler), {})


def _rules(router) -> list:
    """Every rule of a tornado router and of the routers inside it."""
    found = []
    for rule in getattr(router, "rules", []):
        if isinstance(rule.target, type):
            found.append(rule)
        else:
            found.extend(_rules(rule.target))
    return found


def wrap_routes(web_app, wrap) -> list[str]:
    """Replace every route's handler ``h`` with ``wrap(h)``; the names of those replaced."""
    wrapped = []
    for rule in _rules(web_app.default_router):
        new = wrap(rule.target)
        if new is not rule.target:
            wrapped.append(rule.target.__name__)
            rule.target = new
    return wrapped


# -- nbgitpuller: the lessons only -------------------------------------------------------
def lessons_source(env=os.environ) -> dict[str, str]:
    """The one repository, branch and folder a student's server may pull."""
    return {"repo": env.get(REPO_ENV, ""), "branch": env.get(BRANCH_ENV, ""),
            "targetpath": env.get(TARGET_ENV, "")}


def lessons_pull_problem(args: dict[str, str], allowed: dict[str, str]) -> str | None:
    """Why a pull with these link arguments is refused, or None. The repository must be the
    lessons' (exactly), and the branch and folder the lessons' when the link names them.
    ``args`` and ``allowed`` map names to texts (a ValueError otherwise)."""
    for name, given in (("args", args), ("allowed", allowed)):
        if not isinstance(given, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  for k, v in given.items()):
            raise ValueError(f"{name} must map names to texts, got {type(given).__name__}")
    if set(allowed) != {"repo", "branch", "targetpath"}:
        raise ValueError("allowed must map repo, branch and targetpath to texts")
    if not allowed["repo"]:
        return "this server was started without the lessons' repository (LESSONS_REPO)"
    if args.get("repo", "") != allowed["repo"]:
        return (f"the link pulls {args.get('repo', '')[:200]!r}; this course's lessons come "
                f"only from {allowed['repo']!r}")
    for key in ("branch", "targetpath"):
        if args.get(key) and allowed[key] and args[key] != allowed[key]:
            return f"the link's {key} is {args[key][:100]!r}, the lessons' is {allowed[key]!r}"
    return None


def lessons_folder(settings: dict, source: dict[str, str]) -> str:
    """Where nbgitpuller puts ``source`` (:func:`lessons_source`): the server's root, then
    ``NBGITPULLER_PARENTPATH``, then the target folder (the repository's name if none)."""
    parent = os.path.join(os.path.expanduser(settings["server_root_dir"]),
                          os.getenv("NBGITPULLER_PARENTPATH", ""))
    return os.path.join(parent, source["targetpath"]
                        or source["repo"].rstrip("/").split("/")[-1])


async def pull_at_start(serverapp) -> float | None:
    """Pull the lessons (nbgitpuller's own puller, under its lock) as the server starts,
    then make lesson 1's page ahead; when it finished (``time.monotonic()``), or None when
    there is nothing to pull or the pull failed (a pull link then pulls as usual).

    A student's first sign-in used to wait for nbgitpuller's page, its scripts and its
    progress stream (which looks for news every 0.5 s) before the index, and lesson 1's
    page could not be made before that: 1 to 2.5 s of the first wait."""
    from nbgitpuller.pull import GitPuller

    source = lessons_source()
    if not source["repo"]:
        return None
    settings = serverapp.web_app.settings
    lock = settings.setdefault("git_lock", locks.Lock())   # nbgitpuller's, shared
    async with lock:
        try:
            puller = GitPuller(source["repo"], lessons_folder(settings, source),
                               branch=source["branch"] or None, parent=serverapp)
            for line in await asyncio.to_thread(lambda: list(puller.pull())):
                serverapp.log.info("Pulling the lessons: %s", line.rstrip())
        except Exception:   # noqa: BLE001 - the link's own pull reports it to the student
            serverapp.log.exception("Pulling the lessons as the server started failed")
            return None
    preheat_on(serverapp.kernel_manager, settings["base_url"])
    return time.monotonic()


def page_after_pull(urlpath: str) -> str | None:
    """The page a lessons pull link goes on to, from its ``urlpath``: a path under the
    server's base URL, or None when it is not plainly one (a scheme, a host or a leading
    ``//``, a backslash, a control character or a ``..`` step, as typed or %-encoded);
    such a link is left to nbgitpuller's own page. A ValueError if ``urlpath`` is not text."""
    if not isinstance(urlpath, str):
        raise ValueError(f"a link's urlpath is text, got {type(urlpath).__name__}")
    if not urlpath or len(urlpath) > 2000 or "\\" in urlpath or urlpath.startswith("//") \
            or any(ord(c) < 32 or ord(c) == 127 for c in urlpath):
        return None
    parts = urllib.parse.urlsplit(urlpath)
    steps = urllib.parse.unquote(parts.path).replace("\\", "/").split("/")
    if parts.scheme or parts.netloc or ".." in steps or not urlpath.lstrip("/"):
        return None
    return urlpath.lstrip("/")


def lessons_only(base: type) -> type:
    """nbgitpuller's handler ``base``, refusing (403, with a page that says why) every link
    that would pull anything but the lessons; a lessons link that comes just after the
    pull made at the server's start (:func:`pull_at_start`) goes on at once."""

    class LessonsOnly(base):
        async def get(self, *args, **kwargs):
            query = {k: self.get_argument(k, "") for k in ("repo", "branch", "targetpath")}
            query["targetpath"] = query["targetpath"] or self.get_argument("targetPath", "")
            problem = lessons_pull_problem(query, lessons_source())
            if problem is None and await self._pulled_just_now():
                return await self._go_on()
            if problem is None:
                await super().get(*args, **kwargs)
                # the lessons are here once the pull is over: lesson 1's kernel can start
                preheat_on(self.kernel_manager, self.base_url)
                return None
            self.log.warning("Refused a git-pull link: %s", problem)
            self.set_status(403)
            self.finish("<!doctype html><title>Link refused</title><body style='font: 18px "
                        "sans-serif; max-width: 46em; margin: 2em auto'><h1>This link is "
                        "refused</h1><p>It asks your server to fetch notebooks from "
                        f"somewhere else: {html.escape(problem)}.</p><p>Only the course's "
                        "lessons are pulled here, so that a page nobody checked cannot run "
                        "in your account. Ask your teacher for the course's link.</p><p><a "
                        f"href='{html.escape(self.base_url)}'>Back to your lessons</a></p>")
            return None

        async def _pulled_just_now(self) -> bool:
            started = self.settings.get(PULL_AT_START)
            if started is None or self.get_argument("backup", ""):
                return False
            finished = await asyncio.shield(started)
            return finished is not None and time.monotonic() - finished < PULL_FRESH_S

        async def _go_on(self):
            if not hasattr(self, "emit"):   # nbgitpuller's page: straight to where it leads
                page = page_after_pull(self.get_argument("urlpath", "")
                                       or self.get_argument("urlPath", ""))
                if page is None:
                    return await super().get()
                return self.redirect(url_path_join(self.base_url, page))
            self.set_header("content-type", "text/event-stream")   # its progress stream
            self.set_header("cache-control", "no-cache")
            return await self.emit({"phase": "finished"})

    LessonsOnly.__name__ = LessonsOnly.__qualname__ = f"LessonsOnly{base.__name__}"
    return LessonsOnly


def _lessons_only_pulls(handler: type) -> type:
    from nbgitpuller.handlers import SyncHandler, UIHandler

    return lessons_only(handler) if handler in (SyncHandler, UIHandler) else handler


def _index_first(handler: type) -> type:
    """Voila's page handler answering the lessons' index at once (lessons_server.landing)."""
    from voila.tornado.handler import TornadoVoilaHandler

    from lessons_server.landing import index_first

    return index_first(handler) if handler is TornadoVoilaHandler else handler


def _renderer_for_preheating(serverapp) -> None:
    """Give a pre-heating kernel manager (lessons_server.preheat) the means to make a page
    as Voila's page handler makes it: that handler's route arguments."""
    from voila.tornado.handler import TornadoVoilaHandler

    from lessons_server.preheat import renderer_factory

    km = serverapp.kernel_manager
    for rule in _rules(serverapp.web_app.default_router):
        if hasattr(km, "page_renderer") and rule.target is TornadoVoilaHandler:
            km.page_renderer = renderer_factory(serverapp.web_app.settings,
                                                rule.target_kwargs, serverapp.log)
            return


def _start_pulling(serverapp) -> None:
    serverapp.web_app.settings[PULL_AT_START] = asyncio.ensure_future(
        pull_at_start(serverapp))


def _load_jupyter_server_extension(serverapp) -> None:
    """Voila's and nbgitpuller's own extension loaders, then their routes narrowed."""
    from nbgitpuller import _load_jupyter_server_extension as load_nbgitpuller
    from voila.server_extension import _load_jupyter_server_extension as load_voila

    load_voila(serverapp)
    load_nbgitpuller(serverapp)
    _renderer_for_preheating(serverapp)
    wrap_routes(serverapp.web_app, _index_first)
    pulls = wrap_routes(serverapp.web_app, _lessons_only_pulls)
    logins = wrap_routes(serverapp.web_app, behind_login)
    # lesson 1's kernel starts at once, and its page too if the lessons are here already;
    # the lessons are pulled meanwhile, and the page made when they are in
    IOLoop.current().add_callback(preheat_on, serverapp.kernel_manager,
                                  serverapp.web_app.settings["base_url"])
    IOLoop.current().add_callback(_start_pulling, serverapp)
    serverapp.log.info("Lessons: nbgitpuller pulls the lessons only (%s); %d routes put "
                       "behind the login (%s)", ", ".join(pulls), len(logins),
                       ", ".join(sorted(set(logins))))
