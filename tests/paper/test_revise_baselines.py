"""The revision baselines (base, reviewer-refine, slop-aware) against a scripted loopback server.

Same editor, same rounds, same measurement as the harness; no review of the
changes. The preservation checks are recorded: a hard violation marks the
round, and the baseline keeps what it produced.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer, last_user_text
from slopmark.paper.document import Span
from slopmark.paper.measures.base import Instance, MeasureResult, choose_measures
from slopmark.paper.revise.baseline_prompts import slop_issues
from slopmark.paper.revise.baselines import files_from_markers
from slopmark.paper.revise.chat import ChatModel, ChatSpec
from slopmark.paper.revise.harness import revise
from slopmark.paper.revise.manuscript import Manuscript, read_manuscript
from slopmark.paper.revise.session import Roles, Session, Settings

openai_server = fake.openai_server
FIXTURES = Path(__file__).parent / "fixtures" / "revise"
PAPER = FIXTURES / "paper"
RECORDS = PAPER / "records"
IMPROVE = "Revise this paper so that it is a better research paper"
REVIEW = {
    "summary": "A sparse gate for small models.", "strengths": ["clear table"],
    "weaknesses": ["the related work never says how Switch routing differs"],
    "questions": ["what is top-1?"], "rating": 5,
}  # fmt: skip


def block(quote: str, replacement: str) -> str:
    return f"<<<<<<< ORIGINAL\n{quote}\n=======\n{replacement}\n>>>>>>> REVISED"


def session_at(
    server: FakeOpenAIServer, cache: Path, manuscript: Manuscript, reviewer: bool = True
) -> Session:
    def model(name: str) -> ChatModel:
        return ChatModel(ChatSpec(name, server.base_url), cache_dir=cache)

    roles = Roles(model("fake-editor"), model("fake-reviewer") if reviewer else None)
    settings = Settings(tuple(choose_measures("deterministic")), rounds=3)
    return Session(manuscript, roles, settings, RECORDS)


def markers(files: dict[str, str]) -> str:
    return "Here is the revision.\n" + "".join(
        f"<<<FILE {path}>>>\n{text}<<<END {path}>>>\n" for path, text in files.items()
    )


def test_base_prompting_takes_back_every_file_that_passes_the_checks(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    manuscript = read_manuscript(PAPER, skip=RECORDS)
    tree = manuscript.tree

    def editor(messages: list[dict[str, Any]]) -> str:
        if "This is revision round 1." not in last_user_text(messages):
            return "I have nothing more to improve."
        return markers({
            "main.tex": tree["main.tex"] * 3,
            "sections/intro.tex": tree["sections/intro.tex"].replace(
                "weak at reasoning", "weak at multi-step reasoning"),
            "sections/method.tex": tree["sections/method.tex"].replace("0.01", "0.02"),
        })  # fmt: skip

    openai_server.answer_routing({IMPROVE: editor})
    run = revise(session_at(openai_server, tmp_path / "cache", manuscript), "base")
    first_round = run.rounds[1]
    reasons = {r.file: r.reason for r in first_round.rejections}
    assert reasons["sections/results.tex"] == "file missing from the answer"
    assert "length 3.0× the original" in reasons["main.tex"]
    assert "multi-step reasoning" in first_round.tree["sections/intro.tex"]
    assert "0.02" in first_round.tree["sections/method.tex"]
    assert first_round.disqualified and not first_round.reviewed
    assert {v.kind for v in first_round.hard_violations} & {"number_changed", "number_lost"}
    assert run.stop == "the editor changed nothing in round 2"
    assert openai_server.request_count == 2  # one whole-source call per round, no review


def test_base_prompting_stops_when_the_editor_returns_the_same_source(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    manuscript = read_manuscript(PAPER, skip=RECORDS)
    openai_server.answer_routing({IMPROVE: markers(manuscript.tree)})
    run = revise(session_at(openai_server, tmp_path / "cache", manuscript), "base")
    assert run.stop == "the editor changed nothing in round 1"
    assert openai_server.request_count == 1


def test_reviewer_refine_reviews_then_edits_each_file_to_address_the_review(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    manuscript = read_manuscript(PAPER, skip=RECORDS)
    openai_server.answer_routing({
        "critical, but fair reviewer": "```json\n" + json.dumps(REVIEW) + "\n```",
        "Revision round 1: address the review in the file sections/intro.tex.": block(
            "Switch routing sends each token to a single expert \\cite{fedus2022}.",
            "Switch routing differs by sending each token to a single expert \\cite{fedus2022}."),
        "Revision round": "NOCHANGE",
    })  # fmt: skip
    run = revise(session_at(openai_server, tmp_path / "cache", manuscript), "reviewer-refine")
    first = run.rounds[1]
    assert json.loads(first.feedback) == REVIEW
    assert [c.role for c in first.calls] == ["reviewer"] + ["editor"] * 4
    assert "Switch routing differs" in first.tree["sections/intro.tex"]
    assert not first.reviewed and not first.hard_violations
    edits = [b for b in openai_server.requests if "address the review" in json.dumps(b)]
    assert all("how Switch routing differs" in json.dumps(body) for body in edits)
    assert run.stop == "the editor changed nothing in round 2"


def test_a_review_without_json_is_asked_again_on_a_shorter_source(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    sentences = "".join(f"Sentence {k} of a long paper says thing {k}.\n" for k in range(900))
    body = f"\\documentclass{{article}}\n\\begin{{document}}\n\\section{{Intro}}\n{sentences}"
    manuscript = Manuscript("long", "main.tex", {"main.tex": body + "\\end{document}\n"}, {})

    def review(messages: list[dict[str, Any]]) -> str:
        return "I liked it." if len(last_user_text(messages)) > 30_000 else json.dumps(REVIEW)

    openai_server.answer_routing({"critical, but fair reviewer": review, "Revision": "NOCHANGE"})
    session = session_at(openai_server, tmp_path / "cache", manuscript)
    run = revise(session, "reviewer-refine")
    first = run.rounds[1]
    subjects = [c.subject for c in first.calls if c.role == "reviewer"]
    assert subjects == ["paper review (50000 characters)", "paper review (24000 characters)"]
    assert json.loads(first.feedback)["rating"] == 5


def test_slop_aware_lists_the_problems_and_is_not_reviewed(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    manuscript = read_manuscript(FIXTURES / "gap_only")
    exhibit = (
        "\\begin{verbatim}\ninput: What is 17 + 25?\nsparse_gate output: 42\n\\end{verbatim}\n"
    )
    openai_server.answer_routing({
        "Revision round 1: address the issues in the file main.tex.": block(
            "\\caption{Accuracy and latency on the benchmark.}",
            "\\caption{Accuracy and latency on the benchmark.}\n" + exhibit.rstrip()),
    })  # fmt: skip
    session = session_at(openai_server, tmp_path / "cache", manuscript, reviewer=False)
    run = revise(session, "slop-aware")
    first = run.rounds[1]
    assert "## Issue 1: Evidence gap" in first.feedback
    assert "the manuscript contains no concrete example" in first.feedback
    assert "What to do: show one concrete case copied exactly from the experiment records" in (
        first.feedback
    )
    assert "17 + 25" in first.tree["main.tex"]
    gap = first.score.result("evidence_gap")
    assert gap is not None and gap.score == 0.0
    kinds = {v.kind for v in first.violations}
    assert "exhibit_added" in kinds and not first.hard_violations
    assert run.stop == "no finding left to address in round 2"
    assert openai_server.request_count == 1


def test_slop_aware_lists_twelve_instances_and_counts_the_rest() -> None:
    items = tuple(
        Instance("macro_redundancy", Span("main.tex", k), "2 Method", f"Sentence {k}.", "say once")
        for k in range(1, 16)
    )
    result = MeasureResult.of("macro_redundancy", "STRUCTURE", 15, 40, "sentences",
                              instances=items)  # fmt: skip
    text = slop_issues(2, [result])
    assert "This is revision round 2." in text
    assert "Findings (15 total; sentences):" in text
    assert "- main.tex:12 (2 Method): Sentence 12." in text and "Sentence 13." not in text
    assert "- (and 3 more of the same kind; treat them the same way)" in text


def test_file_markers_are_read_from_an_answer_with_prose_around_them() -> None:
    tree = {"main.tex": "\\documentclass{article}\nA.\n", "b.tex": "B.\n"}
    answer = (
        "Sure!\n<<<FILE main.tex>>>\n\\documentclass{article}\nA, revised.\n<<<END main.tex>>>\n"
    )
    revised, rejections = files_from_markers(answer, tree)
    assert revised == {"main.tex": "\\documentclass{article}\nA, revised.\n", "b.tex": "B.\n"}
    assert [(r.file, r.reason) for r in rejections] == [("b.tex", "file missing from the answer")]
