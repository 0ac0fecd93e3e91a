"""``slopmark tasks``: list the pool, validate task files, generate tasks."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import typer
from rich.table import Table

from slopmark.cli.output import output_file, print_json, write_file
from slopmark.cli.tables import print_table, sized_console
from slopmark.errors import BadInput
from slopmark.evals.task import SOURCES, Task
from slopmark.plurals import count

app = typer.Typer(help="Eval tasks: list the pool, validate task files, generate tasks.")


@dataclass(frozen=True)
class DomainCount:
    domain: str
    tasks: int
    templates: int
    sources: dict[str, int]
    per_template: dict[str, int]


def _counts(tasks: Sequence[Task]) -> list[DomainCount]:
    rows = []
    for domain in sorted({t.domain for t in tasks}):
        mine = [t for t in tasks if t.domain == domain]
        rows.append(
            DomainCount(
                domain=domain,
                tasks=len(mine),
                templates=len({t.template_id or t.id for t in mine}),
                sources=dict(Counter(t.source for t in mine)),
                per_template=dict(Counter(t.template_id or "(none)" for t in mine)),
            )
        )
    return rows


@app.command("list")
def list_tasks(
    domain: str | None = typer.Option(None, "--domain", help="Only this domain."),
    source: str | None = typer.Option(None, "--source", help="Only seed, community or original."),
    paths: list[Path] = typer.Option([], "--tasks", help="Task files instead of the shipped pool."),
    as_json: bool = typer.Option(False, "--json", help="Print tasks (without verifiers) as JSON."),
) -> None:
    """Approved tasks and their counts per domain and template (verifiers stay hidden)."""
    if source is not None and source not in SOURCES:
        raise BadInput(f"--source {source!r}: must be one of {', '.join(SOURCES)}")
    from slopmark.evals.pool import load_pool

    tasks = [t for t in load_pool(domain, paths) if source in (None, t.source)]
    if as_json:
        counts = [asdict(row) for row in _counts(tasks)]
        print_json({"counts": counts, "tasks": [t.public() for t in tasks]})
    else:
        print_table(sized_console(), _count_table(tasks))


def _count_table(tasks: Sequence[Task]) -> Table:
    table = Table(title="approved tasks", title_justify="left")
    for column in ("domain", "tasks", "templates", *SOURCES):
        table.add_column(column, justify="left" if column == "domain" else "right")
    for row in _counts(tasks):
        per_source = (str(row.sources.get(s, 0)) for s in SOURCES)
        table.add_row(row.domain, str(row.tasks), str(row.templates), *per_source)
    return table


@app.command()
def validate(
    paths: list[Path] = typer.Argument(None, help="Task files or folders (default: the pool)."),
) -> None:
    """Check task files; print every problem as file:line: task: field: what is wrong."""
    from slopmark.evals.pool import pool_files
    from slopmark.evals.taskfile import load_tasks

    files = paths or pool_files()
    tasks, problems = load_tasks(files)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        raise typer.Exit(2)
    print(f"{count(len(tasks), 'task')} valid in {count(len(files), 'path')}")


@app.command()
def generate(
    domain: str = typer.Option(..., "--domain", help="Domain whose templates to use."),
    templates: int | None = typer.Option(None, "--templates", min=1, help="First N templates."),
    variants: int = typer.Option(4, "--variants", min=1, help="Distinct variants per template."),
    seed: int = typer.Option(0, "--seed", help="Seed of the variants."),
    out: Path | None = typer.Option(None, "--out", help="Write JSONL here instead of stdout."),
) -> None:
    """Generate tasks from a domain's templates as JSONL (source: original)."""
    from slopmark.evals.generators import generate as generate_tasks
    from slopmark.evals.pool import check_domain

    if out is not None:
        output_file(out, "--out")
    tasks = generate_tasks(check_domain(domain), templates, variants, seed)
    lines = "".join(json.dumps(_record(t), ensure_ascii=False) + "\n" for t in tasks)
    if out is None:
        sys.stdout.write(lines)
    else:
        write_file(out, lines, "--out")
        print(f"{count(len(tasks), 'task')} written to {out}", file=sys.stderr)


def _record(task: Task) -> dict[str, object]:
    record = asdict(task)
    record["turns"] = list(task.turns)
    record["tags"] = list(task.tags)
    return record
