"""Entry script of logq: run ``python main.py --help`` for usage."""

from __future__ import annotations

import sys

from logq.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
