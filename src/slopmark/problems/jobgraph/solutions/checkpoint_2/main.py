"""jobgraph command line.

    python main.py order FILE [--levels]
    python main.py run FILE [--workers N] [--json]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from errors import JobGraphError
from graph import JobGraph
from jobfile import load_jobs
from ordering import execution_order, levels
from report import schedule_json, timeline_lines
from simulation import simulate


def positive_int(text: str) -> int:
    """argparse type for counts that must be at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per mode."""
    parser = argparse.ArgumentParser(prog="jobgraph", description="Job graph runner.")
    commands = parser.add_subparsers(dest="command", required=True)
    order = commands.add_parser("order", help="print a valid execution order")
    order.add_argument("file", type=Path, help="job file (.json or .jobs)")
    order.add_argument("--levels", action="store_true", help="print one level per line")
    run = commands.add_parser("run", help="simulate the jobs on N workers")
    run.add_argument("file", type=Path, help="job file (.json or .jobs)")
    run.add_argument("--workers", type=positive_int, default=1, help="number of workers")
    run.add_argument("--json", action="store_true", help="print the schedule as JSON")
    return parser


def cmd_order(args: argparse.Namespace) -> int:
    """Print the execution order (or the levels) of the job file."""
    graph = JobGraph.build(load_jobs(args.file))
    rows = levels(graph) if args.levels else [[job_id] for job_id in execution_order(graph)]
    for row in rows:
        print(" ".join(row))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Simulate the job file and print its timeline."""
    graph = JobGraph.build(load_jobs(args.file))
    schedule = simulate(graph, args.workers)
    print(schedule_json(schedule) if args.json else "\n".join(timeline_lines(schedule)))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one command; expected failures become one `error:` line on stderr."""
    args = build_parser().parse_args(argv)
    handlers = {"order": cmd_order, "run": cmd_run}
    try:
        return handlers[args.command](args)
    except JobGraphError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code


if __name__ == "__main__":
    sys.exit(main())
