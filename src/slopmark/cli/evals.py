"""``slopmark eval``: ask a model the tasks of a domain, or score a pasted answer.

This module parses options only; `slopmark.cli.eval_actions` (imported when
a command runs) does the work, so ``slopmark --help`` stays fast.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import typer

from slopmark.cli import sweep_options
from slopmark.cli.options import DB_HELP, non_empty
from slopmark.cli.output import output_file
from slopmark.errors import BadInput
from slopmark.evals.endpoint import check_base_url, parse_model

app = typer.Typer(
    help="Evals: ask a model a domain's tasks under the fixed harness, or score a pasted answer.",
    no_args_is_help=True,
)

_TASKS_HELP = "Task file or folder to use instead of the shipped pool (repeatable)."


@app.command("run")
def run(
    model: str = typer.Option(..., "--model", help="PROVIDER:NAME, e.g. openai-compat:qwen3-8b."),
    domain: str = typer.Option(..., "--domain", help="The domain whose tasks to run."),
    base_url: str | None = typer.Option(
        None, "--base-url", envvar="SLOPMARK_BASE_URL", help="The server, e.g. http://127.0.0.1:8080/v1."
    ),
    api_key: str | None = typer.Option(
        None, "--api-key", help="API key (default: $SLOPMARK_API_KEY, else $OPENAI_API_KEY)."
    ),
    concurrency: int = typer.Option(16, "--concurrency", min=1, help="Tasks in flight at once."),
    mode: str = typer.Option("standard", "--mode", help="Harness mode: standard or zero_context."),
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Ask at most N open tasks."),
    retry_errors: bool = typer.Option(
        False, "--retry-errors", help="Re-run only the tasks whose runs errored."
    ),
    tasks: list[Path] = typer.Option([], "--tasks", help=_TASKS_HELP),
    timeout: float = typer.Option(60.0, "--timeout", min=0.1, help="Seconds allowed per request."),
    retries: int = typer.Option(4, "--retries", min=0, help="Retries of a 429, 5xx or timeout."),
    cache: Path | None = typer.Option(None, "--cache", help="SQLite file caching responses."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Ask MODEL every unfinished task of DOMAIN; each run is stored as it finishes.

    Running the same command again resumes: tasks already finished for this
    model, harness version, mode and task set are skipped, and tasks whose
    runs errored are asked again. Exits 1 while errored runs remain.
    """
    provider, name = parse_model(model)
    non_empty(api_key, "--api-key")
    if cache is not None:
        output_file(cache, "--cache")
    from slopmark.cli.eval_actions import run_suite_command
    from slopmark.evals.session import SuiteRequest

    request = SuiteRequest(
        provider=provider,
        model=name,
        base_url=check_base_url(base_url),
        domain=domain,
        api_key=api_key,
        concurrency=concurrency,
        mode=mode,
        db=db,
        limit=limit,
        retry_errors=retry_errors,
        tasks=tuple(tasks),
        timeout_s=timeout,
        retries=retries,
        cache=cache,
    )
    raise typer.Exit(run_suite_command(request, as_json))


@app.command("suite")
def suite(
    suite_file: Path = typer.Argument(..., help="SUITE.yaml: models × endpoints × domains."),
    executor: str = sweep_options.EXECUTOR,
    address: str | None = sweep_options.ADDRESS,
    jobs: int = sweep_options.JOBS,
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print every slice's summary as JSON."),
) -> None:
    """Ask every model of SUITE.yaml every domain's tasks, one (model, domain) slice per unit.

    Each run is stored as it finishes, so running the same command again resumes
    every slice. Exits 1 while a slice failed or errored runs remain.
    """
    from slopmark.cli.suite_view import run_suite_file

    sweep_options.check_where(executor, address)
    raise typer.Exit(run_suite_file(suite_file, (executor, address, jobs), db, as_json))


def _read_answer(output_file: Path | None) -> str:
    """The pasted answer; one trailing newline (added by editors and echo) is dropped.
    An empty answer, or one longer than the cap the API also keeps, is refused."""
    from slopmark.evals.runner import check_paste

    where = "the answer on stdin"
    if output_file is None:
        text = sys.stdin.read()
    else:
        where = f"--output-file {str(output_file)!r}"
        try:
            text = output_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise BadInput(f"{where}: cannot read it: {error}") from error
    return check_paste(text.removesuffix("\n").removesuffix("\r"), where)


@app.command("paste")
def paste(
    task_id: str | None = typer.Option(None, "--task", help="Id of the task the answer is for."),
    model: str | None = typer.Option(
        None, "--model", help="Label of whoever wrote the answer (default: pasted)."
    ),
    output_file: Path | None = typer.Option(
        None, "--output-file", help="File holding the answer (default: read stdin)."
    ),
    jsonl: Path | None = typer.Option(
        None,
        "--jsonl",
        help='Many answers instead, one {"task", "model", "answer"} object per line ("-": stdin).',
    ),
    tasks: list[Path] = typer.Option([], "--tasks", help=_TASKS_HELP),
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the verdict as JSON."),
) -> None:
    """Score a pasted answer to one task and store it as a paste run (no API key needed).

    The run logs latency 0 and cost 0. For a multi-turn task paste the final
    answer only: the transcript given to the verifier holds every user turn,
    an empty answer for each earlier turn, and the pasted answer last.

    With --jsonl FILE every line is scored and stored as its own paste run; a
    bad line (not JSON, a field missing, an unknown task) is reported on stderr
    as FILE:LINE: why, and the other lines go on. Exits 2 if any line was
    refused (the stored ones stay stored), 1 if any could not be scored.
    """
    if jsonl is not None:
        from slopmark.cli.eval_actions import batch_paste_command

        _batch_only(task_id, model, output_file)
        raise typer.Exit(batch_paste_command(jsonl, tuple(tasks), db, as_json))
    from slopmark.cli.eval_actions import paste_command

    if task_id is None:
        raise BadInput("give --task ID (the answer on stdin or --output-file), or --jsonl FILE")
    non_empty(model, "--model")
    answer = partial(_read_answer, output_file)  # read once the task is known to exist
    raise typer.Exit(paste_command(task_id, model or "pasted", answer, tuple(tasks), db, as_json))


def _batch_only(task_id: str | None, model: str | None, output_file: Path | None) -> None:
    """Refuse the options of a single paste next to --jsonl (each line names its own)."""
    given = {"--task": task_id, "--model": model, "--output-file": output_file}
    for option, value in given.items():
        if value is not None:
            raise BadInput(f"{option}: not with --jsonl, whose every line names its task and model")
