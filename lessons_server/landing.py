"""Every way into the lessons lands on their index page, never on Voila's file tree.

Voila serving a folder answers its root (``/``) and ``/voila/tree`` with a list of the raw
``.ipynb`` names, ``index.ipynb`` last, each opening in a new tab. :class:`LessonsVoila`
(what ``make voila`` runs, ``python -m lessons_server.landing notebooks ...`` with Voila's
own arguments, and the base of ``make classroom``'s Voila) sends both to the rendered
index instead, and gives each lesson of the catalogue a short address, ``/<number>``
(``/2`` for lesson 2), which ``make classroom --lesson`` prints in block letters. Both
redirects keep the query (the room's ``?token=``, presenter mode's ``?present=1``) and,
like the pages they lead to, ask for the login first. The hub's students land on the
index through the default URL in deploy/z2jh/values.yaml.
"""

from __future__ import annotations

from pathlib import Path

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import httputil, web

from lessons_lib.catalogue import LESSONS

#: The lessons' index page, in the folder Voila serves.
INDEX = "index.ipynb"


def render_path(notebook: str) -> str:
    """Where Voila serving a folder renders ``notebook`` of it."""
    return f"voila/render/{notebook}"


def short_path(notebook: str) -> str | None:
    """The short address of ``notebook`` (``/2`` for lesson 2), or None when it is not a
    lesson of the catalogue."""
    number = next((lesson.number for lesson in LESSONS if lesson.notebook == notebook), None)
    return None if number is None else f"/{number}"


class Landing(JupyterHandler):
    """Sends an authenticated browser to ``target`` (relative to the server's base URL),
    with the request's query; a browser without the login goes to the login page."""

    def initialize(self, target: str) -> None:
        self.target = target

    @web.authenticated
    def get(self, *_args) -> None:
        query = list(httputil.qs_to_qsl(self.request.query_arguments))
        self.redirect(httputil.url_concat(url_path_join(self.base_url, self.target), query))


def landing_routes(base_url: str, notebooks: Path) -> list[tuple]:
    """Routes to put before Voila's own: its tree root to the index (when the folder has
    one), and each catalogue lesson the folder holds at its short address."""
    routes = []
    if (notebooks / INDEX).is_file():
        to_index = {"target": render_path(INDEX)}
        routes += [(base_url, Landing, to_index),
                   (url_path_join(base_url, r"/voila/tree/?"), Landing, to_index)]
    for lesson in LESSONS:
        if (notebooks / lesson.notebook).is_file():
            routes.append((url_path_join(base_url, short_path(lesson.notebook)), Landing,
                           {"target": render_path(lesson.notebook)}))
    return routes


def lessons_voila():
    """Voila whose routes land on the index (:func:`landing_routes`)."""
    from voila.app import Voila

    class LessonsVoila(Voila):
        def init_handlers(self) -> list:
            handlers = super().init_handlers()
            if self.notebook_path:       # one notebook served: it is the landing already
                return handlers
            return landing_routes(self.server_url, Path(self.root_dir)) + handlers

    return LessonsVoila


def main() -> None:
    """``voila`` with Voila's own arguments, landing on the index."""
    lessons_voila().launch_instance()


if __name__ == "__main__":
    main()
