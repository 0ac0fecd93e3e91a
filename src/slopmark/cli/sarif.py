"""Findings as SARIF 2.1.0, for code-scanning UIs.

Every result carries ``partialFingerprints`` (`slopmark.code.measure.findings`): they survive
line shifts and edits elsewhere in the file, so a code-scanning service keeps one alert
per finding across pushes, and a baseline holds the same fingerprints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from slopmark import __version__
from slopmark.code.measure.compare import DiffReport
from slopmark.code.measure.findings import CLONE, CLONE_RULE, COMPLEX_RULE, Finding
from slopmark.code.measure.languages import language_of_path
from slopmark.code.measure.pairing import DELETED
from slopmark.code.measure.report import TreeReport
from slopmark.code.measure.rules import Rule
from slopmark.code.measure.suppressions import SUPPRESSION_RULE

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT = "slopmark/v1"
_LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
_OWN_RULES = (
    {
        "id": COMPLEX_RULE,
        "shortDescription": {
            "text": "A callable whose cyclomatic complexity is over the threshold."
        },
        "defaultConfiguration": {"level": "warning"},
    },
    {
        "id": CLONE_RULE,
        "shortDescription": {"text": "A block whose normalised form occurs more than once."},
        "defaultConfiguration": {"level": "note"},
    },
)
#: The rule of a `code diff` finding on a suppression the change adds to its own settings.
_SUPPRESSION = {
    "id": SUPPRESSION_RULE,
    "shortDescription": {
        "text": "An exclude glob or ignore comment a change adds to its own measurement "
        "(not applied: the base side's settings measure both sides)."
    },
    "defaultConfiguration": {"level": "warning"},
}


def _location(path: str, start: int, end: int) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": path, "uriBaseId": "SRCROOT"},
            "region": {"startLine": start, "endLine": end},
        }
    }


def _rule_descriptor(rule: Rule) -> dict[str, Any]:
    help_text = "\n\n".join(f"{k.replace('_', ' ')}: {v}" for k, v in rule.docs)
    return {
        "id": rule.id,
        "shortDescription": {"text": rule.doc("what") or rule.message},
        "fullDescription": {"text": rule.doc("why") or rule.message},
        "help": {"text": help_text or rule.message},
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
        "properties": {"category": rule.category, "language": rule.language, "set": rule.rule_set},
    }


def finding_result(
    finding: Finding, message: str | None = None, properties: dict[str, Any] | None = None
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "level": finding.level,
        "message": {"text": message or finding.message},
        "locations": [_location(finding.path, finding.start, finding.end)],
        "partialFingerprints": {FINGERPRINT: finding.fingerprint},
    }
    if properties:
        result["properties"] = properties
    return result


def _related(finding: Finding, report: TreeReport) -> list[dict[str, Any]]:
    """The other members of a clone finding's group."""
    for group in report.clone_groups:
        if group.digest == finding.subject:
            others = [m for m in group.members
                      if (m.path, m.start) != (finding.path, finding.start)]  # fmt: skip
            return [{"id": i, **_location(m.path, m.start, m.end)} for i, m in enumerate(others)]
    return []


def document(
    results: Iterable[dict[str, Any]],
    rules: Sequence[Rule],
    root: str,
    artifacts: Sequence[dict[str, Any]] = (),
    extra: Sequence[dict[str, Any]] = (),
    rule_set: str = "default",
) -> dict[str, Any]:
    """One SARIF run of slopmark with ``results`` (and the measured files as artifacts;
    ``extra``: rule descriptors besides the pack's and `_OWN_RULES`); the run's properties
    name the ``rule_set`` it ran."""
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "slopmark",
                "version": __version__,
                "rules": [*(_rule_descriptor(r) for r in rules), *_OWN_RULES, *extra],
            }
        },
        "originalUriBaseIds": {"SRCROOT": {"uri": "file://" + _root_uri(root)}},
        "properties": {"ruleSet": rule_set},
    }
    if artifacts:
        run["artifacts"] = list(artifacts)
    run["results"] = list(results)
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def to_sarif(
    report: TreeReport, rules: Sequence[Rule], findings: Sequence[Finding]
) -> dict[str, Any]:
    """A `code measure` run: a result per complex callable, rule hit and clone member,
    each naming its language; each measured file is an artifact with its ``sourceLanguage``."""
    language = {f.path: f.language for f in report.files}
    results = []
    for finding in findings:
        result = finding_result(finding, properties={"language": language.get(finding.path)})
        if finding.kind == CLONE:
            result["relatedLocations"] = _related(finding, report)
        results.append(result)
    artifacts = [
        {"location": {"uri": f.path, "uriBaseId": "SRCROOT"}, "sourceLanguage": f.language}
        for f in report.files
    ]
    return document(results, rules, report.root, artifacts, rule_set=report.settings.rule_set)


def diff_sarif(
    report: DiffReport, rules: Sequence[Rule], root: str, describe: Any
) -> dict[str, Any]:
    """A `code diff` run: only what the change added (``describe(change)`` words it), each
    result naming its language; each changed file is an artifact with its ``sourceLanguage``;
    each skipped file a tool notification naming it and why."""
    results = []
    for change in report.added:
        language = language_of_path(change.finding.path)
        properties: dict[str, Any] = {"change": change.kind, "language": language}
        if change.after is not None:
            properties |= {"ccBefore": change.before, "ccAfter": change.after}
        results.append(finding_result(change.finding, describe(change), properties))
    artifacts = [
        {"location": {"uri": f.path, "uriBaseId": "SRCROOT"},
         "sourceLanguage": language_of_path(f.path)}
        for f in report.files if f.status != DELETED
    ]  # fmt: skip
    found = document(results, rules, root, artifacts, [_SUPPRESSION], report.rule_set)
    found["runs"][0]["invocations"] = [_invocation(report)]
    return found


def _invocation(report: DiffReport) -> dict[str, Any]:
    """The run's invocation: the files left out, as notifications."""
    notes = [
        {"level": "warning", "message": {"text": f"skipped {s.path}: {s.reason}"},
         "locations": [_location(s.path, 1, 1)]}
        for s in report.skipped
    ]  # fmt: skip
    return {"executionSuccessful": True, "toolExecutionNotifications": notes}


def _root_uri(root: str) -> str:
    path = Path(root).resolve()
    folder = path if path.is_dir() else path.parent
    return folder.as_posix().rstrip("/") + "/"
