"""jobgraph command line.

    python main.py order FILE [--levels]
    python main.py run FILE [--workers N] [--json] [--state PATH [--resume]] [--stop-after T]
    python main.py status STATE
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from errors import InputError, JobGraphError
from graph import JobGraph
from jobfile import load_jobs
from ordering import execution_order, levels
from report import result_json, status_lines, timeline_lines
from simulation import RunResult, RunState, simulate
from statefile import graph_fingerprint, load_state, read_state, save_state

EXIT_STOPPED = 3


def bounded_int(minimum: int) -> Callable[[str], int]:
    """argparse type for integers of at least `minimum`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {text!r}")
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per mode."""
    parser = argparse.ArgumentParser(prog="jobgraph", description="Job graph runner.")
    commands = parser.add_subparsers(dest="command", required=True)
    order = commands.add_parser("order", help="print a valid execution order")
    order.add_argument("file", type=Path, help="job file (.json or .jobs)")
    order.add_argument("--levels", action="store_true", help="print one level per line")
    run = commands.add_parser("run", help="simulate the jobs on N workers")
    run.add_argument("file", type=Path, help="job file (.json or .jobs)")
    run.add_argument("--workers", type=bounded_int(1), default=1, help="number of workers")
    run.add_argument("--json", action="store_true", help="print the result as JSON")
    run.add_argument("--state", type=Path, help="state file written at the end of the run")
    run.add_argument("--resume", action="store_true", help="continue the run in --state")
    run.add_argument("--stop-after", type=bounded_int(0), help="interrupt the run at time T")
    status = commands.add_parser("status", help="summarise a state file")
    status.add_argument("state", type=Path, help="state file written by run --state")
    return parser


def cmd_order(args: argparse.Namespace) -> int:
    """Print the execution order (or the levels) of the job file."""
    graph = JobGraph.build(load_jobs(args.file))
    rows = levels(graph) if args.levels else [[job_id] for job_id in execution_order(graph)]
    for row in rows:
        print(" ".join(row))
    return 0


def check_run_options(args: argparse.Namespace) -> None:
    """Reject option combinations that make no sense."""
    if args.resume and args.state is None:
        raise InputError("--resume needs --state PATH")
    if args.json and (args.resume or args.stop_after is not None):
        raise InputError("--json cannot be combined with --resume or --stop-after")


def starting_state(args: argparse.Namespace, graph: JobGraph) -> RunState | None:
    """The state to resume from, or None for a fresh run."""
    if not args.resume:
        return None
    state = load_state(args.state, graph)
    if args.stop_after is not None and args.stop_after < state.clock:
        raise InputError(f"--stop-after {args.stop_after} is before the resumed time {state.clock}")
    return state


def cmd_run(args: argparse.Namespace) -> int:
    """Simulate the job file (possibly resuming) and print its timeline."""
    check_run_options(args)
    graph = JobGraph.build(load_jobs(args.file))
    start = starting_state(args, graph)
    result = simulate(graph, args.workers, start, args.stop_after)
    if args.state is not None:
        save_state(args.state, graph_fingerprint(graph), result.state)
    print_result(result, resumed_at=None if start is None else start.clock, as_json=args.json)
    return run_exit_code(result)


def print_result(result: RunResult, resumed_at: int | None, as_json: bool) -> None:
    """Print the run as JSON or as a timeline (headed by the resume time, if any)."""
    if as_json:
        print(result_json(result))
        return
    lines = [] if resumed_at is None else [f"resumed at t={resumed_at}"]
    print("\n".join(lines + timeline_lines(result)))


def run_exit_code(result: RunResult) -> int:
    """0 when every job succeeded, 1 when some failed or were skipped, 3 when stopped."""
    if not result.state.complete:
        return EXIT_STOPPED
    return 0 if result.state.succeeded else 1


def cmd_status(args: argparse.Namespace) -> int:
    """Summarise a state file."""
    _, state = read_state(args.state)
    print("\n".join(status_lines(state)))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one command; expected failures become one `error:` line on stderr."""
    args = build_parser().parse_args(argv)
    handlers = {"order": cmd_order, "run": cmd_run, "status": cmd_status}
    try:
        return handlers[args.command](args)
    except JobGraphError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code


if __name__ == "__main__":
    sys.exit(main())
