"""Every grouping and scoring rule, each beside the SlopCodeBench source line it mirrors.

Citations are to SprocketLab/slop-code-bench: ``pytest_runner.py`` at commit
dc40d727e4c966a53a926db1d400d5cc00d8eb93, ``report.py`` and
``metrics/checkpoint/extractors.py`` at 2a9800e5 / 66d8e340,
``metrics/summary/aggregators.py`` at 06a1612e (the versions the docs table
in docs/bench-evaluation.md was written from).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from slopmark.code.bench.grouping import (
    checkpoint_of_file,
    group_of,
    markers_of,
    record_group,
    status_of,
)
from slopmark.code.bench.network import NETWORK_OFF, unreachable
from slopmark.code.bench.problem import load_problem
from slopmark.code.bench.results import AgentRecord, CaseOutcome, CheckpointResult, SetupStep
from slopmark.code.bench.scoring import summarize
from slopmark.code.bench.testlayout import PLUGIN, PLUGIN_DIR, _copy_tests
from slopmark.code.bench.testrun import after_setup, parse_events, read_report
from slopmark.sandbox.base import Execution

CUSTOM = {"slow": "FUNCTIONALITY", "critical": "CORE"}


# -- grouping: pytest_runner.py, PytestRunner._determine_group_type ---------------------------


def test_rule_1_a_test_of_an_earlier_checkpoint_is_regression_whatever_its_markers() -> None:
    """``if not is_current: return GroupType.REGRESSION`` (RULE 1, before the error marker)."""
    assert group_of("checkpoint_1", ["error"], "checkpoint_2", CUSTOM) == "regression"
    assert group_of("checkpoint_1", ["functionality"], "checkpoint_2", CUSTOM) == "regression"
    assert group_of("checkpoint_1", [], "checkpoint_2", CUSTOM) == "regression"


def test_rule_2_the_error_marker_makes_an_error_test_of_the_current_checkpoint() -> None:
    """``if "error" in markers: return GroupType.ERROR`` (RULE 2)."""
    assert group_of("checkpoint_2", ["functionality", "error"], "checkpoint_2", CUSTOM) == "error"
    assert group_of("checkpoint_2", ["regression", "error"], "checkpoint_2", CUSTOM) == "error"


def test_rule_3_the_regression_marker() -> None:
    """``if "regression" in markers: return GroupType.REGRESSION`` (RULE 3)."""
    assert group_of("checkpoint_2", ["regression", "slow"], "checkpoint_2", CUSTOM) == "regression"


def test_rule_4_the_first_custom_marker_gives_its_configured_group() -> None:
    """``for marker in markers: if marker in self.problem.markers: return ...group`` (RULE 4)."""
    assert group_of("checkpoint_2", ["slow"], "checkpoint_2", CUSTOM) == "functionality"
    assert group_of("checkpoint_2", ["critical", "slow"], "checkpoint_2", CUSTOM) == "core"
    assert group_of("checkpoint_2", ["slow", "critical"], "checkpoint_2", CUSTOM) == "functionality"
    assert group_of("checkpoint_2", ["critical", "functionality"], "checkpoint_2", CUSTOM) == "core"


def test_rule_5_functionality_else_core() -> None:
    """``if "functionality" in markers: return GroupType.FUNCTIONALITY``, then
    ``return GroupType.CORE`` (RULE 5)."""
    assert group_of("checkpoint_2", ["functionality"], "checkpoint_2", CUSTOM) == "functionality"
    assert group_of("checkpoint_2", [], "checkpoint_2", CUSTOM) == "core"


@pytest.mark.parametrize(
    ("path", "checkpoint"),
    [
        (".evaluation_tests/test_checkpoint_1.py", "checkpoint_1"),
        ("tests/test_checkpoint_12.py", "checkpoint_12"),
        ("tests/cases/test_x/test_checkpoint_3.py", "checkpoint_3"),
        ("tests/helpers.py", "checkpoint_2"),
    ],
)
def test_the_checkpoint_of_a_test_is_read_from_its_file_name(path: str, checkpoint: str) -> None:
    """``_infer_checkpoint_from_file``: ``re.search(r"test_([^/]+)\\.py", file_path)``,
    falling back to the current checkpoint when nothing matches."""
    assert checkpoint_of_file(path, "checkpoint_2") == checkpoint


def test_the_file_of_a_test_is_its_node_ids_first_part() -> None:
    """``_convert_pytest_report_test_to_result``: ``file_path = nodeid.split("::")[0]``
    (not where the test function was defined)."""
    record = {"nodeid": "tests/test_checkpoint_1.py::test_a", "file": "tests/test_checkpoint_2.py"}
    assert record_group(record, "checkpoint_2", {}) == "regression"


def test_markers_are_the_known_names_among_all_keywords() -> None:
    """``markers = [kw for kw in keywords if kw in known_markers]``: keywords hold the
    item's name, its parents' names and a parametrize id too, so a case id ``error``
    makes an error test, as in SCB."""
    keywords = ["test_x[error]", "error", "test_checkpoint_2.py", "slow", "parametrize"]
    assert markers_of(keywords, CUSTOM) == ["error", "slow"]
    assert record_group({"nodeid": "t/test_checkpoint_2.py::x", "keywords": keywords},
                        "checkpoint_2", CUSTOM) == "error"  # fmt: skip


# -- outcomes: pytest_runner.py status_map, report.py add_test_result ------------------------


@pytest.mark.parametrize(
    ("outcome", "status"),
    [
        ("passed", "passed"),
        ("failed", "failed"),
        ("skipped", "skipped"),
        ("error", "error"),
        ("xfailed", "skipped"),
        ("xpassed", "passed"),
        ("rerun", "error"),
    ],
)
def test_pytest_outcomes_map_to_scbs_statuses(outcome: str, status: str) -> None:
    """``status_map = {..., "xfailed": "skipped", "xpassed": "passed"}``;
    ``status_map.get(outcome, "error")``."""
    assert status_of(outcome) == status


def test_only_passed_counts_as_passed() -> None:
    """report.py ``add_test_result``: ``if result.status == "passed": pass_counts[...] += 1``,
    so a skipped (or xfailed) test is not passed."""
    for outcome, passed in (("passed", True), ("skipped", False), ("error", False)):
        assert CaseOutcome("t", "core", outcome).passed is passed


PLUGIN_PROBE = """
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("setup failed")

