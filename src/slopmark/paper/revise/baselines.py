"""The revision baselines ("Science or Slop?", Appendix D): base, reviewer-refine, slop-aware.

They share the editor, the rounds and the measurement with the harness, and
nothing else: no review of the changes, no retirement. Their rounds get the
same preservation checks against the original; a hard violation marks the
round (``disqualified``) but the baseline keeps its tree, since that is what
the baseline produced.

- base: the whole source in one call, every file returned between
  ``<<<FILE path>>>`` and ``<<<END path>>>``; a returned file replaces the old
  one only when it is present, changed, and passes `accept_file`;
- reviewer-refine: the reviewer writes a JSON review of the source (cut to
  50,000 characters, then 24,000 and 14,000 when no valid JSON comes back),
  then the editor edits each file to address it;
- slop-aware: the detected problems with definitions and repair directions,
  then the editor edits each file; a round with no finding is not run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from slopmark.paper.revise.baseline_prompts import (
    base_messages,
    refine_messages,
    review_request,
    slop_aware_messages,
    slop_issues,
)
from slopmark.paper.revise.editpass import Draft, edit_by_blocks, file_order
from slopmark.paper.revise.edits import Rejection, accept_file
from slopmark.paper.revise.manuscript import instances
from slopmark.paper.revise.preserve import check_preservation
from slopmark.paper.revise.prompts import files_text
from slopmark.paper.revise.review import first_json
from slopmark.paper.revise.rounds import Call, RoundRecord
from slopmark.paper.revise.session import Session, State

Step = tuple[RoundRecord, State, str | None]
#: Source lengths tried in turn until the reviewer returns valid JSON.
REVIEW_CHARS = (50_000, 24_000, 14_000)
REVIEW_FIELDS = ("summary", "strengths", "weaknesses", "questions", "rating")
NO_FINDINGS = "no finding left to address in round {r}"
NO_CHANGE = "the editor changed nothing in round {r}"
_FILE = re.compile(r"<<<FILE (?P<path>[^>\n]+?)>>>\n?(?P<text>.*?)\n?<<<END (?P=path)>>>", re.S)


def baseline_round(session: Session, method: str, number: int, state: State) -> Step:
    """One round of a baseline: one editor pass, the preservation check, one measurement."""
    if method == "slop-aware" and not instances(state.score):
        record = RoundRecord(number, state.tree, state.score)
        return record, state, NO_FINDINGS.format(r=number)
    draft, feedback = _EDITS[method](session, number, state)
    record = RoundRecord(number, state.tree, state.score, feedback, draft.tree, draft.calls,
                         draft.rejections)  # fmt: skip
    if draft.tree == state.tree:
        return record, state, NO_CHANGE.format(r=number)
    violations = tuple(check_preservation(session.original, draft.tree, session.manuscript.main))
    score = session.measure(draft.tree)
    record = replace(record, tree=draft.tree, score=score, violations=violations)
    return record, State(dict(draft.tree), score), None


def base_edit(session: Session, number: int, state: State) -> tuple[Draft, str]:
    """Base prompting: one call with the whole source; files back between markers."""
    order = file_order(state.tree, session.manuscript.main)
    messages = base_messages(number, state.tree, order)
    answer = session.roles.editor.ask(messages, session.settings.editor_tokens)
    tree, rejections = files_from_markers(answer, state.tree)
    return Draft(tree, (), tuple(rejections), (Call("editor", "all files", answer),)), ""


def files_from_markers(
    answer: str, tree: Mapping[str, str]
) -> tuple[dict[str, str], list[Rejection]]:
    """The tree with every returned file that passes the checks; the others are logged."""
    returned = {m.group("path").strip(): m.group("text") for m in _FILE.finditer(answer)}
    revised, rejections = dict(tree), []
    for path, old in tree.items():
        new = returned.get(path)
        if new is None:
            rejections.append(Rejection(path, "file missing from the answer"))
            continue
        if new.strip() == old.strip():
            continue
        refusal = accept_file(old, new, path)
        if refusal is None:
            revised[path] = new if new.endswith("\n") or not old.endswith("\n") else new + "\n"
        else:
            rejections.append(refusal)
    return revised, rejections


def refine_edit(session: Session, number: int, state: State) -> tuple[Draft, str]:
    """Reviewer-based refinement: a JSON review, then one edit call per file addressing it."""
    review, review_calls = paper_review(session, state.tree)
    settings = session.settings
    draft = edit_by_blocks(
        session.roles.editor, state.tree, session.manuscript.main,
        lambda file: refine_messages(number, file, state.tree, review, settings.context_chars),
        settings.editor_tokens,
    )  # fmt: skip
    return Draft(draft.tree, draft.applied, draft.rejections, review_calls + draft.calls), review


def paper_review(session: Session, tree: Mapping[str, str]) -> tuple[str, tuple[Call, ...]]:
    """The reviewer's JSON review (compact JSON text), retried on a shorter source; else the
    last answer's text as it came."""
    source = files_text(tree, file_order(tree, session.manuscript.main))
    calls: list[Call] = []
    for limit in REVIEW_CHARS:
        if calls and len(source) <= limit:
            break  # the shorter cut would send the same prompt again
        answer = session.reviewer().ask(review_request(source[:limit]),
                                        session.settings.reviewer_tokens)  # fmt: skip
        calls.append(Call("reviewer", f"paper review ({limit} characters)", answer))
        found = first_json(answer)
        if isinstance(found, dict) and any(name in found for name in REVIEW_FIELDS):
            return _compact(found), tuple(calls)
    return calls[-1].answer.strip(), tuple(calls)


def _compact(review: dict[str, object]) -> str:
    return json.dumps(review, ensure_ascii=False, separators=(",", ":"))


def slop_aware_edit(session: Session, number: int, state: State) -> tuple[Draft, str]:
    """Slop-aware revision: the located problems, then one edit call per file."""
    issues = slop_issues(number, state.score.results)
    settings = session.settings
    draft = edit_by_blocks(
        session.roles.editor, state.tree, session.manuscript.main,
        lambda file: slop_aware_messages(number, file, state.tree, issues,
                                         settings.context_chars),
        settings.editor_tokens,
    )  # fmt: skip
    return draft, issues


_EDITS: dict[str, Callable[[Session, int, State], tuple[Draft, str]]] = {
    "base": base_edit,
    "reviewer-refine": refine_edit,
    "slop-aware": slop_aware_edit,
}
