"""Server side of the classroom setup: loaded by Voila (``voila.json``), never by a lesson.

Voila 0.5's kernel websocket handler reads the header of every binary message it forwards
as if the client spoke the ``v1.kernel.websocket.jupyter.org`` protocol. A client that
connects without that subprotocol gets the legacy framing instead, whose first bytes,
read as the v1 offset count, are a number in the billions: one ipympl image sent to such a
client keeps Voila's only thread busy building a list of that length, and every student's
page stops answering. Browsers running Voila's page always ask for v1, so this connection
class refuses the legacy protocol up front (websocket close code 1008, policy violation).

Kept apart from :mod:`lessons_lib.apps` and the maths: it imports jupyter_server.
"""

from __future__ import annotations

import asyncio

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"


class V1OnlyWebsocketConnection(ZMQChannelsWebsocketConnection):
    """A kernel websocket that only speaks the v1 protocol; legacy clients are closed."""

    _refused = False

    def connect(self):
        if self.subprotocol != V1_PROTOCOL:
            self._refused = True
            self.log.warning("Refused a kernel websocket without the %s subprotocol (kernel %s)",
                             V1_PROTOCOL, self.kernel_id)
            self.websocket_handler.close(1008, f"only the {V1_PROTOCOL} protocol is served")
            done = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done
        return super().connect()

    def disconnect(self):
        if self._refused:
            return None
        return super().disconnect()

    def handle_incoming_message(self, incoming_msg) -> None:
        if self._refused:
            return
        super().handle_incoming_message(incoming_msg)
