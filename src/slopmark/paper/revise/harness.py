"""The SciSlopHarness loop ("Science or Slop?", Section 4 and Appendix C) and the run driver.

Round r of the harness: the editor edits each ``.tex`` file where the
findings point (`editpass`); the round's changes are aligned paragraph by
paragraph and reviewed in batches against the original manuscript, the
previous round and the record lines holding the numbers of the revised text;
every change without an explicit keep is restored; the retained manuscript
is checked against the original (a hard violation discards the round: the
next round starts from the previous retained tree) and measured; the reviewer
may then retire instances for the rest of the run.

The run stops when no instance remains after retirement, when the editor
changes nothing, when review (or the preservation check) restores the whole
round twice in a row, or after ``Settings.rounds`` rounds. A paper without
any finding stops at round 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from slopmark.paper.revise.align import Change, changes, revert
from slopmark.paper.revise.editpass import edit_by_blocks
from slopmark.paper.revise.feedback import editor_findings, remaining, review_notes
from slopmark.paper.revise.manuscript import instances, parse_tree
from slopmark.paper.revise.preserve import check_preservation, reported_numbers
from slopmark.paper.revise.prompts import (
    editor_messages,
    files_text,
    retirement_messages,
    review_messages,
)
from slopmark.paper.revise.records import record_lines
from slopmark.paper.revise.review import (
    Retirement,
    Reviewed,
    batches,
    parse_retirements,
    parse_verdicts,
    retirement_candidates,
)
from slopmark.paper.revise.rounds import Call, RevisionRun, RoundRecord, check_method
from slopmark.paper.revise.session import Session, State, require_expanding
from slopmark.paper.score import PaperScore

Step = tuple[RoundRecord, State, str | None]
NO_FINDINGS = "stopped at round 0: the measures found no instance to revise"
NO_CHANGE = "the editor changed nothing in round {r}"
NONE_LEFT = "no instance remains after retirement (round {r})"
RESTORED = "review restored the whole round twice in a row (rounds {p} and {r})"
MAX_ROUNDS = "reached the maximum of {n} rounds"


def revise(session: Session, method: str = "harness") -> RevisionRun:
    """Revise the session's manuscript with ``method`` and record every round."""
    from slopmark.paper.revise.baselines import baseline_round

    check_method(method)
    manuscript = session.manuscript
    score = session.score(require_expanding(manuscript))
    rounds = [RoundRecord(0, manuscript.tree, score)]
    stop = NO_FINDINGS if not instances(score) else None
    state = State(dict(manuscript.tree), score)
    for number in range(1, session.settings.rounds + 1):
        if stop is not None:
            break
        if method == "harness":
            record, state, stop = harness_round(session, number, state)
        else:
            record, state, stop = baseline_round(session, method, number, state)
        rounds.append(record)
    described = dict(session.roles.described)
    final_stop = stop or MAX_ROUNDS.format(n=session.settings.rounds)
    return RevisionRun(method, manuscript.folder, manuscript.main, tuple(rounds), final_stop,
                       described)  # fmt: skip


def harness_round(session: Session, number: int, state: State) -> Step:
    """One editor pass, one review pass, the preservation check, one measurement."""
    paper = session.manuscript.folder
    feedback = editor_findings(paper, state.score, state.retired_keys, state.notes)
    draft = edit_by_blocks(
        session.roles.editor, state.tree, session.manuscript.main,
        lambda file: editor_messages(number, file, state.tree, feedback,
                                     session.settings.context_chars),
        session.settings.editor_tokens,
    )  # fmt: skip
    base = RoundRecord(number, state.tree, state.score, feedback, draft.tree, draft.calls,
                       draft.rejections)  # fmt: skip
    if draft.tree == state.tree:
        return base, state, NO_CHANGE.format(r=number)
    reviewed, retained, review_calls = review_round(session, number, state.tree, draft.tree)
    violations = tuple(check_preservation(session.original, retained, session.manuscript.main))
    disqualified = any(v.hard for v in violations)
    tree = state.tree if disqualified else retained
    score = state.score if tree == state.tree else session.measure(tree)
    retired, retire_call = propose_retirements(session, number, state, tree, score)
    record = replace(
        base, tree=tree, score=score, calls=draft.calls + review_calls + retire_call,
        reviewed=reviewed, retirements=retired, violations=violations,
        discarded=retained if disqualified else None,
    )  # fmt: skip
    return record, *_next_state(record, state)


