"""Cross-section references (Eq. 3): isolated objects, on hand-built and parsed papers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from corpus import CORPUS
from paper.expected import expected_counts
from slopmark.paper.document import (
    Document,
    Float,
    Label,
    LabelKind,
    Reference,
    Role,
    Section,
    Sentence,
    Span,
)
from slopmark.paper.latex import load_document
from slopmark.paper.measures import cross_section_references as csr
from slopmark.paper.measures.base import measure_specs
from slopmark.paper.measures.pointers import named_pointers, printed_pointers

FIXTURES = Path(__file__).parent / "fixtures" / "structure"
_COMMAND = re.compile(r"\\(ref|eqref|cref|Cref|autoref)\{([^}]*)\}")


@dataclass(frozen=True)
class Part:
    """One section of a hand-built paper: its prose sentences and the labels declared in it."""

    title: str
    role: Role = "other"
    sentences: tuple[str, ...] = ()
    #: (key, kind) of each label; figures, tables and algorithms become floats.
    labels: tuple[tuple[str, LabelKind], ...] = ()
    level: int = 1
    appendix: bool = False
    #: Captions by label key (default: "The <key> caption.").
    captions: tuple[tuple[str, str], ...] = ()


def part(title: str, role: Role, *sentences: str, **rest: object) -> Part:
    return Part(title, role, sentences, **rest)  # type: ignore[arg-type]


class _Builder:
    """Numbers sections and labels the way LaTeX prints them, and splits out references."""

    def __init__(self) -> None:
        self.sections: list[Section] = []
        self.labels: list[Label] = []
        self.floats: list[Float] = []
        self.sentences: list[Sentence] = []
        self.caption_refs: list[Reference] = []
        self.counts: dict[str, int] = {}
        self.line = 0
        self.top = 0

    def at(self) -> Span:
        self.line += 1
        return Span("main.tex", self.line)

    def add(self, p: Part) -> None:
        index = len(self.sections)
        number = self._number(p)
        self.top = index if p.level <= 1 else self.top
        in_body = not p.appendix and p.role not in ("abstract", "acknowledgements", "references")
        level = 0 if p.role == "abstract" else p.level
        self.sections.append(Section(
            index, level, p.title, False, number, p.role, self.top, in_body, p.appendix,
            self.at(), "",
        ))  # fmt: skip
        for key, kind in p.labels:
            self._label(index, key, kind, number, dict(p.captions).get(key))
        for text in p.sentences:
            self._sentence(index, text)

    def _number(self, p: Part) -> str | None:
        if p.role == "abstract":
            return None
        if p.appendix:
            self.counts["appendix"] = self.counts.get("appendix", 0) + 1
            return "ABCDEFGH"[self.counts["appendix"] - 1]
        if p.level == 1:
            self.counts["section"] = self.counts.get("section", 0) + 1
            self.counts["subsection"] = 0
            return str(self.counts["section"])
        self.counts["subsection"] += 1
        return f"{self.counts['section']}.{self.counts['subsection']}"

    def _label(
        self, index: int, key: str, kind: LabelKind, number: str | None, caption: str | None
    ) -> None:
        if kind != "section":
            self.counts[kind] = self.counts.get(kind, 0) + 1
            number = str(self.counts[kind])
        at = self.at()
        self.labels.append(Label(key, kind, index, number, at))
        if kind in ("figure", "table", "algorithm"):
            text = caption or f"The {key} caption."
            self.floats.append(Float(kind, kind, text, (key,), index, at, ""))
            self.caption_refs += [Reference((k,), c, index, at) for c, k in _COMMAND.findall(text)]

    def _sentence(self, index: int, source: str) -> None:
        at = self.at()
        refs = tuple(Reference((k,), c, index, at) for c, k in _COMMAND.findall(source))
        # The prose view may drop \S: the measure must find it in the source.
        text = re.sub(r"\\S\s*", "", _COMMAND.sub("zzref", source)).replace("~", " ")
        self.sentences.append(Sentence(text, index, at, (), refs, source))


def build(*parts: Part) -> Document:
    builder = _Builder()
    for p in parts:
        builder.add(p)
    refs = tuple(r for s in builder.sentences for r in s.references) + tuple(builder.caption_refs)
    return Document(
        "main.tex", ("main.tex",), None, tuple(builder.sections), tuple(builder.labels), refs,
        (), tuple(builder.floats), (), tuple(builder.sentences),
    )  # fmt: skip


#: Nine objects (5 sections; Equation 1, Algorithm 1, Tables 1 and 2); isolated: Related Work
#: and Conclusion (only the roadmap points at them) and Table 2 (only its home does).
PAPER = build(
    part("Abstract", "abstract", "Section 2 surveys routing and Table 2 ablates our router."),
    part(
        "Introduction", "introduction",
        "Small translation models spend their decoding time in dense layers.",
        "As Section 4 shows, routing halves that time.",
        "Our main result in Table 1 holds on four language pairs.",
        "Section~\\ref{sec:related} reviews prior routing schemes.",
        "Section~\\ref{sec:method} describes our router and Section 4 reports results.",
        "Section~\\ref{sec:conclusion} concludes, and Appendix~\\ref{app:proofs} has proofs.",
        labels=(("sec:intro", "section"),),
    ),
    part("Related Work", "related_work", "Routers send tokens to experts.",
         labels=(("sec:related", "section"),)),
    part(
        "Method", "method",
        "The router scores tokens as in Eq.~\\eqref{eq:score}.",
        "Algorithm~\\ref{alg:route} lists the routing step.",
        "The next section tests the router.",
        labels=(("sec:method", "section"), ("eq:score", "equation"), ("alg:route", "algorithm")),
    ),
    part(
        "Experiments", "experiments",
        "We use the router of Section 3 with the scores of Eq. (1).",
        "Algorithm 1 runs in linear time.",
        "Table~\\ref{tab:main} and Table 2 report BLEU.",
        "Proofs are in Appendix A.",
        labels=(("sec:experiments", "section"), ("tab:main", "table"), ("tab:ablation", "table")),
    ),
    part(
        "Conclusion", "conclusion",
        "We return to the question of Section~\\ref{sec:intro}.",
        "As the method section showed, one expert per token suffices (Table 1).",
        labels=(("sec:conclusion", "section"),),
    ),
    part("Proofs", "appendix", "Table 2 is consistent with Section 2.", appendix=True,
         labels=(("app:proofs", "section"),)),
)  # fmt: skip


def isolated(document: Document) -> list[str]:
    return [i.text.split(":")[0] for i in csr.cross_section_references(document).instances]


def test_three_of_nine_objects_are_isolated() -> None:
    result = csr.cross_section_references(PAPER)
    assert (result.status, result.flagged, result.units, result.unit_name) == (
        "ok", 3, 9, "objects",
    )  # fmt: skip
    assert result.score == pytest.approx(3 / 9)
    assert isolated(PAPER) == ["Section 2", "Table 2", "Section 5"]
    assert result.detail["objects"] == {"section": 5, "equation": 1, "algorithm": 1, "table": 2}
    assert result.detail["pointed_from"]["Section 4"] == ["1 Introduction", "3 Method"]
    assert result.detail["pointed_from"]["Table 1"] == ["1 Introduction", "5 Conclusion"]


def test_the_roadmap_is_recorded_apart_and_rescues_nothing() -> None:
    detail = csr.cross_section_references(PAPER).detail
    assert [p["text"] for p in detail["roadmap"]] == [
        "\\ref{sec:related}", "\\ref{sec:method}", "Section 4", "\\ref{sec:conclusion}",
        "\\ref{app:proofs}",
    ]  # fmt: skip
    # The lone forward pointer earlier in the introduction is not part of the run: it counts.
    assert "1 Introduction" in detail["pointed_from"]["Section 4"]


def test_pointers_into_the_appendix_are_recorded_apart() -> None:
    detail = csr.cross_section_references(PAPER).detail
    outside_roadmap = [(p["section"], p["text"]) for p in detail["appendix_pointers"]]
    assert outside_roadmap == [("4 Experiments", "Appendix A")]
    assert all(p["target"] is None for p in detail["appendix_pointers"])


def test_pointers_from_the_home_section_count_neither_way() -> None:
    result = csr.cross_section_references(PAPER)
    assert result.detail["home_pointers"] == 4  # \eqref, Algorithm \ref, Table \ref, "Table 2"
    instance = next(i for i in result.instances if i.text.startswith("Table 2"))
    assert instance.text == "Table 2: The tab:ablation caption."
    assert instance.section == "4 Experiments"
    # The repair asks for a pointer that would count: from another body section.
    assert instance.repair == (
        "if a body section other than 4 Experiments discusses the result in Table 2, point to "
        "Table 2 from there (a pointer from 4 Experiments itself, from the introduction's "
        "roadmap or from the appendix is not counted)"
    )


def test_the_abstract_and_the_appendix_point_at_nothing() -> None:
    # Both mention Section 2 and Table 2, and both stay isolated.
    assert {"Section 2", "Table 2"} <= set(isolated(PAPER))


def pointing_back(pointer: str) -> Document:
    """Method declares three objects and a subsection; the Conclusion holds ``pointer``."""
    return build(
        part("Introduction", "introduction", "We study routers."),
        part("Method", "method", "Routers pick experts.",
             labels=(("sec:m", "section"), ("fig:m", "figure"), ("eq:m", "equation"),
                     ("thm:m", "theorem"))),
        part("Setup", "method", "Four experts per layer.", level=2),
        part("Conclusion", "conclusion", pointer),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("pointer", "rescued"),
    [
        ("Figure 1 shows the router.", "Figure 1"),
        ("Fig. 1 shows the router.", "Figure 1"),
        ("Eq. (1) scores tokens.", "Equation (1)"),
        ("Equation 1 scores tokens.", "Equation (1)"),
        ("Theorem 1 bounds the load.", "Theorem 1"),
        ("Lemma 1 bounds the load.", "Theorem 1"),
        ("Sec. 2 defines the router.", "Section 2"),
        ("See \\S2 for the router.", "Section 2"),
        ("See §2 for the router.", "Section 2"),
        ("Section 2.1 defines the router.", "Section 2"),
        ("The method section defines the router.", "Section 2"),
        ("The previous section defines the router.", "Section 2"),
        ("As in the approach section, we route.", "Section 2"),
        ("See Fig.~\\ref{fig:m}.", "Figure 1"),
        ("See Section~\\ref{sec:m}.", "Section 2"),
    ],
)
def test_printed_and_named_pointers_rescue_their_object(pointer: str, rescued: str) -> None:
    assert rescued in isolated(pointing_back("Nothing points back."))
    assert rescued not in isolated(pointing_back(pointer))


def test_a_sentence_with_no_pointer_leaves_every_object_isolated() -> None:
    assert isolated(pointing_back("We route tokens.")) == [
        "Section 1", "Section 2", "Figure 1", "Equation (1)", "Theorem 1", "Section 3",
    ]  # fmt: skip


def test_a_lone_forward_pointer_in_the_introduction_is_not_a_roadmap() -> None:
    lone = build(
        part("Introduction", "introduction", "We study routers (see Section 2)."),
        part("Method", "method", "Routers pick experts."),
        part("Results", "experiments", "Routers win."),
    )  # fmt: skip
    result = csr.cross_section_references(lone)
    assert result.detail["roadmap"] == []
    assert isolated(lone) == ["Section 1", "Section 3"]


def test_one_sentence_naming_two_later_sections_is_a_roadmap() -> None:
    one_sentence = build(
        part("Introduction", "introduction", "Section 2 gives the method and Section 3 tests it."),
        part("Method", "method", "Routers pick experts."),
        part("Results", "experiments", "Routers win."),
    )  # fmt: skip
    result = csr.cross_section_references(one_sentence)
    assert [p["text"] for p in result.detail["roadmap"]] == ["Section 2", "Section 3"]
    assert result.flagged == 3


def test_the_roadmap_run_is_the_longest_run_of_forward_sentences() -> None:
    paper = build(
        part("Introduction", "introduction",
             "Section 2 motivates the router.", "Routers are cheap.",
             "Section 3 gives the method.", "Section 4 tests it."),
        part("Background", "other", "Experts are old."),
        part("Method", "method", "The previous section set the stage."),
        part("Experiments", "experiments", "Routers win."),
    )  # fmt: skip
    result = csr.cross_section_references(paper)
    assert [p["text"] for p in result.detail["roadmap"]] == ["Section 3", "Section 4"]
    # Background is rescued by the lone "Section 2" and by "the previous section".
    assert isolated(paper) == ["Section 1", "Section 3", "Section 4"]


def test_a_tie_between_runs_takes_the_last_run() -> None:
    paper = build(
        part("Introduction", "introduction", "Sections 2 and 3 motivate.", "Routers are cheap.",
             "Sections 3 and 4 give the method."),
        part("Background", "other", "Experts are old."),
        part("Method", "method", "Routers pick experts."),
        part("Results", "experiments", "Routers win."),
    )  # fmt: skip
    result = csr.cross_section_references(paper)
    assert [p["text"] for p in result.detail["roadmap"]] == ["Sections 3 and 4"] * 2
    assert isolated(paper) == ["Section 1", "Section 4"]


def test_pointers_from_a_subsection_come_from_its_section() -> None:
    paper = build(
        part("Introduction", "introduction", "We study routers."),
        part("Method", "method", "Routers pick experts.", labels=(("tab:m", "table"),)),
        part("Details", "method", "Table 1 lists settings.", level=2),
        part("Results", "experiments", "See Section~\\ref{sec:details}.",
             labels=(("sec:details", "section"),), level=2),
    )  # fmt: skip
    assert isolated(paper) == ["Section 1", "Section 2", "Table 1"]


def test_a_subsection_label_points_at_its_section() -> None:
    paper = build(
        part("Introduction", "introduction", "Section~\\ref{sec:details} has the settings."),
        part("Method", "method", "Routers pick experts."),
        part("Details", "method", "Settings.", labels=(("sec:details", "section"),), level=2),
        part("Conclusion", "conclusion", "The introduction section posed it."),
    )  # fmt: skip
    assert isolated(paper) == ["Section 3"]


def test_captions_point_from_the_section_holding_the_float() -> None:
    paper = build(
        part("Introduction", "introduction", "We study routers."),
        part("Method", "method", "Routers pick experts.", labels=(("eq:m", "equation"),)),
        part("Results", "experiments", "Routers win.", labels=(("fig:r", "figure"),),
             captions=(("fig:r", "Loss of Eq.~\\ref{eq:m} and the method of Section 2."),)),
    )  # fmt: skip
    assert isolated(paper) == ["Section 1", "Section 3", "Figure 1"]


def test_statement_sections_are_not_objects_and_do_not_point() -> None:
    paper = build(
        part("Introduction", "introduction", "We study routers."),
        part("Method", "method", "Section 1 motivates this."),
        part("Ethics Statement", "statement", "Section 2 uses public data."),
    )  # fmt: skip
    result = csr.cross_section_references(paper)
    assert result.units == 2
    assert isolated(paper) == ["Section 2"]


def test_a_paper_without_body_sections_is_not_applicable() -> None:
    result = csr.cross_section_references(build(part("Abstract", "abstract", "Short.")))
    assert (result.status, result.score, result.units) == ("not_applicable", None, 0)


def test_printed_pointers_read_lists_ranges_and_section_signs() -> None:
    found = printed_pointers("Tables 2 and 3, Figs. 4-6, Eqs. (1) and (2), \\S 5 and Section A.2.")
    assert [(p.kind, p.number) for p in found] == [
        ("table", "2"), ("table", "3"), ("figure", "4"), ("figure", "5"), ("figure", "6"),
        ("equation", "1"), ("equation", "2"), ("section", "5"), ("section", "A.2"),
    ]  # fmt: skip
    assert printed_pointers("Table zzref shows a table 1.5 times wider than Figure A.") == (
        printed_pointers("table 1.5")
    )


def test_named_pointers_by_position_phrase_and_appendix() -> None:
    found = named_pointers(
        "Unlike the previous section, the related work section and the section below, "
        "the appendix and the supplementary material differ from the Appendix B."
    )
    assert [p.name for p in found] == ["previous", "related work", "next", "appendix", "appendix"]
    assert named_pointers("Breathe the method and Section 3 of the same section.") == (
        named_pointers("the same section")
    )


def test_registered_and_runs_on_a_long_paper() -> None:
    spec = measure_specs()["cross_section_references"]
    assert (spec.plane, spec.needs_model) == ("STRUCTURE", False)
    # A typical paper: 400 sentences, most with numbers, one in four with printed pointers.
    plain = "With {n} experts per layer the router reaches 27.{n} BLEU on the approach section."
    pointing = "Table {t} and Section {s} show that result {n} holds for the second approach."
    sentences = [
        (pointing if n % 4 == 0 else plain).format(n=n, t=n % 9 + 1, s=n % 7 + 1)
        for n in range(400)
    ]
    parts = [
        part(
            f"S{n}",
            "other",
            *sentences[n * 50 : n * 50 + 50],
            labels=((f"tab:{n}", "table"), (f"eq:{n}", "equation")),
        )
        for n in range(8)
    ]
    paper = build(part("Introduction", "introduction", "We study routers."), *parts)
    result = spec.build().measure(paper, None)  # speed: benchmarks/paper_measure.py
    assert (result.units, result.status) == (25, "ok")  # 9 sections, 8 tables, 8 equations


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("cross_*.tex")), ids=lambda p: p.stem)
def test_fixture_papers_parse_to_their_expected_counts(path: Path) -> None:
    result = csr.cross_section_references(load_document(path))
    expected = {k: int(v) for k, v in expected_counts(path).items()}
    assert (result.units, result.flagged) == (expected["objects"], expected["isolated"])
    assert len(result.detail["roadmap"]) == expected["roadmap"]
    assert len(result.detail["appendix_pointers"]) == expected["appendix_pointers"]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is absent")
@pytest.mark.parametrize("name", ["ai-scientist-adaptive_dual_scale_denoising",
                                  "ai-scientist-data_augmentation_grokking",
                                  "ai-scientist-gan_diffusion", "human-cnn-graph",
                                  "human-stable-nalu"])  # fmt: skip
def test_corpus_papers_are_measured(name: str) -> None:
    result = csr.cross_section_references(load_document(CORPUS / name))
    assert result.status == "ok" and result.units > 0
    assert result.score is not None and 0 <= result.score <= 1
    assert len(result.instances) == result.flagged
