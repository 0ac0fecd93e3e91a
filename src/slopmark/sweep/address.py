"""Check a Ray ``--address`` before Ray is given it.

Ray retries an address that does not answer, or answers something other than
Ray, for ever. So the address is resolved and knocked on first: a TCP connect,
then the HTTP/2 connection preface every gRPC server (Ray's GCS and its client
server) answers with a SETTINGS frame (RFC 9113, section 3.4). Anything else is
one clear error.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

from slopmark.errors import BadInput

#: Where ``ray start --head`` on this machine writes its address (what "auto" reads).
CURRENT_CLUSTER = Path("/tmp/ray/ray_current_cluster")
TIMEOUT_S = 5.0
_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_EMPTY_SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
_SETTINGS_TYPE = 4
_START_HINT = "start one with `ray start --head` or pass the head's HOST:PORT"


def _auto() -> str:
    found = os.environ.get("RAY_ADDRESS", "").strip()
    if found:
        return found
    try:
        found = CURRENT_CLUSTER.read_text(encoding="utf-8").strip()
    except OSError:
        found = ""
    if not found:
        raise BadInput(f"--address auto: no Ray cluster was started on this machine; {_START_HINT}")
    return found


def _host_port(address: str, shown: str) -> tuple[str, int]:
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BadInput(f"--address {shown!r}: expected auto, HOST:PORT or ray://HOST:PORT")
    return host.strip("[]"), int(port)


def _speaks_grpc(host: str, port: int, shown: str) -> None:
    try:
        with socket.create_connection((host, port), timeout=TIMEOUT_S) as connection:
            connection.settimeout(TIMEOUT_S)
            connection.sendall(_PREFACE + _EMPTY_SETTINGS)
            head = connection.recv(9)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise BadInput(
            f"--address {shown!r}: no Ray cluster answers at {host}:{port} ({reason}); "
            + _START_HINT
        ) from None
    if len(head) < 4 or head[3] != _SETTINGS_TYPE:
        raise BadInput(
            f"--address {shown!r}: {host}:{port} answers, but not as a Ray cluster "
            "(no gRPC); pass the port of the head's GCS (ray start --head --port)"
        )


def check_address(address: str) -> str:
    """The address to give ``ray.init`` once a Ray service answers there; else BadInput."""
    shown = address
    if address == "auto":
        address = _auto()
    host, port = _host_port(address, shown)
    _speaks_grpc(host, port, shown)
    return address
