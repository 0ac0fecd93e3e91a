"""The ``slopmark`` console script."""

from __future__ import annotations

import sys

import typer

from slopmark import __version__
from slopmark.cli.board import app as board_app
from slopmark.cli.code import app as code_app
from slopmark.cli.evals import app as eval_app
from slopmark.cli.paper import app as paper_app
from slopmark.cli.serve import serve
from slopmark.cli.stats import app as stats_app
from slopmark.cli.tasks import app as tasks_app
from slopmark.errors import SlopmarkError

app = typer.Typer(
    name="slopmark",
    help="Measure AI slop in code, papers and model answers, and rank the systems that produce it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(code_app, name="code")
app.add_typer(tasks_app, name="tasks")
app.add_typer(eval_app, name="eval")
app.add_typer(paper_app, name="paper")
app.add_typer(stats_app, name="stats")
app.add_typer(board_app, name="board")
app.command()(serve)


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


def main() -> None:
    """Run the CLI: bad input exits 2 with one line on stderr, failed checks exit 1."""
    try:
        app()
    except SlopmarkError as error:
        print(f"slopmark: error: {error}", file=sys.stderr)
        sys.exit(error.exit_code)
