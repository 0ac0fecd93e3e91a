"""The worker side of every executor: run a unit's task, turn its own exception into a
`Failed` line (so no traceback crosses back), and name the node it ran on."""

from __future__ import annotations

import socket
from typing import Any

from slopmark import __version__
from slopmark.errors import BadInput
from slopmark.executor import Task, error_line
from slopmark.sweep.roster import Failed


def run_task(task: Task, driver_version: str) -> Any:
    """``task()``, or `Failed` with the one-line reason when it raised."""
    try:
        if driver_version != __version__:
            raise BadInput(
                f"this worker has slopmark {__version__}, the driver {driver_version}: "
                "install the same slopmark version on every node"
            )
        return task()
    except Exception as error:  # noqa: BLE001 - one unit's failure is recorded, the sweep goes on
        return Failed(error_line(error))


def host_name() -> str:
    return socket.gethostname()
