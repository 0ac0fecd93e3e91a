"""Compile a paper's LaTeX with pdflatex (and bibtex) for the PDF-route fidelity tests.

Real paper sources do not ship their venue's style file or their figures, so a
copy is compiled with: a stub package for each missing venue style (natbib
loaded as the venues' styles do, their own commands defined as no-ops, the
page left to ``article``), natbib's ``plainnat`` for a missing bibliography
style, figures drawn as boxes (``graphicx``'s ``demo`` option), and the usual pdflatex, bibtex,
pdflatex, pdflatex sequence (biber instead of bibtex for a paper citing with biblatex,
whose first run writes a ``.bcf``). Nothing about the text or structure changes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

_STUB = r"""\ProvidesPackage{%s}
\RequirePackage{natbib}
\providecommand{\And}{\and}\providecommand{\AND}{\and}
\providecommand{\iclrfinalcopy}{}\providecommand{\nipsfinalcopy}{}
\providecommand{\iclrconference}{}
"""
_PACKAGES = re.compile(r"\\usepackage(?:\[[^\]]*\])?\{([^}]*)\}")
_BIBSTYLE = re.compile(r"\\bibliographystyle\{([^}]*)\}")


#: Packages of texlive-latex-extra / texlive-science the corpus and the fixtures use.
NEEDED = ("titlesec.sty", "lineno.sty", "draftwatermark.sty", "cleveref.sty", "algorithm.sty")


def available() -> bool:
    """pdflatex, bibtex and the TeX packages the compiled papers need (see .ci/run)."""
    if not all(shutil.which(tool) for tool in ("pdflatex", "kpsewhich", "bibtex")):
        return False
    return all(_where(name) for name in NEEDED)


def compiled_paper_marks() -> list[pytest.MarkDecorator]:
    """The marks of a module comparing compiled papers' PDF route with their LaTeX route:
    slow (pdflatex, bibtex and the CLI run), skipped with the reason without the TeX tools."""
    missing = "pdflatex, bibtex or texlive-latex-extra missing"
    return [
        pytest.mark.skipif(not available(), reason=missing),
        pytest.mark.filterwarnings("ignore::DeprecationWarning"),
        pytest.mark.slow,
    ]


def biblatex_available() -> bool:
    """biblatex (texlive-bibtex-extra) and biber, its default backend (see .ci/run)."""
    return available() and bool(shutil.which("biber")) and bool(_where("biblatex.sty"))


def _where(name: str) -> str:
    done = subprocess.run(["kpsewhich", name], capture_output=True, text=True, check=False)
    return done.stdout.strip()


def _missing_styles(text: str) -> set[str]:
    names = {n.strip() for m in _PACKAGES.finditer(text) for n in m.group(1).split(",")}
    return {name for name in filter(None, names) if not _where(f"{name}.sty")}


def _stand_in_bibliography_styles(text: str, work: Path) -> None:
    """A venue's missing .bst is replaced by natbib's plainnat (author–year, like most)."""
    plainnat = _where("plainnat.bst")
    for name in {m.group(1).strip() for m in _BIBSTYLE.finditer(text)}:
        if plainnat and not _where(f"{name}.bst") and not (work / f"{name}.bst").exists():
            shutil.copy(plainnat, work / f"{name}.bst")


def _run(args: list[str], folder: Path) -> None:
    subprocess.run(args, cwd=folder, capture_output=True, timeout=300, check=False)


def compile_paper(source: Path, main: str, work: Path) -> Path:
    """The PDF of ``source`` (a paper folder) compiled in ``work``; AssertionError if none."""
    shutil.copytree(source, work, dirs_exist_ok=True)
    tex = work / main
    text = tex.read_text(encoding="utf-8", errors="replace")
    uncommented = "\n".join(line.split("%")[0] for line in text.splitlines())
    for style in _missing_styles(uncommented):
        (work / f"{style}.sty").write_text(_STUB % style)
    _stand_in_bibliography_styles(uncommented, work)
    tex.write_text("\\PassOptionsToPackage{demo}{graphicx}\n" + text, encoding="utf-8")
    stem = tex.stem
    latex = ["pdflatex", "-interaction=nonstopmode", main]
    _run(latex, work)
    if (work / f"{stem}.bcf").is_file() and shutil.which("biber"):
        _run(["biber", stem], work)
    elif (work / f"{stem}.aux").is_file() and shutil.which("bibtex"):
        _run(["bibtex", stem], work)
    _run(latex, work)
    _run(latex, work)
    pdf = work / f"{stem}.pdf"
    assert pdf.is_file(), f"pdflatex made no PDF of {source}"
    return pdf
