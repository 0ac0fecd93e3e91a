"""Where the shared real-paper corpus is: ``$SLOPMARK_CORPUS``, else ``../shared/corpora/papers``
beside the project folder. Tests that read it skip, saying so, when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

CORPUS = Path(
    os.environ.get("SLOPMARK_CORPUS")
    or Path(__file__).resolve().parents[2] / "shared" / "corpora" / "papers"
)
