"""Third-party plug-ins through entry points, used from the real CLI.

``tests/plugin`` is a tiny package registering one verifier, one measure, one
agent, one sandbox and one executor through the entry-point groups of
`slopmark.registry`.
It is pip-installed (offline, from its folder) into a fresh ``--target`` folder
that the CLI subprocesses get on ``PYTHONPATH``; this process never sees it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.scbenv import needs_bwrap, needs_scb_python
from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer

pytestmark = pytest.mark.slow  # starts python

openai_server = fake.openai_server  # the fixture, visible to this module's tests

PLUGIN = Path(__file__).parent / "plugin"
BENCH_DATA = Path(__file__).parent / "code" / "bench" / "data"
LONG = " ".join(["and then it went on"] * 9)
PAPER = rf"""\documentclass{{article}}
\begin{{document}}
\section{{Introduction}}
This sentence is short. This one is not, {LONG}.
\end{{document}}
"""


def install(source: Path, target: Path) -> Path:
    """``pip install --target`` of a copy of ``source`` (the build writes beside the source)."""
    copy = target.parent / f"{source.name}-src"
    shutil.copytree(source, copy)
    args = ["--quiet", "--no-deps", "--no-index", "--no-build-isolation", "--target", str(target)]
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", *args, str(copy)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return target


def cli(
    site: Path, *args: str, stdin: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """The real CLI with the plug-ins in ``site`` importable; no store or key from outside."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SLOPMARK_", "OPENAI_"))}
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**clean, "PYTHONPATH": str(site), **env},
        timeout=600,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return install(PLUGIN, tmp_path_factory.mktemp("plugin") / "site")


def test_the_plugin_verifier_scores_a_paste_and_checks_its_config(
    site: Path, tmp_path: Path
) -> None:
    tasks = tmp_path / "tasks.yaml"
    tasks.write_text(
        "- {id: short, domain: instruction, prompt: Greet me in five words or fewer.,"
        " verifier: {type: word_limit, max_words: 5}}\n"
    )
    paste = ["eval", "paste", "--task", "short", "--tasks", str(tasks)]
    db = ["--db", f"sqlite:///{tmp_path / 'runs.db'}"]
    passed = cli(site, *paste, *db, stdin="Hello there, good friend.\n")
    assert passed.returncode == 0, passed.stderr
    assert passed.stdout.startswith("PASS short: score 1.000")
    failed = cli(site, *paste, *db, stdin="Hello there my very good old friend.\n")
    assert "✗ word_limit: 7 words, at most 5" in failed.stdout
    tasks.write_text(tasks.read_text().replace("max_words: 5", "max_words: 0"))
    refused = cli(site, "tasks", "validate", str(tasks))
    assert refused.returncode == 2
    assert "max_words must be a positive integer, got 0" in refused.stdout + refused.stderr


def test_the_plugin_measure_scores_a_paper(site: Path, tmp_path: Path) -> None:
    paper = tmp_path / "paper.tex"
    paper.write_text(PAPER)
    done = cli(site, "paper", "measure", str(paper), "--measures", "long_sentences", "--json")
    assert done.returncode == 0, done.stderr
    [result] = json.loads(done.stdout)["measures"]
    assert (result["measure"], result["plane"], result["status"]) == (
        "long_sentences", "STRUCTURE", "ok"
    )  # fmt: skip
    assert (result["flagged"], result["units"], result["score"]) == (1, 2, 0.5)
    without = cli(site, "paper", "measure", str(paper), "--measures", "long_sentence")
    assert without.returncode == 2 and "did you mean 'long_sentences'" in without.stderr


def test_the_plugin_agent_is_listed_among_the_builtins(site: Path) -> None:
    done = cli(site, "code", "bench", "agents")
    assert done.returncode == 0, done.stderr
    names = [line.split()[0] for line in done.stdout.splitlines()]
    assert names == ["claude-code", "codex", "command", "loop", "notes", "replay"]


