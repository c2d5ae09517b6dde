"""Hypothesis fuzz of the server's functions that read what a page or a link sends
(``tests/fuzz_coverage.py`` SERVER): any bytes or text gets an answer (a reason or None),
never an exception, and only what the lessons send passes."""

from __future__ import annotations

import json
import os
import struct
import time
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)

from lessons_server.classroom import PAGE_COMM_TARGETS, page_message_problem
from lessons_server.student_server import lessons_pull_problem, page_after_pull

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))
#: The qualified names this module fuzzes (tests/fuzz_coverage.py counts them as covered).
FUZZED = ("lessons_server.classroom.page_message_problem",
          "lessons_server.student_server.lessons_pull_problem",
          "lessons_server.student_server.page_after_pull",
          "lessons_server.student_authorizer.student_may")

JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                       max_leaves=8)


@st.composite
def frames(draw):
    """v1 websocket frames: well made, with crafted parts, or with crafted framing."""
    channel = draw(st.sampled_from(["shell", "control", "iopub", "", "shel"]))
    header = draw(st.one_of(
        st.builds(lambda t: json.dumps({"msg_type": t}).encode(),
                  st.sampled_from(["comm_open", "comm_msg", "execute_request", ""])),
        st.binary(max_size=20), JSONISH.map(lambda v: json.dumps(v).encode()),
        st.integers(1, 20000).map(lambda n: b"[" * n),              # nested past any limit
        st.just(b"\xff\xfe{}")))
    content = draw(st.one_of(
        st.sampled_from([*PAGE_COMM_TARGETS, "jupyter.widget", ""]).map(
            lambda t: json.dumps({"target_name": t}).encode()),
        JSONISH.map(lambda v: json.dumps(v).encode()), st.binary(max_size=20),
        st.integers(1, 20000).map(lambda n: b'{"a":' * n)))
    parts = [header, b"{}", b"{}", content] + draw(st.lists(st.binary(max_size=8),
                                                          max_size=4))
    body = serialize_msg_to_ws_v1(parts, channel)
    n = struct.unpack_from("<Q", body)[0]
    how = draw(st.sampled_from(["as made", "as made", "count", "offset", "cut"]))
    if how == "count":
        body = struct.pack("<Q", draw(st.integers(0, 2**64 - 1))) + body[8:]
    elif how == "offset":
        k = draw(st.integers(1, n))
        body = body[:8 * k] + struct.pack("<Q", draw(st.integers(0, 2**64 - 1))) \
            + body[8 * (k + 1):]
    elif how == "cut":
        body = body[:draw(st.integers(0, len(body)))]
    return body


@FUZZ
@given(st.one_of(frames(), st.binary(max_size=200), st.text(max_size=50), st.none(),
                 st.integers()))
def test_any_page_message_gets_a_reason_or_passes(msg):
    t0 = time.perf_counter()
    problem = page_message_problem(msg)
    assert time.perf_counter() - t0 < 1.0
    assert problem is None or (isinstance(problem, str) and 0 < len(problem) <= 200)
    if problem is None:          # what passes is a well-framed shell message
        channel, *_ = deserialize_msg_from_ws_v1(msg)
        assert channel == "shell"


@pytest.mark.parametrize("depth", [1000, 20000])
def test_a_header_nested_past_the_parsers_limit_is_refused(depth):
    """json.loads raised RecursionError (not a ValueError) out of the handler."""
    msg = serialize_msg_to_ws_v1([b"[" * depth, b"{}", b"{}", b"{}"], "shell")
    assert page_message_problem(msg) == "a header or content that is not a JSON object"


ALLOWED = {"repo": "https://github.com/course/lessons", "branch": "main", "targetpath": ""}
LINK_TEXT = st.one_of(st.sampled_from(list(ALLOWED.values()) + ["x", ""]), st.text(max_size=300))


@FUZZ
@given(st.dictionaries(st.sampled_from(["repo", "branch", "targetpath", "other"]), LINK_TEXT),
       st.one_of(st.just(ALLOWED), st.fixed_dictionaries({k: LINK_TEXT for k in ALLOWED})))
def test_any_pull_link_gets_a_reason_or_is_the_lessons(args, allowed):
    problem = lessons_pull_problem(args, allowed)
    assert problem is None or (isinstance(problem, str) and 0 < len(problem) <= 400)
    if problem is None:
        assert allowed["repo"] and args.get("repo") == allowed["repo"]


@pytest.mark.parametrize("args, allowed", [(None, ALLOWED), ({"repo": 5}, ALLOWED),
                                           ({"repo": "x"}, {"repo": None}), ({}, [])])
def test_a_pull_check_given_what_no_link_holds_says_so(args, allowed):
    with pytest.raises(ValueError, match="must map"):
        lessons_pull_problem(args, allowed)


BASE = "/user/ada/"
#: What a crafted pull link's ``urlpath`` may hold to send a student somewhere else.
URLPATH_PIECES = ["voila/render/lessons/notebooks/index.ipynb", "/", "//", "\\", "..", "%2e",
                  "%2E%2e", "%5c", "evil.example", "https:", "javascript:", ":", "?", "#", "@",
                  "\t", "\n", "\x00", "hub/", "%2f", "."]


def _stays_under_base(urlpath: str) -> bool:
    """Where a browser on the student's page goes with the redirect made from ``urlpath``:
    under the student's own server, on the same origin."""
    from jupyter_server.utils import url_path_join

    page = page_after_pull(urlpath)
    if page is None:
        return True
    target = urllib.parse.urljoin("https://ada.hub.example" + BASE + "git-pull",
                                  url_path_join(BASE, page))
    resolved = urllib.parse.urljoin(target, urllib.parse.unquote(
        urllib.parse.urlsplit(target).path).replace("\\", "/"))
    return target.startswith("https://ada.hub.example" + BASE) and \
        resolved.startswith("https://ada.hub.example" + BASE)


@FUZZ
@given(st.one_of(st.text(max_size=60), st.lists(st.sampled_from(URLPATH_PIECES),
                                                max_size=8).map("".join)))
def test_a_pull_link_goes_on_only_to_a_page_of_the_students_own_server(urlpath):
    assert _stays_under_base(urlpath)


@pytest.mark.parametrize("urlpath", [
    "https://evil.example/x", "//evil.example/x", "///evil.example", "\\\\evil.example",
    "/\\evil.example", "voila/../../../hub/token", "voila/%2e%2e/%2E%2E/hub/token",
    "voila%2f..%2f..%2fhub", "javascript:alert(1)", "voila/render/x\n.ipynb", "", "x" * 3000])
def test_a_crafted_urlpath_is_left_to_nbgitpullers_page(urlpath):
    assert page_after_pull(urlpath) is None


def test_the_lessons_urlpath_goes_on_to_the_index():
    assert page_after_pull("voila/render/lessons/notebooks/index.ipynb") == \
        "voila/render/lessons/notebooks/index.ipynb"
    assert page_after_pull("/voila/render/a.ipynb") == "voila/render/a.ipynb"
    with pytest.raises(ValueError, match="urlpath is text"):
        page_after_pull(None)


@FUZZ
@given(st.one_of(st.sampled_from(["read", "write", "execute"]), st.text(max_size=8)),
       st.one_of(st.sampled_from(["kernels", "contents", "files", "terminals"]),
                 st.text(max_size=8)))
def test_a_student_may_read_and_run_kernels_only(action, resource):
    authorizer = pytest.importorskip("lessons_server.student_authorizer",
                                     reason="JupyterHub is installed by make hub-setup")
    assert authorizer.student_may(action, resource) == (
        action == "read" or (action, resource) == ("execute", "kernels"))
