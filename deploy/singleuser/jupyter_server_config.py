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

Pre-heated kernel pools (``preheat_kernel``, ``VoilaKernelManager``) exist only in the
``voila`` command, so behind a hub each page starts its kernel when it is opened.

``LESSONS_ROLE`` (set by the hub from the user's admin flag) is ``teacher`` or
``student``: a student's server offers the Voila pages (and nbgitpuller) but not
JupyterLab or a terminal, which only the teacher needs.
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
# The list students land on: Voila 0.5's JupyterLab-style tree opens at the server's root
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
websocket_class = settings.get("Voila", {}).get("kernel_websocket_connection_class")
if websocket_class:
    c.ServerApp.kernel_websocket_connection_class = websocket_class

if os.environ.get("LESSONS_ROLE", "student") != "teacher":
    c.ServerApp.jpserver_extensions = {"jupyterlab": False, "notebook": False,
                                       "nbclassic": False}
    c.ServerApp.terminals_enabled = False
