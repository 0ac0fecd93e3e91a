"""The LaTeX reader reads nothing outside the paper's folder.

``\\input``/``\\include``/``\\subfile`` with an absolute path, ``..`` or a symlink
out, a ``\\bibliography`` outside, a main file that is a symlink out, and the
method figure's file: each is refused with a note naming it (the paper is
measured without it) and its text reaches no view, no finding and no model.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from clirun import run_cli
from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer
from slopmark.paper.latex import load_document

openai_server = fake.openai_server
SECRET = "Zanzibar quokka secret sentence."
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


def _paper(root: Path, body: str) -> Path:
    """``root/paper/main.tex`` with ``body`` in its one section, and a secret file beside
    the folder (``root/secret.tex``, ``root/refs.bib``)."""
    (root / "secret.tex").write_text(f"\\section{{Leaked}}\n{SECRET}\n")
    (root / "refs.bib").write_text("@article{leak, title={Zanzibar quokka secret}}\n")
    paper = root / "paper"
    paper.mkdir()
    (paper / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\n"
        f"We study cats.\n{body}\n\\end{{document}}\n"
    )
    return paper


def _views(paper: Path) -> tuple[str, list[str]]:
    done = run_cli("paper", "views", str(paper))
    assert done.returncode == 0, done.stderr
    measured = run_cli("paper", "measure", str(paper), "--measures", "deterministic", "--json")
    assert measured.returncode == 0, measured.stderr
    return done.stdout + measured.stdout, json.loads(measured.stdout)["notes"]


TARGETS = ["../secret", "../secret.tex", "{root}/secret", "link"]


def _refused(name: str, command: str = "\\input") -> str:
    return f"refused {command} '{name}': it leaves the paper folder; measured without it"


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.slow
def test_an_include_leaving_the_folder_is_refused_with_a_note(tmp_path: Path, target: str) -> None:
    """By the CLI: nothing of the file reaches the views or the measures' output."""
    name = target.format(root=tmp_path)
    paper = _paper(tmp_path, f"\\input{{{name}}}")
    os.symlink(tmp_path / "secret.tex", paper / "link.tex")
    shown, notes = _views(paper)
    assert SECRET not in shown and "Zanzibar" not in shown
    assert [note for note in notes if note.startswith("refused")] == [_refused(name)]


@pytest.mark.parametrize("command", ["\\include{{{}}}", "\\subfile{{{}}}", "\\input {}"])
@pytest.mark.parametrize("target", TARGETS)
def test_every_include_command_is_refused_alike(tmp_path: Path, command: str, target: str) -> None:
    name = target.format(root=tmp_path)
    paper = _paper(tmp_path, command.format(name))
    os.symlink(tmp_path / "secret.tex", paper / "link.tex")
    document = load_document(paper)
    assert SECRET not in document.prose_view + document.structure_view
    used = command.split("{")[0].split()[0]  # the note names the command as written
    assert [n.message for n in document.notes if "refused" in n.message] == [_refused(name, used)]


def test_an_include_inside_the_folder_still_reads(tmp_path: Path) -> None:
    paper = _paper(tmp_path, "\\input{sub/part}")
    (paper / "sub").mkdir()
    (paper / "sub" / "part.tex").write_text("Inside text about dogs.\n")
    (paper / "sub" / "inner.tex").symlink_to(paper / "sub" / "part.tex")
    document = load_document(paper)
    assert "dogs" in " ".join(s.text for s in document.sentences)
    assert not [note for note in document.notes if "refused" in note.message]


def test_a_missing_and_a_refused_file_read_alike_from_outside(tmp_path: Path) -> None:
    """A refusal does not tell whether the file exists: both get the same note."""
    paper = _paper(tmp_path, "\\input{/etc/passwd}\n\\input{/no/such/file}")
    notes = [n.message for n in load_document(paper).notes if "refused" in n.message]
    assert notes == [
        "refused \\input '/etc/passwd': it leaves the paper folder; measured without it",
        "refused \\input '/no/such/file': it leaves the paper folder; measured without it",
    ]


def test_a_bibliography_outside_the_folder_is_not_read(tmp_path: Path) -> None:
    paper = _paper(tmp_path, "As shown \\cite{leak}.\n\\bibliography{../refs}")
    assert "leak" not in load_document(paper).bibliography
    (tmp_path / "again").mkdir()
    inside = _paper(tmp_path / "again", "\\cite{inside}\n\\bibliography{refs}")
    (inside / "refs.bib").write_text("@article{inside, title={Fine}}\n")
    assert "inside" in load_document(inside).bibliography


@pytest.mark.slow
def test_a_main_file_that_is_a_symlink_out_is_not_chosen(tmp_path: Path) -> None:
    outside = tmp_path / "outside.tex"
    outside.write_text(f"\\documentclass{{article}}\\begin{{document}}{SECRET}\\end{{document}}")
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "main.tex").symlink_to(outside)
    done = run_cli("paper", "views", str(paper))
    assert done.returncode == 2 and SECRET not in done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    escaped = run_cli("paper", "views", str(paper), "--main", "../outside.tex")
    assert escaped.returncode == 2 and "resolves outside" in escaped.stderr
    assert SECRET not in escaped.stdout


def _measure_figure(paper: Path, server: FakeOpenAIServer, root: Path) -> dict[str, Any]:
    """The figure measure's result by the CLI, its model calls cached under ``root``."""
    config = root / "models.yaml"
    endpoint = f"base_url: {server.base_url}\n  model: fake-vl\n"
    config.write_text(f"vision:\n  {endpoint}labeller:\n  {endpoint}")
    command = ["paper", "measure", str(paper), "--measures", "figure_exposition"]
    done = subprocess.run(
        [sys.executable, "-m", "slopmark", *command, "--model-config", str(config), "--json"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "SLOPMARK_CACHE": str(root / "cache")},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout)["measures"]
    return cast(dict[str, Any], result)


def _figure_paper(root: Path, figure: str) -> Path:
    paper = _paper(
        root,
        "\\section{Method}\nWe do it.\n\\begin{figure}\\includegraphics{" + figure + "}"
        "\\caption{Overview of our pipeline.}\\end{figure}",
    )
    (root / "secret.png").write_bytes(PNG)
    return paper


@pytest.mark.parametrize("figure", ["../secret", "../secret.png", "{root}/secret", "link"])
@pytest.mark.slow
def test_a_method_figure_outside_the_folder_is_not_sent_to_the_model(
    tmp_path: Path, openai_server: FakeOpenAIServer, figure: str
) -> None:
    paper = _figure_paper(tmp_path, figure.format(root=tmp_path))
    (paper / "link.png").symlink_to(tmp_path / "secret.png")
    result = _measure_figure(paper, openai_server, tmp_path)
    assert result["status"] == "not_run"
    assert "leaves the paper folder" in result["reason"] and "refused" in result["reason"]
    assert openai_server.image_requests == 0


@pytest.mark.slow
def test_a_method_figure_inside_the_folder_is_sent(
    tmp_path: Path, openai_server: FakeOpenAIServer
) -> None:
    paper = _figure_paper(tmp_path, "figs/overview")
    (paper / "figs").mkdir()
    (paper / "figs" / "overview.png").write_bytes(PNG)
    result = _measure_figure(paper, openai_server, tmp_path)
    assert result["status"] != "not_run", result
    assert openai_server.image_requests == 1
