"""The lesson page itself (share/jupyter/voila/templates/lessons): what it asks of the network.

Voila's lab template links Font Awesome's stylesheets from cdn.jsdelivr.net in the head, and
Voila starts the lesson only at the page's load event, which waits for them. On a network
that drops traffic to the internet (no answer, no refusal) the lesson did not start until
the browser gave up on them, about 30 s later. The lessons' template asks for them after
the load event instead.
"""

from __future__ import annotations

import re
import urllib.request

import pytest

import browser as h

LESSON = "02_euler_vs_slerp.ipynb"
CDN = "https://cdn.jsdelivr.net/"


def test_the_page_links_no_stylesheet_from_another_host(voila_server):
    with urllib.request.urlopen(voila_server.render_url(LESSON), timeout=120) as r:
        html = r.read().decode()
    links = re.findall(r"<link\b[^>]*>", html)
    assert any("stylesheet" in link for link in links)  # the page's own styles are there
    foreign = [link for link in links if re.search(r"href=\"(https?:)?//", link)]
    assert not foreign, f"stylesheets from another host hold the page back: {foreign}"


@pytest.mark.browser
def test_a_lesson_starts_while_the_icon_stylesheets_never_answer(voila_server, page):
    pending = []
    page.route(f"{CDN}**", lambda route: pending.append(route.request.url))  # never answered
    h.open_lesson(page, voila_server, LESSON, timeout=90_000)
    h.assert_no_error_text(page)
    asked = sorted(url.rsplit("/", 1)[-1] for url in pending)
    assert asked == ["all.min.css", "v4-shims.min.css"], asked  # asked for, still unanswered


@pytest.mark.browser
def test_the_icons_still_get_their_stylesheet(voila_server, page):
    marker = "i.fa { outline: 3px solid rgb(1, 2, 3); }"
    page.route(f"{CDN}**", lambda route: route.fulfill(
        status=200, content_type="text/css", body=marker if "all.min" in route.request.url
        else ""))
    h.open_lesson(page, voila_server, LESSON)
    page.wait_for_function(
        """() => { const i = document.querySelector('i.fa');
                   return i && getComputedStyle(i).outlineColor === 'rgb(1, 2, 3)'; }""",
        timeout=30_000)
