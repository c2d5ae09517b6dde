"""A hub student's lesson 1, made ahead (lessons_server/preheat.py): its kernel started as
the server starts, under the same memory cap as every kernel, with the lesson's modules
imported; its page made in it once the lessons are on the server, and handed to the first
request for lesson 1 only; any other page gets a kernel of its own, and it happens once."""

from __future__ import annotations

import psutil
import pytest

import browser as harness
from lessons import FIRST, LESSONS

FOLDER = "lessons/notebooks"


class FakeRenderer:
    """Stands in for Voila's NotebookRenderer: records the kernel the page is made in."""

    def __init__(self, path: str):
        self.notebook_path, self.rendered_cache, self.stop_generator = path, [], False
        self.made_in = None

    async def initialize(self):
        from types import SimpleNamespace

        self.notebook = SimpleNamespace(metadata=SimpleNamespace(
            kernelspec=SimpleNamespace(name="python3")))

    async def generate_content_hybrid(self, kernel_id, kernel_future):
        self.made_in = kernel_id
        self.rendered_cache.append("<p>the lesson</p>")

        async def rest():
            yield "<p>the end</p>", None
        return ["<p>the lesson</p>"], rest()


async def run_in(km, kernel_id: str, code: str) -> str:
    """What ``code`` prints in the kernel ``kernel_id`` of ``km``."""
    out: list[str] = []
    kc = km.get_kernel(kernel_id).client()
    kc.start_channels()
    try:
        # A new client's iopub subscription takes a moment: without waiting for it (kernel
        # info until iopub answers), the printed lines can be sent before it listens.
        await kc.wait_for_ready(timeout=60)
        reply = await kc.execute_interactive(
            code, timeout=60, output_hook=lambda msg: out.append(msg["content"].get("text", "")))
        assert reply["content"]["status"] == "ok"
        return "".join(out).strip()
    finally:
        kc.stop_channels()


@pytest.mark.slow   # starts two kernels
def test_lesson_ones_page_is_made_ahead_in_the_kernel_warmed_for_it(tmp_path):
    """The kernel starts (and imports the lesson's modules) before the lessons are there;
    once they are, the page is made in it, in the lesson's folder, and handed to the first
    request for lesson 1 only; that kernel is not culled while it waits, and is made once."""
    from lessons_server.classroom import _kernel_pid
    from lessons_server.preheat import PreheatingKernelManager, warm_up_code

    assert FIRST.apps[0][1] in warm_up_code()
    page = f"{FOLDER}/{FIRST.notebook}"

    async def scenario():
        km = PreheatingKernelManager(root_dir=str(tmp_path), lessons_folder=FOLDER)
        km.kernel_manager_class = "lessons_server.memcap.CappedKernelManager"
        try:
            assert not km.preheat("/user/ada/")        # Voila not loaded yet: nothing to make
            km.page_renderer = FakeRenderer
            assert not km.preheat("/user/ada/")        # no lessons on the server yet
            warm = await km._kernel                     # ... but the kernel is warming
            assert km.notebook_data == {} and km.get_pool_size(page) == 0
            assert await km.cull_kernel_if_idle(warm) is None and warm in km
            (tmp_path / FOLDER).mkdir(parents=True)
            (tmp_path / FOLDER / FIRST.notebook).write_text("{}")
            assert km.preheat("/user/ada/") and not km.preheat("/user/ada/")
            assert km.get_pool_size(page) == 1 and page in km.notebook_data
            assert km.get_pool_size(f"{FOLDER}/{LESSONS[1].notebook}") == 0
            with pytest.raises(ValueError, match="no page"):
                await km.get_rendered_notebook(f"{FOLDER}/{LESSONS[1].notebook}")
            return await checks(km, warm)
        finally:
            await km.shutdown_all(now=True)

    async def checks(km, warm):
        capped = psutil.Process(_kernel_pid(km.get_kernel(warm))).cmdline()
        task, cache, kernel = await km.get_rendered_notebook(page)
        rendered, rest = await task
        tail = [html async for html, _ in rest]
        where = await run_in(km, kernel, "import os, sys; print(os.getcwd()); "
                                         f"print({FIRST.apps[0][1]!r} in sys.modules)")
        again = km.get_pool_size(page), km.notebook_data
        return capped, warm, kernel, cache, rendered, tail, where, again

    capped, warm, kernel, cache, rendered, tail, where, again = harness.run_async(
        scenario(), timeout=300)
    assert "lessons_server.memcap" in capped
    assert kernel == warm and cache == rendered == ["<p>the lesson</p>"]
    assert tail == ["<p>the end</p>"]
    assert where.splitlines() == [str(tmp_path / FOLDER), "True"]
    assert again == (0, {})                             # the next page makes its own
