"""Every way into the lessons lands on their index page, never on Voila's file tree.

Voila serving a folder answers its root (``/``) and ``/voila/tree`` with a list of the raw
``.ipynb`` names, ``index.ipynb`` last, each opening in a new tab. :class:`LessonsVoila`
(what ``make voila`` runs, ``python -m lessons_server.landing notebooks ...`` with Voila's
own arguments, and the base of ``make classroom``'s Voila) sends both to the rendered
index instead, and gives each lesson of the catalogue a short address, ``/<number>``
(``/2`` for lesson 2; ``/ko/2`` its Korean page, ``/ko`` the Korean index), which ``make
classroom --lesson`` prints in block letters. Both
redirects keep the query (the room's ``?token=``, presenter mode's ``?present=1``) and,
like the pages they lead to, ask for the login first. The hub's students land on the
index through the default URL in deploy/z2jh/values.yaml.

The index itself is answered at once, as a page made from the catalogue
(:func:`index_html`: each lesson's title on a line, a link in the same tab, and what it
teaches), not run as a notebook: Voila starts a kernel for every page it renders, and a
student waited for one (4-6 s on the hub) before they could click their lesson.
``index.ipynb`` stays for JupyterLab. :func:`index_first` puts that page in front of
Voila's renderer for ``make voila``, ``make classroom`` and a hub student's server alike.
"""

from __future__ import annotations

import html
from pathlib import Path, PurePosixPath

from jupyter_core.utils import ensure_async
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import httputil, web

from lessons_lib import i18n
from lessons_lib.catalogue import LESSONS, reading_order

#: The lessons' index page, in the folder Voila serves.
INDEX = "index.ipynb"


def render_path(notebook: str) -> str:
    """Where Voila serving a folder renders ``notebook`` of it."""
    return f"voila/render/{notebook}"


def short_path(notebook: str) -> str | None:
    """The short address of ``notebook`` (``/2`` for lesson 2, ``/ko/2`` for its Korean
    notebook ``ko/02_...``), or None when it is not a lesson of the catalogue."""
    page = PurePosixPath(notebook)
    folder = "" if str(page.parent) == "." else str(page.parent)
    if folder not in ("", i18n.KOREAN_FOLDER):
        return None
    number = next((lesson.number for lesson in LESSONS if lesson.notebook == page.name), None)
    return None if number is None else f"{'/' + folder if folder else ''}/{number}"


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
    korean_index = f"{i18n.KOREAN_FOLDER}/{INDEX}"
    if (notebooks / korean_index).is_file():
        routes.append((url_path_join(base_url, rf"/{i18n.KOREAN_FOLDER}/?"), Landing,
                       {"target": render_path(korean_index)}))
    for lesson in LESSONS:
        for notebook in (lesson.notebook, f"{i18n.KOREAN_FOLDER}/{lesson.notebook}"):
            if (notebooks / notebook).is_file():
                routes.append((url_path_join(base_url, short_path(notebook)), Landing,
                               {"target": render_path(notebook)}))
    return routes


#: The index page's title and heading (the index notebook's, too).
INDEX_TITLE = "Game maths, interactively"
#: What the index says before the list.
INDEX_LEAD = ("Short, hands-on lessons on the maths behind game engines: sliders and buttons "
              "to play with, and exercises that check your answer on the spot.")
_INDEX_CSS = """
body { font: 20px/1.45 system-ui, sans-serif; max-width: 46em; margin: 1.5em auto;
       padding: 0 1em; color: #1d1d1f; word-break: keep-all; overflow-wrap: break-word; }
h1 { font-size: 1.6em; margin: 0 0 .4em; }
ol { padding: 0; list-style: none; }
li { margin: 0 0 1em; }
li a { font-size: 1.15em; font-weight: 600; }
li p { margin: .15em 0 0; color: #4a4a4f; font-size: .85em; }
#lessons-logout { float: right; font-size: .8em; }
"""


#: The Korean index's title and lead (notebooks/ko/index.ipynb says the same).
INDEX_TITLE_KO = "인터랙티브 게임 수학"
INDEX_LEAD_KO = ("게임 엔진 속 수학을 손으로 만져 보며 배우는 짧은 강의입니다: 직접 움직여 볼 "
                 "슬라이더와 버튼, 답을 그 자리에서 확인해 주는 연습 문제가 있습니다.")


def korean_index_html(lessons: tuple, logout_url: str = "") -> str:
    """The Korean index page (``notebooks/ko/index.ipynb`` in Voila): the catalogue's
    ``lessons`` that exist in Korean, titles and summaries from the Korean catalogue, a link
    back to the English index."""
    esc = html.escape
    i18n.set_language("ko")
    try:
        items = "".join(
            f'<li>{lesson.number}. <a href="{esc(lesson.notebook)}">{esc(i18n._(lesson.title))}'
            f"</a><p>{esc(i18n._(lesson.summary))}</p></li>" for lesson in lessons)
        order = reading_order(tuple(lessons)) if lessons else ""
    finally:
        i18n.set_language(None)
    logout = f'<a id="lessons-logout" href="{esc(logout_url)}">로그아웃</a>' if logout_url \
        else ""
    return (f'<!doctype html><html lang="ko"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(INDEX_TITLE_KO)}</title><style>{_INDEX_CSS}</style></head><body>"
            f"{logout}<h1>{esc(INDEX_TITLE_KO)}</h1><p>{esc(INDEX_LEAD_KO)}</p>"
            f'<p><small><a class="lessons-language" href="../{INDEX}">영어로 보기 (English)</a>'
            "</small></p>"
            f"<p>{esc(order)}</p><ol>{items}</ol></body></html>")


