"""A manuscript under revision: its ``.tex`` tree, its support files, and how it is measured.

The tree (relative posix path → text) holds every ``.tex`` file of the paper
folder; the editor may change these. Support files (``.bib``, ``.bst``,
``.sty``, ``.cls``, ``.bbl``) are read-only: they are copied to every round's
folder and feed the measurement (the bibliography). A file that resolves
outside the folder (a symlink out) is not part of it. Figures and compiled PDFs
are not copied ("Science or Slop?", Appendix D.1): the editor cannot read them
and the deterministic measures do not use them. A records folder inside the
paper folder is not part of the manuscript.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from slopmark.confine import inside
from slopmark.errors import BadInput
from slopmark.paper.document import Document
from slopmark.paper.latex import find_main_file, parse_source
from slopmark.paper.latex.files import read_file
from slopmark.paper.measures.base import Instance, MeasureSpec
from slopmark.paper.revise.align import Tree
from slopmark.paper.score import PaperScore, score_paper

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet

SUPPORT_SUFFIXES = (".bib", ".bst", ".sty", ".cls", ".bbl")


@dataclass(frozen=True)
class Manuscript:
    """A paper folder read into memory."""

    #: The folder it was read from (for messages and reports).
    folder: str
    #: The main ``.tex`` file, relative to the folder.
    main: str
    tree: Tree
    support: Mapping[str, str]


def read_manuscript(folder: Path, main: str | None = None, skip: Path | None = None) -> Manuscript:
    """The manuscript of a paper folder; ``skip`` (e.g. the records folder) is left out."""
    if not folder.is_dir():
        raise BadInput(f"{folder}: not a folder; pass the paper's LaTeX source folder")
    main_path = folder / main if main else find_main_file(folder)
    if not inside(folder, main_path):
        raise BadInput(f"--main {main!r}: resolves outside {folder}; name a file in the folder")
    if not main_path.is_file():
        raise BadInput(f"{main_path}: --main names no file in {folder}")
    files = [p for p in sorted(folder.rglob("*")) if _wanted(p, skip) and inside(folder, p)]
    tree = {_name(folder, p): read_file(p) for p in files if p.suffix == ".tex"}
    support = {_name(folder, p): read_file(p) for p in files if p.suffix in SUPPORT_SUFFIXES}
    return Manuscript(str(folder), _name(folder, main_path), tree, support)


def _wanted(path: Path, skip: Path | None) -> bool:
    if not path.is_file() or path.suffix not in (".tex", *SUPPORT_SUFFIXES):
        return False
    return skip is None or not path.resolve().is_relative_to(skip.resolve())


def _name(folder: Path, path: Path) -> str:
    return path.relative_to(folder).as_posix()


def parse_tree(manuscript: Manuscript, tree: Mapping[str, str]) -> Document:
    """The Document of ``tree`` read from the main file (with the manuscript's support files)."""
    main = manuscript.main
    if main not in tree:
        raise BadInput(f"{manuscript.folder}: the main file {main} is missing from the tree")
    return parse_source(tree[main], main, files={**manuscript.support, **tree})


def measure_tree(
    manuscript: Manuscript,
    tree: Mapping[str, str],
    specs: Sequence[MeasureSpec],
    models: ModelSet | None = None,
) -> PaperScore:
    """The measures of ``specs`` on ``tree`` (with the manuscript's support files)."""
    return score_paper(parse_tree(manuscript, tree), specs, models)


def instances(score: PaperScore) -> list[Instance]:
    """Every located instance of every measure, in report order."""
    return [item for result in score.results for item in result.instances]


def write_tree(folder: Path, manuscript: Manuscript, tree: Mapping[str, str]) -> None:
    """Write ``tree`` and the support files under ``folder`` (a measurable copy of the paper)."""
    for name, text in {**manuscript.support, **tree}.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