@needs_bwrap
@needs_scb_python
def test_a_bench_run_with_the_plugin_agent_in_the_plugin_sandbox(
    site: Path, tmp_path: Path
) -> None:
    run_dir, audit = tmp_path / "run", tmp_path / "audit.log"
    done = cli(
        site, "code", "bench", "run", "--problems", str(BENCH_DATA), "--agent", "notes",
        "--agent-option", "heading=Plan", "--sandbox", "audited-bwrap", "--out", str(run_dir),
        "--db", f"sqlite:///{tmp_path / 'store.db'}", AUDIT_LOG=str(audit),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    run = json.loads((run_dir / "run.json").read_text())
    assert (run["agent"], run["sandbox"]) == ("notes", "audited-bwrap")
    checkpoints = sorted(run_dir.glob("wordcount/checkpoint_*"))
    results = [json.loads((c / "result.json").read_text()) for c in checkpoints]
    assert [r["status"] for r in results] == ["scored"] * 3
    assert {test["outcome"] for r in results for test in r["tests"]} == {"failed"}  # no code
    notes = (checkpoints[0] / "workspace" / "NOTES.md").read_text()
    assert notes.startswith("# Plan: checkpoint_1\n")
    hidden = [line for line in audit.read_text().splitlines() if "run_hidden_tests.py" in line]
    assert [line.rsplit("--checkpoint=", 1)[1] for line in hidden] == [
        "checkpoint_1", "checkpoint_2", "checkpoint_3"
    ]  # fmt: skip


def test_the_plugin_executor_runs_an_eval_suite(
    site: Path, tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    (tmp_path / "tasks.yaml").write_text(
        "- {id: a, domain: instruction, prompt: Reply with alpha.,"
        " verifier: {type: instruction, rules: [{rule: required_phrase, text: alpha}]}}\n"
        "- {id: z, domain: instruction, prompt: Name a striped animal.,"
        " verifier: {type: instruction, rules: [{rule: required_phrase, text: zebra}]}}\n"
    )
    suite = tmp_path / "SUITE.yaml"
    suite.write_text(
        f"models:\n  - model: openai-compat:echo\n    base_url: {openai_server.base_url}\n"
        "domains: [instruction]\ntasks: [tasks.yaml]\nretries: 0\n"
    )
    db = ["--db", f"sqlite:///{tmp_path / 'runs.db'}"]
    done = cli(site, "eval", "suite", str(suite), "--executor", "inline", *db, "--json")
    assert done.returncode == 0, done.stderr
    [row] = json.loads(done.stdout)["slices"]
    assert (row["model"], row["status"]) == ("openai-compat:echo", "ok")
    assert (row["summary"]["ok"], row["summary"]["passed"]) == (2, 1)
    assert openai_server.request_count == 2
    typo = cli(site, "eval", "suite", str(suite), "--executor", "inlin", *db)
    assert typo.returncode == 2
    assert "--executor 'inlin': unknown executor; did you mean 'inline'?" in typo.stderr


def test_a_broken_plugin_is_one_clear_line(tmp_path: Path) -> None:
    source = tmp_path / "broken"
    (source / "slopmark_broken").mkdir(parents=True)
    (source / "slopmark_broken" / "__init__.py").write_text('"""Registers nothing."""\n')
    (source / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "slopmark-broken"\nversion = "0"\n'
        '[project.entry-points."slopmark.verifiers"]\nghost = "slopmark_broken"\n'
    )
    site = install(source, tmp_path / "site")
    done = cli(site, "tasks", "validate", str(Path(__file__).parent / "evals" / "data"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert (
        "plug-in 'ghost' (entry point slopmark_broken in group slopmark.verifiers)" in done.stderr
    )
    assert "registered no verifier named 'ghost'" in done.stderr


def test_the_extending_guide_shows_the_plugin_files_verbatim() -> None:
    """docs/extending.md's examples are the files the tests above install and run."""
    guide = (Path(__file__).parents[1] / "docs" / "extending.md").read_text()
    shown = re.findall(r"`tests/plugin/([^`]+)`:\n\n```[a-z]+\n(.*?)```\n", guide, re.DOTALL)
    assert [name for name, _ in shown] == [
        "pyproject.toml",
        "slopmark_example/word_limit.py",
        "slopmark_example/long_sentences.py",
        "slopmark_example/notes.py",
        "slopmark_example/audited.py",
        "slopmark_example/inline.py",
    ]
    for name, code in shown:
        assert code == (PLUGIN / name).read_text(), f"docs/extending.md shows an old {name}"
