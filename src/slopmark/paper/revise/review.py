"""The reviewer's answers read into verdicts and retirements ("Science or Slop?", Appendix C.3).

A verdict keeps or reverts one numbered change, with a category and a reason
quoting the decisive words. Only an explicit ``keep`` retains a change: a
change the answer does not mention, an unreadable answer, an unknown verdict
word or two conflicting verdicts for one change all revert it.

A retirement leaves one instance out of the editor's feedback for the rest of
the run (it stays in the measurements). The reviewer must name the sections
it checked for a home for the object; a proposal that names none of the
paper's sections, or an instance that was not offered, is refused and logged.
Only section-level instances (cross-section references) and the evidence-gap
observation can be retired, as in the paper.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from slopmark.paper.measures.base import Instance
from slopmark.paper.revise.align import Change

Decision = Literal["keep", "revert"]
#: Measures whose instances the reviewer may retire.
RETIRABLE = ("cross_section_references", "evidence_gap")
REVERT_CATEGORIES = (
    "unsupported_statement", "number_changed", "unused_pointer", "unstated_relation",
    "removed_element", "unsourced_exhibit",
)  # fmt: skip
KEEP_CATEGORIES = ("supported_repair", "acknowledged_gap")
NO_VERDICT = "no_verdict"
_NUMBER = re.compile(r"\d+")
_SECTION_NUMBER = re.compile(r"(?:section|sec\.?|§)?\s*([a-z]?\d+(?:\.\d+)*|[a-z])")


@dataclass(frozen=True)
class Verdict:
    change: int
    decision: Decision
    category: str
    #: The reviewer's reason, quoting the decisive words (or why no verdict was read).
    reason: str


@dataclass(frozen=True)
class Reviewed:
    change: Change
    verdict: Verdict


@dataclass(frozen=True)
class Retirement:
    """One proposal to leave an instance alone, accepted or refused."""

    measure: str
    file: str
    line: int
    text: str
    sections_checked: tuple[str, ...]
    reason: str
    accepted: bool
    #: Why a proposal was refused ("" when accepted).
    refusal: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.measure, " ".join(self.text.split()))


def instance_key(instance: Instance) -> tuple[str, str]:
    """What identifies an instance across rounds: its measure and its text (lines shift)."""
    return (instance.measure, " ".join(instance.text.split()))


def batches(changes: Sequence[Change], size: int) -> list[list[Change]]:
    """The changes in consecutive batches of at most ``size``."""
    return [list(changes[start : start + size]) for start in range(0, len(changes), size)]


def first_json(answer: str) -> Any | None:
    """The first JSON object or array in a model's answer (fences and prose around it ignored)."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[\[{]", answer):
        try:
            value, _ = decoder.raw_decode(answer, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict | list):
            return value
    return None


def parse_verdicts(answer: str, numbers: Sequence[int]) -> dict[int, Verdict]:
    """A verdict for every change number in ``numbers``; what the answer lacks is reverted."""
    found: dict[int, list[Verdict]] = {}
    for entry in _entries(first_json(answer), ("verdicts", "changes", "reviews")):
        verdict = _verdict(entry)
        if verdict is not None and verdict.change in numbers:
            found.setdefault(verdict.change, []).append(verdict)
    return {number: _decided(number, found.get(number, [])) for number in numbers}


def _entries(data: Any, keys: Sequence[str]) -> list[dict[str, Any]]:
    if isinstance(data, dict):
        inner = next((data[key] for key in keys if isinstance(data.get(key), list)), None)
        data = inner if inner is not None else [data]
    if not isinstance(data, list):
        return []
    return [entry for entry in data if isinstance(entry, dict)]


def _verdict(entry: dict[str, Any]) -> Verdict | None:
    number = _number(entry.get("change", entry.get("number", entry.get("id"))))
    if number is None:
        return None
    word = str(entry.get("verdict", entry.get("decision", ""))).strip().lower()
    category = str(entry.get("category") or "").strip() or "uncategorised"
    reason = str(entry.get("reason") or "").strip()
    if word == "keep":
        return Verdict(number, "keep", category, reason)
    if word == "revert":
        return Verdict(number, "revert", category, reason)
    return Verdict(number, "revert", NO_VERDICT, f"unreadable verdict {word!r}: {reason}".strip())


def _number(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    found = _NUMBER.search(str(value)) if value is not None else None
    return int(found.group()) if found else None


def _decided(number: int, verdicts: list[Verdict]) -> Verdict:
    if not verdicts:
        reason = "the reviewer gave no readable verdict; only an explicit keep retains a change"
        return Verdict(number, "revert", NO_VERDICT, reason)
    if len({v.decision for v in verdicts}) > 1:
        reason = "the reviewer gave conflicting verdicts; only an explicit keep retains a change"
        return Verdict(number, "revert", NO_VERDICT, reason)
    return verdicts[0]


def retirement_candidates(items: Iterable[Instance]) -> list[Instance]:
    """The instances the reviewer may retire, in order."""
    return [item for item in items if item.measure in RETIRABLE]


def parse_retirements(
    answer: str, candidates: Sequence[Instance], sections: Sequence[str]
) -> list[Retirement]:
    """The proposals of ``answer``: ``I<n>`` names the n-th candidate (1-based)."""
    proposals = []
    for entry in _entries(first_json(answer), ("retire", "retirements", "instances")):
        number = _number(entry.get("instance", entry.get("id")))
        checked = _names(entry.get("sections_checked", entry.get("sections", [])))
        reason = str(entry.get("reason") or "").strip()
        if number is None or not 1 <= number <= len(candidates):
            continue
        item = candidates[number - 1]
        refusal = _refusal(checked, sections)
        proposals.append(Retirement(
            item.measure, item.at.file, item.at.line, item.text, checked, reason,
            accepted=not refusal, refusal=refusal,
        ))  # fmt: skip
    return proposals


def _names(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list):
        return ()
    return tuple(name for name in (str(v).strip() for v in value) if name)


def _refusal(checked: Sequence[str], sections: Sequence[str]) -> str:
    """Why a proposal is refused: it must name at least one section of the paper it checked."""
    if not checked:
        return "no sections named as checked for a home"
    if not any(_names_section(name, sections) for name in checked):
        return f"none of the sections named ({', '.join(checked)}) is a section of the paper"
    return ""


def _names_section(name: str, sections: Sequence[str]) -> bool:
    """Does ``name`` ("Introduction", "Section 4", "4 Experiments") name one of ``sections``?"""
    wanted = " ".join(name.lower().split())
    number = _SECTION_NUMBER.fullmatch(wanted)
    for heading in (" ".join(h.lower().split()) for h in sections):
        if number and heading.split(" ")[0] == number.group(1):
            return True
        if len(wanted) >= 3 and (wanted in heading or heading in wanted):
            return True
    return False
