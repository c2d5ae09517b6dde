"""A student's server behind the hub, in-process: which routes get the login in front,
which links nbgitpuller may follow, and what the authorizer lets a student do. The same,
on a running trial hub, through its proxy: tests/test_hub.py (slow)."""

from __future__ import annotations

import pytest
from jupyter_server.base.handlers import FileFindHandler, JupyterHandler
from tornado import web

from lessons_server.student_server import (
    OPEN_HANDLERS,
    FontsOpen,
    LoginRequired,
    behind_login,
    lessons_pull_problem,
)

LESSONS = {"repo": "https://github.com/game-maths-lessons/lessons", "branch": "main",
           "targetpath": "game-maths-lessons"}


class PlainStatic(web.StaticFileHandler):
    """Like Voila's /voila/files handler: plain tornado, no login of its own."""


class Authenticated(JupyterHandler):
    @web.authenticated
    def get(self):
        pass


def test_plain_and_open_handlers_get_the_login_in_front():
    for handler in (PlainStatic, FileFindHandler):
        guarded = behind_login(handler)
        assert guarded is not handler and issubclass(guarded, LoginRequired)
        assert issubclass(guarded, handler)
    assert behind_login(Authenticated) is Authenticated   # Jupyter Server checks it already


def test_only_the_packages_own_files_serve_fonts_without_the_login():
    """A stylesheet's font request cannot carry the hub's XSRF token: fonts of the installed
    packages are open; a student's own files (Voila's /voila/files) are not, fonts too."""
    from voila.static_file_handler import (
        AllowListFileHandler,
        MultiStaticFileHandler,
        TemplateStaticFileHandler,
    )

    for package in (TemplateStaticFileHandler, MultiStaticFileHandler, FileFindHandler):
        guarded = behind_login(package)
        assert issubclass(guarded, FontsOpen) and issubclass(guarded, package)
        assert getattr(guarded.get, "__allow_unauthenticated", False)
        assert not getattr(guarded.head, "__allow_unauthenticated", False)
    for own in (AllowListFileHandler, PlainStatic):
        guarded = behind_login(own)
        assert issubclass(guarded, LoginRequired) and not issubclass(guarded, FontsOpen)
        assert not getattr(guarded.get, "__allow_unauthenticated", False)


def test_the_login_itself_stays_open():
    for name in OPEN_HANDLERS:
        handler = type(name, (FileFindHandler,), {})
        assert behind_login(handler) is handler


@pytest.mark.parametrize("link, refused", [
    (LESSONS, None),
    ({"repo": LESSONS["repo"]}, None),
    ({**LESSONS, "repo": "https://github.com/a-student/evil"}, "come only from"),
    ({**LESSONS, "repo": LESSONS["repo"] + ".git"}, "come only from"),
    ({**LESSONS, "branch": "other"}, "branch"),
    ({**LESSONS, "targetpath": "../../.jupyter"}, "targetpath"),
    ({}, "come only from"),
])
def test_links_pull_only_the_lessons(link, refused):
    problem = lessons_pull_problem(link, LESSONS)
    assert problem is None if refused is None else refused in problem


def test_a_server_without_the_lessons_repository_pulls_nothing():
    assert "LESSONS_REPO" in lessons_pull_problem(LESSONS, {**LESSONS, "repo": ""})


@pytest.mark.slow   # jupyterhub comes with the hub extra, which make test-slow installs
def test_a_student_reads_and_uses_a_lessons_kernel_but_writes_nothing():
    pytest.importorskip("jupyterhub")   # the hub extra (make test-slow) brings it
    from lessons_server.student_authorizer import student_may

    assert student_may("read", "contents") and student_may("execute", "kernels")
    for action, resource in (("write", "contents"), ("write", "kernels"),
                             ("write", "sessions"), ("execute", "terminals"),
                             ("write", "terminals")):
        assert not student_may(action, resource), (action, resource)


def test_the_lessons_index_is_answered_before_voila_runs_it():
    """On a student's server Voila's page handler, and only it, answers the lessons' index
    from the catalogue (lessons_server.landing.index_first), behind the same login."""
    from voila.tornado.handler import TornadoVoilaHandler

    from lessons_server.student_server import _index_first

    first = _index_first(TornadoVoilaHandler)
    assert first is not TornadoVoilaHandler and issubclass(first, TornadoVoilaHandler)
    assert hasattr(first.get, "__wrapped__")     # tornado's web.authenticated in front
    assert _index_first(Authenticated) is Authenticated
