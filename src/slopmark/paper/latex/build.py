r"""Assembling the `Document`: the document region, the scan, sections, views.

Only text between ``\begin{document}`` and ``\end{document}`` is read. With
no ``\end{document}`` the text is read to its end; with no
``\begin{document}`` the whole text is the document. Both leave a `Note`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from slopmark.paper.document import Document, Float, Label, Note, Section
from slopmark.paper.latex.bibliography import read_bibliography
from slopmark.paper.latex.commands import read_args
from slopmark.paper.latex.convert import Lookup, plain_text
from slopmark.paper.latex.files import FileReader
from slopmark.paper.latex.floats import LabelDraft
from slopmark.paper.latex.macros import find_macros
from slopmark.paper.latex.prose import Bounds, build_views
from slopmark.paper.latex.scan import Scan, Scanner
from slopmark.paper.latex.source import VERBATIM_ENVS, Flat

_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
_END_DOCUMENT = re.compile(r"\\end\s*\{document\}")
_TITLE = re.compile(r"\\title(?![A-Za-z@])")
_VERBATIM = re.compile(
    r"\\begin\s*\{(" + "|".join(re.escape(n) for n in sorted(VERBATIM_ENVS)) + r")\}"
    r"(.*?)(?:\\end\s*\{\1\}|\Z)|\\verb\*?([^A-Za-z\s*])(.*?)\3",
    re.S,
)
_NOT_NEWLINE = re.compile(r"[^\n]")


def mask(text: str) -> str:
    r"""The text with verbatim content (environments and ``\verb``) blanked, positions kept."""
    if "\\begin" not in text and "\\verb" not in text:
        return text
    pieces: list[str] = []
    pos = 0
    for match in _VERBATIM.finditer(text):
        group = 2 if match.group(1) is not None else 4
        pieces += [text[pos : match.start(group)], _NOT_NEWLINE.sub(" ", match.group(group))]
        pos = match.end(group)
    pieces.append(text[pos:])
    return "".join(pieces)


def _region(flat: Flat, masked: str) -> tuple[int, int, list[Note]]:
    notes: list[Note] = []
    begin = _BEGIN_DOCUMENT.search(masked)
    if begin is None:
        notes.append(Note("no \\begin{document}: the whole text is read as the document"))
        start = 0
    else:
        start = begin.end()
    end_match = _END_DOCUMENT.search(masked, start)
    if end_match is None:
        if begin is not None:
            at = flat.span(len(flat.text))
            notes.append(Note("no \\end{document}: read to the end of the text", at))
        return start, len(masked), notes
    return start, end_match.start(), notes


def _title(masked: str, text: str) -> str | None:
    match = _TITLE.search(masked)
    if match is None:
        return None
    args = read_args(text, match.end(), len(text), 1, 1)
    title = plain_text(args.required[0]) if args.required else ""
    return title or None


def _sections(scan: Scan, text: str, flat: Flat, start: int, end: int) -> list[Bounds]:
    headings = scan.headings
    if not headings:
        only = Section(0, 1, "", True, None, "other", 0, True, False, flat.span(start),
                       text[start:end])  # fmt: skip
        return [(only, start, end)]
    bounds: list[Bounds] = []
    for index, heading in enumerate(headings):
        stop = headings[index + 1].pos if index + 1 < len(headings) else end
        section = Section(
            index, heading.level, heading.title, heading.starred, heading.number, heading.role,
            heading.top, heading.in_body, heading.in_appendix, flat.span(heading.pos),
            text[heading.pos : stop],
        )  # fmt: skip
        bounds.append((section, min(heading.content, stop), stop))
    return bounds


def last_definitions(drafts: tuple[LabelDraft, ...]) -> tuple[list[LabelDraft], list[Note]]:
    """Each key's last definition (LaTeX resolves a label defined twice to the last one)."""
    last = {draft.key: draft for draft in drafts}
    kept = [draft for draft in drafts if last[draft.key] is draft]
    notes = [
        Note(f"label '{d.key}' is defined again at {last[d.key].at.file}:{last[d.key].at.line};"
             " the last definition is used, as LaTeX does", d.at)
        for d in drafts if last[d.key] is not d
    ]  # fmt: skip
    return kept, notes


def _floats(scan: Scan, kept: list[LabelDraft]) -> tuple[Float, ...]:
    """The floats in order, each keeping the labels whose last definition it holds."""
    final = {d.key: d.pos for d in kept}
    found = []
    for pos, item in sorted(scan.floats, key=lambda pair: pair[0]):
        end = pos + len(item.source)
        keys = tuple(k for k in item.labels if pos <= final[k] < end)
        found.append(item if keys == item.labels else replace(item, labels=keys))
    return tuple(found)


def build_document(flat: Flat, main: str, reader: FileReader) -> Document:
    """The `Document` of a flattened source."""
    text = flat.text
    masked = mask(text)
    start, end, notes = _region(flat, masked)
    macros = find_macros(masked)
    scan = Scanner(text, masked, flat.span, macros).run(start, end)
    bounds = _sections(scan, text, flat, start, end)
    if not scan.headings:
        notes.append(
            Note("no section headings found: the document is one section", bounds[0][0].at)
        )
    pointers = {name: (m.command, m.before) for name, m in macros.pointers.items()}
    lookup = Lookup(dict(scan.citations), dict(scan.references), dict(scan.floats), scan.regions,
                    pointers, macros.texts)  # fmt: skip
    views = build_views(text, masked, bounds, lookup, flat.span)
    kept, twice = last_definitions(scan.labels)
    bibliography, unread = read_bibliography(text, reader, flat.span)
    labels = tuple(Label(d.key, d.kind, d.section, d.number, d.at) for d in kept)
    return Document(
        main=main,
        files=flat.files,
        title=_title(masked, text),
        sections=tuple(section for section, _, _ in bounds),
        labels=labels,
        references=tuple(reference for _, reference in scan.references),
        citations=tuple(citation for _, citation in scan.citations),
        floats=_floats(scan, kept),
        environments=scan.environments,
        sentences=views.sentences,
        notes=(*flat.notes, *notes, *scan.notes, *twice, *unread),
        structure_view=views.structure,
        prose_view=views.prose,
        origin="latex",
        bibliography=bibliography,
    )
