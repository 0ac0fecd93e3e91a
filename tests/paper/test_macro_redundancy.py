"""Macro redundancy (Eq. 2): recycled sentences, on hand-built and parsed papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import CORPUS
from paper.expected import expected_counts
from slopmark.paper.document import Document, Role, Section, Sentence, Span
from slopmark.paper.latex import load_document
from slopmark.paper.measures import macro_redundancy as mr
from slopmark.paper.measures.base import measure_specs

FIXTURES = Path(__file__).parent / "fixtures" / "structure"

Part = tuple[str, Role, int, tuple[str, ...]]


def part(title: str, role: Role, *sentences: str, level: int = 1) -> Part:
    return (title, role, level, sentences)


def build(*parts: Part, appendix_from: int | None = None) -> Document:
    """Sections numbered 1..k (the abstract unnumbered), one sentence per line."""
    sections: list[Section] = []
    sentences: list[Sentence] = []
    top, number = 0, 0
    for index, (title, role, level, texts) in enumerate(parts):
        top = index if level <= 1 else top
        number += role != "abstract" and level == 1
        body = appendix_from is None or index < appendix_from
        at = Span("main.tex", 100 * index)
        printed = None if role == "abstract" else str(number) if level == 1 else f"{number}.x"
        sections.append(Section(
            index, 0 if role == "abstract" else level, title, False, printed, role, top,
            body and role != "abstract", not body, at, "",
        ))  # fmt: skip
        sentences += [
            Sentence(text, index, Span("main.tex", 100 * index + n + 1), source=text)
            for n, text in enumerate(texts)
        ]
    return Document(
        "main.tex", ("main.tex",), None, tuple(sections), (), (), (), (), (), tuple(sentences)
    )


CLAIM = "Our sparse router sends every token to a single expert and halves decoding cost."
ROUTER = "The router is a linear map followed by an argmax over the experts of each layer."

#: Nine unit sentences, two recycled (lines 102 and 401), two short ones left out.
PAPER = build(
    part("Abstract", "abstract", CLAIM, "We evaluate it on four language pairs."),
    part("Introduction", "introduction",
         "Dense layers dominate the decoding time of small translation models on laptops.",
         "In this paper, " + CLAIM.lower()),
    part("Method", "method",
         ROUTER, ROUTER,
         "Dense layers dominate the decoding time of small translation models, so we replace "
         "them with routed experts that each hold a quarter of the parameters."),
    part("Training", "method", ROUTER, "We train with plain cross-entropy.", level=2),
    part("Conclusion", "conclusion",
         "To summarise, " + CLAIM.lower(),
         "Future work will study routers that pick two experts for rare tokens only."),
    part("Broader Impact", "conclusion", CLAIM, level=2),
    part("Ethics Statement", "statement", CLAIM),
    part("Proofs", "appendix", CLAIM),
    appendix_from=7,
)  # fmt: skip


def test_two_of_nine_sentences_are_recycled() -> None:
    result = mr.macro_redundancy(PAPER)
    assert (result.status, result.flagged, result.units, result.unit_name) == (
        "ok", 2, 9, "sentences",
    )  # fmt: skip
    assert result.score == pytest.approx(2 / 9)
    assert [i.at.line for i in result.instances] == [102, 401]
    assert result.detail["short_sentences"] == 2


def test_an_instance_names_where_its_words_were_first_seen() -> None:
    first, second = mr.macro_redundancy(PAPER).instances
    assert first.section == "1 Introduction"
    assert first.text == "In this paper, " + CLAIM.lower()
    assert first.repair == "say it once; point back to Abstract instead"
    assert second.repair == "say it once; point back to Abstract instead"
    recycled = mr.macro_redundancy(PAPER).detail["recycled"][0]
    assert (recycled["covered"], recycled["tokens"]) == (14, 17)


def test_repeating_a_sentence_within_a_section_and_its_subsections_is_not_recycling() -> None:
    paper = build(
        part("Method", "method", ROUTER, ROUTER), part("Setup", "method", ROUTER, level=2)
    )
    assert mr.macro_redundancy(paper).flagged == 0


def test_a_phrase_first_seen_in_the_same_section_does_not_count_later() -> None:
    # The 8-grams are first seen in Method, so their reuse inside Method is never recycled,
    # but the Conclusion's copy is.
    paper = build(
        part("Method", "method", ROUTER, ROUTER), part("Conclusion", "conclusion", ROUTER)
    )
    assert [i.section for i in mr.macro_redundancy(paper).instances] == ["2 Conclusion"]


def test_statement_sections_appendix_and_short_sentences_are_not_units() -> None:
    paper = build(
        part("Introduction", "introduction", CLAIM, "Short one here."),
        part("Reproducibility", "other", CLAIM),
        part("Acknowledgements", "acknowledgements", CLAIM),
        part("Method", "method", "Short one here."),
        part("Extra", "appendix", CLAIM),
        appendix_from=4,
    )  # fmt: skip
    result = mr.macro_redundancy(paper)
    assert (result.flagged, result.units) == (0, 1)
    assert result.detail["short_sentences"] == 2


@pytest.mark.parametrize(("extra", "flagged"), [(8, 1), (9, 0)])
def test_half_of_the_tokens_is_enough(extra: int, flagged: int) -> None:
    # 8 recycled tokens + 8 new ones = 0.5 (flagged); + 9 new ones < 0.5 (not).
    recycled = "alpha beta gamma delta epsilon zeta eta theta"
    fresh = " ".join(f"new{chr(97 + n)}" for n in range(extra))
    paper = build(
        part("Introduction", "introduction", recycled + " one two three."),
        part("Method", "method", f"{recycled} {fresh}."),
    )
    assert mr.macro_redundancy(paper).flagged == flagged


def test_tokens_are_lowercase_words_with_sentinels() -> None:
    assert mr.tokens("As zzcite showed, Eq. zzref holds for $x$-values (zzmath).") == (
        "as", "zzcite", "showed", "eq", "zzref", "holds", "for", "x", "values", "zzmath",
    )  # fmt: skip


def test_case_and_punctuation_do_not_hide_recycling() -> None:
    paper = build(
        part("Abstract", "abstract", CLAIM),
        part("Conclusion", "conclusion", CLAIM.upper().replace(" ", " -- ")),
    )
    assert mr.macro_redundancy(paper).flagged == 1


def test_a_paper_without_sentences_is_not_applicable() -> None:
    result = mr.macro_redundancy(build(part("Introduction", "introduction", "Too short.")))
    assert (result.status, result.score) == ("not_applicable", None)


def test_registered_and_runs_on_a_long_paper() -> None:
    spec = measure_specs()["macro_redundancy"]
    assert (spec.plane, spec.needs_model) == ("STRUCTURE", False)
    sentence = "In section {s} sentence {n} restates the router of each layer with experts {m}."
    paper = build(*[
        part(f"S{s}", "other", *[sentence.format(s=s, n=n, m=n % 7) for n in range(50)])
        for s in range(8)
    ])  # fmt: skip
    result = spec.build().measure(paper, None)  # speed: benchmarks/paper_measure.py
    assert result.units == 400


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("macro_*.tex")), ids=lambda p: p.stem)
def test_fixture_papers_parse_to_their_expected_counts(path: Path) -> None:
    result = mr.macro_redundancy(load_document(path))
    expected = {k: int(v) for k, v in expected_counts(path).items()}
    assert (result.units, result.flagged) == (expected["sentences"], expected["recycled"])
    assert result.detail["short_sentences"] == expected["short"]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is absent")
@pytest.mark.parametrize("name", ["ai-scientist-adaptive_dual_scale_denoising",
                                  "ai-scientist-data_augmentation_grokking",
                                  "ai-scientist-gan_diffusion", "human-cnn-graph",
                                  "human-stable-nalu"])  # fmt: skip
def test_corpus_papers_are_measured(name: str) -> None:
    result = mr.macro_redundancy(load_document(CORPUS / name))
    assert result.status == "ok" and result.units > 0
    assert result.score is not None and 0 <= result.score <= 1
    assert len(result.instances) == result.flagged


def test_tokens_keep_hyphenated_words_and_decimals_whole() -> None:
    assert mr.tokens("A state-of-the-art model's F1 is 0.5, up 12%.") == (
        "a", "state-of-the-art", "model's", "f", "1", "is", "0.5", "up", "12",
    )  # fmt: skip


def test_eight_grams_holding_a_placeholder_never_count() -> None:
    """Two sentences that share only a skeleton of citations and math are not recycled."""
    skeleton = "zzcite zzcite zzmath zzmath zzcite zzref zzcite zzmath"
    paper = build(
        part("Introduction", "introduction", f"{skeleton} one two three four."),
        part("Method", "method", f"{skeleton} five six seven eight."),
    )
    assert mr.macro_redundancy(paper).flagged == 0
