"""`slopmark paper revise` and `revise-bench` through the real CLI, models on a loopback server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from clirun import run_cli
from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer

pytestmark = pytest.mark.slow  # starts python

openai_server = fake.openai_server
FIXTURES = Path(__file__).parent / "fixtures" / "revise"
PAPER = FIXTURES / "paper"
INTRO_OLD = "Switch routing sends each token to a single expert \\cite{fedus2022}."
INTRO_NEW = "Unlike these layers, " + INTRO_OLD


def block(quote: str, replacement: str) -> str:
    return f"<<<<<<< ORIGINAL\n{quote}\n=======\n{replacement}\n>>>>>>> REVISED"


def verdicts(*entries: tuple[int, str, str, str]) -> str:
    keys = ("change", "verdict", "category", "reason")
    return json.dumps([dict(zip(keys, entry, strict=True)) for entry in entries])


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLOPMARK_CACHE", str(tmp_path / "cache"))


def models(server: FakeOpenAIServer) -> list[str]:
    url = server.base_url
    return ["--editor", "fake-editor", "--editor-url", url, "--reviewer", "fake-reviewer"]


def script(server: FakeOpenAIServer) -> None:
    """Round 1: one supported change (kept) and one changed number (reverted); round 2: none."""
    server.answer_matching({
        "Revision round 1: edit the file sections/intro.tex.": block(INTRO_OLD, INTRO_NEW),
        "Revision round 1: edit the file sections/method.tex.": block(
            "weighted by 0.01.", "weighted by 0.05."),
        "Revision round": "NOCHANGE",
        "Review of revision round 1: changes 1, 2.": verdicts(
            (1, "keep", "supported_repair", '"Unlike these layers" relates the two cited works'),
            (2, "revert", "number_changed", '"0.05" matches no record (the records say 0.01)')),
        "Retirement check": '{"retire": [{"instance": "I3", "sections_checked": ["3 Results"], '
                            '"reason": "no other section uses the equation"}]}',
    })  # fmt: skip


def test_revise_writes_every_round_and_the_final_report(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    script(openai_server)
    out = tmp_path / "out"
    done = run_cli("paper", "revise", str(PAPER), *models(openai_server),
                   "--records", str(PAPER / "records"), "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "stopped: the editor changed nothing in round 2" in done.stdout
    for name in ("tree/main.tex", "tree/refs.bib", "scores.json", "SLOP_FINDINGS.md"):
        assert (out / "round-0" / name).is_file(), name
    first = out / "round-1"
    changes = json.loads((first / "changes.json").read_text())
    assert [(c["file"], c["verdict"], c["category"]) for c in changes] == [
        ("sections/intro.tex", "keep", "supported_repair"),
        ("sections/method.tex", "revert", "number_changed"),
    ]
    assert "0.05" in changes[1]["new"] and "records say 0.01" in changes[1]["reason"]
    assert "Unlike these layers" in (first / "tree" / "sections" / "intro.tex").read_text()
    assert "0.01" in (first / "tree" / "sections" / "method.tex").read_text()
    assert "0.05" in (first / "draft" / "sections" / "method.tex").read_text()
    retired = json.loads((first / "retirements.json").read_text())
    assert [(r["accepted"], r["sections_checked"]) for r in retired] == [(True, ["3 Results"])]
    assert json.loads((first / "preservation.json").read_text()) == [] or all(
        not v["hard"] for v in json.loads((first / "preservation.json").read_text())
    )
    assert json.loads((first / "rejections.json").read_text()) == []
    calls = [json.loads(line) for line in (first / "calls.jsonl").read_text().splitlines()]
    assert [c["role"] for c in calls] == ["editor"] * 4 + ["reviewer"] * 2
    assert "# Scientific slop findings" in (first / "feedback.md").read_text()
    assert "## Review notes from round 1" in (out / "round-2" / "feedback.md").read_text()
    report = (out / "report.md").read_text()
    assert "## Scores per round" in report and "| Citation isolation |" in report
    assert "### Reverted changes" in report and "records say 0.01" in report
    assert "Unlike these layers" in (out / "final" / "sections" / "intro.tex").read_text()
    measured = run_cli("paper", "measure", str(out / "final"), "--measures", "deterministic")
    assert measured.returncode == 0, measured.stderr


def test_revise_json_reports_scores_per_round_and_measure(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    script(openai_server)
    out = tmp_path / "o"
    done = run_cli("paper", "revise", str(PAPER), *models(openai_server),
                   "--records", str(PAPER / "records"), "--out", str(out), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["method"] == "harness" and report["out"] == str(out)
    assert len(report["scores"]["citation_isolation"]) == 3
    assert report["scores"]["evidence_gap"] == [1.0, 1.0, 1.0]
    assert report["models"]["reviewer"] == f"fake-reviewer at {openai_server.base_url}"


def test_a_paper_without_findings_stops_at_round_zero_and_says_why(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    done = run_cli("paper", "revise", str(FIXTURES / "clean"), *models(openai_server),
                   "--out", str(tmp_path / "o"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "stopped at round 0: the measures found no instance to revise" in done.stdout
    assert openai_server.request_count == 0
    assert (tmp_path / "o" / "round-0" / "tree" / "main.tex").is_file()


@pytest.mark.parametrize(
    ("paper", "extra", "message"),
    [
        ("broken", [], r"main.tex:5: the paper does not expand (missing \input file "
                       "'sections/missing'"),
        ("paper", ["--records", "/nonexistent/records"],
         "--records /nonexistent/records: no such folder"),
        ("paper", ["--method", "rewrite"], "unknown method 'rewrite'"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_one_line_naming_it(
    openai_server: FakeOpenAIServer, tmp_path: Path, paper: str, extra: list[str], message: str
) -> None:
    done = run_cli("paper", "revise", str(FIXTURES / paper), *models(openai_server), *extra,
                   "--out", str(tmp_path / "o"))  # fmt: skip
    assert done.returncode == 2, done.stdout
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert openai_server.request_count == 0


def test_the_harness_needs_a_reviewer_and_a_model_needs_a_server(tmp_path: Path) -> None:
    no_reviewer = run_cli("paper", "revise", str(PAPER), "--editor", "e", "--editor-url",
                          "http://127.0.0.1:9/v1")  # fmt: skip
    assert no_reviewer.returncode == 2 and "needs a reviewer model" in no_reviewer.stderr
    no_url = run_cli("paper", "revise", str(PAPER), "--editor", "e", "--method", "base")
    assert no_url.returncode == 2 and "--editor e: give the server with --editor-url" in (
        no_url.stderr
    )


def test_an_editor_named_by_a_yaml_file(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    config = tmp_path / "editor.yaml"
    config.write_text(f"base_url: {openai_server.base_url}\nmodel: yaml-editor\nmax_tokens: 77\n")
    openai_server.answer_matching({"Revision round": "NOCHANGE"})
    done = run_cli("paper", "revise", str(PAPER), "--editor", str(config), "--method",
                   "slop-aware", "--out", str(tmp_path / "o"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "the editor changed nothing in round 1" in done.stdout
    assert {(r["model"], r["max_tokens"], r["temperature"]) for r in openai_server.requests} == {
        ("yaml-editor", 77, 0.0)
    }


def test_revise_bench_reports_the_distance_to_the_reference_per_round(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    for name in ("paper", "gap_only"):
        shutil.copytree(FIXTURES / name, corpus / name)
    openai_server.answer_matching({"Revision round": "NOCHANGE", "better research paper": "?"})
    done = run_cli("paper", "revise-bench", str(corpus), "--methods", "harness,base",
                   *models(openai_server), "--reference", str(FIXTURES / "clean"),
                   "--rounds", "2", "--out", str(tmp_path / "bench"), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["reference"]["cross_section_references"] == 0.0
    assert result["reference"]["evidence_gap"] is None
    assert [m["method"] for m in result["methods"]] == ["harness", "base"]
    for method in result["methods"]:
        assert method["papers"] == 2 and len(method["gaps"]) == 3
        first = method["distances"][0]
        assert first["cross_section_references"] == pytest.approx(0.5)
        assert first["evidence_gap"] is None
        expected = abs(first["cross_section_references"]) + abs(first["macro_redundancy"])
        assert method["gaps"] == [pytest.approx(expected)] * 3
    assert (tmp_path / "bench" / "base" / "gap_only" / "report.md").is_file()
    assert result["failures"] == []


def test_every_revise_command_has_help() -> None:
    for command in ("revise", "revise-bench"):
        done = run_cli("paper", command, "--help")
        assert done.returncode == 0 and "--editor" in done.stdout
