"""``lessons-jupyterhub-singleuser``: JupyterHub's ``jupyterhub-singleuser``, the command
that starts each student's server (deploy/jupyterhub_config.py, deploy/z2jh/values.yaml),
without compiling the ``rfc3987_syntax`` grammar.

Every Jupyter server imports ``jsonschema`` (jupyter_events validates the server's event
schemas with it), and ``jsonschema`` imports ``rfc3987_syntax`` when it is installed (it
comes with ``jupyter-events``' ``jsonschema[format-nongpl]``), whose import builds some 35
Earley parsers: 1.1 CPU-seconds of a student's server start on this repository's 2-core
machine, 3.5 s of wall time when the machine is busy. It is only the checker of the JSON
Schema formats ``iri`` and ``iri-reference``, which no schema a student's server validates
uses (jupyter_events', jupyter_server's, nbformat's, Voila's, nbgitpuller's: checked by
tests/test_hub.py). ``jsonschema`` imports each format's library as optional (inside
``suppress(ImportError)``) and leaves a format whose library is missing unchecked, so
:func:`main` marks the module missing the way Python documents it (``sys.modules[name] =
None`` makes its import raise ImportError) and starts ``jupyterhub-singleuser`` as it is.
"""

from __future__ import annotations

import sys

#: Imported by ``jsonschema`` only to check the ``iri`` formats, which no schema here uses.
SKIPPED = ("rfc3987_syntax",)


def skip_unused_format_checkers() -> None:
    """Make the imports of :data:`SKIPPED` fail (unless one is loaded already)."""
    for name in SKIPPED:
        sys.modules.setdefault(name, None)


def main() -> int:
    skip_unused_format_checkers()
    from jupyterhub.singleuser import main as singleuser

    return singleuser()


if __name__ == "__main__":
    raise SystemExit(main())
