"""Starts pytest on the hidden tests: ``python -I -B run_hidden_tests.py ARGS``.

In isolated mode the session's ``sys.path`` holds neither the working folder
(the submission's workspace), nor ``PYTHONPATH``, nor the user's site folder;
this script puts its own folder (the harness's plugin) in front. So nothing
the submission wrote is imported as pytest, a plugin or a standard module.
SlopCodeBench's ``uvx pytest`` also starts from a script, not ``python -m``.
"""

import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

    import pytest

    sys.exit(pytest.main())
