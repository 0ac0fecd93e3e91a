"""How a failure that could not reach the network is told apart.

The hidden tests run with the network off unless asked (see
docs/bench-evaluation.md, "Where slopmark differs on purpose"). A test or a
dependency fetch that fails because of it says so in its output: a name that
does not resolve, an unreachable network, a tool told to stay offline. Such a
failure is the environment's, never the agent's. A refused connection is not
one of them: the submission itself may be the server a test connects to.
"""

from __future__ import annotations

#: What a failure says when it could not reach the network (resolver, socket, curl,
#: urllib3, cargo and npm told to stay offline).
NETWORK_MARKS = (
    "Temporary failure in name resolution", "Name or service not known",
    "Could not resolve host", "Network is unreachable", "No address associated with hostname",
    "nodename nor servname", "getaddrinfo failed", "Failed to establish a new connection",
    "Could not resolve hostname", "failed to lookup address",
    "you're using offline mode", "but --offline was specified", "ENOTCACHED",
)  # fmt: skip
#: What a fetch says when its registry could not be reached: with the network on (the
#: dependency phase) a refused or timed-out connection is the registry's or the network's.
UNREACHABLE_MARKS = (
    "Couldn't connect to server", "Could not connect to server", "Connection refused",
    "ECONNREFUSED", "ETIMEDOUT", "Connection timed out", "Operation timed out", "EAI_AGAIN",
)  # fmt: skip
NETWORK_OFF = "network is off during tests (turn it on with --test-network or evaluation.network)"


def network_failure(text: str | None) -> bool:
    """Whether ``text`` (a failure's message or traceback) shows the network was out of reach."""
    return bool(text) and any(mark in str(text) for mark in NETWORK_MARKS)


def unreachable(text: str | None) -> bool:
    """Whether a fetch made with the network on failed to reach its registry (`network_failure`
    or a refused or timed-out connection)."""
    return network_failure(text) or (bool(text) and any(m in str(text) for m in UNREACHABLE_MARKS))
