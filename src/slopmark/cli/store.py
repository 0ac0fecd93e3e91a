"""The run store as the commands open it: ``--db``, else ``$SLOPMARK_DB``, else the default."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from slopmark.store.location import locate

if TYPE_CHECKING:
    from sqlalchemy import Engine


def open_cli_store(db: str | None) -> Engine:
    """The store ``--db`` (or ``$SLOPMARK_DB``) names, opened and migrated; its errors name
    the option or the variable the URL came from."""
    from slopmark.store import open_store

    location = locate(db, os.environ)
    return open_store(location.url, location.origin)
