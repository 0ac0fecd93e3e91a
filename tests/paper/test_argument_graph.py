"""Argument graph (Eqs. 4-5) against a real OpenAI-compatible server on 127.0.0.1.

The server's scripted labeller keys on the sentence number the prompt asks
about; its scripted scorer gives every prompt token -2.0 and adds a known gain
to the tokens of claim i when sentence j precedes it, so π(i) is known.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from fakes import openai_server as fake
from fakes.openai_server import Behaviour, FakeOpenAIServer, last_user_text, word_logprobs
from slopmark.paper.document import Document, Section, Sentence, Span
from slopmark.paper.measures.argument_graph import ArgumentGraph, majority, parse_label, pmi
from slopmark.paper.measures.base import choose_measures
from slopmark.paper.models import Endpoint, ModelSet, PromptLogprobs, TokenLogprob

openai_server = fake.openai_server
FIXTURES = Path(__file__).parent / "fixtures" / "argument_graph"
SENTENCES = (
    "Language models now draft entire research papers.",
    "Our reader is more accurate than every earlier detector.",
    "Earlier detectors only read isolated sentences.",
    "We therefore read each paper as a graph of claims.",
    "Whole-paper reading exposes reasoning that sentence detectors miss.",
)
LABELS = {1: "none", 2: "Superiority.", 3: "prior limitation", 4: "Design choice", 5: "None"}
#: Gain (per token) that sentence j gives claim i; every other pair gains 0.1.
GAINS = {(5, 2): 1.0, (1, 3): 0.8, (3, 4): 0.7}


def section(index: int, title: str, role: str, number: str | None) -> Section:
    return Section(
        index=index, level=1, title=title, starred=False, number=number, role=role,  # type: ignore[arg-type]
        top=index, in_body=True, in_appendix=False, at=Span("main.tex", 10 * index + 1), source="",
    )  # fmt: skip


def document(intro: tuple[str, ...] = SENTENCES) -> Document:
    sections = (
        section(0, "Introduction", "introduction", "1"),
        section(1, "Method", "method", "2"),
    )
    sentences = [Sentence(t, 0, Span("main.tex", 12 + k), source=t) for k, t in enumerate(intro)]
    sentences.append(Sentence("The reader builds a graph.", 1, Span("main.tex", 20)))
    return Document(
        main="main.tex", files=("main.tex",), title=None, sections=sections, labels=(),
        references=(), citations=(), floats=(), environments=(), sentences=tuple(sentences),
    )  # fmt: skip


def number(text: str) -> int:
    return SENTENCES.index(text) + 1


def scripted_logprobs(prompt: str) -> list[tuple[str, float]]:
    context, _, claim = prompt.rpartition("\n")
    if claim not in SENTENCES:  # the client's alignment probe
        return word_logprobs(prompt)
    gain = GAINS.get((number(context), number(claim)), 0.1) if context else 0.0
    tokens, start, position = [], len(context), 0
    for token, _ in word_logprobs(prompt):
        tokens.append((token, -2.0 + (gain if position >= start else 0.0)))
        position += len(token)
    return tokens


def asked_sentence(messages: list[dict[str, Any]]) -> int:
    found = re.search(r"fits sentence \[(\d+)\]", last_user_text(messages))
    assert found, "the label prompt names the sentence it asks about"
    return int(found.group(1))


@pytest.fixture
def scripted(openai_server: FakeOpenAIServer) -> FakeOpenAIServer:
    openai_server.answer = lambda messages: LABELS[asked_sentence(messages)]
    openai_server.logprobs = scripted_logprobs
    return openai_server


def models_at(server: FakeOpenAIServer, cache: Path) -> ModelSet:
    endpoint = Endpoint(server.base_url, "fake-model")
    return ModelSet(labeller=endpoint, scorer=endpoint, cache_dir=cache)


def test_a_claim_whose_best_support_comes_later_is_marked(
    scripted: FakeOpenAIServer, tmp_path: Path
) -> None:
    result = ArgumentGraph().measure(document(), models_at(scripted, tmp_path))
    assert (result.status, result.flagged, result.units, result.weak) == ("ok", 1, 3, False)
    assert result.score == pytest.approx(1 / 3)
    supports = {s["claim"]: (s["support"], s["pmi"]) for s in result.detail["supports"]}
    assert supports == {
        2: (5, pytest.approx(1.0)), 3: (1, pytest.approx(0.8)), 4: (3, pytest.approx(0.7))
    }  # fmt: skip
    assert [v["label"] for v in result.detail["labels"]] == [
        "none", "superiority", "prior limitation", "design choice", "none",
    ]  # fmt: skip
    [instance] = result.instances
    assert instance.at == Span("main.tex", 13) and instance.section == "1 Introduction"
    assert instance.text == SENTENCES[1]
    assert SENTENCES[4] in instance.repair and "before the claim" in instance.repair
    # 5 sentences × 3 label runs, the scorer's alignment probe, per claim 1 alone + 4 with context.
    assert result.detail["requests"] == 15 + 1 + 3 * 5 == scripted.request_count


def test_the_three_runs_are_three_calls_and_a_second_run_is_served_from_the_cache(
    scripted: FakeOpenAIServer, tmp_path: Path
) -> None:
    first = ArgumentGraph().measure(document(), models_at(scripted, tmp_path))
    label_calls = [body for body in scripted.requests if "messages" in body]
    assert len(label_calls) == 15 and len({str(b["messages"]) for b in label_calls}) == 5
    sent = scripted.request_count
    second = ArgumentGraph().measure(document(), models_at(scripted, tmp_path))
    assert scripted.request_count == sent
    assert second.detail["requests"] == 0 and second.detail["cache_hits"] == sent
    assert (second.score, second.detail["supports"]) == (first.score, first.detail["supports"])


def test_labels_are_the_majority_of_three_runs_and_ties_are_none(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    answers = {
        1: ["superiority", "I cannot tell", "superiority"],
        2: ["superiority", "design choice", "prior limitation"],
        3: ["prior limitation"] * 3, 4: ["design choice"] * 3, 5: ["none"] * 3,
    }  # fmt: skip
    seen: dict[int, int] = defaultdict(int)

    def answer(messages: list[dict[str, Any]]) -> str:
        asked = asked_sentence(messages)
        seen[asked] += 1
        return answers[asked][seen[asked] - 1]

    openai_server.answer = answer
    openai_server.logprobs = scripted_logprobs
    result = ArgumentGraph().measure(document(), models_at(openai_server, tmp_path))
    labels = result.detail["labels"]
    assert labels[0] == {"sentence": 1, "label": "superiority",
                         "runs": ["superiority", None, "superiority"]}  # fmt: skip
    assert labels[1]["label"] == "none"
    assert result.detail["unparsed_answers"] == 1
    assert result.detail["unparsed_examples"] == [{"sentence": 1, "answer": "I cannot tell"}]
    assert result.units == 3 and result.weak is False


def test_fewer_than_three_key_claims_flag_the_score_weak(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.answer = lambda m: {2: "superiority", 3: "prior limitation"}.get(
        asked_sentence(m), "none"
    )
    openai_server.logprobs = scripted_logprobs
    result = ArgumentGraph().measure(document(), models_at(openai_server, tmp_path))
    assert (result.status, result.flagged, result.units, result.weak) == ("ok", 1, 2, True)
    assert result.reason is not None and "2 key claims" in result.reason


def test_no_key_claims_is_not_applicable(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    openai_server.answer = lambda messages: "none"
    result = ArgumentGraph().measure(document(), models_at(openai_server, tmp_path))
    assert result.status == "not_applicable" and result.score is None
    assert result.reason == "no key claims among 5 introduction sentences"
    assert openai_server.request_count == 15  # labelled, nothing to score


def test_without_models_or_without_a_scorer_it_is_not_run(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    result = ArgumentGraph().measure(document(), None)
    assert (result.status, result.score) == ("not_run", None)
    assert result.reason is not None and "--model-config" in result.reason
    labeller_only = ModelSet(labeller=Endpoint(openai_server.base_url, "m"), cache_dir=tmp_path)
    result = ArgumentGraph().measure(document(), labeller_only)
    assert result.status == "not_run" and "scorer" in (result.reason or "")
    assert openai_server.request_count == 0


def test_a_server_failure_is_recorded_as_not_run(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.enqueue(Behaviour(status=400, error_message="context length exceeded"))
    result = ArgumentGraph().measure(document(), models_at(openai_server, tmp_path))
    assert result.status == "not_run"
    assert "labeller model 'fake-model'" in (result.reason or "")
    assert "context length exceeded" in (result.reason or "")


def test_a_misaligned_scorer_is_not_run_with_the_fix(
    scripted: FakeOpenAIServer, tmp_path: Path
) -> None:
    scripted.logprobs = lambda prompt: [(t, -9.0) for t, _ in word_logprobs(prompt)]
    result = ArgumentGraph().measure(document(), models_at(scripted, tmp_path))
    assert result.status == "not_run"
    assert "misaligned" in (result.reason or "") and "prompt_prefix" in (result.reason or "")


def test_an_introduction_of_one_sentence_is_not_applicable(tmp_path: Path) -> None:
    unused = Endpoint("http://127.0.0.1:9/v1", "m")
    models = ModelSet(labeller=unused, scorer=unused, cache_dir=tmp_path)
    result = ArgumentGraph().measure(document(SENTENCES[:1]), models)
    assert result.status == "not_applicable" and "1 sentence" in (result.reason or "")


def test_pmi_skips_the_first_token_and_averages_the_shared_positions() -> None:
    alone = PromptLogprobs("a bb c", (TokenLogprob("a", 0, None), TokenLogprob(" bb", 1, -3.0),
                                      TokenLogprob(" c", 4, -1.0)))  # fmt: skip
    conditioned = PromptLogprobs("x\na bb c", (
        TokenLogprob("x", 0, None), TokenLogprob("\na", 1, -9.0), TokenLogprob(" bb", 3, -2.0),
        TokenLogprob(" c", 6, -0.5),
    ))  # fmt: skip
    assert pmi(conditioned, 2, alone) == pytest.approx(((-2.0 + 3.0) + (-0.5 + 1.0)) / 2)
    single = PromptLogprobs("a", (TokenLogprob("a", 0, None),))
    assert pmi(conditioned, 2, single) is None


def test_answers_are_read_as_labels() -> None:
    assert parse_label("Label: Prior limitation.") == "prior limitation"
    assert parse_label("design_choice") == "design choice"
    assert parse_label("Superiority, not a design choice") == "superiority"
    assert parse_label("no idea") is None
    assert majority(("superiority", "superiority", "none")) == "superiority"
    assert majority((None, None, "design choice")) == "none"
    assert majority(("superiority", "design choice", None)) == "none"


def test_it_is_registered_as_a_model_based_argument_measure() -> None:
    [spec] = choose_measures("argument_graph")
    assert (spec.plane, spec.needs_model) == ("ARGUMENT", True)
    assert isinstance(spec.build(), ArgumentGraph)


def test_the_fixture_paper_parses_into_the_expected_introduction(
    scripted: FakeOpenAIServer, tmp_path: Path
) -> None:
    paper = FIXTURES / "later_support"
    expected = expectations(paper / "main.tex")
    parsed = parser()(paper)
    result = ArgumentGraph().measure(parsed, models_at(scripted, tmp_path))
    assert result.detail["introduction_sentences"] == expected["introduction_sentences"]
    assert result.units == expected["key_claims"] and result.flagged == expected["marked"]


def parser() -> Any:
    """`slopmark.paper.latex.load_document`; the test is skipped until the parser lands."""
    latex = pytest.importorskip("slopmark.paper.latex")
    if not hasattr(latex, "load_document"):
        pytest.skip("slopmark.paper.latex.load_document has not landed yet")
    return latex.load_document


def expectations(path: Path) -> dict[str, int]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    return {key: int(value) for key, value in re.findall(r"(\w+)=(\d+)", first)}
