"""A file a paper names but the reader refuses is noted with the command as written.

``\\include{../x}`` is noted as ``\\include`` (not ``\\input``), and a
``\\bibliography`` or ``\\addbibresource`` outside the paper's folder gets the same
note as an include: the paper is measured without it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clirun import run_cli
from slopmark.paper.latex import load_document


def _paper(root: Path, body: str) -> Path:
    (root / "x.tex").write_text("\\section{Outside}\nNot ours.\n")
    (root / "x.bib").write_text("@article{outside, title={Not ours}}\n")
    paper = root / "paper"
    paper.mkdir()
    (paper / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\n"
        f"We study cats \\cite{{outside}}.\n{body}\n\\end{{document}}\n"
    )
    return paper


@pytest.mark.parametrize("command", ["\\input", "\\include", "\\subfile"])
def test_a_refused_include_is_noted_with_its_own_command(tmp_path: Path, command: str) -> None:
    notes = [n.message for n in load_document(_paper(tmp_path, f"{command}{{../x}}")).notes]
    assert notes == [f"refused {command} '../x': it leaves the paper folder; measured without it"]


@pytest.mark.parametrize(
    ("command", "name"), [("\\bibliography", "../x"), ("\\addbibresource", "../x.bib")]
)
def test_a_bibliography_outside_the_folder_is_refused_with_a_note(
    tmp_path: Path, command: str, name: str
) -> None:
    document = load_document(_paper(tmp_path, f"{command}{{{name}}}"))
    assert "outside" not in document.bibliography
    (note,) = document.notes
    assert note.message == (
        f"refused {command} '{name}': it leaves the paper folder; measured without it"
    )
    assert note.at is not None and (note.at.file, note.at.line) == ("main.tex", 5)


@pytest.mark.slow
def test_paper_measure_shows_the_bibliography_note(tmp_path: Path) -> None:
    paper = _paper(tmp_path, "\\bibliography{refs,../x}")
    (paper / "refs.bib").write_text("@article{mine, title={Ours}}\n")
    done = run_cli("paper", "measure", str(paper), "--measures", "deterministic", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["notes"] == [
        "refused \\bibliography '../x': it leaves the paper folder; measured without it"
    ]
