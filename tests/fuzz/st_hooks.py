"""A schemathesis hooks file (``SCHEMATHESIS_HOOKS``): one line per response, so a long run
counts status codes per operation without keeping every body (see `apifuzz`)."""

from __future__ import annotations

import os
from typing import Any

import schemathesis

LOG = os.environ.get("SLOPMARK_FUZZ_LOG", "responses.tsv")


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(f"{case.operation.label}\t{response.status_code}\n")
