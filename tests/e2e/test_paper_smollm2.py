"""The argument graph for real: SmolLM2-135M-Instruct served by llama.cpp labels and scores.

Runs only with ``SLOPMARK_E2E=1`` (``make e2e``); the server is started as in
`test_smollm2`. SmolLM2 may well label nonsense: the tests check that the
pipeline records what happened honestly and that prompt log-probabilities
really came back. Figure exposition is not run for real (SmolLM2 has no vision).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from e2e import test_smollm2 as smollm2
from slopmark.paper.document import Document, Section, Sentence, Span
from slopmark.paper.measures.argument_graph import ArgumentGraph, best_support
from slopmark.paper.models import PROBE_MIN_GAIN, Endpoint, ModelCallFailed, ModelSet

pytestmark = smollm2.pytestmark
llama_server = smollm2.llama_server
MODEL = "smollm2-135m-instruct"
#: SmolLM2 adds no BOS token; llama-cpp-python then misaligns echoed log-probabilities.
BOS = "<|im_start|>"
PAPER = Path(__file__).parents[1] / "paper" / "fixtures" / "argument_graph" / "later_support"
INTRODUCTION = (
    "Language models now draft entire research papers.",
    "Our reader is more accurate than every earlier detector.",
    "Earlier detectors only read isolated sentences.",
    "We therefore read each paper as a graph of claims.",
    "Whole-paper reading exposes reasoning that sentence detectors miss.",
)


def fixture_paper() -> Document:
    """The fixture paper, parsed when the LaTeX parser is there, else its introduction by hand."""
    try:
        from slopmark.paper.latex import load_document
    except ImportError:
        intro = Section(0, 1, "Introduction", False, "1", "introduction", 0, True, False,
                        Span("main.tex", 11), "")  # fmt: skip
        sentences = tuple(
            Sentence(text, 0, Span("main.tex", 12 + k), source=text)
            for k, text in enumerate(INTRODUCTION)
        )
        return Document("main.tex", ("main.tex",), None, (intro,), (), (), (), (), (), sentences)
    return load_document(PAPER)


def smollm2_models(url: str, cache: Path, prefix: str = BOS) -> ModelSet:
    return ModelSet(
        labeller=Endpoint(url, MODEL),
        scorer=Endpoint(url, MODEL, prompt_prefix=prefix),
        cache_dir=cache,
    )


def test_real_prompt_log_probabilities_come_back_aligned(llama_server: str, tmp_path: Path) -> None:
    models = smollm2_models(llama_server, tmp_path)
    scored = models.prompt_logprobs(INTRODUCTION[1])
    tokens = scored.starting_at(0)
    assert len(tokens) >= 5
    assert "".join(t.text for t in tokens).strip() == INTRODUCTION[1]
    values = [t.logprob for t in tokens[1:]]
    assert all(v is not None and v <= 0.0 and math.isfinite(v) for v in values)
    assert [t.offset for t in tokens] == sorted({t.offset for t in tokens})
    assert models.check_scorer() >= PROBE_MIN_GAIN


def test_without_the_bos_prefix_the_misaligned_scorer_is_refused(
    llama_server: str, tmp_path: Path
) -> None:
    models = smollm2_models(llama_server, tmp_path, prefix="")
    with pytest.raises(ModelCallFailed, match="misaligned"):
        models.check_scorer()


def test_the_argument_graph_records_what_smollm2_did(llama_server: str, tmp_path: Path) -> None:
    document = fixture_paper()
    result = ArgumentGraph().measure(document, smollm2_models(llama_server, tmp_path))
    assert result.status in ("ok", "not_applicable"), result.reason
    labels = result.detail["labels"]
    assert len(labels) == len(INTRODUCTION) == result.detail["introduction_sentences"]
    assert all(len(label["runs"]) == 3 for label in labels)
    unparsed = result.detail["unparsed_answers"]
    assert unparsed == sum(run is None for label in labels for run in label["runs"])
    assert len(result.detail["unparsed_examples"]) == min(unparsed, 5)
    claims = [label for label in labels if label["label"] != "none"]
    if result.status == "not_applicable":
        assert not claims and result.reason
        return
    assert result.units == len(result.detail["supports"]) == len(claims)
    assert result.flagged == len(result.instances)
    assert result.weak == (len(claims) < 3)
    for support in result.detail["supports"]:
        assert support["support"] != support["claim"] and math.isfinite(support["pmi"])
    again = ArgumentGraph().measure(document, smollm2_models(llama_server, tmp_path))
    assert again.detail["requests"] == 0 and again.score == result.score


def test_the_supporting_context_of_a_claim_is_found_with_real_log_probabilities(
    llama_server: str, tmp_path: Path
) -> None:
    """Eq. 4 on SmolLM2, whatever its labels: every other sentence is scored for claim 2."""
    models = smollm2_models(llama_server, tmp_path)
    found = best_support(1, list(INTRODUCTION), models)
    assert found is not None and found.claim == 2 and found.support in (1, 3, 4, 5)
    assert math.isfinite(found.pmi)
    assert models.requests == 1 + 1 + 4  # the alignment probe, the claim alone, 4 contexts
