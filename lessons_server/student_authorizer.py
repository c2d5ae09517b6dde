"""What a student may do on their own server behind the hub, as Jupyter Server's
authorizer (``ServerApp.authorizer_class``, set for students by
``deploy/singleuser/jupyter_server_config.py``).

JupyterHub's own authorizer decides whether the user may use this server at all; then a
student may read (their files, the lessons, a kernel's model) and speak to a lesson's kernel
through its websocket, whose messages :class:`lessons_server.classroom.PageWebsocketConnection`
narrows to widget and comm messages. Every write through the REST API is refused: no file
saved or uploaded (a notebook of one's own that Voila would then run), no kernel or session
started, interrupted or restarted, no terminal. Voila starts each lesson's kernel itself, and
nbgitpuller pulls the lessons without the REST API, so the lessons need none of these.
Imports JupyterHub: only a hub's single-user server loads it.
"""

from __future__ import annotations

from jupyterhub.singleuser.extension import JupyterHubAuthorizer


def student_may(action: str, resource: str) -> bool:
    """May a student do ``action`` (read, write, execute) on ``resource`` (Jupyter Server's
    names: contents, kernels, files, ...)?"""
    return action == "read" or (action == "execute" and resource == "kernels")


class StudentAuthorizer(JupyterHubAuthorizer):
    def is_authorized(self, handler, user, action, resource):
        if not student_may(action, resource):
            self.log.warning("Refused %s on %s for a student (%s %s)", action, resource,
                             handler.request.method, handler.request.path)
            return False
        return super().is_authorized(handler, user, action, resource)
