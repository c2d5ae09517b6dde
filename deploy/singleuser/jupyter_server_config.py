"""Each student's Jupyter server behind the hub: the lessons' own ``voila.json`` applies.

The hub starts ``jupyterhub-singleuser`` with this folder on ``JUPYTER_CONFIG_PATH``
(deploy/jupyterhub_config.py does, and the image of deploy/image/Dockerfile puts this
file in /etc/jupyter). Voila runs there as a server extension, not as the ``voila``
command ``make voila`` and ``make classroom`` start, so the settings of voila.json are
mapped onto the server:

- ``VoilaConfiguration`` and ``VoilaExecutor``: as they are (no tracebacks on the page,
  sources stripped, images only from /voila/files, the executor's timeout);
- ``Voila.kernel_websocket_connection_class`` (kernel websockets speak v1 only) becomes
  the server's own setting;
- ``MappingKernelManager`` (a lesson's kernel is culled after 15 idle minutes);
- the ``lessons`` page template, found through JUPYTER_PATH, and Voila's classic tree.

Voila's pre-heated kernel pools (``preheat_kernel``, ``VoilaKernelManager``) exist only in
the ``voila`` command; behind a hub a student's server makes lesson 1's page ahead itself
(:mod:`lessons_server.preheat`), and every other page starts its kernel when opened.

``LESSONS_ROLE`` (set by the hub from the user's admin flag) is ``teacher`` or
``student``: a student's server offers the Voila pages (and nbgitpuller) but not
JupyterLab or a terminal, which only the teacher needs.

What a student may do there (docs/hub.md, "What a student can reach"), with Jupyter
Server's own settings where it has one:

- every route needs the student's login (``allow_unauthenticated_access = False``, and
  :mod:`lessons_server.student_server` for Voila's plain static handlers);
- links pull only the lessons (:mod:`lessons_server.student_server`, which loads Voila and
  nbgitpuller itself);
- no code runs but the lessons': the kernel websocket passes only widget and comm messages
  (``allowed_message_types`` and ``PageWebsocketConnection``, as in the room), and the
  authorizer refuses every write through the REST API (files, new kernels, sessions);
- each kernel runs under the room's memory cap and resident-memory watch, and is not
  restarted (its page says it stopped and offers a reload).

A teacher's server keeps JupyterLab, plain kernel websockets and the whole REST API.
"""

import json
import os
from pathlib import Path

c = get_config()  # noqa: F821 - provided by the Jupyter config loader

_here = Path(__file__).resolve().parent
_default = _here / "voila.json"  # the image's layout (deploy/image/Dockerfile)
if not _default.exists():
    _default = _here.parent.parent / "voila.json"  # the repository's layout
VOILA_JSON = Path(os.environ.get("LESSONS_VOILA_JSON") or _default)
settings = json.loads(VOILA_JSON.read_text())

c.VoilaConfiguration.update(settings.get("VoilaConfiguration", {}))
c.VoilaConfiguration.template = "lessons"
# Students land on the lessons' index page (values.yaml's defaultUrl); the file tree is
# still there at /voila/tree. Voila 0.5's JupyterLab-style tree opens at the server's root
# whatever folder the address names (the home, not ~/game-maths-lessons/notebooks); the
# classic tree lists the folder asked for, as plain links.
c.VoilaConfiguration.classic_tree = True
c.VoilaExecutor.update(settings.get("VoilaExecutor", {}))
c.MappingKernelManager.update(settings.get("MappingKernelManager", {}))
# Kernels talk to this server over Unix sockets, not TCP ports on 127.0.0.1. Every
# student's server on a host picks its kernels' ports at random, and a port picked but
# not yet bound can be taken by another process in the same moment: in a trial hub's CI
# run one student's kernel failed to bind 127.0.0.1:37183 ("Address already in use"),
# died before replying, failed every restart on the same port, and the student's page
# never came (twice in seven runs). Socket files are per kernel, in the user's runtime
# folder (JUPYTER_RUNTIME_DIR, set short by the hub).
c.KernelManager.transport = "ipc"
# Nothing under /user/<name>/ answers without that user's login (Jupyter Server's switch;
# lessons_server.student_server covers the handlers it cannot reach). Voila and nbgitpuller
# are loaded by that extension, after them, so their own loaders are off here.
c.ServerApp.allow_unauthenticated_access = False
c.ServerApp.jpserver_extensions = {"voila": False, "nbgitpuller": False,
                                   "lessons_server.student_server": True}
# Each lesson's kernel under the room's memory cap and resident watch; never restarted.
c.MultiKernelManager.kernel_manager_class = "lessons_server.memcap.CappedKernelManager"
c.KernelRestarter.restart_limit = 0
c.VoilaConfiguration.resources = {"lessons_logout_url": os.environ.get(
    "JUPYTERHUB_SERVICE_PREFIX", "/") + "logout"}

if os.environ.get("LESSONS_ROLE", "student") != "teacher":
    c.ServerApp.jpserver_extensions.update({"jupyterlab": False, "notebook": False,
                                            "nbclassic": False})
    c.ServerApp.terminals_enabled = False
    c.ServerApp.kernel_websocket_connection_class = settings["Voila"][
        "kernel_websocket_connection_class"]
    c.ServerApp.authorizer_class = "lessons_server.student_authorizer.StudentAuthorizer"
    # lesson 1's page made (its kernel under the same cap) before the student opens it
    c.ServerApp.kernel_manager_class = "lessons_server.preheat.PreheatingKernelManager"
else:  # JupyterLab runs code: the whole kernel protocol, and the plain v1 websocket
    c.MappingKernelManager.allowed_message_types = []
    c.ServerApp.kernel_websocket_connection_class = \
        "lessons_server.classroom.V1OnlyWebsocketConnection"
