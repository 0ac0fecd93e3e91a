"""Alembic environment: migrate the connection slopmark hands over, or a URL given with -x."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Connection, create_engine

from slopmark.store.location import default_url
from slopmark.store.schema import metadata


def _migrate(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or default_url(os.environ)
    with create_engine(url).connect() as fresh:
        _migrate(fresh)


run()
