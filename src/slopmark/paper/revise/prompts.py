"""The harness's prompts: the editor's call per file, the review of a batch, the retirement call.

Each prompt's first line names the call ("Revision round 2: edit the file
sections/method.tex.") so a transcript reads as a log. Long context (the
other files, the original manuscript) is cut to a character budget, and the
cut says how much was left out. The guidance is `guidance.md`, fixed for
every manuscript; it has no score formula and no target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files

from slopmark.paper.findings import title
from slopmark.paper.measures.base import Instance
from slopmark.paper.revise.align import Change
from slopmark.paper.revise.chat import Messages
from slopmark.paper.revise.edits import EDIT_FORMAT
from slopmark.paper.revise.review import KEEP_CATEGORIES, REVERT_CATEGORIES

EDITOR_SYSTEM = (
    "You are the editor of a LaTeX research paper. You revise one file per request by "
    "quoting passages of it exactly and giving their replacements. You never fabricate "
    "experiments, numbers, citations or examples."
)
REVIEWER_SYSTEM = (
    "You review proposed changes to a LaTeX research paper against the original manuscript "
    "and the experiment records. You answer with JSON only."
)
REVIEW_RULES = """\
Revert a change when any of these holds (revert rules):
- unsupported_statement: the revised text says something that neither the manuscript nor the \
records support.
- number_changed: a reported number is changed, rounded, dropped, or introduced without an \
exact match in the manuscript or the records.
- unused_pointer: a reference, section pointer or citation is added to a sentence that does \
not use what it points to.
- unstated_relation: two cited works are joined by a relation the manuscript never stated, or \
citing sentences are merged without a supported relation.
- removed_element: a figure, table, label, citation command or result is removed.
- unsourced_exhibit: a new example or exhibit is not an exact copy of a record with its \
source named.

Keep a change only when it repairs a listed pattern with material already in the manuscript \
or the records, in a sentence that uses what it refers to, and leaves every number and cited \
work as it was (supported_repair). A sentence stating that no individual case was inspected \
and that the results rest on aggregate scores is kept when the records hold no concrete case \
(acknowledged_gap).

