"""Sandboxes that run model-written code: bubblewrap, Docker, or (when asked) none.

`choose_sandbox` picks a backend by name ("auto" tries bwrap, then docker);
every backend implements `Sandbox.run` and reports limits in `Execution`.
"""

from slopmark.sandbox.base import (
    Execution,
    Limits,
    Mount,
    Sandbox,
    backend_names,
    choose_sandbox,
    register,
)

__all__ = ["Execution", "Limits", "Mount", "Sandbox", "backend_names", "choose_sandbox", "register"]
