"""The trial hub's spawner: a student's server counts as started once it answers.

JupyterHub learns that a server it started is up by asking it for ``api`` with an
exponential back-off (``jupyterhub.utils.exponential_backoff``: waits drawn at random below
0.2, 0.4, 0.8, 1.6, 3.2 s, then 5 s), and has no setting for it. A student's server that is
up after 1.6 s was then found on average about a second later. :class:`ReadySpawner` asks
every :attr:`~ReadySpawner.ready_poll_s` seconds itself, before it hands the address back,
so the hub's own first request finds the server up. It gives up waiting (and lets the hub
report as usual) when the process ends or after ``http_timeout`` seconds.
"""

from __future__ import annotations

import asyncio
import time

from jupyterhub.spawner import SimpleLocalProcessSpawner
from tornado.httpclient import AsyncHTTPClient
from traitlets import Float


async def answers(url: str) -> bool:
    """Does a server answer ``url`` (any status below 500, as the hub counts it)?"""
    try:
        response = await AsyncHTTPClient().fetch(url, raise_error=False, request_timeout=5,
                                                 follow_redirects=False)
    except OSError:   # nothing listening yet
        return False
    return response.code < 500


class ReadySpawner(SimpleLocalProcessSpawner):
    """``SimpleLocalProcessSpawner`` whose ``start`` returns once the server answers."""

    ready_poll_s = Float(0.1, config=True,
                         help="Seconds between two checks that a starting server answers.")

    async def start(self):
        ip, port = await super().start()
        await self.wait_answering(f"http://{ip}:{port}{self.server.base_url}api")
        return ip, port

    async def wait_answering(self, url: str) -> int:
        """Ask ``url`` every :attr:`ready_poll_s` until it answers, the process ends or
        ``http_timeout`` passes; how many times it asked."""
        deadline = time.monotonic() + self.http_timeout
        asked = 0
        while time.monotonic() < deadline and self.proc is not None \
                and self.proc.poll() is None:
            asked += 1
            if await answers(url):
                break
            await asyncio.sleep(self.ready_poll_s)
        return asked
