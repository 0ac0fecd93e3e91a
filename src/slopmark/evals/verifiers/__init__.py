"""Verifiers: one module per domain, registered by decorator (third parties via entry points).

A verifier reads only the model's final output (and, for multi-turn domains,
the transcript) and the task's private config, and returns a `Verdict`.
"""

from slopmark.evals.verifiers.base import (
    Check,
    Message,
    Verdict,
    Verifier,
    get_verifier,
    register,
    verifier_names,
)

__all__ = [
    "Check",
    "Message",
    "Verdict",
    "Verifier",
    "get_verifier",
    "register",
    "verifier_names",
]
