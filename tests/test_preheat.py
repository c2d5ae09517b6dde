"""A hub student's lesson 1 kernel, pre-heated (lessons_server/preheat.py): started once the
lessons are on the server, under the same memory cap as every kernel, with the lesson's
modules imported, and handed to the first page of lesson 1 that asks; any other page gets
a kernel of its own, and the server pre-heats once only."""

from __future__ import annotations

import psutil
import pytest

import browser as harness
from lessons import FIRST, LESSONS

FOLDER = "lessons/notebooks"


def page_env(notebook: str) -> dict:
    """The environment Voila's page handler starts a kernel with (what it matters here)."""
    return {"SCRIPT_NAME": f"/user/ada/voila/render/{FOLDER}/{notebook}",
            "VOILA_BASE_URL": "/user/ada/"}


async def imported(km, kernel_id: str, module: str) -> bool:
    """Has the kernel ``kernel_id`` of ``km`` imported ``module`` already?"""
    out: list[str] = []
    kc = km.get_kernel(kernel_id).client()
    kc.start_channels()
    try:
        reply = await kc.execute_interactive(
            f"import sys; print({module!r} in sys.modules)", timeout=60,
            output_hook=lambda msg: out.append(msg["content"].get("text", "")))
        return reply["content"]["status"] == "ok" and "True" in "".join(out)
    finally:
        kc.stop_channels()


@pytest.mark.slow   # starts three kernels
def test_lesson_one_gets_the_kernel_started_for_it(tmp_path):
    from lessons_server.classroom import _kernel_pid
    from lessons_server.preheat import PreheatingKernelManager, warm_up_code

    assert FIRST.apps[0][1] in warm_up_code()
    other = LESSONS[1]

    async def scenario():
        km = PreheatingKernelManager(root_dir=str(tmp_path), lessons_folder=FOLDER)
        km.kernel_manager_class = "lessons_server.memcap.CappedKernelManager"
        try:
            assert not km.preheat("/user/ada/")        # no lessons on the server yet
            (tmp_path / FOLDER).mkdir(parents=True)
            (tmp_path / FOLDER / FIRST.notebook).write_text("{}")
            assert km.preheat("/user/ada/") and not km.preheat("/user/ada/")
            warm = await km._warm
            capped = psutil.Process(_kernel_pid(km.get_kernel(warm))).cmdline()
            elsewhere = await km.start_kernel(path=FOLDER, env=page_env(other.notebook),
                                              kernel_name="python3")
            first = await km.start_kernel(path=FOLDER, env=page_env(FIRST.notebook),
                                          kernel_name="python3")
            again = await km.start_kernel(path=FOLDER, env=page_env(FIRST.notebook),
                                          kernel_name="python3")
            warmed = await imported(km, first, FIRST.apps[0][1])
            return warm, capped, elsewhere, first, again, warmed
        finally:
            await km.shutdown_all(now=True)

    warm, capped, elsewhere, first, again, warmed = harness.run_async(scenario(), timeout=300)
    assert "lessons_server.memcap" in capped
    assert first == warm and elsewhere != warm and again not in (warm, elsewhere)
    assert warmed
