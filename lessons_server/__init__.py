"""The server side of the lessons: Voila plug-ins (``voila.json`` names
:class:`lessons_server.classroom.V1OnlyWebsocketConnection`), the room's kernel pool and
static-file caches (:mod:`.classroom`), and ``make classroom``'s launcher (:mod:`.room`).

Installed with the ``server`` extra (``pip install -e '.[server]'``); :mod:`lessons_lib` (the
maths and the apps) never imports it and installs without Voila or JupyterLab.
"""
