"""Citation isolation (Eq. 6): which citing sentences weave, on hand-built and parsed papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import CORPUS
from paper.expected import expected_counts
from slopmark.paper.document import Citation, Document, Role, Section, Sentence, Span
from slopmark.paper.latex import load_document
from slopmark.paper.measures import citation_isolation as ci
from slopmark.paper.measures import measure_specs
from slopmark.paper.measures.cues import author_mentions, find_cue, mentions_present_paper

FIXTURES = Path(__file__).parent / "fixtures" / "argument"


def section(index: int, title: str, role: Role, *, body: bool = True) -> Section:
    number = str(index) if index else None
    at = Span("main.tex", index * 100 + 1)
    return Section(index, 1, title, False, number, role, index, body, not body, at, "")


def sentence(where: int, text: str, *commands: tuple[str, ...], line: int = 1) -> Sentence:
    at = Span("main.tex", line)
    cites = tuple(Citation(keys, "citep", where, at) for keys in commands)
    return Sentence(text, where, at, cites, (), source=text)


def document(*sentences: Sentence, bibliography: dict[str, str] | None = None) -> Document:
    sections = (
        section(0, "Abstract", "abstract"),
        section(1, "Introduction", "introduction"),
        section(2, "Related Work", "related_work"),
        section(3, "Method", "method"),
        section(4, "Extra related work", "appendix", body=False),
    )
    citations = tuple(c for s in sentences for c in s.citations)
    return Document(
        "main.tex", ("main.tex",), None, sections, (), (), citations, (), (), tuple(sentences),
        bibliography=bibliography or {},
    )  # fmt: skip


#: Nine citing sentences in scope; 4 isolated (lines 2, 5, 7, 8); woven: 2 by two works,
#: 2 by a named second work, 1 by a cue. Lines 10-12 are outside the scope.
PAPER = document(
    sentence(1, "Unlike GCN zzcite, GraphSAGE zzcite samples neighbours.", ("gcn",), ("sage",),
             line=1),
    sentence(1, "Unlike zzcite, our method needs no labels.", ("gcn",), line=2),
    sentence(1, "Encoders are pretrained on large corpora zzcite.", ("devlin", "liu"), line=3),
    sentence(2, "zzcite reweights the estimator of Smith et al. with learned weights.",
             ("jones2020",), line=4),
    sentence(2, "Smith et al. zzcite propose a reweighting estimator.", ("smith2019",), line=5),
    sentence(2, "zzcite extends dropout to recurrent networks.", ("gal2016",), line=6),
    sentence(2, "We follow zzcite in using a cosine schedule.", ("loshchilov",), line=7),
    sentence(2, "TabDDPM zzcite applies diffusion to tables.", ("kotelnikov",), line=8),
    sentence(2, "zzcite applies the TabDDPM recipe to graphs.", ("graphdiff",), line=9),
    sentence(2, "Graph methods are popular.", line=13),
    sentence(3, "Unlike zzcite, we sample.", ("gcn",), line=10),
    sentence(3, "zzcite is fast.", ("sage",), line=11),
    sentence(4, "zzcite is slow.", ("old",), line=12),
)  # fmt: skip


def test_counts_isolated_citing_sentences_of_intro_and_related_work_only() -> None:
    result = ci.citation_isolation(PAPER)
    assert (result.status, result.flagged, result.units) == ("ok", 4, 9)
    assert result.score == pytest.approx(4 / 9)
    assert not result.weak
    assert [i.at.line for i in result.instances] == [2, 5, 7, 8]
    assert result.detail["woven"] == {"cites_two_works": 2, "names_second_work": 2, "cue": 1}


def test_contrast_between_two_works_weaves_but_contrast_with_our_method_does_not() -> None:
    names = ci.work_names(PAPER)
    two = ci.weave(PAPER.sentences[0], names, {})
    ours = ci.weave(PAPER.sentences[1], names, {})
    assert two == ci.Weave("cites_two_works", "gcn, sage")
    assert ours is None


def test_two_keys_in_one_command_are_two_works() -> None:
    assert ci.cited_keys(PAPER.sentences[2]) == ("devlin", "liu")
    assert ci.weave(PAPER.sentences[2], {}, {}) == ci.Weave("cites_two_works", "devlin, liu")


def test_same_key_cited_twice_is_one_work() -> None:
    twice = sentence(1, "zzcite shows it, as zzcite notes.", ("a",), ("a",))
    assert ci.weave(twice, {}, {}) is None


def test_author_mention_outside_the_command_names_a_second_work() -> None:
    assert ci.weave(PAPER.sentences[3], {}, {}) == ci.Weave("names_second_work", "Smith et al.")


def test_author_mention_of_the_cited_work_itself_is_not_a_second_work() -> None:
    assert ci.weave(PAPER.sentences[4], {}, {}) is None
    spelled = sentence(1, "As shown by Smith et al., pruning helps zzcite.", ("smith2019",))
    assert ci.weave(spelled, {}, {}) is None
    by_bib = sentence(1, "As shown by Smith et al., pruning helps zzcite.", ("prune",))
    assert ci.weave(by_bib, {}, {"prune": "A. Smith and B. Lee. Pruning."}) is None


def test_cue_linking_two_works_weaves_without_the_present_paper() -> None:
    assert ci.weave(PAPER.sentences[5], {}, {}) == ci.Weave("cue", "extension: extends")
    ours = sentence(1, "Our estimator extends zzcite to graphs.", ("gal2016",))
    assert ci.weave(ours, {}, {}) is None


def test_names_bound_to_citations_name_works_elsewhere() -> None:
    assert ci.work_names(PAPER) == {"GCN": "gcn", "GraphSAGE": "sage", "TabDDPM": "kotelnikov"}
    assert ci.weave(PAPER.sentences[8], ci.work_names(PAPER), {}) == ci.Weave(
        "names_second_work", "TabDDPM"
    )


def test_generic_and_ambiguous_names_are_not_work_names() -> None:
    paper = document(
        sentence(1, "Large language models (LLMs) zzcite write text.", ("gpt3",)),
        sentence(1, "BigNet zzcite and BigNet zzcite differ.", ("b1",), ("b2",)),
        sentence(2, "zzcite fine-tunes LLMs with BigNet.", ("ft",)),
    )
    assert ci.work_names(paper) == {}
    assert ci.weave(paper.sentences[2], {}, {}) is None


def test_bibliography_titles_name_works() -> None:
    entry = "@article{kingma, title={{Adam}: A method for stochastic optimization}"
    bibliography = {"kingma": entry}
    paper = document(sentence(2, "zzcite trains with Adam and warm restarts.", ("sgdr",)),
                     bibliography=bibliography)  # fmt: skip
    assert ci.work_names(paper) == {"Adam": "kingma"}
    result = ci.citation_isolation(paper)
    assert (result.flagged, result.units) == (0, 1)


def test_fewer_than_eight_citing_sentences_is_weak_with_the_reason() -> None:
    result = ci.citation_isolation(document(*PAPER.sentences[:3]))
    assert (result.flagged, result.units, result.weak) == (1, 3, True)
    assert result.reason == "only 3 citing sentences (fewer than 8)"


def test_no_citing_sentence_is_not_applicable_with_the_reason() -> None:
    result = ci.citation_isolation(document(sentence(3, "zzcite is fast.", ("sage",))))
    assert result.status == "not_applicable" and result.score is None
    assert result.reason == "no citing sentences in the introduction or related work"


def test_instances_are_located_and_say_what_to_relate() -> None:
    first = ci.citation_isolation(PAPER).instances[0]
    assert first.at == Span("main.tex", 2)
    assert first.section == "1 Introduction"
    assert first.text == "Unlike zzcite, our method needs no labels."
    assert first.repair == "say how gcn relates to the other works it sits beside"


def test_the_registered_measure_computes_the_same_result() -> None:
    spec = measure_specs()["citation_isolation"]
    assert spec.build is ci.CitationIsolation
    assert spec.name == "citation_isolation" and spec.plane == "ARGUMENT"
    assert not spec.needs_model
    assert spec.build().measure(PAPER, None) == ci.citation_isolation(PAPER)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("zzcite improves upon zzcite.", ("extension", "improves upon")),
        ("In contrast, zzcite trains end to end.", ("contrast", "In contrast")),
        ("While zzcite uses pixels, zzcite uses graphs.", ("contrast", "While zzcite uses pixels")),
        ("zzcite uses pixels, while zzcite uses graphs.", ("contrast", "while")),
        ("Following zzcite, the field moved on.", ("extension", "Following")),
        ("zzcite is similar to earlier models.", ("comparison", "similar to")),
        ("zzcite is described in the following section.", None),
        ("zzcite proceeds as follows.", None),
        ("zzcite is unstable while training.", None),
    ],
)
def test_cue_list(text: str, expected: tuple[str, str] | None) -> None:
    assert find_cue(text) == expected


def test_present_paper_markers_and_author_mentions() -> None:
    assert mentions_present_paper("In this work, zzcite is used.")
    assert not mentions_present_paper("zzcite is used by others.")
    assert [m for m, _ in author_mentions("Smith and Jones (2020) and Lee, 2019")] == ["Smith"]
    assert [m for m, _ in author_mentions("as Lee (2019) and (Kim, 2021) show")] == ["Lee", "Kim"]
    assert author_mentions("In (2020) and Table (2021) nothing") == []


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.tex")), ids=lambda p: p.stem)
def test_fixture_papers_parse_to_their_expected_counts(path: Path) -> None:
    expected = expected_counts(path)
    result = ci.citation_isolation(load_document(path))
    assert result.units == int(expected["citing"])
    assert result.flagged == int(expected["isolated"])
    assert result.weak == (expected["weak"] == "true")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is absent")
@pytest.mark.parametrize("paper", sorted(p.name for p in CORPUS.glob("*") if p.is_dir()))
def test_corpus_papers_are_measured_without_error(paper: str) -> None:
    result = ci.citation_isolation(load_document(CORPUS / paper))
    assert result.status in ("ok", "not_applicable")
    assert result.flagged == len(result.instances) <= result.units