def _next_state(record: RoundRecord, state: State) -> tuple[State, str | None]:
    """The state the next round starts from, and why the run stops (None: go on)."""
    retired = state.retired + tuple(item for item in record.retirements if item.accepted)
    violations = record.violations if record.disqualified else ()
    notes = review_notes(record.number, record.reviewed, retired, violations)
    restored = state.restored + 1 if record.tree == state.tree else 0
    new = State(dict(record.tree), record.score, retired, notes, restored)
    if not remaining(record.score, new.retired_keys):
        return new, NONE_LEFT.format(r=record.number)
    if restored >= 2:
        return new, RESTORED.format(p=record.number - 1, r=record.number)
    return new, None


def review_round(
    session: Session, number: int, previous: Mapping[str, str], draft: Mapping[str, str]
) -> tuple[tuple[Reviewed, ...], dict[str, str], tuple[Call, ...]]:
    """Every change of ``draft`` over ``previous`` reviewed; the tree keeping only the keeps."""
    found = changes(dict(previous), dict(draft))
    reviewed: list[Reviewed] = []
    calls: list[Call] = []
    for batch in batches(found, session.settings.batch_size):
        answer = session.reviewer().ask(
            review_messages(number, batch, session.original, _record_lines(session, batch),
                            session.settings.context_chars),
            session.settings.reviewer_tokens,
        )  # fmt: skip
        calls.append(Call("reviewer", "changes " + ", ".join(str(c.number) for c in batch), answer))
        verdicts = parse_verdicts(answer, [change.number for change in batch])
        reviewed += [Reviewed(change, verdicts[change.number]) for change in batch]
    return tuple(reviewed), restore_reverted(draft, previous, reviewed), tuple(calls)


def restore_reverted(
    draft: Mapping[str, str], previous: Mapping[str, str], reviewed: Sequence[Reviewed]
) -> dict[str, str]:
    """``draft`` with every reverted change restored to ``previous`` (last change first)."""
    tree = dict(draft)
    reverted = [r.change for r in reviewed if r.verdict.decision == "revert"]
    for change in sorted(reverted, key=lambda c: c.number, reverse=True):
        tree = revert(tree, dict(previous), change)
    return tree


def _record_lines(session: Session, batch: Sequence[Change]) -> list[tuple[str, int, str]]:
    if session.records is None:
        return []
    numbers = reported_numbers("\n\n".join(change.new for change in batch))
    return record_lines(session.records, numbers)[: session.settings.record_lines]


def propose_retirements(
    session: Session, number: int, state: State, tree: Mapping[str, str], score: PaperScore
) -> tuple[tuple[Retirement, ...], tuple[Call, ...]]:
    """The reviewer's retirement proposals for the instances still open after the round."""
    candidates = retirement_candidates(remaining(score, state.retired_keys))
    if not candidates:
        return (), ()
    sections = _section_headings(session, tree)
    text = files_text(tree, sorted(tree))
    messages = retirement_messages(number, candidates, sections, text,
                                   session.settings.context_chars)  # fmt: skip
    answer = session.reviewer().ask(messages, session.settings.reviewer_tokens)
    proposals = parse_retirements(answer, candidates, sections)
    return tuple(proposals), (Call("reviewer", "retirement", answer),)


def _section_headings(session: Session, tree: Mapping[str, str]) -> list[str]:
    document = parse_tree(session.manuscript, tree)
    return [
        f"{section.number} {section.title}" if section.number else section.title
        for section in document.sections
    ]
