"""``slopmark store``: where the run store is.

The default store is ``slopmark.db`` in the user's data folder, whichever folder a
command runs in; ``--db`` and then ``$SLOPMARK_DB`` name another one.
"""

from __future__ import annotations

import os
import sys

import typer

from slopmark.cli.options import DB_HELP, non_empty

app = typer.Typer(help="The run store: where it is.", no_args_is_help=True)


@app.callback()
def store() -> None:
    """The run store: where it is."""


@app.command()
def path(
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    default: bool = typer.Option(
        False, "--default", help="The default store, whatever --db or $SLOPMARK_DB say."
    ),
) -> None:
    """Print the store the commands use: --db, else $SLOPMARK_DB, else the default.

    The default is slopmark.db in the user data folder: $XDG_DATA_HOME/slopmark
    (else ~/.local/share/slopmark) on Linux, ~/Library/Application Support/slopmark
    on macOS, %LOCALAPPDATA%\\slopmark on Windows. A SQLite store prints as its
    file's path, any other as its URL without the password; the file need not
    exist yet (the first `eval paste` or `eval run` creates it).
    """
    from slopmark.cli.store import legacy_note, shown
    from slopmark.store.location import ENV_VAR, locate

    non_empty(db, "--db")
    environ = {k: v for k, v in os.environ.items() if k != ENV_VAR} if default else os.environ
    location = locate(None if default else db, environ)
    print(shown(location.url))
    note = legacy_note(location)
    if note:
        print(f"slopmark: {note}", file=sys.stderr)
