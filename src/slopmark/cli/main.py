"""The ``slopmark`` console script.

Every error a user can cause ends as one line on stderr: ``slopmark: error: …``
with exit code 2 (bad input or usage) or 1 (a gate or check failed). Typer's
usage errors (a missing argument, a value out of range, an unknown option)
are given the same one-line form instead of Rich's boxed panel. A reader
that closes the pipe early (``slopmark code rules | head -1``) is not an
error: the command stops quietly with 141, as other Unix tools do.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from slopmark import __version__
from slopmark.cli.lazy import LazyGroup
from slopmark.errors import SlopmarkError

PROG = "slopmark"
#: The exit status of a process killed by SIGPIPE (128 + 13), what shells report for
#: ``yes | head -1``.
CLOSED_PIPE_EXIT = 141


class ClosedPipe(Exception):
    """stdout's reader went away. Raised instead of `BrokenPipeError` (which Typer turns
    into exit code 1) and of the ``SystemExit(1)`` Rich raises on a broken pipe."""


class RootGroup(LazyGroup):
    """The root command: a closed stdout becomes `ClosedPipe`. Each command group is
    imported only when it runs (or its help or completion is asked for)."""

    lazy = {
        "serve": "slopmark.cli.serve:serve",
        "code": "slopmark.cli.code:app",
        "tasks": "slopmark.cli.tasks:app",
        "eval": "slopmark.cli.evals:app",
        "paper": "slopmark.cli.paper:app",
        "stats": "slopmark.cli.stats:app",
        "board": "slopmark.cli.board:app",
        "store": "slopmark.cli.store_group:app",
    }

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as error:
            raise ClosedPipe() from error
        except SystemExit as error:
            if isinstance(error.__context__, BrokenPipeError):
                raise ClosedPipe() from error
            raise


app = typer.Typer(
    name=PROG,
    cls=RootGroup,
    help="Measure AI slop in code, papers and model answers, and rank the systems that produce it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # every subcommand's context inherits these names from the root's
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        print(f"slopmark {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """slopmark: code, paper and model slop, measured and ranked."""


def usage_line(error: typer.TyperException) -> str | None:
    """A Typer/Click usage error as one line naming the command; None for the help that
    a group prints when called without a command (it has been printed already)."""
    if type(error).__name__ == "NoArgsIsHelpError":
        return None
    context = getattr(error, "ctx", None)
    message = " ".join(error.format_message().split())
    value = _given_value(getattr(error, "param", None))
    if value is not None:
        message = f"{message} (given {value!r})"
    if context is None:
        return message
    command = context.command_path
    where = command.removeprefix(PROG).strip()
    return f"{where + ': ' if where else ''}{message} (see {command} --help)"


def _given_value(param: Any, argv: list[str] | None = None) -> str | None:
    """The value the command line gave the option ``param``, to quote it in the error."""
    args = sys.argv[1:] if argv is None else argv
    for name in getattr(param, "opts", ()):
        if not name.startswith("-"):
            continue
        for index, arg in enumerate(args):
            if arg.startswith(name + "="):
                return arg[len(name) + 1 :]
            if arg == name and index + 1 < len(args):
                return args[index + 1]
    return None


def _fail(message: str | None, code: int) -> None:
    if message is not None:
        print(f"slopmark: error: {message}", file=sys.stderr)
    sys.exit(code)


def _quiet_closed_stdout() -> None:
    """Point stdout at /dev/null so that flushing at exit cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _name_stores() -> None:
    """Name on stderr each store the command used (`slopmark.cli.store.store_notes`); a
    command that never loaded that module used none, and pays nothing here."""
    store = sys.modules.get("slopmark.cli.store")
    for line in store.store_notes() if store is not None else ():
        print(f"{PROG}: {line}", file=sys.stderr)


def main() -> None:
    """Run the CLI: bad input exits 2 with one line on stderr, failed checks exit 1; a
    command that ends on its own names the store it used."""
    try:
        code = app(prog_name=PROG, standalone_mode=False)
        sys.stdout.flush()
        _name_stores()
    except SlopmarkError as error:
        _fail(str(error), error.exit_code)
    except typer.TyperException as error:
        _fail(usage_line(error), error.exit_code)
    except typer.Abort:
        _fail("aborted", 1)
    except (ClosedPipe, BrokenPipeError):
        _quiet_closed_stdout()
        sys.exit(CLOSED_PIPE_EXIT)
    sys.exit(code if isinstance(code, int) else 0)
