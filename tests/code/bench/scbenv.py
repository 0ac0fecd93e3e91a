"""Skip marks for tests that run hidden tests under the default (scb) evaluation profile.

That profile wants bubblewrap (the sandbox) and SlopCodeBench's Python 3.12;
`.ci/run` installs both. Without them these tests skip, saying why.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from slopmark.code.bench.profiles import SCB_PYTHON, host_of
from slopmark.code.bench.pythons import PythonSearch, find_python

HAS_SCB_PYTHON = find_python(host_of(os.environ).pythons, SCB_PYTHON) is not None

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
needs_scb_python = pytest.mark.skipif(
    not HAS_SCB_PYTHON, reason=f"needs Python {SCB_PYTHON} (the scb profile's; .ci/run installs it)"
)


def hidden_312_environment(tmp_path: Path) -> dict[str, str]:
    """An environment in which discovery finds no 3.12: no pyenv, a bare PATH, an empty HOME
    (so no uv-managed Pythons); skips the test when 3.12 sits in /usr/bin all the same."""
    (tmp_path / "home").mkdir()
    env = {**os.environ, "PYENV_ROOT": str(tmp_path / "no-pyenv"), "PATH": "/usr/bin:/bin"}
    env["HOME"] = str(tmp_path / "home")
    env.pop("CARGO_HOME", None)
    search = PythonSearch.of_environment(env, host_of(env).pythons.uv)
    if find_python(search, SCB_PYTHON) is not None:
        pytest.skip(f"Python {SCB_PYTHON} is in /usr/bin here: it cannot be hidden")
    return env
