"""CI gates on the board: does a model clear a pass rate, and not fall behind a baseline?

A gate is a list of checks, all of which must pass:

- ``runs``: the model has at least 5 counted runs on the board (below
  that the board does not even show it);
- ``pass-rate``: its pass rate, or with ``use_lower_bound`` the lower end
  of its 95% interval, is at least the threshold; an undefined bound fails;
- ``baseline`` (when a comparison is given): the paired score difference
  model − baseline on common tasks is not significantly negative, i.e. the
  upper end of its CI is ≥ 0; an undefined CI fails, since the gate cannot
  tell.

`gate_runs` picks the board: the group (harness version, task-set version,
mode) of the model's most recent run, with the model alone listed, so its
pass rate is over every task it ran there. `junit_xml` renders the result
as one JUnit test suite with a test case per check, which CI systems show.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from xml.etree import ElementTree

from slopmark.board.compare import Comparison, compare
from slopmark.board.leaderboard import (
    MIN_DISPLAY,
    Board,
    Group,
    Outcome,
    Row,
    group_of,
    leaderboard,
)
from slopmark.errors import BadInput


@dataclass(frozen=True)
class GateRequest:
    """What to gate: ``model`` must clear ``min_pass_rate`` (and not trail ``baseline``)."""

    model: str
    min_pass_rate: float
    baseline: str | None = None
    use_lower_bound: bool = False


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    message: str


@dataclass(frozen=True)
class GateResult:
    model: str
    board: str
    passed: bool
    checks: tuple[Check, ...]

    @property
    def reason(self) -> str:
        """Why the gate failed (the failing checks' messages), or why it passed."""
        failed = [check.message for check in self.checks if not check.passed]
        return "; ".join(failed or [check.message for check in self.checks])


def latest_group(outcomes: Iterable[Outcome], model: str) -> Group | None:
    """The group of ``model``'s most recently stored run (None when it has none)."""
    mine = [item for item in outcomes if item.model == model]
    return group_of(max(mine, key=lambda item: item.order)) if mine else None


def _row(board: Board, model: str) -> Row | None:
    return next((row for row in board.rows if row.model == model), None)


def _runs_check(board: Board, model: str, row: Row | None) -> Check:
    if row is not None:
        return Check("runs", True, f"{model} has {row.n} counted runs")
    n = next((hidden.n for hidden in board.hidden if hidden.model == model), 0)
    message = f"{model} has {n} counted runs on {board.group.label()}; a gate needs {MIN_DISPLAY}"
    return Check("runs", False, message)


def _fmt(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"


def _rate_check(row: Row | None, threshold: float, use_lower_bound: bool) -> Check:
    if row is None:
        return Check("pass-rate", False, "pass rate undefined: too few runs")
    interval = row.pass_rate
    value = interval.low if use_lower_bound else interval.estimate
    what = "pass-rate lower bound" if use_lower_bound else "pass rate"
    shown = (
        f"{what} {_fmt(value)} (95% CI [{_fmt(interval.low)}, {_fmt(interval.high)}], n={row.n})"
    )
    if value is None or value < threshold:
        return Check("pass-rate", False, f"{shown} < required {threshold:.3f}")
    return Check("pass-rate", True, f"{shown} ≥ required {threshold:.3f}")


def _baseline_check(comparison: Comparison) -> Check:
    result = comparison.paired
    shown = (
        f"difference {comparison.model_a} − {comparison.model_b} {_fmt(result.mean_difference)} "
        f"(95% CI [{_fmt(result.low)}, {_fmt(result.high)}], {comparison.common} common tasks)"
    )
    if result.high is None:
        return Check("baseline", False, f"{shown}: cannot tell whether it is worse")
    if result.high < 0:
        return Check("baseline", False, f"{shown} is significantly negative")
    return Check("baseline", True, f"{shown} is not significantly negative")


def gate(
    board: Board,
    model: str,
    min_pass_rate: float,
    use_lower_bound: bool = False,
    baseline: Comparison | None = None,
) -> GateResult:
    """Check ``model`` on ``board`` (see the module doc)."""
    row = _row(board, model)
    checks = [_runs_check(board, model, row), _rate_check(row, min_pass_rate, use_lower_bound)]
    if baseline is not None:
        checks.append(_baseline_check(baseline))
    passed = all(check.passed for check in checks)
    return GateResult(model, board.group.label(), passed, tuple(checks))


def gate_runs(outcomes: Sequence[Outcome], request: GateRequest) -> GateResult | None:
    """The gate on the group of the model's latest run; None when the model has no runs."""
    group = latest_group(outcomes, request.model)
    if group is None:
        return None
    mine = [item for item in outcomes if group_of(item) == group]
    board = leaderboard(mine, "common", (request.model,))[0]
    baseline = None
    if request.baseline is not None:
        found = compare(mine, request.model, request.baseline)
        if not found:
            both = f"{request.model} and {request.baseline}"
            raise BadInput(f"baseline {request.baseline!r}: {both} lack ok runs on {group.label()}")
        baseline = found[0]
    return gate(board, request.model, request.min_pass_rate, request.use_lower_bound, baseline)


def junit_xml(result: GateResult) -> str:
    """The gate as a JUnit XML document: a test suite with one test case per check."""
    failures = sum(not check.passed for check in result.checks)
    suite = ElementTree.Element(
        "testsuite",
        name=f"slopmark board gate {result.model}",
        tests=str(len(result.checks)),
        failures=str(failures),
        errors="0",
    )
    for check in result.checks:
        case = ElementTree.SubElement(
            suite, "testcase", classname=f"slopmark.gate.{result.model}", name=check.name
        )
        if check.passed:
            ElementTree.SubElement(case, "system-out").text = check.message
        else:
            ElementTree.SubElement(case, "failure", message=check.message).text = result.board
    suites = ElementTree.Element("testsuites")
    suites.append(suite)
    ElementTree.indent(suites)
    return ElementTree.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