A change mixing supported and unsupported edits is reverted whole; the reason names the \
unsupported part. The reason quotes the decisive words of the change."""


@cache
def guidance() -> str:
    """The fixed guidance file (`guidance.md`): global rules and one repair per pattern."""
    return files("slopmark.paper.revise").joinpath("guidance.md").read_text(encoding="utf-8")


def pattern_guidance(measure: str) -> str:
    """The guidance section of one pattern (definition, repair, location), or ""."""
    heading = f"## {title(measure)}\n"
    text = guidance()
    start = text.find(heading)
    if start < 0:
        return ""
    end = text.find("\n## ", start + len(heading))
    return text[start + len(heading) : end if end >= 0 else len(text)].strip()


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters not shown]"


def file_block(path: str, text: str, note: str = "") -> str:
    return f"===== FILE {path}{note} =====\n{text.rstrip()}\n"


def files_text(tree: Mapping[str, str], order: Sequence[str]) -> str:
    """The files of ``order``, each as it is under its file marker (the whole source)."""
    return "\n".join(f"===== FILE {path} =====\n{tree[path]}" for path in order)


def other_files(tree: Mapping[str, str], editing: str, limit: int) -> str:
    """The files other than ``editing``, as read-only context cut to ``limit`` characters."""
    blocks = [file_block(path, text) for path, text in sorted(tree.items()) if path != editing]
    return clip("\n".join(blocks), limit) if blocks else "(the paper has no other .tex file)"


def editor_heading(round_number: int, file: str) -> str:
    return f"Revision round {round_number}: edit the file {file}."


def editor_messages(
    round_number: int, file: str, tree: Mapping[str, str], findings: str, context_chars: int
) -> Messages:
    """One editor call of the harness: guidance, findings, the other files, the file to edit."""
    user = "\n".join([
        editor_heading(round_number, file), "",
        "# Guidance (SciSlop.md)", guidance(), "",
        "# Findings (SLOP_FINDINGS.md)", findings, "",
        "# The other files of the paper (read-only: do not edit them)",
        other_files(tree, file, context_chars), "",
        f"# The file to edit: {file}", file_block(file, tree[file]), "",
        "# How to answer", EDIT_FORMAT, "",
        f"Edit only {file}, only where the findings point and the guidance allows. "
        "If nothing in this file should change, answer NOCHANGE.",
    ])  # fmt: skip
    return [{"role": "system", "content": EDITOR_SYSTEM}, {"role": "user", "content": user}]


def review_heading(round_number: int, batch: Sequence[Change]) -> str:
    numbers = ", ".join(str(change.number) for change in batch)
    return f"Review of revision round {round_number}: changes {numbers}."


def review_messages(
    round_number: int,
    batch: Sequence[Change],
    original: Mapping[str, str],
    record_lines: Sequence[tuple[str, int, str]],
    context_chars: int,
) -> Messages:
    """One review call: the rules, the original text of the touched files, records, changes."""
    touched = sorted({change.file for change in batch})
    context = "\n".join(
        file_block(path, original.get(path, "(a new file)"), " (original manuscript)")
        for path in touched
    )
    user = "\n".join([
        review_heading(round_number, batch), "",
        "# Rules", REVIEW_RULES, "",
        "# The original manuscript (the files these changes touch)", clip(context, context_chars),
        "", "# Record lines holding a number used in the revised text", _records(record_lines),
        "", "# Changes (BEFORE is the previous round's text, AFTER the proposed text)",
        *(_change_block(change) for change in batch), "",
        "# How to answer", _verdict_format(batch),
    ])  # fmt: skip
    return [{"role": "system", "content": REVIEWER_SYSTEM}, {"role": "user", "content": user}]


def _records(lines: Sequence[tuple[str, int, str]]) -> str:
    if not lines:
        return "(no record line holds a number of the revised text)"
    return "\n".join(f"{path}:{number}: {text.rstrip()}" for path, number, text in lines)


def _change_block(change: Change) -> str:
    before = change.old or "(nothing: the change inserts text)"
    after = change.new or "(nothing: the change deletes text)"
    return f"## Change {change.number} ({change.file}, line {change.line})\nBEFORE:\n{before}\n" \
        f"AFTER:\n{after}\n"  # fmt: skip


def _verdict_format(batch: Sequence[Change]) -> str:
    categories = " | ".join((*KEEP_CATEGORIES, *REVERT_CATEGORIES))
    return (
        "Answer with ONLY a JSON array holding one object per change, in this form:\n"
        '[{"change": <number>, "verdict": "keep" or "revert", '
        f'"category": "<one of: {categories}>", '
        '"reason": "<the decisive words of the change, quoted, and why>"}]\n'
        f"Give a verdict for each of the changes {', '.join(str(c.number) for c in batch)}."
    )


def retirement_heading(round_number: int) -> str:
    return f"Retirement check after revision round {round_number}."


def retirement_messages(
    round_number: int,
    candidates: Sequence[Instance],
    sections: Sequence[str],
    manuscript: str,
    context_chars: int,
) -> Messages:
    """The retirement call: which listed instances the editor should leave alone for good."""
    listed = [
        f"I{k} [{title(item.measure)}] {item.at.file}:{item.at.line} ({item.section}): "
        f"{' '.join(item.text.split())}"
        for k, item in enumerate(candidates, start=1)
    ]
    user = "\n".join([
        retirement_heading(round_number), "",
        "These instances remain after the round. Propose the ones the editor should leave "
        "alone for the rest of the revision: those whose repair would add text the argument "
        "does not need (an object no other section uses, a concrete case the records do not "
        "hold). Before proposing one, look for a home for the object in every other section "
        "and name the sections you checked.", "",
        "# Sections of the paper", *sections, "",
        "# Instances", *listed, "",
        "# The manuscript", clip(manuscript, context_chars), "",
        "# How to answer",
        'Answer with ONLY JSON: {"retire": [{"instance": "I<k>", "sections_checked": '
        '["<section>", ...], "reason": "<why no section needs it>"}]}; '
        'answer {"retire": []} when every instance should stay.',
    ])  # fmt: skip
    return [{"role": "system", "content": REVIEWER_SYSTEM}, {"role": "user", "content": user}]
