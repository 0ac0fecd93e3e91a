r"""Evidence gap as the release computes it (``Artifacts/evidence_gap``, v1).

Applicable when a tabular outside the appendix's top-level sections is a result
table (`tables`: at least two data rows and four numeric cells). Exhibits are
looked for in the whole expanded text, preamble included:

- ``\begin{...}`` of verbatim, lstlisting, minted, quoting, quote, tcolorbox,
  mdframed, exampleblock, promptbox or examplebox (any case);
- a ``\caption{`` whose first 160 brace-free characters reach one of
  `_CAPTION_PHRASES` (an example, example of, case study, failure case, ...);
- a ````...''`` quotation of 40 to 600 characters without backquotes or
  apostrophes, outside the first section whose title holds "related" (up to
  the next ``\section``).

The paper scores 1 with no exhibit, else 0; there is no "acknowledged gap".
"""

from __future__ import annotations

import re

from slopmark.paper.measures.base import Instance, MeasureResult
from slopmark.paper.reference.expand import RefSource
from slopmark.paper.reference.paper import RefPaper
from slopmark.paper.reference.tables import RefTable, tables

NAME = "evidence_gap"
_ENVIRONMENTS = re.compile(
    r"\\begin\{(verbatim|lstlisting|minted|quoting|quote|tcolorbox|mdframed|exampleblock"
    r"|promptbox|examplebox)\}",
    re.I,
)
_CAPTION_PHRASES = (
    r"an example|example of|examples? (?:of|from|where)|case stud\w*|failure case"
    r"|qualitative (?:example|result|analysis)|sample (?:output|response|generation)"
)
_CAPTION = re.compile(rf"\\caption\{{[^{{}}]{{0,160}}\b({_CAPTION_PHRASES})\b", re.I)
_QUOTE = re.compile(r"``[^`']{40,600}''", re.S)
_RELATED = re.compile(r"\\section\*?\{[^}]*related[^}]*\}", re.I)


def result_tables(paper: RefPaper) -> list[RefTable]:
    appendix = {s.idx for s in paper.tops if s.in_appendix}
    return [
        t for t in tables(paper.tex, paper.start, paper.end)
        if t.rows >= 2 and t.numbers >= 4 and paper.top_of(t.start) not in appendix
    ]  # fmt: skip


def _related_span(paper: RefPaper) -> tuple[int, int] | None:
    found = _RELATED.search(paper.tex, paper.start, paper.end)
    if found is None:
        return None
    following = paper.tex.find("\\section", found.end())
    return found.start(), (following if following > 0 else paper.end)


def exhibits(paper: RefPaper) -> list[tuple[str, int]]:
    """(kind, offset) of every exhibit, in source order."""
    found = [("environment", m.start()) for m in _ENVIRONMENTS.finditer(paper.tex)]
    found += [("caption", m.start()) for m in _CAPTION.finditer(paper.tex)]
    related = _related_span(paper)
    found += [
        ("quotation", m.start()) for m in _QUOTE.finditer(paper.tex)
        if related is None or not related[0] <= m.start() < related[1]
    ]  # fmt: skip
    return sorted(found, key=lambda item: item[1])


def evidence_gap(source: RefSource, paper: RefPaper) -> MeasureResult:
    body_tables = result_tables(paper)
    if not body_tables:
        reason = "no result table in the body (the release's table reading)"
        return MeasureResult.of(NAME, "ARTIFACTS", 0, 0, "papers", reason=reason)
    shown = exhibits(paper)
    detail = {"profile": "reference", "result_tables": len(body_tables),
              "exhibits": [{"kind": k, "at": str(source.span(p))} for k, p in shown]}  # fmt: skip
    if shown:
        return MeasureResult.of(NAME, "ARTIFACTS", 0, 1, "papers", detail=detail)
    at = source.span(body_tables[0].start)
    home = paper.top_of(body_tables[0].start)
    section = paper.tops[home].title if home is not None else ""
    instance = Instance(NAME, at, section, "a result table, and no example, case or failure "
                        "shown anywhere", "show one concrete input/output or failure case")
    return MeasureResult.of(NAME, "ARTIFACTS", 1, 1, "papers", instances=(instance,), detail=detail)
