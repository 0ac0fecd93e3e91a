"""The argument graph for real: SmolLM2-135M-Instruct served by llama.cpp labels and scores.

Runs only with ``SLOPMARK_E2E=1`` (``make e2e``); the server is started as in
`test_smollm2`. SmolLM2 may well label nonsense: the tests check that the
pipeline records what happened honestly and that prompt log-probabilities
really came back. Figure exposition is run with SmolLM2 as the "vision" model too:
it cannot see the image, and the result must say what happened, never a silent 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from e2e import test_smollm2 as smollm2
from slopmark.paper.document import Document
from slopmark.paper.latex import load_document
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
    return load_document(PAPER)


#: every ModelSet a test opened; closed when the test ends (their clients hold sockets)
_OPENED: list[ModelSet] = []


@pytest.fixture(autouse=True)
def _close_models() -> Iterator[None]:
    yield
    while _OPENED:
        _OPENED.pop().close()


def smollm2_models(url: str, cache: Path, prefix: str = BOS) -> ModelSet:
    models = ModelSet(
        labeller=Endpoint(url, MODEL),
        scorer=Endpoint(url, MODEL, prompt_prefix=prefix),
        cache_dir=cache,
    )
    _OPENED.append(models)
    return models


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


def test_figure_exposition_with_a_model_that_cannot_see_is_recorded_honestly(
    llama_server: str, tmp_path: Path
) -> None:
    import shutil

    from slopmark.paper.measures.figure_exposition import FigureExposition

    source = Path(__file__).parents[1] / "paper" / "fixtures" / "figure_exposition"
    folder = tmp_path / "paper"
    shutil.copytree(source / "method_figure", folder)
    _draw(folder / "figs" / "overview.png")
    _draw(folder / "figs" / "results.png")
    endpoint = Endpoint(llama_server, MODEL)
    models = ModelSet(labeller=endpoint, vision=endpoint, cache_dir=tmp_path / "cache")
    _OPENED.append(models)
    result = FigureExposition().measure(load_document(folder), models)
    assert result.status in ("ok", "not_run"), result
    if result.status == "ok":
        assert result.units == 6 and 0 <= result.flagged <= 6
        assert "transcript" in result.detail
    else:
        assert result.score is None and result.reason


def _draw(path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(3, 2), dpi=50)
    axes.text(0.1, 0.5, "Encoder -> Decoder")
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    pyplot.close(figure)
