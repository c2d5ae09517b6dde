"""What a student's crafted page sends a lesson's kernel over its websocket (issue 40),
shared by the room's and the hub's attack tests: run code, open widgets of its own, and
hand the kernel megabytes. Each function speaks the v1 kernel protocol as a page does."""

from __future__ import annotations

import json
import time
import uuid

from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

#: One crafted Image widget's buffer: what the flood of issue 40 opened, 97 times.
IMAGE_BYTES = 8 * 2**20


def send(kernel, msg_type: str, content: dict, buffers: list[bytes] = ()) -> str:
    """A shell message with ``buffers``, as a page (``protocol_student._Kernel``) sends."""
    header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student",
              "session": kernel.session, "version": "5.3", "date": "2026-12-05T00:00:00Z"}
    parts = [json.dumps(x).encode() for x in (header, {}, {}, content)] + list(buffers)
    kernel.ws.write_message(serialize_msg_to_ws_v1(parts, "shell"), binary=True)
    return header["msg_id"]


def execute(kernel, code: str) -> str:
    return send(kernel, "execute_request", {
        "code": code, "silent": False, "store_history": False, "user_expressions": {},
        "allow_stdin": False, "stop_on_error": True})


def open_image_widget(kernel, size: int = IMAGE_BYTES) -> str:
    """A page's own ``jupyter.widget`` comm: an Image model holding ``size`` bytes."""
    comm_id = uuid.uuid4().hex
    send(kernel, "comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget", "data": {
        "state": {"_model_name": "ImageModel", "_model_module": "@jupyter-widgets/controls",
                  "_model_module_version": "2.0.0", "_view_name": "ImageView",
                  "_view_module": "@jupyter-widgets/controls",
                  "_view_module_version": "2.0.0", "format": "png"},
        "buffer_paths": [["value"]]}}, [b"\0" * size] if size else [])
    return comm_id


async def reply_to(kernel, msg_id: str, timeout: float = 60.0) -> dict:
    """The kernel's reply to ``msg_id`` (other messages are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        channel, msg, _ = await kernel.next(deadline)
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"].endswith("_reply"):
            return msg


async def comm_ids(kernel) -> set[str]:
    """The comms the kernel holds (its answer to ``comm_info_request``); the answer also
    shows that every message sent before it was handled."""
    msg = await reply_to(kernel, send(kernel, "comm_info_request", {}))
    return set(msg["content"]["comms"])


async def replies_after(kernel, msg_ids: set[str], until: str, timeout: float = 60.0) -> set:
    """Which of ``msg_ids`` got any reply before the reply to ``until``."""
    seen = set()
    deadline = time.monotonic() + timeout
    while True:
        channel, msg, _ = await kernel.next(deadline)
        parent = msg["parent_header"].get("msg_id")
        if parent in msg_ids:
            seen.add(parent)
        if parent == until and msg["msg_type"].endswith("_reply"):
            return seen


async def widget_state(kernel, comm_id: str, timeout: float = 60.0) -> dict:
    """The state the kernel holds for widget ``comm_id`` (ipywidgets' ``request_state``)."""
    send(kernel, "comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}})
    deadline = time.monotonic() + timeout
    while True:
        channel, msg, _ = await kernel.next(deadline)
        content = msg.get("content") or {}
        if msg["msg_type"] == "comm_msg" and content.get("comm_id") == comm_id \
                and content.get("data", {}).get("method") == "update":
            return content["data"]["state"]
