"""Figure exposition against a real OpenAI-compatible server on 127.0.0.1.

The figure is a real PNG (drawn with matplotlib); the server's scripted vision
model answers image requests with a transcript whose kinds are known, and its
scripted labeller answers the experimental-content question.
"""

from __future__ import annotations

import base64
import dataclasses
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer, last_user_text
from slopmark.paper.document import Document, Float, Section, Span
from slopmark.paper.measures.base import choose_measures
from slopmark.paper.measures.figure_exposition import (
    KINDS,
    FigureExposition,
    frozen_kinds,
    includegraphics,
    method_figure,
)
from slopmark.paper.models import Endpoint, ModelSet

openai_server = fake.openai_server
FIXTURES = Path(__file__).parent / "fixtures" / "figure_exposition"
#: Notation key, comparison arm, thesis box and enumerated stages; no evaluative mark.
TRANSCRIPT = """Box "Step 1: Split the paper" -> Box "Step 2: Label claims" -> Box "Step 3: Score".
Legend: x_t = sentence embedding
Side panel: ours vs. sentence-level detectors
Key insight: support should precede claims"""
QUESTION = "Does the figure show experimental content"


def draw_png(path: Path, fmt: str = "png") -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(3, 2), dpi=50)
    axes.text(0.1, 0.5, "Step 1 -> Step 2")
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format=fmt)
    pyplot.close(figure)
    return path.read_bytes()


def section(index: int, title: str, role: str, in_body: bool = True) -> Section:
    return Section(
        index=index, level=1, title=title, starred=False, number=str(index + 1) if in_body else "A",
        role=role, top=index, in_body=in_body, in_appendix=not in_body,  # type: ignore[arg-type]
        at=Span("main.tex", 10 * index + 1), source="",
    )  # fmt: skip


def figure(caption: str, source: str, at_section: int, line: int) -> Float:
    return Float(kind="figure", environment="figure", caption=caption, labels=("fig:x",),
                 section=at_section, at=Span("main.tex", line), source=source)  # fmt: skip


def paper(folder: Path, *floats: Float, preamble: str = "") -> Document:
    main = folder / "main.tex"
    folder.mkdir(parents=True, exist_ok=True)
    main.write_text(
        f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n\\end{{document}}\n"
    )
    sections = (section(0, "Introduction", "introduction"), section(1, "Method", "method"),
                section(2, "Appendix", "appendix", in_body=False))  # fmt: skip
    return Document(
        main=str(main), files=("main.tex",), title=None, sections=sections, labels=(),
        references=(), citations=(), floats=floats, environments=(), sentences=(),
    )  # fmt: skip


OVERVIEW = figure(
    "Overview of our pipeline.", "\\includegraphics[width=.9\\linewidth]{figs/overview}", 1, 22
)


def scripted(server: FakeOpenAIServer, transcript: str, experimental: str = "No.") -> None:
    def answer(messages: list[dict[str, Any]]) -> str:
        if isinstance(messages[-1]["content"], list):  # the image request
            return transcript
        return experimental if QUESTION in last_user_text(messages) else ""

    server.answer = answer


def models_at(server: FakeOpenAIServer, cache: Path) -> ModelSet:
    endpoint = Endpoint(server.base_url, "fake-vl")
    return ModelSet(labeller=endpoint, vision=endpoint, cache_dir=cache)


