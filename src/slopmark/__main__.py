"""``python -m slopmark``."""

from slopmark.cli.main import main

main()
