"""The SciSlopHarness loop against a scripted editor and reviewer on a real loopback server.

The fake OpenAI-compatible server plays both models: editor answers are fixed
edit blocks keyed by the prompt's first line ("Revision round 1: edit the file
sections/method.tex."); the reviewer reads the changes it is sent and answers
JSON verdicts. Everything else is real: the cached client, the block parser,
the file checks, the alignment, the preservation checks and the measures.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer, last_user_text
from slopmark.errors import BadInput
from slopmark.paper.measures.base import choose_measures
from slopmark.paper.revise import harness
from slopmark.paper.revise.chat import ChatModel, ChatSpec
from slopmark.paper.revise.harness import revise
from slopmark.paper.revise.manuscript import Manuscript, measure_tree, read_manuscript
from slopmark.paper.revise.review import parse_retirements, parse_verdicts, retirement_candidates
from slopmark.paper.revise.session import Roles, Session, Settings

openai_server = fake.openai_server
FIXTURES = Path(__file__).parent / "fixtures" / "revise"
PAPER = FIXTURES / "paper"
RECORDS = PAPER / "records"
NOCHANGE = "NOCHANGE"
_CHANGE = re.compile(r"^## Change (\d+) \(.*?\)\nBEFORE:\n(.*?)\nAFTER:\n(.*?)(?=^## Change |^# )",
                     re.M | re.S)  # fmt: skip
_INSTANCE = re.compile(r"^(I\d+) \[[^\]]+\] (.*)$", re.M)


def block(quote: str, replacement: str) -> str:
    return f"<<<<<<< ORIGINAL\n{quote}\n=======\n{replacement}\n>>>>>>> REVISED"


def editor(round_number: int, file: str) -> str:
    return f"Revision round {round_number}: edit the file {file}."


def review_changes(text: str) -> list[tuple[int, str, str]]:
    """(number, before, after) of every change in a review prompt."""
    return [(int(m[1]), m[2], m[3]) for m in _CHANGE.finditer(text)]


def reviewer(
    keep: Callable[[str], bool], retire: dict[str, list[str]] | None = None
) -> Callable[[list[dict[str, Any]]], str]:
    """A reviewer keeping the changes whose AFTER text passes ``keep``, retiring by text."""

    def answer(messages: list[dict[str, Any]]) -> str:
        text = last_user_text(messages)
        if text.startswith("Retirement check"):
            return json.dumps({"retire": _retirements(text, retire or {})})
        verdicts = [
            {"change": number, "verdict": "keep", "category": "supported_repair",
             "reason": f'"{after.strip()[:40]}" uses material already in the manuscript'}
            if keep(after) else
            {"change": number, "verdict": "revert", "category": "number_changed",
             "reason": f'"{after.strip()[:40]}" is not supported'}
            for number, _, after in review_changes(text)
        ]  # fmt: skip
        return "Here are my verdicts:\n```json\n" + json.dumps(verdicts) + "\n```"

    return answer


def _retirements(text: str, retire: dict[str, list[str]]) -> list[dict[str, Any]]:
    found = []
    for ident, line in _INSTANCE.findall(text):
        for needle, sections in retire.items():
            if needle in line:
                found.append({"instance": ident, "sections_checked": sections, "reason": "unused"})
    return found


def session_at(
    server: FakeOpenAIServer, cache: Path, paper: Path = PAPER, rounds: int = 3,
    records: Path | None = RECORDS,
) -> Session:  # fmt: skip
    manuscript = read_manuscript(paper, skip=records)
    roles = Roles(
        ChatModel(ChatSpec("fake-editor", server.base_url), cache_dir=cache),
        ChatModel(ChatSpec("fake-reviewer", server.base_url), cache_dir=cache),
    )
    settings = Settings(tuple(choose_measures("deterministic")), rounds)
    return Session(manuscript, roles, settings, records)


ROUND_ONE = {
    editor(1, "main.tex"): block("\\bibliography{refs}\n\\end{document}", "\\bibliography{refs}"),
    editor(1, "sections/intro.tex"): "\n".join(
        [
            block("each token to a", "every token to a"),
            block(
                "Switch routing sends each token to a single expert \\cite{fedus2022}.",
                "Switch routing simplifies these mixture-of-experts layers by sending each token "
                "to a single expert \\cite{fedus2022}.",
            ),
        ]
    ),  # fmt: skip
    editor(1, "sections/method.tex"): block(
        "weighted by 0.01.", "weighted by 0.02, which keeps the experts balanced."
    ),
    editor(1, "sections/results.tex"): block(
        "Table~\\ref{tab:main} compares the gate with a dense model of the same size.",
        "Table~\\ref{tab:main} compares the gate with a dense model. " * 60,
    ),
}


def test_a_round_applies_refuses_reverts_keeps_and_retires(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    retire = {"Equation (1)": ["1 Introduction", "3 Results"], "Section 1: Introduction": []}
    openai_server.answer_routing({
        **ROUND_ONE, "Revision round 2": NOCHANGE,
        "Review of revision round": reviewer(lambda after: "0.02" not in after),
        "Retirement check": reviewer(lambda after: True, retire),
    })  # fmt: skip
    session = session_at(openai_server, tmp_path / "cache")
    run = revise(session)
    assert [r.number for r in run.rounds] == [0, 1, 2]
    assert run.stop == "the editor changed nothing in round 2"
    first = run.rounds[1]
    refused = {(r.file, r.reason) for r in first.rejections}
    assert ("main.tex", "\\end{document} removed") in refused
    assert ("sections/intro.tex", "quote occurs 2 times") in refused
    assert any(f == "sections/results.tex" and "length" in why for f, why in refused)
    verdicts = {r.change.file: r.verdict for r in first.reviewed}
    assert set(verdicts) == {"sections/intro.tex", "sections/method.tex"}
    assert verdicts["sections/intro.tex"].decision == "keep"
    assert verdicts["sections/method.tex"].decision == "revert"
    assert verdicts["sections/method.tex"].category == "number_changed"
    assert "simplifies these mixture-of-experts" in first.tree["sections/intro.tex"]
    assert first.tree["sections/method.tex"] == session.original["sections/method.tex"]
    assert first.tree["main.tex"] == session.original["main.tex"]
    assert "0.02" in first.draft["sections/method.tex"]
    assert not first.disqualified and not first.hard_violations
    assert first.score == measure_tree(session.manuscript, first.tree, session.settings.specs)
    accepted = [r for r in first.retirements if r.accepted]
    refused_retirements = [r for r in first.retirements if not r.accepted]
    assert [r.text.startswith("Equation (1)") for r in accepted] == [True]
    assert accepted[0].sections_checked == ("1 Introduction", "3 Results")
    assert [r.refusal for r in refused_retirements] == ["no sections named as checked for a home"]


def test_the_next_round_hears_the_reverts_and_the_retirements(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.answer_routing({
        **ROUND_ONE, "Revision round 2": NOCHANGE,
        "Review of revision round": reviewer(lambda after: "0.02" not in after),
        "Retirement check": reviewer(lambda after: True, {"Equation (1)": ["Results"]}),
    })  # fmt: skip
    run = revise(session_at(openai_server, tmp_path / "cache"))
    feedback = run.rounds[2].feedback
    findings, notes = feedback.split("## Review notes from round 1")
    assert "Equation (1)" not in findings
    assert "Table 1: Accuracy and latency" in findings
    assert "### Reverted changes" in notes and "number_changed" in notes
    assert "weighted by 0.02" in notes
    assert "### Retired instances" in notes and "Equation (1)" in notes
    measured = run.rounds[1].score.result("cross_section_references")
    assert measured is not None
    assert any(i.text.startswith("Equation (1)") for i in measured.instances)
    round_two = [r for r in openai_server.requests if "Revision round 2" in json.dumps(r)]
    assert len(round_two) == 4


def test_a_number_change_the_reviewer_keeps_is_caught_by_the_preservation_check(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    change = block("weighted by 0.01.", "weighted by 0.02.")
    openai_server.answer_routing({
        "edit the file sections/method.tex": change, "Revision round": NOCHANGE,
        "Review of revision round": reviewer(lambda after: True),
        "Retirement check": json.dumps({"retire": []}),
    })  # fmt: skip
    session = session_at(openai_server, tmp_path / "cache")
    run = revise(session)
    first = run.rounds[1]
    assert [r.verdict.decision for r in first.reviewed] == ["keep"]
    assert first.disqualified
    assert any(v.kind in ("number_changed", "number_lost") for v in first.hard_violations)
    assert first.tree == session.original
    assert first.discarded is not None and "0.02" in first.discarded["sections/method.tex"]
    assert "The round was discarded" in run.rounds[2].feedback
    assert run.stop == "review restored the whole round twice in a row (rounds 1 and 2)"
    assert run.final.tree == session.original


def test_review_restoring_everything_twice_stops_the_run(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.answer_routing({
        "edit the file sections/intro.tex": block(
            "Small language models are cheap to serve but weak at reasoning.",
            "Small language models are cheap to serve and, as Table~\\ref{tab:main} shows, fast."),
        "Revision round": NOCHANGE,
        "Review of revision round": reviewer(lambda after: False),
        "Retirement check": json.dumps({"retire": []}),
    })  # fmt: skip
    session = session_at(openai_server, tmp_path / "cache", rounds=3)
    run = revise(session)
    assert len(run.rounds) == 3
    assert run.stop == "review restored the whole round twice in a row (rounds 1 and 2)"
    assert all(r.verdict.decision == "revert" for r in run.rounds[1].reviewed)
    assert run.final.tree == session.original


def test_no_instance_left_after_retirement_stops_the_run(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.answer_routing({
        "Revision round 1: edit the file main.tex": block(
            "Latency matters most when a phone answers offline.",
            "Latency matters most when a phone answers without a network."),
        "Review of revision round": reviewer(lambda after: True),
        "Retirement check": reviewer(lambda after: True, {"Table 1": ["Introduction", "Results"]}),
    })  # fmt: skip
    run = revise(session_at(openai_server, tmp_path / "cache", FIXTURES / "gap_only", 3, None))
    assert run.stop == "no instance remains after retirement (round 1)"
    final = run.final
    assert "without a network" in final.tree["main.tex"]
    gap = final.score.result("evidence_gap")
    assert gap is not None and gap.score == 1.0 and len(gap.instances) == 1
    assert [r.measure for r in final.retirements if r.accepted] == ["evidence_gap"]


def test_the_run_stops_after_the_maximum_of_rounds(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.answer_routing({
        "Revision round 1: edit the file main.tex": block(
            "Latency matters most when a phone answers offline.",
            "Latency matters most when a phone answers without a network."),
        "Revision round 2: edit the file main.tex": block(
            "Small language models are cheap to serve on phones.",
            "Small language models are cheap to serve on mobile phones."),
        "Review of revision round": reviewer(lambda after: True),
        "Retirement check": json.dumps({"retire": []}),
    })  # fmt: skip
    run = revise(session_at(openai_server, tmp_path / "cache", FIXTURES / "gap_only", 2, None))
    assert run.stop == "reached the maximum of 2 rounds"
    assert len(run.rounds) == 3
    text = run.final.tree["main.tex"]
    assert "without a network" in text and "on mobile phones" in text


def test_the_editor_changing_nothing_stops_at_round_one(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.answer_routing({"Revision round": NOCHANGE})
    run = revise(session_at(openai_server, tmp_path / "cache"))
    assert run.stop == "the editor changed nothing in round 1"
    assert len(run.rounds) == 2 and not run.rounds[1].reviewed
    assert openai_server.request_count == 4  # one call per .tex file, no review


def test_a_paper_without_findings_stops_at_round_zero(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    run = revise(session_at(openai_server, tmp_path / "cache", FIXTURES / "clean", 3, None))
    assert run.stop == harness.NO_FINDINGS
    assert len(run.rounds) == 1
    assert openai_server.request_count == 0


def test_a_paper_that_does_not_expand_is_bad_input(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    session = session_at(openai_server, tmp_path / "cache", FIXTURES / "broken", 3, None)
    with pytest.raises(BadInput, match=r"main\.tex:5: the paper does not expand.*sections/missing"):
        revise(session)


def test_a_second_run_replays_every_call_from_the_cache(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.answer_routing({
        **ROUND_ONE, "Revision round 2": NOCHANGE,
        "Review of revision round": reviewer(lambda after: "0.02" not in after),
        "Retirement check": json.dumps({"retire": []}),
    })  # fmt: skip
    first = revise(session_at(openai_server, tmp_path / "cache"))
    sent = openai_server.request_count
    again = session_at(openai_server, tmp_path / "cache")
    second = revise(again)
    assert openai_server.request_count == sent
    assert isinstance(again.roles.editor, ChatModel) and again.roles.editor.hits == 8
    assert [r.tree for r in second.rounds] == [r.tree for r in first.rounds]


def test_verdicts_only_an_explicit_keep_retains_a_change() -> None:
    answer = '[{"change": "Change 1", "verdict": "KEEP", "category": "supported_repair", ' \
        '"reason": "\\"see Table 1\\" uses Table 1"}, {"change": 2, "verdict": "maybe"}, ' \
        '{"change": 3, "verdict": "keep"}, {"change": 3, "verdict": "revert"}]'  # fmt: skip
    verdicts = parse_verdicts(answer, [1, 2, 3, 4])
    assert verdicts[1].decision == "keep" and verdicts[1].reason == '"see Table 1" uses Table 1'
    assert [verdicts[n].decision for n in (2, 3, 4)] == ["revert"] * 3
    assert {verdicts[n].category for n in (2, 3, 4)} == {"no_verdict"}
    assert all(v.decision == "revert" for v in parse_verdicts("I keep them all.", [1, 2]).values())


def test_retirements_must_name_a_section_of_the_paper(tmp_path: Path) -> None:
    manuscript: Manuscript = read_manuscript(PAPER, skip=RECORDS)
    score = measure_tree(manuscript, manuscript.tree, choose_measures("deterministic"))
    candidates = retirement_candidates(i for r in score.results for i in r.instances)
    assert {c.measure for c in candidates} == {"cross_section_references", "evidence_gap"}
    sections = ["Abstract", "1 Introduction", "2 Method", "3 Results"]
    answer = json.dumps({"retire": [
        {"instance": "I1", "sections_checked": ["Section 3"], "reason": "r"},
        {"instance": "I2", "sections_checked": ["Discussion"], "reason": "r"},
        {"instance": "I99", "sections_checked": ["Method"], "reason": "r"},
    ]})  # fmt: skip
    found = parse_retirements(answer, candidates, sections)
    assert [(r.accepted, r.refusal[:20]) for r in found] == [
        (True, ""), (False, "none of the sections"),
    ]  # fmt: skip
