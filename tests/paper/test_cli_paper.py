"""`slopmark paper` through the real CLI: measure, findings, views, bench, and bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from clirun import run_cli
from corpus import CORPUS

pytestmark = pytest.mark.slow  # starts python

FIXTURES = Path(__file__).parent / "fixtures"
NINE = FIXTURES / "structure" / "cross_nine_objects.tex"
WOVEN = FIXTURES / "argument" / "woven.tex"
GAP = FIXTURES / "artifacts" / "gap.tex"


def test_measure_prints_counts_and_the_aggregate() -> None:
    done = run_cli("paper", "measure", str(NINE), "--measures", "deterministic")
    assert done.returncode == 0, done.stderr
    assert "3 / 9 objects flagged" in " ".join(done.stdout.split())
    assert "aggregate S(p)" in done.stdout
    assert "rests on: STRUCTURE: macro_redundancy, cross_section_references" in " ".join(
        done.stdout.split()
    )
    gap = run_cli("paper", "measure", str(GAP), "--measures", "deterministic")
    assert "ARTIFACTS: evidence_gap (0/1) — ARTIFACTS rests on a single 0/1 flag" in " ".join(
        gap.stdout.split()
    )


def test_measure_json_and_findings_files(tmp_path: Path) -> None:
    markdown, as_json = tmp_path / "SLOP_FINDINGS.md", tmp_path / "findings.json"
    done = run_cli("paper", "measure", str(NINE), "--json", "--findings", str(markdown))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    by_name = {m["measure"]: m for m in report["measures"]}
    cross = by_name["cross_section_references"]
    assert (cross["flagged"], cross["units"]) == (3, 9)
    assert by_name["argument_graph"]["status"] == "not_run"
    assert by_name["argument_graph"]["score"] is None
    text = markdown.read_text()
    assert "## Cross-section references (STRUCTURE)" in text
    assert "cross_nine_objects.tex:" in text and "repair:" in text
    assert run_cli("paper", "measure", str(NINE), "--findings", str(as_json)).returncode == 0
    assert json.loads(as_json.read_text())["paper"] == str(NINE)


def test_views_show_sentinels_in_the_prose_view() -> None:
    prose = run_cli("paper", "views", str(WOVEN), "--prose")
    assert prose.returncode == 0, prose.stderr
    assert "zzcite" in prose.stdout and "\\cite" not in prose.stdout
    structure = run_cli("paper", "views", str(WOVEN), "--structure")
    assert "\\cite" in structure.stdout or "cite" in structure.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (bytes(range(256)) * 40, "not"),
        (b"\\documentclass{article}\n\\begin{document}\n\\section{Intro\nno end", None),
    ],
)
def test_bad_papers_give_one_clear_line(
    tmp_path: Path, content: bytes, message: str | None
) -> None:
    paper = tmp_path / "paper.tex"
    paper.write_bytes(content)
    done = run_cli("paper", "measure", str(paper), "--measures", "deterministic")
    assert "Traceback" not in done.stderr
    if message is None:
        assert done.returncode == 0, done.stderr
    else:
        assert done.returncode == 2
        assert str(paper) in done.stderr and message in done.stderr.lower()


def test_unknown_measure_and_missing_path() -> None:
    done = run_cli("paper", "measure", str(NINE), "--measures", "evidence_gap,citation_isolaton")
    assert done.returncode == 2
    assert "did you mean 'citation_isolation'" in done.stderr
    missing = run_cli("paper", "measure", "/no/such/paper")
    assert missing.returncode == 2 and "/no/such/paper" in missing.stderr


def test_bench_scores_pairs_and_reports_what_it_left_out(tmp_path: Path) -> None:
    for source in (NINE, WOVEN, GAP):
        shutil.copy(source, tmp_path / source.name)
    lines = [
        {"ai": "cross_nine_objects.tex", "human": "woven.tex"},
        {"ai": "gap.tex", "human": "woven.tex", "venue": "fixture"},
        {"ai": "missing.tex", "human": "woven.tex"},
    ]
    pairs = tmp_path / "PAIRS.jsonl"
    pairs.write_text("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")
    done = run_cli("paper", "bench", str(pairs), "--measures", "deterministic", "--json")
    assert done.returncode == 2  # two items left out, reported; the rest is scored
    report = json.loads(done.stdout)
    assert report["pairs"] == 2
    assert {p["where"].rsplit(":", 1)[-1] for p in report["problems"]} >= {"4"}
    assert any("missing.tex" in p["where"] for p in report["problems"])
    measures = {r["measure"]: r for r in report["reports"]}
    assert set(measures) == {
        "macro_redundancy", "cross_section_references", "citation_isolation", "evidence_gap",
        "aggregate", "aggregate_without_0/1_planes",
    }  # fmt: skip
    assert measures["aggregate"]["pairs"] == 2
    assert report["flag_planes"] == {"ARTIFACTS": 1}  # only gap.tex has a result table
    assert report["papers"][str(tmp_path / "gap.tex")]["rests_on"]["ARTIFACTS"] == [
        "evidence_gap (0/1)"
    ]
    shown = run_cli("paper", "bench", str(pairs), "--measures", "deterministic")
    assert "rests on a single 0/1 measure: ARTIFACTS in 1 of 3 papers" in " ".join(
        shown.stdout.split()
    )


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpora/papers")
def test_bench_on_the_shared_corpus(tmp_path: Path) -> None:
    ai = sorted(p.name for p in CORPUS.iterdir() if p.name.startswith("ai-"))
    human = sorted(p.name for p in CORPUS.iterdir() if p.name.startswith("human-"))
    pairs = tmp_path / "PAIRS.jsonl"
    pairs.write_text("".join(
        json.dumps({"ai": str(CORPUS / a), "human": str(CORPUS / human[i % len(human)])}) + "\n"
        for i, a in enumerate(ai)
    ))  # fmt: skip
    done = run_cli("paper", "bench", str(pairs), "--measures", "deterministic", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["pairs"] == len(ai)
    aggregate = next(r for r in report["reports"] if r["measure"] == "aggregate")
    assert aggregate["pair_accuracy"]["value"] is not None


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpora/papers")
def test_bench_two_labelled_folders_compares_all_cross_pairs(tmp_path: Path) -> None:
    for side in ("ai", "human"):
        (tmp_path / side).mkdir()
        for paper in CORPUS.glob(f"{side}-*"):
            shutil.copytree(paper, tmp_path / side / paper.name)
    done = run_cli(
        "paper", "bench", "--ai", str(tmp_path / "ai"), "--human", str(tmp_path / "human"),
        "--measures", "deterministic", "--profile", "reference", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["design"] == "all cross pairs" and report["profile"] == "reference"
    assert report["pairs"] == 6 and "all-cross-pairs accuracy" in report["computed"]
    aggregate = next(r for r in report["reports"] if r["measure"] == "aggregate")
    assert (aggregate["ai_papers"], aggregate["human_papers"]) == (3, 2)
    assert aggregate["pair_accuracy"]["value"] == aggregate["auroc"]["value"]


def test_bench_needs_pairs_or_both_folders(tmp_path: Path) -> None:
    for args in ([], ["--ai", str(tmp_path)], [str(tmp_path / "P.jsonl"), "--ai", "x"]):
        done = run_cli("paper", "bench", *args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    empty = run_cli("paper", "bench", "--ai", str(tmp_path), "--human", str(tmp_path))
    assert empty.returncode == 2 and "no paper in it" in empty.stderr


def test_the_recovery_summary_reads_as_a_sentence() -> None:
    from slopmark.cli.paper_view import recovered_text

    found = recovered_text({"sections": 6, "prose_words": 2100, "abstract": 1, "renumbered": 0})
    assert found == "6 sections, 2100 words of running text, an abstract, " \
        "0 printed section numbers renumbered"
    assert recovered_text({"abstract": 0}) == "no abstract"
