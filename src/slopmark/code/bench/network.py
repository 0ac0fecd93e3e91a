"""How a failure that could not reach the network is told apart, and by what evidence.

The hidden tests run with the network off unless asked (see
docs/bench-evaluation.md, "Where slopmark differs on purpose"). A checkpoint
whose test failed for want of the network is the environment's error, not the
agent's — but only on evidence the submission cannot write:

- in the test phase, the test's own exception chain (the report plugin records a
  resolver error or an unreachable network from the exception objects, the
  ``offline`` field of a test record); text the submission prints never counts;
- in the dependency phase (network on), a fetch whose output says it could not
  reach its source counts only when the evaluator's own probe of its registries
  fails too (`deps`): a manifest or a workspace configuration that names an
  unreachable source is the submission's.

A refused connection is not a missing network in the test phase: the submission
itself may be the server a test connects to.
"""

from __future__ import annotations

#: What a fetch says when it could not reach its source (resolver, socket, curl, cargo,
#: npm): a name that does not resolve, no route, a refused or timed-out connection.
UNREACHABLE_MARKS = (
    "Temporary failure in name resolution", "Name or service not known",
    "Could not resolve host", "Network is unreachable", "No address associated with hostname",
    "nodename nor servname", "getaddrinfo failed", "Failed to establish a new connection",
    "Could not resolve hostname", "failed to lookup address",
    "Couldn't connect to server", "Could not connect to server", "Connection refused",
    "ECONNREFUSED", "ETIMEDOUT", "Connection timed out", "Operation timed out", "EAI_AGAIN",
    "ENOTFOUND", "ENETUNREACH",
)  # fmt: skip
NETWORK_OFF = "network is off during tests (turn it on with --test-network or evaluation.network)"


def unreachable(text: str | None) -> bool:
    """Whether a fetch's output (made with the network on) says it could not reach its source."""
    return bool(text) and any(mark in str(text) for mark in UNREACHABLE_MARKS)
