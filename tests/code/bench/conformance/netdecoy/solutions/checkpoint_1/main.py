"""A failing submission that blames the network: it prints what a resolver and cargo say
when they cannot reach it, hoping its failure is taken for an environment error."""

import sys

sys.stderr.write(
    "urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>\n"
    "OSError: [Errno 101] Network is unreachable\n"
    "error: failed to download: you're using offline mode\n"
)
sys.exit(1)
