"""Rule hits and clone groups as SARIF 2.1.0, for code-scanning UIs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from slopmark import __version__
from slopmark.code.report import TreeReport
from slopmark.code.rules import Rule

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
CLONE_RULE = "duplicated-block"
_LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}


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
        "properties": {"category": rule.category, "language": rule.language},
    }


def _clone_results(report: TreeReport) -> list[dict[str, Any]]:
    """A note per clone-group member, pointing at the other members."""
    results = []
    for group in report.clone_groups:
        for member in group.members:
            others = [m for m in group.members if m is not member]
            results.append(
                {
                    "ruleId": CLONE_RULE,
                    "level": "note",
                    "message": {
                        "text": f"{group.kind} block duplicated {len(group.members)} times"
                    },
                    "locations": [_location(member.path, member.start, member.end)],
                    "relatedLocations": [
                        {"id": i, **_location(m.path, m.start, m.end)} for i, m in enumerate(others)
                    ],
                    "partialFingerprints": {"cloneGroup": group.digest},
                }
            )
    return results


def to_sarif(report: TreeReport, rules: Sequence[Rule]) -> dict[str, Any]:
    """One SARIF run: a result per rule hit and per clone-group member; each measured
    file is an artifact with its ``sourceLanguage``, and each result names its language."""
    language = {f.path: f.language for f in report.files}
    results: list[dict[str, Any]] = [
        {
            "ruleId": h.rule,
            "level": _LEVELS.get(h.severity, "warning"),
            "message": {"text": h.message},
            "locations": [_location(h.path, h.start, h.end)],
            "properties": {"language": language.get(h.path)},
        }
        for h in report.hits
    ]
    for result in _clone_results(report):
        path = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        results.append({**result, "properties": {"language": language.get(path)}})
    clone_rule = {
        "id": CLONE_RULE,
        "shortDescription": {"text": "A block whose normalised form occurs more than once."},
        "defaultConfiguration": {"level": "note"},
    }
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "slopmark",
                        "version": __version__,
                        "rules": [*(_rule_descriptor(r) for r in rules), clone_rule],
                    }
                },
                "originalUriBaseIds": {"SRCROOT": {"uri": "file://" + _root_uri(report.root)}},
                "artifacts": [
                    {
                        "location": {"uri": f.path, "uriBaseId": "SRCROOT"},
                        "sourceLanguage": f.language,
                    }
                    for f in report.files
                ],
                "results": results,
            }
        ],
    }


def _root_uri(root: str) -> str:
    path = Path(root).resolve()
    folder = path if path.is_dir() else path.parent
    return folder.as_posix().rstrip("/") + "/"