def test_pass(): pass
def test_fail(): assert 1 == 2
@pytest.mark.skip(reason="not today")
def test_skip(): pass
@pytest.mark.xfail
def test_xfail(): assert 0
@pytest.mark.xfail
def test_xpass(): pass
@pytest.mark.xfail(strict=True)
def test_xpass_strict(): pass
def test_setup_error(broken): pass
@pytest.mark.parametrize("x", [1], ids=["error"])
def test_case(x): pass
"""


def run_plugin(folder: Path, source: str) -> dict[str, Any]:
    """Run pytest with the report plugin on one test file; the report it wrote."""
    (folder / "test_checkpoint_1.py").write_text(source)
    report = folder / "report.jsonl"
    env = {**os.environ, "PYTHONPATH": str(PLUGIN_DIR), "SLOPMARK_BENCH_REPORT": str(report)}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", PLUGIN, "-p", "no:cacheprovider", str(folder)],
        cwd=folder, env=env, capture_output=True, check=False, timeout=120,
    )  # fmt: skip
    payload = parse_events(report.read_text())
    assert payload is not None
    return payload


def finished(**fields: Any) -> dict[str, Any]:
    """The gathered events of a session that ran to its end (`parse_events`' shape)."""
    return {"expected": [], "complete": True, "kept_out": [], "collect_errors": [], "tests": [],
            **fields}  # fmt: skip


@pytest.mark.slow
def test_the_report_plugin_gives_pytest_json_reports_outcomes(tmp_path: Path) -> None:
    """SCB reads pytest-json-report, whose outcome is each phase's ``pytest_report_teststatus``
    (xfailed, xpassed, error for a failed setup); its keywords list the parametrize id."""
    payload = run_plugin(tmp_path, PLUGIN_PROBE)
    outcomes = {r["nodeid"].split("::")[1]: r["outcome"] for r in payload["tests"]}
    assert outcomes == {
        "test_pass": "passed", "test_fail": "failed", "test_skip": "skipped",
        "test_xfail": "xfailed", "test_xpass": "xpassed", "test_xpass_strict": "failed",
        "test_setup_error": "error", "test_case[error]": "passed",
    }  # fmt: skip
    case = next(r for r in payload["tests"] if r["nodeid"].endswith("[error]"))
    assert "error" in case["keywords"]
    passed = {n for n, o in outcomes.items() if status_of(o) == "passed"}
    assert passed == {"test_pass", "test_xpass", "test_case[error]"}


RUNTIME_MARKERS = """
import pytest

@pytest.fixture
def as_error(request):
    request.node.add_marker(pytest.mark.error)

def test_fixture_marked(as_error):
    pass

def test_body_marked(request):
    request.node.add_marker(pytest.mark.functionality)

@pytest.mark.functionality
def test_plain():
    pass
"""


@pytest.mark.slow
def test_markers_are_read_from_the_tests_report_not_its_collection(
    tmp_path: Path, problem: Any
) -> None:
    """SCB reads pytest-json-report's per-test ``keywords``: ``list(report.keywords)`` of the
    test's first report (its setup phase), so a marker a fixture adds counts and one the
    test body adds does not. The expected keywords are pytest-json-report 1.5.0's on this
    file (pytest 9.2)."""
    folder = tmp_path / "run"
    folder.mkdir()
    payload = run_plugin(folder, RUNTIME_MARKERS)
    keywords = {r["nodeid"].split("::")[1]: r["keywords"] for r in payload["tests"]}
    assert keywords == {
        "test_fixture_marked": ["test_fixture_marked", "error", "test_checkpoint_1.py", "run", ""],
        "test_body_marked": ["test_body_marked", "test_checkpoint_1.py", "run", ""],
        "test_plain": ["test_plain", "functionality", "pytestmark", "test_checkpoint_1.py", "run",
                       ""],
    }  # fmt: skip
    collected = {r["nodeid"].split("::")[1]: r["keywords"] for r in payload["expected"]}
    assert "error" not in collected["test_fixture_marked"]
    run = read_report(payload, DONE, problem.checkpoints[0], problem, network=False)
    groups = {test.nodeid.split("::")[1]: test.group for test in run.tests}
    assert groups == {"test_fixture_marked": "error", "test_body_marked": "core",
                      "test_plain": "functionality"}  # fmt: skip


# -- infrastructure failures: pytest_runner.py INFRA_FAILURE_CODES, _check_collection_line ----

DONE = Execution(0, "", "", 1.0)


@pytest.fixture
def problem(tmp_path: Path) -> Any:
    folder = tmp_path / "p"
    (folder / "tests").mkdir(parents=True)
    (folder / "checkpoint_1.md").write_text("spec")
    (folder / "config.yaml").write_text("entry_file: main\ncheckpoints: [checkpoint_1]\n")
    return load_problem(folder)


@pytest.mark.slow
def test_a_collection_error_is_an_errored_checkpoint(tmp_path: Path, problem: Any) -> None:
    """``infrastructure_failure = exit_code in INFRA_FAILURE_CODES or not collection_ok``
    (a file that fails to collect interrupts pytest: exit status 2)."""
    payload = run_plugin(tmp_path, "import not_there\n\ndef test_a(): pass\n")
    assert payload["exitstatus"] == 2 and payload["tests"] == []
    run = read_report(payload, DONE, problem.checkpoints[0], problem, network=False)
    assert (run.status, run.tests) == ("collect_error", ())
    assert run.error == (
        "collection error in test_checkpoint_1.py: ModuleNotFoundError: No module named 'not_there'"
    )


@pytest.mark.parametrize(("status", "meaning"), [(3, "internal error"), (4, "usage error"),
                                                 (5, "no tests collected")])  # fmt: skip
def test_pytests_infrastructure_exit_statuses_are_errored(
    problem: Any, status: int, meaning: str
) -> None:
    """``INFRA_FAILURE_CODES = {EXIT_INTERRUPTED, EXIT_INTERNALERROR, EXIT_USAGEERROR,
    EXIT_NOTESTSCOLLECTED}``."""
    payload = finished(exitstatus=status, collected=1)
    run = read_report(payload, DONE, problem.checkpoints[0], problem, network=False)
    assert run.status == "collect_error"
    assert run.error == f"pytest could not run the tests (exit status {status}: {meaning})"


def test_nothing_collected_is_errored(problem: Any) -> None:
    """``_check_collection_line``: ``if num_collected == 0: return False, 0``."""
    payload = finished(exitstatus=0, collected=0)
    assert (
        read_report(payload, DONE, problem.checkpoints[0], problem, False).status == "collect_error"
    )


def test_test_files_are_copied_as_scb_copies_them(tmp_path: Path) -> None:
    """``_copy_tests_from_problem``: conftest.py and other files and folders always; of the
    ``test_*.py`` files only those of checkpoints up to the current one."""
    folder = tmp_path / "p"
    tests = folder / "tests"
    (tests / "data").mkdir(parents=True)
    for name in ("conftest.py", "helpers.py", "test_checkpoint_1.py", "test_checkpoint_2.py",
                 "test_checkpoint_3.py", "test_util.py", "data/x.json"):  # fmt: skip
        (tests / name).write_text("")
    config = "entry_file: main\ncheckpoints: [checkpoint_1, checkpoint_2, checkpoint_3]\n"
    (folder / "config.yaml").write_text(config)
    for n in (1, 2, 3):
        (folder / f"checkpoint_{n}.md").write_text("spec")
    problem = load_problem(folder)
    _copy_tests(problem, problem.checkpoints[1], tmp_path / "copy")
    copied = sorted(str(p.relative_to(tmp_path / "copy")) for p in (tmp_path / "copy").rglob("*"))
    assert copied == ["conftest.py", "data", "data/x.json", "helpers.py",
                      "test_checkpoint_1.py", "test_checkpoint_2.py"]  # fmt: skip


# -- scoring: metrics/checkpoint/extractors.py get_evaluation_metrics, aggregators.py ---------


def result(
    tests: dict[str, list[str]], status: str = "scored", problem: str = "p"
) -> CheckpointResult:
    cases = tuple(
        CaseOutcome(f"t::{g}{i}", g, o) for g, os_ in tests.items() for i, o in enumerate(os_)
    )
    return CheckpointResult(problem=problem, problem_version=1, checkpoint="checkpoint_2", order=2,
                            index=1, count=3, status=status,  # type: ignore[arg-type]
                            agent=AgentRecord("ok", 1.0), tests=cases)  # fmt: skip


def test_strict_is_every_test_passing() -> None:
    """``"pass_rate": total_passed / total_total if total_total > 0 else 0`` and
    ``compute_solve_rates``: solved when ``math.isclose(pr, 1.0)``."""
    assert result({"core": ["passed"], "regression": ["passed"]}).strict
    assert not result({"core": ["passed"], "regression": ["skipped"]}).strict
    assert not result({}).strict


def test_isolated_leaves_the_regression_group_out() -> None:
    """``if c_type != "Regression": checkpoint_passed += c_passed``."""
    iso = result({"core": ["passed"], "error": ["passed"], "regression": ["failed"]})
    assert iso.isolated and not iso.strict
    assert not result({"regression": ["passed"]}).isolated  # no own test: rate 0


def test_core_needs_at_least_one_core_test() -> None:
    """``"core_pass_rate": core_passed / core_total if core_total > 0 else 0``; report.py
    ``passes_policy("core-cases")``: ``return core_total > 0 and core_passed == core_total``."""
    assert result({"core": ["passed"], "error": ["failed"]}).core
    coreless = result({"functionality": ["passed"], "error": ["passed"]})
    assert coreless.isolated and not coreless.core


def test_errored_checkpoints_are_kept_out_of_every_rate() -> None:
    """SCB's ``passes_policy`` fails an infrastructure failure (``if self.infrastructure_failure:
    return False``), so it counts against the agent; slopmark keeps such checkpoints (and
    environment errors) out of the rates instead, counted apart (DESIGN: an errored run is
    not a failed run). This is the one deliberate difference."""
    solved = result({"core": ["passed"]})
    broken = result({}, status="collect_error", problem="q")
    missing = result({}, status="env_error", problem="r")
    summary = summarize([solved, broken, missing])
    assert (summary.overall.checkpoints, summary.overall.errored) == (1, 2)
    assert summary.overall.strict == 1.0 and summary.partial == 1.0
    failed = result({"core": ["failed"]}, status="scored", problem="q")
    assert summarize([solved, failed]).overall.strict == 0.5


RESOLVER = "socket.gaierror: [Errno -3] Temporary failure in name resolution"


def test_a_network_failure_is_named_only_when_the_network_was_off(problem: Any) -> None:
    """Not an SCB rule (SCB's tests have the network): the reason slopmark adds, from the
    resolver error the plugin found in the test's exception chain."""
    message = "URLError: <urlopen error [Errno -3] Temporary failure in name resolution>"
    record = {"nodeid": "tests/test_checkpoint_1.py::test_fetch", "outcome": "failed",
              "message": message, "detail": "...", "offline": RESOLVER}  # fmt: skip
    payload = finished(exitstatus=1, collected=1, tests=[record])
    off = read_report(payload, DONE, problem.checkpoints[0], problem, network=False)
    assert off.tests[0].message == f"{NETWORK_OFF}: {RESOLVER}"
    assert (off.status, off.error) == (
        "env_error",
        f"{NETWORK_OFF}: tests/test_checkpoint_1.py::test_fetch needed it ({RESOLVER})",
    )
    on = read_report(payload, DONE, problem.checkpoints[0], problem, network=True)
    assert on.tests[0].message == record["message"]
    assert (on.status, on.error) == ("scored", None)


def test_text_the_submission_prints_never_makes_an_environment_error(problem: Any) -> None:
    """Red team: a program that prints a resolver's or cargo's offline message when it fails
    has its checkpoint scored, not dropped from the rates: only the test's own exception
    chain (the plugin's ``offline``) tells a missing network."""
    printed = [
        "Temporary failure in name resolution", "Network is unreachable",
        "error: you're using offline mode", "npm error code ENOTCACHED",
    ]  # fmt: skip
    for text in printed:
        record = {"nodeid": "tests/test_checkpoint_1.py::test_run", "outcome": "failed",
                  "message": f"AssertionError: {text}", "detail": text}  # fmt: skip
        payload = finished(exitstatus=1, collected=1, tests=[record])
        run = read_report(payload, DONE, problem.checkpoints[0], problem, network=False)
        assert (run.status, run.error, run.tests[0].message) == (
            "scored", None, f"AssertionError: {text}"
        )


def test_a_test_wanting_the_network_after_a_failed_fetch_is_the_submissions(problem: Any) -> None:
    """Not an SCB rule: when the dependency phase failed on the submission's own manifest
    (a crate that does not exist), a test that then wants the network is the submission's
    failure; a step skipped for want of its tool does not count."""
    record = {"nodeid": "tests/test_checkpoint_1.py::test_build", "outcome": "failed",
              "message": "OSError: [Errno 101]", "detail": None,
              "offline": "OSError: [Errno 101] Network is unreachable"}  # fmt: skip
    payload = finished(exitstatus=1, collected=1, tests=[record])
    offline = read_report(payload, DONE, problem.checkpoints[0], problem, network=False)
    assert offline.status == "env_error"
    typo = SetupStep("cargo fetch", "Cargo.toml", False, 0.2, "error: no matching package")
    scored = after_setup(replace(offline, setup=(typo,)))
    assert (scored.status, scored.error, scored.tests) == ("scored", None, offline.tests)
    no_tool = SetupStep("npm ci", "package.json", False, 0.0, "npm is not ...", skipped=True)
    assert after_setup(replace(offline, setup=(no_tool,))).status == "env_error"


def test_a_fetch_that_cannot_reach_its_registry_is_told_apart() -> None:
    """The dependency phase has the network: a refused connection there is the registry's."""
    refused = "[7] Could not connect to server (Failed to connect to 127.0.0.1 port 1)"
    assert unreachable(refused)
    assert unreachable("npm error code EAI_AGAIN")
    assert not unreachable("error: no matching package named `slopdepp` found")
