"""The baselines' prompts ("Science or Slop?", Appendix D), with the paper's exact constraints.

Base prompting sends the whole source and asks for every file back between
file markers. Reviewer-based refinement asks for a JSON review, then edits
each file to address it. Slop-aware revision lists the detected problems with
their definitions and repair directions (up to 12 instances per pattern),
then edits each file. The two per-file baselines answer with the same edit
blocks as the harness editor (`EDIT_FORMAT`), since slopmark runs no agent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from slopmark.paper.findings import title
from slopmark.paper.measures.base import MeasureResult
from slopmark.paper.revise.chat import Messages
from slopmark.paper.revise.edits import EDIT_FORMAT
from slopmark.paper.revise.prompts import file_block, other_files, pattern_guidance

IMPROVE = (
    "Revise this paper so that it is a better research paper: improve its clarity, "
    "organization, argumentation, and presentation, and make sure every part of the paper "
    "does its job for the reader. Keep the method, the experiments, and the reported results "
    "as they are. Do not fabricate experiments, numbers, or citations; if evidence is missing, "
    "narrow the claim instead. Do not add citations that are not already in the paper, and do "
    "not change reported numbers."
)
BASE_SYSTEM = (
    "You are an expert editor of machine-learning research papers written in LaTeX. "
    "You return revised LaTeX source only."
)
REVISING_SYSTEM = (
    "You are revising a LaTeX research paper. You edit one file per request by quoting "
    "passages of it exactly and giving their replacements. Do not run latex and do not summarize."
)
NO_FABRICATION = (
    "Do not fabricate experiments, numbers, or citations; if evidence is missing, narrow the "
    "claim instead."
)
REVIEW_REQUEST = (
    "You are a knowledgeable, critical, but fair reviewer for a top machine-learning "
    "conference. Read the paper draft below and write a review of its overall quality: the "
    "significance of the problem, the soundness of the approach, the strength of the evidence, "
    "and the clarity of the writing.\n"
    "Respond with ONLY compact JSON in exactly this format:\n"
    '{"summary": "<2-4 sentence summary of the paper and its contributions>",'
    '"strengths": ["<strength 1>", "<strength 2>", "<strength 3>"],'
    '"weaknesses": ["<weakness 1>", "<weakness 2>", "<weakness 3>"],'
    '"questions": ["<question 1>", "<question 2>", "<question 3>"],'
    '"rating": <integer 1-10, where 1 = trivial or wrong and 10 = seminal>}'
)
#: Instances listed per pattern in the slop-aware prompt.
SLOP_AWARE_SHOWN = 12


def base_messages(round_number: int, tree: Mapping[str, str], order: Sequence[str]) -> Messages:
    """Base prompting: the whole source in one prompt, every file back between markers."""
    paths = ", ".join(order)
    user = "\n".join([
        IMPROVE, "",
        f"This is revision round {round_number}. The complete LaTeX source of the paper "
        "follows, file by file. Return the revised source of every file, in the same order, "
        "using exactly this format and nothing else:",
        "<<<FILE {path}>>>", "(the complete revised content of that file)", "<<<END {path}>>>",
        f"Return all {len(order)} files ({paths}). Keep every \\input, \\label, \\cite, \\ref, "
        "environment and preamble line that a file already has, unless the revision moves or "
        "removes prose; never remove \\begin{document}, \\end{document}, \\documentclass, or "
        "\\input lines. Do not abbreviate or elide any part of a file.", "",
        *(file_block(path, tree[path]) for path in order),
    ])  # fmt: skip
    return [{"role": "system", "content": BASE_SYSTEM}, {"role": "user", "content": user}]


def review_request(source: str) -> Messages:
    """Reviewer-based refinement, step 1: a structured review of the (truncated) source."""
    user = f"{REVIEW_REQUEST}\nPAPER (LaTeX source, possibly truncated):\n{source}"
    return [{"role": "user", "content": user}]


def refine_heading(round_number: int, file: str) -> str:
    return f"Revision round {round_number}: address the review in the file {file}."


def refine_messages(
    round_number: int, file: str, tree: Mapping[str, str], review: str, context_chars: int
) -> Messages:
    """Reviewer-based refinement, step 2: edit one file to address the review."""
    instruction = "\n".join([
        "A reviewer left the following review of this paper. Revise the paper to address "
        "the review.", review, NO_FABRICATION,
    ])  # fmt: skip
    return _per_file(refine_heading(round_number, file), instruction, file, tree, context_chars)


def slop_heading(round_number: int, file: str) -> str:
    return f"Revision round {round_number}: address the issues in the file {file}."


def slop_aware_messages(
    round_number: int, file: str, tree: Mapping[str, str], issues: str, context_chars: int
) -> Messages:
    """Slop-aware revision: edit one file to address the listed issues."""
    return _per_file(slop_heading(round_number, file), issues, file, tree, context_chars)


def _per_file(
    heading: str, instruction: str, file: str, tree: Mapping[str, str], context_chars: int
) -> Messages:
    user = "\n".join([
        heading, "", instruction, "",
        "# The other files of the paper (read-only: do not edit them)",
        other_files(tree, file, context_chars), "",
        f"# The file to edit: {file}", file_block(file, tree[file]), "",
        "# How to answer", EDIT_FORMAT, "",
        f"Edit only {file}. If nothing in it should change, answer NOCHANGE.",
    ])  # fmt: skip
    return [{"role": "system", "content": REVISING_SYSTEM}, {"role": "user", "content": user}]


def slop_issues(round_number: int, results: Sequence[MeasureResult]) -> str:
    """The slop-aware instruction: one issue per pattern with instances, and its locations."""
    lines = [
        "An automated check of this manuscript found the following issues. Revise the paper to "
        f"address them. {NO_FABRICATION} Do not add citations that are not already in the "
        "paper, and do not change reported numbers.",
        f"This is revision round {round_number}.",
    ]
    found = [result for result in results if result.instances]
    for number, result in enumerate(found, start=1):
        lines += ["", f"## Issue {number}: {title(result.measure)}", *_issue(result)]
    return "\n".join(lines)


def _issue(result: MeasureResult) -> list[str]:
    definition, repair = _definition_and_repair(result.measure)
    lines = [definition, f"What to do: {repair}"]
    if result.measure == "evidence_gap":
        return [*lines, "Finding: the manuscript contains no concrete example."]
    total = len(result.instances)
    lines.append(f"Findings ({total} total; {result.unit_name}):")
    for item in result.instances[:SLOP_AWARE_SHOWN]:
        text = " ".join(item.text.split())
        lines.append(f"- {item.at.file}:{item.at.line} ({item.section}): {text}")
    if total > SLOP_AWARE_SHOWN:
        rest = total - SLOP_AWARE_SHOWN
        lines.append(f"- (and {rest} more of the same kind; treat them the same way)")
    return lines


def _definition_and_repair(measure: str) -> tuple[str, str]:
    """The definition and the repair paragraphs of a pattern's guidance section."""
    found = {"Definition:": "", "Repair:": ""}
    for paragraph in pattern_guidance(measure).split("\n\n"):
        flat = " ".join(paragraph.split())
        for prefix in found:
            if flat.startswith(prefix):
                found[prefix] = flat[len(prefix) :].strip()
    return found["Definition:"] or title(measure), found["Repair:"] or "repair it in place."