def test_a_transcript_with_four_known_kinds_scores_four_of_six(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    image = draw_png(tmp_path / "paper" / "figs" / "overview.png")
    scripted(openai_server, TRANSCRIPT)
    document = paper(tmp_path / "paper", OVERVIEW)
    result = FigureExposition().measure(document, models_at(openai_server, tmp_path / "cache"))
    assert (result.status, result.flagged, result.units) == ("ok", 4, 6)
    assert result.score == pytest.approx(4 / 6)
    kinds = result.detail["kinds"]
    assert [k for k in KINDS if kinds[k]] == [
        "notation key", "comparison arm", "thesis box", "enumerated stages",
    ]  # fmt: skip
    assert kinds["enumerated stages"] == "1, 2, 3"
    assert result.detail["transcript"] == TRANSCRIPT
    assert result.detail["figure"]["file"] == "figs/overview.png"
    assert "judgement" in result.detail["experimental_content"]["how"]
    assert result.detail["experimental_content"]["runs"] == [False, False, False]
    assert {i.at for i in result.instances} == {Span("main.tex", 22)}
    assert all(i.section == "2 Method" for i in result.instances)
    sent = [b for b in openai_server.requests if isinstance(b["messages"][-1]["content"], list)]
    url = sent[0]["messages"][-1]["content"][1]["image_url"]["url"]
    assert base64.b64decode(url.split(",", 1)[1]) == image
    assert openai_server.request_count == 1 + 3  # one transcript, three yes/no runs


def test_experimental_content_is_the_labellers_judgement(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    draw_png(tmp_path / "paper" / "figs" / "overview.png")
    transcript = "Encoder -> Decoder\nTrained 30 epochs on 8 A100s; accuracy +3.2% over ours"
    scripted(openai_server, transcript, experimental="Yes, it lists run settings.")
    document = paper(tmp_path / "paper", OVERVIEW)
    result = FigureExposition().measure(document, models_at(openai_server, tmp_path / "cache"))
    kinds = result.detail["kinds"]
    assert kinds["experimental content"] == "judged yes by the labeller"
    assert kinds["evaluative mark"] == "+3.2%"
    assert (result.flagged, result.units) == (2, 6)


def test_a_second_run_makes_no_requests(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    draw_png(tmp_path / "paper" / "figs" / "overview.png")
    scripted(openai_server, TRANSCRIPT)
    document = paper(tmp_path / "paper", OVERVIEW)
    first = FigureExposition().measure(document, models_at(openai_server, tmp_path / "cache"))
    second = FigureExposition().measure(document, models_at(openai_server, tmp_path / "cache"))
    assert openai_server.request_count == 4 and second.detail["requests"] == 0
    assert second.detail["cache_hits"] == 4 and second.score == first.score


def test_the_first_gated_body_figure_is_the_method_figure(tmp_path: Path) -> None:
    results = figure("Accuracy of all detectors.", "\\includegraphics{a}", 0, 5)
    appendix = figure("Architecture in detail.", "\\includegraphics{b}", 2, 40)
    later = figure("The framework, again.", "\\includegraphics{c}", 1, 30)
    document = paper(tmp_path, results, appendix, OVERVIEW, later)
    assert method_figure(document) == OVERVIEW
    assert method_figure(paper(tmp_path, results, appendix)) is None


def test_no_method_figure_is_not_applicable(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    results = figure("Accuracy of all detectors.", "\\includegraphics{a}", 0, 5)
    result = FigureExposition().measure(
        paper(tmp_path, results), models_at(openai_server, tmp_path)
    )
    assert result.status == "not_applicable" and "no method figure" in (result.reason or "")
    assert openai_server.request_count == 0


def test_without_a_vision_model_it_is_not_run(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    document = paper(tmp_path, OVERVIEW)
    assert FigureExposition().measure(document, None).status == "not_run"
    labeller_only = ModelSet(labeller=Endpoint(openai_server.base_url, "m"), cache_dir=tmp_path)
    result = FigureExposition().measure(document, labeller_only)
    assert result.status == "not_run" and "vision" in (result.reason or "")


def test_a_paper_without_a_known_folder_is_not_run(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    document = dataclasses.replace(paper(tmp_path, OVERVIEW), main="nowhere/main.tex")
    result = FigureExposition().measure(document, models_at(openai_server, tmp_path))
    assert result.status == "not_run" and "paper's folder" in (result.reason or "")


def test_a_missing_figure_file_is_not_run_with_its_name(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    result = FigureExposition().measure(
        paper(tmp_path, OVERVIEW), models_at(openai_server, tmp_path)
    )
    assert result.status == "not_run"
    assert "'figs/overview' not found" in (result.reason or "")


def test_graphicspath_folders_are_searched(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    draw_png(tmp_path / "paper" / "images" / "pipe.png")
    scripted(openai_server, TRANSCRIPT)
    gated = figure("System architecture.", "\\includegraphics{pipe}", 1, 22)
    document = paper(tmp_path / "paper", gated, preamble="\\graphicspath{{figs/}{images/}}")
    result = FigureExposition().measure(document, models_at(openai_server, tmp_path / "cache"))
    assert result.status == "ok" and result.detail["figure"]["file"] == "images/pipe.png"


def test_a_pdf_figure_is_rasterised_to_png(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    pytest.importorskip("pypdfium2")
    draw_png(tmp_path / "paper" / "figs" / "overview.pdf", fmt="pdf")
    scripted(openai_server, TRANSCRIPT)
    document = paper(tmp_path / "paper", OVERVIEW)
    result = FigureExposition().measure(document, models_at(openai_server, tmp_path / "cache"))
    assert result.status == "ok" and result.detail["figure"]["file"] == "figs/overview.pdf"
    url = openai_server.requests[0]["messages"][-1]["content"][1]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]).startswith(b"\x89PNG")


def test_a_pdf_figure_without_a_renderer_says_what_to_install(
    openai_server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pypdfium2", None)  # as when it is not installed
    draw_png(tmp_path / "paper" / "figs" / "overview.pdf", fmt="pdf")
    document = paper(tmp_path / "paper", OVERVIEW)
    result = FigureExposition().measure(document, models_at(openai_server, tmp_path / "cache"))
    assert result.status == "not_run" and "slopmark[pdf]" in (result.reason or "")
    assert openai_server.request_count == 0


@pytest.mark.parametrize(
    ("transcript", "kind"),
    [
        ("Notation: θ parameters", "notation key"),
        ("h_t: hidden state of the encoder", "notation key"),
        ("Baseline pipeline (top) and ours (bottom)", "comparison arm"),
        ("Vanilla attention | Sparse attention", "comparison arm"),
        ("Output ✓ correct", "evaluative mark"),
        ("Our model outperforms GPT-4", "evaluative mark"),
        ("Takeaway: less is more", "thesis box"),
        ("We show that graphs help", "thesis box"),
        ("(1) retrieve\n(2) rerank", "enumerated stages"),
        ("Stage I: parse -> Stage II: score", "enumerated stages"),
    ],
)
def test_each_frozen_kind_fires_on_its_example(transcript: str, kind: str) -> None:
    assert frozen_kinds(transcript)[kind] is not None


def test_a_plain_method_transcript_carries_no_frozen_kind() -> None:
    plain = "Input document -> Sentence splitter -> Claim graph -> Score\nStep 1: split the text"
    assert all(value is None for value in frozen_kinds(plain).values())


def test_includegraphics_names_are_read_in_order() -> None:
    source = "\\includegraphics[width=.5\\linewidth]{a/b.png}\\hfill\\includegraphics {c}"
    assert includegraphics(source) == ["a/b.png", "c"]


def test_it_is_registered_as_a_model_based_artifacts_measure() -> None:
    [spec] = choose_measures("figure_exposition")
    assert (spec.plane, spec.needs_model) == ("ARTIFACTS", True)


def test_the_fixture_paper_finds_its_method_figure(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    latex = pytest.importorskip("slopmark.paper.latex")
    if not hasattr(latex, "load_document"):
        pytest.skip("slopmark.paper.latex.load_document has not landed yet")
    folder = tmp_path / "method_figure"
    shutil.copytree(FIXTURES / "method_figure", folder)
    first = (folder / "main.tex").read_text(encoding="utf-8").splitlines()[0]
    expected = dict(re.findall(r"(\w+)=(\S+)", first))
    draw_png(folder / "figs" / "overview.png")
    draw_png(folder / "figs" / "results.png")
    scripted(openai_server, TRANSCRIPT)
    document = latex.load_document(folder)
    assert document.root == str(folder.resolve())
    found = method_figure(document)
    assert found is not None and expected["method_figure"] in found.labels[0]
    result = FigureExposition().measure(document, models_at(openai_server, tmp_path / "cache"))
    assert result.detail["figure"]["file"] == expected["figure_file"]
    assert (result.flagged, result.units) == (4, 6)
