"""What a lesson page's kernel websocket lets through (lessons_server.classroom.
page_message_problem), message by message as the v1 protocol frames them. The same
messages through a real room are tests/test_room_memory.py; through the hub, tests/test_hub.py."""

from __future__ import annotations

import json

import pytest
from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

from lessons_server.classroom import MAX_PAGE_MESSAGE, page_message_problem


def frame(msg_type: str, content: dict, channel: str = "shell", buffers=()) -> bytes:
    header = {"msg_id": "1", "msg_type": msg_type, "session": "s", "username": "u",
              "version": "5.3", "date": ""}
    parts = [json.dumps(x).encode() for x in (header, {}, {}, content)] + list(buffers)
    return serialize_msg_to_ws_v1(parts, channel)


@pytest.mark.parametrize("msg", [
    frame("comm_msg", {"comm_id": "a", "data": {"method": "update", "state": {"value": 3}}}),
    frame("comm_open", {"comm_id": "c", "target_name": "jupyter.widget.control", "data": {}}),
    frame("kernel_info_request", {}),
    frame("comm_info_request", {}),
])
def test_what_a_lesson_page_sends_passes(msg):
    assert page_message_problem(msg) is None


def test_a_page_cannot_open_widgets_of_its_own():
    msg = frame("comm_open", {"comm_id": "c", "target_name": "jupyter.widget",
                              "data": {"state": {"_model_name": "ImageModel"}}})
    assert "comm_open for 'jupyter.widget'" in page_message_problem(msg)


def test_a_page_cannot_send_megabytes():
    msg = frame("comm_msg", {"comm_id": "a", "data": {"method": "update",
                                                      "state": {"value": "x" * 5 * 2**20}}})
    assert f"at most {MAX_PAGE_MESSAGE}" in page_message_problem(msg)
    big = frame("comm_msg", {"comm_id": "a", "data": {}}, buffers=[b"\0" * (8 * 2**20)])
    assert "bytes" in page_message_problem(big)


@pytest.mark.parametrize("crafted, says", [
    (b"\xff" * 8 + b"shell", "offsets"),                     # an offset count in the billions
    (b"", "offsets"),
    ("a text frame", "text frame"),
    (frame("kernel_info_request", {}, channel="control"), "channel"),
    (frame("kernel_info_request", {})[:60], "offsets"),      # cut short
])
def test_a_crafted_frame_is_refused_before_it_is_read(crafted, says):
    assert says in page_message_problem(crafted)


def test_a_frame_whose_offsets_point_outside_it_is_refused():
    msg = bytearray(frame("kernel_info_request", {}))
    msg[16:24] = (10**6).to_bytes(8, "little")    # the channel's end, far past the frame
    assert "offsets" in page_message_problem(bytes(msg))