def index_html(logout_url: str = "", korean: bool = False) -> str:
    """The lessons' index page, made from the catalogue: each lesson's title on a line of
    its own, a link to the lesson (relative, so it opens in the same tab, next to this
    page), and under it what the lesson teaches; the order to take them in; a Log out link
    when ``logout_url`` is given (a hub)."""
    esc = html.escape
    items = "".join(
        f'<li>{lesson.number}. <a href="{esc(lesson.notebook)}">{esc(lesson.title)}</a>'
        f"<p>{esc(lesson.summary)}</p></li>" for lesson in LESSONS)
    logout = f'<a id="lessons-logout" href="{esc(logout_url)}">Log out</a>' if logout_url \
        else ""
    other = (f'<p><small><a class="lessons-language" href="{i18n.KOREAN_FOLDER}/{INDEX}">'
             "한국어로 보기 (Korean)</a>"
             "</small></p>" if korean else "")
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(INDEX_TITLE)}</title><style>{_INDEX_CSS}</style></head><body>"
            f"{logout}<h1>{esc(INDEX_TITLE)}</h1><p>{esc(INDEX_LEAD)}</p>{other}"
            f"<p>{esc(reading_order())}</p><ol>{items}</ol></body></html>")


def page_language(path: str) -> str:
    """The language of the page at ``path`` (a notebook in the Korean folder is Korean, as
    lessons_lib.i18n decides for its kernel)."""
    return "ko" if PurePosixPath(path).parent.name == i18n.KOREAN_FOLDER else "en"


def in_language(path: str, lang: str) -> str:
    """The notebook that is ``path`` in ``lang`` (``02_x.ipynb`` <-> ``ko/02_x.ipynb``),
    whether or not it exists; ``path`` itself when it is in ``lang`` already."""
    page = PurePosixPath(path)
    if page_language(path) == lang:
        return path
    if lang == "ko":
        return str(page.parent / i18n.KOREAN_FOLDER / page.name).removeprefix("./")
    return str(page.parent.parent / page.name).removeprefix("./")


def index_first(render: type) -> type:
    """Voila's page handler ``render``, answering the lessons' index (an ``index.ipynb``
    beside the catalogue's first lesson) with :func:`index_html` instead of running it.

    ``?lang=ko`` (or ``en``) on any page sends the browser to the same page in that
    language when the folder has it (the query kept, so the page's switch link and a
    shared address both work); any other value, or a page with no such translation, is
    answered as it is."""

    class IndexFirst(render):
        @web.authenticated
        async def get(self, path=None, *args, **kwargs):
            other = await self._in_asked_language(path or "")
            if other is not None:
                query = list(httputil.qs_to_qsl(self.request.query_arguments))
                return self.redirect(httputil.url_concat(
                    url_path_join(self.base_url, render_path(other)), query))
            if await self._is_lessons_index(path or ""):
                from lessons_server.preheat import preheat_on

                preheat_on(self.kernel_manager, self.base_url)   # lesson 1 is next
                resources = getattr(self.voila_configuration, "resources", None)
                logout = resources.get("lessons_logout_url", "") \
                    if isinstance(resources, dict) else ""
                self.set_header("Cache-Control", "no-cache")
                folder = PurePosixPath(path or "").parent
                exists = self.contents_manager.file_exists
                if folder.name == i18n.KOREAN_FOLDER:
                    present = [lesson for lesson in LESSONS if await ensure_async(
                        exists(str(folder / lesson.notebook)))]
                    return self.finish(korean_index_html(tuple(present), logout))
                korean = bool(await ensure_async(
                    exists(str(folder / i18n.KOREAN_FOLDER / INDEX))))
                return self.finish(index_html(logout, korean=korean))
            return await super().get(path, *args, **kwargs)

        async def _in_asked_language(self, path: str) -> str | None:
            lang = self.get_query_argument("lang", "")
            if lang not in i18n.LANGUAGES or not path.endswith(".ipynb"):
                return None
            other = in_language(path, lang)
            if other == path or ".." in PurePosixPath(other).parts:
                return None
            exists = await ensure_async(self.contents_manager.file_exists(other))
            return other if exists else None

        async def _is_lessons_index(self, path: str) -> bool:
            page = PurePosixPath(path)
            if page.name != INDEX:
                return False
            lesson = str(page.parent / LESSONS[0].notebook) if str(page.parent) != "." \
                else LESSONS[0].notebook
            return bool(await ensure_async(self.contents_manager.file_exists(lesson)))

    IndexFirst.__name__ = IndexFirst.__qualname__ = f"IndexFirst{render.__name__}"
    return IndexFirst


def with_index_first(handlers: list) -> list:
    """``handlers`` (tornado's (pattern, handler, ...) tuples) with Voila's page handler
    replaced by :func:`index_first` of it."""
    from voila.tornado.handler import TornadoVoilaHandler

    return [(h[0], index_first(h[1]), *h[2:]) if len(h) > 1 and h[1] is TornadoVoilaHandler
            else h for h in handlers]


def lessons_voila():
    """Voila whose routes land on the index (:func:`landing_routes`)."""
    from voila.app import Voila

    class LessonsVoila(Voila):
        def init_handlers(self) -> list:
            handlers = super().init_handlers()
            if self.notebook_path:       # one notebook served: it is the landing already
                return handlers
            return landing_routes(self.server_url, Path(self.root_dir)) + \
                with_index_first(handlers)

    return LessonsVoila


def main() -> None:
    """``voila`` with Voila's own arguments, landing on the index."""
    lessons_voila().launch_instance()


if __name__ == "__main__":
    main()
